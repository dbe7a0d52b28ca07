"""Device choice and mixed precision: one place that knows about CUDA."""

from __future__ import annotations

import contextlib
import re

import torch

from isz.types import IszError


def available_devices() -> list[str]:
    """What `resolve_device` accepts on this machine."""
    out = ["auto", "cpu"]
    n = torch.cuda.device_count() if torch.cuda.is_available() else 0
    if n:
        out += ["cuda", *(f"cuda:{i}" for i in range(n))]
    return out


def resolve_device(spec: str | torch.device = "auto") -> torch.device:
    """``"auto"`` (CUDA when available, else CPU), ``"cpu"``, ``"cuda"`` or ``"cuda:N"``.

    Raises `IszError` naming the value and the devices available for anything
    else, for CUDA on a machine without it, and for a CUDA index out of range.
    """
    s = str(spec).strip().lower() if isinstance(spec, (str, torch.device)) else None
    if s == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if s == "cpu":
        return torch.device("cpu")
    if s is not None and re.fullmatch(r"cuda(:\d+)?", s):
        if not torch.cuda.is_available():
            raise IszError(f"device {spec!r} asked for, but CUDA is not available here; "
                           f"available: {', '.join(available_devices())}")
        dev = torch.device(s)
        if dev.index is not None and dev.index >= torch.cuda.device_count():
            raise IszError(f"device {spec!r} does not exist; "
                           f"available: {', '.join(available_devices())}")
        return dev
    raise IszError(f"unknown device {spec!r}; available: {', '.join(available_devices())}")


def autocast_dtype(device: torch.device) -> torch.dtype | None:
    """bf16 on CUDA that supports it, else fp16 on CUDA; None (full precision) on CPU."""
    if device.type != "cuda":
        return None
    return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16


def autocast_context(device: torch.device | str):
    """Mixed-precision context for forward passes on ``device``; a no-op on CPU.

    With fp16 (CUDA without bf16) training also needs a ``torch.amp.GradScaler``.
    """
    device = resolve_device(device) if isinstance(device, str) else device
    dtype = autocast_dtype(device)
    if dtype is None:
        return contextlib.nullcontext()
    return torch.autocast(device_type="cuda", dtype=dtype)
