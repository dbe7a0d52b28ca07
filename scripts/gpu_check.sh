#!/usr/bin/env bash
# On a machine with CUDA: a short training run and the self-play/network benchmarks on the GPU,
# printing the same JSON rows as scripts/bench.py (device "cuda:0"). Run from anywhere:
#   bash scripts/gpu_check.sh            # uses .venv if present, else python3
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-$( [ -x .venv/bin/python ] && echo .venv/bin/python || echo python3 )}
"$PY" - <<'PYEOF'
import json, torch
print(json.dumps({"bench": "gpu_check", "cuda": torch.cuda.is_available(),
                  "device_name": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
                  "torch": torch.__version__}))
if not torch.cuda.is_available():
    raise SystemExit("no CUDA device visible to torch")
PYEOF
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
                  "value": round(t1 - t0, 1)}))
PYEOF
"$PY" scripts/bench.py --only selfplay,nn --device cuda --selfplay-batches 1,64,256
