"""Where the error of the Leduc policy targets comes from, measured per information set.

    python -m research.leduc_target_error CHECKPOINT [--next NEXT_CHECKPOINT]
        [--variants network exact common] [--repeats 16] [--json FILE] [--markdown FILE]

For a trained network (its policy ``P`` played by both seats, chance exact)
`research.leduc_exact` gives per information set ``I`` the exact on-policy
action values ``q*(I, a)`` (returns units, chips / 13), the exact mirror step
from them (magnet: the one the checkpoint recorded, which its next iteration's
targets use; ``--magnet``: another network's; none: ``P``) and how often self-play
reaches ``I`` (its reach under the step, the law moves are drawn from).

The search self-play runs (`isz.selfplay.search_roots`: the same belief, search
settings and mirror target; the defaults are `RECIPE`'s) is run ``--repeats``
times at every set (``--round1-factor`` times more in round 1, which has few
sets), which separates the bias of its root q from its variance. Variants:
``network`` (leaves valued by the value head, as in training), ``exact`` (the
exact on-policy value of each evaluated view: what is left is the search's own
error), ``common`` (``common_worlds``: every root move searched in the same
worlds). Reported by round and by reach quartile within the round: the value
head's error, q's bias (corrected for the noise of the mean) and standard
deviation, the squared distance of P to the step (the signal), one target's
squared error to the step split into bias² and variance, an iteration's mean
target's (Poisson(games x reach) targets; a set with none keeps P), and with
``--next`` the next iteration's network's. Exploitability (NashConv / 2, chips)
of P, the step, and policies made of targets shows what each error costs;
``iteration_every_card``: as if every card of each visited public state were
searched.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import numpy as np

from isz.agents.network import NetworkEvaluator
from isz.evaluation.exploitability import exploitability
from isz.fs import write_atomic
from isz.nn.checkpoint import load_model
from isz.search.evaluator import make_search_belief
from isz.search.puct_driver import PUCTConfig
from isz.selfplay import SelfPlayConfig, root_worlds, search_roots
from isz.types import IszError
from research.leduc_exact import (
    Exact,
    ExactValueEvaluator,
    exact_tables,
    load_leduc,
    net_policy,
    recorded_magnet,
)

VARIANTS = ("network", "exact", "common")
RECIPE = "leduc_nash_magnet"  # the defaults below are its search settings


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


def per_set(ex: Exact, idx, q, targets, games: int, seed: int, draws: int = 8,
            public: bool = False) -> dict:
    """Errors at the sets ``idx``, each float64[n]. Squared biases are corrected for
    the noise of a mean over R searches (``mean^2 - var / R``: unbiased, may be < 0).
    ``public``: an iteration searches every hand of a visited public state
    (``selfplay.all_hands``), so a set's targets follow its public state's reach."""
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
    it_err = sum(((iteration_target(ex, idx, targets, games, rng, public) - step) ** 2)
                 .sum(axis=1) for _ in range(draws)) / draws
    reach = ex.public_reach if public else ex.step_reach
    return {"bias": np.nanmean(bias2, axis=1), "sd": np.nanmean(var, axis=1),
            "centred_sd": c_var,
            "step_sq": ((ex.probs[idx] - step) ** 2).sum(axis=1),
            "target_sq": t_bias2 + t_var, "target_bias2": t_bias2, "target_var": t_var,
            "iteration_sq": it_err, "kl": _kl(step[:, None], targets).mean(axis=1),
            "targets": games * reach[idx]}


COLUMNS = [  # (key, header, format)
    ("sets", "sets", "{:d}"), ("reach", "reach (P)", "{}"), ("targets", "targets / it", "{:.1f}"),
    ("unseen", "no target / it", "{:.0%}"), ("value_err", "value head err", "{:.3f}"),
    ("bias", "q bias", "{:.3f}"), ("sd", "q sd", "{:.3f}"),
    ("centred_sd", "centred q sd", "{:.3f}"), ("step_sq", "step² (signal)", "{:.4f}"),
    ("target_sq", "target err²", "{:.4f}"), ("target_bias2", "of it bias²", "{:.4f}"),
    ("target_var", "of it var", "{:.4f}"), ("iteration_sq", "iteration err²", "{:.4f}"),
    ("next_sq", "next net err²", "{:.4f}"), ("next_dot", "next net moved", "{:.2f}"),
    ("kl", "target KL", "{:.4f}"), ("value_rms", "value target err", "{:.3f}"),
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
    """Rows and exploitabilities of one search variant (one search's targets and an
    iteration's: the mean over 4 draws)."""
    t0 = time.perf_counter()
    ev = ExactValueEvaluator(net, ex.view_value) if variant == "exact" else net
    k, n_act = ex.probs.shape
    sets = {key: np.zeros(k) for key in extra}
    pol = {"mean_target": np.zeros((k, n_act))}
    draws = {name: [np.zeros((k, n_act)) for _ in range(4)]
             for name in ("one_search", "iteration_target", "iteration_every_card")}
    rng = np.random.default_rng(a.seed)
    for st in (1, 2):  # round 1 has few sets: more searches each
        idx = np.flatnonzero(ex.street == st)
        reps = a.repeats * (a.round1_factor if st == 1 else 1)
        q, targets = sample_searches(game, ev, net, selfplay_config(a, variant), ex, rho, idx,
                                     reps, a.seed + st)
        for key, v in per_set(ex, idx, q, targets, a.games, a.seed,
                              public=a.all_hands).items():
            sets.setdefault(key, np.zeros(k))[idx] = v
        pol["mean_target"][idx] = targets.mean(axis=1)
        for r, p in enumerate(draws["one_search"]):
            p[idx] = targets[:, r % reps]
        for name in ("iteration_target", "iteration_every_card"):
            for p in draws[name]:
                p[idx] = iteration_target(ex, idx, targets, a.games, rng,
                                          public=a.all_hands or name != "iteration_target")
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
    game, net = load_leduc(a.checkpoint)

    def policy_of(path):
        return net_policy(NetworkEvaluator(load_model(path, game)[0], "cpu"))
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
                                      "alpha", "repeats", "round1_factor", "games", "seed",
                                      "all_hands")}
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
    ap.add_argument("--all-hands", action="store_true", help="model an iteration with "
                    "selfplay.all_hands: every hand of a visited public state searched")
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
