"""Progress of long steps: plain lines where stderr is not a terminal, rate-limited."""

from __future__ import annotations

from isz.progress import Progress


def test_plain_lines_count_up_to_the_total(monkeypatch, capsys):
    monkeypatch.setenv("ISZ_PROGRESS_EVERY_S", "0")
    with Progress("eval vs pimc", 3, "deals") as bar:
        for _ in range(3):
            bar.update()
    lines = capsys.readouterr().err.splitlines()
    assert lines[0].startswith("eval vs pimc: 1/3 deals (33%)")
    assert "left" not in lines[0]  # no rate from one unit (it may include compiling)
    assert lines[1].startswith("eval vs pimc: 2/3 deals (67%)") and "s left" in lines[1]
    assert lines[-1].startswith("eval vs pimc: 3/3 deals (100%)")


def test_short_steps_stay_silent_and_disabled_shows_nothing(monkeypatch, capsys):
    monkeypatch.setenv("ISZ_PROGRESS_EVERY_S", "60")
    with Progress("self-play 1", 5, "games") as bar:
        bar.update(5)
    monkeypatch.setenv("ISZ_PROGRESS_EVERY_S", "0")
    with Progress("training 1", 5, "steps", enabled=False) as bar:
        bar.update(5)
    assert capsys.readouterr().err == ""
