"""What a package exports takes and gives typed records, never an untyped mapping.

Every name in a public package's ``__all__`` is checked: functions, and the public methods,
properties and generated constructors of classes. A parameter or return annotated as a
``dict``/``Mapping`` from ``str`` to ``Any`` (directly or through a module alias) is a
boundary where fields travel by string key; JSON documents are ``JsonObject`` instead, whose
values the type checker knows.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator

import skillbench

UNTYPED = re.compile(r"\b(?:dict|Dict|Mapping|MutableMapping)\[str, (?:typing\.)?Any\]")
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _public_modules() -> Iterator[object]:
    for info in pkgutil.walk_packages(skillbench.__path__, "skillbench."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            yield importlib.import_module(info.name)


def _callables(export: str, obj: object) -> Iterator[tuple[str, Callable[..., object]]]:
    if callable(obj) and hasattr(obj, "__wrapped__"):  # functools.cache and friends
        obj = inspect.unwrap(obj)
    if inspect.isfunction(obj):
        yield export, obj
    elif inspect.isclass(obj):
        for name, member in vars(obj).items():
            if name.startswith("_") and name != "__init__":
                continue
            if isinstance(member, classmethod | staticmethod):
                member = member.__func__
            if isinstance(member, property):
                member = member.fget
            if inspect.isfunction(member):
                yield f"{export}.{name}", member


def _untyped(function: Callable[..., object]) -> bool:
    names = getattr(inspect.getmodule(function), "__dict__", {})
    for annotation in getattr(function, "__annotations__", {}).values():
        text = str(annotation)
        aliases = (str(names.get(n, "")) for n in NAME.findall(text))
        if UNTYPED.search(text) or any(UNTYPED.search(a) for a in aliases):
            return True
    return False


def untyped_exports() -> list[str]:
    found = set()
    for module in _public_modules():
        for export in getattr(module, "__all__", ()):
            for label, function in _callables(export, getattr(module, export)):
                if _untyped(function):
                    found.add(f"{module.__name__}.{label}")
    return sorted(found)


def test_no_exported_function_takes_or_returns_an_untyped_mapping() -> None:
    assert untyped_exports() == []


BUILT_AS_RECORDS = (
    "skillbench.replay._manifest:run_info",
    "skillbench.replay._manifest:catalog_facts",
    "skillbench.replay._manifest:ManifestWriter.__init__",
    "skillbench.cli._cost:fork_overrides",
    "skillbench.cli._cost:to_text",
    "skillbench.cli._cost_measure:measure_text",
)
"""Private builders of records that reach a file or the screen: the manifest's run shape
and the ``cost`` command's report travel as typed records there too."""


def test_the_run_shape_and_the_cost_report_are_built_as_records() -> None:
    untyped = []
    for reference in BUILT_AS_RECORDS:
        module, _, path = reference.partition(":")
        obj: object = importlib.import_module(module)
        for part in path.split("."):
            obj = getattr(obj, part)
        assert callable(obj)
        if _untyped(obj):
            untyped.append(reference)
    assert untyped == []
