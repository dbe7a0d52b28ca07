"""`scripts/belief_accuracy.py`: how often a belief's worlds place unseen cards right."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from scripts.belief_accuracy import HANDS, placed_right  # noqa: E402


def test_placed_right_counts_cards_in_the_right_hand():
    truth = np.zeros(40, np.int64)
    truth[HANDS:HANDS + 3] = [0b0011, 0b1100, 0b110000]  # seat 0 is the observer
    right = truth.copy()
    swapped = truth.copy()
    swapped[HANDS + 1], swapped[HANDS + 2] = truth[HANDS + 2], truth[HANDS + 1]
    half = truth.copy()
    half[HANDS + 1] = 0b0110  # one of seat 1's two cards
    assert placed_right(right[None], truth, 0, 3) == 1.0
    assert placed_right(swapped[None], truth, 0, 3) == 0.0
    assert placed_right(np.stack([half, right]), truth, 0, 3) == (3 / 4 + 1) / 2


def _run(tmp_path, *args):
    return subprocess.run([sys.executable, str(ROOT / "scripts" / "belief_accuracy.py"), *args],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)


def test_belief_accuracy_runs_and_names_bad_input(tmp_path):
    game = isz.make_game("tricks", players=3, suits=2, ranks=4, hand_size=2, trump="card",
                         bidding=True)
    cfg = ModelConfig(width=8, depth=1)
    ck = save_checkpoint(tmp_path / "t.pt", model=build_model(game, cfg), game=game,
                         model_cfg=cfg)
    out = tmp_path / "o.json"
    r = _run(tmp_path, str(ck), "--games", "3", "--worlds", "4", "--after-tricks", "1",
             "--iterations", "20", "--output", str(out))
    assert r.returncode == 0, r.stderr
    res = json.loads(out.read_text())["beliefs"]
    assert set(res) == {"voids", "gibbs", "gibbs:network"}
    for row in res.values():
        assert 0 <= row["placed_right"] <= 1 and row["positions"] == 3
        assert row["seconds_per_world"] > 0
    bad = _run(tmp_path, str(ck), "--after-tricks", "1", "--beliefs", "posterior")
    assert bad.returncode == 2 and "posterior" in bad.stderr
    bad = _run(tmp_path, str(ck), "--after-tricks", "2")
    assert bad.returncode == 2 and "--after-tricks" in bad.stderr
    kuhn = isz.make_game("kuhn_poker")
    ck2 = save_checkpoint(tmp_path / "k.pt", model=build_model(kuhn, cfg), game=kuhn,
                          model_cfg=cfg)
    bad = _run(tmp_path, str(ck2))
    assert bad.returncode == 2 and "kuhn_poker" in bad.stderr
