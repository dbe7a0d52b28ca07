"""ReconGame (seed 001): a recon satellite hunts a hidden adversary on a ring.

``slots`` slots on a ring (default 8). Player 0 is the recon, player 1 the
adversary. Chance first places the adversary uniformly (only the adversary sees
where). The recon starts at slot ``start`` (0) with ``fuel`` (4). Players then
alternate, recon first, for ``turns`` (10) player actions in all. Actions share
one space of 4: 0 hold, 1 observe (recon only), 2 left (slot - 1), 3 right
(slot + 1); a recon move costs 1 fuel and is legal only with fuel left. At the
end the recon scores +1 if the ring distance to the adversary is <= 1, else -1;
the adversary gets the negation.

Observation model: the recon's position, fuel and actions are public. Adversary
moves are seen only by the adversary (the recon perceives token -1).

Detection model (what a belief filter updates on): an ``observe`` is followed by
a chance node, the sensor. With ``d`` the ring distance between recon and
adversary at that moment, the sensor detects with probability ``sensor[d]``
(default ``(0.95, 0.8, 0.3)`` for d = 0, 1, 2; 0 beyond the tuple). Outcomes:
0 = nothing, ``1 + x`` = detected at slot ``x``; a detection always reads the
exact adversary slot, so it pins the adversary there, while "nothing" has
likelihood ``1 - sensor[d(x)]`` for each slot ``x``. Zero-probability outcomes
are not listed. Only the recon sees the outcome (the adversary perceives -1).
Probabilities are stored in ``kparams`` in parts per 10**9 (exact for up to 9
decimals).

Uniform resampling (`redeterminize`): for the recon, the adversary trajectory
is drawn from the posterior of a uniformly random adversary (uniform start,
each move uniform over hold/left/right) given the sensor outcomes: a forward
filter over the slots, then backward sampling (no rejection). For the
adversary, the hidden sensor outcomes are redrawn from the sensor model.

State array (int64[6 + 2T], T = turns): ``s[0]`` adversary start (-1 = not
placed), ``s[1]`` adversary slot, ``s[2]`` recon slot, ``s[3]`` fuel, ``s[4]``
player actions so far t, ``s[5]`` 1 while a sensor reading is pending,
``s[6:6+T]`` the action of each turn, ``s[6+T:6+2T]`` the sensor outcome of each
observe turn (-1 elsewhere).

kparams (int64): ``[slots, turns, fuel, start, len(sensor), sensor ppb...]``.

View data: recon ``(placed 0/1, t, pending, own actions..., sensor outcomes...)``;
adversary ``(start slot or -1, t, pending, all actions in order...)``.

Tensor (float32[N], S = slots, F = fuel): role one-hot (2), recon slot one-hot
(S), fuel one-hot (F + 1), t one-hot (T + 1), per turn an action one-hot (4T;
recon: its own turns only, adversary: all), per turn a sensor outcome one-hot
(T(S + 1), recon only), adversary slot at each time 0..T (S(T + 1), adversary
only). N = 2 + S + F + 1 + T + 1 + 4T + T(S + 1) + S(T + 1).
"""

from __future__ import annotations

import math

import numba as nb
import numpy as np

from isz.games.base import Game, State, View
from isz.games.kernel import Kernel
from isz.games.recon_rules import (  # noqa: F401  (re-exported for beliefs and tests)
    _NAMES,
    _PPB,
    ADVERSARY,
    HOLD,
    LEFT,
    OBSERVE,
    RECON,
    RIGHT,
    _apply_action,
    _chance_outcomes,
    _current_player,
    _detect_ppb,
    _dist,
    _legal_actions,
    _observe,
    _returns,
    info_tensor,
    ring_step,
    sensor_likelihood,
)
from isz.games.registry import register
from isz.rng import rand_float
from isz.types import CHANCE, IszError, check_int


@nb.njit(cache=True)
def pick_index(rng, w, k, det):
    """Index < k drawn proportionally to w (det: the first positive one); -1 if none."""
    total = 0.0
    for i in range(k):
        total += w[i]
    if total <= 0.0:
        return -1
    u = 0.0 if det else rand_float(rng) * total
    acc = 0.0
    for i in range(k):
        acc += w[i]
        if w[i] > 0.0 and u < acc:
            return i
    for i in range(k - 1, -1, -1):  # float round-off: the last positive weight
        if w[i] > 0.0:
            return i
    return -1


@nb.njit(cache=True)
def _resample_adversary(s, params, rng, det, out):
    """The recon's resampler: an adversary trajectory given the sensor outcomes."""
    out[:] = s
    if s[0] < 0:
        return
    n, turns = params[0], params[1]
    t = s[4]
    alpha = np.empty((t + 1, n))
    alpha[0, :] = 1.0 / n
    r = params[3]
    for i in range(t):
        a = s[6 + i]
        if i % 2 == RECON:
            o = s[6 + turns + i]
            if a == OBSERVE and o >= 0 and not (s[5] == 1 and i == t - 1):
                tot = 0.0
                for x in range(n):
                    alpha[i, x] *= sensor_likelihood(params, o, x, r)
                    tot += alpha[i, x]
                if tot <= 0.0:
                    return  # inconsistent observations: leave the state as is
                alpha[i, :] /= tot
            alpha[i + 1, :] = alpha[i, :]
            r = ring_step(r, a, n)
        else:
            for x in range(n):
                alpha[i + 1, x] = (alpha[i, (x + n - 1) % n] + alpha[i, x]
                                   + alpha[i, (x + 1) % n]) / 3.0
    x = pick_index(rng, alpha[t], n, det)
    out[1] = x
    cand = np.empty(3, dtype=np.int64)
    w = np.empty(3)
    for i in range(t - 1, -1, -1):
        if i % 2 == ADVERSARY:
            # predecessors of x: held at x, moved left from x + 1, moved right from x - 1
            cand[0] = x
            cand[1] = (x + 1) % n
            cand[2] = (x + n - 1) % n
            for j in range(3):
                w[j] = alpha[i, cand[j]]
            j = pick_index(rng, w, 3, det)
            out[6 + i] = (HOLD, LEFT, RIGHT)[j]
            x = cand[j]
    out[0] = x


@nb.njit(cache=True)
def _resample_sensor(s, params, rng, det, out):
    """The adversary's resampler: the recon's hidden sensor outcomes."""
    out[:] = s
    if s[0] < 0:
        return
    n, turns = params[0], params[1]
    t = s[4]
    x = s[0]
    r = params[3]
    for i in range(t):
        a = s[6 + i]
        if i % 2 == RECON:
            if a == OBSERVE and not (s[5] == 1 and i == t - 1):
                ppb = _detect_ppb(params, _dist(x, r, n))
                if det:
                    hit = ppb == _PPB
                else:
                    hit = rand_float(rng) < ppb / 1e9
                out[6 + turns + i] = 1 + x if hit else 0
            r = ring_step(r, a, n)
        else:
            x = ring_step(x, a, n)


@nb.njit(cache=True)
def _redeterminize(s, params, player, rng, out):
    if player == RECON:
        _resample_adversary(s, params, rng, False, out)
    else:
        _resample_sensor(s, params, rng, False, out)


@nb.njit(cache=True)
def _canonical(s, params, player, out):
    """Deterministic counterpart of `_redeterminize` (lowest slot, holds first)."""
    rng = np.zeros(1, dtype=np.uint64)
    if player == RECON:
        _resample_adversary(s, params, rng, True, out)
    else:
        _resample_sensor(s, params, rng, True, out)


KERNEL = Kernel(_current_player, _legal_actions, _chance_outcomes, _apply_action,
                _returns, _observe, info_tensor, _redeterminize)


def _check_sensor(value, slots: int) -> tuple[float, ...]:
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise IszError(f"sensor must be a sequence of probabilities, got {value!r}")
    probs = tuple(value)
    if len(probs) > slots // 2 + 1:
        raise IszError(f"sensor {value!r} has {len(probs)} entries; at most "
                       f"{slots // 2 + 1} (one per ring distance 0..{slots // 2})")
    for p in probs:
        if isinstance(p, bool) or not isinstance(p, (int, float, np.integer, np.floating)) \
                or not math.isfinite(p) or not 0.0 <= p <= 1.0:
            raise IszError(f"sensor probability {p!r} in {value!r} must be a number in [0, 1]")
    return tuple(float(p) for p in probs)


@register
class Recon(Game):
    """Two-player zero-sum ReconGame with explicit sensor chance."""

    name = "recon"
    PARAMS = {"slots": 8, "turns": 10, "fuel": 4, "start": 0, "sensor": (0.95, 0.8, 0.3)}

    def __init__(self, **params):
        super().__init__(**params)
        p = self.params
        n = check_int("slots", p["slots"], 3, 64)
        turns = check_int("turns", p["turns"], 1, 128)
        fuel = check_int("fuel", p["fuel"], 0, 128)
        start = check_int("start", p["start"], 0, n - 1)
        sensor = _check_sensor(p["sensor"], n)
        self.params = {"slots": n, "turns": turns, "fuel": fuel, "start": start,
                       "sensor": sensor}
        self.num_players = 2
        self.num_actions = 4
        self.max_chance_outcomes = n + 1
        self.state_size = 6 + 2 * turns
        self.tensor_shape = (2 + n + fuel + 1 + turns + 1 + 4 * turns
                             + turns * (n + 1) + n * (turns + 1),)
        self.max_game_length = 1 + turns + (turns + 1) // 2
        self.kernel = KERNEL
        ppb = [round(x * _PPB) for x in sensor]
        self.kparams = np.array([n, turns, fuel, start, len(sensor), *ppb], dtype=np.int64)

    def initial_data(self) -> np.ndarray:
        turns = self.params["turns"]
        s = np.full(6 + 2 * turns, -1, dtype=np.int64)
        s[1:6] = (-1, self.params["start"], self.params["fuel"], 0, 0)
        return s

    def view_data(self, state: State, player: int) -> tuple:
        s = state.data
        turns = self.params["turns"]
        t = int(s[4])
        acts = s[6:6 + t].tolist()
        if player == ADVERSARY:
            return (int(s[0]), t, int(s[5]), *acts)
        sens = [o for o in s[6 + turns:6 + turns + t].tolist() if o >= 0]
        return (int(s[0] >= 0), t, int(s[5]), *acts[::2], *sens)

    def state_from_view(self, view: View) -> State:
        first, t, pending, *rest = view.data
        if view.player == ADVERSARY:
            placed, start = first >= 0, first
            acts, sens = rest, []
        else:
            placed, start = first == 1, 0
            n_own = (t + 1) // 2
            acts = [rest[i // 2] if i % 2 == RECON else HOLD for i in range(t)]
            sens = rest[n_own:]
        s = self.initial_data()
        apply, kp = self.kernel.apply_action, self.kparams
        if placed:
            apply(s, kp, start)
        k = 0
        for i, a in enumerate(acts):
            apply(s, kp, a)
            if s[5] == 1 and not (pending and i == t - 1):
                # placeholder reading; `_canonical` replaces the hidden part below
                apply(s, kp, sens[k] if k < len(sens) else 0)
                k += 1
        out = np.empty_like(s)
        _canonical(s, kp, view.player, out)
        return State(self, out)

    def action_to_string(self, action: int, player: int) -> str:
        if player == CHANCE:
            sensed = "nothing" if action == 0 else f"detected at {action - 1}"
            return f"chance {action} (start slot {action} / sensor {sensed})"
        return _NAMES[action]

    def describe(self, state: State) -> str:
        s = state.data
        turns = self.params["turns"]
        adv = "?" if s[0] < 0 else f"{s[1]} (start {s[0]})"
        parts = []
        for i in range(int(s[4])):
            part = ("R:" if i % 2 == RECON else "A:") + _NAMES[s[6 + i]]
            o = s[6 + turns + i]
            if o >= 0:
                part += "(nothing)" if o == 0 else f"(detected {o - 1})"
            parts.append(part)
        return (f"t {s[4]}/{turns} recon {s[2]} fuel {s[3]} adversary {adv}"
                f"{' sensing' if s[5] else ''}: {' '.join(parts) or '-'}")
