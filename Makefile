# Quickstart targets: each sets up .venv on a fresh machine first (scripts/setup.sh).
.PHONY: setup train evaluate test test-slow bench lint

setup:
	@bash scripts/setup.sh

train: setup
	.venv/bin/python scripts/train.py

evaluate: setup
	.venv/bin/python scripts/evaluate.py

test: setup
	.venv/bin/python -m pytest -n 2 -q

test-slow: setup
	.venv/bin/python -m pytest -m slow -q

bench: setup
	.venv/bin/python scripts/bench.py

lint: setup
	.venv/bin/ruff check .
