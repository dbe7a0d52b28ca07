#!/usr/bin/env bash
# Create .venv and install isz into it (idempotent; re-runs when pyproject.toml changes).
# torch==2.13.0 first, so pip takes the CPU wheel already on disk instead of a CUDA build.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
marker=.venv/.isz-installed
if [ -f "$marker" ] && [ "$marker" -nt pyproject.toml ]; then
  exit 0
fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
.venv/bin/pip install -q --upgrade pip >/dev/null 2>&1 || true
.venv/bin/pip install -q torch==2.13.0
.venv/bin/pip install -q -e ".[dev]"
touch "$marker"
