"""A model of the opponent faced: a network fitted to its moves (``isz-fit-opponent``).

A planner's belief weighs the worlds it draws by how likely the other seats' moves
were in each (`sir`, `replay`, `posterior`, the recon filters): by default with its own
network, which self-play trained on the planner's own moves, so the belief models an
opponent who plays like the planner. Against another program that is the wrong
player: on `recon_hard` the network predicts so_ismcts's adversary barely better than
a uniform walker does (docs/results/recon.md). This module plays the opponent against
itself, offline, on deals of its own seed (none of a judged match's), records at every
decision the view tensor it decided from, its legal moves and the move it made, and
fits a copy of the checkpoint's network to those moves by cross-entropy (the trunk
already reads the game's views; the epoch with the best log-likelihood on held-out
games, other deals, is kept). The result is a checkpoint of the same game, which a
planner takes as ``opponent_model=PATH`` (`isz.settings.agents.OPPONENT_MODEL`); the
moves are kept beside it (``M.moves.npz``), so a refit (``--moves``) plays no game.

Nothing hidden is recorded: a row is a view and a move, what anyone watching the
opponent play its own games could write down. A planner that uses the model still
decides from its own view only. Measured against so_ismcts, a model fitted this way
did not make the planner stronger on recon_hard or Oh Hell (docs/results/recon.md,
docs/results/oh_hell.md).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from isz.agents.base import Agent
from isz.fs import write_atomic
from isz.games.base import Game
from isz.training.playout_fit import decisions
from isz.types import IszError

# recon_hard, about 27,000 moves at step 1e-3: the held-out best came at epoch 3 (both
# seats' moves) or 6-10 (the adversary's alone); the best epoch is the one kept
EPOCHS = 16
LR = 1e-3


@dataclass
class Moves:
    """Decisions: ``tensors`` float32[N, S] (the mover's view), ``masks`` bool[N, A] (its
    legal moves), ``actions`` int64[N] (the move made)."""

    tensors: np.ndarray
    masks: np.ndarray
    actions: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def record_views(agent: Agent, game: Game, games: int, rng: np.random.Generator,
                 progress: Callable[[int], None] | None = None) -> Moves:
    """Every decision of ``games`` games with ``agent`` in every seat (`decisions`)."""
    x, m, a = [], [], []
    for st, p, act in decisions(agent, game, games, rng, progress):
        v = st.view(p)
        mask = np.zeros(game.num_actions, dtype=np.bool_)
        mask[list(v.legal_actions)] = True
        x.append(np.asarray(v.tensor(), dtype=np.float32).reshape(-1))
        m.append(mask)
        a.append(int(act))
    return Moves(np.stack(x), np.stack(m), np.array(a, dtype=np.int64))


def log_likelihood(model, moves: Moves) -> float:
    """Mean log-probability of ``moves.actions`` under ``model``'s masked policy."""
    import torch

    with torch.no_grad():
        logits, _ = model(torch.from_numpy(moves.tensors), torch.from_numpy(moves.masks))
        lp = torch.log_softmax(logits.float(), dim=-1)
        return float(lp[torch.arange(len(moves)), torch.from_numpy(moves.actions)].mean())


def fit_policy(model, train: Moves, test: Moves, epochs: int = EPOCHS, lr: float = LR,
               batch: int = 256, seed: int = 0,
               progress: Callable[[int, float], None] | None = None) -> dict:
    """Fit ``model``'s policy (all its weights) to ``train``'s moves by cross-entropy with
    Adam; keep the epoch whose ``test`` log-likelihood is best (the start counts: a fit
    that never beats it leaves ``model`` as it was). ``progress(epoch, log_lik)``.
    Returns the test log-likelihoods: ``uniform``, ``start``, ``fit`` and ``epoch``."""
    import torch

    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    uniform = float(np.mean(-np.log(test.masks.sum(axis=1))))
    best = start = log_likelihood(model, test)
    best_state, best_epoch = copy.deepcopy(model.state_dict()), 0
    opt = torch.optim.Adam(model.parameters(), lr=lr, weight_decay=1e-4)
    x, m, a = (torch.from_numpy(v) for v in (train.tensors, train.masks, train.actions))
    for epoch in range(1, epochs + 1):
        model.train()
        order = torch.from_numpy(rng.permutation(len(train)))
        for i in range(0, len(train), batch):
            b = order[i:i + batch]
            loss = torch.nn.functional.cross_entropy(model(x[b], m[b])[0].float(), a[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        model.eval()
        ll = log_likelihood(model, test)
        if progress:
            progress(epoch, ll)
        if ll > best:
            best, best_state, best_epoch = ll, copy.deepcopy(model.state_dict()), epoch
    model.load_state_dict(best_state)
    model.eval()
    return {"uniform": uniform, "start": start, "fit": best, "epoch": best_epoch}


def moves_path(output) -> Path:
    """Where `fit_opponent` keeps the moves it fitted ``output`` to: ``M.moves.npz``."""
    output = Path(output)
    return output.with_name(output.stem + ".moves.npz")


def save_moves(path, train: Moves, test: Moves, record: dict) -> None:
    """Write the recorded moves and what they are (``record``, JSON) atomically."""
    def write(f):
        np.savez_compressed(f, record=np.array(json.dumps(record)),
                            **{f"{part}_{k}": getattr(m, k) for part, m in
                               (("train", train), ("test", test))
                               for k in ("tensors", "masks", "actions")})
    write_atomic(path, write, binary=True)


def load_moves(path) -> tuple[Moves, Moves, dict]:
    """``(train, test, record)`` of a `save_moves` file; `IszError` if it is not one."""
    try:
        with np.load(path) as z:
            parts = [Moves(*(z[f"{part}_{k}"] for k in ("tensors", "masks", "actions")))
                     for part in ("train", "test")]
            return parts[0], parts[1], json.loads(str(z["record"]))
    except (OSError, KeyError, ValueError) as e:
        raise IszError(f"--moves {str(path)!r} is not a file of recorded moves "
                       f"(isz-fit-opponent writes one beside its model): {e}") from e


def fit_opponent(checkpoint: str, output: str, opponent: str = "so_ismcts",
                 knobs: dict | None = None, games: int = 1800, test_games: int = 200,
                 seed: int = 0, epochs: int = EPOCHS, lr: float = LR,
                 moves: str | None = None,
                 progress: Callable[[int], None] | None = None,
                 log: Callable[[str], None] = print) -> dict:
    """Play agent ``opponent`` (with ``knobs``) in every seat of ``checkpoint``'s game
    for ``games`` games and ``test_games`` more (other deals), or take the moves a
    previous fit recorded (``moves``, its ``M.moves.npz``; then the opponent, knobs
    and games are that file's); fit a copy of the checkpoint's network to them
    (`fit_policy`), write it to ``output`` (atomic; ``extra["opponent_model"]`` holds
    what was fitted to and the held-out figures) and the moves beside it
    (`moves_path`). Returns the record."""
    from isz.agents.registry import make_agent
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model, save_checkpoint

    game = checkpoint_game(load_checkpoint(checkpoint))
    if moves is not None:
        train, test, played = load_moves(moves)
        if train.tensors.shape[1] != game.tensor_size:
            raise IszError(f"--moves {moves!r} holds views of size {train.tensors.shape[1]}; "
                           f"{game!r} makes views of size {game.tensor_size}")
    else:
        knobs = dict(knobs or {})
        agent = make_agent(opponent, game, **knobs)
        train_rng, test_rng = (np.random.default_rng(s) for s in
                               np.random.SeedSequence(seed).spawn(2))
        train = record_views(agent, game, games, train_rng, progress)
        test = record_views(agent, game, test_games, test_rng, progress)
        played = {"opponent": opponent, "knobs": knobs, "games": games,
                  "test_games": test_games, "seed": seed}
        save_moves(moves_path(output), train, test, played)
    model, info = load_model(checkpoint, game)
    held_out = fit_policy(model, train, test, epochs=epochs, lr=lr, seed=seed,
                          progress=lambda e, ll: log(f"epoch {e}: held-out mean "
                                                     f"log-likelihood {ll:+.4f}"))
    record = {**played, "moves": len(train), "test_moves": len(test),
              "from": str(checkpoint), "epochs": epochs, "lr": lr,
              "held_out_log_lik": held_out}
    save_checkpoint(output, model=model, game=game, model_cfg=info["model_config"],
                    extra={"opponent_model": record})
    return record


def main(argv: list[str] | None = None) -> int:
    """``isz-fit-opponent CHECKPOINT --output PATH [--opponent NAME] [--knob K=V]...``."""
    import argparse

    from isz.cli import key_values, one_line_errors
    from isz.fs import check_output_file
    from isz.progress import Progress
    from isz.types import check_int

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint", help="a checkpoint of the game (its network is the start "
                    "of the fit)")
    ap.add_argument("--output", required=True, help="the opponent model's checkpoint")
    ap.add_argument("--opponent", default="so_ismcts", help="the agent to model (a name of "
                    "isz.agent_names())")
    ap.add_argument("--knob", action="append", default=None, metavar="KEY=VALUE",
                    help="a setting of the opponent, as it plays in the match to come, "
                    "e.g. time_budget=0.02 (repeatable)")
    ap.add_argument("--games", type=int, default=1800, help="its games to fit on")
    ap.add_argument("--test-games", type=int, default=200, help="its games (other deals) "
                    "to judge the fit on")
    ap.add_argument("--epochs", type=int, default=EPOCHS)
    ap.add_argument("--lr", type=float, default=LR, help="Adam's step size")
    ap.add_argument("--moves", default=None, help="fit on the moves a previous fit recorded "
                    "(its M.moves.npz) instead of playing new games")
    ap.add_argument("--seed", type=int, default=0, help="the deals and the fit's draws")
    a = ap.parse_args(argv)
    with one_line_errors():
        check_int("--games", a.games, lo=1)
        check_int("--test-games", a.test_games, lo=1)
        check_int("--epochs", a.epochs, lo=1)
        check_int("--seed", a.seed, lo=0)
        if not a.lr > 0:
            raise IszError(f"--lr must be a number > 0, got {a.lr}")
        check_output_file(a.output, "--output")
        knobs = key_values(a.knob, "--knob")
        bar = None if a.moves else Progress(f"{a.opponent} games", a.games + a.test_games,
                                            "games")
        record = fit_opponent(a.checkpoint, a.output, a.opponent, knobs, a.games,
                              a.test_games, a.seed, a.epochs, a.lr, a.moves,
                              bar.update if bar else None)
        if bar:
            bar.close()
    print(json.dumps(record, indent=1))
    ll = record["held_out_log_lik"]
    print(f"held-out moves, mean log-likelihood: uniform {ll['uniform']:+.4f}, the "
          f"checkpoint's network {ll['start']:+.4f}, the fit {ll['fit']:+.4f}; play it "
          f"with opponent_model={a.output}")
    return 0
