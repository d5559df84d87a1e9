"""Orderings: which skill comes first in a listing, before any budget applies.

An ordering receives the skills a listing may show (disabled and inactive ones are already
removed) and returns a permutation of their indices. ``ORDERINGS`` maps a name to a factory
taking the optional argument after a colon (``rotate:3`` → ``"3"``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.catalog import Skill

SOURCE_PRIORITY: Mapping[str, int] = {"project": 0, "user": 1, "bundled": 2, "plugin": 3}
"""The reference pipeline's source priority (project first); other sources sort after plugin."""


def source_rank(skill: Skill) -> int:
    return SOURCE_PRIORITY.get(skill.source, len(SOURCE_PRIORITY))


@runtime_checkable
class Ordering(Protocol):
    """Orders the listable skills.

    Attributes:
        spec: the ordering as written (``usage``, ``rotate:3``), for results and errors.
        uses_scores: whether usage scores change the order (only ``usage`` does).
    """

    @property
    def spec(self) -> str: ...

    @property
    def uses_scores(self) -> bool: ...

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        """Indices into ``skills``, first shown first."""
        ...


OrderingFactory = Callable[[str | None], Ordering]
ORDERINGS: Registry[OrderingFactory] = Registry("ordering")


def get_ordering(spec: str) -> Ordering:
    """The ordering written as ``name`` or ``name:arg`` (``rotate:3``)."""
    name, _, arg = spec.partition(":")
    return ORDERINGS.get(name.strip())(arg.strip() or None if ":" in spec else None)


def _no_arg(name: str, arg: str | None) -> None:
    if arg is not None:
        raise SkillbenchError(f"ordering {name!r} takes no argument, got {name}:{arg}")


@dataclass(frozen=True)
class UsageOrdering:
    """Codebot ``sortSkillsForPrompt``: paths-active first, usage score high first, source
    priority project < user < bundled < plugin (others after), then name.

    Skills declaring ``paths`` that reach a listing are active (inactive ones are filtered
    before ordering), so "paths-active first" puts them ahead of skills without ``paths``.
    The key splits into a static part (``group``, ``static_key``) and the score, which lets
    ``ListingPlan`` sort once and only re-sort used skills per render.
    """

    spec: str = "usage"
    uses_scores: bool = True

    @staticmethod
    def group(skill: Skill) -> int:
        return 0 if skill.paths else 1

    @staticmethod
    def static_key(skill: Skill) -> tuple[int, int, str]:
        return (UsageOrdering.group(skill), source_rank(skill), skill.name)

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        def key(i: int) -> tuple[int, float, int, str]:
            s = skills[i]
            return (self.group(s), -scores.get(s.name, 0.0), source_rank(s), s.name)

        return sorted(range(len(skills)), key=key)


@dataclass(frozen=True)
class _KeyOrdering:
    spec: str
    key: Callable[[Skill], tuple[object, ...]]
    uses_scores: bool = False

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        return sorted(range(len(skills)), key=lambda i: self.key(skills[i]))


@dataclass(frozen=True)
class _Given:
    spec: str = "given"
    shift: int = 0
    reverse: bool = False
    uses_scores: bool = False

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        n = len(skills)
        idx = list(range(n - 1, -1, -1) if self.reverse else range(n))
        k = self.shift % n if n else 0
        return idx[k:] + idx[:k]


@dataclass(frozen=True)
class _Random:
    """A seeded shuffle: the same seed and catalog always give the same order."""

    spec: str = "random"
    uses_scores: bool = False

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        idx = list(range(len(skills)))
        random.Random(f"skillbench-order-{seed}").shuffle(idx)
        return idx


@ORDERINGS.register("usage")
def _usage(arg: str | None) -> Ordering:
    _no_arg("usage", arg)
    return UsageOrdering()


@ORDERINGS.register("alpha")
def _alpha(arg: str | None) -> Ordering:
    """By name, case-insensitively (ties by exact name)."""
    _no_arg("alpha", arg)
    return _KeyOrdering("alpha", lambda s: (s.name.casefold(), s.name))


@ORDERINGS.register("source")
def _source(arg: str | None) -> Ordering:
    """By source priority (project, user, bundled, plugin, others), then name."""
    _no_arg("source", arg)
    return _KeyOrdering("source", lambda s: (source_rank(s), s.name))


@ORDERINGS.register("given")
def _given(arg: str | None) -> Ordering:
    """Catalog order as loaded."""
    _no_arg("given", arg)
    return _Given()


@ORDERINGS.register("reverse")
def _reverse(arg: str | None) -> Ordering:
    _no_arg("reverse", arg)
    return _Given("reverse", reverse=True)


@ORDERINGS.register("random")
def _random(arg: str | None) -> Ordering:
    _no_arg("random", arg)
    return _Random()


@ORDERINGS.register("rotate")
def _rotate(arg: str | None) -> Ordering:
    """Catalog order shifted left by k: ``rotate:1`` puts the second skill first."""
    try:
        k = int(arg) if arg is not None else None
    except ValueError:
        k = None
    if k is None:
        raise SkillbenchError(f"ordering 'rotate' needs an integer, e.g. rotate:3 (got {arg!r})")
    return _Given(f"rotate:{k}", shift=k)
