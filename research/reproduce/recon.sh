#!/usr/bin/env bash
# docs/results/recon.md: Recon (a satellite hunts a hidden adversary on a ring): the
# default game's training runs, the choice of recon_hard, its planner per seat.
#   bash research/reproduce/recon.sh              # every section, in order (hours)
#   bash research/reproduce/recon.sh candidates   # some sections (the parts below)
# Parts:
#   train: the default game's two runs
#   candidates: rollout margins of the variants (how recon_hard was chosen)
#   hard: training recon_hard, then each row of its planner per seat
#   hard_recipe: recon_hard retrained with today's recipe, against so_ismcts per seat
#   playout: recon_hard plain and with a playout refitted each generation, trained side by
#     side; each against so_ismcts per seat, and so_ismcts's own seat scores (run alone)
#   value_mix: the plain run's planner with the network's values at the root (part playout first)
#   exact: the plain run's planner with the exact filter (bayes) as its recon's belief
#   seeds: the preset at training seeds 0, 1, 2 (two at a time), each against so_ismcts per
#     seat on the seed-2 deals; then so_ismcts with 10x the time in one seat (the ceiling)
#   opponent_model: a model of so_ismcts at 0.02 s fitted to its own games (isz-fit-opponent,
#     from seed 0's network), then the three planners of part seeds with it as their recon's
#     model of the adversary, on the same deals (part seeds first)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
mkdir -p results/recon

train() {  # the default game: leaf values of the root player's view and of the actor's
  $PY scripts/train.py game=recon trainer.iterations=40 trainer.final_eval_deals=500
  $PY scripts/train.py game=recon trainer.iterations=40 trainer.final_eval_deals=500 \
    search.value_view=actor experiment.name=recon_actor
}

candidates() {
  # rollout search on recon variants: so_ismcts vs pimc, cheat_uct vs so_ismcts, vs random
  while read -r name params; do
    for m in so_ismcts,pimc cheat_uct,so_ismcts so_ismcts,random; do
      $PY scripts/evaluate.py game=recon $params "agents=[$m]" deals=500 workers=2 \
        iterations=1000 seed=1 progress=false "output=docs/results/recon/recon_cand_${name}_${m/,/_}.json"
    done
  done <<'EOF'
default
s12t16 game_params.slots=12 game_params.turns=16 game_params.fuel=6 game_params.sensor=[0.9,0.6,0.3]
s16t20 game_params.slots=16 game_params.turns=20 game_params.fuel=8 game_params.sensor=[0.9,0.6,0.3]
s6t13 game_params.slots=6 game_params.turns=13 game_params.fuel=6 game_params.sensor=[0.9,0.6,0.3]
s5t11 game_params.slots=5 game_params.turns=11 game_params.fuel=5 game_params.sensor=[0.95,0.8,0.3]
s5t15 game_params.slots=5 game_params.turns=15 game_params.fuel=7 game_params.sensor=[0.8,0.5,0.2]
hard game_params.slots=5 game_params.turns=15 game_params.fuel=7 game_params.sensor=[0.6,0.3]
EOF
}

hard() {
  # training (3.6-6.3 min on 2 shared cores; trainer.actors=0: the same checkpoint every
  # time), then the planner (as trained: particle filter whose adversary plays the
  # network) per seat, 1,000 deals x 2 seats per row, seed 1
  nice -n 10 $PY scripts/train.py experiment=recon_hard
  ck=runs/recon_hard/checkpoints/last.pt
  H="game=recon game_params.slots=5 game_params.turns=15 game_params.fuel=7"
  for opp in planner_uniform so_ismcts pimc; do
    nice -n 10 $PY -m research.recon_eval $ck --opponent $opp --deals 1000 --seed 1 \
      --iterations 32 --output docs/results/recon/recon_hard_${opp}_sims.json     # equal simulations
    nice -n 10 $PY -m research.recon_eval $ck --opponent $opp --deals 1000 --seed 1 \
      --seconds 0.02 --output docs/results/recon/recon_hard_${opp}_time.json      # equal time: 20 ms a move
  done
  # the two filters at a fixed 512 simulations (the first 300 deals)
  nice -n 10 $PY -m research.recon_eval $ck --opponent planner_uniform --deals 300 --seed 1 \
    --iterations 512 --output docs/results/recon/recon_hard_planner_uniform_sims512.json
  # how well each filter knows the true slot at every recon decision (first 300 deals)
  for n in 32 512; do
    nice -n 10 $PY -m research.recon_eval $ck --opponent planner_uniform --deals 300 --seed 1 \
      --iterations $n --filter-diagnostics --output docs/results/recon/recon_hard_filter_diag_sims$n.json
  done
  # the planner with the uniform-motion filter (both seats) against so_ismcts
  nice -n 10 $PY -m research.recon_eval $ck --belief-policy uniform --opponent so_ismcts \
    --deals 1000 --seed 1 --iterations 32 --output docs/results/recon/recon_hard_uniform_so_ismcts_sims.json
  nice -n 10 $PY -m research.recon_eval $ck --belief-policy uniform --opponent so_ismcts \
    --deals 1000 --seed 1 --seconds 0.02 --output docs/results/recon/recon_hard_uniform_so_ismcts_time.json
  # rollout self-play baselines of each seat (the planner replaces one of the two)
  nice -n 10 $PY scripts/evaluate.py $H "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" \
    deals=1000 seed=1 iterations=32 progress=false output=docs/results/recon/recon_hard_so_self_sims.json
  nice -n 10 $PY scripts/evaluate.py $H "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" \
    deals=1000 seed=1 time_per_move=0.02 progress=false \
    output=docs/results/recon/recon_hard_so_self_time.json
  # is the raw-policy motion model wrong against a searching adversary? (200 deals x 2 seats):
  # adversary-move log-likelihoods under each motion model, P(true slot) per recon turn, the
  # best last move under each filter; budgets 32, 512, and per seat (recon / adversary)
  D="$PY -m research.recon_eval $ck --deals 200 --seed 1 --filter-diagnostics"
  nice -n 10 $D --opponent planner_uniform --iterations 32 \
    --output docs/results/recon/recon_hard_motion_diag_sims32.json
  nice -n 10 $D --opponent planner_uniform --iterations 512 \
    --output docs/results/recon/recon_hard_motion_diag_sims512.json
  nice -n 10 $D --opponent planner_uniform --iterations 512 --adversary-iterations 32 \
    --output docs/results/recon/recon_hard_motion_diag_r512_a32.json
  nice -n 10 $D --opponent planner_uniform --iterations 32 --adversary-iterations 512 \
    --output docs/results/recon/recon_hard_motion_diag_r32_a512.json
  nice -n 10 $D --opponent so_ismcts --seconds 0.02 \
    --output docs/results/recon/recon_hard_motion_diag_so_ismcts_time.json
  # robust motion models in A's filter (belief knobs policy_mix / policy_temperature)
  E="$PY -m research.recon_eval $ck --seed 1"
  nice -n 10 $E --policy-mix 0.3 --opponent planner_uniform --deals 300 --iterations 512 \
    --output docs/results/recon/recon_hard_mix03_planner_uniform_sims512.json
  nice -n 10 $E --policy-temperature 0.5 --opponent planner_uniform --deals 300 --iterations 512 \
    --output docs/results/recon/recon_hard_temp05_planner_uniform_sims512.json
  nice -n 10 $E --policy-mix 0.3 --opponent so_ismcts --deals 1000 --seconds 0.02 \
    --output docs/results/recon/recon_hard_mix03_so_ismcts_time.json
  # the same raw-network motion model, computed exactly (bayes) or with 2,000 particles
  nice -n 10 $E --exact --opponent planner_uniform --deals 300 --iterations 512 \
    --output docs/results/recon/recon_hard_exact_planner_uniform_sims512.json
  nice -n 10 $E --particles 2000 --opponent planner_uniform --deals 300 --iterations 512 \
    --output docs/results/recon/recon_hard_p2000_planner_uniform_sims512.json
  nice -n 10 $E --exact --opponent so_ismcts --deals 300 --seconds 0.02 \
    --output docs/results/recon/recon_hard_exact_so_ismcts_time.json   # 300 deals: the session's time ran out
  for n in 16 4; do  # the expansion threshold in the recon planner (300-deal screens)
    $PY -m research.recon_eval $ck --opponent so_ismcts --deals 300 --seconds 0.02 --seed 1 \
      --planner-knob expand_after=$n \
      --output docs/results/recon/recon_hard_n${n}_so_ismcts_time_300deals.json
  done
  # trained against the exact network filter (self-play's recon believes bayes under the
  # network; 7.3 min), then its planner (as trained) vs so_ismcts at 0.02 s
  $PY scripts/train.py experiment=recon_hard belief=bayes belief.policy=network \
    '~belief.knobs.particles' experiment.name=recon_hard_bayes logger.progress=false
  $PY -m research.recon_eval runs/recon_hard_bayes/checkpoints/last.pt --opponent so_ismcts \
    --deals 1000 --seconds 0.02 --seed 1 --output docs/results/recon/recon_hard_bayes_so_ismcts_time.json
}

hard_recipe() {
  # today's recipe on recon_hard (the page's current result): train, then the planner
  # against so_ismcts per seat and so_ismcts's own seat scores, 500 deals x 2, 0.02 s, idle
  $PY scripts/train.py experiment=recon_hard
  $PY -m research.recon_eval runs/recon_hard/checkpoints/last.pt --opponent so_ismcts \
    --deals 500 --seed 1 --seconds 0.02 \
    --output docs/results/recon/recon_hard_recipe_so_ismcts_time.json
  $PY scripts/evaluate.py game=recon game_params.slots=5 game_params.turns=15 \
    game_params.fuel=7 "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" deals=500 \
    seed=1 time_per_move=0.02 workers=2 progress=false \
    output=docs/results/recon/recon_hard_recipe_so_self_time.json
}

playout() {
  d=docs/results/recon
  for v in plain fit; do
    n=$([ "$v" = fit ] && echo 200 || echo 0)
    $PY scripts/train.py experiment=recon_hard selfplay.playout_fit_games=$n \
      experiment.run_dir=runs/recon_$v logger.progress=false &
  done
  wait
  for v in fit plain; do
    $PY -m research.recon_eval runs/recon_$v/checkpoints/last.pt --opponent so_ismcts \
      --deals 500 --seed 1 --seconds 0.02 --output $d/playout_${v}_vs_so_ismcts_t0.02.json
  done
  $PY scripts/evaluate.py game=recon game_params.slots=5 game_params.turns=15 \
    game_params.fuel=7 "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" deals=500 seed=1 \
    time_per_move=0.02 workers=2 progress=false output=$d/playout_so_self_t0.02.json
}

value_mix() {  # the plain run's planner with the network's values at the root (value_mix 0.25)
  $PY -m research.recon_eval runs/recon_plain/checkpoints/last.pt --opponent so_ismcts \
    --deals 1000 --seed 2 --seconds 0.02 --planner-knob value_mix=0.25 \
    --output docs/results/recon/value_mix0.25_vs_so_ismcts_t0.02_s2.json
}

exact() {  # the plain run's planner, its recon believing the exact filter (part playout first)
  $PY -m research.recon_eval runs/recon_plain/checkpoints/last.pt --opponent so_ismcts \
    --deals 1000 --seed 2 --seconds 0.02 --exact \
    --output docs/results/recon/exact_filter_vs_so_ismcts_t0.02_s2.json
}

seeds() {
  d=docs/results/recon
  for s in 0 1 2; do
    $PY scripts/train.py experiment=recon_hard trainer.seed=$s experiment.run_dir=runs/recon_s$s \
      logger.progress=false
  done
  for s in 0 1 2; do  # two at a time on 2 cores: one process each, like workers=2
    $PY -m research.recon_eval runs/recon_s$s/checkpoints/last.pt --opponent so_ismcts \
      --deals 1000 --seed 2 --seconds 0.02 --output $d/preset_s${s}_vs_so_ismcts_t0.02_s2.json &
    [ "$s" = 1 ] && wait
  done
  wait
  # does more search in one seat help against so_ismcts at 0.02 s? (500 deals x 2 seats)
  $PY -m research.head_to_head --game recon --game-param slots=5 --game-param turns=15 \
    --game-param fuel=7 --game-param 'sensor=[0.6,0.3]' --time 0.02 --deals 500 --seed 2 \
    --workers 2 --baseline so_ismcts,time_budget=0.2 --baseline so_ismcts \
    --output $d/so_t0.2_vs_so_t0.02_s2.json
}

opponent_model() {
  local d=docs/results/recon
  $PY scripts/fit_opponent.py runs/recon_s0/checkpoints/last.pt --knob time_budget=0.02 \
    --games 1800 --test-games 200 --seed 1000 --output runs/opp/so_model.pt
  for s in 0 1 2; do  # two at a time on 2 cores, as part seeds
    $PY -m research.recon_eval runs/recon_s$s/checkpoints/last.pt --opponent so_ismcts \
      --deals 1000 --seed 2 --seconds 0.02 --planner-knob opponent_model=runs/opp/so_model.pt \
      --output $d/opponent_model_s${s}_vs_so_ismcts_t0.02_s2.json &
    [ "$s" = 1 ] && wait
  done
  wait
}

run_sections "train candidates hard hard_recipe playout value_mix exact seeds opponent_model" "$@"
