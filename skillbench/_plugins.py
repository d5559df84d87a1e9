"""Third-party parts: the ``skillbench.plugins`` entry points and ``module:object`` names.

A plugin is an installed package with an entry point in the ``skillbench.plugins`` group
naming a module; importing that module registers its selectors, profiles and metrics with the
usual decorators, so a plugin's parts are looked up exactly like the built-in ones. Plugins
load lazily, once per process, the first time a lookup misses or a registry is listed in
full (help choices, the config schema, the summary's metric columns), so every installed
plugin's parts are known wherever names are shown. A plugin that raises on import is
reported in one line and left out; the built-in parts and the other plugins still work.

A registry that opts in also takes ``package.module:object`` names, which import the module
and take the object, checked to be the registry's kind of part: a one-off selector needs no
packaging at all.
"""

from __future__ import annotations

import importlib
import inspect
import re
import sys
from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, NamedTuple, TypeVar

from skillbench._errors import SkillbenchError

T = TypeVar("T")

ENTRY_POINT_GROUP = "skillbench.plugins"
"""The entry point group whose modules register third-party parts when imported."""

REFERENCE_PATTERN = r"^[A-Za-z_][\w.]*:[A-Za-z_][\w.]*$"
"""``package.module:object`` (the object may be a dotted path inside the module)."""
_REFERENCE = re.compile(REFERENCE_PATTERN)


class PluginFailure(NamedTuple):
    """A plugin whose module raised on import: which entry point, and the exception."""

    entry_point: str
    error: str

    def __str__(self) -> str:
        return (
            f"plugin {self.entry_point!r} ({ENTRY_POINT_GROUP} entry point) failed to load: "
            f"{self.error}"
        )


_failures: list[PluginFailure] | None = None
"""None until the plugins are loaded; then the ones that failed."""


def describe_exception(exc: BaseException) -> str:
    """``ValueError: the first line of its message``: one line, no traceback."""
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def load_plugins() -> list[PluginFailure]:
    """Import every ``skillbench.plugins`` module, once per process (in entry point name
    order, so registration order does not depend on installation order); the ones that
    failed. Each failure is reported once on stderr: a plugin that breaks is never silently
    missing, and the other plugins and the built-in parts still load."""
    global _failures
    if _failures is not None:
        return _failures
    # Set first: a plugin module that looks a name up while importing must not re-enter.
    _failures = []
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        try:
            point.load()
        except Exception as exc:  # a plugin's import may raise anything; report, not crash
            failure = PluginFailure(f"{point.name} = {point.value}", describe_exception(exc))
            _failures.append(failure)
            print(f"warning: {failure}", file=sys.stderr)
    return _failures


def is_reference(name: str) -> bool:
    """Whether ``name`` has the ``package.module:object`` form."""
    return _REFERENCE.match(name) is not None


def import_object(reference: str, kind: str) -> object:
    """The object a ``package.module:object`` name of a ``kind`` (selector, profile…)
    points at.

    Raises:
        SkillbenchError: the module is missing or raises on import, or has no such object.
    """
    module_name, _, path = reference.partition(":")
    try:
        obj: object = importlib.import_module(module_name)
    except Exception as exc:  # a module's import may raise anything; one line, no traceback
        raise SkillbenchError(
            f"{kind} {reference!r}: cannot import {module_name!r}: {describe_exception(exc)}"
        ) from None
    for part in path.split("."):
        if not hasattr(obj, part):
            raise SkillbenchError(f"{kind} {reference!r}: module {module_name!r} has no {path!r}")
        obj = getattr(obj, part)
    return obj


def _article(obj: object) -> str:
    name = type(obj).__name__
    return f"{'an' if name[0].lower() in 'aeiou' else 'a'} {name}"


def instance_of(cls: type[T], via: str | None = None) -> Callable[[object], T]:
    """Adopts an instance of ``cls`` (or an object whose attribute ``via`` is one, so a
    profile object also gives its loading rules); anything else raises ``TypeError``."""

    def adopt(obj: object) -> T:
        if isinstance(obj, cls):
            return obj
        inner = getattr(obj, via, None) if via else None
        if isinstance(inner, cls):
            return inner
        raise TypeError(f"is {_article(obj)}, not a {cls.__name__}")

    return adopt


def factory_of(*params: str) -> Callable[[object], Callable[..., Any]]:
    """Adopts a callable (a function or a class) that can be called with ``params``;
    anything else raises ``TypeError``."""

    def adopt(obj: object) -> Callable[..., Any]:
        expected = f"a factory taking ({', '.join(params)})"
        if not callable(obj):
            raise TypeError(f"is {_article(obj)}, not {expected}")
        try:
            inspect.signature(obj).bind(*params)
        except TypeError:
            raise TypeError(f"is not {expected}") from None
        except ValueError:  # no signature to read (a builtin): let the call decide
            pass
        return obj

    return adopt
