#!/usr/bin/env bash
# docs/results/lost_cities.md: Lost Cities (examples/lost_cities.py, held out from the
# recipe), the default recipe with nothing named but the game. Run the matches alone:
# equal-time matches are load-sensitive.
#   bash research/reproduce/lost_cities.sh             # every part, in order
#   bash research/reproduce/lost_cities.sh seeds       # some parts
# Parts:
#   reference: so_ismcts against random (200 deals x 2 seats), cheat_uct against so_ismcts
#     (300 deals x 2), 0.01 s a move, deal seed 1
#   seeds: training seeds 0-2 (runs/recipe_lost_cities_sS; their checks, final evaluations
#     and ladders copied), each checkpoint with no knobs against so_ismcts at 0.01 s a move,
#     1,000 deals x 2 seats, deal seed 147
#   slow: each seed's checkpoint at 0.05 s a move, 300 deals x 2
#   variants: seed 0's checkpoint without the values its run recorded (value_mix=0) and
#     with so_ismcts's UCB root (c_puct=0), at 0.01 s
#   deadline: the planner's time a decision (research.decision_time: 30 games against
#     so_ismcts at 0.01 s, the first 2 left out, seed 7), Lost Cities and Battleship seed 0
#     (needs runs/recipe_battleship_s0: bash research/reproduce/recipe.sh battleship)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
OUT=docs/results/lost_cities
LC=(game.name=lost_cities game.module=examples.lost_cities)
mkdir -p $OUT

# lc_match AGENTS TIME DEALS OUT [OVERRIDES...]: a match, deal seed $SEED (147), into
# $OUT/OUT.json
lc_match() {
  local agents=$1 t=$2 deals=$3 out=$4
  shift 4
  $PY scripts/evaluate.py game=lost_cities game_module=examples.lost_cities "agents=[$agents]" \
    time_per_move=$t deals=$deals seed=${SEED:-147} workers=2 progress=false \
    output=$OUT/$out.json "$@"
}

reference() {
  SEED=1 lc_match so_ismcts,random 0.01 200 so_ismcts_vs_random_t0.01
  SEED=1 lc_match cheat_uct,so_ismcts 0.01 300 cheat_uct_vs_so_ismcts_t0.01
}

seeds() {
  local s run
  for s in 0 1 2; do
    run=runs/recipe_lost_cities_s$s
    $PY scripts/train.py "${LC[@]}" trainer.seed=$s experiment.run_dir=$run logger.progress=false
    cp $run/results.json $OUT/s${s}_run.json
    cp $run/ladder/ladder.json $OUT/s${s}_ladder.json
    cp $run/ladder/ladder.png $OUT/s${s}_ladder.png
    lc_match planner,so_ismcts 0.01 1000 s${s}_vs_so_ismcts_t0.01 checkpoint=$run/checkpoints/last.pt
  done
}

slow() {
  local s
  for s in 0 1 2; do
    lc_match planner,so_ismcts 0.05 300 s${s}_vs_so_ismcts_t0.05 \
      checkpoint=runs/recipe_lost_cities_s$s/checkpoints/last.pt
  done
}

variants() {
  local kv
  for kv in value_mix=0 c_puct=0; do
    lc_match planner,so_ismcts 0.01 1000 s0_${kv/=/}_vs_so_ismcts_t0.01 \
      checkpoint=runs/recipe_lost_cities_s0/checkpoints/last.pt knobs.planner.$kv
  done
}

deadline() {
  local g
  for g in lost_cities battleship; do
    $PY -m research.decision_time runs/recipe_${g}_s0/checkpoints/last.pt --time 0.01 \
      --games 30 --seed 7 --output $OUT/decision_time_${g}_s0_t0.01.json
  done
}

run_sections "reference seeds slow variants deadline" "$@"
