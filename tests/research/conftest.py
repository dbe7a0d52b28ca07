"""The research tools run in this process: what one changes globally is put back."""

from __future__ import annotations

import pytest
import torch


@pytest.fixture(autouse=True)
def torch_threads():
    """The tools set one torch thread per decision (equal cost between agents)."""
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)
