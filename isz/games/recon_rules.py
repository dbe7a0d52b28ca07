"""ReconGame rules as numba kernels (the game, its models and layouts: `isz.games.recon`).

Public for the recon beliefs (`isz.belief.particle`, `isz.belief.recon_kernels`,
`isz.belief.recon_policy`), which replay the same rules on their particles:
`ring_step` (a move on the ring), `sensor_likelihood` (the sensor model) and
`info_tensor` (a player's information-state tensor). The rest is the game's kernel.
"""

from __future__ import annotations

import numba as nb

from isz.types import CHANCE, TERMINAL

HOLD, OBSERVE, LEFT, RIGHT = 0, 1, 2, 3
RECON, ADVERSARY = 0, 1
_NAMES = ("hold", "observe", "left", "right")
_PPB = 1_000_000_000


@nb.njit(cache=True)
def _dist(a, b, n):
    d = abs(a - b)
    return min(d, n - d)


@nb.njit(cache=True)
def ring_step(x, a, n):
    """The slot after move ``a`` from slot ``x`` on a ring of ``n`` slots (LEFT: x - 1,
    RIGHT: x + 1, modulo n; HOLD and OBSERVE stay)."""
    if a == LEFT:
        return (x + n - 1) % n
    if a == RIGHT:
        return (x + 1) % n
    return x


@nb.njit(cache=True)
def _detect_ppb(params, d):
    return params[5 + d] if d < params[4] else 0


@nb.njit(cache=True)
def sensor_likelihood(params, outcome, x, r):
    """P(sensor outcome | adversary at x, recon at r)."""
    p = _detect_ppb(params, _dist(x, r, params[0])) / 1e9
    if outcome == 0:
        return 1.0 - p
    return p if x == outcome - 1 else 0.0


@nb.njit(cache=True)
def _current_player(s, params):
    if s[0] < 0 or s[5] == 1:
        return CHANCE
    if s[4] >= params[1]:
        return TERMINAL
    return s[4] % 2


@nb.njit(cache=True)
def _legal_actions(s, params, out):
    if s[4] % 2 == RECON:
        out[0] = HOLD
        out[1] = OBSERVE
        if s[3] > 0:
            out[2] = LEFT
            out[3] = RIGHT
            return 4
        return 2
    out[0] = HOLD
    out[1] = LEFT
    out[2] = RIGHT
    return 3


@nb.njit(cache=True)
def _chance_outcomes(s, params, out_a, out_p):
    if s[0] < 0:
        n = params[0]
        for x in range(n):
            out_a[x] = x
            out_p[x] = 1.0 / n
        return n
    ppb = _detect_ppb(params, _dist(s[1], s[2], params[0]))
    if ppb == 0 or ppb == _PPB:
        out_a[0] = 0 if ppb == 0 else 1 + s[1]
        out_p[0] = 1.0
        return 1
    out_a[0] = 0
    out_p[0] = 1.0 - ppb / 1e9
    out_a[1] = 1 + s[1]
    out_p[1] = ppb / 1e9
    return 2


@nb.njit(cache=True)
def _apply_action(s, params, a):
    n, turns = params[0], params[1]
    t = s[4]
    if s[0] < 0:
        s[0] = a
        s[1] = a
    elif s[5] == 1:
        s[6 + turns + t - 1] = a
        s[5] = 0
    else:
        s[6 + t] = a
        if t % 2 == RECON:
            if a == OBSERVE:
                s[5] = 1
            elif a != HOLD:
                s[2] = ring_step(s[2], a, n)
                s[3] -= 1
        else:
            s[1] = ring_step(s[1], a, n)
        s[4] = t + 1


@nb.njit(cache=True)
def _returns(s, params, out):
    v = 1.0 if _dist(s[1], s[2], params[0]) <= 1 else -1.0
    out[0] = v
    out[1] = -v


@nb.njit(cache=True)
def _observe(s, params, a, player):
    if s[0] < 0:
        return a if player == ADVERSARY else -1
    if s[5] == 1:
        return a if player == RECON else -1
    if s[4] % 2 == RECON:
        return a
    return a if player == ADVERSARY else -1


@nb.njit(cache=True)
def info_tensor(s, params, player, out):
    """Write ``player``'s information-state tensor of state ``s`` into ``out``
    (float32[tensor size]; layout: `isz.games.recon` module docstring)."""
    n, turns, fuel = params[0], params[1], params[2]
    o_pos = 2
    o_fuel = o_pos + n
    o_turn = o_fuel + fuel + 1
    o_act = o_turn + turns + 1
    o_sens = o_act + 4 * turns
    o_adv = o_sens + (n + 1) * turns
    out[:] = 0.0
    t = s[4]
    out[player] = 1.0
    out[o_pos + s[2]] = 1.0
    out[o_fuel + s[3]] = 1.0
    out[o_turn + t] = 1.0
    for i in range(t):
        if i % 2 == RECON or player == ADVERSARY:
            out[o_act + 4 * i + s[6 + i]] = 1.0
        if player == RECON and s[6 + turns + i] >= 0:
            out[o_sens + (n + 1) * i + s[6 + turns + i]] = 1.0
    if player == ADVERSARY and s[0] >= 0:
        x = s[0]
        out[o_adv + x] = 1.0
        for i in range(t):
            if i % 2 == ADVERSARY:
                x = ring_step(x, s[6 + i], n)
            out[o_adv + n * (i + 1) + x] = 1.0
