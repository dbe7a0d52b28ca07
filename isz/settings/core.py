"""The mechanism: a `Setting` is declared once; a `Group` lists the settings one
consumer takes; a `Rule` ties settings of a group together.

From a group derive: its dataclass (a hydra config group's schema, or a frozen
record such as the search kernel's `PUCTConfig`), `Group.check` (every value
and rule, one-line `IszError` naming the bad value and what is allowed),
`Group.resolve` (an agent's knobs merged over the defaults, unknown names
refused) and its table in ``docs/configuration.md`` (`isz.settings.docs`).

A setting shared by several consumers is the same `Setting` object in each
group (``C_PUCT`` in the training ``search`` group, the ``puct_ismcts`` agent
and `PUCTConfig`); `Setting.but` makes a variant that differs in one stated
way (another default), keeping the name and meaning.
"""

from __future__ import annotations

import dataclasses
import math
import sys
import typing
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

import numpy as np

from isz.types import IszError, check_choice, check_int

_NUMBER = (int, float, np.integer, np.floating)


@dataclasses.dataclass(frozen=True)
class Setting:
    """One setting: its name, type, default, allowed values and one line of meaning.

    ``type``: ``int``, ``float``, ``str``, ``bool``, ``list[str]``, ``dict`` (a
    free-form map) or ``object`` (not in a hydra group: checked by ``check``).
    ``choices``: allowed values (or a function returning them, for registries);
    ``lo``/``hi``: bounds (``above``: ``lo`` excluded); ``null``: None is allowed and
    this says what it means; ``ends``: what 0 and 1 mean for a number in [0, 1];
    ``check(what, value) -> value``: the validation of an ``object`` setting;
    ``shape``: its type in words for the docs; ``label``: how errors name it.
    """

    name: str
    type: Any
    default: Any
    doc: str
    choices: tuple | Callable[[], Iterable] | None = None
    lo: float | None = None
    hi: float | None = None
    above: bool = False
    null: str | None = None
    ends: str | None = None
    check: Callable[[str, Any], Any] | None = None
    shape: str | None = None
    label: str | None = None

    def but(self, **changes) -> Setting:
        """A variant of this setting (e.g. ``default=200`` for one agent)."""
        return dataclasses.replace(self, **changes)

    def allowed(self) -> tuple:
        """The allowed values (a registry's names, looked up now), or ()."""
        c = self.choices
        return tuple(c() if callable(c) else c or ())

    def validate(self, value, prefix: str = ""):
        """``value`` checked (numbers as int / float), else `IszError` naming it."""
        what = prefix + (self.label or self.name)
        if value is None and self.null is not None:
            return None
        if self.check is not None:
            return self.check(what, value)
        if self.choices is not None:
            check_choice(what, value, self.allowed())
            return value
        t = self.type
        if t is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise IszError(f"{what} must be true or false, got {value!r}")
            return bool(value)
        if t is int:
            return check_int(what, value, lo=_int(self.lo), hi=_int(self.hi))
        if t is float:
            return self._number(what, value)
        if t is str and not isinstance(value, str):
            raise IszError(f"{what} must be a string, got {value!r}")
        return value

    def _number(self, what: str, value) -> float:
        ok = not isinstance(value, (bool, np.bool_)) and isinstance(value, _NUMBER) \
            and not math.isnan(value)
        if ok and self.lo is not None:
            ok = value > self.lo if self.above else value >= self.lo
        if ok and self.hi is not None:
            ok = value <= self.hi
        if not ok:
            null = " or null" if self.null is not None else ""
            raise IszError(f"{what} must be {self.bounds()}{null}, got {value!r}")
        return float(value)

    def bounds(self) -> str:
        """The allowed range in words: ``a number >= 0``, ``a number in [0, 1] (...)``."""
        kind = "an integer" if self.type is int else "a number"
        if self.lo is not None and self.hi is not None:
            ends = f" ({self.ends})" if self.ends else ""
            return f"{kind} in [{_num(self.lo)}, {_num(self.hi)}]{ends}"
        if self.lo is not None:
            return f"{kind} {'>' if self.above else '>='} {_num(self.lo)}"
        return kind

    def annotation(self) -> str:
        """The type as a string annotation (hydra reads it; errors quote it)."""
        t = {int: "int", float: "float", str: "str", bool: "bool", dict: "dict[str, Any]",
             list: "list[str]"}.get(typing.get_origin(self.type) or self.type, "object")
        return f"{t} | None" if self.null is not None and t != "object" else t

    def field(self) -> dataclasses.Field:
        if isinstance(self.default, (list, dict)):
            return dataclasses.field(default_factory=_copier(self.default))
        return dataclasses.field(default=self.default)



def _int(x):
    return None if x is None else int(x)


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _copier(value):
    return lambda: type(value)(value)


@dataclasses.dataclass(frozen=True)
class Rule:
    """A constraint between settings, declared once: ``doc`` says it in one line
    (naming settings as the user writes them); ``broken(values)`` is True when the
    values break it; the error shows ``doc`` and the values of ``shows``."""

    doc: str
    broken: Callable[[Any], bool]
    shows: tuple[str, ...] = ()
    message: Callable[[Any], str] | None = None  # a message of its own (else doc + got)

    def check(self, values) -> None:
        if not self.broken(values):
            return
        if self.message is not None:
            raise IszError(self.message(values))
        got = ", ".join(f"{n}={_get(values, n)!r}" for n in self.shows)
        raise IszError(f"{self.doc} (got {got})" if got else self.doc)


def _get(values, dotted: str):
    for part in dotted.split("."):
        values = values[part] if isinstance(values, Mapping) else getattr(values, part)
    return values


class Group:
    """The settings one consumer takes, in order, and the rules between them."""

    def __init__(self, name: str, doc: str, settings: Iterable[Setting],
                 rules: Iterable[Rule] = ()):
        self.name, self.doc = name, doc
        self.settings = {s.name: s for s in settings}
        self.rules = tuple(rules)

    def __iter__(self) -> Iterator[Setting]:
        return iter(self.settings.values())

    def __contains__(self, name: str) -> bool:
        return name in self.settings

    def __getitem__(self, name: str) -> Setting:
        return self.settings[name]

    def names(self) -> list[str]:
        return list(self.settings)

    def defaults(self) -> dict:
        return {s.name: s.default for s in self}

    def check(self, values, prefix: str = "") -> None:
        """Every setting of ``values`` (a dataclass or mapping), then the rules."""
        for s in self:
            s.validate(_get(values, s.name), prefix)
        for r in self.rules:
            r.check(values)

    def resolve(self, knobs: Mapping, who: str) -> dict:
        """``knobs`` over the defaults, each checked, then the rules: what an agent's
        constructor works from. Unknown names raise `IszError` listing the allowed."""
        unknown = sorted(set(knobs) - set(self.settings))
        if unknown:
            raise IszError(f"unknown knob(s) {', '.join(unknown)} for agent {who!r}; "
                           f"allowed: {', '.join(sorted(self.settings))}")
        values = {s.name: s.validate(knobs.get(s.name, s.default)) for s in self}
        for r in self.rules:
            r.check(values)
        return values

    def dataclass(self, cls_name: str, module: str, *, frozen: bool = False) -> type:
        """A dataclass with one field per setting (string annotations, resolvable in
        ``module``, where the class must be bound to ``cls_name`` for pickling).
        A frozen record checks its values on construction."""
        fields = [(s.name, s.annotation(), s.field()) for s in self]
        ns = {"__doc__": f"{self.doc} (fields: isz.settings, group {self.name!r})"}
        if frozen:
            ns["__post_init__"] = lambda obj: self.check(obj)
        cls = dataclasses.make_dataclass(cls_name, fields, frozen=frozen, namespace=ns)
        cls.__module__ = module
        typing.get_type_hints(cls, globalns=vars(sys.modules[module]))  # fails here, if at all
        return cls
