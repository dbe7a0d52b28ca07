#!/usr/bin/env bash
# docs/results/nash.md: toward Nash on Kuhn and Leduc poker: exploitability of search
# alone, of AlphaZero-style training, and of the mirror-descent recipes (kuhn_nash,
# kuhn_nash_magnet, leduc_nash, leduc_nash_magnet, leduc_nash_average) over seeds.
#   bash research/reproduce/nash.sh               # every section, in order (hours)
#   bash research/reproduce/nash.sh recipes       # some sections (the parts below)
# Parts:
#   search: search-only agents' exploitability
#   first_runs: AlphaZero targets, kuhn_nash, leduc_nash
#   equal_time: the planner's exploitability at a fixed time and simulation count
#   recipes: the three-seed trainings, the tables, the curves, the ablations, the tabular dynamics
#   targets: where the Leduc targets' error comes from, leduc_nash_v2 (cut to fit a shared
#            machine) beside an equal-positions control, the Kuhn planner with common_worlds
#   nfsp: NFSP's average-policy network on Leduc (leduc_nash_nfsp at 100 iterations), the
#         Kuhn planner with common worlds and step 0.25 on new training and planner seeds
#   nfsp_long: leduc_nash_nfsp as it is (250 iterations), its tables and curve
#   nfsp_sqrt, nfsp_cw, nfsp_eta10: the preset with t^0.5 weighting / with common worlds
#            in training / with mirror step 10,
#            every iterate kept, and the exact averages of those iterates
#   nfsp_target: eta 10 with a uniform average network fitted to the search's policies
#            or to the network's (trainer.average_policy_target), and their reservoirs
#   nfsp_iterates: leduc_nash_nfsp_iterates (eta 10, uniform average of the network
#            iterates, 2,000,000-row reservoir, polish 8,000) on training seeds 0-2 made
#            unpolished, polished after the fact, and the preset as is on seed 3
#   kuhn_fsp: kuhn_nash_fsp (an own-games average of the late iterates, a planner with
#            common worlds and step 0.25) chosen on seeds 0-2's saved iterates and on
#            seeds 3-5, judged on seeds 6-8
#   fsp: leduc_nash_fsp (the average network from the network's own games against
#            uniform play) re-learned on nfsp_eta10's iterates, and the preset on seeds 3-5
#   fsp350: leduc_nash_fsp at 350 iterations on training seeds 0-3 with every iterate
#            kept, its average networks and the exact averages of their iterates; seed 4
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
mkdir -p results/nash

search() {  # search-only agents: exact exploitability on Kuhn and Leduc
  $PY - <<'PYEOF'
import isz
from isz.evaluation import agent_policy, exploitability
for g in ("kuhn_poker", "leduc_poker"):
    game = isz.make_game(g)
    for name in ("so_ismcts", "mo_ismcts", "pimc"):
        for its in (1000, 10000):
            for sel in ("ucb", "smooth"):
                ag = isz.make_agent(name, game, iterations=its, selection=sel,
                                    final="visit_distribution")
                e = exploitability(game, agent_policy(ag, 0)).exploitability
                print(g, name, its, sel, round(e, 4), flush=True)
PYEOF
}

first_runs() {  # AlphaZero targets (kuhn 30, leduc 60 iterations), then kuhn_nash, leduc_nash
  $PY scripts/train.py game=kuhn_poker trainer.iterations=30 trainer.final_eval_deals=200
  $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.eval_deals=100 \
    trainer.final_eval_deals=500
  # toward Nash: posterior belief under the network, on-policy q, mirror-descent targets
  $PY scripts/train.py experiment=kuhn_nash
  $PY scripts/train.py experiment=leduc_nash
  for ck in last best; do
    $PY scripts/evaluate.py checkpoint=runs/leduc_nash/checkpoints/$ck.pt "agents=[planner]" \
      deals=1 iterations=1024 exploitability=true knobs.planner.mirror_eta=5 progress=false \
      output=results/nash/leduc_nash_$ck.json
  done
}

equal_time() {  # the planner's exploitability at a fixed time and at a fixed simulation
  # count, per planner seed (Kuhn toward Nash; Leduc with AlphaZero targets)
  [ -f runs/kuhn_nash/checkpoints/last.pt ] || $PY scripts/train.py experiment=kuhn_nash
  [ -f runs/leduc_poker/checkpoints/last.pt ] || \
    $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.final_eval_deals=10
  for s in 0 1 2 3 4; do
    for b in time_per_move=0.01 iterations=64; do
      $PY scripts/evaluate.py checkpoint=runs/kuhn_nash/checkpoints/last.pt \
        "agents=[planner]" deals=1 $b seed=$s exploitability=true progress=false \
        output=results/nash/kuhn_nash_${b/=/_}_s$s.json
    done
  done
  for s in 0 1 2; do
    for b in time_per_move=0.01 iterations=128; do
      $PY scripts/evaluate.py checkpoint=runs/leduc_poker/checkpoints/last.pt \
        "agents=[planner]" deals=1 $b seed=$s exploitability=true progress=false \
        output=results/nash/leduc_az_${b/=/_}_s$s.json
    done
  done
}

recipes() {
  # a last iterate you can trust: final checkpoints (last.pt) of kuhn_nash and
  # kuhn_nash_magnet over training seeds 0-2 x planner seeds 0-4 (~15 min on 2 cores)
  for s in 0 1 2; do
    $PY scripts/train.py experiment=kuhn_nash trainer.seed=$s \
      experiment.run_dir=runs/kuhn_nash_s$s logger.progress=false
    $PY scripts/train.py experiment=kuhn_nash_magnet trainer.seed=$s \
      experiment.run_dir=runs/kuhn_nash_magnet_s$s logger.progress=false
  done
  $PY -m research.nash_table --run "kuhn_nash=runs/kuhn_nash_s*" \
    --run "kuhn_nash_magnet=runs/kuhn_nash_magnet_s*" --output docs/results/nash/kuhn_nash_table.json
  $PY -m research.nash_table --run "kuhn_nash_magnet (planner step 2)=runs/kuhn_nash_magnet_s*" \
    --knob mirror_eta=2.0 --output docs/results/nash/kuhn_nash_magnet_step2_table.json
  for e in 2.0 1.0 0.5 0.25; do   # the planner's step, training seed 0
    $PY -m research.nash_table --run "step $e=runs/kuhn_nash_magnet_s0" --knob mirror_eta=$e
  done
  # plain AlphaZero targets for the figure (0.4 min each), evaluated every 3 iterations
  for s in 0 1 2; do
    $PY scripts/train.py game=kuhn_poker trainer.iterations=30 trainer.eval_every=3 \
      trainer.eval_deals=20 trainer.final_eval_deals=200 'trainer.eval_opponents=[so_ismcts]' \
      trainer.seed=$s experiment.run_dir=runs/kuhn_az_s$s logger.progress=false
  done
  # (the committed figure kept the kuhn_nash, kuhn_nash_magnet and CFR curves of an earlier
  # JSON and added AlphaZero's: --include docs/results/nash/kuhn_nash_curves.json --cfr-from it)
  $PY -m research.nash_curves --run "kuhn_nash=runs/kuhn_nash_s*" \
    --run "kuhn_nash_magnet=runs/kuhn_nash_magnet_s*" --run "AlphaZero targets=runs/kuhn_az_s*" \
    --output docs/results/nash/kuhn_nash_curves --png docs/results/nash/kuhn_nash_curves.png
  # the ablations (training seed 0)
  M="search.magnet=network"
  U="search.root_selection=uniform"
  while read -r name overrides; do
    # shellcheck disable=SC2086  # the overrides are words
    $PY scripts/train.py experiment=kuhn_nash $overrides experiment.run_dir=runs/abl_$name \
      logger.progress=false
  done <<ABLATIONS
uniform_root $U
magnet10 $M search.magnet_every=10
magnet20 $M search.magnet_every=20
magnet30 $M search.magnet_every=30
both10 $U $M search.magnet_every=10
both20 $U $M search.magnet_every=20
both20_i200 $U $M search.magnet_every=20 trainer.iterations=200
both30_i200 $U $M search.magnet_every=30 trainer.iterations=200
both20_sim128 $U $M search.magnet_every=20 search.simulations=128
ABLATIONS
  # the same dynamics with exact q (tabular): uniform magnet, moving magnet, network lag
  $PY -m research.mirror_dynamics kuhn_poker alpha=0.1 alpha=0.1,magnet=network,every=10 \
    alpha=0.1,magnet=network,every=10,lag=0.35 alpha=0.1,magnet=network,every=20,lag=0.35 \
    alpha=0.1,magnet=network,every=30,lag=0.35
  # Leduc: leduc_nash (seeds 0-1, run before checkpoint_every=1: its table as it was),
  # leduc_nash_magnet (seeds 0-2),
  # every iteration's checkpoint kept (the iterate averages below read them; training is
  # unchanged by it); final checkpoints over planner seeds 0-4
  K="trainer.checkpoint_every=1 trainer.keep_last=1000 logger.progress=false"
  for s in 0 1; do
    $PY scripts/train.py experiment=leduc_nash trainer.eval_every=20 trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_s$s $K
  done
  for s in 0 1 2; do
    $PY scripts/train.py experiment=leduc_nash_magnet trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_magnet_s$s $K
  done
  # experiment=leduc_nash_average is leduc_nash_magnet with trainer.average_from=10: the
  # same training, its average.pt = average-from-10.pt below. The longer step tried:
  $PY scripts/train.py experiment=leduc_nash_average search.mirror_eta=10 \
    search.mirror_alpha=0.02 trainer.iterations=150 trainer.eval_every=25 \
    experiment.run_dir=runs/leduc_abl_average_eta10_a02_s0 $K
  $PY -m research.nash_table --run "leduc_nash=runs/leduc_nash_s*" \
    --run "leduc_nash_magnet=runs/leduc_nash_magnet_s[01]" --planner-seeds 0 1 2 \
    --output docs/results/nash/leduc_nash_table.json   # the earlier table: seeds 0-1 x 0-2
  $PY -m research.nash_table --run "leduc_nash_magnet=runs/leduc_nash_magnet_s*" \
    --output docs/results/nash/leduc_nash_magnet_table.json
  $PY -m research.average_checkpoints runs/leduc_nash_magnet_s* --from 10
  $PY -m research.nash_table --run "leduc_nash_magnet, weights averaged from 10=runs/leduc_nash_magnet_s*" \
    --checkpoint average-from-10.pt --output docs/results/nash/leduc_nash_magnet_average_table.json
  $PY -m research.nash_table \
    --run "leduc_nash_magnet, weights averaged from 10, planner step 0.5=runs/leduc_nash_magnet_s*" \
    --checkpoint average-from-10.pt --knob mirror_eta=0.5 \
    --output docs/results/nash/leduc_nash_magnet_average_step05_table.json
  R=runs/leduc_abl_average_eta10_a02_s0
  $PY -m research.nash_table --run "eta 10, alpha 0.02, 150 it, last.pt=$R" \
    --output docs/results/nash/leduc_abl_average_eta10_last_table.json
  $PY -m research.nash_table --run "eta 10, alpha 0.02, 150 it, average.pt=$R" \
    --checkpoint average.pt --output docs/results/nash/leduc_abl_average_eta10_table.json
  $PY -m research.iterate_averages runs/leduc_nash_magnet_s* --from 1 10 20 50 \
    --output docs/results/nash/leduc_iterate_averages_magnet.json
  $PY -m research.iterate_averages $R --from 1 10 20 50 100 \
    --output docs/results/nash/leduc_iterate_averages_abl_eta10.json
  # plain AlphaZero targets for the figure (1.0 min each), evaluated every 10 iterations
  for s in 0 1 2; do
    $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.eval_every=10 \
      trainer.eval_deals=20 trainer.final_eval_deals=200 'trainer.eval_opponents=[so_ismcts]' \
      trainer.seed=$s experiment.run_dir=runs/leduc_az_s$s logger.progress=false
  done
  # (the committed figure kept leduc_nash's curve, seeds 0-1, and CFR's from an earlier
  # JSON: --include "OLD.json#leduc_nash" --cfr-from OLD.json)
  $PY -m research.nash_curves --game leduc_poker --cfr-iterations 1000 \
    --run "leduc_nash=runs/leduc_nash_s*" --run "leduc_nash_magnet=runs/leduc_nash_magnet_s*" \
    --average-curve "magnet, weights averaged=runs/leduc_nash_magnet_s*" --average-from 10 \
    --run "AlphaZero targets=runs/leduc_az_s*" \
    --output docs/results/nash/leduc_nash_curves --png docs/results/nash/leduc_nash_curves.png
  # Leduc ablations (seed 0; docs/results/nash/leduc_nash_ablations.json)
  L="experiment=leduc_nash_magnet selfplay.games_per_iteration=1024"
  while read -r name overrides; do
    # shellcheck disable=SC2086  # the overrides are words
    $PY scripts/train.py $overrides experiment.run_dir=runs/leduc_abl_$name \
      logger.progress=false
  done <<ABLATIONS
magnet_buf8k $L trainer.buffer_size=8000
magnet_eta2 $L trainer.buffer_size=8000 search.mirror_eta=2.0
uniform_root experiment=leduc_nash search.root_selection=uniform trainer.eval_every=20
magnet_buf24k $L
magnet_buf24k_i200 $L trainer.iterations=200
ABLATIONS
  $PY -m research.mirror_dynamics leduc_poker alpha=0.05 \
    alpha=0.05,eta=10,magnet=network,every=20,lag=0.35
  # the tabular dynamics with iterate averages (about 10 min on one core)
  L=lag=0.35,iters=200
  M=magnet=network
  $PY -m research.mirror_dynamics leduc_poker alpha=0.05,eta=10,$L,avg_from=1,avg_weight=linear \
    alpha=0.05,eta=10,$M,every=20,$L,avg_from=1,avg_weight=linear \
    alpha=0.05,eta=10,$M,every=20,$L,avg_from=50 \
    alpha=0.05,eta=10,$M,every=20,$L,avg_from=30,avg_weight=logit \
    alpha=0.05,eta=5,$M,every=20,$L,avg_from=1,avg_weight=linear \
    alpha=0.05,eta=5,$M,every=20,$L,avg_from=30,avg_weight=logit \
    alpha=0.02,eta=10,$M,every=20,$L,avg_from=1,avg_weight=linear \
    alpha=0.05,eta=10,$M,every=40,$L,avg_from=1,avg_weight=linear \
    alpha=0.0,eta=10,$L,avg_from=1,avg_weight=linear \
    --output docs/results/nash/leduc_mirror_dynamics.json
  S=""
  for seed in 0 1 2; do
    N=noise=0.05,seed=$seed
    S="$S alpha=0.05,eta=10,$M,every=20,$L,avg_from=1,avg_weight=linear,$N"
    S="$S alpha=0.05,eta=10,$M,every=20,$L,avg_from=30,avg_weight=logit,$N"
    S="$S alpha=0.05,eta=5,$M,every=20,$L,avg_from=30,avg_weight=logit,$N"
    S="$S alpha=0.05,eta=10,$L,avg_from=1,avg_weight=linear,$N"
    S="$S alpha=0.05,eta=10,$M,every=20,$L,avg_from=10,avg_weight=logit,$N"
    S="$S alpha=0.02,eta=10,$M,every=20,$L,avg_from=10,avg_weight=logit,$N"
  done
  S="$S alpha=0.05,eta=10,$M,every=20,$L,avg_from=1,avg_weight=linear,noise=0.1,seed=0"
  # shellcheck disable=SC2086  # the specs are words
  $PY -m research.mirror_dynamics leduc_poker $S --output docs/results/nash/leduc_mirror_dynamics_noise.json
}

targets() {
  K="trainer.checkpoint_every=1 trainer.keep_last=1000 logger.progress=false"
  # the first iterations of a leduc_nash_magnet run (stopped after 13 in the measurement)
  [ -f runs/leduc_magnet_s0/checkpoints/iter-000011.pt ] || \
    $PY scripts/train.py experiment=leduc_nash_magnet trainer.iterations=13 \
      experiment.run_dir=runs/leduc_magnet_s0 $K
  I=runs/leduc_magnet_s0/checkpoints
  $PY -m research.leduc_target_error $I/iter-000010.pt --next $I/iter-000011.pt \
    --variants network exact common --json docs/results/nash/leduc_target_error.json
  $PY -m research.leduc_target_error $I/iter-000010.pt --simulations 512 --repeats 2 \
    --round1-factor 64 --json docs/results/nash/leduc_target_error_512.json
  # one iteration played: as trained (2,048 games), and as leduc_nash_v2 plays it
  $PY -m research.leduc_iteration $I/iter-000010.pt --games 2048 --draws 2 \
    --json docs/results/nash/leduc_iteration.json
  $PY -m research.leduc_iteration $I/iter-000010.pt --all-hands --common-worlds \
    --games 1024 --draws 1 --json docs/results/nash/leduc_iteration_v2.json
  # leduc_nash_v2 cut to 30 iterations x 256 games (about 186,000 positions, what
  # leduc_nash_magnet generates in 20 iterations), and the same cut without the target
  # fixes at equal positions (1,536 games per iteration)
  C="trainer.iterations=30 trainer.buffer_size=12000 trainer.steps_per_iteration=50"
  C="$C trainer.eval_every=10 trainer.eval_deals=20 trainer.final_eval_deals=20"
  # shellcheck disable=SC2086  # the overrides are words
  $PY scripts/train.py experiment=leduc_nash_v2 selfplay.games_per_iteration=256 $C \
    experiment.run_dir=runs/leduc_nash_v2_cut_s0 $K
  # shellcheck disable=SC2086
  $PY scripts/train.py experiment=leduc_nash_average selfplay.games_per_iteration=1536 $C \
    experiment.run_dir=runs/leduc_control_cut_s0 $K
  for r in leduc_nash_v2_cut leduc_control_cut; do
    for c in last average; do
      $PY -m research.nash_table --run "$r, $c.pt=runs/${r}_s0" --checkpoint $c.pt \
        --output docs/results/nash/${r}_${c}_table.json
    done
  done
  $PY -m research.nash_curves --game leduc_poker \
    --include docs/results/nash/leduc_nash_curves.json \
    --cfr-from docs/results/nash/leduc_nash_curves.json \
    --run "leduc_nash_v2, cut=runs/leduc_nash_v2_cut_s0" \
    --average-curve "leduc_nash_v2 cut, weights averaged=runs/leduc_nash_v2_cut_s0" \
    --run "control, cut=runs/leduc_control_cut_s0" \
    --average-curve "control cut, weights averaged=runs/leduc_control_cut_s0" \
    --average-from 10 --output docs/results/nash/leduc_nash_v2_curves \
    --png docs/results/nash/leduc_nash_v2_curves.png
  # the Kuhn planner with every root move searched in the same worlds (training unchanged:
  # kuhn_nash_magnet's runs of the recipes section)
  local parts=() i=0 label knobs
  for label in "" ", planner common_worlds" ", planner common_worlds, step 0.25" \
      ", planner common_worlds, 512 simulations"; do
    knobs=("--knob" "common_worlds=true")
    case $i in
      0) knobs=() ;;
      2) knobs+=("--knob" "mirror_eta=0.25") ;;
      3) knobs+=("--knob" "iterations=512") ;;
    esac
    $PY -m research.nash_table --run "kuhn_nash_magnet$label=runs/kuhn_nash_magnet_s*" \
      "${knobs[@]}" --output "results/nash/kuhn_cw_$i.json"
    parts+=("results/nash/kuhn_cw_$i.json")
    i=$((i + 1))
  done
  $PY - "${parts[@]}" <<'PYEOF'  # one JSON: the four tables' recipes
import json, sys
docs = [json.load(open(p)) for p in sys.argv[1:]]
out = {**docs[0], "recipes": [r for d in docs for r in d["recipes"]]}
with open("docs/results/nash/kuhn_nash_magnet_common_worlds_table.json", "w") as f:
    f.write(json.dumps(out, indent=1) + "\n")
PYEOF
}

products() {  # products LABEL GLOB NAME: a recipe's last.pt, average.pt and
  # average_policy.pt over planner seeds 0-4 -> docs/results/nash/NAME_{product}_table.json
  for ck in last average average_policy; do
    $PY -m research.nash_table --run "$1 $ck=$2" --checkpoint $ck.pt \
      --output docs/results/nash/$3_${ck}_table.json
  done
}

nfsp() {  # NFSP's average-policy network on Leduc (training seeds 0-2): the preset
  # (leduc_nash_nfsp, iteration t weighted t) and the uniform weighting (the earlier
  # figures were made at commit 186e603, whose reservoir drew its rows by algorithm R),
  # their products over planner seeds 0-4, the curves; then the Kuhn planner with
  # common worlds on training seeds 3-5 x planner seeds 5-9 (out of the sample it was
  # chosen on)
  hundred="trainer.iterations=100 trainer.eval_every=20"  # the preset's first length
  for s in 0 1 2; do
    $PY scripts/train.py experiment=leduc_nash_nfsp $hundred trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_nfsp_linear_s$s logger.progress=false
    $PY scripts/train.py experiment=leduc_nash_nfsp $hundred \
      trainer.average_policy_weight=uniform trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_nfsp_s$s logger.progress=false
  done
  products "leduc_nash_nfsp" "runs/leduc_nash_nfsp_s*" leduc_nash_nfsp
  $PY -m research.nash_table \
    --run "leduc_nash_nfsp linear average_policy=runs/leduc_nash_nfsp_linear_s*" \
    --checkpoint average_policy.pt \
    --output docs/results/nash/leduc_nash_nfsp_linear_average_policy_table.json
  $PY -m research.nash_curves --game leduc_poker \
    --include docs/results/nash/leduc_nash_curves.json \
    --cfr-from docs/results/nash/leduc_nash_curves.json \
    --run "nfsp: last iterate=runs/leduc_nash_nfsp_s*" \
    --run "nfsp: weights averaged=runs/leduc_nash_nfsp_s*#average" \
    --run "nfsp: average policy, uniform=runs/leduc_nash_nfsp_s*#average_policy" \
    --run "nfsp: average policy, linear=runs/leduc_nash_nfsp_linear_s*#average_policy" \
    --output docs/results/nash/leduc_nash_nfsp_curves \
    --png docs/results/nash/leduc_nash_nfsp_curves.png
  for s in 3 4 5; do
    $PY scripts/train.py experiment=kuhn_nash_magnet trainer.seed=$s \
      experiment.run_dir=runs/kuhn_nash_magnet_s$s logger.progress=false
  done
  $PY -m research.nash_table --run "kuhn_nash_magnet s3-5=runs/kuhn_nash_magnet_s[345]" \
    --planner-seeds 5 6 7 8 9 --output docs/results/nash/kuhn_nash_magnet_s345_table.json
  $PY -m research.nash_table \
    --run "kuhn_nash_magnet s3-5, planner common_worlds, step 0.25=runs/kuhn_nash_magnet_s[345]" \
    --knob common_worlds=true --knob mirror_eta=0.25 --planner-seeds 5 6 7 8 9 \
    --output docs/results/nash/kuhn_nash_magnet_s345_cw_step025_table.json
}

nfsp_long() {  # the preset as it is (250 iterations), training seeds 0-2: its three
  # products over planner seeds 0-4 and seed 0's curve beside the 100-iteration runs
  for s in 0 1 2; do
    $PY scripts/train.py experiment=leduc_nash_nfsp trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_nfsp_long_s$s logger.progress=false
  done
  products "leduc_nash_nfsp 250 it" "runs/leduc_nash_nfsp_long_s*" leduc_nash_nfsp_250
  j=docs/results/nash/leduc_nash_nfsp_curves.json
  $PY -m research.nash_curves --game leduc_poker \
    --include "$j#leduc_nash_magnet" --include "$j#nfsp: weights averaged" \
    --include "$j#nfsp: average policy, linear" \
    --cfr-from docs/results/nash/leduc_nash_curves.json \
    --run "nfsp 250 it (seed 0): last iterate=runs/leduc_nash_nfsp_long_s0" \
    --run "nfsp 250 it (seed 0): weights averaged=runs/leduc_nash_nfsp_long_s0#average" \
    --run "nfsp 250 it (seed 0): average policy=runs/leduc_nash_nfsp_long_s0#average_policy" \
    --output docs/results/nash/leduc_nash_nfsp_250_curves \
    --png docs/results/nash/leduc_nash_nfsp_250_curves.png
}

every_iterate() {  # NAME LABEL KNOB...: the preset with KNOBs, training seeds 0-2, every
  # iterate kept; its average network over planner seeds 0-4 and the exact averages of
  # its iterates by start and weighting (docs/results/nash/leduc_nash_nfsp_250_NAME_*.json)
  local name=$1 label=$2; shift 2
  for s in 0 1 2; do
    $PY scripts/train.py experiment=leduc_nash_nfsp "$@" \
      trainer.checkpoint_every=1 trainer.keep_last=1000 trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_nfsp_${name}_s$s logger.progress=false
  done
  local r="runs/leduc_nash_nfsp_${name}_s*" out=docs/results/nash/leduc_nash_nfsp_250_$name
  $PY -m research.nash_table --run "leduc_nash_nfsp 250 it, $label=$r" \
    --checkpoint average_policy.pt --output ${out}_average_policy_table.json
  $PY -m research.iterate_averages $r --from 10 50 100 150 --powers 0.5 1 2 \
    --output ${out}_iterate_averages.json
}

nfsp_sqrt() {  # iteration t weighted t^0.5; its planner at step 0.5 too
  every_iterate sqrt sqrt trainer.average_policy_weight=sqrt
  $PY -m research.nash_table --run "leduc_nash_nfsp 250 it, sqrt, planner step 0.5=runs/leduc_nash_nfsp_sqrt_s*" \
    --checkpoint average_policy.pt --knob mirror_eta=0.5 \
    --output docs/results/nash/leduc_nash_nfsp_250_sqrt_step05_table.json
}

nfsp_cw() {  # every root move searched in the same worlds in training (the planner too)
  every_iterate cw "common worlds" search.common_worlds=true
}

nfsp_eta10() {  # a longer mirror step (eta 10, alpha 0.05), and the tabular model's
  # ranking of the step
  every_iterate eta10 "eta 10" search.mirror_eta=10
  local b=alpha=0.05,magnet=network,every=20,lag=0.35,iters=250,noise=0.05,avg_from=10
  $PY -m research.mirror_dynamics leduc_poker $b,eta=5,seed=0 $b,eta=10,seed=0 \
    $b,eta=5,avg_weight=linear,seed=0 $b,eta=10,avg_weight=linear,seed=0 \
    $b,eta=5,avg_weight=linear,seed=1 $b,eta=10,avg_weight=linear,seed=1 $b,eta=10,seed=1
}

nfsp_target() {  # eta 10, uniform weighting, the average network fitted to the search's
  # policies (target search) or to the network iterates' (target network): each one's
  # average network over planner seeds 0-4, and its reservoir as a tabular policy
  # (network target: with the gap split on nfsp_eta10's iterates)
  local name r out split
  for target in search network; do
    name=eta10u_$target r="runs/leduc_nash_nfsp_eta10u_${target}_s*"
    out=docs/results/nash/leduc_nash_nfsp_250_$name
    for s in 0 1 2; do
      $PY scripts/train.py experiment=leduc_nash_nfsp search.mirror_eta=10 \
        trainer.average_policy_weight=uniform trainer.average_policy_target=$target \
        trainer.seed=$s experiment.run_dir=runs/leduc_nash_nfsp_${name}_s$s logger.progress=false
    done
    $PY -m research.nash_table --run "leduc_nash_nfsp 250 it, eta 10, uniform, $target=$r" \
      --checkpoint average_policy.pt --output ${out}_average_policy_table.json
    [ $target = network ] && split=(--iterates runs/leduc_nash_nfsp_eta10_s{0,1,2}) \
      || split=()  # the same own network as nfsp_eta10's runs, every iterate kept
    $PY -m research.reservoir_average $r "${split[@]}" --output ${out}_reservoir.json
  done
}

nfsp_iterates() {  # leduc_nash_nfsp_iterates: seeds 0-2 without the polish (their
  # average networks and reservoirs), the same runs polished after the fact (bit for bit
  # the preset's), and the preset as is on training seed 3; the curve of seed 3 (run alone)
  local r="runs/leduc_nash_nfsp_iterates_s[012]" out=docs/results/nash/leduc_nash_nfsp_iterates
  for s in 0 1 2; do
    $PY scripts/train.py experiment=leduc_nash_nfsp_iterates trainer.average_policy_polish=0 \
      trainer.seed=$s experiment.run_dir=runs/leduc_nash_nfsp_iterates_s$s logger.progress=false
  done
  $PY -m research.nash_table --run "unpolished=$r" --checkpoint average_policy.pt \
    --output ${out}_unpolished_table.json
  $PY -m research.reservoir_average $r --output ${out}_reservoir.json
  $PY -m research.polish_average $r --steps 8000 --name average_policy_polish8000 \
    -- experiment=leduc_nash_nfsp_iterates
  $PY -m research.nash_table --run "polished=$r" --checkpoint average_policy_polish8000.pt \
    --output ${out}_polished_table.json
  $PY scripts/train.py experiment=leduc_nash_nfsp_iterates trainer.seed=3 logger.progress=false
  $PY -m research.nash_table --run "the preset, seed 3=runs/leduc_nash_nfsp_iterates" \
    --checkpoint average_policy.pt --output ${out}_s3_table.json
  $PY -m research.nash_curves --game leduc_poker \
    --include "docs/results/nash/leduc_nash_nfsp_250_curves.json#nfsp 250 it (seed 0): average policy" \
    --cfr-from docs/results/nash/leduc_nash_curves.json \
    --run "leduc_nash_nfsp_iterates (seed 3): last iterate=runs/leduc_nash_nfsp_iterates" \
    --run "leduc_nash_nfsp_iterates (seed 3): average policy=runs/leduc_nash_nfsp_iterates#average_policy" \
    --output ${out}_curves --png ${out}_curves.png
}

fsp() {  # leduc_nash_fsp: on training seeds 0-2 its average network re-learned from the
  # nfsp_eta10 runs' iterates (every one kept; the preset's own network, to the bit) with
  # the preset's own games (research.replay_average: what the preset writes, to the bit),
  # and the preset as is on training seeds 3, 4 and 5, with seed 3's curve
  local out=docs/results/nash/leduc_nash_fsp
  for s in 0 1 2; do  # (the average policy's generator is seeded from trainer.seed)
    $PY -m research.replay_average runs/leduc_nash_nfsp_eta10_s$s \
      --name average_policy_fsp -- experiment=leduc_nash_fsp trainer.seed=$s
    $PY -m research.replay_average runs/leduc_nash_nfsp_eta10_s$s --name fsp_polish0 \
      -- experiment=leduc_nash_fsp trainer.seed=$s trainer.average_policy_polish=0
  done
  $PY -m research.nash_table --run "leduc_nash_fsp without the polish=runs/leduc_nash_nfsp_eta10_s[012]" \
    --checkpoint fsp_polish0.pt --output ${out}_unpolished_table.json
  $PY -m research.nash_table --run "leduc_nash_fsp=runs/leduc_nash_nfsp_eta10_s[012]" \
    --checkpoint average_policy_fsp.pt --output ${out}_table.json
  for s in 3 4 5; do
    $PY scripts/train.py experiment=leduc_nash_fsp trainer.seed=$s \
      experiment.run_dir=runs/leduc_nash_fsp_s$s logger.progress=false
    $PY -m research.nash_table --run "the preset, seed $s=runs/leduc_nash_fsp_s$s" \
      --checkpoint average_policy.pt --output ${out}_s${s}_table.json
  done
  $PY -m research.nash_curves --game leduc_poker \
    --include "docs/results/nash/leduc_nash_nfsp_iterates_curves.json#leduc_nash_nfsp_iterates (seed 3): average policy" \
    --cfr-from docs/results/nash/leduc_nash_curves.json \
    --run "leduc_nash_fsp (seed 3): average policy=runs/leduc_nash_fsp_s3#average_policy" \
    --output ${out}_curves --png ${out}_curves.png
}

fsp350() {  # leduc_nash_fsp at 350 iterations, training seeds 0-3 with every iterate kept, then 4
  local out=docs/results/nash/leduc_nash_fsp350
  for s in 0 1 2 3; do
    $PY scripts/train.py experiment=leduc_nash_fsp trainer.iterations=350 trainer.seed=$s \
      trainer.checkpoint_every=1 trainer.keep_last=1000 \
      experiment.run_dir=runs/leduc_nash_fsp350_s$s logger.progress=false
  done
  $PY -m research.nash_table --run "leduc_nash_fsp, 350 iterations=runs/leduc_nash_fsp350_s[0123]" \
    --checkpoint average_policy.pt --output ${out}_table.json
  for u in 250 350; do
    $PY -m research.iterate_averages runs/leduc_nash_fsp350_s[0123] --from 10 --until $u \
      --output ${out}_iterate_averages_until$u.json
  done
  # training seed 4 as a user would run it (its wall time is the page's)
  $PY scripts/train.py experiment=leduc_nash_fsp trainer.iterations=350 trainer.seed=4 \
    experiment.run_dir=runs/leduc_nash_fsp350_s4 logger.progress=false
  $PY -m research.nash_table --run "leduc_nash_fsp, 350 iterations, seed 4=runs/leduc_nash_fsp350_s4" \
    --checkpoint average_policy.pt --output ${out}_s4_table.json
}

kuhn_fsp() {  # kuhn_nash_fsp: kuhn_nash_magnet on training seeds 0-2 with every iterate
  # kept, its average network re-learned from iterations 100 and 150 (the preset's
  # settings otherwise), judged with common worlds; then the preset as is on seeds 3-5
  local r="runs/kuhn_nash_magnet_it_s[012]" out=docs/results/nash/kuhn_nash_fsp
  for s in 0 1 2; do
    $PY scripts/train.py experiment=kuhn_nash_magnet trainer.checkpoint_every=1 \
      trainer.keep_last=1000 trainer.seed=$s experiment.run_dir=runs/kuhn_nash_magnet_it_s$s \
      logger.progress=false
  done
  $PY -m research.iterate_averages runs/kuhn_nash_magnet_it_s0 --from 10 50 100 150 --powers 1
  for from in 100 150; do
    for s in 0 1 2; do
      $PY -m research.replay_average runs/kuhn_nash_magnet_it_s$s \
        --name average_policy_from$from -- experiment=kuhn_nash_fsp \
        trainer.average_policy_from=$from trainer.seed=$s
    done
    $PY -m research.nash_table --run "average from $from=$r" \
      --checkpoint average_policy_from$from.pt --knob common_worlds=true \
      --output ${out}_from${from}_table.json
  done
  $PY -m research.nash_table --run "from 150 cw step 0.25=$r" \
    --checkpoint average_policy_from150.pt --knob common_worlds=true --knob mirror_eta=0.25 \
    --output ${out}_from150_step025_table.json
  for s in 3 4 5 6 7 8; do  # (the planner's step does not change training)
    $PY scripts/train.py experiment=kuhn_nash_fsp trainer.seed=$s \
      experiment.run_dir=runs/kuhn_nash_fsp_s$s logger.progress=false
  done
  # round one: step 0.5 on seeds 3-5; round two: step 0.25 (the preset's) on 3-5, then 6-8
  $PY -m research.nash_table --run "kuhn_nash_fsp=runs/kuhn_nash_fsp_s[345]" \
    --checkpoint average_policy.pt --planner-seeds 5 6 7 8 9 --knob mirror_eta=0.5 \
    --output ${out}_s345_table.json
  $PY -m research.nash_table --run "fsp step 0.25=runs/kuhn_nash_fsp_s[345]" \
    --checkpoint average_policy.pt --planner-seeds 5 6 7 8 9 --output ${out}_s345_step025_table.json
  $PY -m research.nash_table --run "kuhn_nash_fsp=runs/kuhn_nash_fsp_s[678]" \
    --checkpoint average_policy.pt --planner-seeds 10 11 12 13 14 --output ${out}_s678_table.json
}

run_sections "search first_runs equal_time recipes targets nfsp nfsp_long nfsp_sqrt nfsp_cw nfsp_eta10 nfsp_target nfsp_iterates fsp fsp350 kuhn_fsp" "$@"
