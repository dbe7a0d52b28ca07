"""One-line errors of the commands: config composition, file system, full disk."""

from __future__ import annotations

import errno
import os
import re
import shutil
from collections import namedtuple
from pathlib import Path

import pytest

from isz import IszError
from isz.cli import compose, config_error_message, one_line_errors
from isz.cli.conf import conf_dir
from isz.fs import check_free_space, check_output_file, check_writable_dir

CONF = conf_dir()
CASES = {
    "game=chess": r"unknown game option 'chess' \(game=chess\); allowed: .*kuhn_poker",
    "belief=foo": r"unknown belief option 'foo'.*allowed: auto, bayes, gibbs, particle, posterior",
    "trainer.iteratons=5": r"unknown config key 'trainer.iteratons'.*did you mean "
                           r"trainer.iterations\?",
    "trainer.iterations=abc": r"bad value 'abc' for trainer.iterations.*\(expected int\)",
    "trainer.iterations=[1": r"cannot parse a command-line override",
}


@pytest.fixture(scope="module")
def schema():
    from isz.cli.train import store_schema

    store_schema()


@pytest.mark.parametrize("override", sorted(CASES))
def test_config_errors_are_one_line(schema, override):
    with pytest.raises(Exception) as info:
        compose(CONF, "train", [override])
    message = config_error_message(info.value)
    assert "\n" not in message
    assert re.search(CASES[override], message), message


def test_full_disk_is_one_line(capsys):
    with pytest.raises(SystemExit) as info, one_line_errors():
        raise OSError(errno.ENOSPC, "No space left on device", "/runs/x/checkpoints/last.pt")
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: no space left")
    assert "last.pt" in err and "resumes" in err


def test_other_os_errors_are_not_hidden():
    with pytest.raises(OSError, match="bad fd"), one_line_errors():
        raise OSError(errno.EBADF, "bad fd")


def test_run_dir_that_is_a_file_or_under_one(tmp_path):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(IszError, match=r"run_dir '.*file' is not a folder; give a folder"):
        check_writable_dir(f, "experiment.run_dir")
    with pytest.raises(IszError, match=r"inside '.*file', which is a file"):
        check_writable_dir(f / "run", "experiment.run_dir")


def test_read_only_run_dir(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o555)
    try:
        target = ro / "run"
        if os.access(ro, os.W_OK):  # root writes through permission bits: use sysfs,
            target = Path("/sys/isz-test-run")  # where not even root may create a folder
            if not Path("/sys/kernel").is_dir():
                pytest.skip("root, and no /sys to stand for a read-only folder")
        with pytest.raises(IszError, match=r"run_dir '.*run' is not writable: "):
            check_writable_dir(target, "experiment.run_dir")
    finally:
        ro.chmod(0o755)


def test_output_that_is_a_folder_or_under_a_file(tmp_path):
    with pytest.raises(IszError, match=r"output '.*' is a folder; give a file path"):
        check_output_file(tmp_path, "output")
    (tmp_path / "f").write_text("x")
    with pytest.raises(IszError, match=r"cannot be written: '.*f' is a file"):
        check_output_file(tmp_path / "f" / "out.json", "output")
    assert check_output_file(tmp_path / "new" / "out.json", "output").parent.is_dir()


def test_too_little_free_space(tmp_path, monkeypatch):
    usage = namedtuple("usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda p: usage(10 << 20, 9 << 20, 1 << 20))
    with pytest.raises(IszError, match=r"has 1 MB free; this run needs about 64 MB"):
        check_free_space(tmp_path, 64 << 20, "this run")
