"""``game.module`` (isz-train) and ``game_module`` (isz-evaluate): a module that cannot be
imported is one ``error:`` line and exit status 2 (the working path runs in
tests/examples/test_tutorial.py and tests/cli/test_wheel.py)."""

from __future__ import annotations

import sys

import pytest

from isz.cli import evaluate, train

NO_MODULE = ("error: cannot import game module 'no_such_pkg.goofspiel': No module named "
             "'no_such_pkg' (it must be importable from this environment: installed, under "
             "a folder on sys.path, or under the launch directory)")
# train.py's keys given to evaluate: the error says which keys evaluate takes
TRAIN_KEYS = ("error: game has no keys under it: this command names the game with "
              "game=NAME (and game_module=MODULE for a game defined outside isz); "
              "game.name=/game.module= are scripts/train.py's keys")


@pytest.mark.parametrize("main, args, message", [
    (train.main, ["game.name=goofspiel", "game.module=no_such_pkg.goofspiel"], NO_MODULE),
    (evaluate.main, ["game=goofspiel", "game_module=no_such_pkg.goofspiel"], NO_MODULE),
    (evaluate.main, ["game.name=goofspiel", "game.module=examples.goofspiel"], TRAIN_KEYS),
])
def test_a_bad_game_module_is_one_line(command, tmp_path, monkeypatch, main, args, message):
    monkeypatch.chdir(tmp_path)
    p = command(main, *args, f"hydra.run.dir={tmp_path / 'hydra'}",
                f"{'experiment.run_dir' if main is train.main else 'output'}="
                f"{tmp_path / 'out'}")
    assert p.returncode == 2, p.stderr
    assert p.stderr.strip().splitlines() == [message]


def test_a_package_under_the_launch_directory_imports_without_sys_path(tmp_path,
                                                                       monkeypatch):
    """As ``python -m`` would, but for a console command whose ``sys.path`` lacks the
    launch directory: the package is found there, ``sys.path`` stays as it was."""
    from isz.games import import_game_module

    pkg = tmp_path / "launch_dir_games"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "tiny.py").write_text("LOADED = 'yes'\n")
    monkeypatch.chdir(tmp_path)
    before = list(sys.path)
    try:
        import_game_module("launch_dir_games.tiny")
        assert sys.modules["launch_dir_games.tiny"].LOADED == "yes"
        assert sys.modules["launch_dir_games"].__file__ == str(pkg / "__init__.py")
        assert sys.path == before
    finally:
        for name in ("launch_dir_games.tiny", "launch_dir_games"):
            sys.modules.pop(name, None)
