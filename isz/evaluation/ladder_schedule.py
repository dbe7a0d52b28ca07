"""Which tables a ladder plays: each checkpoint against its predecessor, a few older
checkpoints and the baselines, not every pair.

A table is a tuple of player names, one per seat (its match rotates them over
the seats). Checkpoint ``k`` (in iteration order) meets checkpoints ``k - 1``,
``k - 2``, ``k - 4``, ... (``older`` of them beyond the predecessor) and every
baseline. With two seats each meeting is one table; with ``n > 2`` seats the
checkpoint sits with ``n - 1`` of those opponents at a time (their list cut into
groups, the last group filled up from the start of the list), so every game
ranks it against several opponents at once. The baselines also meet each other
(every pair, or tables of ``n`` of them), which ties their flat lines together
even before the first checkpoint.
"""

from __future__ import annotations

from itertools import combinations

SEP = "~"  # between the names of a table (players' names never contain it)


def opponents(checkpoints: list[str], k: int, baselines: list[str], older: int) -> list[str]:
    """The players checkpoint ``checkpoints[k]`` meets: predecessor, ``older`` older
    ones at distances 2, 4, 8, ... (as far as they exist), then the baselines."""
    near = [k - 1] + [k - 2 ** j for j in range(1, older + 1)]
    return [checkpoints[i] for i in dict.fromkeys(near) if i >= 0] + list(baselines)


def groups(items: list[str], size: int) -> list[tuple[str, ...]]:
    """``items`` cut into groups of ``size`` (the last one filled up cyclically from
    the start; a group repeats a name only when ``items`` has fewer than ``size``)."""
    if not items:
        return []
    out = []
    for start in range(0, len(items), size):
        group = items[start:start + size]
        i = 0
        while len(group) < size:
            group.append(items[i % len(items)])
            i += 1
        out.append(tuple(group))
    return out


def tables(checkpoints: list[str], baselines: list[str], seats: int,
           older: int = 2) -> list[tuple[str, ...]]:
    """Every table of the ladder, in play order: the baselines' tables first, then
    each checkpoint's (oldest first), so a ladder cut short has rated the older ones."""
    out = []
    if len(baselines) >= 2:
        out += [t for t in (combinations(baselines, 2) if seats == 2
                            else groups(list(baselines), seats))]
    for k, name in enumerate(checkpoints):
        out += [(name, *g) for g in groups(opponents(checkpoints, k, baselines, older),
                                            seats - 1)]
    return list(dict.fromkeys(out))


def table_name(table: tuple[str, ...]) -> str:
    """``it5~it4~so_ismcts``: the table's file-name stem."""
    return SEP.join(table)
