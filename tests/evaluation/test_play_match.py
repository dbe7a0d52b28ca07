"""`play_match`: a match by names equals the arena's deal by deal; its journal
resumes an interrupted match (Ctrl-C, kill -9) with the same result, and is
never reused by a match with other settings."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import isz
from isz import IszError
from isz.evaluation import (
    DealJournal,
    LocalPool,
    MatchSpec,
    SeatSpec,
    journal_for,
    match,
    play_match,
)
from tests.signals import terminal_ctrl_c

ROOT = Path(__file__).resolve().parents[2]


def _spec(deals: int = 6, seed: int = 5) -> MatchSpec:
    return MatchSpec("tricks", (SeatSpec("so_ismcts", {"iterations": 20}),
                                SeatSpec("pimc", {"iterations": 20, "determinizations": 2})),
                     deals, seed)


def _same(a, b) -> None:
    """Identical deal by deal: scores, utilities, decisions and simulations."""
    np.testing.assert_array_equal(a.deal_scores, b.deal_scores)
    for x, y in zip(a.agents, b.agents, strict=True):
        assert (x.name, x.utility, x.decisions) == (y.name, y.utility, y.decisions)
        assert x.simulations_per_decision == y.simulations_per_decision
        assert x.stats == y.stats


def test_play_match_equals_the_arena_for_any_worker_count():
    spec = _spec()
    game = isz.make_game("tricks")
    agents = [isz.make_agent("so_ismcts", game, iterations=20),
              isz.make_agent("pimc", game, iterations=20, determinizations=2)]
    ref = match(game, agents, spec.deals, spec.seed, progress=False)
    one = play_match(spec, LocalPool(1), progress=False)
    two = play_match(spec, LocalPool(2), progress=False)
    _same(ref, one)
    _same(ref, two)
    assert (one.workers, two.workers, two.backend, two.resumed) == (1, 2, "local", 0)
    assert len(set(ref.deal_scores[:, 0])) > 1  # the deals differ: the test can fail


class Stop(Exception):
    pass


@pytest.mark.timeout(120, method="thread")  # a hung stop fails fast
@pytest.mark.parametrize("workers", [1, 2])
def test_an_interrupted_match_resumes_from_its_journal(tmp_path, workers):
    spec = _spec(deals=8)
    path = journal_for(tmp_path / "out.json", spec.key())
    assert path.name == f"out.deals-{spec.key()}.jsonl"
    seen = []

    def stop_after_three(n):
        seen.append(n)
        if len(seen) == 3:
            raise Stop  # as Ctrl-C would, from inside the match

    with pytest.raises(Stop):
        play_match(spec, LocalPool(workers), journal=path, progress=stop_after_three)
    lines = path.read_text().splitlines()
    assert len(lines) == 1 + 3  # header + the three deals that finished
    ticks = []
    again = play_match(spec, LocalPool(workers), journal=path, progress=ticks.append)
    assert again.resumed == 3 and sum(ticks) == 8  # 3 at once from the journal, then 5
    _same(play_match(spec, progress=False), again)
    assert len(path.read_text().splitlines()) == 1 + 8


def test_a_journal_is_keyed_by_the_settings(tmp_path):
    spec = _spec()
    other_seed, other_knobs = _spec(seed=6), MatchSpec(
        "tricks", (SeatSpec("so_ismcts", {"iterations": 21}), spec.seats[1]), 6, 5)
    longer = _spec(deals=9)
    assert len({spec.key(), other_seed.key(), other_knobs.key()}) == 3
    assert longer.key() == spec.key()  # deal d is the same deal in a longer match
    out = tmp_path / "out.json"
    play_match(spec, journal=journal_for(out, spec.key()), progress=False)
    with pytest.raises(IszError, match="belongs to another match"):
        play_match(other_seed, journal=journal_for(out, spec.key()), progress=False)
    res = play_match(longer, journal=journal_for(out, longer.key()), progress=False)
    assert res.resumed == 6 and res.deals == 9


def test_a_line_cut_short_is_dropped_and_the_journal_goes_on(tmp_path):
    spec = _spec(deals=4)
    path = tmp_path / "j.jsonl"
    play_match(spec, journal=path, progress=False)
    text = path.read_bytes()
    last = text.rstrip(b"\n").rsplit(b"\n", 1)[1]
    path.write_bytes(text[:-len(last) // 2])  # the last deal's line half written
    with DealJournal(path, spec.key()) as j:
        assert sorted(j.done) == [0, 1, 2]
    assert path.read_bytes() == text[:-len(last) - 1]
    res = play_match(spec, journal=path, progress=False)
    assert res.resumed == 3
    _same(play_match(spec, progress=False), res)
    path.write_text("not a journal\n")
    with pytest.raises(IszError, match="is not a match journal"):
        play_match(spec, journal=path, progress=False)


def test_bad_specs_fail_before_any_deal(tmp_path):
    with pytest.raises(IszError, match="needs a checkpoint"):
        play_match(MatchSpec("kuhn_poker", (SeatSpec("planner"), SeatSpec("random")), 2))
    with pytest.raises(IszError, match="2 seat"):
        play_match(MatchSpec("kuhn_poker", (SeatSpec("random"),), 2))
    with pytest.raises(IszError, match="deals"):
        play_match(MatchSpec("kuhn_poker", (SeatSpec("random"), SeatSpec("random")), 0))


def _evaluate(tmp_path: Path, out: str, *extra: str) -> list[str]:
    return [sys.executable, str(ROOT / "scripts" / "evaluate.py"), "game=tricks",
            "agents=[so_ismcts,pimc]", "iterations=300", "deals=24", "workers=2",
            "progress=false", f"output={tmp_path / out}", f"hydra.run.dir={tmp_path / 'h'}",
            *extra]


def _started(tmp_path: Path, cmd: list[str], **popen) -> tuple[subprocess.Popen, list]:
    """``cmd`` running, once its journal holds at least 4 deals: (process, [journal])."""
    p = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True, **popen)
    deadline = time.time() + 300
    journal = []
    while time.time() < deadline and p.poll() is None:
        journal = list(tmp_path.glob("out.deals-*.jsonl"))
        if journal and len(journal[0].read_text().splitlines()) >= 1 + 4:
            break
        time.sleep(0.05)
    assert p.poll() is None, p.stderr.read()[-2000:]
    return p, journal


def test_kill_9_then_the_same_command_resumes(tmp_path):
    """The journal holds every deal finished before the kill; the same command plays
    only the others and gives the uninterrupted match's result."""
    cmd = _evaluate(tmp_path, "out.json")
    p, journal = _started(tmp_path, cmd)
    os.kill(p.pid, signal.SIGKILL)
    p.wait()
    kept = len(journal[0].read_text().splitlines()) - 1
    assert 4 <= kept < 24
    again = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr[-2000:]
    res = json.loads((tmp_path / "out.json").read_text())["result"]
    assert res["resumed_deals"] in (kept - 1, kept)  # minus a line the kill cut short
    assert not journal[0].exists()  # removed once the result is written
    clean = subprocess.run(_evaluate(tmp_path, "clean.json", "resume=false"), cwd=tmp_path,
                           capture_output=True, text=True, timeout=600)
    assert clean.returncode == 0, clean.stderr[-2000:]
    ref = json.loads((tmp_path / "clean.json").read_text())["result"]
    assert ref["resumed_deals"] == 0
    for a, b in zip(res["agents"], ref["agents"], strict=True):
        assert (a["score"], a["utility"], a["decisions"]) == (b["score"], b["utility"],
                                                              b["decisions"])
    assert res["paired"] == ref["paired"]


def test_an_opponent_model_travels_and_keys_like_a_checkpoint(tmp_path):
    """A planner's ``opponent_model`` file is one of the match's files: checked, hashed
    into the key, and read from a worker's copy where one is given."""
    import shutil

    import torch

    from isz.evaluation.spec import build
    from isz.nn import ModelConfig, build_model, save_checkpoint

    game = isz.make_game("kuhn_poker")
    cfg = ModelConfig(width=8, depth=1)
    paths = []
    for i, name in enumerate(("ck.pt", "model.pt", "other.pt")):
        torch.manual_seed(i)
        paths.append(str(save_checkpoint(tmp_path / name, model=build_model(game, cfg),
                                         game=game, model_cfg=cfg,
                                         extra={"planner": {"belief": "posterior"}})))
    ck, model, other = paths

    def spec(m):
        return MatchSpec("kuhn_poker", (SeatSpec("planner", {"iterations": 8, "opponent_model": m},
                                                 ck), SeatSpec("random")), 4, 1)

    s = spec(model)
    assert s.checkpoints() == [ck, model]
    before = s.key()
    assert spec(model).key() == before != spec(other).key()
    shutil.copy(other, model)  # the same path, other bytes: another match
    assert spec(model).key() != before
    plain = MatchSpec("kuhn_poker", (SeatSpec("planner", {"iterations": 8}, ck),
                                     SeatSpec("random")), 4, 1)
    assert "opponent_model_sha256" not in json.dumps(plain.settings())  # old keys unchanged
    copy = str(tmp_path / "worker-copy.pt")
    shutil.copy(model, copy)
    _, (planner, _) = build(s, {ck: ck, model: copy})
    used = planner.belief.policy.evaluator.model
    expect = isz.nn.load_model(copy)[0]
    for a, b in zip(used.parameters(), expect.parameters(), strict=True):
        assert torch.equal(a, b)
    with pytest.raises(IszError, match="opponent_model 'nowhere.pt' is not a file"):
        spec("nowhere.pt").check()


def test_ctrl_c_is_one_line_and_keeps_the_journal(tmp_path):
    """Ctrl-C at a terminal (SIGINT to the process group, the match workers included):
    status 130, one line, no worker's traceback, and the finished deals stay for the
    same command to resume from."""
    p, journal = _started(tmp_path, _evaluate(tmp_path, "out.json"),
                          start_new_session=True, preexec_fn=terminal_ctrl_c)
    os.killpg(p.pid, signal.SIGINT)
    _, err = p.communicate(timeout=60)
    assert p.returncode == 130
    assert err.strip() == ("stopped (Ctrl-C): the deals finished so far are in the journal "
                           "next to the output; the same command plays only the missing ones")
    assert len(journal[0].read_text().splitlines()) >= 1 + 4
