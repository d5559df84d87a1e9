"""The PR-scoped pick: skills whose files changed since a git ref, and their look-alikes.

Changed files are ``git diff --name-only BASE...HEAD`` (what the branch changed since it
left BASE) plus uncommitted changes and untracked files, so a gate run locally before a
commit sees the edit too. A changed description can start taking its neighbours' queries,
so each changed skill brings the skills most likely to be confused with it (``overlap``'s
ranking: embedding cosine and symmetric BM25 of the listing entries).
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.authoring._eval_targets import ResolvedSkill
from skillbench.authoring._overlap import overlap_pairs
from skillbench.authoring._scorecard import ChangedSelection

Embed = Callable[[list[str]], object]


def _git(args: Sequence[str], cwd: Path) -> list[str]:
    try:
        done = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=60
        )
    except FileNotFoundError:
        raise SkillbenchError("--changed needs git, which is not installed") from None
    if done.returncode != 0:
        raise SkillbenchError(f"git {' '.join(args)}: {done.stderr.strip() or done.returncode}")
    return [line for line in done.stdout.splitlines() if line.strip()]


def changed_files(base_ref: str, cwd: Path) -> set[Path]:
    """Absolute paths of the files changed since ``base_ref`` (committed on this branch,
    uncommitted, or untracked and not ignored).

    Raises:
        SkillbenchError: not a git repository, an unknown ref, or no git.
    """
    (root,) = _git(["rev-parse", "--show-toplevel"], cwd)
    top = Path(root)
    names = _git(["diff", "--name-only", f"{base_ref}...HEAD", "--"], top)
    names += _git(["diff", "--name-only", "HEAD", "--"], top)
    names += _git(["ls-files", "--others", "--exclude-standard"], top)
    return {(top / name).resolve() for name in names}


class Picked(NamedTuple):
    """The skills to score and why each was picked."""

    skills: list[ResolvedSkill]
    selection: ChangedSelection


def _lookalikes(item: ResolvedSkill, embed: Embed | None, per_skill: int) -> list[str]:
    """The ``per_skill`` skills of ``item``'s catalog most alike to it."""
    pairs = overlap_pairs(item.catalog.model_invocable, embed=embed)
    name = item.skill.name
    ranked = [p.b if p.a == name else p.a for p in pairs if name in (p.a, p.b)]
    return ranked[:per_skill]


def pick_changed(
    candidates: Sequence[ResolvedSkill],
    changed: set[Path],
    base_ref: str,
    *,
    per_skill: int,
    embed: Embed | None,
) -> Picked:
    """The candidates with a changed file under their folder, plus each one's
    ``per_skill`` look-alikes among the candidates."""
    touched = [
        c
        for c in candidates
        if any(path.is_relative_to(c.target.skill_dir.resolve()) for path in changed)
    ]
    by_name = {c.skill.name: c for c in candidates}
    lookalikes = {
        c.skill.name: [n for n in _lookalikes(c, embed, per_skill) if n in by_name] for c in touched
    }
    names = [c.skill.name for c in touched]
    names += [n for looks in lookalikes.values() for n in looks if n not in names]
    names = list(dict.fromkeys(names))
    selection = ChangedSelection(
        base_ref=base_ref, changed=[c.skill.name for c in touched], lookalikes=lookalikes
    )
    return Picked([by_name[n] for n in names], selection)
