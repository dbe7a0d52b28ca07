"""`research.belief_accuracy`: how often a belief's worlds place unseen cards right."""

from __future__ import annotations

import json

import numpy as np

import isz
from isz.nn import ModelConfig, build_model, save_checkpoint
from research.belief_accuracy import HANDS, main, placed_right


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


def _run(capsys, *args) -> tuple[int, str]:
    """``main(args)``: its exit status and what it printed on stderr."""
    code = main([str(a) for a in args])
    return code, capsys.readouterr().err


def test_belief_accuracy_runs_and_names_bad_input(tmp_path, capsys):
    game = isz.make_game("tricks", players=3, suits=2, ranks=4, hand_size=2, trump="card",
                         bidding=True)
    cfg = ModelConfig(width=8, depth=1)
    ck = save_checkpoint(tmp_path / "t.pt", model=build_model(game, cfg), game=game,
                         model_cfg=cfg)
    out = tmp_path / "o.json"
    code, err = _run(capsys, ck, "--games", "3", "--worlds", "4", "--after-tricks", "1",
                     "--iterations", "20", "--output", out)
    assert code == 0, err
    res = json.loads(out.read_text())["beliefs"]
    assert set(res) == {"voids", "gibbs", "gibbs:network"}
    for row in res.values():
        assert 0 <= row["placed_right"] <= 1 and row["positions"] == 3
        assert row["seconds_per_world"] > 0
    code, err = _run(capsys, ck, "--after-tricks", "1", "--beliefs", "posterior")
    assert code == 2 and "posterior" in err
    code, err = _run(capsys, ck, "--after-tricks", "2")
    assert code == 2 and "--after-tricks" in err
    kuhn = isz.make_game("kuhn_poker")
    ck2 = save_checkpoint(tmp_path / "k.pt", model=build_model(kuhn, cfg), game=kuhn,
                          model_cfg=cfg)
    code, err = _run(capsys, ck2)
    assert code == 2 and "kuhn_poker" in err
