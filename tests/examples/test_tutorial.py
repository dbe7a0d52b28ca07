"""docs/adding_a_game.md runs as written.

Its ```python blocks, in order, are examples/goofspiel.py (blank lines aside); its
```py blocks and ```bash commands are run in document order, from a folder laid out
like a checkout (scripts/, conf/, examples/), with ``python`` the running
interpreter. ```sh blocks are the long runs whose figures the page reports; they
are not run here.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "adding_a_game.md"


def blocks(kind: str | None = None) -> list[tuple[str, str]]:
    """``(info string, code)`` of every fenced block (of info string ``kind``), in order."""
    found = re.findall(r"^```(\w*)\n(.*?)^```$", DOC.read_text(), flags=re.S | re.M)
    return [(k, code) for k, code in found if kind is None or k == kind]


def _code_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.strip()]


def test_python_blocks_are_the_example_file():
    page = _code_lines("\n".join(code for _, code in blocks("python")))
    assert page == _code_lines((ROOT / "examples" / "goofspiel.py").read_text())


def test_every_block_is_run_or_a_documented_long_run():
    assert {k for k, _ in blocks()} == {"python", "py", "bash", "sh"}


def _run_command(line: str, cwd: Path) -> str:
    argv = shlex.split(line)
    assert argv[0] == "python", line
    done = subprocess.run([sys.executable, *argv[1:]], cwd=cwd, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, f"{line}\n{done.stderr[-3000:]}"
    return done.stdout


def test_snippets_and_commands_run_in_order(goofspiel, tmp_path, monkeypatch):
    for name in ("scripts", "conf", "examples"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    out = []
    for kind, code in blocks():
        if kind == "py":
            buf = io.StringIO()
            with contextlib.redirect_stdout(buf):
                exec(compile(code, str(DOC), "exec"), {"__name__": "tutorial"})
            out.append(buf.getvalue())
        elif kind == "bash":
            out += [_run_command(line, tmp_path) for line in code.splitlines() if line]
    text = "\n".join(out)
    assert "0.6666" in text  # exploitability of the uniform policy on 3 cards
    assert "eval/exploitability " in text  # the smoke run evaluated it: small game
    assert "exploitability of planner" in text  # evaluate.py, from the checkpoint alone
    assert re.search(r"^bid [123]$", text, flags=re.M)  # the loaded planner's move
    assert (tmp_path / "runs" / "goofspiel_smoke" / "checkpoints" / "best.pt").exists()
