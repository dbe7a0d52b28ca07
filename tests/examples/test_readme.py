"""README.md's Python example runs as written.

Its ```python blocks are run in order in one namespace, from an empty folder that
holds what ``make train`` would have left there (a tricks checkpoint at
``runs/tricks/checkpoints/last.pt``; untrained here: the example only loads it and
asks it for a move). Other blocks (```bash, ```text, ...) are commands and output,
not run.
"""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import isz
from isz.nn.checkpoint import save_checkpoint
from isz.nn.model import ModelConfig, build_model

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


def _python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```$", README.read_text(), flags=re.S | re.M)


def test_readme_python_blocks_run(tmp_path, monkeypatch):
    blocks = _python_blocks()
    assert len(blocks) >= 2, "the README's Python example went missing"
    game = isz.make_game("tricks")
    cfg = ModelConfig(width=16, depth=1)
    save_checkpoint(tmp_path / "runs" / "tricks" / "checkpoints" / "last.pt",
                    model=build_model(game, cfg), game=game, model_cfg=cfg)
    monkeypatch.chdir(tmp_path)
    ns: dict = {"__name__": "readme"}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], str(README), "exec"), ns)
        # the deal was played to its end
        assert ns["state"].is_terminal() and ns["state"].game is ns["game"]
        for code in blocks[1:]:
            exec(compile(code, str(README), "exec"), ns)
    text = out.getvalue()
    assert re.search(r"returns \[[-0-9., ]+\]", text)  # every seat's result printed
    # the match table names the three seats' agents
    for name in ("so_ismcts", "pimc", "random"):
        assert re.search(rf"^\s*\d+\s+{name}\s+0\.\d{{3}}", text, flags=re.M), name
    # the loaded planner moved legally, from its seat's view
    view = ns["view"]
    assert ns["move"] in view.legal_actions
    assert text.rstrip().endswith(ns["planner"].game.action_to_string(ns["move"], view.player))
