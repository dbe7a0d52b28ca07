"""The commands (`isz-train`, `isz-evaluate`, `isz-play`, `isz-bench`) and their plumbing.

Each command is a module of this package with a ``main()`` that the console
script of ``pyproject.toml`` and the thin wrapper ``scripts/<name>.py`` both
call: `isz.cli.train`, `isz.cli.evaluate`, `isz.cli.play`, `isz.cli.bench`.
`isz.cli.conf` finds the hydra configs (``conf/``), in a checkout or an
installed wheel; `hydra_command` is the ``main()`` of the three hydra commands.
What follows here makes every user error one line.

`run_hydra` composes the command line's config once before handing over to
``@hydra.main``, so that an unknown group option (``game=chess``), a misspelt
key (``trainer.iteratons=5``), a value of the wrong type
(``trainer.iterations=abc``) or an unparsable override is reported as one
``error: ...`` line with exit status 2 instead of hydra's multi-line message
and status 1; and so that checks that must come before hydra touches the
disk (a run folder that is a file, read-only or full) run first.
`one_line_errors` does the same for errors raised while the task runs.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import errno
import json
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path

from isz.types import IszError

USAGE_STATUS = 2
# errnos that are the user's environment, not a bug: reported as one line
_FS_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM,
              errno.ENOTDIR, errno.EISDIR, errno.EEXIST, errno.ENOENT, errno.ENAMETOOLONG}


def fail(message: str) -> None:
    """Print ``error: message`` (one line) on stderr and exit with status 2."""
    print(f"error: {' '.join(message.split())}", file=sys.stderr, flush=True)
    sys.exit(USAGE_STATUS)


INTERRUPTED_STATUS = 130  # a shell's status for a command stopped by Ctrl-C


def stopped(kept: str) -> None:
    """Ctrl-C: ``stopped (Ctrl-C): kept`` (one line: what the work keeps) on stderr, then
    exit with status 130."""
    print(f"stopped (Ctrl-C): {kept}", file=sys.stderr, flush=True)
    sys.exit(INTERRUPTED_STATUS)


def os_error_message(e: OSError) -> str:
    """One line for an `OSError` of the file system, naming the path."""
    where = f" {str(e.filename)!r}" if e.filename else ""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return (f"no space left on the device writing{where}; free some space and run "
                "the same command again (a training run resumes from its last checkpoint)")
    return f"cannot write or read{where}: {e.strerror or e}"


@contextlib.contextmanager
def one_line_errors() -> Iterator[None]:
    """Turn `IszError`, config errors and file-system `OSError`s into `fail`."""
    from omegaconf.errors import OmegaConfBaseException

    try:
        yield
    except IszError as e:
        fail(str(e))
    except OmegaConfBaseException as e:
        fail(config_error_message(e))
    except OSError as e:
        if e.errno not in _FS_ERRNOS:
            raise
        fail(os_error_message(e))


def _first_line(text: str) -> str:
    return next((ln.strip() for ln in str(text).splitlines() if ln.strip()), "")


def _allowed_keys(object_type) -> list[str]:
    if dataclasses.is_dataclass(object_type):
        return [f.name for f in dataclasses.fields(object_type)]
    return []


def _unknown_key(cause) -> str:
    key, full = str(cause.key), str(cause.full_key)
    allowed = _allowed_keys(getattr(cause, "object_type", None))
    where = full.rsplit(".", 1)[0] if "." in full else ""
    text = f"unknown config key {full!r}"
    if allowed:
        text += f"; keys{' of ' + where if where else ''}: {', '.join(allowed)}"
        close = difflib.get_close_matches(key, allowed, n=1)
        if close:
            text += f" (did you mean {(where + '.' if where else '') + close[0]}?)"
    return text


# keys that are one value in one command and a group in another
_SCALAR_HINTS = {"game": "this command names the game with game=NAME (and "
                         "game_module=MODULE for a game defined outside isz); "
                         "game.name=/game.module= are scripts/train.py's keys"}


def _bad_value(cause) -> str:
    field = getattr(cause, "object_type", None)
    fields = getattr(field, "__dataclass_fields__", {})
    expected = fields[cause.key].type if cause.key in fields else None
    if isinstance(cause.value, dict):  # `key.sub=...` given to a key that takes one value
        key = str(cause.full_key)
        hint = _SCALAR_HINTS.get(key, f"it takes one value ({key}=VALUE)")
        return f"{key} has no keys under it: {hint}"
    text = f"bad value {cause.value!r} for {cause.full_key}: {_first_line(cause.msg)}"
    return text + (f" (expected {expected})" if isinstance(expected, str) else "")


def config_error_message(e: BaseException) -> str:
    """One line for a hydra / OmegaConf composition error."""
    from hydra.errors import MissingConfigException, OverrideParseException
    from omegaconf.errors import ConfigAttributeError, ConfigKeyError, ValidationError

    cause = e.__cause__ if e.__cause__ is not None else e
    if isinstance(e, MissingConfigException) and e.missing_cfg_file:
        group, _, name = str(e.missing_cfg_file).rpartition("/")
        if group and e.options:
            return (f"unknown {group} option {name!r} ({group}={name}); "
                    f"allowed: {', '.join(e.options)}")
        return f"cannot find config {e.missing_cfg_file!r}: {_first_line(e)}"
    if isinstance(cause, (ConfigKeyError, ConfigAttributeError)) \
            and getattr(cause, "full_key", None):
        return _unknown_key(cause)
    if isinstance(cause, ValidationError) and getattr(cause, "full_key", None):
        return _bad_value(cause)
    if isinstance(e, OverrideParseException):
        return f"cannot parse a command-line override: {_first_line(e)}"
    detail = _first_line(cause) if cause is not e else ""
    return "; ".join(x for x in (_first_line(e), detail) if x)


def unknown_keys(cfg, schema, free: tuple[str, ...] = (), prefix: str = "") -> None:
    """`IszError` for a key of ``cfg`` that dataclass ``schema`` lacks (one added with
    ``+key=...``, which hydra accepts), at any depth; ``free``: dotted paths of
    free-form dicts whose keys are vetted elsewhere (``game.params``)."""
    hints = typing.get_type_hints(schema)
    known = [f.name for f in dataclasses.fields(schema)]
    extra = sorted(set(cfg.keys()) - set(known))
    if extra:
        where = f" of {prefix[:-1]}" if prefix else ""
        raise IszError(f"unknown config key(s) {', '.join(prefix + k for k in extra)}; "
                       f"keys{where}: {', '.join(known)}")
    for name in known:
        if dataclasses.is_dataclass(hints[name]) and prefix + name not in free:
            unknown_keys(cfg[name], hints[name], free, f"{prefix}{name}.")


def compose(config_dir: Path, config_name: str, overrides: list[str]):
    """The config hydra would build from ``overrides`` (errors as hydra raises them)."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return hydra_compose(config_name, overrides=overrides)


def run_hydra(hydra_main: Callable[[], None], config_dir: Path, config_name: str,
              preflight: Callable | None = None) -> None:
    """Check ``sys.argv``'s overrides (and ``preflight(cfg)``), then call ``hydra_main``.

    With hydra flags (``--cfg job``, ``-m``, ...) the check is left to hydra:
    those take values and sweeps that a single composition cannot stand for.
    """
    args = sys.argv[1:]
    if not any(a.startswith("-") for a in args):
        from hydra.errors import HydraException
        from omegaconf.errors import OmegaConfBaseException

        try:
            cfg = compose(config_dir, config_name, args)
        except (HydraException, OmegaConfBaseException, ValueError) as e:
            fail(config_error_message(e))
        if preflight is not None:
            with one_line_errors():
                preflight(cfg)
    hydra_main()


def hydra_command(run: Callable, store_schema: Callable[[], None], config_name: str,
                  group: str | None = None, preflight: Callable | None = None) -> None:
    """A command's ``main()``: hydra's command line over ``conf/[group/]config_name.yaml``
    (`isz.cli.conf.conf_dir`) calling ``run(cfg)``, its typed schema stored first
    (``store_schema()``) and ``${isz_root:}`` resolvable, the overrides (and
    ``preflight(cfg)``) checked by `run_hydra` before hydra starts."""
    import hydra

    from isz.cli.conf import conf_dir, register_isz_root

    with one_line_errors():
        conf = conf_dir() / group if group else conf_dir()
    store_schema()
    register_isz_root()
    app = hydra.main(config_path=str(conf), config_name=config_name, version_base=None)(run)
    run_hydra(app, conf, config_name, preflight)


def key_values(pairs: list[str] | None, flag: str) -> dict:
    """``["expand_after=16", "tree=so"]`` -> ``{"expand_after": 16, "tree": "so"}``, the
    values of a repeatable ``flag KEY=VALUE`` option: a value is read as JSON where it
    parses (numbers, true/false, null), else kept as a string."""
    out = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise IszError(f"{flag} takes KEY=VALUE (e.g. expand_after=16), got {pair!r}")
        try:
            out[key] = json.loads(raw)
        except json.JSONDecodeError:
            out[key] = raw
    return out
