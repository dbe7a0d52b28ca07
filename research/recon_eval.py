"""A trained recon planner against planner variants and rollout search, per seat.

    python -m research.recon_eval runs/recon_hard/checkpoints/last.pt --opponent so_ismcts \\
        --deals 1000 --iterations 32
    python -m research.recon_eval CKPT --opponent pimc --seconds 0.02   # equal time per move

Agent A is the checkpoint's planner as trained (its belief: for recon_hard the particle
filter whose adversary plays the network; ``--belief-policy uniform``: a random
walker). Opponents: ``planner_uniform`` (the same planner, its filter's adversary a
random walker), ``so_ismcts``, ``pimc`` (rollout search; their belief is the game's
exact posterior of a random-walk adversary). ``--iterations`` gives every agent that
many simulations; ``--seconds`` instead gives every agent that time per move
(``time_budget``). Prints the match table and each agent's score in each seat with
its SE (seat 0 = recon, seat 1 = adversary) and seconds and simulations per decision;
writes JSON to ``--output``. ``--filter-diagnostics``: at every recon decision (either
agent's) the arena's hook, which sees the true state, asks a network-driven and a
uniform-motion copy of A's filter for the probability of the adversary's true slot
and counts the distinct worlds in 256 draws of each (the agents never see it), scores
the last recon move each filter's marginal makes best against the true slot, and logs
the adversary's actual moves under the raw network's law on its true view (log-likelihood
under uniform, the network, its mixtures with uniform and temperatures; split by the
agent that moved). ``--policy-mix`` / ``--policy-temperature``: A's filter with a robust
motion model (belief knobs ``policy_mix`` / ``policy_temperature``); the diagnostics then
add a copy of it (``own``). ``--adversary-iterations N``: both agents search N
simulations in the adversary seat (the recon seat keeps its budget).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from isz import IszError, load_planner, make_agent
from isz.agents.base import Agent
from isz.cli import key_values
from isz.evaluation import match
from isz.evaluation.seats import seat_rows
from isz.fs import write_json_atomic
from isz.types import check_choice, check_int

OPPONENTS = ("planner", "planner_uniform", "so_ismcts", "pimc")
DIAG_WORLDS = 256  # worlds drawn per filter and recon decision to count distinct ones


def _budget(args) -> dict:
    if args.seconds is not None:
        if args.seconds <= 0:
            raise IszError(f"--seconds must be > 0, got {args.seconds}")
        return {"time_budget": args.seconds, "iterations": None}
    return {"iterations": check_int("--iterations", args.iterations, lo=1)}


def _agent_a(args, budget: dict, game=None):
    """The checkpoint's planner (A) with ``budget``; its filter as the flags say."""
    mine = {} if args.belief_policy is None else {"belief_policy": args.belief_policy}
    mine.update(key_values(args.planner_knob, "--planner-knob"))
    a = load_planner(args.checkpoint, game, device="cpu", **budget, **mine)
    robust = {k: v for k, v in (("policy_mix", args.policy_mix),
                                ("policy_temperature", args.policy_temperature),
                                ("particles", args.particles)) if v is not None}
    if robust or args.exact:  # A's filter changed (isz/belief/particle.py, recon_policy.py)
        from isz.search.evaluator import belief_spec

        name, knobs = belief_spec(a.knobs["belief"])
        spec = {"name": name, **knobs, **robust}
        if args.exact:  # the exact filter under the same motion model
            spec = {"name": "bayes", **{k: v for k, v in spec.items()
                                        if k in ("policy_mix", "policy_temperature")}}
        a = load_planner(args.checkpoint, a.game, device="cpu", **budget, **mine, belief=spec)
    return a


def _agent_b(args, budget: dict, game):
    if args.opponent.startswith("planner"):
        policy = "uniform" if args.opponent == "planner_uniform" else "network"
        return load_planner(args.checkpoint, game, device="cpu", belief_policy=policy, **budget)
    return make_agent(args.opponent, game, **budget)


class BySeat(Agent):
    """Two agents as one: ``recon`` moves as player 0, ``adversary`` as player 1 (for
    budgets per seat); other attributes (``knobs``, ``evaluator``) are the recon's."""

    def __init__(self, recon, adversary):
        super().__init__(recon.game)
        self.name, self.parts, self._last = recon.name, (recon, adversary), recon

    def __getattr__(self, attr):
        if attr in ("parts", "_last"):
            raise AttributeError(attr)
        return getattr(self.parts[0], attr)

    @property
    def last_simulations(self):
        return getattr(self._last, "last_simulations", 0)

    def reset(self) -> None:
        for p in self.parts:
            p.reset()

    def act(self, view, rng):
        self._last = self.parts[view.player]
        return self._last.act(view, rng)


def build(args):
    """(game, [A, B]); with ``--adversary-iterations`` each is a `BySeat` whose
    adversary seat searches that many simulations."""
    budget = _budget(args)
    import torch

    # one core per decision for every agent (as isz-evaluate): equal cost
    torch.set_num_threads(1)
    a = _agent_a(args, budget)
    b = _agent_b(args, budget, a.game)
    if args.adversary_iterations is not None:
        adv = {"iterations": check_int("--adversary-iterations", args.adversary_iterations,
                                       lo=1)}
        if args.opponent.startswith("planner"):
            adv["time_budget"] = None
        a = BySeat(a, _agent_a(args, adv, a.game))
        b = BySeat(b, _agent_b(args, adv, a.game))
    return a.game, [a, b]


MIXES = (0.1, 0.2, 0.3, 0.5, 0.7)  # motion-model grid of the diagnostics' move likelihoods
TEMPERATURES = (0.5, 1.5, 2.0, 3.0)


def _filters(planner, game) -> dict:
    """Copies of ``planner``'s recon filter: ``network`` (the raw policy), ``uniform``
    (random walker) and, when the planner's own filter is robust (policy_mix /
    policy_temperature), ``own``."""
    from isz.search.evaluator import belief_spec, make_search_belief

    name, knobs = belief_spec(planner.knobs["belief"])
    raw = {k: v for k, v in knobs.items() if k not in ("policy_mix", "policy_temperature")}
    out = {p: make_search_belief({"name": name, **raw}, game, planner.evaluator, p)
           for p in ("network", "uniform")}
    if raw != knobs:
        out["own"] = make_search_belief({"name": name, **knobs}, game, planner.evaluator)
    if not all(hasattr(b, "marginal") for b in out.values()):
        raise IszError(f"--filter-diagnostics needs a recon filter (particle or bayes), "
                       f"the planner's belief is {planner.knobs['belief']!r}")
    return out


def move_likelihoods(moves: list) -> dict:
    """Mean log-likelihood of the adversary's actual moves (``moves``: (turn, float[3]
    raw network law on the adversary's true view, move column)) under the uniform
    walker, the raw network and its robust variants; overall and at the last move."""
    import numpy as np

    from isz.belief.recon_policy import robust_rows

    if not moves:
        return {"moves": 0}
    turn = np.array([m[0] for m in moves])
    q = np.array([m[1] for m in moves], dtype=np.float64)
    a = np.array([m[2] for m in moves])
    last = turn == turn.max()
    models = {"uniform": np.full_like(q, 1 / 3), "network": q}
    models.update({f"mix={e}": robust_rows(q, mix=e) for e in MIXES})
    models.update({f"temperature={t}": robust_rows(q, temperature=t) for t in TEMPERATURES})
    out = {"moves": len(a), "last_turn": int(turn.max()),
           "network_argmax_rate": float(np.mean(q.argmax(axis=1) == a))}
    for k, m in models.items():
        lp = np.log(np.maximum(m[np.arange(len(a)), a], 1e-300))
        out[k] = {"log_lik": float(lp.mean()), "se": float(lp.std(ddof=1) / np.sqrt(len(lp))),
                  "log_lik_last": float(lp[last].mean())}
    return out


def _last_move_wins(game, marginal, state, view) -> bool:
    """Whether the recon's last move that is best under ``marginal`` (most adversary
    mass within ring distance 1 of where it ends) wins against the true slot."""
    import numpy as np

    from isz.games.recon import ring_step

    n, r, x = game.params["slots"], int(state.data[2]), int(state.data[1])
    best, best_mass = None, -1.0
    for a in view.legal_actions:
        r2 = int(ring_step(r, a, n))
        d = np.abs(np.arange(n) - r2)
        dist = np.minimum(d, n - d)
        mass = float(marginal[dist <= 1].sum())
        if mass > best_mass + 1e-12:
            best, best_mass = r2, mass
    d = abs(x - best)
    return min(d, n - d) <= 1


def _last_move_summary(names: list, finals: list) -> dict:
    """Per filter: how often its best last move (`_last_move_wins`) wins, with SE."""
    import math

    import numpy as np

    x = np.array(finals, dtype=np.float64).reshape(-1, len(names))
    out = {"decisions": len(x)}
    for i, name in enumerate(names):
        p = float(x[:, i].mean()) if len(x) else math.nan
        out[name] = {"win": p, "se": math.sqrt(p * (1 - p) / max(len(x) - 1, 1))}
    if len(x) > 1 and "uniform" in names:
        for i, name in enumerate(names):
            if name != "uniform":
                d = x[:, i] - x[:, names.index("uniform")]
                out[f"{name}_minus_uniform"] = {"diff": float(d.mean()),
                                                "se": float(d.std(ddof=1) / math.sqrt(len(d)))}
    return out


def filter_hook(planner, game, agents=None):
    """(hook for `match`'s ``on_decision``, summary()) comparing copies of
    ``planner``'s filter (`_filters`) at every recon decision: the probability each
    gives the true adversary slot and the distinct worlds among `DIAG_WORLDS` draws;
    and, from the true state, the raw network's law of the adversary's last move
    with the move it made (`move_likelihoods`). ``summary()`` gives per filter the
    mean probability, mean log probability, mean distinct worlds and the mean
    probability at each recon turn, and per filter the mean per-game difference of
    log probabilities against ``uniform`` with its SE over games; the move
    likelihoods pooled and, given ``agents`` (A, B), split by the agent that moved
    as the adversary (``moves_by_adversary``)."""
    import math

    import numpy as np

    from isz.belief.diagnostics import true_state_probability

    filters = _filters(planner, game)
    motion = filters["network"].policy
    games: list[list[tuple]] = []
    moves: list[tuple] = []
    finals: list[list[bool]] = []
    last_t = [math.inf]

    def hook(state, seat, view, agent):
        if seat != 0:
            return
        t = int(view.data[1])
        if t <= last_t[0]:
            games.append([])
        last_t[0] = t
        if t >= 1 and (t - 1) % 2 == 1 and motion is not None:  # the adversary's last move
            s = state.data
            acts = s[6:6 + game.params["turns"]].copy()
            probs, _ = motion.rows(t - 1, acts, s[:1].copy(), acts[None].copy())
            col = {0: 0, 2: 1, 3: 2}[int(acts[t - 1])]  # hold, left, right
            who = "?" if agents is None else "AB"[1 - [a is agent for a in agents].index(True)]
            moves.append((t - 1, probs[0].tolist(), col, who))
        if t == game.params["turns"] - 1:  # the recon's last move decides the game
            finals.append([_last_move_wins(game, b.marginal(view), state, view)
                           for b in filters.values()])
        row = [t]
        for b in filters.values():
            worlds = b.sample_many(view, DIAG_WORLDS, np.random.default_rng(0))
            row += [true_state_probability(b, view, state), len({w.tobytes() for w in worlds})]
        games[-1].append(tuple(row))

    def summary() -> dict:
        k = len(filters)
        x = np.array([r for g in games for r in g], dtype=np.float64).reshape(-1, 1 + 2 * k)
        out = {"decisions": len(x), "games": len(games), "moves": move_likelihoods(moves),
               "moves_by_adversary": {w: move_likelihoods([m for m in moves if m[3] == w])
                                      for w in sorted({m[3] for m in moves})},
               "last_move": _last_move_summary(list(filters), finals)}
        turns = sorted({int(t) for t in x[:, 0]})
        for i, name in enumerate(filters):
            p = x[:, 1 + 2 * i]
            out[name] = {"p_true": float(p.mean()) if len(x) else math.nan,
                         "log_p_true": float(np.log(np.maximum(p, 1e-12)).mean())
                         if len(x) else math.nan,
                         "distinct_worlds": float(x[:, 2 + 2 * i].mean()) if len(x) else math.nan,
                         "p_true_by_turn": {t: float(p[x[:, 0] == t].mean()) for t in turns}}
        for i, name in enumerate(filters):
            if name == "uniform":
                continue
            d = np.array([np.mean([math.log(max(r[1 + 2 * i], 1e-12)) - math.log(max(r[3], 1e-12))
                                   for r in g]) for g in games if g])
            tag = "" if name == "network" else f"_{name}"
            out[f"log_p_diff{tag}"] = float(d.mean()) if len(d) else math.nan
            out[f"log_p_diff{tag}_se"] = float(d.std(ddof=1) / math.sqrt(len(d))) \
                if len(d) > 1 else math.nan
        return out

    return hook, summary


def _print_diagnostics(diag: dict) -> None:
    for name in ("network", "uniform", "own"):
        if name in diag:
            f = diag[name]
            by_turn = " ".join(f"{t}:{p:.3f}" for t, p in f["p_true_by_turn"].items())
            print(f"{name} filter: P(true slot) {f['p_true']:.4f}, mean log "
                  f"{f['log_p_true']:.4f}, {f['distinct_worlds']:.1f} distinct worlds of "
                  f"{DIAG_WORLDS}; by recon turn {by_turn}")
    for tag in ("", "_own"):
        if f"log_p_diff{tag}" in diag:
            print(f"log P(true) {tag[1:] or 'network'} - uniform: {diag['log_p_diff' + tag]:+.4f}"
                  f" ± {diag['log_p_diff' + tag + '_se']:.4f} ({diag['decisions']} recon "
                  f"decisions, {diag['games']} games)")
    last = diag["last_move"]
    print(f"the best last move under each filter ({last['decisions']} games) wins: " + ", ".join(
        f"{k} {v['win']:.3f} ± {v['se']:.3f}" for k, v in last.items() if isinstance(v, dict)
        and "win" in v) + "".join(f"; {k} {v['diff']:+.3f} ± {v['se']:.3f}"
                                 for k, v in last.items() if isinstance(v, dict) and "diff" in v))
    for who, mv in [("both", diag["moves"]), *diag["moves_by_adversary"].items()]:
        _print_moves(who, mv)


def _print_moves(who: str, mv: dict) -> None:
    if mv["moves"]:
        print(f"adversary {who}'s moves ({mv['moves']}; the raw network's argmax in "
              f"{mv['network_argmax_rate']:.3f}): mean log-likelihood, all / last move (turn "
              f"{mv['last_turn']})")
        for k, v in mv.items():
            if isinstance(v, dict):
                print(f"  {k:16s} {v['log_lik']:+.4f} ± {v['se']:.4f} / {v['log_lik_last']:+.4f}")


def parser() -> argparse.ArgumentParser:
    """The command line of `main` (`build` takes what it parses)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--opponent", default="so_ismcts", help=", ".join(OPPONENTS))
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=32)
    ap.add_argument("--seconds", type=float, default=None, help="time per move (equal time)")
    ap.add_argument("--belief-policy", default=None, choices=("network", "uniform"),
                    help="agent A's filter: the network's adversary or a random walker "
                         "(default: as trained)")
    ap.add_argument("--policy-mix", type=float, default=None,
                    help="A's filter: blend the network's adversary with the uniform walker "
                         "(belief knob policy_mix, 0-1; default: as trained)")
    ap.add_argument("--policy-temperature", type=float, default=None,
                    help="A's filter: temperature of the network's adversary (belief knob "
                         "policy_temperature > 0; default: as trained)")
    ap.add_argument("--particles", type=int, default=None,
                    help="A's filter: this many particles (default: as trained)")
    ap.add_argument("--exact", action="store_true",
                    help="A's filter: the exact Bayes filter (bayes) under the same motion model")
    ap.add_argument("--adversary-iterations", type=int, default=None,
                    help="both agents search this many simulations as the adversary (the "
                         "recon seat keeps --iterations / --seconds): budgets per seat")
    ap.add_argument("--planner-knob", action="append", default=None, metavar="KEY=VALUE",
                    help="a knob of A's planner, e.g. expand_after=16 or leaf_mix=1 "
                         "(repeatable; as puct_ismcts takes them)")
    ap.add_argument("--output", default=None, help="JSON file (written atomically)")
    ap.add_argument("--filter-diagnostics", action="store_true",
                    help="at every recon decision: the true slot's probability under a "
                         "network-driven and a uniform-motion copy of A's filter")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    try:
        check_choice("--opponent", args.opponent, OPPONENTS)
        game, agents = build(args)
        hook, summary = filter_hook(agents[0], game, agents) if args.filter_diagnostics \
            else (None, None)
        res = match(game, agents, check_int("--deals", args.deals, lo=1),
                    check_int("--seed", args.seed, lo=0), progress=False, on_decision=hook)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    rows = seat_rows(res)
    print(res.table())
    for i, row in enumerate(rows):
        seats = "  ".join(f"seat {s}: {x['score']:.3f} ± {x['se']:.3f}"
                          for s, x in enumerate(row["seats"]))
        print(f"{'AB'[i]} {row['name']}: {seats}  ({row['seconds_per_decision'] * 1e3:.1f} "
              f"ms and {row['simulations_per_decision']:.0f} simulations a decision)")
    payload = {"config": vars(args), "seats": rows, "result": res.to_dict()}
    if summary is not None:
        payload["filter_diagnostics"] = diag = summary()
        _print_diagnostics(diag)
    if args.output:
        write_json_atomic(Path(args.output), payload)
    return 0


if __name__ == "__main__":
    sys.exit(main())
