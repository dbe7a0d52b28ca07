#!/usr/bin/env bash
# docs/results/tricks.md: trick-taking games, rollout search and the trained planner: the
# seed's matchups, the default training run, the planner at equal simulations and time.
#   bash research/reproduce/tricks.sh             # every section, in order (hours)
#   bash research/reproduce/tricks.sh seed        # some sections (the parts below)
# Parts:
#   seed: the seed's three matchups, 6,000 deals each
#   train: the default run (make train)
#   equal_time: its planner at equal time
#   ladder: its generations rated against each other and so_ismcts (0.01 s a move)
#   seed1: the default run at training seed 1, at equal time
#   plays: the recipe with sir weighing no card plays (plays=0, as before plays=4 was
#     the default), its planner with and without the opponent's plays weighed
#   world_value: world-value leaves against playouts
#   z_values: the value head trained on the final return, at the root against none
#   short_values: the default run's values at the root against none at 2, 3 and 5 ms a move
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
mkdir -p results/tricks runs

seed() {  # the seed's three matchups, 6,000 deals each
  for m in so_ismcts,pimc cheat_uct,so_ismcts so_ismcts,random; do
    $PY scripts/evaluate.py game=tricks "agents=[$m]" deals=6000 iterations=1000 seed=1 \
      progress=false "output=docs/results/tricks/seed_${m/,/_}.json"
  done
}

train() {  # the default run (make train), evaluated over 1,000 deals
  $PY scripts/train.py trainer.final_eval_deals=1000
}

equal_time() {  # the default run's planner at equal time against so_ismcts + voids
  ck=runs/tricks/checkpoints/last.pt
  [ -f $ck ] || $PY scripts/train.py
  for t in 0.01 0.05; do
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.so_ismcts.belief=voids \
      deals=1000 seed=7 time_per_move=$t workers=2 progress=false \
      output=docs/results/tricks/eq_default_recipe_t$t.json
  done
  for s in 1 8 9; do  # other deals: the spread over deal seeds
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.so_ismcts.belief=voids \
      deals=1000 seed=$s time_per_move=0.01 workers=2 progress=false \
      output=docs/results/tricks/eq_default_recipe_t0.01_seed$s.json
  done
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.so_ismcts.belief=voids \
    deals=1000 seed=1 time_per_move=0.05 workers=2 progress=false \
    output=docs/results/tricks/eq_default_recipe_t0.05_seed1.json
  $PY -m research.head_to_head --game tricks --time 0.01 --deals 1000 --seed 5 \
    --planner vm0=$ck,value_mix=0 --planner vm25=$ck,value_mix=0.25 \
    --output docs/results/tricks/value_mix_default_recipe_t0.01.json
}

ladder() {  # the default run's generations, 500 deals a table at 0.01 s a move
  [ -f runs/tricks/checkpoints/gen-000040.pt ] || $PY scripts/train.py
  $PY scripts/ladder.py runs/tricks --checkpoints gen --baselines so_ismcts --older 0 \
    --time 0.01 --deals 500 --seed 1 --quiet
  cp runs/tricks/ladder/ladder.json docs/results/tricks/default_recipe_ladder.json
  cp runs/tricks/ladder/ladder.png docs/results/tricks/default_recipe_ladder.png
}

seed1() {  # the default run at training seed 1, its planner at equal time
  ck=runs/tricks_s1/checkpoints/last.pt
  [ -f $ck ] || $PY scripts/train.py experiment.name=tricks_s1 trainer.seed=1 logger.progress=false
  for t in 0.01 0.05; do
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.so_ismcts.belief=voids \
      deals=1000 seed=7 time_per_move=$t workers=2 progress=false \
      output=docs/results/tricks/eq_default_recipe_seed1_t$t.json
  done
}

plays() {  # sir weighing no card plays in training, then with and without them in play
  ck=runs/tricks_plays0/checkpoints/last.pt
  [ -f $ck ] || $PY scripts/train.py experiment.name=tricks_plays0 belief=sir \
    belief.knobs.plays=0 logger.progress=false
  for run in "0.01 7" "0.01 8" "0.05 7"; do
    set -- $run
    for p in 0 4; do
      $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" \
        knobs.so_ismcts.belief=voids "knobs.planner.belief={name:sir,plays:$p}" \
        deals=1000 seed=$2 time_per_move=$1 workers=2 progress=false \
        output=docs/results/tricks/plays${p}_planner_t$1_seed$2.json
    done
  done
}

world_value() {  # so_ismcts with world-value leaves against so_ismcts (What did not work)
  for n in 3000 30000; do
    $PY -m research.world_value.probe --game tricks --belief uniform --games $n \
      --iterations 300 --save runs/wv_tricks_$n.npz > docs/results/tricks/world_value_probe_$n.json
  done
  for m in 0 0.5; do
    $PY -m research.world_value.match --game tricks --belief uniform --weights runs/wv_tricks_3000.npz \
      --leaf_mix $m --time 0.01 --deals 1000 --seed 95 | tail -1 \
      > docs/results/tricks/world_value_3k_leaf_mix${m}_t0.01_s95.json
  done
  $PY -m research.world_value.match --game tricks --belief uniform --weights runs/wv_tricks_30000.npz \
    --leaf_mix 0 --time 0.01 --deals 1000 --seed 95 | tail -1 \
    > docs/results/tricks/world_value_30k_leaf_mix0_t0.01_s95.json
}

z_values() {  # make train with value_target_q=0, then value_mix 0.25 against 0 (What did not work)
  $PY scripts/train.py experiment.run_dir=runs/tricks_z selfplay.value_target_q=0 \
    logger.progress=false
  $PY -m research.head_to_head --game tricks --time 0.01 --deals 1000 --seed 5 --workers 2 \
    --planner vm0=runs/tricks_z/checkpoints/last.pt,value_mix=0 \
    --planner vm25=runs/tricks_z/checkpoints/last.pt,value_mix=0.25 \
    --output docs/results/tricks/value_mix_z_targets_t0.01.json
}

short_values() {  # value_mix 0.25 against 0 at short budgets (part train first)
  for t in 0.001 0.003; do  # the first screen, 1,000 deals
    $PY -m research.head_to_head --game tricks --time $t --deals 1000 --seed 11 --workers 2 \
      --planner vm0=runs/tricks/checkpoints/last.pt,value_mix=0 \
      --planner vm25=runs/tricks/checkpoints/last.pt,value_mix=0.25 \
      --output docs/results/tricks/value_mix_default_recipe_t${t}_s11.json
  done
  for t in 0.002 0.003 0.005; do
    $PY -m research.head_to_head --game tricks --time $t --deals 2000 --seed 12 --workers 2 \
      --planner vm0=runs/tricks/checkpoints/last.pt,value_mix=0 \
      --planner vm25=runs/tricks/checkpoints/last.pt,value_mix=0.25 \
      --output docs/results/tricks/value_mix_default_recipe_t${t}_s12.json
  done
}

run_sections "seed train equal_time ladder seed1 plays world_value z_values short_values" "$@"
