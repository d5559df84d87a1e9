"""Progress for ``skillbench run``: one line per phase, on stderr.

A run spends its first half-minute loading inputs and models and embedding texts before the
first decision; a single decisions bar sat at zero through that and then extrapolated a
wild ETA from it. Here every phase shows its own line with its elapsed time, and the
replay's ETA comes from the rate of its last 30 seconds (``_progress_live.WINDOW``: a
model's cache hits and a cell's first listings make the early rate a poor guide). On a
terminal the current line is redrawn in place; elsewhere (CI logs) a plain line is printed
every ``PLAIN_EVERY`` seconds.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, TextIO

from skillbench.cli._progress_live import LivePlan, LiveStatus, window_rate
from skillbench.types import UNANSWERED, UNWANTED

if TYPE_CHECKING:
    from skillbench.results import ResultRow

TICK = 0.2
"""Seconds between redraws of the current line."""
SETTLE = (0.02, 2.0)
"""The ETA appears once this share of the decisions is done and this many seconds passed."""
PLAIN_EVERY = 15.0
"""Seconds between progress lines when stderr is not a terminal."""


def _clock(seconds: float) -> str:
    seconds = int(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class TerminalProgress:
    """Implements the run observer: ``phase(name, total)`` and ``decision(row)``.

    Finished phases stay on screen with their duration; the current one is redrawn in place
    every ``TICK`` seconds by a daemon thread, so a phase blocked in a model load still shows
    time passing.
    """

    def __init__(
        self, stream: TextIO = sys.stderr, *, plain: bool = False, live: LivePlan | None = None
    ) -> None:
        self.stream = stream
        self.plain = plain
        self.live = None if live is None else LiveStatus(live)
        self.name: str | None = None
        self.total: int | None = None
        self.done = self.errors = self.unwanted = 0
        self.started = 0.0
        self._samples: deque[tuple[float, int]] = deque()
        self._printed = 0.0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, daemon=True)
        self._thread.start()

    def phase(self, name: str, total: int | None = None) -> None:
        """Close the current phase and start ``name`` (``total`` items when known)."""
        with self._lock:
            self._finish()
            self.name, self.total, self.started = name, total, time.monotonic()
            self.done = 0
            self._samples.clear()
            if self.live is not None:
                self.live.phase(total)
            self._printed = self.started - PLAIN_EVERY  # a new phase prints at once
            self._draw()

    def decision(self, row: ResultRow) -> None:
        """Count one finished decision of the replay."""
        with self._lock:
            self.done += 1
            self.errors += row.outcome in UNANSWERED
            self.unwanted += row.outcome in UNWANTED
            if self.live is not None:
                self.live.decision(row)

    def count(self, done: int, total: int) -> None:
        """Set the current phase's count: ``done`` of ``total`` (texts embedded)."""
        with self._lock:
            self.done, self.total = done, total

    def close(self, *, finished: bool = True) -> None:
        """Close the last phase (``finished=False``: it was interrupted) and stop redrawing."""
        self._stop.set()
        self._thread.join()
        with self._lock:
            self._finish(finished)
            self.name = None

    def line(self) -> str:
        """The current phase's status line."""
        elapsed = time.monotonic() - self.started
        if self.total is None or self.name is None:
            return f"… {self.name}  {_clock(elapsed)}"
        share = self.done / self.total if self.total else 1.0
        eta = "–"
        rate = self._rate()
        if rate and share >= SETTLE[0] and elapsed >= SETTLE[1]:
            eta = _clock((self.total - self.done) / rate)
        return (
            f"… {self.name}  {self.done:,}/{self.total:,} ({share:.0%})  {_clock(elapsed)} "
            f"ETA {eta}  errors {self.errors:,}  unwanted invocations {self.unwanted:,}"
            + self._live(self.live.line() if self.live is not None else "")
        )

    @staticmethod
    def _live(text: str) -> str:
        return f"  {text}" if text else ""

    def _rate(self) -> float | None:
        """Decisions per second over the recent window (None: too early to say)."""
        return window_rate(self._samples, self.done)

    def _finish(self, finished: bool = True) -> None:
        if self.name is None:
            return
        elapsed = time.monotonic() - self.started
        counted = f" {self.done:,}/{self.total:,}" if self.total is not None else ""
        mark, end = ("✓", "") if finished else ("✗", "  interrupted")
        end = self._live(self.live.summary(elapsed) if self.live is not None else "") + end
        erase = "" if self.plain else "\r\033[K"
        self.stream.write(f"{erase}{mark} {self.name}{counted}  {_clock(elapsed)}{end}\n")
        self.stream.flush()

    def _draw(self) -> None:
        if self.name is None:
            return
        if self.plain:
            now = time.monotonic()
            if now - self._printed >= PLAIN_EVERY:
                self._printed = now
                self.stream.write(self.line() + "\n")
                self.stream.flush()
            return
        self.stream.write("\r\033[K" + self.line())
        self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                self._draw()


def make_progress(stream: TextIO, live: LivePlan | None = None) -> TerminalProgress:
    """Progress on ``stream``: redrawn in place on a terminal, plain lines elsewhere; a run
    with model cells (``live``) also shows their pace, spend and controls."""
    return TerminalProgress(stream, plain=not stream.isatty(), live=live)
