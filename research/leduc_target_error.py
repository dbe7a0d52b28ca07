"""Where the error of the Leduc policy targets comes from, measured per information set.

    python -m research.leduc_target_error CHECKPOINT [--repeats 16] [--variants network exact]
        [--json docs/results/nash/leduc_target_error.json] [--markdown out.md]

For a trained network (its policy ``P`` played by both seats, chance exact) the
game tree gives, per information set ``I`` of the acting seat: the exact
on-policy action values ``q*(I, a)`` (returns units, chips / 13: the histories of
``I`` weighted by chance and the other seat's reach, as the posterior belief
weighs worlds), the exact mirror step ``softmax((log P + eta q* + alpha eta log
rho) / (1 + alpha eta))`` (``rho``: the magnet the checkpoint recorded, which its
next iteration's targets use; ``--magnet``: another network's; none: ``P``), and
how often ``I`` is reached in self-play (its reach under the exact step, the law
moves are drawn from, times the games of an iteration).

Then the search self-play runs (`isz.selfplay.search_roots`: the same belief,
search settings and mirror target) is run ``repeats`` times at every
information set, which separates the bias of its root q from its variance. The
variants: ``network`` (leaves valued by the value head, as in training),
``exact`` (leaves valued by the exact on-policy value of the evaluated view,
priors still the network's: what is left is the search's own error),
``common`` (as ``network``, with ``common_worlds``: every root move searched in
the same worlds). Reported by street and by reach quartile: q bias and
standard deviation (raw, and centred over the legal moves, which is all the
mirror step reads), the policy target's KL from the exact step and L1 to it
(a single search; its mean over searches, the bias part), the targets an
iteration gets, and the L1 of an iteration's mean target with that many draws
(an information set with no draw keeps ``P``). Exploitability (NashConv / 2,
chips) of ``P``, of the exact step, and of the per-set targets shows what each
error costs.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import time
import warnings

import numpy as np

from isz.agents.network import NetworkEvaluator
from isz.evaluation.exploitability import exploitability
from isz.fs import write_atomic
from isz.games.base import State
from isz.games.histories import enumerate_histories
from isz.nn import ModelConfig, build_model
from isz.nn.checkpoint import checkpoint_game, load_checkpoint, load_model
from isz.search.evaluator import make_search_belief
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, root_worlds, search_roots
from isz.types import CHANCE, TERMINAL, IszError

VARIANTS = ("network", "exact", "common")
RECIPE = "leduc_nash_magnet"  # the defaults below are its search settings


@dataclasses.dataclass
class Exact:
    """Exact on-policy quantities, one row per decision information set (K of them).

    views: the K views; probs, q, step: float64[K, A] (P, q*, the exact mirror
    step; 0 off the legal moves); legal: bool[K, A]; value: float64[K] (V* of
    the actor's view); reach, step_reach: float64[K] (probability a game
    reaches I when both seats play P / the step); public_reach: float64[K] (the
    step's probability of reaching I's public state, I's seat to act, whatever its
    card: how often I would be searched if every card of a visited public state
    were); street: int64[K] (1 or 2);
    view_value: tensor bytes -> (seat, V* of that seat's view) for every view
    seen at a decision (the actor's and the other seat's).
    """

    views: list
    probs: np.ndarray
    legal: np.ndarray
    q: np.ndarray
    step: np.ndarray
    value: np.ndarray
    reach: np.ndarray
    step_reach: np.ndarray
    public_reach: np.ndarray
    street: np.ndarray
    view_value: dict


def mirror_step(probs, q, legal, eta: float, alpha: float, rho) -> np.ndarray:
    """The mirror target of `isz.search.puct_driver.PUCTBatch.mirror_policy` from
    given q: float64[K, A], rows over ``legal``."""
    z = np.log(np.maximum(probs, 1e-12)) + eta * q + alpha * eta * np.log(np.maximum(rho, 1e-12))
    z = np.where(legal, z / (1 + alpha * eta), -np.inf)
    w = np.exp(z - z.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True)


def _walk(game, table, info, probs):
    """(reach of every row for all seats, reach without seat p [n, P], value [n, P])."""
    n, players = len(table.player), game.num_players
    edge = np.ones((n, players))  # weight of the edge into row r for each seat's reach-without
    full = np.ones(n)
    for r in range(1, n):
        par = table.parent[r]
        actor = table.player[par]
        w = table.prob[r] if actor == CHANCE else probs[info[par], table.action[r]]
        full[r] = full[par] * w
        edge[r] = w
        if actor >= 0:
            edge[r, actor] = 1.0
    minus = np.ones((n, players))
    for r in range(1, n):
        minus[r] = minus[table.parent[r]] * edge[r]
    value = np.zeros((n, players))
    for r in range(n - 1, -1, -1):  # children after parents: a row is final when reached
        if table.player[r] == TERMINAL:
            value[r] = State(game, table.states[r].copy()).returns()
        if r > 0:
            par = table.parent[r]
            actor = table.player[par]
            w = table.prob[r] if actor == CHANCE else probs[info[par], table.action[r]]
            value[par] += w * value[r]
    return full, minus, value


def exact_tables(game, policy, eta: float, alpha: float, magnet=None) -> Exact:
    """`Exact` for ``policy(views) -> float64[K, A]`` (a batch; ``magnet`` likewise,
    None: the policy itself)."""
    table = enumerate_histories(game, 200_000)
    n = len(table.player)
    info = np.full(n, -1, np.int64)
    ids: dict[tuple, int] = {}
    views, other = [], {}
    for r in range(n):
        p = int(table.player[r])
        if p < 0:
            continue
        state = State(game, table.states[r].copy())
        for seat in range(game.num_players):
            v = state.view(seat)
            if seat == p:
                info[r] = ids.setdefault(v.key, len(ids))
                if info[r] == len(views):
                    views.append(v)
            other.setdefault(v.key, v)
    legal = np.zeros((len(views), game.num_actions), bool)
    for i, v in enumerate(views):
        legal[i, list(v.legal_actions)] = True
    probs = np.where(legal, policy(views), 0.0)
    full, minus, value = _walk(game, table, info, probs)
    num_q, den = np.zeros(legal.shape), np.zeros(len(views))
    reach = np.zeros(len(views))
    vnum: dict[tuple, float] = {}
    vden: dict[tuple, float] = {}
    for r in range(n):
        p = int(table.player[r])
        if p >= 0:
            state = State(game, table.states[r].copy())
            for seat in range(game.num_players):
                k = (seat, game.view_data(state, seat))
                vnum[k] = vnum.get(k, 0.0) + minus[r, seat] * value[r, seat]
                vden[k] = vden.get(k, 0.0) + minus[r, seat]
            den[info[r]] += minus[r, p]
            reach[info[r]] += full[r]
        par = table.parent[r]
        if r > 0 and table.player[par] >= 0:
            actor = table.player[par]
            num_q[info[par], table.action[r]] += minus[par, actor] * value[r, actor]
    q = np.where(legal, num_q / np.maximum(den, 1e-300)[:, None], 0.0)
    rho = probs if magnet is None else np.where(legal, magnet(views), 0.0)
    step = mirror_step(probs, q, legal, eta, alpha, rho)
    step_reach, _, _ = _walk(game, table, info, step)
    sreach = np.zeros(len(views))
    np.add.at(sreach, info[info >= 0], step_reach[info >= 0])
    vv = {k: vnum[k] / vden[k] for k in vnum if vden[k] > 0}
    view_value = {v.tensor().astype(np.float32).tobytes(): (v.player, vv[key])
                  for key, v in other.items() if key in vv}
    value_i = np.array([vv[v.key] for v in views])
    street = np.array([2 if v.data[2] >= 0 else 1 for v in views])  # Leduc: public card
    public: dict[tuple, list[int]] = {}  # Leduc: the view's data without the own card
    for i, v in enumerate(views):
        public.setdefault((v.player, v.data[1:]), []).append(i)
    preach = np.zeros(len(views))
    for members in public.values():
        preach[members] = sreach[members].sum()
    return Exact(views, probs, legal, q, step, value_i, reach, sreach, preach, street,
                 view_value)


class ExactValueEvaluator:
    """The network's priors with exact on-policy values (`Exact.view_value`), so that
    a search's remaining error is its own; 2-player zero sum."""

    def __init__(self, net: NetworkEvaluator, view_value: dict):
        self.net, self.view_value = net, view_value

    def evaluate(self, tensors: np.ndarray, masks: np.ndarray):
        priors, _ = self.net.evaluate(tensors, masks)
        values = np.zeros((len(tensors), 2), np.float32)
        for i, t in enumerate(np.asarray(tensors, np.float32)):
            seat, v = self.view_value[t.tobytes()]
            values[i, seat], values[i, 1 - seat] = v, -v
        return priors, values


def net_policy(net: NetworkEvaluator):
    """``policy(views) -> float64[K, A]``: the network's policy head on a batch of views."""
    def policy(views):
        x = np.stack([v.tensor().reshape(-1) for v in views]).astype(np.float32)
        m = np.zeros((len(views), views[0].game.num_actions), bool)
        for i, v in enumerate(views):
            m[i, list(v.legal_actions)] = True
        return net.evaluate(x, m)[0].astype(np.float64)
    return policy


def recorded_magnet(path, game):
    """``policy(views)`` of the magnet a training checkpoint recorded (the snapshot its
    next iteration's targets use, ``search.magnet=network``), or None."""
    ckpt = load_checkpoint(path, game)
    rec = (ckpt.get("extra") or {}).get("magnet")
    if rec is None:
        return None
    model = build_model(game, ModelConfig.from_dict(ckpt["model_config"]))
    model.load_state_dict(rec["state"])
    return net_policy(NetworkEvaluator(model.eval(), "cpu"))


def sample_searches(game, evaluator, belief_eval, cfg: SelfPlayConfig, ex: Exact, rho,
                    idx: np.ndarray, repeats: int, seed: int, chunk: int = 512):
    """Root q and mirror targets of ``repeats`` searches at the information sets
    ``idx`` (n of them): (q float64[n, R, A], nan off the visited moves; targets
    float64[n, R, A])."""
    q = np.full((len(idx), repeats, ex.probs.shape[1]), np.nan)
    targets = np.zeros(q.shape)
    belief = make_search_belief(cfg.belief, game, belief_eval, cfg.belief_policy)
    jobs = [(j, r) for r in range(repeats) for j in range(len(idx))]
    rng = np.random.default_rng(seed)
    for lo in range(0, len(jobs), chunk):
        part = jobs[lo:lo + chunk]
        views = [ex.views[idx[j]] for j, _ in part]
        worlds = np.stack([root_worlds(cfg, v, lambda n, v=v: belief.sample_many(v, n, rng))
                           for v in views])
        batch = search_roots(game, evaluator, cfg, views, worlds, rng)
        for b, (j, r) in enumerate(part):
            for act, (n, mean) in batch.root_stats(b).items():
                q[j, r, act] = 2.0 * mean - 1.0 if n else np.nan
            targets[j, r] = batch.target_policy(b, cfg.target, cfg.mirror_eta,
                                                cfg.mirror_alpha, rho[idx[j]])
    return q, targets


def _kl(p, q):
    """KL(p || q) over the last axis (0 log 0 = 0)."""
    return np.sum(np.where(p > 0, p * (np.log(np.maximum(p, 1e-300)) -
                                       np.log(np.maximum(q, 1e-12))), 0.0), axis=-1)


def iteration_target(ex: Exact, idx, targets, games: int, rng, public: bool = False):
    """An iteration's mean target at the sets ``idx``: the mean of Poisson(games x
    reach under the step) of the searches' targets; a set drawn 0 times keeps P.
    ``public``: the public state's reach instead (every card of it searched)."""
    c = rng.poisson(games * (ex.public_reach if public else ex.step_reach)[idx])
    return np.array([ex.probs[i] if c[j] == 0 else
                     targets[j, rng.integers(targets.shape[1], size=c[j])].mean(axis=0)
                     for j, i in enumerate(idx)])


def per_set(ex: Exact, idx, q, targets, games: int, seed: int, draws: int = 8) -> dict:
    """Errors at the sets ``idx``, each float64[n]. Squared biases are corrected for
    the noise of a mean over R searches (``mean^2 - var / R``: unbiased, may be < 0)."""
    r, legal, step = q.shape[1], ex.legal[idx], ex.step[idx]
    qs = np.where(legal[:, None, :], q, np.nan)
    with warnings.catch_warnings():  # illegal moves: all-nan columns, nan on purpose
        warnings.simplefilter("ignore", RuntimeWarning)
        var = np.nanvar(qs, axis=1, ddof=1)  # [n, A]
        bias2 = (np.nanmean(qs, axis=1) - np.where(legal, ex.q[idx], np.nan)) ** 2 - var / r
        centred = qs - np.nanmean(qs, axis=2, keepdims=True)
        c_var = np.nanmean(np.nanvar(centred, axis=1, ddof=1), axis=1)
    t_var = targets.var(axis=1, ddof=1).sum(axis=1)
    t_bias2 = ((targets.mean(axis=1) - step) ** 2).sum(axis=1) - t_var / r
    rng = np.random.default_rng(seed)
    it_err = sum(((iteration_target(ex, idx, targets, games, rng) - step) ** 2).sum(axis=1)
                 for _ in range(draws)) / draws
    return {"bias": np.nanmean(bias2, axis=1), "sd": np.nanmean(var, axis=1),
            "centred_sd": c_var,
            "step_sq": ((ex.probs[idx] - step) ** 2).sum(axis=1),
            "target_sq": t_bias2 + t_var, "target_bias2": t_bias2, "target_var": t_var,
            "iteration_sq": it_err, "kl": _kl(step[:, None], targets).mean(axis=1),
            "targets": games * ex.step_reach[idx]}


COLUMNS = [  # (key, header, format)
    ("sets", "sets", "{:d}"), ("reach", "reach (P)", "{}"), ("targets", "targets / it", "{:.1f}"),
    ("unseen", "no target / it", "{:.0%}"), ("value_err", "value head err", "{:.3f}"),
    ("bias", "q bias", "{:.3f}"), ("sd", "q sd", "{:.3f}"),
    ("centred_sd", "centred q sd", "{:.3f}"), ("step_sq", "step² (signal)", "{:.4f}"),
    ("target_sq", "target err²", "{:.4f}"), ("target_bias2", "of it bias²", "{:.4f}"),
    ("target_var", "of it var", "{:.4f}"), ("iteration_sq", "iteration err²", "{:.4f}"),
    ("next_sq", "next net err²", "{:.4f}"), ("next_dot", "next net moved", "{:.2f}"),
    ("kl", "target KL", "{:.4f}"),
]
ROOTS = ("value_err", "bias", "sd", "centred_sd")  # root of the mean square over the sets


def groups(ex: Exact) -> list[tuple[str, np.ndarray]]:
    """(name, bool[K]) per street x reach quartile within the street (reach under P),
    then per street, then all."""
    out = []
    for st in (1, 2):
        edges = np.quantile(ex.reach[ex.street == st], [0.25, 0.5, 0.75])
        quart = np.searchsorted(edges, ex.reach, side="right")
        out += [(f"round {st}, reach Q{k + 1}", (ex.street == st) & (quart == k))
                for k in range(4)]
        out.append((f"round {st}, all", ex.street == st))
    return out + [("all", np.ones(len(ex.views), bool))]


def summarise(ex: Exact, sets: dict) -> list[dict]:
    """One row per group of `groups`: means over its sets (of the squares, then the
    root, for the value error and q's bias and sd)."""
    rows = []
    for name, m in groups(ex):
        row = {"group": name, "sets": int(m.sum()),
               "reach": f"{ex.reach[m].min():.1e}-{ex.reach[m].max():.1e}",
               "unseen": float(np.mean(np.exp(-sets["targets"][m])))}
        for key, v in sets.items():
            row[key] = float(np.mean(v[m] ** 2 if key == "value_err" else v[m]))
            if key in ROOTS:
                row[key] = float(np.sqrt(max(row[key], 0.0)))
        if "next_dot" in row:  # the share of the exact step the next network took
            row["next_dot"] /= max(row["step_sq"], 1e-300)
        rows.append(row)
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as a markdown table (the columns of `COLUMNS` that rows have)."""
    cols = [c for c in COLUMNS if c[0] in rows[0]]
    out = ["| group | " + " | ".join(h for _, h, _ in cols) + " |",
           "|---|" + "---|" * len(cols)]
    out += [f"| {r['group']} | " + " | ".join(f.format(r[k]) for k, _, f in cols) + " |"
            for r in rows]
    return "\n".join(out)


def selfplay_config(a, variant: str = "network") -> SelfPlayConfig:
    """The self-play search of the recipe (`RECIPE`) with the command's values;
    ``common``: with common_worlds."""
    puct = PUCTConfig(opponents="evaluate", dirichlet_eps=0.0, root_selection="uniform")
    return SelfPlayConfig(simulations=a.simulations, belief="posterior", target="mirror",
                          mirror_eta=a.eta, mirror_alpha=a.alpha, puct=puct,
                          common_worlds=variant == "common")


def _variant(a, game, net, ex: Exact, rho, variant: str, extra: dict) -> dict:
    """Rows and exploitabilities of one search variant (an iteration's targets: the
    mean over 4 draws of the iteration)."""
    t0 = time.perf_counter()
    ev = ExactValueEvaluator(net, ex.view_value) if variant == "exact" else net
    k, n_act = ex.probs.shape
    sets = {key: np.zeros(k) for key in extra}
    pol = {name: np.zeros((k, n_act)) for name in ("mean_target", "one_search")}
    draws = {name: [np.zeros((k, n_act)) for _ in range(4)]
             for name in ("iteration_target", "iteration_every_card")}
    rng = np.random.default_rng(a.seed)
    for st in (1, 2):  # round 1 has few sets: more searches each
        idx = np.flatnonzero(ex.street == st)
        reps = a.repeats * (a.round1_factor if st == 1 else 1)
        q, targets = sample_searches(game, ev, net, selfplay_config(a, variant), ex, rho, idx,
                                     reps, a.seed + st)
        for key, v in per_set(ex, idx, q, targets, a.games, a.seed).items():
            sets.setdefault(key, np.zeros(k))[idx] = v
        pol["mean_target"][idx], pol["one_search"][idx] = targets.mean(axis=1), targets[:, 0]
        for name, d in draws.items():
            for p in d:
                p[idx] = iteration_target(ex, idx, targets, a.games, rng,
                                          public=name == "iteration_every_card")
    sets.update(extra)
    index = {v.key: i for i, v in enumerate(ex.views)}

    def e(p):
        return exploitability(game, lambda v: p[index[v.key]]).exploitability
    ex_of = {"network": e(ex.probs), "exact_step": e(ex.step)}
    ex_of.update({name: e(p) for name, p in pol.items()})
    ex_of.update({name: float(np.mean([e(p) for p in d])) for name, d in draws.items()})
    if a.next_probs is not None:
        ex_of["next_network"] = e(a.next_probs)
    return {"rows": summarise(ex, sets), "exploitability": ex_of,
            "seconds": round(time.perf_counter() - t0, 1)}


def measure(a) -> dict:
    """Everything the report holds, for the command's arguments ``a``."""
    t0 = time.perf_counter()
    game = checkpoint_game(load_checkpoint(a.checkpoint))
    if game.name != "leduc_poker":
        raise IszError(f"{a.checkpoint}: a {game.name} checkpoint; this tool reads Leduc "
                       "(its streets are Leduc's)")

    def policy_of(path):
        return net_policy(NetworkEvaluator(load_model(path, game)[0], "cpu"))
    net = NetworkEvaluator(load_model(a.checkpoint, game)[0], "cpu")
    magnet, a.magnet_used = recorded_magnet(a.checkpoint, game), "recorded"
    if a.magnet:
        magnet, a.magnet_used = policy_of(a.magnet), a.magnet
    elif magnet is None:
        a.magnet_used = "the network"
    ex = exact_tables(game, net_policy(net), a.eta, a.alpha, magnet)
    rho = ex.probs if magnet is None else np.where(ex.legal, magnet(ex.views), 0.0)
    x = np.stack([v.tensor().reshape(-1) for v in ex.views]).astype(np.float32)
    v_net = net.evaluate(x, ex.legal)[1][np.arange(len(x)), [v.player for v in ex.views]]
    extra = {"value_err": v_net - ex.value}
    a.next_probs = np.where(ex.legal, policy_of(a.next)(ex.views), 0.0) if a.next else None
    if a.next:  # the next network's move m = P' - P against the exact step d = step - P
        dot = ((a.next_probs - ex.probs) * (ex.step - ex.probs)).sum(axis=1)
        extra.update({"next_sq": ((a.next_probs - ex.step) ** 2).sum(axis=1), "next_dot": dot})
    out = {k: getattr(a, k) for k in ("checkpoint", "next", "magnet_used", "simulations", "eta",
                                      "alpha", "repeats", "round1_factor", "games", "seed")}
    out["variants"] = {}
    for variant in a.variants:
        out["variants"][variant] = v = _variant(a, game, net, ex, rho, variant, extra)
        print(f"{variant}: {v['exploitability']} ({v['seconds']} s)", flush=True)
    out["seconds"] = round(time.perf_counter() - t0, 1)
    return out


def report(out: dict) -> str:
    """Markdown: one table per variant, with its exploitability line."""
    return "\n\n".join(
        f"**{name}** ({out['simulations']} simulations, {out['repeats']} searches per set, "
        f"{out['repeats'] * out['round1_factor']} in round 1): exploitability "
        + ", ".join(f"{k} {x:.4f}" for k, x in v["exploitability"].items())
        + "\n\n" + markdown(v["rows"]) for name, v in out["variants"].items()) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("checkpoint")
    ap.add_argument("--next", help="the next iteration's checkpoint: how far its policy is "
                                   "from this one's exact step")
    ap.add_argument("--magnet", help="checkpoint whose policy is the magnet (default: the "
                                     "one the checkpoint recorded, else the network's own)")
    ap.add_argument("--simulations", type=int, default=128)
    ap.add_argument("--eta", type=float, default=5.0)
    ap.add_argument("--alpha", type=float, default=0.05)
    ap.add_argument("--games", type=int, default=2048, help="self-play games per iteration")
    ap.add_argument("--repeats", type=int, default=16, help="searches per information set")
    ap.add_argument("--round1-factor", type=int, default=8, help="x repeats in round 1")
    ap.add_argument("--variants", nargs="+", default=["network", "exact"], choices=VARIANTS)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json")
    ap.add_argument("--markdown")
    a = ap.parse_args(argv)
    try:
        if min(a.repeats, a.simulations, a.round1_factor * a.repeats) < 2:
            raise IszError(f"--repeats and --simulations must be >= 2, got {a.repeats}, "
                           f"{a.simulations}")
        out = measure(a)
    except IszError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    text = report(out)
    print(text)
    for path, body in ((a.json, json.dumps(out, indent=1)), (a.markdown, text)):
        if path:
            write_atomic(path, lambda f, body=body: f.write(body))
    return 0


if __name__ == "__main__":
    sys.exit(main())
