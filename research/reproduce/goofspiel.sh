#!/usr/bin/env bash
# docs/results/goofspiel.md: examples/goofspiel.py (4 cards) trained with the default recipe
# through game.module, then its planner against so_ismcts at 0.01 s a move, at training seeds 0-2 (about
# 10 minutes a seed on 2 cores; run the match alone: equal-time matches are load-sensitive),
# the values at the root, the fitted playout, the ladders of two runs whose generations double,
# and five cards (the replay belief against uniform worlds; then the replay runs on this
# code and on the tree before the replay pool's deadline).
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=.venv/bin/python
source research/reproduce/sections.sh  # ladder_to_docs, before_deadline
for s in 0 1 2; do  # seed 0's run and JSON keep their first names; 1 and 2 give the spread
  sfx=$([ "$s" = 0 ] || echo "_s$s")
  $PY scripts/train.py game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel \
    trainer.seed=$s experiment.run_dir=runs/goofspiel$sfx logger.progress=false
  $PY scripts/evaluate.py checkpoint=runs/goofspiel$sfx/checkpoints/last.pt "agents=[planner,so_ismcts]" \
    time_per_move=0.01 deals=1000 seed=1 workers=2 progress=false \
    output=docs/results/goofspiel/goofspiel_recipe${sfx}_vs_so_ismcts_t0.01.json
done
# the network's values at the root (value_mix 0.25) against none, seed 0's checkpoint
$PY -c "import sys, examples.goofspiel; from research.head_to_head import main; main(sys.argv[1:])" \
  --game goofspiel --time 0.01 --deals 1000 --seed 5 --workers 2 \
  --planner vm0=runs/goofspiel/checkpoints/last.pt,value_mix=0 \
  --planner vm25=runs/goofspiel/checkpoints/last.pt,value_mix=0.25 \
  --output docs/results/goofspiel/goofspiel_recipe_value_mix_t0.01.json
# a playout fitted to the planner each generation (selfplay.playout_fit_games), training
# seed 0, against the plain run and against so_ismcts
for v in plain fit; do
  n=$([ "$v" = fit ] && echo 200 || echo 0)
  $PY scripts/train.py game.name=goofspiel game.module=examples.goofspiel experiment.name=goof_${v}_s0 \
    selfplay.playout_fit_games=$n logger.progress=false
  $PY scripts/evaluate.py checkpoint=runs/goof_${v}_s0/checkpoints/last.pt "agents=[planner,so_ismcts]" \
    time_per_move=0.01 deals=1000 seed=1 workers=2 progress=false \
    output=docs/results/goofspiel/playout_${v}_s0_vs_so_ismcts_t0.01.json
done
$PY -c "import sys, examples.goofspiel; from research.head_to_head import main; main(sys.argv[1:])" \
  --game goofspiel --time 0.01 --deals 1000 --seed 5 --workers 2 \
  --planner fit=runs/goof_fit_s0/checkpoints/last.pt --planner plain=runs/goof_plain_s0/checkpoints/last.pt \
  --output docs/results/goofspiel/playout_fit_vs_plain_s0_t0.01.json
# generations that double (trainer.generation_schedule=doubling: iterations 1, 2, 4, ..., 32
# and 40), training seeds 0 and 1, and the ladder of each run's generations at 0.01 s a
# move (1,000 deals a table; about 3 minutes of training and 18 of ladder a seed)
for s in 0 1; do
  $PY scripts/train.py game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel \
    trainer.generation_schedule=doubling trainer.seed=$s experiment.run_dir=runs/goof_dbl_s$s \
    logger.progress=false
  ladder_to_docs runs/goof_dbl_s$s docs/results/goofspiel/doubling_s$s 1000 0.01
  cp runs/goof_dbl_s$s/results.json docs/results/goofspiel/doubling_s${s}_run.json
done
# five cards, too many histories for the exact posterior: belief=auto is the replay belief
# (examples/goofspiel.py's kernel has history); training seeds 0-2, and seeds 0-2 again with
# uniform worlds (belief.name=uniform, what auto was before it), each against so_ismcts at
# 0.01 s a move (deal seed 97); then seed 0 of each at 5,000 simulations a move
G5=(game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel game.params.cards=5)
for s in 0 1 2; do
  for v in replay uniform; do
    belief=$([ "$v" = uniform ] && echo "belief.name=uniform" || echo "belief.name=auto")
    $PY scripts/train.py "${G5[@]}" $belief trainer.seed=$s experiment.run_dir=runs/goof5_${v}_s$s \
      logger.progress=false
    $PY scripts/evaluate.py checkpoint=runs/goof5_${v}_s$s/checkpoints/last.pt "agents=[planner,so_ismcts]" \
      time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
      output=docs/results/goofspiel/cards5_${v}_s${s}_vs_so_ismcts_t0.01.json
  done
done
for v in replay uniform; do
  $PY scripts/evaluate.py checkpoint=runs/goof5_${v}_s0/checkpoints/last.pt "agents=[planner,so_ismcts]" \
    iterations=5000 deals=1000 seed=97 workers=2 progress=false \
    output=docs/results/goofspiel/cards5_${v}_s0_vs_so_ismcts_i5000.json
done
# the replay runs' planners without the values their value checks recorded (value_mix=0)
for s in 0 1 2; do
  $PY scripts/evaluate.py checkpoint=runs/goof5_replay_s$s/checkpoints/last.pt "agents=[planner,so_ismcts]" \
    knobs.planner.value_mix=0 time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
    output=docs/results/goofspiel/cards5_replay_s${s}_novalues_vs_so_ismcts_t0.01.json
done
# the five-card replay runs above, on code where the replay pool has a deadline under a
# time budget: seeds 0-2 against so_ismcts at 0.01 and 0.05 s, and at 0.01 s on the
# tree before the deadline (the same checkpoints)
old=$(before_deadline)
for s in 0 1 2; do
  cp runs/goof5_replay_s$s/results.json docs/results/goofspiel/cards5_pool_s${s}_run.json
  for t in 0.01 0.05; do
    $PY scripts/evaluate.py checkpoint=runs/goof5_replay_s$s/checkpoints/last.pt "agents=[planner,so_ismcts]" \
      time_per_move=$t deals=1000 seed=97 workers=2 progress=false \
      output=docs/results/goofspiel/cards5_pool_s${s}_vs_so_ismcts_t$t.json
  done
  PYTHONPATH=$old $PY $old/scripts/evaluate.py checkpoint=runs/goof5_replay_s$s/checkpoints/last.pt \
    "agents=[planner,so_ismcts]" time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
    output=docs/results/goofspiel/cards5_pool_s${s}_vs_so_ismcts_t0.01_before_deadline.json
done
$PY -m research.decision_time runs/goof5_replay_s0/checkpoints/last.pt --time 0.01 --games 30 \
  --seed 7 --output docs/results/goofspiel/cards5_pool_s0_decision_time_t0.01.json
