"""A fast playout policy fitted to a planner's moves (AlphaGo's rollout policy).

Below its tree a rollout search plays every seat at random; the ``policy`` leaf
(`isz.search.playout`) plays move ``a`` with probability ∝ exp(w · φ(a)) instead, φ the
game's move features (`Kernel.action_score`; the action id where a game has none). This
module fits ``w`` by maximum likelihood to the moves a planner makes in self-play, every
seat played by it: the search is the expert, the playout its apprentice, and the
weights go into the planner's record so that the checkpoint plays with them
(`fit_checkpoint`; command ``scripts/fit_playout.py``).

The features are read from the true state of each decision (a self-play game is over
when it is read; the weights are a law over many games, fixed before any game they
play in, and the leaf reads only the world the search is in).

The games go in chunks of `CHUNK_GAMES`, each from its own seed, so they can be played
on several forked processes (`isz.crew.Crew`; the loop's ``selfplay.workers``) and the
fit is the same for any count.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np

from isz.agents.base import Agent
from isz.crew import forked_crew
from isz.games.base import Game
from isz.search.playout import make_move_features, num_playout_weights
from isz.selfplay.chunks import chunk_sizes

CHUNK_GAMES = 10
"""Games a chunk of the fit: small enough that two processes finish 200 games together
(Oh Hell: about 0.3 s a game), large enough that a chunk's message is not the cost."""


@dataclass
class MoveRows:
    """Decisions of self-play: ``feats`` float64[N, H, F] (each legal move's features, 0
    past the ``n`` legal ones), ``mask`` bool[N, H] (a legal move), ``target`` int64[N]
    (the index of the move made among the row's legal moves)."""

    feats: np.ndarray
    mask: np.ndarray
    target: np.ndarray

    def __len__(self) -> int:
        return len(self.target)


def decisions(agent: Agent, game: Game, games: int, rng: np.random.Generator,
              progress: Callable[[int], None] | None = None) -> Iterator[tuple]:
    """``(state, seat, action)`` at every decision of ``games`` games with ``agent`` in
    every seat (it decides from the seat's view; chance from ``rng``), yielded before
    the action is applied: the state is the true one, for records made after the game
    is over (``progress(1)`` after each game)."""
    for _ in range(games):
        st = game.new_initial_state()
        agent.reset()
        while not st.is_terminal():
            if st.is_chance_node():
                st.apply_action(st.sample_chance(rng))
                continue
            p = st.current_player()
            a = agent.act(st.view(p), rng)
            yield st, p, a
            st.apply_action(a)
        if progress:
            progress(1)


def record_moves(agent: Agent, game: Game, games: int, rng: np.random.Generator,
                 progress: Callable[[int], None] | None = None) -> MoveRows:
    """Every decision's move features and the move made, over `decisions`."""
    return _pad(*_move_rows(agent, game, games, rng, progress), num_playout_weights(game))


def _move_rows(agent: Agent, game: Game, games: int, rng: np.random.Generator,
               progress: Callable[[int], None] | None = None) -> tuple[list, list]:
    """Each decision's features, float64[n legal, F], and the index of the move made."""
    features = make_move_features(game.kernel)
    f, la = num_playout_weights(game), np.empty(game.num_actions, dtype=np.int64)
    rows, targets = [], []
    for st, p, a in decisions(agent, game, games, rng, progress):
        n = game.kernel.legal_actions(st.data, game.kparams, la)
        out = np.zeros((n, f))
        features(st.data, game.kparams, p, la, n, out)
        rows.append(out)
        targets.append(int(np.flatnonzero(la[:n] == a)[0]))
    return rows, targets


def record_chunks(agent: Agent, game: Game, games: int, seed: np.random.SeedSequence,
                  workers: int = 1, progress: Callable[[int], None] | None = None
                  ) -> MoveRows:
    """`record_moves` over ``games`` games in chunks of `CHUNK_GAMES`, chunk ``i`` from
    the ``i``-th seed spawned from ``seed``, on ``workers`` processes forked with
    ``agent`` (1: this one): the same rows, in chunk order, for any count. The agent
    starts each chunk as it is now (a worker's copy is forked anew for each call)."""
    sizes = chunk_sizes(games, CHUNK_GAMES)
    # spawned from a copy: ``seed`` itself is left as it was (spawn counts its children)
    fresh = np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key,
                                   pool_size=seed.pool_size)
    tasks = list(enumerate(zip(sizes, fresh.spawn(len(sizes)), strict=True)))
    work = _ChunkRecorder(agent, game)
    parts: list = [None] * len(tasks)
    n = min(workers, len(tasks))
    with forked_crew(n, work, "playout-fit chunk") if n > 1 else nullcontext() as crew:
        done = crew.run(tasks) if crew else ((t, work(t)) for t in tasks)
        for (i, (games_i, _)), part in done:
            parts[i] = part
            if progress:
                progress(games_i)
    return _pad([r for rows, _ in parts for r in rows], [t for _, ts in parts for t in ts],
                num_playout_weights(game))


class _ChunkRecorder:
    """A chunk's moves: ``(i, (games, seed))`` -> `_move_rows`, the agent's caches cleared
    first (an evaluator's rows computed in another batch could differ in their last
    bits, and a chunk must not depend on the chunks its process played before)."""

    def __init__(self, agent: Agent, game: Game):
        self.agent, self.game = agent, game

    def __call__(self, task) -> tuple[list, list]:
        _, (games, seed) = task
        clear = getattr(getattr(self.agent, "evaluator", None), "clear_cache", None)
        if clear:
            clear()
        return _move_rows(self.agent, self.game, games, np.random.default_rng(seed))


def _pad(rows: list[np.ndarray], targets: list[int], f: int) -> MoveRows:
    h = max((len(r) for r in rows), default=1)
    feats, mask = np.zeros((len(rows), h, f)), np.zeros((len(rows), h), dtype=np.bool_)
    for i, r in enumerate(rows):
        feats[i, :len(r)], mask[i, :len(r)] = r, True
    return MoveRows(feats, mask, np.asarray(targets, dtype=np.int64))


def fit(rows: MoveRows, l2: float = 1e-5, steps: int = 300) -> np.ndarray:
    """float64[F]: the weights maximising the mean log-likelihood of the moves made,
    less ``l2`` × |w|² (a feature never seen keeps weight 0; on Oh Hell 1e-3 cost 0.025
    nats of held-out likelihood, 1e-5 nothing). Deterministic (L-BFGS)."""
    import torch

    x, m, t = (torch.from_numpy(rows.feats), torch.from_numpy(rows.mask),
               torch.from_numpy(rows.target))
    w = torch.zeros(rows.feats.shape[2], dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=steps, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = _nll(x, m, t, w) + l2 * (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    return w.detach().numpy().copy()


def _nll(x, m, t, w):
    import torch

    z = torch.where(m, x @ w, torch.tensor(float("-inf"), dtype=x.dtype))
    return -(torch.log_softmax(z, 1).gather(1, t[:, None])).mean()


def judge(rows: MoveRows, w: np.ndarray) -> dict[str, float]:
    """How well weights ``w`` predict held-out moves: mean negative log-likelihood and
    top-1 agreement, beside the uniform policy's (the random playout's)."""
    import torch

    z = np.where(rows.mask, rows.feats @ w, -np.inf)
    n_legal = rows.mask.sum(1)
    nll = _nll(torch.from_numpy(rows.feats), torch.from_numpy(rows.mask),
               torch.from_numpy(rows.target), torch.from_numpy(w))
    return {"rows": len(rows), "nll": float(nll), "uniform_nll": float(np.log(n_legal).mean()),
            "top1": float((np.argmax(z, 1) == rows.target).mean()),
            "uniform_top1": float((1.0 / n_legal).mean())}


def fit_planner(agent: Agent, game: Game, games: int, test_games: int, seed: int,
                progress: Callable[[int], None] | None = None, workers: int = 1) -> dict:
    """Fit the playout to ``games`` self-play games of ``agent`` and judge it on
    ``test_games`` more (other deals), played on ``workers`` processes
    (`record_chunks`). Returns ``{"weights": [F floats], "held_out": judge(...), "rows",
    "seconds"}``; every draw from ``seed``, the same for any ``workers``."""
    t0 = time.perf_counter()
    train_seed, test_seed = np.random.SeedSequence(seed).spawn(2)
    rows = record_chunks(agent, game, games, train_seed, workers, progress)
    test = record_chunks(agent, game, test_games, test_seed, workers, progress)
    w = fit(rows)
    return {"weights": w.tolist(), "held_out": judge(test, w), "rows": len(rows),
            "games": games, "test_games": test_games, "seed": seed,
            "seconds": round(time.perf_counter() - t0, 1)}


def with_playout(record: dict, weights) -> dict:
    """A planner record that plays with the fitted playout ``weights`` (None: as it is)."""
    if weights is None:
        return record
    return {**record, "leaf": "policy", "playout_weights": [float(x) for x in weights]}


def fit_step(st, cfg, game: Game, device, seed: int, step) -> dict[str, float]:
    """The training loop's playout step (``selfplay.playout_fit_games``): the run's
    planner (current network, the playout fitted last time) plays that many games, a
    fifth more judge the fit, and ``st.playout_weights`` becomes the new fit; on
    ``selfplay.workers`` processes without actors (whose Ray forbids forking) on the
    CPU. Scalars ``playout/nll``, ``playout/uniform_nll``, ``playout/top1``,
    ``playout/seconds``, ``playout/used`` (0 where the fit did not `earns_place` and
    random playouts are back)."""
    import torch

    from isz.training.evaluation import planner, planner_knobs

    agent = planner(game, st.model, cfg, device,
                    record=with_playout(planner_knobs(cfg), st.playout_weights))
    games = cfg.selfplay.playout_fit_games
    test = max(1, games // 5)
    local = not cfg.trainer.actors and torch.device(device).type == "cpu"
    with step("playout fit", games + test, "games") as bar:
        result = fit_planner(agent, game, games, test, seed, bar.update,
                             cfg.selfplay.workers if local else 1)
    h = result["held_out"]
    # a fit that predicts held-out moves no better than uniform play is dropped: the
    # teacher and the record go back to random playouts until a later fit earns its place
    st.playout_weights = result["weights"] if earns_place(h) else None
    return {"playout/nll": h["nll"], "playout/uniform_nll": h["uniform_nll"],
            "playout/top1": h["top1"], "playout/seconds": result["seconds"],
            "playout/used": float(st.playout_weights is not None)}


def earns_place(held_out: dict) -> bool:
    """Whether a fit (`judge`'s figures on held-out games) predicts the planner's moves
    better than the random playout does: lower negative log-likelihood than uniform."""
    return held_out["nll"] < held_out["uniform_nll"]


def fit_checkpoint(path: str, games: int = 600, test_games: int = 100, seed: int = 0,
                   progress: Callable[[int], None] | None = None, workers: int = 1,
                   iterations: int | None = None) -> dict:
    """Fit the playout of checkpoint ``path``'s planner to that planner's own moves (its
    recorded settings, on CPU, on ``workers`` processes; ``iterations`` a move instead of
    its record's, for the fit's games only) and record it: the planner record gains
    ``leaf: policy`` and ``playout_weights``, ``extra["playout_fit"]`` the fit's figures
    (`fit_planner`, and ``iterations``: the games' search a move).
    A planner that plays with a fitted playout already fits the next one with it
    (each fit is a generation of the apprentice). A fit that does not `earns_place`
    leaves the planner record as it was (``result["used"]`` False). Returns the fit's
    record."""
    from isz.agents.planner import load_planner
    from isz.nn.checkpoint import checkpoint_game, load_checkpoint, planner_record, update_extra
    from isz.settings.agents import GUIDED_SO_ISMCTS
    from isz.types import IszError

    ckpt = load_checkpoint(path)
    record = planner_record(ckpt)
    if record.get("agent") != GUIDED_SO_ISMCTS.name:
        raise IszError(f"checkpoint {path!r} plays {record.get('agent', 'puct_ismcts')!r}; a "
                       f"fitted playout serves the rollout planner {GUIDED_SO_ISMCTS.name!r} "
                       "(a run with selfplay.teacher=planner)")
    game = checkpoint_game(ckpt)
    deeper = {} if iterations is None else {"iterations": iterations}
    agent = load_planner(path, game, device="cpu", **deeper)
    result = fit_planner(agent, game, games, test_games, seed, progress, workers)
    result["fitted_with"] = record.get("leaf", "playout")
    result["iterations"] = agent.iterations
    result["used"] = earns_place(result["held_out"])
    update_extra(path, planner=with_playout(record, result["weights"] if result["used"]
                                            else None),
                 playout_fit={k: v for k, v in result.items() if k != "weights"})
    return result


def main(argv: list[str] | None = None) -> int:
    """``isz-fit-playout CHECKPOINT [--games N] [--test-games M] [--seed S] [--workers W]
    [--iterations I]``."""
    import argparse
    import json

    from isz.cli import one_line_errors
    from isz.progress import Progress
    from isz.types import check_int

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoint", help="a checkpoint of a run with selfplay.teacher=planner "
                    "(rewritten in place, atomically)")
    ap.add_argument("--games", type=int, default=600, help="self-play games to fit on")
    ap.add_argument("--test-games", type=int, default=100, help="games (other deals) to "
                    "judge the fit on")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2, help="processes playing the games "
                    "(the same fit for any count)")
    ap.add_argument("--iterations", type=int, help="the planner's search a move in the "
                    "fit's games (default: its record's; the checkpoint keeps its record's "
                    "for play)")
    a = ap.parse_args(argv)
    with one_line_errors():
        check_int("--games", a.games, lo=1)
        if a.iterations is not None:
            check_int("--iterations", a.iterations, lo=1)
        check_int("--test-games", a.test_games, lo=1)
        check_int("--workers", a.workers, lo=1)
        bar = Progress("playout fit self-play", a.games + a.test_games, "games")
        result = fit_checkpoint(a.checkpoint, a.games, a.test_games, a.seed, bar.update,
                                a.workers, a.iterations)
        bar.close()
    print(json.dumps({k: v for k, v in result.items() if k != "weights"}, indent=1))
    if result["used"]:
        print(f"recorded leaf=policy and {len(result['weights'])} playout weights in "
              f"{a.checkpoint}")
    else:
        print(f"the fit predicts held-out moves no better than uniform play; {a.checkpoint} "
              "keeps its planner's playout")
    return 0
