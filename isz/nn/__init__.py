"""Networks and checkpoints (the only layer besides agents/training that imports torch)."""

from isz.nn.checkpoint import load_checkpoint, load_model, save_checkpoint
from isz.nn.device import autocast_context, resolve_device
from isz.nn.model import MASKED_LOGIT, ModelConfig, PolicyValueNet, build_model

__all__ = [
    "MASKED_LOGIT", "ModelConfig", "PolicyValueNet", "autocast_context", "build_model",
    "load_checkpoint", "load_model", "resolve_device", "save_checkpoint",
]
