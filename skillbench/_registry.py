"""The one registry pattern for pluggable parts (renderers, orderings, selectors).

A registry maps a short name to a factory. Lookups of unknown names fail with the closest
registered names, so a typo in a config reads as a suggestion rather than a stack trace.
A name not registered yet may come from a plugin (``skillbench._plugins``): the lookup loads
the installed plugins once and looks again. A registry given ``adopt`` also takes
``package.module:object`` names, so callers look every name up the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Generic, NamedTuple, TypeVar

from skillbench._errors import SkillbenchError, suggest
from skillbench._plugins import import_object, is_reference, load_plugins

T = TypeVar("T")


class Watcher(NamedTuple, Generic[T]):
    """What a derived registry does when a part is registered here, and when it leaves."""

    added: Callable[[str, T], None]
    removed: Callable[[str, T], None] | None


class Registry(Generic[T]):
    """Name → factory map for one kind of pluggable part.

    Args:
        kind: what the registry holds, used in error messages ("renderer", "selector", …).
        adopt: turns the object a ``package.module:object`` name points at into a part,
            raising ``TypeError`` saying why when it is not one (see ``instance_of`` and
            ``factory_of`` in ``skillbench._plugins``); None: registered names only (for
            registries whose names carry their own ``name:argument`` syntax).
    """

    def __init__(self, kind: str, adopt: Callable[[object], T] | None = None) -> None:
        self.kind = kind
        self._adopt = adopt
        self._items: dict[str, T] = {}
        self._adopted: dict[str, T] = {}
        self._watchers: list[Watcher[T]] = []

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator registering ``obj`` under ``name``; a duplicate name is a programming error."""

        def decorate(obj: T) -> T:
            if name in self._items:
                raise ValueError(f"{self.kind} {name!r} is already registered")
            self._items[name] = obj
            for watcher in list(self._watchers):
                watcher.added(name, obj)
            return obj

        return decorate

    def watch(
        self,
        added: Callable[[str, T], None],
        removed: Callable[[str, T], None] | None = None,
    ) -> None:
        """Call ``added`` for every part registered now and later, and ``removed`` when a
        part leaves (``temporarily``): a registry derived from this one stays in step,
        whichever is imported first."""
        self._watchers.append(Watcher(added, removed))
        for name, obj in list(self._items.items()):
            added(name, obj)

    @contextmanager
    def temporarily(self, name: str, obj: T) -> Iterator[T]:
        """Register ``obj`` as ``name`` for the ``with`` block only (tests, one-off plug-ins),
        so the registry is left as it was found."""
        self.register(name)(obj)
        try:
            yield obj
        finally:
            self.remove(name)

    def remove(self, name: str) -> T:
        """Take ``name`` out (the watchers' ``removed`` are told); returns what it was."""
        obj = self._items.pop(name)
        for watcher in reversed(self._watchers):
            if watcher.removed is not None:
                watcher.removed(name, obj)
        return obj

    def get(self, name: str) -> T:
        """The part registered as ``name`` (loading the plugins when it is not, yet), or the
        object a ``package.module:object`` name points at; otherwise a SkillbenchError
        suggesting the nearest name, and naming any plugin that failed to load."""
        if name in self._items:
            return self._items[name]
        if self._adopt is not None and is_reference(name):
            return self._resolve(name, self._adopt)
        failures = load_plugins()
        if name in self._items:
            return self._items[name]
        broken = "".join(f"; {failure}" for failure in failures)
        raise SkillbenchError(
            f"unknown {self.kind} {name!r}{suggest(name, self._items)}; "
            f"choose one of: {', '.join(sorted(self._items))}{broken}"
        )

    def _resolve(self, reference: str, adopt: Callable[[object], T]) -> T:
        """The part ``reference`` points at, imported once and kept apart from the registered
        names (it is a path, not a name to list)."""
        if reference not in self._adopted:
            obj = import_object(reference, self.kind)
            try:
                self._adopted[reference] = adopt(obj)
            except TypeError as exc:
                raise SkillbenchError(
                    f"{self.kind} {reference!r}: {reference.partition(':')[2]} {exc}"
                ) from None
        return self._adopted[reference]

    def names(self) -> list[str]:
        """Every registered name, the installed plugins' included (they load first)."""
        load_plugins()
        return sorted(self._items)

    def values(self) -> list[T]:
        """Every registered part, the installed plugins' included, in registration order (for
        displays with a meaningful order: the built-in parts, then each plugin's)."""
        load_plugins()
        return list(self._items.values())

    def __contains__(self, name: object) -> bool:
        """Whether ``name`` is registered now: no plugin is loaded and nothing imported, so a
        check made while the package is still importing has no side effects (``get`` is
        the lookup that finds plugins)."""
        return name in self._items

    def __iter__(self) -> Iterator[str]:
        return iter(self.names())
