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
