"""What a fuzz run found, per agent release."""

from __future__ import annotations

from dataclasses import dataclass

from skillbench.types import JsonObject


@dataclass(frozen=True)
class FuzzDifference:
    """One capture whose listing differs from skillbench's render.

    Attributes:
        label / shapes: the catalog and the shape classes it held.
        first_difference / lines: where and how the original capture differed.
        skills: skill files of the minimal catalog (None: not shrunk, see ``reproducer``).
        reproducer: the reproducer folder (None: none written).
    """

    label: str
    shapes: tuple[str, ...]
    first_difference: int | None
    lines: tuple[str, ...]
    skills: int | None
    reproducer: str | None

    def to_json(self) -> JsonObject:
        return {
            "label": self.label,
            "shapes": list(self.shapes),
            "first_difference": self.first_difference,
            "lines": list(self.lines[:40]),
            "minimal_skills": self.skills,
            "reproducer": self.reproducer,
        }


@dataclass(frozen=True)
class AgentFuzz:
    """The run against one installed release.

    Attributes:
        agent / version / executable: the release checked.
        catalogs / skills: captures compared and the skill files they held.
        differences: the captures that differed.
        errors: captures that could not be made (an agent that did not start), one line each.
        seconds: wall time, shrinking included.
        notes: what the profile could not model (an unverified release), and agent failures
            it predicted (the file that makes the agent fail every turn).
    """

    agent: str
    version: str
    executable: str
    catalogs: int
    skills: int
    differences: tuple[FuzzDifference, ...]
    errors: tuple[str, ...]
    seconds: float
    notes: tuple[str, ...] = ()

    def summary(self) -> str:
        head = (
            f"{self.agent}@{self.version}: {self.catalogs} catalogs, {self.skills} skills "
            f"compared, {len(self.differences)} differing, {len(self.errors)} errors, "
            f"{self.seconds:.1f} s"
        )
        lines = [head]
        for d in self.differences:
            size = "not shrunk" if d.skills is None else f"minimal {d.skills} skill(s)"
            lines.append(f"  {d.label} [{', '.join(d.shapes[:6])}]: {size} -> {d.reproducer}")
            lines += [f"    {line}" for line in d.lines[2:8]]
        lines += [f"  error: {e}" for e in self.errors]
        lines += [f"  note: {n}" for n in dict.fromkeys(self.notes)]
        return "\n".join(lines)

    def to_json(self) -> JsonObject:
        return {
            "agent": self.agent,
            "version": self.version,
            "executable": self.executable,
            "catalogs": self.catalogs,
            "skills": self.skills,
            "differences": [d.to_json() for d in self.differences],
            "errors": list(self.errors),
            "seconds": round(self.seconds, 2),
            "notes": list(dict.fromkeys(self.notes)),
        }
