"""numba's cache folder is keyed by every compiled source of isz: a change in a helper
that another file's kernel calls cannot leave that kernel's stale machine code in use."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import isz
from isz._numba_cache import prune, source_digest

PACKAGE = Path(isz.__file__).parent


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "isz"
    shutil.copytree(PACKAGE, dst, ignore=shutil.ignore_patterns("__pycache__"))
    return dst


def test_digest_follows_compiled_sources_only(tmp_path):
    pkg = _copy(tmp_path)
    before = source_digest(pkg, "0.68.1")
    assert source_digest(pkg, "0.68.1") == before
    assert source_digest(pkg, "0.69.0") != before  # another numba compiles differently
    (pkg / "cli" / "train.py").write_text("# not compiled code\n")
    assert source_digest(pkg, "0.68.1") == before
    rng = pkg / "rng.py"
    rng.write_text(rng.read_text() + "\n# a helper of every kernel changed\n")
    changed = source_digest(pkg, "0.68.1")
    assert changed != before
    (pkg / "games" / "new_rules.py").write_text("X = 1\n")
    assert source_digest(pkg, "0.68.1") not in (before, changed)


def _cache_dir(env: dict) -> str:
    code = "import isz; from numba.core import config; print(config.CACHE_DIR)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                         text=True, check=True)
    return out.stdout.strip()


def test_a_process_caches_under_the_digest_unless_the_user_chose(tmp_path):
    from numba import __version__

    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["ISZ_CACHE_DIR"] = str(tmp_path / "cache")
    expected = tmp_path / "cache" / f"numba-{source_digest(PACKAGE, __version__)}"
    assert _cache_dir(env) == str(expected) and expected.is_dir()
    env["NUMBA_CACHE_DIR"] = str(tmp_path / "mine")
    assert _cache_dir(env) == str(tmp_path / "mine")


def test_prune_keeps_recent_folders(tmp_path):
    folders = [tmp_path / f"numba-{i}" for i in range(6)]
    for age, d in enumerate(folders):
        d.mkdir()
        t = 1_000_000_000 + 1000 * (6 - age)  # numba-0 the most recent; all long unused
        os.utime(d, (t, t))
    prune(tmp_path, current=folders[5], keep=2, days=7)  # the current and the 2 newest
    assert sorted(d.name for d in tmp_path.iterdir()) == ["numba-0", "numba-1", "numba-5"]
    (tmp_path / "numba-new").mkdir()  # used now: kept at any rank
    prune(tmp_path, current=folders[5], keep=0, days=7)
    assert sorted(d.name for d in tmp_path.iterdir()) == ["numba-5", "numba-new"]
