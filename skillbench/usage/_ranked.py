"""``last_use`` scores of a large history, ranked without a Python loop over every skill.

A replay renders a usage-ordered listing at every request; with thousands of used skills,
scoring and sorting them all in Python dominated the run, although a budgeted listing only
reads the top few dozen. ``RankedScores`` computes every score at once with numpy and sorts
the approximations; the exact value (Python's ``pow``, which numpy's may miss by an ulp) is
computed only for the skills a consumer reaches, and only when they are still decaying, so
the order and the values are exactly those of ``UsageTracker.scores``.

numpy is imported where it is used: ``skillbench --help`` loads this module, never numpy.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import overload

REL = 1e-9
"""Relative gap beyond which two approximate scores are certainly in exact order (numpy's
``power`` and libm's ``pow`` differ by a few ulps, ~1e-16)."""
CHUNK = 64
"""Positions ranked by the first ``resolve``; later ones double what is done."""


class Columns:
    """Append-only skill names with their use count and last-use time as numpy columns."""

    def __init__(self) -> None:
        import numpy as np

        self.names: list[str] = []
        self.index: dict[str, int] = {}
        self.counts = np.zeros(16)
        self.times = np.zeros(16)

    def set(self, name: str, count: float, ts: float) -> None:
        i = self.index.get(name)
        if i is None:
            i = self.index[name] = len(self.names)
            self.names.append(name)
            if i == self.counts.size:
                import numpy as np

                self.counts = np.concatenate([self.counts, np.zeros(i)])
                self.times = np.concatenate([self.times, np.zeros(i)])
        self.counts[i] = count
        self.times[i] = ts

    def copy(self) -> Columns:
        other = Columns()
        other.names = list(self.names)
        other.index = dict(self.index)
        other.counts = self.counts.copy()
        other.times = self.times.copy()
        return other


class RankedScores(Mapping[str, float]):
    """Scores at one moment: a mapping with exact values, plus ``ranked`` (high first).

    Args:
        columns: the tracker's columns (snapshotted: later uses do not change this).
        now_ts: the moment, POSIX seconds.
        half_life: seconds, None for no decay.
        floor: the lowest weight.
        exact: ``exact(count, age)``, the tracker's own score of one skill.
    """

    def __init__(
        self,
        columns: Columns,
        now_ts: float,
        half_life: float | None,
        floor: float,
        exact: Callable[[float, float], float],
    ) -> None:
        import numpy as np

        n = len(columns.names)
        self._names = columns.names
        self._index = columns.index
        self._n = n
        self._counts = columns.counts[:n].copy()
        self._ages = now_ts - columns.times[:n]
        self._exact = exact
        if half_life is None:
            self._approx = self._counts.copy()
            self._unsure = np.zeros(n, dtype=bool)
        else:
            with np.errstate(over="ignore", under="ignore"):
                decay = np.power(0.5, self._ages / half_life)
            weight = np.where(self._ages <= 0, 1.0, np.where(decay > floor, decay, floor))
            self._approx = self._counts * weight
            # Clamped at the floor or brand new: the very same product as the exact score.
            self._unsure = (self._ages > 0) & (decay >= floor * (1 - REL))
        self._unsure |= self._approx < 1e-300
        self._order = np.argsort(-self._approx, kind="stable")
        ordered = self._approx[self._order]
        # Runs of scores too close to order by their approximations end at these positions.
        self._ends = np.append(np.flatnonzero(ordered[1:] < ordered[:-1] * (1 - REL)) + 1, n)
        self.pairs: list[tuple[str, float]] = []

    def __getitem__(self, name: str) -> float:
        i = self._index.get(name)
        if i is None or i >= self._n:
            raise KeyError(name)
        return self._exact(float(self._counts[i]), float(self._ages[i]))

    def __iter__(self) -> Iterator[str]:
        return iter(self._names[: self._n])

    def __len__(self) -> int:
        return self._n

    def nonzero(self) -> set[str]:
        """Names whose score is not 0."""
        import numpy as np

        keep = self._approx != 0
        for i in np.flatnonzero(self._unsure).tolist():
            keep[i] = self._exact(float(self._counts[i]), float(self._ages[i])) != 0
        return {self._names[i] for i in np.flatnonzero(keep).tolist()}

    def ranked(self) -> Ranked:
        """``(name, score)`` by score, high first, ties in first-use order: what
        ``sorted(scores.items(), key=score, reverse=True)`` gives, resolved lazily."""
        return Ranked(self)

    def resolve(self, upto: int) -> None:
        """Fix the exact order through position ``upto`` (and a little further: a chunk of
        whole runs at a time, growing, so a deep walk costs few numpy calls)."""
        import numpy as np

        while len(self.pairs) <= upto:
            lo = len(self.pairs)
            want = lo + max(CHUNK, lo)
            hi = int(self._ends[np.searchsorted(self._ends, min(want, self._n))])
            idx = self._order[lo:hi]
            values = self._approx[idx]
            for k in np.flatnonzero(self._unsure[idx]).tolist():
                i = int(idx[k])
                values[k] = self._exact(float(self._counts[i]), float(self._ages[i]))
            run = np.searchsorted(self._ends, np.arange(lo, hi), side="right")
            local = np.lexsort((idx, -values, run))
            names = self._names
            self.pairs.extend(
                zip([names[i] for i in idx[local].tolist()], values[local].tolist(), strict=True)
            )


class Ranked(Sequence[tuple[str, float]]):
    """A lazy sequence of ``(name, score)`` pairs in exact descending order."""

    def __init__(self, scores: RankedScores) -> None:
        self._s = scores

    def __len__(self) -> int:
        return len(self._s)

    @overload
    def __getitem__(self, i: int) -> tuple[str, float]: ...
    @overload
    def __getitem__(self, i: slice) -> list[tuple[str, float]]: ...
    def __getitem__(self, i: int | slice) -> tuple[str, float] | list[tuple[str, float]]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        pairs = self._s.pairs
        if 0 <= i < len(pairs):
            return pairs[i]
        if not 0 <= i < len(self):
            raise IndexError(i)
        self._s.resolve(i)
        return pairs[i]
