"""research/moves.py: one line per information state, every agent's moves named."""

from __future__ import annotations

from research import moves


def test_every_kuhn_information_state_once(capsys):
    moves.main(["--game", "kuhn_poker", "--time", "0.001", "--repeats", "3",
                "--agent", "so_ismcts", "--agent", "pimc"])
    lines = capsys.readouterr().out.strip().splitlines()
    # 3 cards x (first move, after a pass, after a bet, after pass-bet): 12 states
    assert len(lines) == 12 and len(set(lines)) == 12
    for line in lines:
        assert line.startswith("seat ") and "so_ismcts: " in line and "pimc: " in line
        for cell in line.split("  ")[1:]:
            assert set(cell.split(": ")[1].split("/")) <= {"pass", "bet"}
    # a king facing a bet is always called by rollout search (it cannot lose)
    (king,) = [ln for ln in lines if ln.startswith("seat 1 (2, 2, 1)")]
    assert "so_ismcts: bet/bet/bet" in king
