#!/usr/bin/env bash
# docs/results/recipe.md: the default recipe (scripts/train.py with every default, sizes
# included) on games no preset was made for, each checkpoint against so_ismcts at 0.01 and
# 0.05 s a move (1,000 deals x 2 seats, deal seed 97), training seeds 0-2; then the ladder
# of each seed-0 run's generations at 0.01 s a move. Run the matches alone: equal-time
# matches are load-sensitive.
#   bash research/reproduce/recipe.sh              # every section, in order (about an hour)
#   bash research/reproduce/recipe.sh liars_dice   # some sections (the parts below)
# Parts:
#   leduc: Leduc poker (a registered game; 1.5-2 minutes a training seed)
#   leduc_values: each Leduc checkpoint with the network's values at the root against none
#   liars_dice: examples/liars_dice.py, through game.module
#   liars_dice2: the same with two dice each (over the posterior's cap: the replay
#     belief), and seed 0 again with uniform worlds (belief.name=uniform)
#   liars_dice2_pool: two dice retrained on today's code (the replay pool's deadline under
#     a time budget), seeds 0-2 against so_ismcts at 0.01 and 0.05 s, and at 0.01 s on the
#     tree before the deadline (0601c7a, the same checkpoints)
#   values: each Liar's Dice checkpoint (one and two dice) with the network's values at
#     the root against none, head to head and against so_ismcts; two dice seed 0 with
#     c_puct=0
#   kuhn: Kuhn poker (level at equal time), and where its planners' moves differ
#   phantom_ttt: examples/phantom_ttt.py, through game.module, then seed 0's checkpoint
#     with uniform worlds, 1,024 replay worlds and c_puct 0.5, 0.1 and 0; seed 0 retrained on a
#     search four times as long (selfplay.teacher_iterations=4000)
#   ladders: the ladders of the seed-0 runs of Leduc and of Liar's Dice (one and two dice)
#   root: the root's rule (the priors' PUCT or so_ismcts's UCB, c_puct=0) on checkpoints
#     trained before the root check, then seed 0 of recon_hard, tricks, Liar's Dice with two
#     dice, Goofspiel and phantom tic-tac-toe retrained with it, against so_ismcts (deal
#     seed 107)
#   crazy_eights: examples/crazy_eights.py (held out), training seeds 0-2 against so_ismcts
#     at 0.01 s; seed 0's checkpoint with c_puct 0 and 1.5 at 0.01 and 0.05 s (500 deals at
#     0.05 s) and on deal seed 121, seeds 1-2 with c_puct 0; then phantom tic-tac-toe seed 0
#     retrained under the rule by the mean; recon_hard with the root check, with and without
#     the value check (runs here: runs/rr_*)
#   skull: examples/skull.py (held out), two and three players, training seeds 0-2, against
#     so_ismcts at 0.01 s (and 0.05 s: two players every seed, three players seed 0 on 500
#     deals); each seed-0 checkpoint with and without its values, paired (deal seed 127);
#     four players at seed 0 (0.01 s); the three-player seed-0 run's ladder and each
#     generation with and without values
#     (seeds 1 and 2: gen10 and gen40)
#   love_letter: examples/love_letter.py (held out), training seeds 0-2 against so_ismcts at
#     0.01 and 0.05 s; each checkpoint with uniform worlds, with so_ismcts's UCB root, with
#     neither, and its values paired (deal seed 125); 160 iterations at seeds 0 and 1, and
#     the ladder of seed 0's generations at 0.01 s; the AlphaZero loop (selfplay.teacher=none)
#     at 40 and 160 iterations, seeds 0 and 1, with values and with playouts at its leaves,
#     and 160 against 40 iterations head to head
#   generation_checks: three-player Skull retrained at seeds 0-2 with
#     trainer.generation_checks=planner and =root, each last.pt against two so_ismcts at
#     0.01 s (deal seed 97, as the skull part); Liar's Dice with two dice at seeds 0-2 with
#     off, root and planner, each against so_ismcts at 0.01 s (deal seed 97)
#   value_check: the value check against so_ismcts: seed 0 of recon_hard, Liar's Dice (one
#     and two dice), phantom tic-tac-toe and Goofspiel, seeds 0-2 of Leduc and Kuhn retrained, what each run's checks
#     record; seed 0's values paired against so_ismcts on 1,000 deals; Kuhn's checkpoints
#     against so_ismcts at 0.01 and 0.05 s
#   seeds: training seeds 3 and 4 of Kuhn, Leduc, Liar's Dice (one and two dice), phantom
#     tic-tac-toe, Love Letter, Goofspiel and tricks, each against so_ismcts at 0.01 s (deal
#     seed 131; so_ismcts + voids on tricks)
#   value_rule: the value check by the mean: Kuhn and Leduc seed 4 retrained under it, and
#     the seeds part's seed-4 checkpoints with and without values (after seeds)
#   battleship: examples/battleship.py (held out), training seeds 0-2, each against
#     so_ismcts at 0.01 s (deal seed 139); seed 0 with uniform worlds and with c_puct=0,
#     its worlds against uniform ones paired (deal seed 143); seeds 0-2 at 0.05 s, as
#     their runs record them; seeds 0 and 1 at 0.01 s with the values at the root; the
#     game's reference matchups (so_ismcts against pimc and random, cheat_uct against
#     so_ismcts)
#   crazy_eights3: examples/crazy_eights.py with three players (game.params.players=3, held
#     out: no run before), training seeds 0-2, each against two so_ismcts at 0.01 s (deal
#     seed 145); seed 0's checkpoint also without its values, with c_puct=0 and with
#     uniform worlds
#   crazy_eights3_i80: the same at training seed 0 with trainer.iterations=80 (twice the
#     training), against two so_ismcts at 0.01 s (deal seed 145)
#   league: Love Letter with selfplay.league=0.5 (a rollout member in half the self-play
#     games), seeds 0-2, against so_ismcts and pimc (after love_letter)
#   priors_lead: the rule reversed (the priors stay only on a lead of more than 2 SE):
#     seed 0 of phantom tic-tac-toe, Leduc, Liar's Dice and Kuhn retrained, what each
#     check records, phantom's seed 1 as recorded, and the seed-0 checkpoints of phantom
#     and Liar's Dice as recorded and with c_puct=1.5, against so_ismcts (deal seed 107)
set -euo pipefail
cd "$(dirname "$0")/../.."
source research/reproduce/sections.sh
PY=.venv/bin/python
OUT=docs/results/recipe

# vs_so CHECKPOINT TIME OUT: the checkpoint's planner against so_ismcts, TIME seconds a
# move, 1,000 deals x 2 seats, deal seed 97, into $OUT/OUT_vs_so_ismcts_tTIME.json
vs_so() {
  $PY scripts/evaluate.py checkpoint="$1" "agents=[planner,so_ismcts]" time_per_move="$2" \
    deals=1000 seed=97 workers=2 progress=false output=$OUT/${3}_vs_so_ismcts_t$2.json
}

# train_and_match NAME TRAIN_ARGS...: training seeds 0-2 into runs/recipe_NAME_sS, each
# checkpoint against so_ismcts at 0.01 and 0.05 s a move
train_and_match() {
  local name=$1
  shift
  for s in 0 1 2; do
    $PY scripts/train.py "$@" trainer.seed=$s experiment.run_dir=runs/recipe_${name}_s$s \
      logger.progress=false
    for t in 0.01 0.05; do vs_so runs/recipe_${name}_s$s/checkpoints/last.pt $t ${name}_s$s; done
  done
}

leduc() { train_and_match leduc game=leduc_poker; }

LD=(game.name=liars_dice game.module=examples.liars_dice experiment.name=liars_dice)

liars_dice() {
  train_and_match liars_dice "${LD[@]}"
}

liars_dice2() {  # two dice each: over the posterior's cap, so auto is the replay belief
  train_and_match liars_dice2 "${LD[@]}" game.params.dice=2
  # what auto was before the replay belief: uniform worlds, no opponent model (seed 0)
  $PY scripts/train.py "${LD[@]}" game.params.dice=2 belief.name=uniform trainer.seed=0 \
    experiment.run_dir=runs/recipe_uniform_liars_dice2_s0 logger.progress=false
  for t in 0.01 0.05; do
    vs_so runs/recipe_uniform_liars_dice2_s0/checkpoints/last.pt $t uniform_liars_dice2_s0
  done
}

liars_dice2_pool() {  # two dice on today's code; the same checkpoints before the deadline
  local old
  old=$(before_deadline)
  for s in 0 1 2; do
    local run=runs/recipe_liars_dice2_s$s
    $PY scripts/train.py "${LD[@]}" game.params.dice=2 trainer.seed=$s experiment.run_dir=$run \
      logger.progress=false
    cp $run/results.json $OUT/liars_dice2_pool_s${s}_run.json
    for t in 0.01 0.05; do vs_so $run/checkpoints/last.pt $t liars_dice2_pool_s$s; done
    PYTHONPATH=$old $PY $old/scripts/evaluate.py checkpoint=$run/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
      output=$OUT/liars_dice2_pool_s${s}_vs_so_ismcts_t0.01_before_deadline.json
  done
  # how many of the 128 draws seed 0's pools weigh under the deadline
  $PY -m research.decision_time runs/recipe_liars_dice2_s0/checkpoints/last.pt --time 0.01 \
    --games 30 --seed 7 --output $OUT/liars_dice2_pool_s0_decision_time_t0.01.json
}

values() {  # Liar's Dice: the network's values at the root (value_mix=0.25) against none
  # two dice, seed 0: as recorded and without the root's PUCT (c_puct=0: neither priors
  # nor values)
  for k in rec 0; do
    local kn=()
    [ $k = 0 ] && kn=(knobs.planner.c_puct=0)
    $PY scripts/evaluate.py checkpoint=runs/recipe_liars_dice2_s0/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" "${kn[@]}" time_per_move=0.01 deals=1000 seed=97 workers=2 \
      progress=false output=$OUT/liars_dice2_s0_retrain_cp${k}_vs_so_ismcts_t0.01.json
  done
  for name in liars_dice liars_dice2; do
    local params=()
    [ $name = liars_dice2 ] && params=(--game-param dice=2)
    for s in 0 1 2; do
      local ck=runs/recipe_${name}_s$s/checkpoints/last.pt
      $PY -m research.head_to_head --game liars_dice --game-module examples.liars_dice \
        "${params[@]}" --time 0.01 --deals 1000 --seed 98 --workers 2 \
        --planner vm0=$ck,value_mix=0 --planner vm25=$ck,value_mix=0.25 \
        --output $OUT/${name}_s${s}_value_mix_t0.01.json
      $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.planner.value_mix=0 \
        time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
        output=$OUT/${name}_s${s}_novalues_vs_so_ismcts_t0.01.json
    done
  done
}

leduc_values() {  # each Leduc checkpoint with the network's values at the root against none
  for s in 0 1 2; do
    $PY -m research.head_to_head --game leduc_poker --time 0.01 --deals 1000 --seed 98 --workers 2 \
      --planner vm0=runs/recipe_leduc_s$s/checkpoints/last.pt,value_mix=0 \
      --planner vm25=runs/recipe_leduc_s$s/checkpoints/last.pt,value_mix=0.25 \
      --output $OUT/leduc_s${s}_value_mix_t0.01.json
  done
  # the runs again with a value check of 2,000 deals; what they record against so_ismcts,
  # beside the same checkpoints without values played again
  for s in 0 1 2; do
    $PY scripts/train.py game=leduc_poker trainer.seed=$s trainer.value_check_deals=2000 \
      experiment.run_dir=runs/recipe_leduc_vc2000_s$s logger.progress=false
    vs_so runs/recipe_leduc_vc2000_s$s/checkpoints/last.pt 0.01 leduc_s${s}_check2000
    vs_so runs/recipe_leduc_s$s/checkpoints/last.pt 0.01 leduc_s${s}_rerun
  done
}

PT=(game.name=phantom_ttt game.module=examples.phantom_ttt experiment.name=phantom_ttt)

phantom_ttt() {
  train_and_match phantom_ttt "${PT[@]}"
  local ck=runs/recipe_phantom_ttt_s0/checkpoints/last.pt
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.planner.c_puct=0.1 \
    time_per_move=0.05 deals=1000 seed=97 workers=2 progress=false \
    output=$OUT/phantom_ttt_s0_cp0.1_vs_so_ismcts_t0.05.json
  for t in 0.01 0.05; do
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.planner.c_puct=0 \
      time_per_move=$t deals=1000 seed=97 workers=2 progress=false \
      output=$OUT/phantom_ttt_s0_cp0_vs_so_ismcts_t$t.json
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.planner.belief=uniform \
      time_per_move=$t deals=1000 seed=97 workers=2 progress=false \
      output=$OUT/phantom_ttt_s0_uniform_vs_so_ismcts_t$t.json
    $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" knobs.planner.c_puct=0.5 \
      time_per_move=$t deals=1000 seed=97 workers=2 progress=false \
      output=$OUT/phantom_ttt_s0_cp0.5_vs_so_ismcts_t$t.json
  done
  $PY scripts/evaluate.py checkpoint=$ck "agents=[planner,so_ismcts]" \
    "knobs.planner.belief={name:replay,candidates:1024}" time_per_move=0.05 deals=1000 seed=97 \
    workers=2 progress=false output=$OUT/phantom_ttt_s0_c1024_vs_so_ismcts_t0.05.json
  # self-play searching four times as long
  $PY scripts/train.py "${PT[@]}" selfplay.teacher_iterations=4000 trainer.seed=0 \
    experiment.run_dir=runs/recipe_phantom_ttt_t4000_s0 logger.progress=false
  for t in 0.01 0.05; do
    vs_so runs/recipe_phantom_ttt_t4000_s0/checkpoints/last.pt $t phantom_ttt_t4000_s0
  done
}

kuhn() {
  train_and_match kuhn game=kuhn_poker
  # where the planners and so_ismcts choose differently
  $PY -m research.moves --game kuhn_poker --time 0.01 --agent s0=runs/recipe_kuhn_s0/checkpoints/last.pt \
    --agent s1=runs/recipe_kuhn_s1/checkpoints/last.pt --agent s2=runs/recipe_kuhn_s2/checkpoints/last.pt \
    --agent so_ismcts
}

ladders() {
  ladder_to_docs runs/recipe_leduc_s0 $OUT/leduc_s0 1000 0.01
  ladder_to_docs runs/recipe_liars_dice_s0 $OUT/liars_dice_s0 1000 0.01
  ladder_to_docs runs/recipe_liars_dice2_s0 $OUT/liars_dice2_s0 1000 0.01
  ladder_to_docs runs/recipe_phantom_ttt_s0 $OUT/phantom_ttt_s0 1000 0.01
}

root() {
  local R=$OUT/root
  mkdir -p $R
  # Liar's Dice with two dice (values recorded) and Goofspiel (examples/, 4 cards, values
  # recorded), trained before the root check: as recorded, with c_puct=0, head to head
  local ld=runs/recipe_liars_dice2_s0/checkpoints/last.pt gf=runs/recipe_goofspiel_s0/checkpoints/last.pt
  [ -f $gf ] || $PY scripts/train.py game.name=goofspiel game.module=examples.goofspiel \
    experiment.name=goofspiel trainer.seed=0 trainer.root_check_deals=0 \
    experiment.run_dir=runs/recipe_goofspiel_s0 logger.progress=false
  for k in rec 0; do
    local kn=()
    [ $k = 0 ] && kn=(knobs.planner.c_puct=0)
    $PY scripts/evaluate.py checkpoint=$ld "agents=[planner,so_ismcts]" "${kn[@]}" \
      time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
      output=$R/liars_dice2_s0_cp${k}_vs_so_ismcts_t0.01.json
    $PY scripts/evaluate.py checkpoint=$gf "agents=[planner,so_ismcts]" "${kn[@]}" \
      time_per_move=0.01 deals=1000 seed=107 workers=2 progress=false \
      output=$R/goofspiel_s0_cp${k}_vs_so_ismcts_t0.01.json
  done
  $PY -m research.head_to_head --game liars_dice --game-module examples.liars_dice \
    --game-param dice=2 --time 0.01 --deals 1000 --seed 108 --workers 2 --planner rec=$ld \
    --planner cp0=$ld,c_puct=0 --output $R/liars_dice2_s0_cp0_vs_rec_t0.01.json
  $PY -m research.head_to_head --game goofspiel --game-module examples.goofspiel --time 0.01 \
    --deals 1000 --seed 108 --workers 2 --planner rec=$gf --planner cp0=$gf,c_puct=0 \
    --output $R/goofspiel_s0_cp0_vs_rec_t0.01.json
  # Oh Hell (the preset, seed 0): the values in a UCB root, beside UCB alone
  $PY -m research.head_to_head --game oh_hell --time 0.02 --deals 1000 --seed 107 --workers 2 \
    --planner cp0vm25=runs/oh_hell/checkpoints/last.pt,c_puct=0,value_mix=0.25 \
    --planner cp0=runs/oh_hell/checkpoints/last.pt,c_puct=0 \
    --baseline so_ismcts,belief=voids --output $R/oh_hell_cp0_vm25_t0.02_s107.json
  # recon (the preset, seeds 0 and 1) with c_puct=0, per seat (two at a time, as in recon.sh)
  for s in 0 1; do
    $PY -m research.recon_eval runs/recon_s$s/checkpoints/last.pt --opponent so_ismcts \
      --deals 1000 --seed 2 --seconds 0.02 --planner-knob c_puct=0 \
      --output $R/recon_s${s}_cp0_vs_so_ismcts_t0.02_s2.json &
  done
  wait
  # recon_hard retrained with the root check: what it records
  $PY scripts/train.py experiment=recon_hard trainer.seed=0 experiment.run_dir=runs/root_recon_s0 \
    logger.progress=false
  # tricks (make train's run), retrained with the root check (200 deals, its first version):
  # as recorded and with c_puct=1.5
  $PY scripts/train.py trainer.seed=0 trainer.root_check_deals=200 \
    experiment.run_dir=runs/root_tricks_s0 logger.progress=false
  for k in rec 1.5; do
    local kn=()
    [ $k = 1.5 ] && kn=(knobs.planner.c_puct=1.5)
    $PY scripts/evaluate.py checkpoint=runs/root_tricks_s0/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" knobs.so_ismcts.belief=voids "${kn[@]}" deals=1000 seed=107 \
      time_per_move=0.01 workers=2 progress=false output=$R/tricks_s0_cp${k}_vs_so_ismcts_t0.01.json
  done
  # the example games retrained with the root check, as recorded against so_ismcts
  local gm
  for gm in "liars_dice2 ${LD[*]} game.params.dice=2" \
      "goofspiel game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel" \
      "phantom_ttt ${PT[*]}"; do
    set -- $gm
    local name=$1
    shift
    $PY scripts/train.py "$@" trainer.seed=0 trainer.root_check_deals=500 \
      experiment.run_dir=runs/root_${name}_s0 logger.progress=false
    for t in 0.01 0.05; do
      $PY scripts/evaluate.py checkpoint=runs/root_${name}_s0/checkpoints/last.pt \
        "agents=[planner,so_ismcts]" time_per_move=$t deals=1000 seed=107 workers=2 \
        progress=false output=$R/${name}_s0_vs_so_ismcts_t$t.json
    done
  done
  # Liar's Dice again with the default root check (300 deals): what it records
  $PY scripts/train.py "${LD[@]}" game.params.dice=2 trainer.seed=0 \
    experiment.run_dir=runs/root300_liars_dice2_s0 logger.progress=false
  for t in 0.01 0.05; do  # the retrained Liar's Dice checkpoint with the priors' PUCT
    $PY scripts/evaluate.py checkpoint=runs/root_liars_dice2_s0/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" knobs.planner.c_puct=1.5 time_per_move=$t deals=1000 \
      seed=107 workers=2 progress=false output=$R/liars_dice2_s0_cp1.5_vs_so_ismcts_t$t.json
  done
}

priors_lead() {  # the root check's rule since: the priors must lead (run alone)
  local R=$OUT/root name gm t k
  for gm in "phantom_ttt ${PT[*]}" "leduc game=leduc_poker" "liars_dice ${LD[*]}" \
      "kuhn game=kuhn_poker"; do
    set -- $gm
    name=$1
    shift
    $PY scripts/train.py "$@" trainer.seed=0 experiment.run_dir=runs/lead_${name}_s0 \
      logger.progress=false
    cp runs/lead_${name}_s0/results.json $R/priors_lead_${name}_s0_run.json
  done
  $PY scripts/train.py "${PT[@]}" trainer.seed=1 experiment.run_dir=runs/lead_phantom_ttt_s1 \
    logger.progress=false
  cp runs/lead_phantom_ttt_s1/results.json $R/priors_lead_phantom_ttt_s1_run.json
  for t in 0.01 0.05; do
    $PY scripts/evaluate.py checkpoint=runs/lead_phantom_ttt_s1/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" time_per_move=$t deals=1000 seed=107 workers=2 \
      progress=false output=$R/priors_lead_phantom_ttt_s1_cprec_vs_so_ismcts_t$t.json
  done
  for name in phantom_ttt liars_dice; do
    for t in 0.01 0.05; do
      for k in rec 1.5; do
        kn=()
        [ $k = rec ] || kn=(knobs.planner.c_puct=$k)
        $PY scripts/evaluate.py checkpoint=runs/lead_${name}_s0/checkpoints/last.pt \
          "agents=[planner,so_ismcts]" "${kn[@]}" time_per_move=$t deals=1000 seed=107 \
          workers=2 progress=false output=$R/priors_lead_${name}_s0_cp${k}_vs_so_ismcts_t$t.json
      done
    done
  done
}

C8=(game.name=crazy_eights game.module=examples.crazy_eights experiment.name=crazy_eights)

crazy_eights() {
  for s in 0 1 2; do
    $PY scripts/train.py "${C8[@]}" trainer.seed=$s experiment.run_dir=runs/recipe_crazy_eights_s$s \
      logger.progress=false
    cp runs/recipe_crazy_eights_s$s/results.json $OUT/crazy_eights_s${s}_run.json
    # seed 0 as recorded is one of its two rows below
    [ $s = 0 ] || vs_so runs/recipe_crazy_eights_s$s/checkpoints/last.pt 0.01 crazy_eights_s$s
  done
  local t deals
  for t in 0.01 0.05; do
    deals=1000
    [ $t = 0.05 ] && deals=500
    for k in 0 1.5; do
      $PY scripts/evaluate.py checkpoint=runs/recipe_crazy_eights_s0/checkpoints/last.pt \
        "agents=[planner,so_ismcts]" knobs.planner.c_puct=$k time_per_move=$t deals=$deals \
        seed=97 workers=2 progress=false output=$OUT/crazy_eights_s0_cp${k}_vs_so_ismcts_t$t.json
    done
  done
  for k in 0 1.5; do  # seed 0's two roots on other deals
    $PY scripts/evaluate.py checkpoint=runs/recipe_crazy_eights_s0/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" knobs.planner.c_puct=$k time_per_move=0.01 deals=1000 \
      seed=121 workers=2 progress=false output=$OUT/crazy_eights_s0_cp${k}_vs_so_ismcts_t0.01_s121.json
  done
  for s in 1 2; do  # seeds 1 and 2 with so_ismcts's UCB root
    $PY scripts/evaluate.py checkpoint=runs/recipe_crazy_eights_s$s/checkpoints/last.pt \
      "agents=[planner,so_ismcts]" knobs.planner.c_puct=0 time_per_move=0.01 deals=1000 \
      seed=97 workers=2 progress=false output=$OUT/crazy_eights_s${s}_cp0_vs_so_ismcts_t0.01.json
  done
  $PY scripts/train.py "${PT[@]}" trainer.seed=0 experiment.run_dir=runs/mean_phantom_ttt_s0 \
    logger.progress=false
  cp runs/mean_phantom_ttt_s0/results.json $OUT/root/by_mean_phantom_ttt_s0_run.json
  # recon_hard with the root check and, as before, the value check (then played head to
  # head: it recorded the values; since the value_check part it plays each against
  # so_ismcts); its checkpoint as recorded and without values against so_ismcts (one
  # process a core); then the preset
  $PY scripts/train.py experiment=recon_hard trainer.value_check_deals=200 trainer.seed=0 \
    experiment.run_dir=runs/mean_recon_vc_s0 logger.progress=false
  cp runs/mean_recon_vc_s0/results.json $OUT/root/by_mean_recon_s0_value_check_run.json
  local vm
  for vm in 0.25 0; do
    $PY -m research.recon_eval runs/mean_recon_vc_s0/checkpoints/last.pt --opponent so_ismcts \
      --deals 500 --seed 2 --seconds 0.02 --planner-knob value_mix=$vm \
      --output $OUT/root/by_mean_recon_s0_vm${vm}_vs_so_ismcts_t0.02_s2.json &
  done
  wait
  $PY scripts/train.py experiment=recon_hard trainer.seed=0 experiment.run_dir=runs/mean_recon_s0 \
    logger.progress=false
  cp runs/mean_recon_s0/results.json $OUT/root/by_mean_recon_s0_run.json
}

value_check() {  # the value check against so_ismcts: runs retrained, what each records
  local V=$OUT/value_check
  mkdir -p $V
  train_one() {  # NAME SEED TRAIN_ARGS...
    local name=$1 s=$2
    shift 2
    $PY scripts/train.py "$@" trainer.seed=$s experiment.run_dir=runs/vc_${name}_s$s \
      logger.progress=false
    cp runs/vc_${name}_s$s/results.json $V/${name}_s${s}_run.json
  }
  # paired NAME GAME_ARGS... -- VARIANT_A VARIANT_B: seed 0's checkpoint with and without
  # values, each against so_ismcts on 1,000 fresh deals (deal seed 125, 0.01 s)
  paired() {
    local name=$1
    shift
    $PY -m research.paired_vs runs/vc_${name}_s0/checkpoints/last.pt "$@" --time 0.01 \
      --deals 1000 --seed 125 --output $V/${name}_s0_values_paired_vs_so_ismcts_t0.01_s125.json
  }
  train_one recon_hard 0 experiment=recon_hard
  train_one liars_dice2 0 "${LD[@]}" game.params.dice=2
  train_one goofspiel 0 game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel
  train_one liars_dice 0 "${LD[@]}"
  $PY scripts/evaluate.py checkpoint=runs/vc_liars_dice_s0/checkpoints/last.pt \
    "agents=[planner,so_ismcts]" time_per_move=0.01 deals=1000 seed=97 workers=2 \
    progress=false output=$V/liars_dice_s0_vs_so_ismcts_t0.01.json
  train_one phantom_ttt 0 "${PT[@]}"
  for s in 0 1 2; do train_one leduc $s game=leduc_poker; done
  paired leduc --game leduc_poker --variant values=value_mix=0.25 --variant none=value_mix=0
  paired goofspiel --game goofspiel --game-module examples.goofspiel \
    --variant values=value_mix=0.25 --variant none=value_mix=0
  paired liars_dice2 --game liars_dice --game-module examples.liars_dice --game-param dice=2 \
    --variant values=value_mix=0.25,c_puct=0 --variant none=value_mix=0,c_puct=0
  for s in 0 1 2; do  # Kuhn: the checks, then each checkpoint against so_ismcts
    train_one kuhn $s game=kuhn_poker
    for t in 0.01 0.05; do
      $PY scripts/evaluate.py checkpoint=runs/vc_kuhn_s$s/checkpoints/last.pt \
        "agents=[planner,so_ismcts]" time_per_move=$t deals=1000 seed=97 workers=2 \
        progress=false output=$V/kuhn_s${s}_vs_so_ismcts_t$t.json
    done
  done
}

SK=(game.name=skull game.module=examples.skull)

# vs_so_n MODULE CHECKPOINT PLAYERS TIME DEALS SEED OUT [OVERRIDES...]: the checkpoint's
# planner against PLAYERS - 1 so_ismcts on a game of MODULE, every seat rotation, into
# $OUT/OUT.json
vs_so_n() {
  local m=$1 ck=$2 p=$3 t=$4 deals=$5 seed=$6 out=$7 agents=planner i
  shift 7
  for ((i = 1; i < p; i++)); do agents+=,so_ismcts; done
  $PY scripts/evaluate.py game_module=$m checkpoint=$ck "agents=[$agents]" "$@" \
    time_per_move=$t deals=$deals seed=$seed workers=2 progress=false output=$OUT/$out.json
}

sk_vs_so() { vs_so_n examples.skull "$@"; }

skull() {
  local p s name run deals g v gens
  for p in 2 3 4; do
    name=skull
    if [ $p != 2 ]; then name=skull$p; fi
    for s in 0 1 2; do
      if [ $p = 4 ] && [ $s != 0 ]; then continue; fi  # four players: seed 0 only
      run=runs/recipe_${name}_s$s
      $PY scripts/train.py "${SK[@]}" game.params.players=$p experiment.name=$name \
        trainer.seed=$s experiment.run_dir=$run logger.progress=false
      cp $run/results.json $OUT/${name}_s${s}_run.json
      sk_vs_so $run/checkpoints/last.pt $p 0.01 1000 97 ${name}_s${s}_vs_so_ismcts_t0.01
      # 0.05 s: two players every seed on 1,000 deals, three players seed 0 on 500
      deals=0
      if [ $p = 2 ]; then deals=1000; elif [ $p = 3 ] && [ $s = 0 ]; then deals=500; fi
      if [ $deals != 0 ]; then
        sk_vs_so $run/checkpoints/last.pt $p 0.05 $deals 97 ${name}_s${s}_vs_so_ismcts_t0.05
      fi
    done
    if [ $p = 4 ]; then continue; fi
    $PY -m research.paired_vs runs/recipe_${name}_s0/checkpoints/last.pt --game skull \
      --game-module examples.skull --game-param players=$p --variant values=value_mix=0.25 \
      --variant none=value_mix=0 --time 0.01 --deals 1000 --seed 127 \
      --output $OUT/${name}_s0_values_paired_vs_so_ismcts_t0.01_s127.json
  done
  ladder_to_docs runs/recipe_skull3_s0 $OUT/skull3_s0 500 0.01
  for s in 0 1 2; do  # three players: the generations with and without values
    gens="10 20 30 40"
    if [ $s != 0 ]; then gens="10 40"; fi  # seeds 1 and 2: gen10 without values, gen40 both ways
    for g in $gens; do
      for v in 0 0.25; do
        if [ $s != 0 ] && [ $g = 10 ] && [ $v = 0.25 ]; then continue; fi
        sk_vs_so runs/recipe_skull3_s$s/checkpoints/gen-0000$g.pt 3 0.01 500 1 \
          skull3_s${s}_gen${g}_vm${v}_vs_so_ismcts_t0.01_s1 knobs.planner.value_mix=$v
      done
    done
  done
}

# generations RUN OUT: each generation's checks (value and root: what the teacher took
# from them) and the run's own evaluation, from RUN/metrics.jsonl, into $OUT/OUT.json
generations() {
  $PY - "$1" "$OUT/$2.json" <<'PYEOF'
import json, sys
run, out = sys.argv[1], sys.argv[2]
rows = []
for line in open(f"{run}/metrics.jsonl"):
    r = json.loads(line)
    got = {k: v for k, v in r.items() if k.startswith(("value_check/", "root_check/"))
           or k in ("eval/score_vs_so_ismcts", "eval/se_vs_so_ismcts")}
    if got:
        rows.append({"iteration": r["iteration"], "elapsed_s": r.get("elapsed_s"), **got})
json.dump({"run": run, "generations": rows}, open(out, "w"), indent=1)
PYEOF
}

LL=(game.name=love_letter game.module=examples.love_letter experiment.name=love_letter)

love_letter() {  # held out: seeds 0-2; each without the network's worlds, its priors, both;
  local s kn run knobs  # its values paired; then 160 iterations at seeds 0-1 and seed 0's ladder
  train_and_match love_letter "${LL[@]}"
  for s in 0 1 2; do
    run=runs/recipe_love_letter_s$s
    cp $run/results.json $OUT/love_letter_s${s}_run.json
    for kn in belief=uniform c_puct=0 neither; do
      knobs=(knobs.planner.$kn)
      if [ $kn = neither ]; then
        knobs=(knobs.planner.belief=uniform knobs.planner.c_puct=0 knobs.planner.value_mix=0)
      fi
      $PY scripts/evaluate.py checkpoint=$run/checkpoints/last.pt "agents=[planner,so_ismcts]" \
        "${knobs[@]}" time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
        output=$OUT/love_letter_s${s}_${kn/=/_}_vs_so_ismcts_t0.01.json
    done
    $PY -m research.paired_vs $run/checkpoints/last.pt --game love_letter \
      --game-module examples.love_letter --variant values=value_mix=0.25 \
      --variant none=value_mix=0 --time 0.01 --deals 1000 --seed 125 --workers 2 \
      --output $OUT/love_letter_s${s}_values_paired_vs_so_ismcts_t0.01_s125.json
  done
  for s in 0 1; do
    run=runs/ll_long_s$s
    $PY scripts/train.py "${LL[@]}" trainer.seed=$s trainer.iterations=160 \
      experiment.run_dir=$run logger.progress=false
    cp $run/results.json $OUT/love_letter_long_s${s}_run.json
    vs_so $run/checkpoints/last.pt 0.01 love_letter_long_s$s
  done
  ladder_to_docs runs/ll_long_s0 $OUT/love_letter_long_s0 500 0.01
  for s in 0 1; do  # the AlphaZero loop: self-play by the PUCT planner, values at its leaves
    for it in 40 160; do
      run=runs/ll_az${it}_s$s
      $PY scripts/train.py "${LL[@]}" trainer.seed=$s trainer.iterations=$it \
        selfplay.teacher=none experiment.run_dir=$run logger.progress=false
      cp $run/results.json $OUT/love_letter_az${it}_s${s}_run.json
      vs_so $run/checkpoints/last.pt 0.01 love_letter_az${it}_s$s
      $PY scripts/evaluate.py checkpoint=$run/checkpoints/last.pt "agents=[planner,so_ismcts]" \
        knobs.planner.leaf_mix=1 time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
        output=$OUT/love_letter_az${it}_s${s}_leaf_mix_1_vs_so_ismcts_t0.01.json
    done
    $PY -m research.head_to_head --game love_letter --game-module examples.love_letter \
      --planner az160=runs/ll_az160_s$s/checkpoints/last.pt \
      --planner az40=runs/ll_az40_s$s/checkpoints/last.pt --time 0.01 --deals 1000 --seed 97 \
      --workers 2 --output $OUT/love_letter_az160_vs_az40_s${s}_t0.01.json
  done
}

generation_checks() {  # three-player Skull and Liar's Dice with two dice, seeds 0-2
  local mode s run
  for mode in planner root; do
    for s in 0 1 2; do
      run=runs/gc_${mode}_skull3_s$s
      $PY scripts/train.py "${SK[@]}" game.params.players=3 experiment.name=skull3 \
        trainer.seed=$s experiment.run_dir=$run trainer.generation_checks=$mode \
        logger.progress=false
      cp $run/results.json $OUT/skull3_gc_${mode}_s${s}_run.json
      generations $run skull3_gc_${mode}_s${s}_generations
      sk_vs_so $run/checkpoints/last.pt 3 0.01 1000 97 skull3_gc_${mode}_s${s}_vs_so_ismcts_t0.01
    done
  done
  for s in 0 1 2; do
    for mode in off root planner; do
      run=runs/gc_${mode}_liars_dice2_s$s
      $PY scripts/train.py "${LD[@]}" game.params.dice=2 trainer.seed=$s \
        experiment.run_dir=$run trainer.generation_checks=$mode logger.progress=false
      cp $run/results.json $OUT/liars_dice2_gc_${mode}_s${s}_run.json
      if [ $mode != off ]; then generations $run liars_dice2_gc_${mode}_s${s}_generations; fi
      $PY scripts/evaluate.py checkpoint=$run/checkpoints/last.pt "agents=[planner,so_ismcts]" \
        time_per_move=0.01 deals=1000 seed=97 workers=2 progress=false \
        output=$OUT/liars_dice2_gc_${mode}_s${s}_vs_so_ismcts_t0.01.json
    done
  done
}

seeds() {  # training seeds 3 and 4 of eight games, each against so_ismcts at 0.01 s (deal seed 131)
  local name s run
  local -A args=([kuhn]="game=kuhn_poker" [leduc]="game=leduc_poker"
                 [liars_dice]="${LD[*]}" [liars_dice2]="${LD[*]} game.params.dice=2"
                 [phantom_ttt]="${PT[*]}" [love_letter]="${LL[*]}"
                 [goofspiel]="game.name=goofspiel game.module=examples.goofspiel experiment.name=goofspiel"
                 [tricks]="")
  for s in 3 4; do
    for name in kuhn leduc liars_dice liars_dice2 phantom_ttt love_letter goofspiel tricks; do
      run=runs/s42_${name}_s$s
      # shellcheck disable=SC2086  # the game's arguments, split on purpose
      $PY scripts/train.py ${args[$name]} trainer.seed=$s experiment.run_dir=$run \
        logger.progress=false
      cp $run/results.json $OUT/seeds/${name}_s${s}_run.json
      local so=() tag=vs_so_ismcts
      [ $name = tricks ] && { so=(knobs.so_ismcts.belief=voids); tag=vs_so_voids; }
      $PY scripts/evaluate.py checkpoint=$run/checkpoints/last.pt "agents=[planner,so_ismcts]" \
        "${so[@]}" time_per_move=0.01 deals=1000 seed=131 workers=2 progress=false \
        output=$OUT/seeds/${name}_s${s}_${tag}_t0.01_s131.json
    done
  done
}

value_rule() {  # the value check by the mean: Kuhn and Leduc seed 4 retrained under it; each
  # seed-4 checkpoint of the rule before (the seeds part) with and without values, paired
  local g run
  for g in kuhn leduc; do
    run=runs/s42_${g}_s4_mean
    $PY scripts/train.py game=${g}_poker trainer.seed=4 experiment.run_dir=$run logger.progress=false
    cp $run/results.json $OUT/value_check/${g}_s4_mean_run.json
    $PY scripts/evaluate.py checkpoint=$run/checkpoints/last.pt "agents=[planner,so_ismcts]" \
      time_per_move=0.01 deals=1000 seed=131 workers=2 progress=false \
      output=$OUT/value_check/${g}_s4_mean_vs_so_ismcts_t0.01_s131.json
    $PY -m research.paired_vs runs/s42_${g}_s4/checkpoints/last.pt --game ${g}_poker \
      --variant values=value_mix=0.25 --variant none=value_mix=0 --time 0.01 --deals 1000 \
      --seed 137 --workers 2 --output $OUT/value_check/${g}_s4_values_paired_t0.01_s137.json
  done
}

league() {  # Love Letter with a rollout member in half the self-play games, seeds 0-2;
  # each against so_ismcts (deal seed 97) and pimc (deal seed 131), and the recipe's against pimc
  local s run
  for s in 0 1 2; do
    run=runs/s42_ll_league_s$s
    $PY scripts/train.py "${LL[@]}" selfplay.league=0.5 trainer.seed=$s experiment.run_dir=$run \
      logger.progress=false
    cp $run/results.json $OUT/love_letter_league_s${s}_run.json
    vs_so $run/checkpoints/last.pt 0.01 love_letter_league_s$s
  done
  $PY scripts/evaluate.py checkpoint=runs/s42_ll_league_s0/checkpoints/last.pt \
    "agents=[planner,so_ismcts]" knobs.planner.value_mix=0 time_per_move=0.01 deals=1000 seed=97 \
    workers=2 progress=false output=$OUT/love_letter_league_s0_novalues_vs_so_ismcts_t0.01_s97.json
  for run in s42_ll_league_s0 s42_ll_league_s1 s42_ll_league_s2 recipe_love_letter_s0 recipe_love_letter_s1 \
      recipe_love_letter_s2; do
    local name=${run/s42_ll_league/love_letter_league}
    $PY scripts/evaluate.py checkpoint=runs/$run/checkpoints/last.pt "agents=[planner,pimc]" \
      time_per_move=0.01 deals=1000 seed=131 workers=2 progress=false \
      output=$OUT/${name#recipe_}_vs_pimc_t0.01_s131.json
  done
}

BS=(game.name=battleship game.module=examples.battleship)

# bs_match AGENTS TIME DEALS OUT [OVERRIDES...]: a Battleship match, deal seed 139, into $OUT/OUT.json
bs_match() {
  local agents=$1 t=$2 deals=$3 out=$4
  shift 4
  $PY scripts/evaluate.py game=battleship game_module=examples.battleship "agents=[$agents]" \
    time_per_move=$t deals=$deals seed=139 workers=2 progress=false output=$OUT/$out.json "$@"
}

battleship() {  # held out: the reference matchups, then seeds 0-2 against so_ismcts
  local s run
  bs_match so_ismcts,pimc 0.01 300 battleship_so_ismcts_vs_pimc_t0.01
  bs_match so_ismcts,random 0.01 300 battleship_so_ismcts_vs_random_t0.01
  bs_match cheat_uct,so_ismcts 0.01 300 battleship_cheat_uct_vs_so_ismcts_t0.01
  for s in 0 1 2; do
    run=runs/recipe_battleship_s$s
    $PY scripts/train.py "${BS[@]}" trainer.seed=$s experiment.run_dir=$run logger.progress=false
    cp $run/results.json $OUT/battleship_s${s}_run.json
    bs_match planner,so_ismcts 0.01 1000 battleship_s${s}_vs_so_ismcts_t0.01 \
      checkpoint=$run/checkpoints/last.pt
  done
  # seed 0 with uniform worlds (no opponent model), and with so_ismcts's UCB root
  bs_match planner,so_ismcts 0.01 1000 battleship_s0_beliefuniform_vs_so_ismcts_t0.01 \
    checkpoint=runs/recipe_battleship_s0/checkpoints/last.pt knobs.planner.belief=uniform
  bs_match planner,so_ismcts 0.01 1000 battleship_s0_c_puct0_vs_so_ismcts_t0.01 \
    checkpoint=runs/recipe_battleship_s0/checkpoints/last.pt knobs.planner.c_puct=0
  $PY -m research.paired_vs runs/recipe_battleship_s0/checkpoints/last.pt --game battleship \
    --game-module examples.battleship --variant replay=belief=replay \
    --variant uniform=belief=uniform --time 0.01 --deals 1000 --seed 143 --workers 2 \
    --output $OUT/battleship_s0_replay_vs_uniform_paired_t0.01_s143.json
  for s in 0 1 2; do  # five times the time; then the same checkpoints at 0.01 s again,
    # as a run on another machine may record them (its checks are matches at equal time)
    bs_match planner,so_ismcts 0.05 1000 battleship_s${s}_vs_so_ismcts_t0.05 \
      checkpoint=runs/recipe_battleship_s$s/checkpoints/last.pt
  done
  for s in 0 1; do
    bs_match planner,so_ismcts 0.01 1000 battleship_s${s}_values_vs_so_ismcts_t0.01 \
      checkpoint=runs/recipe_battleship_s$s/checkpoints/last.pt knobs.planner.value_mix=0.25
  done
}

crazy_eights3() {  # three players, held out
  local s kv
  for s in 0 1 2; do
    $PY scripts/train.py game.name=crazy_eights game.module=examples.crazy_eights \
      game.params.players=3 trainer.seed=$s experiment.run_dir=runs/recipe_crazy_eights3_s$s \
      logger.progress=false
    cp runs/recipe_crazy_eights3_s$s/results.json $OUT/crazy_eights3_s${s}_run.json
    vs_so_n examples.crazy_eights runs/recipe_crazy_eights3_s$s/checkpoints/last.pt 3 0.01 \
      1000 145 crazy_eights3_s${s}_vs_so_ismcts_t0.01
  done
  for kv in value_mix=0 c_puct=0 belief=uniform; do
    vs_so_n examples.crazy_eights runs/recipe_crazy_eights3_s0/checkpoints/last.pt 3 0.01 \
      1000 145 crazy_eights3_s0_${kv/=/}_vs_so_ismcts_t0.01 knobs.planner.$kv
  done
}

crazy_eights3_i80() {  # twice the training, seed 0
  $PY scripts/train.py game.name=crazy_eights game.module=examples.crazy_eights \
    game.params.players=3 trainer.seed=0 trainer.iterations=80 \
    experiment.run_dir=runs/recipe_crazy_eights3_i80_s0 logger.progress=false
  cp runs/recipe_crazy_eights3_i80_s0/results.json $OUT/crazy_eights3_i80_s0_run.json
  vs_so_n examples.crazy_eights runs/recipe_crazy_eights3_i80_s0/checkpoints/last.pt 3 0.01 \
    1000 145 crazy_eights3_i80_s0_vs_so_ismcts_t0.01
}

run_sections "leduc leduc_values liars_dice liars_dice2 liars_dice2_pool values kuhn phantom_ttt ladders root priors_lead crazy_eights crazy_eights3 crazy_eights3_i80 skull love_letter generation_checks value_check seeds value_rule league battleship" "$@"
