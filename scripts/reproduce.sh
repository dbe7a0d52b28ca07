#!/usr/bin/env bash
# Reproduce the figures of the README (long: run pieces by hand as needed).
#   bash scripts/reproduce.sh seed      # the seed's three matchups, 6,000 deals each
#   bash scripts/reproduce.sh speed     # isz vs the seed's and OpenSpiel's ISMCTS, one run
#   bash scripts/reproduce.sh train     # default training + kuhn, leduc, recon runs
#   bash scripts/reproduce.sh search-exploitability   # search-only agents on Kuhn/Leduc
#   bash scripts/reproduce.sh planner-speed   # one decision: planner lanes 1 vs 16 beside so_ismcts
#   bash scripts/reproduce.sh equal-time      # tricks, kuhn, leduc: planner at equal time and sims
#   bash scripts/reproduce.sh oh-hell         # train experiment=oh_hell and oh_hell_q, their matches
#   bash scripts/reproduce.sh openspiel       # isz vs OpenSpiel's ISMCTS
#   bash scripts/reproduce.sh recon-candidates   # rollout margins of recon variants (recon_hard)
#   bash scripts/reproduce.sh recon-hard         # train recon_hard, its planner per seat
#   bash scripts/reproduce.sh nash               # kuhn_nash vs kuhn_nash_magnet, 3 seeds; leduc
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
case "${1:-}" in
  seed)
    for m in so_ismcts,pimc cheat_uct,so_ismcts so_ismcts,random; do
      $PY scripts/evaluate.py game=tricks "agents=[$m]" deals=6000 iterations=1000 seed=1 \
        progress=false "output=results/seed_${m/,/_}.json"
    done ;;
  speed)
    python3 ../shared/bench/seed_reference.py --deals 1 --reps 5 --algos so_ismcts
    # OpenSpiel lives outside isz's dependencies: python -m venv ../.osv && ../.osv/bin/pip install open-spiel numpy
    ../.osv/bin/python ../shared/bench/openspiel_ismcts.py --games "oh_hell(num_tricks_fixed=10)" --reps 5
    $PY scripts/bench.py --only search --games tricks,oh_hell --reps 7 ;;
  train)
    $PY scripts/train.py trainer.final_eval_deals=1000   # make train; the README's 1,000 deals
    $PY scripts/train.py game=kuhn_poker trainer.iterations=30 trainer.final_eval_deals=200
    $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.eval_deals=100 \
      trainer.final_eval_deals=500
    $PY scripts/train.py game=recon trainer.iterations=40 trainer.final_eval_deals=500
    $PY scripts/train.py game=recon trainer.iterations=40 trainer.final_eval_deals=500 \
      search.value_view=actor experiment.name=recon_actor
    # toward Nash: posterior belief under the network, on-policy q, mirror-descent targets
    $PY scripts/train.py experiment=kuhn_nash
    $PY scripts/train.py experiment=leduc_nash
    for ck in last best; do
      $PY scripts/evaluate.py checkpoint=runs/leduc_nash/checkpoints/$ck.pt "agents=[planner]" \
        deals=1 iterations=1024 exploitability=true knobs.planner.mirror_eta=5 progress=false \
        output=results/leduc_nash_$ck.json
    done ;;
  search-exploitability)
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
    ;;
  planner-speed)
    $PY scripts/bench.py --only planner --planner-lanes 1,16,32 ;;
  equal-time)
    # the default tricks run (make train); lanes: the planner with and without simulations
    # in flight (lanes_match.py: equal simulations, 64 a move)
    ck=runs/tricks/checkpoints/last.pt
    [ -f $ck ] || $PY scripts/train.py
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" deals=1000 seed=1 \
      iterations=32 workers=2 progress=false output=results/tricks_equal_sims_32.json
    for t in 0.01 0.05; do
      $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" deals=1000 seed=1 \
        time_per_move=$t workers=2 progress=false output=results/tricks_equal_time_$t.json
    done
    $PY scripts/lanes_match.py $ck --simulations 64 --deals 1000 \
      --output results/tricks_lanes_64.json
    # exploitability of the planner at a fixed time and at a fixed simulation count, per
    # planner seed (Kuhn toward Nash; Leduc with AlphaZero targets)
    [ -f runs/kuhn_nash/checkpoints/last.pt ] || $PY scripts/train.py experiment=kuhn_nash
    [ -f runs/leduc_poker/checkpoints/last.pt ] || \
      $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.final_eval_deals=10
    for s in 0 1 2 3 4; do
      for b in time_per_move=0.01 iterations=64; do
        $PY scripts/evaluate.py checkpoint=runs/kuhn_nash/checkpoints/last.pt \
          "agents=[planner]" deals=1 $b seed=$s exploitability=true progress=false \
          output=results/kuhn_nash_${b/=/_}_s$s.json
      done
    done
    for s in 0 1 2; do
      for b in time_per_move=0.01 iterations=128; do
        $PY scripts/evaluate.py checkpoint=runs/leduc_poker/checkpoints/last.pt \
          "agents=[planner]" deals=1 $b seed=$s exploitability=true progress=false \
          output=results/leduc_az_${b/=/_}_s$s.json
      done
    done ;;
  oh-hell)
    $PY scripts/train.py experiment=oh_hell
    ck=runs/oh_hell/checkpoints/last.pt
    three="agents=[planner,so_ismcts,pimc] knobs.so_ismcts.belief=voids knobs.pimc.belief=voids"
    $PY scripts/evaluate.py checkpoint=$ck $three deals=1000 iterations=32 workers=2 seed=1 \
      progress=false output=results/oh_hell_equal_sims_32.json
    $PY scripts/evaluate.py checkpoint=$ck $three deals=1000 time_per_move=0.02 workers=2 \
      seed=1 progress=false output=results/oh_hell_equal_time_0.02.json
    $PY scripts/evaluate.py checkpoint=$ck $three deals=200 time_per_move=0.1 workers=2 \
      seed=1 progress=false output=results/oh_hell_equal_time_0.1.json
    # lower-noise value targets (docs/results/oh_hell.md): the offline probe, then
    # experiment=oh_hell_q (rollout self-play, root-value targets on own entries only)
    $PY scripts/value_probe.py play --games 1024 --seed 0 --out results/oh_rollout_1024.npz
    $PY scripts/value_probe.py fit results/oh_rollout_1024.npz --test-games 128 \
      --lam 1.0 0.5 0.0 --other-weights 0.0 0.1 1.0 --steps 300
    $PY scripts/train.py experiment=oh_hell_q logger.progress=false
    ck=runs/oh_hell_q/checkpoints/last.pt
    q="$three knobs.planner.value_view=own workers=2 seed=1 progress=false"
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
    # expansion threshold (knobs.planner.expand_after=n: a leaf's first n-1 visits are random
    # playouts, no network call), on a retrain of experiment=oh_hell_q (same command, seed 0:
    # "v3b"): the speed rows, a 100-deal screen at 0.02 s, then the chosen (tree, n) at
    # 0.02 s (1,000 deals), 0.05 s (300 deals) and 256 simulations (200 deals, also n=1)
    for tr in "so --planner-expand-after 1,4,16,64" "mo --planner-expand-after 1,16"; do
      $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
        --planner-leaf-mix 1 --planner-iterations 1000 --planner-tree $tr \
        --out docs/results/speed/bench_expand_after.jsonl
    done
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
    # the mo tree's root splits through a hash index: one decision at 1,000 and 4,000 sims
    for it in 1000 4000; do
      $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
        --planner-leaf-mix 1 --planner-iterations $it --planner-tree mo \
        --planner-expand-after 1,16 --out docs/results/speed/bench_child_index.jsonl
      # the rollout mo_ismcts through the same index (the "before" rows: commit 45637f1)
      $PY scripts/bench.py --only search --games oh_hell,tricks --agents so_ismcts,mo_ismcts \
        --iterations $it --reps 3 >> docs/results/speed/bench_mo_ismcts_index.jsonl
    done
    # distilled from rollout so_ismcts (selfplay.teacher=so_ismcts, 2,000 iterations a move;
    # the planner as recorded: leaf_mix=1, expand_after=16, mo tree, value_view=own); then
    # the longer recipe: oh_hell_teacher's last.pt continued, teacher at 8,000 iterations
    t="$three workers=2 seed=1 progress=false"
    for run in oh_hell_teacher oh_hell_teacher_long; do
      $PY scripts/train.py experiment=$run logger.progress=false
      $PY scripts/evaluate.py checkpoint=runs/$run/checkpoints/last.pt $t deals=1000 \
        iterations=256 output=docs/results/oh_hell/eq_${run}_equal_sims_256.json
      for b in 0.02 0.05; do
        $PY scripts/evaluate.py checkpoint=runs/$run/checkpoints/last.pt $t deals=1000 \
          time_per_move=$b output=docs/results/oh_hell/eq_${run}_equal_time_$b.json
      done
    done
    ck=runs/oh_hell_teacher/checkpoints/last.pt
    long=runs/oh_hell_teacher_long/checkpoints/last.pt
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
    # 0.05 s; then the belief's first-world cost a decision, both paths side by side
    for b in 0.02 0.05 0.01 0.005; do
      $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=$b \
        knobs.planner.agent=guided_so_ismcts \
        output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_shuffle_equal_time_$b.json
    done
    $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
      knobs.planner.agent=guided_so_ismcts \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_shuffle_equal_time_0.5_100deals.json
    $PY scripts/bench.py --only belief > docs/results/speed/bench_belief_shuffle.jsonl
    # the planner's belief: voids deals resampled by the network's probability of the
    # other seats' bids (belief=sir, 128 candidates a view); the 200-deal screen first
    $PY scripts/evaluate.py checkpoint=$long $t deals=200 time_per_move=0.05 \
      knobs.planner.agent=guided_so_ismcts knobs.planner.belief=sir \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_0.05_200deals.json
    for b in 0.05 0.02; do
      $PY scripts/evaluate.py checkpoint=$long $t deals=1000 time_per_move=$b \
        knobs.planner.agent=guided_so_ismcts knobs.planner.belief=sir \
        output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_$b.json
    done
    $PY scripts/evaluate.py checkpoint=$long $t deals=1000 iterations=256 \
      knobs.planner.agent=guided_so_ismcts knobs.planner.belief=sir \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_sims_256.json
    $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
      knobs.planner.agent=guided_so_ismcts knobs.planner.belief=sir \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_so_root_sir_equal_time_0.5_100deals.json
    $PY scripts/bench.py --only belief > docs/results/speed/bench_belief_sir.jsonl
    # one decision of each (tricks, Oh Hell; 1,000 simulations) beside so_ismcts
    for e in playout search; do
      $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
        --planner-leaf-mix 1 --planner-iterations 1000 --planner-tree mo \
        --planner-expand-after 16 --planner-below-threshold $e \
        >> docs/results/speed/bench_planner_modes.jsonl
    done
    $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
      --planner-iterations 1000 --planner-engine so_ismcts >> docs/results/speed/bench_planner_modes.jsonl
    # the recorded planner at 0.5 s a move (100 deals: about 40 minutes on 2 cores)
    $PY scripts/evaluate.py checkpoint=$long $t deals=100 time_per_move=0.5 \
      output=docs/results/oh_hell/eq_oh_hell_teacher_long_equal_time_0.5_100deals.json
    # the beliefs' card placement (voids, gibbs, gibbs weighted by the policy)
    $PY scripts/belief_accuracy.py $ck --games 60 --worlds 64 --after-tricks 3 --seed 0 \
      --output docs/results/oh_hell/oh_hell_belief_accuracy.json
    # the same PUCT search with random playouts and uniform priors (no network)
    $PY scripts/evaluate.py game=oh_hell "agents=[puct_ismcts,so_ismcts,pimc]" \
      knobs.puct_ismcts.belief=voids knobs.so_ismcts.belief=voids knobs.pimc.belief=voids \
      deals=100 iterations=256 workers=2 seed=1 progress=false \
      output=docs/results/oh_hell/eq_oh_hell_puct_rollouts_equal_sims_256_100deals.json ;;
  openspiel)
    # isz vs OpenSpiel's C++ ISMCTS: equal simulations, then equal wall time per move (the
    # OpenSpiel bot's clock covers building its world); oh_hell: one isz agent, two bots
    two="agents=[so_ismcts,openspiel_ismcts]"
    three="agents=[so_ismcts,openspiel_ismcts,openspiel_ismcts]"
    $PY scripts/evaluate.py game=leduc_poker "$two" deals=2000 iterations=1000 seed=1 \
      progress=false output=docs/results/speed/openspiel_leduc_1000it.json
    $PY scripts/evaluate.py game=leduc_poker "$two" deals=2000 time_per_move=0.01 seed=1 \
      progress=false output=docs/results/speed/openspiel_leduc_10ms.json
    $PY scripts/evaluate.py game=oh_hell "$three" deals=1000 time_per_move=0.01 seed=1 \
      progress=false output=docs/results/speed/openspiel_oh_hell_10ms.json
    $PY scripts/evaluate.py game=oh_hell "$three" deals=1000 iterations=200 seed=1 workers=2 \
      progress=false output=docs/results/speed/openspiel_oh_hell_200it.json
    # OpenSpiel's objective in oh_hell: mean raw points per agent (200 deals, 200 simulations)
    $PY - <<'PYEOF'
import numpy as np, isz
from isz.evaluation.play import chance_rng, decision_rng
from isz.games.tricks import points
game = isz.make_game("oh_hell")
names = ["so_ismcts", "openspiel_ismcts", "openspiel_ismcts"]
agents = [isz.make_agent(n, game, iterations=200) for n in names]
pts = np.zeros((200, 3))
for deal in range(200):
    for rot in range(3):
        seated = [agents[(s - rot) % 3] for s in range(3)]
        for a in seated:
            a.reset()
        chance, state, k = chance_rng(1, deal), game.new_initial_state(), [0, 0, 0]
        while not state.is_terminal():
            p = state.current_player()
            if p < 0:
                state.apply_action(state.sample_chance(chance))
                continue
            rng, k[p] = decision_rng(1, deal, rot, p, k[p]), k[p] + 1
            state.apply_action(seated[p].act(state.view(p), rng))
        pts[deal] += [points(state)[(i + rot) % 3] / 3 for i in range(3)]
for n, m, s in zip(names, pts.mean(0), pts.std(0, ddof=1) / np.sqrt(200)):
    print(f"{n} points {m:.3f} +- {s:.3f}")
PYEOF
    # a Leduc planner (AlphaZero targets) against the bot
    $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.final_eval_deals=10
    ck=runs/leduc_poker/checkpoints/best.pt
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,openspiel_ismcts]" deals=1000 \
      iterations=128 seed=1 progress=false output=docs/results/speed/openspiel_leduc_planner_128it.json
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,openspiel_ismcts]" deals=1000 \
      time_per_move=0.01 seed=1 progress=false \
      output=docs/results/speed/openspiel_leduc_planner_10ms.json
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,openspiel_ismcts]" deals=1000 \
      time_per_move=0.01 knobs.openspiel_ismcts.time_budget=0.037 seed=1 progress=false \
      output=docs/results/speed/openspiel_leduc_planner_10ms_os37ms.json ;;
  recon-candidates)
    # rollout search on recon variants: so_ismcts vs pimc, cheat_uct vs so_ismcts, vs random
    while read -r name params; do
      for m in so_ismcts,pimc cheat_uct,so_ismcts so_ismcts,random; do
        $PY scripts/evaluate.py game=recon $params "agents=[$m]" deals=500 workers=2 \
          iterations=1000 seed=1 progress=false "output=results/recon_cand_${name}_${m/,/_}.json"
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
    ;;
  recon-hard)
    # training (3.6-6.3 min on 2 shared cores; trainer.actors=0: the same checkpoint every
    # time), then the planner (as trained: particle filter whose adversary plays the
    # network) per seat, 1,000 deals x 2 seats per row, seed 1; copied to docs/results/recon/
    nice -n 10 $PY scripts/train.py experiment=recon_hard
    ck=runs/recon_hard/checkpoints/last.pt
    H="game=recon game_params.slots=5 game_params.turns=15 game_params.fuel=7"
    for opp in planner_uniform so_ismcts pimc; do
      nice -n 10 $PY scripts/recon_eval.py $ck --opponent $opp --deals 1000 --seed 1 \
        --iterations 32 --output results/recon_hard_${opp}_sims.json     # equal simulations
      nice -n 10 $PY scripts/recon_eval.py $ck --opponent $opp --deals 1000 --seed 1 \
        --seconds 0.02 --output results/recon_hard_${opp}_time.json      # equal time: 20 ms a move
    done
    # the two filters at a fixed 512 simulations (the first 300 deals)
    nice -n 10 $PY scripts/recon_eval.py $ck --opponent planner_uniform --deals 300 --seed 1 \
      --iterations 512 --output results/recon_hard_planner_uniform_sims512.json
    # how well each filter knows the true slot at every recon decision (first 300 deals)
    for n in 32 512; do
      nice -n 10 $PY scripts/recon_eval.py $ck --opponent planner_uniform --deals 300 --seed 1 \
        --iterations $n --filter-diagnostics --output results/recon_hard_filter_diag_sims$n.json
    done
    # the planner with the uniform-motion filter (both seats) against so_ismcts
    nice -n 10 $PY scripts/recon_eval.py $ck --belief-policy uniform --opponent so_ismcts \
      --deals 1000 --seed 1 --iterations 32 --output results/recon_hard_uniform_so_ismcts_sims.json
    nice -n 10 $PY scripts/recon_eval.py $ck --belief-policy uniform --opponent so_ismcts \
      --deals 1000 --seed 1 --seconds 0.02 --output results/recon_hard_uniform_so_ismcts_time.json
    # rollout self-play baselines of each seat (the planner replaces one of the two)
    nice -n 10 $PY scripts/evaluate.py $H "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" \
      deals=1000 seed=1 iterations=32 progress=false output=results/recon_hard_so_self_sims.json
    nice -n 10 $PY scripts/evaluate.py $H "game_params.sensor=[0.6,0.3]" "agents=[so_ismcts]" \
      deals=1000 seed=1 time_per_move=0.02 progress=false \
      output=results/recon_hard_so_self_time.json
    # is the raw-policy motion model wrong against a searching adversary? (200 deals x 2 seats):
    # adversary-move log-likelihoods under each motion model, P(true slot) per recon turn, the
    # best last move under each filter; budgets 32, 512, and per seat (recon / adversary)
    D="$PY scripts/recon_eval.py $ck --deals 200 --seed 1 --filter-diagnostics"
    nice -n 10 $D --opponent planner_uniform --iterations 32 \
      --output results/recon_hard_motion_diag_sims32.json
    nice -n 10 $D --opponent planner_uniform --iterations 512 \
      --output results/recon_hard_motion_diag_sims512.json
    nice -n 10 $D --opponent planner_uniform --iterations 512 --adversary-iterations 32 \
      --output results/recon_hard_motion_diag_r512_a32.json
    nice -n 10 $D --opponent planner_uniform --iterations 32 --adversary-iterations 512 \
      --output results/recon_hard_motion_diag_r32_a512.json
    nice -n 10 $D --opponent so_ismcts --seconds 0.02 \
      --output results/recon_hard_motion_diag_so_ismcts_time.json
    # robust motion models in A's filter (belief knobs policy_mix / policy_temperature)
    E="$PY scripts/recon_eval.py $ck --seed 1"
    nice -n 10 $E --policy-mix 0.3 --opponent planner_uniform --deals 300 --iterations 512 \
      --output results/recon_hard_mix03_planner_uniform_sims512.json
    nice -n 10 $E --policy-temperature 0.5 --opponent planner_uniform --deals 300 --iterations 512 \
      --output results/recon_hard_temp05_planner_uniform_sims512.json
    nice -n 10 $E --policy-mix 0.3 --opponent so_ismcts --deals 1000 --seconds 0.02 \
      --output results/recon_hard_mix03_so_ismcts_time.json
    # the same raw-network motion model, computed exactly (bayes) or with 2,000 particles
    nice -n 10 $E --exact --opponent planner_uniform --deals 300 --iterations 512 \
      --output results/recon_hard_exact_planner_uniform_sims512.json
    nice -n 10 $E --particles 2000 --opponent planner_uniform --deals 300 --iterations 512 \
      --output results/recon_hard_p2000_planner_uniform_sims512.json
    nice -n 10 $E --exact --opponent so_ismcts --deals 300 --seconds 0.02 \
      --output results/recon_hard_exact_so_ismcts_time.json   # 300 deals: the session's time ran out
    for n in 16 4; do  # the expansion threshold in the recon planner (300-deal screens)
      $PY scripts/recon_eval.py $ck --opponent so_ismcts --deals 300 --seconds 0.02 --seed 1 \
        --planner-knob expand_after=$n \
        --output docs/results/recon/recon_hard_n${n}_so_ismcts_time_300deals.json
    done
    # trained against the exact network filter (self-play's recon believes bayes under the
    # network; 7.3 min), then its planner (as trained) vs so_ismcts at 0.02 s
    $PY scripts/train.py experiment=recon_hard belief=bayes belief.policy=network \
      '~belief.knobs.particles' experiment.name=recon_hard_bayes logger.progress=false
    $PY scripts/recon_eval.py runs/recon_hard_bayes/checkpoints/last.pt --opponent so_ismcts \
      --deals 1000 --seconds 0.02 --seed 1 --output results/recon_hard_bayes_so_ismcts_time.json
    ;;
  nash)
    # issue 12, a last iterate you can trust: final checkpoints (last.pt) of kuhn_nash and
    # kuhn_nash_magnet over training seeds 0-2 x planner seeds 0-4 (~15 min on 2 cores)
    for s in 0 1 2; do
      $PY scripts/train.py experiment=kuhn_nash trainer.seed=$s \
        experiment.run_dir=runs/kuhn_nash_s$s logger.progress=false
      $PY scripts/train.py experiment=kuhn_nash_magnet trainer.seed=$s \
        experiment.run_dir=runs/kuhn_nash_magnet_s$s logger.progress=false
    done
    $PY scripts/nash_table.py --run "kuhn_nash=runs/kuhn_nash_s*" \
      --run "kuhn_nash_magnet=runs/kuhn_nash_magnet_s*" --output docs/results/nash/kuhn_nash_table.json
    $PY scripts/nash_table.py --run "kuhn_nash_magnet (planner step 2)=runs/kuhn_nash_magnet_s*" \
      --knob mirror_eta=2.0 --output docs/results/nash/kuhn_nash_magnet_step2_table.json
    for e in 2.0 1.0 0.5 0.25; do   # the planner's step, training seed 0
      $PY scripts/nash_table.py --run "step $e=runs/kuhn_nash_magnet_s0" --knob mirror_eta=$e
    done
    # plain AlphaZero targets for the figure (0.4 min each), evaluated every 3 iterations
    for s in 0 1 2; do
      $PY scripts/train.py game=kuhn_poker trainer.iterations=30 trainer.eval_every=3 \
        trainer.eval_deals=20 trainer.final_eval_deals=200 'trainer.eval_opponents=[so_ismcts]' \
        trainer.seed=$s experiment.run_dir=runs/kuhn_az_s$s logger.progress=false
    done
    # (the committed figure kept the kuhn_nash, kuhn_nash_magnet and CFR curves of an earlier
    # JSON and added AlphaZero's: --include docs/results/nash/kuhn_nash_curves.json --cfr-from it)
    $PY scripts/nash_curves.py --run "kuhn_nash=runs/kuhn_nash_s*" \
      --run "kuhn_nash_magnet=runs/kuhn_nash_magnet_s*" --run "AlphaZero targets=runs/kuhn_az_s*" \
      --output docs/results/nash/kuhn_nash_curves --png docs/results/nash/kuhn_nash_curves.png
    # the ablations (training seed 0; README "How the recipe was found")
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
    $PY scripts/mirror_dynamics.py kuhn_poker alpha=0.1 alpha=0.1,magnet=network,every=10 \
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
    $PY scripts/nash_table.py --run "leduc_nash=runs/leduc_nash_s*" \
      --run "leduc_nash_magnet=runs/leduc_nash_magnet_s[01]" --planner-seeds 0 1 2 \
      --output docs/results/nash/leduc_nash_table.json   # the earlier table: seeds 0-1 x 0-2
    $PY scripts/nash_table.py --run "leduc_nash_magnet=runs/leduc_nash_magnet_s*" \
      --output docs/results/nash/leduc_nash_magnet_table.json
    $PY scripts/average_checkpoints.py runs/leduc_nash_magnet_s* --from 10
    $PY scripts/nash_table.py --run "leduc_nash_magnet, weights averaged from 10=runs/leduc_nash_magnet_s*" \
      --checkpoint average-from-10.pt --output docs/results/nash/leduc_nash_magnet_average_table.json
    $PY scripts/nash_table.py \
      --run "leduc_nash_magnet, weights averaged from 10, planner step 0.5=runs/leduc_nash_magnet_s*" \
      --checkpoint average-from-10.pt --knob mirror_eta=0.5 \
      --output docs/results/nash/leduc_nash_magnet_average_step05_table.json
    R=runs/leduc_abl_average_eta10_a02_s0
    $PY scripts/nash_table.py --run "eta 10, alpha 0.02, 150 it, last.pt=$R" \
      --output docs/results/nash/leduc_abl_average_eta10_last_table.json
    $PY scripts/nash_table.py --run "eta 10, alpha 0.02, 150 it, average.pt=$R" \
      --checkpoint average.pt --output docs/results/nash/leduc_abl_average_eta10_table.json
    $PY scripts/iterate_averages.py runs/leduc_nash_magnet_s* --from 1 10 20 50 \
      --output docs/results/nash/leduc_iterate_averages_magnet.json
    $PY scripts/iterate_averages.py $R --from 1 10 20 50 100 \
      --output docs/results/nash/leduc_iterate_averages_abl_eta10.json
    # plain AlphaZero targets for the figure (1.0 min each), evaluated every 10 iterations
    for s in 0 1 2; do
      $PY scripts/train.py game=leduc_poker trainer.iterations=60 trainer.eval_every=10 \
        trainer.eval_deals=20 trainer.final_eval_deals=200 'trainer.eval_opponents=[so_ismcts]' \
        trainer.seed=$s experiment.run_dir=runs/leduc_az_s$s logger.progress=false
    done
    # (the committed figure kept leduc_nash's curve, seeds 0-1, and CFR's from an earlier
    # JSON: --include "OLD.json#leduc_nash" --cfr-from OLD.json)
    $PY scripts/nash_curves.py --game leduc_poker --cfr-iterations 1000 \
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
    $PY scripts/mirror_dynamics.py leduc_poker alpha=0.05 \
      alpha=0.05,eta=10,magnet=network,every=20,lag=0.35
    # the tabular dynamics with iterate averages (README table; about 10 min on one core)
    L=lag=0.35,iters=200
    M=magnet=network
    $PY scripts/mirror_dynamics.py leduc_poker alpha=0.05,eta=10,$L,avg_from=1,avg_weight=linear \
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
    $PY scripts/mirror_dynamics.py leduc_poker $S --output docs/results/nash/leduc_mirror_dynamics_noise.json ;;
  *) sed -n 2,13p "$0"; exit 2 ;;
esac
