"""The one registry pattern for pluggable parts (renderers, orderings, selectors).

A registry maps a short name to a factory. Lookups of unknown names fail with the closest
registered names, so a typo in a config reads as a suggestion rather than a stack trace.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, TypeVar

from skillbench._errors import SkillbenchError, suggest

T = TypeVar("T")


class Registry(Generic[T]):
    """Name → factory map for one kind of pluggable part.

    Args:
        kind: what the registry holds, used in error messages ("renderer", "selector", …).
    """

    def __init__(self, kind: str) -> None:
        self.kind = kind
        self._items: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator registering ``obj`` under ``name``; a duplicate name is a programming error."""

        def decorate(obj: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is already registered")
            self._items[name] = obj
            return obj

        return decorate

    @contextmanager
    def temporarily(self, name: str, obj: T) -> Iterator[T]:
        """Register ``obj`` as ``name`` for the ``with`` block only (tests, one-off plug-ins),
        so the registry is left as it was found."""
        self.register(name)(obj)
        try:
            yield obj
        finally:
            del self._items[name]

    def get(self, name: str) -> T:
        """The part registered as ``name``, or a SkillbenchError suggesting the nearest name."""
        try:
            return self._items[name]
        except KeyError:
            raise SkillbenchError(
                f"unknown {self.kind} {name!r}{suggest(name, self._items)}; "
                f"choose one of: {', '.join(sorted(self._items))}"
            ) from None

    def names(self) -> list[str]:
        return sorted(self._items)

    def values(self) -> list[T]:
        """The registered parts in registration order (for displays with a meaningful order)."""
        return list(self._items.values())

    def __contains__(self, name: object) -> bool:
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._items))
