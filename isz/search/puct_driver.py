"""Python driver of batched PUCT-ISMCTS: lockstep simulation, one batch per step.

`PUCTBatch.run` advances ``B`` independent searches one simulation at a time;
each step evaluates every pending leaf in one `Evaluator` call, which is what
makes a network forward pass cheap per position (self-play runs B = 64-256).
"""

from __future__ import annotations

import numpy as np

from isz.games.base import Game
from isz.rng import new_rng
from isz.search.evaluator import Evaluator
from isz.search.playout import Scratch
from isz.search.puct import NEEDS_EVAL, PLAYOUT, LaneBuffers, PUCTKnobs, PUCTVariant, make_puct
from isz.search.tree import CHILD, LABEL, NONE, SIB, VISITS, ChildIndex, Tree
from isz.settings.search import PUCT_KERNEL
from isz.types import check_int

__all__ = ["PUCTBatch", "PUCTConfig", "puct_variant"]

# c_puct, fpu, tree, rollouts, dirichlet_alpha, dirichlet_eps, opponents, value_view,
# root_selection, leaf_mix, expand_after, below_threshold: declared in isz.settings.search
PUCTConfig = PUCT_KERNEL.dataclass("PUCTConfig", __name__, frozen=True)


def puct_variant(cfg: PUCTConfig, n_trees: int) -> PUCTVariant:
    """The compiled kernels' choices for ``cfg`` with ``n_trees`` trees a search (an
    ``mo`` tree of a one-player game is its ``so`` tree)."""
    return PUCTVariant(tree="mo" if n_trees > 1 else "so", rollouts=bool(cfg.rollouts),
                       opponents=cfg.opponents, value_view=cfg.value_view,
                       root_selection=cfg.root_selection, leaf_playout=cfg.leaf_mix > 0,
                       below_threshold=cfg.below_threshold)


class PUCTBatch:
    """``B`` searches over one game, each running ``lanes`` simulations per wave.

    ``worlds[b, k]`` is the world of search b's simulation k (int64[B, W,
    state_size]; simulations past W reuse worlds cyclically unless
    `add_worlds` supplies more). With ``lanes > 1`` the simulations of a wave
    descend the same tree one after another, spread by virtual losses, and
    their leaves are evaluated in one batch: a single decision then fills a
    network batch the way self-play's B parallel games do. With
    ``cfg.expand_after = n > 1`` a leaf's first ``n - 1`` visits are random
    playouts, backed up at once in `descend` (no evaluator row): ``playouts``
    counts them, ``evaluations`` the evaluator's rows.
    """

    def __init__(self, game: Game, cfg: PUCTConfig, worlds: np.ndarray, me: np.ndarray,
                 seed: int, lanes: int = 1):
        check_int("expand_after", cfg.expand_after, lo=1)
        self.game, self.cfg = game, cfg
        self.worlds = worlds
        self.me = np.asarray(me, dtype=np.int64)
        self.lanes = lanes
        b = len(worlds)
        n = b * lanes
        self.n_trees = game.num_players if cfg.tree == "mo" else 1
        self.descend, self.expand = make_puct(game.kernel, puct_variant(cfg, self.n_trees))
        self.knobs = PUCTKnobs(lanes, float(cfg.c_puct), float(cfg.fpu), int(cfg.expand_after),
                               float(cfg.leaf_mix))
        sims = worlds.shape[1]
        # new nodes a lane may add in one wave: its path in every tree, the leaf's
        # children; below_threshold search also adds the missing labels at each node
        # of its path (so trees, fresh_step) and children with uniform priors
        depth = game.max_game_length + 1
        self.per_step = self.n_trees * depth + game.num_actions * \
            (depth if cfg.below_threshold == "search" else 1)
        self.tree = Tree(b * (self.n_trees + 2 * sims) + self.per_step * n,
                         roots=b * self.n_trees)
        self.rng = new_rng(seed)
        self.np_rng = np.random.default_rng(seed)
        self.buf = LaneBuffers.of(n, self.n_trees, game.tensor_size, game.num_actions,
                                  game.num_players)
        self.b = Scratch.of(game)
        # the roots' child index (mo: opponents' root splits); so: one unused small row
        mo = self.n_trees > 1
        self.index = ChildIndex(np.arange(b * self.n_trees) if mo else np.zeros(1, np.int64),
                                sims + lanes if mo else 0)
        self.simulations = 0  # per search, so far
        self.evaluations = 0
        self.playouts = 0  # simulations that stopped below the expansion threshold
        self.leaf_batches: list[int] = []

    @property
    def evaluated(self) -> np.ndarray:
        """bool[capacity]: the nodes whose children have the evaluator's priors."""
        return self.tree.evaluated

    def root(self, b: int) -> int:
        """Root node of search b's own tree."""
        return b * self.n_trees + (int(self.me[b]) if self.n_trees > 1 else 0)

    def add_worlds(self, worlds: np.ndarray) -> None:
        """Append worlds int64[B, n, state_size] for later simulations."""
        self.worlds = np.concatenate([self.worlds, worlds], axis=1)

    def step(self, k: int, evaluator: Evaluator | None, active: int = 1) -> None:
        """One wave: simulations ``k .. k + active - 1`` of every search (``active <=
        lanes``): descend, evaluate the leaves in one batch, expand."""
        g, c, t, w = self.game, self.cfg, self.tree, self.buf
        t.reserve(self.per_step * len(w.status))
        if self.n_trees > 1:
            self.index.reserve(t.nodes, active)
        # compiled entries take plain tuples (isz.search.jit)
        self.descend(self.worlds, k, active, g.kparams, self.me, tuple(t.arrays),
                     tuple(self.index.arrays), tuple(w), tuple(self.b), self.rng,
                     tuple(self.knobs))
        self.simulations = k + active
        if c.expand_after > 1:
            self.playouts += int(np.count_nonzero(w.status == PLAYOUT))
        need = np.flatnonzero(w.status == NEEDS_EVAL)
        if len(need) == 0:
            return
        priors, values, my_values = self._evaluate(evaluator, need)
        if c.dirichlet_eps > 0:
            self._root_noise(need, priors)
        self.expand(priors, values, my_values, self.me, tuple(t.arrays), tuple(w),
                    tuple(self.b), tuple(self.knobs))

    def _evaluate(self, evaluator: Evaluator, need: np.ndarray):
        """One evaluator call for the pending leaves (actor views, then searcher views).

        Returns priors float32[L, A], values and my_values float32[L, P]; rows
        outside ``need`` are zero.
        """
        g, w = self.game, self.buf
        n = len(w.status)
        mine = need[w.leaf[need, 2] == 1]
        # the searcher's view is not a decision: any non-empty mask will do
        all_legal = np.ones((len(mine), g.num_actions), dtype=np.bool_)
        p, v = evaluator.evaluate(np.concatenate([w.tensors[need], w.my_tensors[mine]]),
                                  np.concatenate([w.masks[need], all_legal]))
        priors = np.zeros((n, g.num_actions), dtype=np.float32)
        values = np.zeros((n, g.num_players), dtype=np.float32)
        my_values = np.zeros((n, g.num_players), dtype=np.float32)
        priors[need], values[need] = p[:len(need)], v[:len(need)]
        my_values[mine] = v[len(need):]
        self.evaluations += len(need) + len(mine)
        self.leaf_batches.append(len(need))
        return priors, values, my_values

    def _root_noise(self, need: np.ndarray, priors: np.ndarray) -> None:
        """Dirichlet noise on the searcher's root priors when the root is expanded."""
        w = self.buf
        for lane in need:
            b = lane // self.lanes
            if w.cur[lane, w.leaf[lane, 1]] == self.root(b) and w.leaf[lane, 0] == self.me[b]:
                legal = np.flatnonzero(w.masks[lane])
                noise = self.np_rng.dirichlet([self.cfg.dirichlet_alpha] * len(legal))
                eps = self.cfg.dirichlet_eps
                priors[lane, legal] = (1 - eps) * priors[lane, legal] + eps * noise

    def run(self, evaluator: Evaluator | None, simulations: int) -> None:
        """``simulations`` more simulations of every search, in waves of ``lanes``."""
        for _ in self.waves(evaluator, simulations):
            pass

    def waves(self, evaluator: Evaluator | None, simulations: int | None = None):
        """Run waves, yielding ``(first simulation, simulations in the wave)`` after each.

        The first wave of a fresh search is one simulation (it expands the
        root, where every lane would otherwise stop); then ``lanes`` at a time.
        With ``simulations=None`` it runs until the caller stops iterating.
        """
        if evaluator is None and not self.cfg.rollouts:
            raise ValueError("PUCT without an evaluator needs rollouts=True")
        k, end = self.simulations, None if simulations is None else \
            self.simulations + simulations
        while end is None or k < end:
            active = 1 if k == 0 else self.lanes
            if end is not None:
                active = min(active, end - k)
            self.step(k, evaluator, active)
            yield k, active
            k += active

    def root_stats(self, b: int) -> dict[int, tuple[int, float]]:
        """action -> (visits, mean score) at search b's root."""
        nodes, out = self.tree.nodes, {}
        ch = int(nodes[self.root(b), CHILD])
        while ch != NONE:
            n = int(nodes[ch, VISITS])
            out[int(nodes[ch, LABEL])] = (n, self.tree.value[ch] / n if n else 0.0)
            ch = int(nodes[ch, SIB])
        return out

    def root_value(self, b: int) -> float:
        """The searcher's value of search b's root: the visit-weighted mean score of
        its root moves, mapped to [-1, 1] (``2 * score - 1``: the searching seat's
        return, the value head's sign convention); 0.0 before any visit."""
        nodes, total, visits = self.tree.nodes, 0.0, 0
        ch = int(nodes[self.root(b), CHILD])
        while ch != NONE:
            visits += int(nodes[ch, VISITS])
            total += float(self.tree.value[ch])
            ch = int(nodes[ch, SIB])
        return 2.0 * total / visits - 1.0 if visits else 0.0

    def visit_policy(self, b: int) -> np.ndarray:
        """Root visit distribution of search b: float32[num_actions] (the policy target)."""
        pi = np.zeros(self.game.num_actions, dtype=np.float32)
        for a, (n, _) in self.root_stats(b).items():
            pi[a] = n
        total = pi.sum()
        return pi / total if total > 0 else pi

    def mirror_policy(self, b: int, eta: float, alpha: float = 0.0,
                      magnet: np.ndarray | None = None) -> np.ndarray:
        """Improved policy of search b: ``softmax(log P + eta * q)`` over its root moves.

        One mirror-descent (Hedge) step from the network's prior ``P`` along
        the searched action values ``q = 2 Q - 1`` in [-1, 1] (a move never
        visited takes the root's visit-weighted mean, so it keeps its prior
        ratio). Trained on by every seat against the others' current policy,
        this is multiplicative weights per information set, whose average
        approaches a Nash equilibrium in two-player zero-sum games, where
        visit counts of a short search stall at a floor of the prior. With
        ``alpha > 0`` the step is magnetic mirror descent (Sokota et al., 2023)
        toward a magnet policy ``rho``:
        ``softmax((log P + eta * q + alpha * eta * log rho) / (1 + alpha * eta))``,
        whose last iterate converges (to the equilibrium regularised toward
        ``rho``: ``pi ~ rho * exp(q / alpha)``) instead of cycling. ``magnet``
        is ``rho`` at this root (probabilities over the action space, e.g. a
        snapshot of the network's policy, the R-NaD-style moving magnet); None
        is the uniform policy. float64[num_actions], 0 off the root's moves.
        """
        nodes, t = self.tree.nodes, self.tree
        acts, logp, q, n = [], [], [], []
        ch = int(nodes[self.root(b), CHILD])
        while ch != NONE:
            acts.append(int(nodes[ch, LABEL]))
            logp.append(np.log(max(float(t.prior[ch]), 1e-12)))
            visits = int(nodes[ch, VISITS])
            n.append(visits)
            q.append(2.0 * t.value[ch] / visits - 1.0 if visits else np.nan)
            ch = int(nodes[ch, SIB])
        pi = np.zeros(self.game.num_actions)
        if not acts:
            return pi
        q, n = np.array(q), np.array(n, dtype=np.float64)
        mean = float(np.nansum(q * n) / n.sum()) if n.sum() > 0 else 0.0
        z = np.array(logp) + eta * np.where(np.isnan(q), mean, q)
        if magnet is not None:
            rho = np.asarray(magnet, dtype=np.float64)[acts]
            if not np.all(np.isfinite(rho)) or np.any(rho < 0) or rho.sum() <= 0:
                raise ValueError(f"magnet must be probabilities over the root's moves "
                                 f"{acts}, got {rho}")
            z = z + alpha * eta * np.log(np.maximum(rho / rho.sum(), 1e-12))
        z = z / (1.0 + alpha * eta)
        w = np.exp(z - z.max())
        pi[acts] = w / w.sum()
        return pi

    def target_policy(self, b: int, target: str, eta: float, alpha: float = 0.0,
                      magnet: np.ndarray | None = None) -> np.ndarray:
        """The policy target of search b: ``visits`` or ``mirror`` (float64[num_actions];
        ``magnet``: the mirror step's magnet at this root, see `mirror_policy`)."""
        if target == "mirror":
            return self.mirror_policy(b, eta, alpha, magnet)
        return self.visit_policy(b).astype(np.float64)
