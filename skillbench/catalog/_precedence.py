"""Which skill wins a name (or real-path) collision, per agent profile (FIELD-NOTES 2 and 3).

A rule is data: an order of source kinds (empty = the order sources were configured in) and
whether the earlier or the later source wins. Sources are sorted stably by kind rank, so two
sources of one kind keep their configured order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from skillbench._registry import Registry
from skillbench.catalog._skill import SourceKind


@dataclass(frozen=True, slots=True)
class Precedence:
    """One profile's collision rule.

    Attributes:
        kind_order: source kinds from first-scanned to last; empty keeps configured order.
        later_wins: True when a later source overrides an earlier one.
        summary: the rule in words, used in override reasons.
    """

    kind_order: tuple[SourceKind, ...]
    later_wins: bool
    summary: str

    def rank(self, kind: SourceKind) -> int:
        return self.kind_order.index(kind) if kind in self.kind_order else len(self.kind_order)

    def order(self, kinds: Sequence[SourceKind]) -> list[int]:
        """Indices of ``kinds`` (sources in configured order) in scan order."""
        return sorted(range(len(kinds)), key=lambda i: (self.rank(kinds[i]), i))


PRECEDENCE: Registry[Precedence] = Registry("profile")

PRECEDENCE.register("codebot")(
    Precedence((), True, "codebot: a later source overrides an earlier one (config order)")
)
PRECEDENCE.register("claude-code")(
    Precedence(
        ("managed", "user", "project", "extra", "bundled", "plugin"),
        False,
        "claude-code: first found wins (managed, user, project, extra, legacy)",
    )
)
PRECEDENCE.register("codex")(
    Precedence(
        ("project", "user", "bundled", "managed", "extra", "plugin"),
        False,
        "codex: first wins (repo, user, system, admin)",
    )
)
PRECEDENCE.register("openharness")(
    Precedence(
        ("bundled", "user", "extra", "project", "plugin", "managed"),
        True,
        "openharness: later wins (bundled, user, extra, project, plugin)",
    )
)
