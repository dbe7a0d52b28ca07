"""Progress of a long step: a tqdm bar on a terminal, plain lines everywhere else.

`Progress(desc, total, unit)` counts work done (`update`). Where stderr is a
terminal it draws a tqdm bar; otherwise (a log file, a pipe, CI) it prints one
line to stderr at most every ``PLAIN_EVERY_S`` seconds while the step runs::

    eval vs so_ismcts: 64/200 deals (32%), 41 s, ~88 s left

and, for a step that took that long, one line when it ends. Short steps stay
silent in plain mode, so a log is not flooded; a step that would look like a
hang on a terminal never does in a log. ``ISZ_PROGRESS_EVERY_S`` sets the
interval (seconds; 0 prints every update).
"""

from __future__ import annotations

import os
import sys
import time

from tqdm import tqdm

PLAIN_EVERY_S = 10.0


def plain_every_s() -> float:
    """Seconds between plain progress lines (``ISZ_PROGRESS_EVERY_S``, default 10)."""
    try:
        return max(0.0, float(os.environ.get("ISZ_PROGRESS_EVERY_S", PLAIN_EVERY_S)))
    except ValueError:
        return PLAIN_EVERY_S


def is_terminal() -> bool:
    """Whether progress bars can be drawn (stderr is a terminal)."""
    return sys.stderr.isatty()


class Progress:
    """Counts ``total`` units of one step; a bar (terminal) or rate-limited plain lines.

    Args:
        desc: what the step is ("self-play", "eval vs pimc", ...).
        total: units of work (games, steps, deals, information states).
        unit: name of a unit, plural ("games").
        enabled: False shows nothing at all.
        position: tqdm row (0: top bar; 1: a sub-step under a top bar).
    """

    def __init__(self, desc: str, total: int, unit: str, enabled: bool = True,
                 position: int = 0):
        self.desc, self.total, self.unit = desc, int(total), unit
        self.done = 0
        self.start = self.last_line = time.perf_counter()
        self.first = None  # time of the first update: the rate is measured from there on,
        #   since a first unit can include one-off work (numba compiling the kernels)
        self.every = plain_every_s()
        self.printed = False
        self.bar = None
        self.plain = enabled and not is_terminal()
        if enabled and not self.plain:
            self.bar = tqdm(total=self.total, desc=desc, unit=unit.rstrip("s") or unit,
                            position=position, leave=position == 0, dynamic_ncols=True)

    def update(self, n: int = 1) -> None:
        if self.first is None:
            self.first = (time.perf_counter(), n)
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif self.plain and self.done < self.total:
            now = time.perf_counter()
            if now - self.last_line >= self.every:
                self._line(now)

    def _line(self, now: float) -> None:
        elapsed = now - self.start
        pct = 100.0 * self.done / max(self.total, 1)
        text = f"{self.desc}: {self.done}/{self.total} {self.unit} ({pct:.0f}%), {elapsed:.0f} s"
        t_first, n_first = self.first or (now, 0)
        if self.done > n_first and self.done < self.total:
            rate = (self.done - n_first) / max(now - t_first, 1e-9)
            text += f", ~{(self.total - self.done) / rate:.0f} s left"
        print(text, file=sys.stderr, flush=True)
        self.last_line = now
        self.printed = True

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        elif self.plain:
            now = time.perf_counter()
            if self.printed or now - self.start >= self.every:
                self._line(now)
            self.plain = False

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
