"""The selector contract: a model under test sees a rendered listing, names a skill or abstains."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from skillbench.types import Decision, DecisionKind, Record

if TYPE_CHECKING:
    from skillbench.dataset import LabelledRequest
    from skillbench.listing import Listing

__all__ = [
    "Calibratable",
    "Calibration",
    "Decision",
    "DecisionKind",
    "Delivery",
    "Preparable",
    "Probeable",
    "Query",
    "Selector",
    "SelectorEnv",
    "SelectorFactory",
    "Streaming",
]


@dataclass(frozen=True, slots=True)
class Query:
    """One decision to make: a request against the listing the model would see at that moment.

    Attributes:
        request: the labelled request (selectors other than ``oracle`` must not read ``expected``).
        listing: the rendered listing; only its shown entries may be chosen from.
        repeat: repeat index (0-based), part of cache keys for sampled models.
        cell: opaque label of the grid cell, for logging only.
        usage: the usage scores the listing was rendered under (name → score; empty when
            the listing reads none), for a live agent whose own usage history must match.
    """

    request: LabelledRequest
    listing: Listing
    repeat: int = 0
    cell: str = ""
    usage: Mapping[str, float] = field(default_factory=dict, hash=False, compare=False)


@runtime_checkable
class Selector(Protocol):
    """A model under test.

    ``select`` takes a batch so vectorised (embedding) and concurrent (litellm) selectors
    can work on many queries at once; the replay engine batches every query whose listing
    does not depend on an earlier decision. Results come back in query order.
    """

    name: str

    def select(self, queries: Sequence[Query]) -> list[Decision]: ...


@dataclass(frozen=True, slots=True)
class SelectorEnv:
    """What a selector factory may use besides its own parameters.

    Attributes:
        cache_dir: root of skillbench's on-disk caches (embeddings, model responses).
        seed: the run's seed; random selectors derive their generator from it.
        base_dir: directory of the config file, for resolving relative paths in params.
        max_concurrency: concurrent calls allowed per endpoint (model selectors).
        quiet: suppress progress output.
    """

    cache_dir: Path
    seed: int = 0
    base_dir: Path = field(default_factory=Path.cwd)
    max_concurrency: int = 8
    quiet: bool = False


SelectorFactory = Callable[[Mapping[str, Any], SelectorEnv], Selector]
"""Builds a selector from its config params (everything but ``name``/``type``).

Factories validate their params: an unknown key raises ``SkillbenchError`` naming the key and
the nearest valid one (``skillbench._errors.suggest``)."""


class Calibration(Record):
    """What a selector fitted on its train split: a run's summary keeps one per repeat in the
    cell's ``calibration.fitted``, so a relabelled replay decides exactly as the run did."""

    threshold: float
    """Invoke only when the score reaches this."""


@runtime_checkable
class Calibratable(Protocol):
    """A selector whose threshold can be fitted on labelled train queries."""

    def calibrate(self, queries: Sequence[Query]) -> Calibration:
        """Fit on ``queries`` (labels may be read) and return what was chosen; later
        ``select`` calls use the fitted values."""
        ...


@runtime_checkable
class Preparable(Protocol):
    """A selector that does per-text work best done in one batch before the replay starts."""

    def prepare(self, texts: Sequence[str]) -> None:
        """Warm up on every request text of the run (e.g. embed them all in one batch)."""
        ...


@dataclass(frozen=True, slots=True)
class Check:
    """One step of a selector's pre-flight (a key is set, the endpoint answers …).

    Attributes:
        step: short name of what was checked (``key``, ``tools``, ``endpoint``).
        ok: whether it passed.
        message: what was found, in words a user can act on.
    """

    step: str
    ok: bool
    message: str


@runtime_checkable
class Checkable(Protocol):
    """A selector that can fail for reasons outside the benchmark (keys, endpoints, models).

    ``preflight`` finds them before the first paid call: ``skillbench doctor`` prints its
    checks, and the selector runs it itself before its first uncached call of a run.
    """

    def preflight(self) -> list[Check]:
        """Every check, in order; a failed check ends the list (later ones cannot run)."""
        ...


@runtime_checkable
class Probeable(Protocol):
    """A checkable selector that can also try the run's heaviest prompt (``doctor`` does)."""

    def probe_listing(self, query: Query, where: str) -> Check:
        """Send ``query`` (the largest listing, described by ``where``) as the run would,
        requiring a skill call; the check fails when it does not fit or none comes back."""
        ...


Delivery = Callable[[int, "Decision | BaseException"], None]
"""Called as ``deliver(i, outcome)`` once per submitted query: its decision, or the exception
that ended it (``ModelUnavailable``, ``RunStopped`` …)."""


@runtime_checkable
class Streaming(Protocol):
    """A selector whose decisions finish one at a time (model calls over the network).

    The replay engine submits queries and goes on with the other cells; each decision is
    written the moment it arrives, so a slow model holds up neither the offline cells nor
    the results file, and a kill loses only the calls still in flight.
    """

    def submit(self, queries: Sequence[Query], deliver: Delivery) -> None:
        """Start deciding ``queries``; ``deliver`` may be called from another thread."""
        ...

    def cancel(self) -> None:
        """Abandon every decision still in flight, closing its connection, and return once
        they have stopped (or a few seconds have passed)."""
        ...
