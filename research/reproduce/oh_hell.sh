#!/usr/bin/env bash
# docs/results/oh_hell.md and oh_hell_research.md: Oh Hell (3 players, 52 cards, bids): the trained planners
# against rollout so_ismcts and pimc, at equal simulations and at equal time a move.
# Every section trains or plays for a long time (hours on 2 cores in all):
#   bash research/reproduce/oh_hell.sh                  # every section, in order
#   bash research/reproduce/oh_hell.sh teacher beliefs  # some sections (the parts below)
# Parts:
#   plain: experiment=oh_hell_alphazero and its matches
#   q_targets: the value probe, experiment=oh_hell_q, its matches
#   expand_after: the expansion threshold on oh_hell_q
#   teacher: oh_hell_teacher, oh_hell_teacher_long, their matches
#   variants: oh_hell_teacher_long's planner variants, rollout mo_ismcts
#   beliefs: the beliefs' card placement
#   puct_rollouts: the PUCT search without a network
#   recipe: experiment=oh_hell at 40 iterations (the preset's size until it was cut to
#     30), its ladder and matches
#   recipe_seed1: the same at training seed 1, timed and judged on an idle machine
#   recipe_seed2: the preset at 30 iterations before its refit, training seed 2, idle machine
#   plays: sir weighing the other seats' last 4 card plays (plays=4) against the bids
#     alone (the preset's plays=0): trained with each at seed 2, and each network in play
#     with and without the plays weighed; sir's pool size (candidates) in play;
#     the ceiling (cheat_uct)
#   location: a card-location net learned from the plays=0 network's self-play (the
#     true deals), its held-out fit, the beliefs' card placement, and in play; sir's
#     weights sharpened, in play
#   playouts: rollout search and the planner with a hand-written (tricks_greedy) and a
#     fitted (tricks_learned, from part location's self-play) playout as the leaf
#   bids: self-play bids with one seat's bid moved at random (a randomised trial), a bid
#     net learned from them and judged offline, every bid one higher in play
#   fitted: the plays=0 checkpoint with a playout fitted to its planner (isz-fit-playout),
#     playout policy iteration without a network, the preset with a refit each
#     generation (selfplay.playout_fit_games), their matches
#   preset: the preset with the refit, before the hand block, training seeds 0 and 1,
#     timed, matches (and seed 0 against teacher_long)
#   hand_block: the trick features' hand block, fitted beside the first 24; the preset
#     retrained with it, its match
#   preset_f48: the preset as it is (48 move features) at training seed 1, timed, its
#     match; the 24- and 48-feature checkpoints of training seed 0 at one table; seed
#     0's at 0.2 s; the ladders of both 48-feature runs; training seed 2 and its match
#   doubling: the preset with generations at iterations 1, 2, 4, 8, 16 and 30
#     (trainer.generation_schedule=doubling), timed; its ladder (500 deals a table), its
#     last checkpoint's match, the value ablation (value_mix 0.25 and 0) on it, and its
#     last generation against its first at one table
#   short_values: the preset retrained (seed 0), its values at the root against none at
#     5 and 2 ms a move, at one table with so_ismcts + voids
#   opponent_model: a model of so_ismcts + voids at 0.02 s fitted to its own games
#     (isz-fit-opponent), weighing the sir belief's bids in the preset's planner (part
#     short_values first): with it and without it at one table with so_ismcts + voids
#   c_puct0: the same checkpoint (part short_values first) as recorded and without the
#     root's priors (c_puct=0), at one table with so_ismcts + voids, at 0.02, 0.01 and 0.05 s
#   root_check: the preset as it is (its final root check recording the root's rule),
#     training seed 2, timed, and its checkpoint with no knobs against two so_ismcts
#   apprentice: what holds the refit to one step, on the preset's seed-2 checkpoint (part
#     preset_f48 first): richer scorers over the same move features, offline; the playout
#     refitted to its planner at 2,000, 8,000 and 16,000 iterations a move, at one table
# The speed rows of the same planners: research/reproduce/speed.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
mkdir -p results/oh_hell
three="agents=[planner,so_ismcts,pimc] knobs.so_ismcts.belief=voids knobs.pimc.belief=voids"
q="$three knobs.planner.value_view=own workers=2 seed=1 progress=false"
t="$three workers=2 seed=1 progress=false"
long=runs/oh_hell_teacher_long/checkpoints/last.pt

plain() {  # experiment=oh_hell_alphazero: value targets are the final return
  $PY scripts/train.py experiment=oh_hell_alphazero
  ck=runs/oh_hell_alphazero/checkpoints/last.pt
  $PY scripts/evaluate.py checkpoint=$ck $three deals=1000 iterations=32 workers=2 seed=1 \
    progress=false output=results/oh_hell/oh_hell_equal_sims_32.json
  $PY scripts/evaluate.py checkpoint=$ck $three deals=1000 time_per_move=0.02 workers=2 \
    seed=1 progress=false output=results/oh_hell/oh_hell_equal_time_0.02.json
  $PY scripts/evaluate.py checkpoint=$ck $three deals=200 time_per_move=0.1 workers=2 \
    seed=1 progress=false output=results/oh_hell/oh_hell_equal_time_0.1.json
}

q_targets() {  # lower-noise value targets: the offline probe, then experiment=oh_hell_q
  # (rollout self-play, root-value targets on own entries only)
  $PY -m research.value_probe play --games 1024 --seed 0 --out results/oh_hell/oh_rollout_1024.npz
  $PY -m research.value_probe fit results/oh_hell/oh_rollout_1024.npz --test-games 128 \
    --lam 1.0 0.5 0.0 --other-weights 0.0 0.1 1.0 --steps 300
  $PY scripts/train.py experiment=oh_hell_q logger.progress=false
  ck=runs/oh_hell_q/checkpoints/last.pt
  $PY scripts/evaluate.py checkpoint=$ck $q deals=1000 time_per_move=0.02 \
    output=docs/results/oh_hell/eq_oh_hell_v3_equal_time_0.02.json
  $PY scripts/evaluate.py checkpoint=$ck $q deals=1000 iterations=32 \
    output=docs/results/oh_hell/eq_oh_hell_v3_equal_sims_32.json
  $PY scripts/evaluate.py checkpoint=$ck $q deals=200 iterations=256 \
    output=docs/results/oh_hell/eq_oh_hell_v3_equal_sims_256.json
  # leaf values mixed with a random playout (the 100-deal rows: m=0.5 also at 256 sims)
  for m in 0.5 0.75 1.0; do
    $PY scripts/evaluate.py checkpoint=$ck $q knobs.planner.leaf_mix=$m deals=100 \
      time_per_move=0.02 output=docs/results/oh_hell/eq_oh_hell_v3_mix${m}_equal_time_0.02_100deals.json
  done
  $PY scripts/evaluate.py checkpoint=$ck $q knobs.planner.leaf_mix=0.5 deals=100 \
    iterations=256 output=docs/results/oh_hell/eq_oh_hell_v3_mix0.5_equal_sims_256_100deals.json
  $PY scripts/evaluate.py checkpoint=$ck $q knobs.planner.leaf_mix=1.0 deals=1000 \
    time_per_move=0.02 output=docs/results/oh_hell/eq_oh_hell_v3_mix1_equal_time_0.02.json
}

expand_after() {
  ck=runs/oh_hell_q/checkpoints/last.pt
  # expansion threshold (knobs.planner.expand_after=n: a leaf's first n-1 visits are random
  # playouts, no network call), on a retrain of experiment=oh_hell_q (same command, seed 0:
  # "v3b"): a 100-deal screen at 0.02 s, then the chosen (tree, n) at
  # 0.02 s (1,000 deals), 0.05 s (300 deals) and 256 simulations (200 deals, also n=1)
  x="$q knobs.planner.leaf_mix=1.0"
  for tn in so:16 so:64 so:4 so:1 mo:16; do
    $PY scripts/evaluate.py checkpoint=$ck $x knobs.planner.tree=${tn%:*} \
      knobs.planner.expand_after=${tn#*:} deals=100 time_per_move=0.02 \
      output=docs/results/oh_hell/eq_oh_hell_v3b_${tn%:*}_n${tn#*:}_equal_time_0.02_100deals.json
  done
  $PY scripts/evaluate.py checkpoint=$ck $x knobs.planner.tree=so knobs.planner.expand_after=4 \
    deals=1000 time_per_move=0.02 output=docs/results/oh_hell/eq_oh_hell_v3b_so_n4_equal_time_0.02.json
  x="$x knobs.planner.tree=mo"
  $PY scripts/evaluate.py checkpoint=$ck $x knobs.planner.expand_after=16 deals=1000 \
    time_per_move=0.02 output=docs/results/oh_hell/eq_oh_hell_v3b_mo_n16_equal_time_0.02.json
  $PY scripts/evaluate.py checkpoint=$ck $x knobs.planner.expand_after=16 deals=300 \
    time_per_move=0.05 output=docs/results/oh_hell/eq_oh_hell_v3b_mo_n16_equal_time_0.05_300deals.json
  for n in 16 1; do
    $PY scripts/evaluate.py checkpoint=$ck $x knobs.planner.expand_after=$n deals=200 \
      iterations=256 output=docs/results/oh_hell/eq_oh_hell_v3b_mo_n${n}_equal_sims_256_200deals.json
  done
}

teacher() {
  # distilled from rollout so_ismcts (selfplay.teacher=so_ismcts, 2,000 iterations a move;
  # the planner as recorded: leaf_mix=1, expand_after=16, mo tree, value_view=own); then
  # the longer recipe: oh_hell_teacher's last.pt continued, teacher at 8,000 iterations
  $PY scripts/train.py experiment=oh_hell_teacher logger.progress=false
  $PY scripts/train.py experiment=oh_hell_teacher_long logger.progress=false \
    trainer.continue_from=runs/oh_hell_teacher/checkpoints/last.pt
  for run in oh_hell_teacher oh_hell_teacher_long; do
    $PY scripts/evaluate.py checkpoint=runs/$run/checkpoints/last.pt $t deals=1000 \
      iterations=256 output=docs/results/oh_hell/eq_${run}_equal_sims_256.json
    for b in 0.02 0.05; do
      $PY scripts/evaluate.py checkpoint=runs/$run/checkpoints/last.pt $t deals=1000 \
        time_per_move=$b output=docs/results/oh_hell/eq_${run}_equal_time_$b.json
    done
  done
}

variants() {  # oh_hell_teacher_long's planner variants; rollout mo_ismcts
  # rollout mo_ismcts (root-split index) at equal time against so_ismcts and pimc
  $PY scripts/evaluate.py game=oh_hell "agents=[mo_ismcts,so_ismcts,pimc]" \
    knobs.mo_ismcts.belief=voids knobs.so_ismcts.belief=voids knobs.pimc.belief=voids \
    deals=1000 time_per_move=0.02 workers=2 seed=1 progress=false \
    output=docs/results/oh_hell/eq_oh_hell_mo_ismcts_index_equal_time_0.02.json
  # in play: the policy-weighted gibbs belief, 8 worlds a decision (knob worlds)
  $PY scripts/evaluate.py checkpoint=$long $t deals=200 time_per_move=0.05 \
    knobs.planner.belief=gibbs knobs.planner.worlds=8 \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_gibbs_w8_equal_time_0.05_200deals.json
  # deeper than one level: below the threshold the search goes on (a 200-deal screen
  # at 0.02 s, mo and so trees, then 1,000 deals), or rollout so_ismcts led at its
  # root by the priors (guided_so_ismcts); each at 0.02 s and at 256 simulations
  for tn in mo:16 so:16 so:4; do
    $PY scripts/evaluate.py checkpoint=$long $t deals=200 time_per_move=0.02 \
      knobs.planner.below_threshold=search knobs.planner.tree=${tn%:*} \
      knobs.planner.expand_after=${tn#*:} \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_search_${tn%:*}_n${tn#*:}_equal_time_0.02_200deals.json
  done
  $PY scripts/evaluate.py checkpoint=$long $t deals=200 iterations=256 \
    knobs.planner.below_threshold=search \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_search_mo_n16_equal_sims_256_200deals.json
  for k in search:below_threshold=search so_root:agent=guided_so_ismcts; do
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=0.02 \
      knobs.planner.${k#*:} output=docs/results/oh_hell/eq_oh_hell_teacher_long_${k%%:*}_equal_time_0.02.json
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 iterations=256 \
      knobs.planner.${k#*:} output=docs/results/oh_hell/eq_oh_hell_teacher_long_${k%%:*}_equal_sims_256.json
  done
  for b in 0.005 0.01; do  # below 0.02 s: so_ismcts starved at the bids by its belief
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=$b \
      knobs.planner.agent=guided_so_ismcts \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_equal_time_$b.json
  done
  # the root's PUCT means mixed with the network's value of the view after each
  # move (knobs.planner.value_mix; 200-deal screen at 0.02 s, run before the shuffle
  # path below)
  for v in 0.5 1.0 0.25 0; do
    $PY scripts/evaluate.py checkpoint=$long $t deals=200 time_per_move=0.02 \
      knobs.planner.agent=guided_so_ismcts knobs.planner.value_mix=$v \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_vmix${v}_equal_time_0.02_200deals.json
  done
  # the voids belief's shuffle path where no void binds (every agent's belief; the
  # rows above ran before it, commit 98c201a's parent): the so_root rows again, and
  # 0.05 s (the belief's first-world cost a decision: speed.sh beliefs)
  for b in 0.02 0.05 0.01 0.005; do
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=$b \
      knobs.planner.agent=guided_so_ismcts \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_shuffle_equal_time_$b.json
  done
  $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
    knobs.planner.agent=guided_so_ismcts \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_shuffle_equal_time_0.5_100deals.json
  # the planner's belief: voids deals resampled by the network's probability of the
  # other seats' bids (belief=sir with plays=0, 128 candidates a view); the 200-deal
  # screen first
  $PY scripts/evaluate.py checkpoint=$long $t deals=200 time_per_move=0.05 \
    knobs.planner.agent=guided_so_ismcts 'knobs.planner.belief={name:sir,plays:0}' \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_0.05_200deals.json
  for b in 0.05 0.02; do
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=$b \
      knobs.planner.agent=guided_so_ismcts 'knobs.planner.belief={name:sir,plays:0}' \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_$b.json
  done
  $PY scripts/evaluate.py checkpoint=$long $t deals=1000 iterations=256 \
    knobs.planner.agent=guided_so_ismcts 'knobs.planner.belief={name:sir,plays:0}' \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_sims_256.json
  $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
    knobs.planner.agent=guided_so_ismcts 'knobs.planner.belief={name:sir,plays:0}' \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_0.5_100deals.json
  # the recorded planner at 0.5 s a move (100 deals: about 40 minutes on 2 cores)
  $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
    output=docs/results/oh_hell/eq_oh_hell_teacher_long_equal_time_0.5_100deals.json
}

beliefs() {  # the beliefs' card placement (voids, gibbs, gibbs weighted by the policy)
  ck=runs/oh_hell_teacher/checkpoints/last.pt
  $PY -m research.belief_accuracy $ck --games 60 --worlds 64 --after-tricks 3 --seed 0 \
    --output docs/results/oh_hell/oh_hell_belief_accuracy.json
}

puct_rollouts() {
  # the same PUCT search with random playouts and uniform priors (no network)
  $PY scripts/evaluate.py game=oh_hell "agents=[puct_ismcts,so_ismcts,pimc]" \
    knobs.puct_ismcts.belief=voids knobs.so_ismcts.belief=voids knobs.pimc.belief=voids \
    deals=100 iterations=256 workers=2 seed=1 progress=false \
    output=docs/results/oh_hell/eq_oh_hell_puct_rollouts_equal_sims_256_100deals.json
}

forty="trainer.iterations=40 trainer.generation_every=8 selfplay.playout_fit_games=0"  # the
# preset's earlier size, before its playout refit

recipe() {  # experiment=oh_hell, the default recipe: its ladder and its matches at 0.02 s
  $PY scripts/train.py experiment=oh_hell $forty
  ck=runs/oh_hell/checkpoints/last.pt
  old=runs/oh_hell_teacher/checkpoints/last.pt
  [ -f $old ] || $PY scripts/train.py experiment=oh_hell_teacher
  d=docs/results/oh_hell
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.02 deals=1000 seed=1 workers=2 \
    progress=false output=$d/recipe_vs_two_so_ismcts_t0.02.json
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.02 deals=600 seed=11 workers=2 \
    progress=false output=$d/recipe_vs_two_so_ismcts_t0.02_idle.json  # nothing else running
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 300 --seed 2 \
    --planner new=$ck --planner "old=$old,agent=guided_so_ismcts,belief={\"name\":\"sir\",\"plays\":0}" \
    --baseline so_ismcts,belief=voids --output $d/recipe_vs_teacher_t0.02.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 200 --seed 4 \
    --planner sir=$ck --planner voids=$ck,belief=voids --baseline so_ismcts,belief=voids \
    --output $d/recipe_belief_t0.02.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 200 --seed 3 \
    --planner vm0=$ck,value_mix=0 --planner vm25=$ck,value_mix=0.25 --baseline so_ismcts,belief=voids \
    --output $d/recipe_value_mix_t0.02.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 300 --seed 8 \
    --planner vm0=$ck,value_mix=0 --planner vm25=$ck,value_mix=0.25 --baseline so_ismcts,belief=voids \
    --output $d/recipe_value_mix_t0.02_seed8.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 200 --seed 9 \
    --planner voids_vm25=$ck,belief=voids,value_mix=0.25 --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/recipe_voids_vm25_vs_two_so_ismcts_t0.02.json
  $PY scripts/ladder.py runs/oh_hell --checkpoints gen --time 0.02 --deals 50 --older 1 --workers 2
}

recipe_seed1() {  # training seed 1 on an idle machine: wall time, matches, ladder (run alone)
  r=runs/oh_hell_s1
  time $PY scripts/train.py experiment=oh_hell $forty trainer.seed=1 experiment.run_dir=$r
  d=docs/results/oh_hell
  $PY scripts/evaluate.py checkpoint=$r/checkpoints/last.pt "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.02 deals=1000 seed=12 workers=2 \
    progress=false output=$d/recipe_s1_vs_two_so_ismcts_t0.02_idle.json
  ladder_to_docs $r docs/results/oh_hell/recipe_s1 100 0.02
  # (recipe_s1_..._idle_dense_sir.json: the first match above at commit e4264d7)
  $PY scripts/evaluate.py checkpoint=$r/checkpoints/last.pt "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.2 deals=100 seed=13 workers=2 \
    progress=false output=$d/recipe_s1_vs_two_so_ismcts_t0.2_idle.json
}

recipe_seed2() {  # the preset before its refit, training seed 2, on an idle machine (run
  # alone): wall time with a cold kernel cache, the match, the value ablation, the ladder, 0.2 s
  r=runs/oh_hell_s2
  d=docs/results/oh_hell
  time ISZ_CACHE_DIR=$(mktemp -d) $PY scripts/train.py experiment=oh_hell trainer.seed=2 \
    selfplay.playout_fit_games=0 experiment.run_dir=$r
  ck=$r/checkpoints/last.pt
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.02 deals=1000 seed=12 workers=2 \
    progress=false output=$d/recipe_s2_vs_two_so_ismcts_t0.02_idle.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 500 --seed 14 \
    --planner vm0=$ck,value_mix=0 --planner vm25=$ck,value_mix=0.25 --baseline so_ismcts,belief=voids \
    --output $d/recipe_s2_value_mix_t0.02_idle.json
  ladder_to_docs $r docs/results/oh_hell/recipe_s2 100 0.02
  # 0.2 s a move (the checkpoint of a retraining at commit 2e6511a)
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.2 deals=400 seed=15 workers=2 \
    progress=false output=$d/recipe_s2_vs_two_so_ismcts_t0.2_idle.json
}

plays() {  # sir's plays=4 (tricks' lever) on Oh Hell: the preset trained with each
  # setting at seed 2 on one machine, each against two so_ismcts + voids (the same deals),
  # then the plays=4 network with and without the plays weighed, at one table
  d=docs/results/oh_hell
  for p in 0 4; do
    r=runs/oh_hell_p${p}_s2
    time $PY scripts/train.py experiment=oh_hell trainer.seed=2 belief.knobs.plays=$p \
      selfplay.playout_fit_games=0 \
      experiment.run_dir=$r logger.progress=false
    $PY scripts/evaluate.py checkpoint=$r/checkpoints/last.pt "agents=[planner,so_ismcts,so_ismcts]" \
      knobs.so_ismcts.belief=voids time_per_move=0.02 deals=1000 seed=12 workers=2 \
      progress=false output=$d/plays${p}_s2_vs_two_so_ismcts_t0.02.json
  done
  ck=runs/oh_hell_p4_s2/checkpoints/last.pt
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 500 --seed 14 \
    --planner p4=$ck --planner 'p0='$ck',belief={"name":"sir","plays":0}' \
    --baseline so_ismcts,belief=voids --output $d/plays4_s2_in_play_t0.02.json
  ck=runs/oh_hell_p0_s2/checkpoints/last.pt
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 500 --seed 17 \
    --planner 'p4='$ck',belief={"name":"sir","plays":4}' --planner p0=$ck \
    --baseline so_ismcts,belief=voids --output $d/plays0_s2_in_play_t0.02.json
  # sir's pool size: 512 and 32 candidates against the default 128, same network
  for c in 512:18 32:19; do
    $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 500 --seed ${c#*:} \
      --planner "c${c%:*}=$ck,belief={\"name\":\"sir\",\"plays\":0,\"candidates\":${c%:*}}" \
      --planner c128=$ck --baseline so_ismcts,belief=voids \
      --output $d/cand${c%:*}_s2_in_play_t0.02.json
  done
  # the ceiling: UCT on the true deal
  $PY scripts/evaluate.py game=oh_hell "agents=[cheat_uct,so_ismcts,so_ismcts]" \
    knobs.so_ismcts.belief=voids time_per_move=0.02 deals=500 seed=20 workers=2 \
    progress=false output=$d/cheat_uct_vs_two_so_ismcts_t0.02.json
}

location() {  # research/location: where the unseen cards lie, learned from self-play's
  # true deals (part plays trains the network), then used to tilt sir's deals
  d=docs/results/oh_hell
  ck=runs/oh_hell_p0_s2/checkpoints/last.pt
  mkdir -p runs/location
  for s in 0 1 2 3 4; do  # seed 1 is held out
    $PY -m research.location.data $ck --games 1500 --iterations 500 --seed $s \
      --output runs/location/p0_s$s.npz
  done
  $PY -m research.location.data so_ismcts --games 600 --iterations 1000 --seed 7 \
    --output runs/location/so_s7.npz
  $PY -m research.location.train --train runs/location/p0_s{0,2,3,4}.npz \
    --test runs/location/p0_s1.npz --epochs 3 --width 128 --lr 1e-4 --wd 0.1 \
    --output runs/location/net.npz --json $d/location_fit.json
  w='"weights":"runs/location/net.npz"'
  for data in p0_s1 so_s7; do
    $PY -m research.location.accuracy $ck --data runs/location/$data.npz --positions 600 \
      --worlds 64 --belief voids --belief '{"name":"sir","plays":0}' \
      --belief '{"name":"sir","plays":4}' --belief "{\"name\":\"located\",$w}" \
      --belief "{\"name\":\"located\",$w,\"bids\":true,\"plays\":0}" \
      --belief '{"name":"sir_sharp","plays":0,"sharpness":2.0}' \
      --output $d/location_accuracy_$data.json
  done
  for s in 21 23; do
    out=$d/location_in_play_t0.02$([ $s = 23 ] && echo _seed23).json
    $PY -m research.location.match --game oh_hell --time 0.02 --deals 500 --seed $s \
      --planner 'p0='$ck',belief={"name":"sir","plays":0}' \
      --planner "loc=$ck,belief={\"name\":\"located\",$w,\"bids\":true,\"plays\":0}" \
      --baseline so_ismcts,belief=voids --output $out
  done
  # sir's weights sharpened (the policy's probabilities squared), in play
  $PY -m research.location.match --game oh_hell --time 0.02 --deals 500 --seed 22 \
    --planner 'sharp='$ck',belief={"name":"sir_sharp","plays":0,"sharpness":2.0}' \
    --planner 'p0='$ck',belief={"name":"sir","plays":0}' \
    --baseline so_ismcts,belief=voids --output $d/sharp2_in_play_t0.02.json
}

bids() {  # research/bids: how the planner's bids end, and what other bids are worth
  d=docs/results/oh_hell
  ck=runs/oh_hell_p0_s2/checkpoints/last.pt
  mkdir -p runs/bids
  for s in 0 1; do
    $PY -m research.bids.data $ck --games 2500 --iterations 500 --seed $s \
      --output runs/bids/p0_s$s.npz
  done
  $PY -m research.bids.outcomes runs/bids/p0_s{0,1}.npz --output $d/bids_outcomes.json
  $PY -m research.bids.model runs/bids/p0_s{0,1}.npz --output runs/bids/net.pt \
    --json $d/bids_fit.json
  $PY -m research.bids.match --game oh_hell --time 0.02 --deals 500 --seed 31 \
    --planner p0=$ck --baseline bid_shift,checkpoint=$ck,shift=1 \
    --baseline so_ismcts,belief=voids --output $d/bid_shift1_t0.02.json
}

playouts() {  # research/playouts: what the random playout costs rollout search
  d=docs/results/oh_hell
  ck=runs/oh_hell_p0_s2/checkpoints/last.pt
  so=so_ismcts,belief=voids
  $PY -m research.playouts.match --game oh_hell --time 0.02 --deals 500 --seed 41 \
    --baseline $so,leaf=tricks_greedy --baseline $so --baseline $so \
    --output $d/playout_greedy_so_vs_two_so_t0.02.json
  $PY -m research.playouts.match --game oh_hell --time 0.02 --deals 1000 --seed 45 \
    --baseline $so,leaf=tricks_greedy --baseline $so --baseline $so \
    --output $d/playout_greedy_so_vs_two_so_t0.02_s45.json
  $PY -m research.playouts.match --game oh_hell --time 0.05 --deals 300 --seed 47 \
    --baseline $so,leaf=tricks_greedy --baseline $so --baseline $so \
    --output $d/playout_greedy_so_vs_two_so_t0.05.json
  $PY -m research.playouts.match --game oh_hell --time 0.02 --deals 1000 --seed 42 \
    --planner greedy=$ck,leaf=tricks_greedy --baseline $so --baseline $so \
    --output $d/playout_planner_greedy_vs_two_so_t0.02.json
  $PY -m research.playouts.learned fit runs/location/p0_s{0,2,3,4}.npz \
    --test runs/location/p0_s1.npz --output $d/playout_learned_weights.json
  $PY -m research.playouts.match --learned $d/playout_learned_weights.json --game oh_hell \
    --time 0.02 --deals 500 --seed 43 --baseline $so,leaf=tricks_learned \
    --baseline $so,leaf=tricks_greedy --baseline $so \
    --output $d/playout_learned_greedy_random_so_t0.02.json
  $PY -m research.playouts.match --game oh_hell --time 0.02 --deals 500 --seed 44 \
    --planner greedy=$ck,leaf=tricks_greedy --baseline $so,leaf=tricks_greedy --baseline $so \
    --output $d/playout_planner_greedy_vs_so_greedy_t0.02.json
  $PY -m research.playouts.match --game oh_hell --time 0.02 --deals 1000 --seed 48 \
    --planner greedy=$ck,leaf=tricks_greedy --baseline $so,leaf=tricks_greedy --baseline $so \
    --output $d/playout_planner_greedy_vs_so_greedy_t0.02_s48.json
  $PY -m research.playouts.match --game tricks --time 0.01 --deals 2000 --seed 46 \
    --baseline $so,leaf=tricks_greedy --baseline $so \
    --output docs/results/tricks/playout_tricks_greedy_so_vs_so_t0.01.json
}

fitted() {  # the playout fitted to the planner (isz-fit-playout), playout policy
  # iteration (research.playouts.iterate), the recipe with a refit each generation
  d=docs/results/oh_hell
  so=so_ismcts,belief=voids
  mkdir -p runs/playouts/fit
  cp runs/oh_hell_p0_s2/checkpoints/last.pt runs/playouts/fit/p0_s2_fit1.pt
  $PY scripts/fit_playout.py runs/playouts/fit/p0_s2_fit1.pt --games 600 --test-games 100 \
    --seed 0
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 53 \
    --planner fit1=runs/playouts/fit/p0_s2_fit1.pt --baseline $so --baseline $so \
    --output $d/playout_fit_planner_vs_two_so_t0.02.json
  $PY -m research.playouts.iterate --game oh_hell --generations 4 --games 1200 \
    --iterations 2000 --seed 0 --dir runs/playouts/iter
  $PY -m research.playouts.match --learned runs/playouts/iter --game oh_hell --time 0.02 \
    --deals 1000 --seed 51 --baseline $so --baseline $so,leaf=tricks_learned_g1 \
    --baseline $so,leaf=tricks_learned_g2 --output $d/playout_iteration_g012_t0.02.json
  time ISZ_CACHE_DIR=$(mktemp -d) $PY scripts/train.py experiment=oh_hell \
    trainer.seed=2 experiment.run_dir=runs/oh_hell_fit_s2
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 53 \
    --planner loop=runs/oh_hell_fit_s2/checkpoints/last.pt --baseline $so --baseline $so \
    --output $d/playout_loop_vs_two_so_t0.02.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 57 \
    --planner loop=runs/oh_hell_fit_s2/checkpoints/last.pt --baseline $so --baseline $so \
    --output $d/playout_loop_vs_two_so_t0.02_s57.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 400 --seed 59 \
    --planner gen6=runs/oh_hell_fit_s2/checkpoints/gen-000006.pt \
    --planner gen30=runs/oh_hell_fit_s2/checkpoints/gen-000030.pt --baseline $so \
    --output $d/playout_loop_gen6_gen30_t0.02.json
  cp runs/tricks/checkpoints/last.pt runs/playouts/fit/tricks_s0_fit1.pt  # make train's
  $PY scripts/fit_playout.py runs/playouts/fit/tricks_s0_fit1.pt --games 1000 \
    --test-games 200 --seed 0
  $PY -m research.head_to_head --game tricks --time 0.01 --deals 2000 --seed 55 \
    --planner fit=runs/playouts/fit/tricks_s0_fit1.pt \
    --planner plain=runs/tricks/checkpoints/last.pt \
    --output docs/results/tricks/playout_fit_vs_plain_t0.01.json
}

preset() {  # the newcomer's command as it is, training seed 0, timed with a cold kernel
  # cache, then training seed 1; each checkpoint with no knobs against two so_ismcts at
  # 0.02 s on its own deals (run alone)
  time ISZ_CACHE_DIR=$(mktemp -d) $PY scripts/train.py experiment=oh_hell
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 61 \
    --planner s0=runs/oh_hell/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids \
    --output docs/results/oh_hell/preset_s0_vs_two_so_t0.02_s61.json
  $PY -m research.head_to_head --game oh_hell --time 0.2 --deals 120 --seed 65 \
    --planner s0=runs/oh_hell/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids \
    --output docs/results/oh_hell/preset_s0_vs_two_so_t0.2_s65.json
  time $PY scripts/train.py experiment=oh_hell trainer.seed=1 experiment.run_dir=runs/oh_hell_s1
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 63 \
    --planner s1=runs/oh_hell_s1/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids \
    --output docs/results/oh_hell/preset_s1_vs_two_so_t0.02_s63.json
  # seed 0's checkpoint against the earlier best (the `teacher` part trains it)
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 81 \
    --planner preset=runs/oh_hell/checkpoints/last.pt \
    --planner "teacher_long=$long,agent=guided_so_ismcts,belief={\"name\":\"sir\",\"plays\":0}" \
    --baseline so_ismcts,belief=voids \
    --output docs/results/oh_hell/preset_s0_vs_teacher_long_t0.02_s81.json
}

hand_block() {  # the trick features' hand block (24 more move features): fits of the
  # first 24 and of all 48 on the same games of the seed-0 preset's planner, the two at
  # one table; then the preset retrained with it (its refits fit all 48)
  d=docs/results/oh_hell
  mkdir -p runs/playouts
  $PY -m research.playouts.features runs/oh_hell/checkpoints/last.pt --games 500 \
    --test-games 150 --seed 11 --output runs/playouts/features_s0.json
  w() { $PY -c "import json, sys; print(json.dumps(json.load(open(sys.argv[1]))[sys.argv[2]]['weights']).replace(' ', ''))" runs/playouts/features_s0.json "$1"; }
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 600 --seed 71 \
    --planner "f24=runs/oh_hell/checkpoints/last.pt,playout_weights=$(w old)" \
    --planner "f48=runs/oh_hell/checkpoints/last.pt,playout_weights=$(w all)" \
    --baseline so_ismcts,belief=voids --output $d/playout_hand_block_t0.02_s71.json
  time $PY scripts/train.py experiment=oh_hell experiment.run_dir=runs/oh_hell_f48
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 83 \
    --planner f48=runs/oh_hell_f48/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/preset_f48_s0_vs_two_so_t0.02_s83.json
}

preset_f48() {  # the preset as it is (48 move features): training seed 1 timed with a cold
  # kernel cache, its match; seed 0's two presets (parts preset, hand_block) at one table;
  # the ladder of each 48-feature run (run alone)
  d=docs/results/oh_hell
  time ISZ_CACHE_DIR=$(mktemp -d) $PY scripts/train.py experiment=oh_hell trainer.seed=1 \
    experiment.run_dir=runs/oh_hell_f48_s1
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 85 \
    --planner f48s1=runs/oh_hell_f48_s1/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/preset_f48_s1_vs_two_so_t0.02_s85.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 87 \
    --planner f24=runs/oh_hell/checkpoints/last.pt --planner f48=runs/oh_hell_f48/checkpoints/last.pt \
    --baseline so_ismcts,belief=voids --output $d/preset_f24_vs_f48_s0_t0.02_s87.json
  $PY -m research.head_to_head --game oh_hell --time 0.2 --deals 120 --seed 65 \
    --planner f48s0=runs/oh_hell_f48/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/preset_f48_s0_vs_two_so_t0.2_s65.json
  ladder_to_docs runs/oh_hell_f48 docs/results/oh_hell/preset_f48_s0 300 0.02
  ladder_to_docs runs/oh_hell_f48_s1 docs/results/oh_hell/preset_f48_s1 300 0.02
  # training seed 2 (kernels cached) and its match on new deals
  time $PY scripts/train.py experiment=oh_hell trainer.seed=2 experiment.run_dir=runs/oh_hell_f48_s2
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 95 \
    --planner f48s2=runs/oh_hell_f48_s2/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/preset_f48_s2_vs_two_so_t0.02_s95.json
}

doubling() {  # generations that double: the loop measured where its gains come (run alone)
  d=docs/results/oh_hell
  time $PY scripts/train.py experiment=oh_hell trainer.generation_schedule=doubling \
    experiment.run_dir=runs/oh_hell_dbl_s0
  ladder_to_docs runs/oh_hell_dbl_s0 docs/results/oh_hell/doubling_s0 500 0.02
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 89 \
    --planner dbl=runs/oh_hell_dbl_s0/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --baseline so_ismcts,belief=voids --output $d/doubling_s0_vs_two_so_t0.02_s89.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 91 \
    --planner v0=runs/oh_hell_dbl_s0/checkpoints/last.pt \
    --planner v25=runs/oh_hell_dbl_s0/checkpoints/last.pt,value_mix=0.25 \
    --baseline so_ismcts,belief=voids --output $d/doubling_s0_value_mix_t0.02_s91.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 93 \
    --planner gen30=runs/oh_hell_dbl_s0/checkpoints/gen-000030.pt \
    --planner gen1=runs/oh_hell_dbl_s0/checkpoints/gen-000001.pt \
    --baseline so_ismcts,belief=voids --output $d/doubling_s0_gen30_vs_gen1_t0.02_s93.json
}

short_values() {  # the preset (training seed 0) with and without its values at 5 and 2 ms
  $PY scripts/train.py experiment=oh_hell experiment.run_dir=runs/oh_hell logger.progress=false
  for t in 0.005 0.002; do
    $PY -m research.head_to_head --game oh_hell --time $t --deals 1000 --seed 97 --workers 2 \
      --planner vm0=runs/oh_hell/checkpoints/last.pt,value_mix=0 \
      --planner vm25=runs/oh_hell/checkpoints/last.pt,value_mix=0.25 \
      --baseline so_ismcts,belief=voids \
      --output docs/results/oh_hell/preset_s0_value_mix_t${t}_s97.json
  done
}

c_puct0() {  # the root's priors: the preset (training seed 0) with c_puct 1.5 and 0
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 101 --workers 2 \
    --planner rec=runs/oh_hell/checkpoints/last.pt --planner cp0=runs/oh_hell/checkpoints/last.pt,c_puct=0 \
    --baseline so_ismcts,belief=voids --output docs/results/oh_hell/preset_s0_c_puct0_t0.02_s101.json
  $PY -m research.head_to_head --game oh_hell --time 0.01 --deals 1000 --seed 103 --workers 2 \
    --planner rec=runs/oh_hell/checkpoints/last.pt --planner cp0=runs/oh_hell/checkpoints/last.pt,c_puct=0 \
    --baseline so_ismcts,belief=voids --output docs/results/oh_hell/preset_s0_c_puct0_t0.01_s103.json
  $PY -m research.head_to_head --game oh_hell --time 0.05 --deals 400 --seed 105 --workers 2 \
    --planner rec=runs/oh_hell/checkpoints/last.pt --planner cp0=runs/oh_hell/checkpoints/last.pt,c_puct=0 \
    --baseline so_ismcts,belief=voids --output docs/results/oh_hell/preset_s0_c_puct0_t0.05_s105.json
}

opponent_model() {
  $PY scripts/fit_opponent.py runs/oh_hell/checkpoints/last.pt --knob time_budget=0.02 \
    --knob belief=voids --games 1800 --test-games 200 --seed 1000 --epochs 8 --lr 3e-4 \
    --output runs/opp/oh_so_model.pt
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 99 --workers 2 \
    --planner model=runs/oh_hell/checkpoints/last.pt,opponent_model=runs/opp/oh_so_model.pt \
    --planner plain=runs/oh_hell/checkpoints/last.pt --baseline so_ismcts,belief=voids \
    --output docs/results/oh_hell/opponent_model_vs_plain_t0.02_s99.json
}

root_check() {  # the preset with its root check, seed 2 (run alone, kernels cached)
  time $PY scripts/train.py experiment=oh_hell trainer.seed=2 \
    experiment.run_dir=runs/oh_hell_root_s2 logger.progress=false
  cp runs/oh_hell_root_s2/results.json docs/results/oh_hell/root_check_s2_run.json
  $PY scripts/evaluate.py checkpoint=runs/oh_hell_root_s2/checkpoints/last.pt \
    "agents=[planner,so_ismcts,so_ismcts]" knobs.so_ismcts.belief=voids time_per_move=0.02 \
    deals=1000 seed=119 workers=2 progress=false \
    output=docs/results/oh_hell/root_check_s2_vs_two_so_t0.02_s119.json
}

apprentice() {  # the apprentice's form and the depth of the search it imitates (run alone)
  d=docs/results/oh_hell
  $PY -m research.playouts.capacity runs/oh_hell_f48_s2/checkpoints/last.pt --games 2000 \
    --test-games 400 --hidden 16,64,256 --seed 0 --workers 2 > $d/apprentice_capacity_s2.jsonl
  mkdir -p runs/apprentice
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 600 --seed 115 --workers 2 \
    --planner fit8k="$(fit_at 8000)" --planner base=runs/oh_hell_f48_s2/checkpoints/last.pt \
    --baseline so_ismcts,belief=voids --output $d/apprentice_fit8k_vs_last_t0.02_s115.json
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 117 --workers 2 \
    --planner fit16k="$(fit_at 16000)" --planner fit8k=runs/apprentice/fit8000.pt \
    --planner fit2k="$(fit_at 2000)" --output $d/apprentice_fit_depths_t0.02_s117.json
}

# fit_at N: a copy of the seed-2 preset's last.pt whose playout is refitted to its planner
# at N iterations a move (200 games, 40 held out, seed 5); prints the copy's path
fit_at() {
  cp runs/oh_hell_f48_s2/checkpoints/last.pt runs/apprentice/fit$1.pt
  $PY scripts/fit_playout.py runs/apprentice/fit$1.pt --games 200 --test-games 40 --seed 5 \
    --workers 2 --iterations $1 > runs/apprentice/fit$1.json
  echo runs/apprentice/fit$1.pt
}

run_sections "plain q_targets expand_after teacher variants beliefs puct_rollouts recipe recipe_seed1 recipe_seed2 plays location bids playouts fitted preset hand_block preset_f48 doubling short_values opponent_model c_puct0 root_check apprentice" "$@"
