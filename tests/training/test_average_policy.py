"""NFSP's average-policy network (``trainer.average_policy_from``): a reservoir that keeps
a uniform sample of every position offered, a second network that fits the
reach-weighted mixture of the policies in it, written as ``average_policy.pt``, kept
in the checkpoint (a resume is bit-identical), evaluated for exploitability, leaving
the run's own network unchanged to the bit, and off by default."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import torch

from isz import IszError, make_game
from isz.nn import ModelConfig, build_model, load_checkpoint
from isz.progress import Progress
from isz.selfplay.records import Positions
from isz.training import loop
from isz.training.average_policy import AveragePolicy
from isz.training.config import TrainConfig, validate
from isz.training.logging import read_metrics
from isz.training.reservoir import ReservoirBuffer
from tests.training.kuhn_mirror import kuhn_mirror_cfg, train_stopped_after


def _rows(ids: np.ndarray, actions: int = 2) -> Positions:
    """Rows whose tensor is their id (to tell them apart) and a one-hot policy."""
    n = len(ids)
    pol = np.zeros((n, actions), np.float32)
    pol[:, 0] = 1.0
    return Positions(ids.astype(np.float32)[:, None], np.ones((n, actions), bool), pol,
                     np.zeros(n, np.int64), np.zeros((n, 2), np.float32))


def test_reservoir_fills_in_order_then_keeps_a_uniform_sample(tmp_path):
    res = ReservoirBuffer(1_000)
    rng = np.random.default_rng(0)
    res.add(_rows(np.arange(600)), rng)
    assert len(res) == 600 and res.total_added == 600
    assert np.array_equal(res.arrays["tensors"][:600, 0], np.arange(600))
    sizes = [400, 3_000, 1_000, 15_000]  # 20,000 rows offered in all
    start = 600
    for n in sizes:
        res.add(_rows(start + np.arange(n)), rng)
        start += n
    assert len(res) == 1_000 and res.total_added == 20_000
    kept = res.arrays["tensors"][:, 0].astype(int)
    assert len(np.unique(kept)) == 1_000  # no row twice
    # each batch's share of the slots is its share of the rows offered, within 4 SE
    bounds = np.cumsum([0, 600, *sizes])
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        p = (hi - lo) / 20_000
        share = np.mean((kept >= lo) & (kept < hi))
        assert abs(share - p) < 4 * np.sqrt(p * (1 - p) / 1_000), (lo, hi, share)
    res.save(tmp_path / "r.npz")
    back = ReservoirBuffer.load(tmp_path / "r.npz")
    assert back.total_added == 20_000 and len(back) == 1_000
    for f in ("tensors", "keys"):
        assert np.array_equal(back.arrays[f], res.arrays[f])
    back.add(_rows(np.arange(50)), np.random.default_rng(1))  # a resumed reservoir goes on
    res.add(_rows(np.arange(50)), np.random.default_rng(1))
    assert np.array_equal(back.arrays["tensors"], res.arrays["tensors"])


def test_weighted_reservoir_keeps_rows_in_proportion_to_their_weight():
    """Linear weighting: batch t (t = 1..8, 5,000 rows each) weighs t, so it holds a share
    t / 36 of a reservoir that keeps 1% of the rows (within 4 SE)."""
    res = ReservoirBuffer(400)
    rng = np.random.default_rng(3)
    for t in range(1, 9):
        res.add(_rows(t * 10_000 + np.arange(5_000)), rng, weight=float(t))
    kept = res.arrays["tensors"][:, 0].astype(int) // 10_000
    for t in range(1, 9):
        p = t / 36
        assert abs(np.mean(kept == t) - p) < 4 * np.sqrt(p * (1 - p) / 400), t
    with pytest.raises(IszError, match="weight must be > 0, got 0.0"):
        res.add(_rows(np.arange(3)), rng, weight=0.0)


def test_average_network_fits_the_reach_weighted_mixture():
    """Iteration 1 plays action 0 at a set 300 times, iteration 2 plays action 1 there 100
    times: the average policy is (0.75, 0.25) there, not the last iterate's (0, 1)."""
    game = make_game("kuhn_poker")
    torch.manual_seed(0)
    net = build_model(game, ModelConfig(width=16, depth=1))
    cfg = TrainConfig()
    t = cfg.trainer
    t.average_policy_steps, t.batch_size, t.lr, t.iterations = 300, 64, 0.01, 2
    avg = AveragePolicy.start(net, t, 1)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    view = state.view(state.current_player())
    x = view.tensor().reshape(-1).astype(np.float32)
    mask = np.zeros(game.num_actions, bool)
    mask[list(view.legal_actions)] = True
    a0, a1 = view.legal_actions[:2]
    for n, a in ((300, a0), (100, a1)):
        pol = np.zeros((n, game.num_actions), np.float32)
        pol[:, a] = 1.0
        avg.add(Positions(np.repeat(x[None], n, 0), np.repeat(mask[None], n, 0), pol,
                          np.zeros(n, np.int64), np.zeros((n, 2), np.float32)), 1)
    from isz.progress import Progress
    avg.learn(t, "cpu", Progress("", 0, "", enabled=False))
    with torch.no_grad():
        logits, _ = avg.model(torch.from_numpy(x[None]), torch.from_numpy(mask[None]))
    p = torch.softmax(logits, -1)[0].numpy()
    assert p[a0] == pytest.approx(0.75, abs=0.05) and p[a1] == pytest.approx(0.25, abs=0.05)
    assert avg.reservoir.total_added == 400


@pytest.mark.parametrize("weighting,power", [("uniform", 0.0), ("sqrt", 0.5), ("linear", 1.0)])
def test_iteration_t_offers_its_rows_weighted_t_to_the_power(weighting, power):
    """``trainer.average_policy_weight``: iteration t's rows enter the reservoir with weight
    t^0, t^0.5 or t^1; rows without a policy target are not offered."""
    offered = []

    class Spy(ReservoirBuffer):
        def add(self, pos, rng, weight=1.0):
            offered.append((len(pos), weight))

    avg = AveragePolicy(None, None, None, Spy(10), np.random.default_rng(0), 1)
    rows = _rows(np.arange(6))
    rows.policies[:2] = 0.0  # value-only rows
    for t in (4, 9):
        avg.add(rows, t, weighting)
    assert offered == [(4, pytest.approx(4 ** power)), (4, pytest.approx(9 ** power))]


def _cfg(run_dir: Path, iterations: int = 4, start: int = 2) -> TrainConfig:
    cfg = kuhn_mirror_cfg(run_dir, iterations)
    cfg.trainer.average_policy_from = start
    cfg.trainer.average_policy_steps = 8
    cfg.trainer.average_policy_buffer = 40  # smaller than the rows offered: sampled
    return cfg


def _equal(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


@pytest.mark.parametrize("value,all_hands,message", [
    (5, False, "trainer.average_policy_from must not be past trainer.iterations"),
    (2, True, "trainer.average_policy_from needs selfplay.all_hands=false"),
    (-1, False, "trainer.average_policy_from must be in [0, inf], got -1"),
])
def test_bad_average_policy_settings_are_named(tmp_path, value, all_hands, message):
    cfg = _cfg(tmp_path, start=value)
    cfg.selfplay.all_hands = all_hands
    with pytest.raises(IszError, match=re.escape(message)):
        validate(cfg)


def test_average_policy_is_kept_resumed_evaluated_and_leaves_training_alone(tmp_path,
                                                                            monkeypatch):
    assert TrainConfig().trainer.average_policy_from == 0  # off by default
    ref = tmp_path / "ref"
    cfg = _cfg(ref)
    cfg.trainer.exploitability_max_histories = 50_000  # Kuhn: the final evaluation is exact
    loop.train(cfg)
    ck = ref / "checkpoints"
    saved = load_checkpoint(ck / "last.pt")["extra"]["average_policy"]
    avg = load_checkpoint(ck / "average_policy.pt")
    assert _equal(saved["state"], avg["model"]) and saved["first"] == 2
    assert avg["extra"]["planner"]["final"] == "mirror"  # load_planner plays as trained
    assert [p.name for p in ck.glob("reservoir-*.npz")] == [saved["reservoir_file"]]
    reservoir = ReservoirBuffer.load(ck / saved["reservoir_file"])
    metrics = read_metrics(ref / "metrics.jsonl")
    assert "average_policy/offered" not in metrics[0]  # iteration 1: not started
    assert [m["average_policy/offered"] for m in metrics[1:]] == \
        sorted(m["average_policy/offered"] for m in metrics[1:])
    assert reservoir.total_added == metrics[-1]["average_policy/offered"] > 40
    assert len(reservoir) == 40
    assert 0 < metrics[-1]["eval/average_policy_exploitability_net"] < 1.0
    assert 0 < metrics[-1]["eval/average_policy_exploitability"] < 1.0
    assert not _equal(avg["model"], load_checkpoint(ck / "last.pt")["model"])

    off = tmp_path / "off"  # the run's own network: the same bits without it
    loop.train(_cfg(off, start=0))
    assert not (off / "checkpoints" / "average_policy.pt").exists()
    assert load_checkpoint(off / "checkpoints" / "last.pt")["extra"]["average_policy"] is None
    assert _equal(load_checkpoint(off / "checkpoints" / "last.pt")["model"],
                  load_checkpoint(ck / "last.pt")["model"])

    run = tmp_path / "run"  # stopped after iteration 3, resumed: the same average
    train_stopped_after(monkeypatch, _cfg(run), saves=3)
    loop.train(_cfg(run))
    assert _equal(load_checkpoint(run / "checkpoints" / "average_policy.pt")["model"],
                  avg["model"])


def test_network_target_offers_the_networks_policy_not_the_recorded_one():
    """``trainer.average_policy_target=network``: a row enters the reservoir with the
    given network's masked policy at it, whatever policy self-play recorded; rows
    without a policy target are still not offered."""
    game = make_game("kuhn_poker")
    torch.manual_seed(1)
    net = build_model(game, ModelConfig(width=16, depth=1))
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    view = state.view(state.current_player())
    x = np.repeat(view.tensor().reshape(1, -1).astype(np.float32), 5, 0)
    x[:, 0] = np.arange(5)  # five different inputs
    mask = np.zeros((5, game.num_actions), bool)
    mask[:, list(view.legal_actions)] = True
    mask[0] = False
    mask[0, view.legal_actions[0]] = True  # row 0: one legal action
    pol = np.where(mask, 1.0, 0.0).astype(np.float32)
    pol /= pol.sum(1, keepdims=True)
    pol[4] = 0.0  # a value-only row
    avg = AveragePolicy(None, None, None, ReservoirBuffer(10), np.random.default_rng(0), 1)
    avg.add(Positions(x, mask, pol, np.zeros(5, np.int64), np.zeros((5, 2), np.float32)),
            3, network=net, device="cpu")
    assert len(avg.reservoir) == 4
    want = net.predict(torch.from_numpy(x[:4]), torch.from_numpy(mask[:4]))[0].numpy()
    got = avg.reservoir.arrays["policies"][:4]
    assert np.allclose(got, want, atol=1e-6) and not np.allclose(got, pol[:4], atol=1e-2)
    assert got[0, view.legal_actions[0]] == pytest.approx(1.0)
    assert np.all(got[~mask[:4]] == 0)


def _rows_matching_iterates(ck: Path) -> tuple[ReservoirBuffer, np.ndarray]:
    """The run's reservoir, and close[k, row]: the row's policy is iterate 2 + k's (of
    iterations 2-4) at it, to 1e-5."""
    from isz.nn import load_model

    res = ReservoirBuffer.load(next(ck.glob("reservoir-*.npz")))
    x = torch.from_numpy(res.arrays["tensors"][:len(res)])
    m = torch.from_numpy(res.arrays["masks"][:len(res)])
    got = res.arrays["policies"][:len(res)]
    iterates = [load_model(ck / f"iter-{i:06d}.pt")[0].predict(x, m)[0].numpy()
                for i in (2, 3, 4)]
    return res, np.stack([np.abs(got - p).max(axis=1) < 1e-5 for p in iterates])


def test_network_target_samples_the_iterates_and_leaves_training_alone(tmp_path):
    """Every reservoir row's policy is one of the run's network iterates (iterations
    2-4, after each one's training) at that row; the run's own network trains to the
    bit as with the search target."""
    runs = {}
    for target in ("search", "network"):
        cfg = _cfg(tmp_path / target)
        cfg.trainer.average_policy_target = target
        loop.train(cfg)
        runs[target] = tmp_path / target / "checkpoints"
    last = [load_checkpoint(r / "last.pt") for r in runs.values()]
    assert _equal(last[0]["model"], last[1]["model"])
    ck = runs["network"]
    res, close = _rows_matching_iterates(ck)
    assert close.any(axis=0).all() and close.sum(axis=1).min() > 0, close.sum(axis=1)
    searched = ReservoirBuffer.load(next(runs["search"].glob("reservoir-*.npz")))
    assert not np.allclose(searched.arrays["policies"], res.arrays["policies"], atol=1e-3)


def test_bad_average_policy_target_is_named(tmp_path):
    cfg = _cfg(tmp_path)
    cfg.trainer.average_policy_target = "played"
    with pytest.raises(IszError, match="trainer.average_policy_target.*'played'.*search, network"):
        validate(cfg)


def test_polish_is_the_final_state_trained_on_with_a_fresh_schedule(tmp_path):
    """``trainer.average_policy_polish=N``: the run's last iteration ends with N more steps
    on the final reservoir by a fresh optimizer. Its average network is exactly the
    unpolished run's final average state (as last.pt keeps it) polished N steps, and the
    run's own network is unchanged to the bit."""
    plain, polished = _cfg(tmp_path / "plain"), _cfg(tmp_path / "polished")
    polished.trainer.average_policy_polish = 20
    for cfg in (plain, polished):
        loop.train(cfg)
    ck = {n: tmp_path / n / "checkpoints" for n in ("plain", "polished")}
    last = {n: load_checkpoint(ck[n] / "last.pt") for n in ck}
    assert _equal(last["plain"]["model"], last["polished"]["model"])
    got = load_checkpoint(ck["polished"] / "average_policy.pt")["model"]
    unpolished = load_checkpoint(ck["plain"] / "average_policy.pt")["model"]
    assert not _equal(got, unpolished)

    game = make_game("kuhn_poker")
    avg = AveragePolicy.restore(last["plain"]["extra"]["average_policy"], game,
                                ModelConfig.from_dict(last["plain"]["model_config"]),
                                polished.trainer, torch.device("cpu"), ck["plain"])
    losses = avg.polish(polished.trainer, torch.device("cpu"),
                        Progress("polish", 20, "steps", enabled=False))
    assert _equal(avg.model.state_dict(), got)
    key = "average_policy/polish_policy"
    final = read_metrics(tmp_path / "polished" / "metrics.jsonl")[-1]
    assert final[key] == pytest.approx(losses[key])
    assert key not in read_metrics(tmp_path / "plain" / "metrics.jsonl")[-1]


def test_polish_without_an_average_policy_is_named(tmp_path):
    cfg = _cfg(tmp_path, start=0)
    cfg.trainer.average_policy_polish = 10
    with pytest.raises(IszError, match="average_policy_polish needs trainer.average_policy_from"):
        validate(cfg)


def test_own_games_feed_the_average_and_leave_training_alone(tmp_path, monkeypatch):
    """``trainer.average_policy_games=G``: each iteration offers the network seat's rows of
    G games of its own against uniform play (every row one of the iterates' policies at
    it), not self-play's positions; the run's own network trains to the bit as without
    them, and a run stopped and resumed writes the same average network."""

    def cfg(run):
        c = _cfg(run)
        c.trainer.average_policy_target = "network"
        c.trainer.average_policy_games = 30
        return c

    loop.train(cfg(tmp_path / "games"))
    loop.train(_cfg(tmp_path / "selfplay"))
    ck = tmp_path / "games" / "checkpoints"
    assert _equal(load_checkpoint(ck / "last.pt")["model"],
                  load_checkpoint(tmp_path / "selfplay" / "checkpoints" / "last.pt")["model"])
    metrics = read_metrics(tmp_path / "games" / "metrics.jsonl")[1:]
    per_it = np.diff([0, *(m["average_policy/offered"] for m in metrics)])
    assert np.all((per_it >= 30) & (per_it <= 60)), per_it  # Kuhn: 1-2 own moves a game
    assert np.array_equal([m["average_policy/game_rows"] for m in metrics], per_it)
    assert _rows_matching_iterates(ck)[1].any(axis=0).all()

    run = tmp_path / "resumed"
    train_stopped_after(monkeypatch, cfg(run), saves=3)
    loop.train(cfg(run))
    assert _equal(load_checkpoint(run / "checkpoints" / "average_policy.pt")["model"],
                  load_checkpoint(ck / "average_policy.pt")["model"])


@pytest.mark.parametrize("start,target", [(0, "network"), (2, "search")])
def test_own_games_without_a_network_target_average_are_named(tmp_path, start, target):
    cfg = _cfg(tmp_path, start=start)
    cfg.trainer.average_policy_target = target
    cfg.trainer.average_policy_games = 10
    with pytest.raises(IszError, match="average_policy_games needs trainer.average_policy_from"
                                       " > 0 and trainer.average_policy_target=network"):
        validate(cfg)
