"""The part of ``run``'s progress that only model runs get: pace, spend and positive controls.

A run with a litellm or agent selector pays per decision and may take hours, so its progress
line adds the model decisions per minute (over the last ``WINDOW`` seconds; for agents also
the share of the agent's own pace, its turns' time less the processor time skillbench's
bridge spent in them: ``bridge_cpu_ms``), the dollars
spent so far (calls sent now; cached answers cost nothing) and the spend projected for the
model decisions still to come at the cost per decision so far, then, once the controls are
asked, how many triggered. Offline runs get none of it: their lines stay as they were.

The projection needs the replay's model decisions: the grid gives every selector the same
cells, so they are the model selectors' share of the replay's decisions, less what a
``--resume`` kept of theirs.
"""

from __future__ import annotations

import time
from collections import defaultdict, deque
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from skillbench.replay import RunConfig
    from skillbench.results import ResultRow
    from skillbench.types import CellKey

WINDOW = 30.0
"""Seconds of recent progress a rate is taken from."""


def window_rate(samples: deque[tuple[float, int]], done: int) -> float | None:
    """Items per second over the last ``WINDOW`` seconds, ``samples`` updated with
    ``done`` now (None: too early to say)."""
    now = time.monotonic()
    samples.append((now, done))
    while len(samples) > 2 and samples[0][0] < now - WINDOW:
        samples.popleft()
    (t0, d0), (t1, d1) = samples[0], samples[-1]
    return (d1 - d0) / (t1 - t0) if t1 > t0 and d1 > d0 else None


class LivePlan(NamedTuple):
    """What the progress knows of a run's model cells before they decide.

    Attributes:
        selectors: names of the model selectors in the cells.
        share: their share of the grid's decisions (model selectors over all selectors).
        kept: decisions a ``--resume`` keeps (every selector's; controls not counted).
        kept_live: of them, the model selectors'.
        threshold: the control trigger rate below which a cell fails.
    """

    selectors: frozenset[str]
    share: float
    kept: int
    kept_live: int
    threshold: float


def live_plan(config: RunConfig, run_dir: Path, *, resume: bool) -> LivePlan | None:
    """The plan of ``config``'s model cells (None: it has none, the progress stays plain)."""
    from skillbench.metrics import DEFAULT_CONTROL_THRESHOLD
    from skillbench.results import MODEL_TYPES, RESULTS, read_rows
    from skillbench.types import UNANSWERED

    names = frozenset(s.label for s in config.selectors if s.type in MODEL_TYPES)
    if not names:
        return None
    kept = (
        {r.row_key: r for r in read_rows(run_dir / RESULTS)}.values()
        if resume and run_dir.is_dir()
        else ()
    )
    answered = [r for r in kept if r.outcome not in UNANSWERED and not r.control]
    threshold = DEFAULT_CONTROL_THRESHOLD if config.controls is None else config.controls.threshold
    return LivePlan(
        names,
        len(names) / len({s.label for s in config.selectors}),
        len(answered),
        sum(r.selector in names for r in answered),
        threshold,
    )


def _per_minute(rate: float | None) -> str:
    """``58.2/min`` from a rate per second (``–/min``: none yet)."""
    return ("–" if rate is None else f"{rate * 60:,.1f}") + "/min"


def _usd(amount: float) -> str:
    return f"${amount:,.4f}" if amount < 10 else f"${amount:,.2f}"


class LiveStatus:
    """Running figures of the model decisions and controls (the caller holds the lock)."""

    def __init__(self, plan: LivePlan) -> None:
        self.plan = plan
        self.done = self.cached = self.priced = 0
        self.spent = 0.0
        self.turn_ms = self.bridge_ms = 0.0
        """Agent turns' time and the bridge's processor time in them, summed."""
        self.planned: int | None = None
        self.phase_total: int | None = None
        self.controls: dict[CellKey, list[ResultRow]] = defaultdict(list)
        self._samples: deque[tuple[float, int]] = deque()
        self._seen = (0, 0)
        """Model decisions and controls when the current phase began."""

    def phase(self, total: int | None) -> None:
        self.phase_total = total
        self._samples.clear()
        self._seen = (self.done, self._asked())

    def _asked(self) -> int:
        return sum(len(c) for c in self.controls.values())

    def decision(self, row: ResultRow) -> None:
        from skillbench.results import spent_usd

        if row.selector not in self.plan.selectors:
            return
        if row.control:
            self.controls[row.key].append(row)
            return
        if self.planned is None and self.phase_total is not None:
            whole = round((self.phase_total + self.plan.kept) * self.plan.share)
            self.planned = max(0, whole - self.plan.kept_live)
        self.done += 1
        self.cached += bool(row.detail.get("cached"))
        spent = spent_usd(row)
        if spent is not None:
            self.priced += 1
            self.spent += spent
        bridge = row.detail.get("bridge_cpu_ms")
        if isinstance(bridge, int | float) and row.latency_ms > 0:
            self.turn_ms += row.latency_ms
            self.bridge_ms += min(float(bridge), row.latency_ms)

    def line(self) -> str:
        """``model 96/192, 58.2/min  $0.0123 spent, ~$0.0246 projected  3 cached`` (agents:
        ``58.2/min (93% of the agent's own pace)``); the controls once some were answered."""
        parts = []
        if self.done > self._seen[0]:
            rate = window_rate(self._samples, self.done)
            parts.append(self._count() + ", " + _per_minute(rate) + self._pace())
            parts += [self._spend()] + ([f"{self.cached:,} cached"] if self.cached else [])
        if self._asked() > self._seen[1]:
            parts.append(self._controls(final=False))
        return "  ".join(parts)

    def summary(self, elapsed: float) -> str:
        """What a finished phase of ``elapsed`` seconds adds to its line: its model
        decisions, their pace and spend, or the verdict of its controls (nothing for a phase
        without either)."""
        if self._asked() > self._seen[1]:
            return self._controls(final=True)
        done = self.done - self._seen[0]
        if not done:
            return ""
        pace = _per_minute(done / elapsed if elapsed > 0 else None)
        return f"{self._count()}, {pace}{self._pace()}  {self._spend()}"

    def _pace(self) -> str:
        """`` (93% of the agent's own pace)``: agent decisions' time without the bridge's
        processor time, over their time (nothing for other selectors)."""
        if not self.turn_ms:
            return ""
        return f" ({1 - self.bridge_ms / self.turn_ms:.0%} of the agent's own pace)"

    def _count(self) -> str:
        planned = f"/{self.planned:,}" if self.planned else ""
        return f"model {self.done:,}{planned}"

    def _spend(self) -> str:
        if not self.priced:
            return "spend unknown (no price)"
        text = f"{_usd(self.spent)} spent"
        left = (self.planned or 0) - self.done
        if left > 0:
            text += f", ~{_usd(self.spent + self.spent / self.done * left)} projected"
        return text

    def _controls(self, *, final: bool) -> str:
        from skillbench.metrics import control_stats

        rows: Sequence[ResultRow] = [r for cell in self.controls.values() for r in cell]
        hits = sum(r.outcome == "correct_skill" for r in rows)
        text = f"controls {hits:,}/{len(rows):,} triggered"
        if not final:
            missed = sum(
                any(r.outcome != "correct_skill" for r in c) for c in self.controls.values()
            )
            return text + (f", {missed} cell(s) with a miss" if missed else "")
        stats = [control_stats(c, self.plan.threshold) for c in self.controls.values()]
        failed = sum(s is not None and s.failed for s in stats)
        if not failed:
            return text + ", every cell passed"
        return text + f", {failed} cell(s) failed (below {self.plan.threshold:.0%})"
