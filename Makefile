# Quickstart targets: each sets up .venv on a fresh machine first (scripts/setup.sh).
.PHONY: setup train evaluate tensorboard test test-slow bench lint

setup:
	@bash scripts/setup.sh

train: setup
	.venv/bin/python scripts/train.py

evaluate: setup
	.venv/bin/python scripts/evaluate.py

# TensorBoard over every run in runs/ (open the URL it prints)
tensorboard: setup
	.venv/bin/tensorboard --logdir runs

test: setup
	.venv/bin/python -m pytest -n 2 -q

test-slow: setup
	.venv/bin/python -m pytest -m slow -q

bench: setup
	.venv/bin/python scripts/bench.py

lint: setup
	.venv/bin/ruff check .
