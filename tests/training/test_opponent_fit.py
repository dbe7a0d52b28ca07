"""`isz-fit-opponent`: an opponent's moves recorded from its views, a network fitted to
them, and a planner whose belief weighs the other seats by that network."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import isz
from isz.games.base import State
from isz.nn import ModelConfig, build_model, load_model, save_checkpoint
from isz.nn.checkpoint import load_checkpoint
from isz.training.opponent_fit import Moves, fit_policy, main, record_views
from isz.types import IszError
from tests.conftest import random_decision

RECON = {"slots": 5, "turns": 7, "fuel": 3}


def _checkpoint(tmp_path, game, name="c.pt", seed=0):
    cfg = ModelConfig(width=8, depth=1)
    torch.manual_seed(seed)
    return save_checkpoint(tmp_path / name, model=build_model(game, cfg), game=game,
                           model_cfg=cfg, extra={"planner": {
                               "agent": "guided_so_ismcts", "belief": "auto"}})


def test_records_views_not_states():
    """A row is the mover's view tensor, its legal moves and its move, nothing else."""
    game = isz.make_game("recon", **RECON)
    agent = isz.make_agent("so_ismcts", game, iterations=8)
    moves = record_views(agent, game, 4, np.random.default_rng(1))
    assert len(moves) == 4 * 7 and moves.tensors.shape == (28, game.tensor_size)
    assert moves.masks[np.arange(28), moves.actions].all()
    # the same games again give the same rows: the rows follow the seed
    again = record_views(agent, game, 4, np.random.default_rng(1))
    assert np.array_equal(moves.tensors, again.tensors)
    assert np.array_equal(moves.actions, again.actions)


def test_fit_learns_a_biased_opponent_and_keeps_its_best_epoch():
    """An opponent who plays action 0 where legal 90% of the time: the fit finds it."""
    rng = np.random.default_rng(0)
    n, s, a = 2000, 12, 4
    x = rng.normal(size=(n, s)).astype(np.float32)
    m = np.ones((n, a), dtype=np.bool_)
    acts = np.where(rng.random(n) < 0.9, 0, rng.integers(1, a, n)).astype(np.int64)
    torch.manual_seed(0)
    from isz.nn.model import PolicyValueNet

    model = PolicyValueNet(s, a, 2, ModelConfig(width=8, depth=1))
    train, test = Moves(x[:1600], m[:1600], acts[:1600]), Moves(x[1600:], m[1600:], acts[1600:])
    ll = fit_policy(model, train, test, epochs=6, lr=1e-2)
    assert ll["uniform"] == pytest.approx(-np.log(4))
    truth = 0.9 * np.log(0.9) + 0.1 * np.log(0.1 / 3)  # -0.43, the best any model can do
    assert ll["fit"] > -0.6 > ll["start"] and ll["epoch"] >= 1
    assert ll["fit"] < truth + 0.05
    # a fit that cannot beat its start leaves the weights as they were
    before = {k: v.clone() for k, v in model.state_dict().items()}
    ll2 = fit_policy(model, train, test, epochs=1, lr=10.0)
    assert ll2["epoch"] == 0 and ll2["fit"] == ll2["start"]
    assert all(torch.equal(before[k], v) for k, v in model.state_dict().items())


def test_command_writes_a_model_a_planner_plays_with(tmp_path, capsys):
    game = isz.make_game("recon", **RECON)
    ck = _checkpoint(tmp_path, game)
    out = tmp_path / "opp" / "m.pt"
    assert main([str(ck), "--output", str(out), "--knob", "iterations=8", "--games", "30",
                 "--test-games", "10", "--epochs", "3"]) == 0
    assert "opponent_model=" in capsys.readouterr().out
    rec = load_checkpoint(out)["extra"]["opponent_model"]
    assert rec["opponent"] == "so_ismcts" and rec["knobs"] == {"iterations": 8}
    assert rec["moves"] == 30 * 7 and rec["test_moves"] == 10 * 7
    ll = rec["held_out_log_lik"]
    assert ll["fit"] >= ll["start"]
    # the moves are kept beside the model: a refit on them plays no game
    kept = out.with_name("m.moves.npz")
    assert kept.exists()
    refit = tmp_path / "m2.pt"
    assert main([str(ck), "--output", str(refit), "--moves", str(kept), "--epochs", "3"]) == 0
    rec2 = load_checkpoint(refit)["extra"]["opponent_model"]
    assert rec2["knobs"] == {"iterations": 8} and rec2["moves"] == rec["moves"]
    assert rec2["held_out_log_lik"] == rec["held_out_log_lik"]  # same moves, same seed
    planner = isz.load_planner(str(ck), game, device="cpu", iterations=8,
                               opponent_model=str(out))
    motion = planner.belief.policy.policy.evaluator.model  # the filter's adversary
    assert motion is not planner.evaluator.model
    fitted = load_model(out)[0]
    for p_fit, p_used in zip(fitted.parameters(), motion.parameters(), strict=True):
        assert torch.equal(p_fit, p_used)


def test_bad_opponent_model_is_one_clear_error(tmp_path, capsys):
    game = isz.make_game("recon", **RECON)
    ck = _checkpoint(tmp_path, game)
    other = _checkpoint(tmp_path, isz.make_game("kuhn_poker"), "kuhn.pt")
    with pytest.raises(IszError, match="kuhn"):
        isz.load_planner(str(ck), game, device="cpu", iterations=8, opponent_model=str(other))
    with pytest.raises(IszError, match="opponent_model needs belief_policy=network"):
        isz.load_planner(str(ck), game, device="cpu", iterations=8, opponent_model=str(ck),
                         belief_policy="uniform")
    with pytest.raises(SystemExit):
        main([str(ck), "--output", str(tmp_path / "m.pt"), "--opponent", "nobody"])
    err = capsys.readouterr().err
    assert "nobody" in err and "so_ismcts" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SystemExit):
        main([str(ck), "--output", str(tmp_path / "m.pt"), "--moves", str(ck)])
    err = capsys.readouterr().err
    assert "--moves" in err and "not a file of recorded moves" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["recon", "oh_hell"])
def test_opponent_model_planner_same_view_same_action(tmp_path, name):
    """Twin states that share the planner's view: the same move, with the model's belief."""
    game = isz.make_game(name)
    ck = _checkpoint(tmp_path, game)
    model = _checkpoint(tmp_path, game, "model.pt", seed=1)
    for seed in range(3):
        rng = np.random.default_rng(seed)
        state = random_decision(game, rng, 6 + 5 * seed)
        p = state.current_player()
        twins = [State(game, w.copy()) for w in isz.belief.UniformBelief(game).sample_many(
            state.view(p), 8, rng) if not np.array_equal(w, state.data)]
        twin = twins[0] if twins else state.clone()
        assert twin.view(p).key == state.view(p).key
        acts = [isz.load_planner(str(ck), game, device="cpu", iterations=24,
                                 opponent_model=str(model)).act(
            s.view(p), np.random.default_rng(seed)) for s in (state, twin)]
        assert acts[0] == acts[1]
