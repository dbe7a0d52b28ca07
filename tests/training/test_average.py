"""The weight average of ``trainer.average_from`` (SWA, an average policy): the running
mean of the networks after each iteration from ``average_from`` on, kept in the
checkpoint (a resume is bit-identical), written as ``average.pt``, the same to the bit
as ``research.average_checkpoints`` over the numbered checkpoints, evaluated for
exploitability, and off by default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from isz import IszError
from isz.nn import ModelConfig, build_model, load_checkpoint
from isz.nn.average import accumulate
from isz.training import loop
from isz.training.config import TrainConfig, validate
from isz.training.logging import read_metrics
from research import average_checkpoints, iterate_averages
from tests.training.kuhn_mirror import kuhn_mirror_cfg, train_stopped_after


def _cfg(run_dir: Path, iterations: int = 4, average_from: int = 2) -> TrainConfig:
    cfg = kuhn_mirror_cfg(run_dir, iterations)
    cfg.trainer.average_from = average_from
    return cfg


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def test_accumulate_is_the_running_mean_of_the_weights():
    game = __import__("isz").make_game("kuhn_poker")
    nets = []
    for seed in range(3):
        torch.manual_seed(seed)
        nets.append(build_model(game, ModelConfig(width=8, depth=1)))
    avg = None
    for n, net in enumerate(nets, start=1):
        avg = accumulate(avg, net, n)
    assert avg is not nets[0]  # a copy: training the network leaves the average alone
    for k, v in avg.state_dict().items():
        mean = sum(net.state_dict()[k] for net in nets) / 3
        assert torch.allclose(v, mean, atol=1e-6), k
    with pytest.raises(IszError, match="count must be >= 1"):
        accumulate(avg, nets[0], 0)


@pytest.mark.parametrize("value,message", [
    (-1, "trainer.average_from must be in [0, inf], got -1"),
    (5, "trainer.average_from must not be past trainer.iterations: the average would never "
        "start (0 turns it off) (got trainer.average_from=5, trainer.iterations=4)"),
])
def test_bad_average_from_is_named(tmp_path, value, message):
    with pytest.raises(IszError, match=re.escape(message)):
        validate(_cfg(tmp_path, average_from=value))


def test_average_off_by_default(tmp_path):
    cfg = _cfg(tmp_path, iterations=2, average_from=0)
    assert TrainConfig().trainer.average_from == 0
    loop.train(cfg)
    assert not (tmp_path / "checkpoints" / "average.pt").exists()
    assert load_checkpoint(tmp_path / "checkpoints" / "last.pt")["extra"]["average"] is None


def test_average_matches_the_checkpoints_and_survives_a_resume(tmp_path, monkeypatch):
    ref = tmp_path / "ref"
    cfg = _cfg(ref)
    cfg.trainer.exploitability_max_histories = 50_000  # Kuhn: the final evaluation is exact
    loop.train(cfg)
    ck = ref / "checkpoints"
    avg = load_checkpoint(ck / "average.pt")
    assert avg["counters"]["averaged"] == 3  # iterations 2, 3, 4
    assert avg["extra"]["planner"]["final"] == "mirror"  # load_planner plays as trained
    inside = load_checkpoint(ck / "last.pt")["extra"]["average"]
    assert inside["count"] == 3 and _equal(inside["state"], avg["model"])
    iters = [load_checkpoint(ck / f"iter-{i:06d}.pt")["model"] for i in (2, 3, 4)]
    assert not _equal(avg["model"], iters[-1])
    for k, v in avg["model"].items():
        assert torch.allclose(v, sum(m[k] for m in iters) / 3, atol=1e-6), k
    post = load_checkpoint(average_checkpoints.average_run(ref, 2))
    assert _equal(post["model"], avg["model"])  # the same folds, the same bits
    final = read_metrics(ref / "metrics.jsonl")[-1]
    assert 0 < final["eval/average_exploitability_net"] < 1.0
    assert 0 < final["eval/average_exploitability"] < 1.0
    assert final["eval/average_exploitability_net"] != final["eval/exploitability_net"]

    run = tmp_path / "run"  # stop after iteration 3 (two networks averaged), resume
    train_stopped_after(monkeypatch, _cfg(run), saves=3)
    assert load_checkpoint(run / "checkpoints" / "average.pt")["counters"]["averaged"] == 2
    loop.train(_cfg(run))
    assert _equal(load_checkpoint(run / "checkpoints" / "average.pt")["model"], avg["model"])


def test_average_checkpoints_names_missing_iterations(tmp_path):
    loop.train(_cfg(tmp_path, iterations=3, average_from=0))
    (tmp_path / "checkpoints" / "iter-000002.pt").unlink()
    with pytest.raises(IszError, match=r"iterations \[2\] have no iter-<n>.pt"):
        average_checkpoints.average_run(tmp_path, 1)
    with pytest.raises(IszError, match="no numbered checkpoint at or after iteration 9"):
        average_checkpoints.average_run(tmp_path, 9)
    assert average_checkpoints.main([str(tmp_path), "--from", "3"]) == 0
    assert load_checkpoint(tmp_path / "checkpoints" / "average-from-3.pt")["counters"] == \
        {"iteration": 3, "averaged": 1}


def test_iterate_averages_weights_column_is_the_average_checkpoint(tmp_path):
    """research.iterate_averages: its ``weights`` average from S is the network that
    ``trainer.average_from=S`` writes; with one iterate every average is that iterate;
    ``reach t^a`` is the reach average at a = 0 and the last iterate as a grows."""
    from isz.agents.network import NetworkEvaluator
    from isz.evaluation.exploitability import exploitability
    from isz.nn import load_model
    from isz.search.evaluator import evaluator_policy

    loop.train(_cfg(tmp_path, iterations=4, average_from=2))
    r = iterate_averages.run_averages(tmp_path, [2, 4], powers=(0.0, 200.0))
    model, _ = load_model(tmp_path / "checkpoints" / "average.pt")
    game = __import__("isz").make_game("kuhn_poker")
    swa = exploitability(game, evaluator_policy(NetworkEvaluator(model, "cpu"))).exploitability
    assert r["by_start"]["2"]["weights"] == pytest.approx(swa, abs=1e-6)
    assert r["by_start"]["2"]["reach t^0"] == pytest.approx(r["by_start"]["2"]["reach"])
    assert r["by_start"]["2"]["reach t^200"] == pytest.approx(r["last"], abs=1e-9)
    assert r["by_start"]["2"]["reach"] != pytest.approx(r["last"], abs=1e-6)
    one = r["by_start"]["4"]
    assert one["reach"] == pytest.approx(r["last"], abs=1e-9)
    assert one["logit"] == pytest.approx(r["last"], abs=1e-9)
    assert one["weights"] == pytest.approx(r["last"], abs=1e-6)
    early = iterate_averages.run_averages(tmp_path, [3], until=3)  # iterate 3 alone
    assert early["last_iteration"] == 3 and early["last"] != pytest.approx(r["last"])
    assert early["by_start"]["3"]["reach"] == pytest.approx(early["last"], abs=1e-9)


def test_the_average_leaves_training_unchanged(tmp_path):
    """A run with the average trains the same network to the bit as one without, with
    exact evaluations on (the average's own evaluation draws from no shared generator),
    so an average from a run's numbered checkpoints is the one the knob would keep."""
    runs = []
    for name, start in (("off", 0), ("on", 2)):
        cfg = _cfg(tmp_path / name, iterations=3, average_from=start)
        cfg.trainer.exploitability_max_histories = 50_000
        cfg.trainer.eval_every = 2  # iterations 2 and 3 evaluated
        loop.train(cfg)
        runs.append(load_checkpoint(tmp_path / name / "checkpoints" / "last.pt")["model"])
    assert _equal(*runs)
