#!/usr/bin/env bash
# docs/results/speed.md: isz's search, belief, network and planner speed (isz-bench JSON
# lines), and isz against OpenSpiel's C++ ISMCTS bot (isz.openspiel) in matches.
# Speed depends on the machine and its load: compare rows of one run only.
#   bash research/reproduce/speed.sh              # every section, in order
#   bash research/reproduce/speed.sh search       # some sections (the parts below)
# Parts:
#   search: rollout searchers' and OpenSpiel's bot's iterations/s
#   planner: one planner decision by lanes; lanes: strength with and without lanes
#   expand_after, child_index, planner_modes: planner variants' rows
#   beliefs: belief sampling rows
#   leaf: so_ismcts with the random and with a fitted playout (leaf=policy), side by side
#   kernel_refactor: the compiled kernels before and after their rewrite, alternately
#   openspiel: matches against OpenSpiel's C++ ISMCTS bot
#   evaluator_cache: the network evaluator's cache before (commit 43f330b) and today on the
#     same rows, and today's isz-bench row beside the network alone
#   buffer: a checkpoint's replay-buffer write at the oh_hell preset's size, whole and as
#     a segment (writes about 6 GB, each file removed after it)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python

search() {  # one decision of each rollout searcher (tricks, Oh Hell); OpenSpiel's C++
  # ISMCTS bot through isz's bridge at the same positions (its clock covers building its
  # world from the isz view)
  $PY scripts/bench.py --only search --games tricks,oh_hell --reps 7
  $PY scripts/bench.py --only search --games oh_hell,kuhn_poker,leduc_poker \
    --agents openspiel_ismcts --reps 7
}

planner() {  # one planner decision: lanes 1, 16, 32 beside so_ismcts
  $PY scripts/bench.py --only planner --planner-lanes 1,16,32
}

lanes() {  # playing strength with and without lanes (a PUCT planner: the classic recipe)
  ck=runs/tricks_alphazero/checkpoints/last.pt
  [ -f $ck ] || $PY scripts/train.py experiment=alphazero experiment.run_dir=runs/tricks_alphazero
  $PY -m research.lanes_match $ck --simulations 64 --deals 1000 \
    --output results/speed/tricks_lanes_64.json
}

expand_after() {  # the planner with random-playout leaves below the expansion threshold
  for tr in "so --planner-expand-after 1,4,16,64" "mo --planner-expand-after 1,16"; do
    $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
      --planner-leaf-mix 1 --planner-iterations 1000 --planner-tree $tr \
      --out docs/results/speed/bench_expand_after.jsonl
  done
}

child_index() {  # the mo tree's root splits through a hash index: 1,000 and 4,000 sims
  for it in 1000 4000; do
    $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
      --planner-leaf-mix 1 --planner-iterations $it --planner-tree mo \
      --planner-expand-after 1,16 --out docs/results/speed/bench_child_index.jsonl
    # the rollout mo_ismcts through the same index (the "before" rows: commit 45637f1)
    $PY scripts/bench.py --only search --games oh_hell,tricks --agents so_ismcts,mo_ismcts \
      --iterations $it --reps 3 >> docs/results/speed/bench_mo_ismcts_index.jsonl
  done
}

beliefs() {  # sampling speed, rejection rates and first-world cost a decision of each belief
  $PY scripts/bench.py --only belief > docs/results/speed/bench_belief_sir_drawn_world.jsonl  # sir, sir_dense side by side (today's code; _parts.jsonl: the code before)
}

planner_modes() {  # one decision of each planner mode (tricks, Oh Hell; 1,000 simulations)
  for e in playout search; do
    $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
      --planner-leaf-mix 1 --planner-iterations 1000 --planner-tree mo \
      --planner-expand-after 16 --planner-below-threshold $e \
      >> docs/results/speed/bench_planner_modes.jsonl
  done
  $PY scripts/bench.py --only planner --planner-games tricks,oh_hell --planner-lanes 16 \
    --planner-iterations 1000 --planner-agent guided_so_ismcts >> docs/results/speed/bench_planner_modes.jsonl
}

kernel_refactor() {  # the kernels before (commit a5431a2) and after their rewrite: rows
  # of both checkouts alternately, then the same checkout twice (the noise floor)
  before=../isz-kernel-before
  [ -d $before ] || git worktree add --detach $before a5431a2
  (cd $before && bash scripts/setup.sh)
  $PY -m research.bench_checkouts --before $before --repeats 16 \
    --out docs/results/speed/bench_kernel_refactor.jsonl
  $PY -m research.bench_checkouts --before $before --after $before --repeats 16 \
    --out docs/results/speed/bench_kernel_refactor_control.jsonl
  git worktree remove $before
}

openspiel() {
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
    output=docs/results/speed/openspiel_leduc_planner_10ms_os37ms.json
}

leaf() {  # the random playout against a fitted one (leaf=policy), one run
  $PY scripts/bench.py --only leaf,search --agents so_ismcts --games tricks,oh_hell,recon \
    > docs/results/speed/bench_leaf.jsonl
}

evaluator_cache() {  # the cache as one small array per row (43f330b) and as one gather
  git show 43f330b:isz/agents/network.py > /tmp/isz_network_before.py
  $PY -m research.evaluator_cache_ab --before /tmp/isz_network_before.py \
    > docs/results/speed/evaluator_cache_before_after.jsonl
  $PY scripts/bench.py --only nn > docs/results/speed/bench_nn_evaluator_cache.jsonl
}

buffer() {  # the whole 2 GB ring against one iteration's segment, side by side
  $PY scripts/bench.py --only buffer > docs/results/speed/bench_buffer_save.jsonl
}

run_sections "search planner lanes expand_after child_index beliefs planner_modes leaf \
kernel_refactor openspiel evaluator_cache buffer" "$@"
