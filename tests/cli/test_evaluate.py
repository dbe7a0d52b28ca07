"""isz-evaluate end to end: a real run writes JSON; user errors exit cleanly."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from isz.cli import evaluate
from tests.cli.conftest import console_script

ERROR_CASES = {
    "unknown_game": (["game=no_such_game"], "no_such_game"),
    "unknown_agent": (["game=kuhn_poker", "agents=[random,no_such_agent]"], "no_such_agent"),
    "zero_deals": (["game=kuhn_poker", "agents=[random]", "deals=0"], "deals"),
    "zero_iterations": (["game=kuhn_poker", "agents=[random]", "iterations=0"], "iterations"),
    "typo_key": (["game=kuhn_poker", "agents=[random]", "deal=3"], "deal"),
    "added_typo_key": (["game=kuhn_poker", "agents=[random]", "+dealz=3"], "dealz"),
    "unknown_knob": (["game=kuhn_poker", "agents=[random]", "knobs.random.wrld=2"], "wrld"),
    "too_many_agents": (["game=coin_guess", "agents=[random,random]"], "1 seat"),
    "wrong_type": (["game=kuhn_poker", "deals=abc"], "bad value 'abc' for deals"),
    "unparsable": (["game=kuhn_poker", "agents=[random"], "cannot parse"),
    # checked before the match: these deal counts would take hours
    "output_is_a_folder": (["game=kuhn_poker", "agents=[random]", "deals=100000000",
                            "output={tmp}"], "is a folder; give a file path"),
    "output_under_a_file": (["game=kuhn_poker", "agents=[random]", "deals=100000000",
                             "output={tmp}/in.txt/out.json"], "in.txt' is a file"),
    "exploitability_too_large": (["game=tricks", "agents=[random]", "deals=100000000",
                                  "exploitability=true"], "too large for exact"),
    "exploitability_of_a_cheat": (["game=kuhn_poker", "agents=[cheat_uct,random]",
                                   "deals=100000000", "exploitability=true"], "cheats"),
}


def _args(args: list[str], tmp: Path) -> list[str]:
    """``args`` with ``{tmp}`` filled in, an ``output`` under ``tmp`` unless given, and
    hydra's run folder under ``tmp``."""
    (tmp / "in.txt").write_text("a file where a folder should be")
    args = [a.format(tmp=tmp) for a in args]
    if not any(a.startswith("output=") for a in args):
        args.append(f"output={tmp / 'out.json'}")
    return [*args, f"hydra.run.dir={tmp / 'run'}"]


def test_end_to_end_writes_json(tmp_path):
    """The installed console command, from a folder of the user's."""
    proc = subprocess.run([console_script("isz-evaluate"), *_args(
        ["game=kuhn_poker", "agents=[random,random]", "deals=4"], tmp_path)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300)
    out, err = proc.stdout, proc.stderr
    assert proc.returncode == 0, err
    assert "random" in out and "kuhn_poker" in out
    payload = json.loads((tmp_path / "out.json").read_text())
    assert payload["config"]["deals"] == 4 and payload["config"]["game"] == "kuhn_poker"
    assert [s["agent"] for s in payload["seats"]] == ["random", "random"]
    result = payload["result"]
    assert result["games"] == 8 and len(result["agents"]) == 2
    assert sum(a["score"] for a in result["agents"]) == pytest.approx(1.0)
    (pair,) = result["paired"]  # the two seats' difference, with its SE over deals
    a, b = result["agents"]
    assert pair["diff"] == pytest.approx(a["score"] - b["score"]) and pair["se"] >= 0
    assert "random - random:" in out and "(paired over deals)" in out
    assert not list(tmp_path.glob(".out.json.*"))  # no temp file left behind


@pytest.mark.parametrize("case", sorted(ERROR_CASES))
def test_user_errors_exit_cleanly(command, tmp_path, case):
    tmp = tmp_path
    r = command(evaluate.main, *_args(ERROR_CASES[case][0], tmp))
    err = r.stderr
    assert r.returncode == 2, err
    assert ERROR_CASES[case][1] in err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert not list(tmp.rglob("*.json"))  # nothing written


def test_progress_lines_when_not_a_terminal(command, tmp_path, monkeypatch):
    monkeypatch.setenv("ISZ_PROGRESS_EVERY_S", "0")
    r = command(evaluate.main, "game=kuhn_poker", "agents=[planner,random]", "deals=3",
                "iterations=4", "exploitability=true",
                f"checkpoint={_kuhn_checkpoint(tmp_path)}", f"output={tmp_path / 'out.json'}",
                f"hydra.run.dir={tmp_path / 'run'}")
    out, err = r.stdout, r.stderr
    assert r.returncode == 0, err
    assert "kuhn_poker: 3/3 deals (100%)" in err
    assert "exploitability of planner: 12/12 infostates (100%)" in err
    payload = json.loads((tmp_path / "out.json").read_text())
    assert [a["name"] for a in payload["result"]["agents"]] == ["planner", "random"]
    assert "planner" in out and "puct_ismcts" not in out


def _kuhn_checkpoint(tmp_path: Path) -> Path:
    import isz
    from isz.nn import ModelConfig, build_model, save_checkpoint

    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    return save_checkpoint(tmp_path / "k.pt", model=build_model(game, cfg), game=game,
                           model_cfg=cfg)


def test_default_output_is_one_file_per_match(command, tmp_path, monkeypatch):
    """Without ``output=``, a match writes ``results/evaluate-GAME-KEY.json`` under the
    launch folder: a match of other settings gets its own file (it used to replace the
    first one's); the same match with more deals (the same deals and more) rewrites its
    own."""
    monkeypatch.chdir(tmp_path)

    def match(*args):
        r = command(evaluate.main, "game=kuhn_poker", "agents=[random]", *args,
                    f"hydra.run.dir={tmp_path / 'run'}")
        assert r.returncode == 0, r.stderr
        (line,) = [x for x in r.stdout.splitlines() if x.startswith("wrote ")]
        return Path(line.removeprefix("wrote "))

    first, other = match("deals=2", "seed=0"), match("deals=2", "seed=1")
    longer = match("deals=3", "seed=0")
    assert first.parent == tmp_path / "results" and first.name.startswith("evaluate-kuhn_poker-")
    assert first != other and longer == first
    assert sorted(p.name for p in (tmp_path / "results").iterdir()) == sorted(
        [first.name, other.name])
    assert json.loads(first.read_text())["config"]["deals"] == 3
    assert json.loads(other.read_text())["config"]["seed"] == 1
