"""One-off research tools: each answers one question (research/README.md says which).

Run from the repository root as ``python -m research.<tool> ...``; they use isz's
public API only, and the few helpers one tool shares with another are public names
of that tool's module (`research.average_checkpoints.numbered`, ...).
"""
