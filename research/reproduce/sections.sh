# Sourced by the reproduce scripts: run_sections "a b c" [ARGS...] runs the functions
# named by ARGS (all of "a b c" when none is given), in order, after checking every name.
run_sections() {
  local all=$1
  shift
  [ $# -gt 0 ] || set -- $all
  for s in "$@"; do
    [[ " $all " == *" $s "* ]] || { echo "error: unknown section '$s'; sections: $all" >&2; exit 2; }
  done
  for s in "$@"; do
    echo "== $s" >&2
    "$s"
  done
}

# ladder_to_docs RUN OUT DEALS TIME: RUN's generations, each with its predecessor and so_ismcts
# at TIME seconds a move, DEALS a table (scripts/ladder.py); its JSON and chart copied to
# OUT_ladder.json and OUT_ladder.png
ladder_to_docs() {
  $PY scripts/ladder.py "$1" --checkpoints gen --baselines so_ismcts --older 0 --time "$4" \
    --deals "$3" --seed 1 --workers 2 --quiet
  cp "$1/ladder/ladder.json" "$2_ladder.json"
  cp "$1/ladder/ladder.png" "$2_ladder.png"
}

# before_deadline: prints the path of a checkout of 0601c7a, the tree before the replay
# pool's deadline (made once with git worktree); its scripts run on this .venv with
# PYTHONPATH set to it
before_deadline() {
  local dir=/tmp/isz_before_deadline
  [ -d "$dir" ] || git worktree add -f "$dir" 0601c7a >&2
  echo "$dir"
}
