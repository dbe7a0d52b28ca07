"""PROTOTYPE: a compact world tensor for the tricks family (absolute seats).

Per seat p: current hand C | bid one-hot H+2 (none, 0..H) | tricks won one-hot H+1 |
the card p played in the current trick C; then trump suit one-hot S+1 (last: none) |
seat to move P.
"""

import numba as nb

from isz.games import tricks_kernel as K


def size(game) -> int:
    kp = game.kparams
    n, h, c, s = int(kp[K.K_P]), int(kp[K.K_H]), int(kp[K.K_C]), int(kp[K.K_S])
    return n * (2 * c + 2 * h + 3) + s + 1 + n


@nb.njit(cache=True)
def world_tensor(s, kp, out):
    out[:] = 0.0
    n, h, c, ns = kp[K.K_P], kp[K.K_H], kp[K.K_C], kp[K.K_S]
    per = 2 * c + 2 * h + 3
    for p in range(n):
        base = p * per
        hand = s[K.HAND + p]
        for card in range(c):
            if (hand >> card) & 1:
                out[base + card] = 1.0
        out[base + c + s[K.BID + p] + 1] = 1.0
        out[base + c + h + 2 + s[K.WON + p]] = 1.0
    pos = s[K.POS]
    for i in range(pos):
        k = s[K.NPLAYED] - pos + i
        t = k // n
        seat = s[kp[K.K_TLEAD] + t] + (k - t * n)
        if seat >= n:
            seat -= n
        out[seat * per + c + 2 * h + 3 + s[K.PLAYS + k]] = 1.0
    tb = n * per
    out[tb + (s[K.TSUIT] if s[K.TSUIT] >= 0 else ns)] = 1.0
    if s[K.PHASE] == K.PH_BID or s[K.PHASE] == K.PH_PLAY:
        out[tb + ns + 1 + s[K.TURN]] = 1.0


@nb.njit(cache=True)
def features(states, kp, out):
    for b in range(states.shape[0]):
        world_tensor(states[b], kp, out[b])
