"""Batched self-play producing training positions."""

from isz.selfplay.records import GameRecord, Positions
from isz.selfplay.selfplay import (
    SelfPlayConfig,
    SelfPlayStats,
    play,
    root_worlds,
    search_roots,
)

__all__ = ["GameRecord", "Positions", "SelfPlayConfig", "SelfPlayStats", "play", "root_worlds",
           "search_roots"]
