#!/usr/bin/env bash
# On a machine with CUDA: JSON rows (as scripts/bench.py prints them) for
#   1. a short in-process training on the GPU (bf16 autocast),
#   2. self-play and network forward on the GPU at lockstep batch 1/64/256/1024, training steps,
#   3. a distributed run: Ray actors on the CPU cores, the learner on the GPU, next to the
#      in-process loop (skipped, with a row saying so, where ray is not installed).
# Run from anywhere; about 5-10 minutes:
#   bash scripts/gpu_check.sh | tee gpu_rows.jsonl      # uses .venv if present, else python3
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
"$PY" - <<'PYEOF'
import json, os, torch
cuda = torch.cuda.is_available()
print(json.dumps({"bench": "gpu_check", "cuda": cuda, "torch": torch.__version__,
                  "device_name": torch.cuda.get_device_name(0) if cuda else None,
                  "bf16": cuda and torch.cuda.is_bf16_supported(),
                  "cpu_cores": len(os.sched_getaffinity(0))}), flush=True)
if not cuda:
    raise SystemExit("no CUDA device visible to torch")
PYEOF

# 1. in-process training on CUDA
run_dir=$(mktemp -d)
start=$(date +%s.%N)
"$PY" scripts/train.py trainer.device=cuda trainer.iterations=3 selfplay.games_per_iteration=256 \
  selfplay.parallel_games=256 trainer.final_eval_deals=20 trainer.eval_every=0 \
  logger.progress=false experiment.run_dir="$run_dir" > "$run_dir/train.log" 2>&1 \
  || { cat "$run_dir/train.log"; exit 1; }
end=$(date +%s.%N)
"$PY" - "$run_dir" "$start" "$end" <<'PYEOF'
import json, sys
from isz.nn.checkpoint import load_checkpoint
run, t0, t1 = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
c = load_checkpoint(f"{run}/checkpoints/last.pt")["counters"]
print(json.dumps({"bench": "gpu_train", "device": "cuda", "iterations": c["iteration"],
                  "games": c["games"], "positions": c["positions"], "metric": "wall_s",
                  "value": round(t1 - t0, 1)}), flush=True)
PYEOF

# 2. self-play, forward and training steps on CUDA
"$PY" scripts/bench.py --only selfplay,nn --device cuda --selfplay-batches 1,64,256,1024 \
  --nn-batches 1,64,256,1024

# 3. Ray actors on the CPU cores, the learner on the GPU (one core left to the learner)
if "$PY" -c "import ray" 2>/dev/null; then
  actors=$("$PY" -c "import os; print(max(1, min(16, len(os.sched_getaffinity(0)) - 1)))")
  timeout 420 "$PY" scripts/bench.py --only distributed --device cuda --actors "$actors" \
    --train-iterations 8
else
  echo '{"bench": "distributed", "skipped": "ray is not installed (pip install ray)"}'
fi
