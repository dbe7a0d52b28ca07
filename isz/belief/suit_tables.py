"""Exact uniform deals under trick-taking constraints, through suit-length assignments.

A table ``t`` (int[R, S], see `isz.belief.tricks_constraints`) stands for
``D(t) = prod_s counts[s]! / prod_r t[r, s]!`` deals: each suit's unknown
cards are split among the rows in the table's counts. Drawing ``t`` with
probability ``D(t) / sum D`` and then splitting every suit uniformly gives
every consistent deal the same probability: exact uniform sampling.

Where no revealed void binds, every split of the unseen cards into the rows'
sizes is consistent, and a draw is one shuffle (no tables). Otherwise two
exact table samplers, same distribution:

- enumeration (default): every feasible table with its weight, built row by
  row (the last row, the stock, is what is left) and cached; a draw is a
  binary search in the cumulative weights. Small for oh_hell (<= 286^2).
- dynamic programming, when the enumeration would pass ``max_tables`` (four
  seats with a stock: up to ~10^7 tables): ``g[r, c]`` sums the weights of the
  completions of rows ``r..R-1`` given the still unassigned suit counts ``c``
  (mixed-radix code), and rows are drawn one by one from their conditional.
"""

from __future__ import annotations

import itertools
import math

import numba as nb
import numpy as np

from isz.belief.tricks_constraints import Constraints
from isz.rng import rand_float, shuffle_prefix

_CHUNK = 1 << 22  # cells of a (partial tables x row compositions) comparison at a time


def compositions(total: int, bound: np.ndarray, allow: np.ndarray) -> np.ndarray:
    """int64[M, S]: every ``t`` with ``sum t == total``, ``t <= bound``, ``t == 0``
    where not ``allow``."""
    ranges = [range(min(int(b), total) + 1) if a else range(1) for b, a in zip(bound, allow,
                                                                              strict=True)]
    out = [t for t in itertools.product(*ranges) if sum(t) == total]
    return np.array(out, dtype=np.int64).reshape(-1, len(bound))


def _log_weights(c: Constraints, tables: np.ndarray) -> np.ndarray:
    """log D(t) for tables int[T, R, S]."""
    lf = np.array([math.lgamma(k + 1) for k in range(max(len(c.unknown), 1) + 1)])
    return lf[c.counts].sum() - lf[tables].sum(axis=(1, 2))


def enumerate_tables(c: Constraints, cap: int) -> np.ndarray | None:
    """Every feasible table, int8[T, R, S]; None as soon as more than ``cap`` (partial)
    tables or more than ``cap * 16`` comparisons would be needed."""
    rows, su = c.void.shape
    live = [r for r in range(rows) if c.sizes[r] > 0]  # empty rows stay all zero
    tabs = np.zeros((1, rows, su), dtype=np.int8)
    rem = c.counts[None].copy()
    for r in live[:-1]:  # the last live row (the stock, mostly) takes what is left
        comp = compositions(int(c.sizes[r]), c.counts, ~c.void[r])
        if len(rem) * len(comp) > cap * 16:
            return None
        step = max(1, _CHUNK // max(len(comp), 1))
        ks, ms = [], []
        for lo in range(0, len(rem), step):
            k, m = np.nonzero((comp[None] <= rem[lo:lo + step, None]).all(-1))
            ks.append(k + lo)
            ms.append(m)
            if sum(map(len, ks)) > cap:
                return None
        k, m = np.concatenate(ks), np.concatenate(ms)
        tabs = tabs[k]
        tabs[:, r] = comp[m]
        rem = rem[k] - comp[m]
    if live:
        ok = ~(rem[:, c.void[live[-1]]] > 0).any(axis=1)
        tabs, rem = tabs[ok], rem[ok]
        tabs[:, live[-1]] = rem
    return tabs


@nb.njit(cache=True)
def _deal(table, unknown, suit_start, rng, buf, masks):
    """masks[r] <- a uniform split of every suit's unknown cards, table[r, s] to row r."""
    masks[:] = 0
    for s in range(suit_start.shape[0] - 1):
        n = suit_start[s + 1] - suit_start[s]
        buf[:n] = unknown[suit_start[s]:suit_start[s + 1]]
        shuffle_prefix(rng, buf, n)
        k = 0
        for r in range(table.shape[0]):
            for _ in range(table[r, s]):
                masks[r] |= np.int64(1) << buf[k]
                k += 1


@nb.njit(cache=True)
def _draw_enumerated(tables, cum, unknown, suit_start, rng, out):
    """out[k] <- a deal: table by binary search in cum (normalised cumulative weights)."""
    buf = np.empty(unknown.shape[0] + 1, dtype=np.int64)
    for k in range(out.shape[0]):
        i = min(np.searchsorted(cum, rand_float(rng), side="right"), cum.shape[0] - 1)
        _deal(tables[i], unknown, suit_start, rng, buf, out[k])


@nb.njit(cache=True)
def _dp_weights(counts, sizes, void, comps, off, inv_fact, stride):
    """g[r, code(c)]: summed weights of completing rows r.. with suit counts c left."""
    rows, su = void.shape
    size = stride[su]
    g = np.zeros((rows, size))
    c = np.zeros(su, dtype=np.int64)
    for r in range(rows - 1, -1, -1):
        need = 0
        for q in range(r, rows):
            need += sizes[q]
        for code in range(size):
            tot = 0
            for s in range(su):
                c[s] = (code // stride[s]) % (counts[s] + 1)
                tot += c[s]
            if tot != need:
                continue
            if r == rows - 1:
                w = 1.0
                for s in range(su):
                    w = 0.0 if void[r, s] and c[s] > 0 else w * inv_fact[c[s]]
                g[r, code] = w
                continue
            acc = 0.0
            for j in range(off[r], off[r + 1]):
                w, sub = 1.0, code
                for s in range(su):
                    if comps[j, s] > c[s]:
                        w = 0.0
                        break
                    w *= inv_fact[comps[j, s]]
                    sub -= comps[j, s] * stride[s]
                if w > 0.0:
                    acc += w * g[r + 1, sub]
            g[r, code] = acc
    return g


@nb.njit(cache=True)
def _draw_dp(g, comps, off, inv_fact, stride, counts, unknown, suit_start, rng, out):
    """out[k] <- a deal: rows drawn one by one from their DP conditional, then split."""
    rows, su = g.shape[0], counts.shape[0]
    table = np.zeros((rows, su), dtype=np.int64)
    buf = np.empty(unknown.shape[0] + 1, dtype=np.int64)
    w = np.empty(comps.shape[0])
    for k in range(out.shape[0]):
        code = 0
        for s in range(su):
            code += counts[s] * stride[s]
        for r in range(rows - 1):
            tot = 0.0
            for j in range(off[r], off[r + 1]):
                x, sub = 1.0, code
                for s in range(su):
                    x *= inv_fact[comps[j, s]]
                    sub -= comps[j, s] * stride[s]
                    if comps[j, s] > (code // stride[s]) % (counts[s] + 1):
                        x = 0.0
                        break
                w[j] = x * g[r + 1, sub] if x > 0.0 else 0.0
                tot += w[j]
            u, j = rand_float(rng) * tot, -1
            for i in range(off[r], off[r + 1]):
                if w[i] > 0.0:  # the last positive one catches rounding at the top
                    j = i
                    if u < w[i]:
                        break
                    u -= w[i]
            for s in range(su):
                table[r, s] = comps[j, s]
                code -= comps[j, s] * stride[s]
        for s in range(su):
            table[rows - 1, s] = (code // stride[s]) % (counts[s] + 1)
        _deal(table, unknown, suit_start, rng, buf, out[k])


@nb.njit(cache=True)
def _draw_free(unknown, sizes, rng, out):
    """out[k] <- a uniform split of ``unknown`` into rows of ``sizes`` (no constraint)."""
    buf = unknown.copy()
    for k in range(out.shape[0]):
        shuffle_prefix(rng, buf, buf.shape[0])
        i = 0
        for r in range(sizes.shape[0]):
            for _ in range(sizes[r]):
                out[k, r] |= np.int64(1) << buf[i]
                i += 1


class TableSampler:
    """Exact uniform deals for one constraint set: a shuffle where no void binds (unless
    ``shuffle`` is False, for comparison), else enumeration, or DP past ``max_tables``.

    Attributes:
        free: no revealed void binds (the shuffle path: no tables).
        tables: int8[T, R, S] every feasible table (None on the shuffle and DP paths).
        probs: float64[T], P(table) = D(t) / sum D (None on the shuffle and DP paths).
        log_count: log of the number of consistent deals.
    """

    def __init__(self, c: Constraints, max_tables: int, shuffle: bool = True):
        self.c = c
        self.free = shuffle and c.num_voids() == 0
        if self.free:  # m! / prod_r sizes_r! deals, all of them consistent
            self.tables = self.probs = None
            self.log_count = math.lgamma(len(c.unknown) + 1) - sum(
                math.lgamma(int(k) + 1) for k in c.sizes)
            return
        self.tables = enumerate_tables(c, max_tables)
        if self.tables is not None:
            logw = _log_weights(c, self.tables.astype(np.int64))
            top = logw.max()
            w = np.exp(logw - top)
            self.log_count = float(top + np.log(w.sum()))
            self.probs = w / w.sum()
            self._cum = np.cumsum(self.probs)
            return
        self.probs = None
        rows = c.rows
        comps = [compositions(int(c.sizes[r]), c.counts, ~c.void[r]) for r in range(rows - 1)]
        self._off = np.cumsum([0] + [len(x) for x in comps]).astype(np.int64)
        self._comps = np.concatenate(comps)
        self._stride = np.cumprod(np.concatenate([[1], c.counts + 1])).astype(np.int64)
        self._inv = np.array([1.0 / math.factorial(k) for k in range(len(c.unknown) + 1)])
        self._g = _dp_weights(c.counts, c.sizes, c.void, self._comps, self._off, self._inv,
                              self._stride)
        top = int(np.dot(c.counts, self._stride[:-1]))
        self.log_count = float(np.log(self._g[0, top])
                               + sum(math.lgamma(k + 1) for k in c.counts))

    @property
    def enumerated(self) -> bool:
        return self.tables is not None

    def draw(self, n: int, rng: np.ndarray) -> np.ndarray:
        """``n`` deals int64[n, R] (a card mask per row) with the kernel RNG ``rng``."""
        c = self.c
        out = np.zeros((n, c.rows), dtype=np.int64)
        if self.free:
            _draw_free(c.unknown, c.sizes, rng, out)
        elif self.tables is not None:
            _draw_enumerated(self.tables, self._cum, c.unknown, c.suit_start, rng, out)
        else:
            _draw_dp(self._g, self._comps, self._off, self._inv, self._stride, c.counts,
                     c.unknown, c.suit_start, rng, out)
        return out
