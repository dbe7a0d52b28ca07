"""`research.head_to_head`: a table of seats at equal time on a game with its parameters."""

from __future__ import annotations

import pytest

from isz import IszError
from research import head_to_head


def test_game_params_reach_the_game(tmp_path):
    out = tmp_path / "h2h.json"
    payload = head_to_head.main([
        "--game", "recon", "--game-param", "slots=4", "--game-param", "turns=5",
        "--time", "0.001", "--deals", "2", "--seed", "3", "--workers", "1",
        "--baseline", "so_ismcts", "--baseline", "pimc", "--output", str(out)])
    assert payload["game_params"] == {"slots": 4, "turns": 5}
    assert payload["result"]["games"] == 4 and out.is_file()
    with pytest.raises(IszError, match="slotz"):
        head_to_head.main([
            "--game", "recon", "--game-param", "slotz=4", "--time", "0.001", "--deals", "1",
            "--workers", "1", "--baseline", "so_ismcts", "--baseline", "pimc",
            "--output", str(tmp_path / "bad.json")])


def test_a_knob_without_a_value_is_refused():
    with pytest.raises(IszError, match="a seat's knob takes KEY=VALUE"):
        head_to_head.seat("so_ismcts,belief", 0.01, planner=False)
