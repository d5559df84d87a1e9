"""Terminal progress for ``skillbench run``: one line per phase, on stderr, TTY only.

A run spends its first half-minute loading inputs and models and embedding texts before the
first decision; a single decisions bar sat at zero through that and then extrapolated a
wild ETA from it. Here every phase shows its own line with its elapsed time, and the
replay's ETA is taken from the replay alone, once it has a rate to go on.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Mapping
from typing import Any, TextIO

from skillbench.types import UNANSWERED, UNWANTED

TICK = 0.2
"""Seconds between redraws of the current line."""
SETTLE = (0.02, 2.0)
"""The ETA appears once this share of the decisions is done and this many seconds passed."""


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

    def __init__(self, stream: TextIO = sys.stderr) -> None:
        self.stream = stream
        self.name: str | None = None
        self.total: int | None = None
        self.done = self.errors = self.unwanted = 0
        self.started = 0.0
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
            self._draw()

    def decision(self, row: Mapping[str, Any]) -> None:
        """Count one finished decision of the replay."""
        with self._lock:
            self.done += 1
            self.errors += row.get("outcome") in UNANSWERED
            self.unwanted += row.get("outcome") in UNWANTED

    def close(self) -> None:
        """Close the last phase and stop redrawing."""
        self._stop.set()
        self._thread.join()
        with self._lock:
            self._finish()
            self.name = None

    def line(self) -> str:
        """The current phase's status line."""
        elapsed = time.monotonic() - self.started
        if self.total is None or self.name is None:
            return f"… {self.name}  {_clock(elapsed)}"
        share = self.done / self.total if self.total else 1.0
        eta = "–"
        if self.done and share >= SETTLE[0] and elapsed >= SETTLE[1]:
            eta = _clock(elapsed / self.done * (self.total - self.done))
        return (
            f"… {self.name}  {self.done:,}/{self.total:,} ({share:.0%})  {_clock(elapsed)} "
            f"ETA {eta}  errors {self.errors:,}  unwanted invocations {self.unwanted:,}"
        )

    def _finish(self) -> None:
        if self.name is None:
            return
        elapsed = time.monotonic() - self.started
        counted = f" {self.done:,}/{self.total:,}" if self.total is not None else ""
        self.stream.write(f"\r\033[K✓ {self.name}{counted}  {_clock(elapsed)}\n")
        self.stream.flush()

    def _draw(self) -> None:
        if self.name is not None:
            self.stream.write("\r\033[K" + self.line())
            self.stream.flush()

    def _tick(self) -> None:
        while not self._stop.wait(TICK):
            with self._lock:
                self._draw()
