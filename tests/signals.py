"""Signals for tests that stop a command as a user would."""

from __future__ import annotations

import signal


def terminal_ctrl_c() -> None:
    """A child's ``preexec_fn``: SIGINT as at a terminal. A command started in the
    background (``&``, as CI may run this suite) inherits SIGINT ignored, and Python
    then never raises KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
