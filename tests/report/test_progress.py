"""Terminal phases: each phase closes with its time, the replay counts errors and false
invocations, and the ETA waits for a rate."""

from __future__ import annotations

import io

from skillbench.cli._progress import TerminalProgress


def test_phases_counts_and_eta() -> None:
    out = io.StringIO()
    progress = TerminalProgress(out)
    progress.phase("loading requests and catalogs")
    progress.phase("replaying decisions", 4)
    assert "ETA –" in progress.line()  # no rate yet: no guess
    for outcome in ("correct_skill", "error", "false_trigger", "wrong_skill"):
        progress.decision({"outcome": outcome})
    line = progress.line()
    assert "4/4 (100%)" in line and "errors 1" in line and "false invocations 2" in line
    progress.close()
    closed = [x for x in out.getvalue().replace("\r", "\n").splitlines() if x.startswith("\x1b[K✓")]
    assert [x.split("  ")[0] for x in closed] == [
        "\x1b[K✓ loading requests and catalogs",
        "\x1b[K✓ replaying decisions 4/4",
    ]
