"""Which skills ``eval`` scores and which catalog each is listed in.

A path on the command line is a skill folder (it holds a SKILL.md), one of its eval files
(the skill is the nearest folder above with a SKILL.md), or a folder of skill folders
(every child with a SKILL.md). Each skill is listed among its siblings, the skills of its
parent folder, unless the caller gives the catalog's sources.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.catalog import Catalog, Skill, load_catalog
from skillbench.evalsets import TriggerSet, eval_files, load_trigger_set

SKILL_MD = "SKILL.md"


@dataclass(frozen=True)
class Target:
    """A skill to score: its folder, the eval files given for it (empty: its ``evals/``),
    the catalog sources it is listed among, and whether it was named (a skill found in a
    folder of skills may have no set; a named one must)."""

    skill_dir: Path
    files: tuple[Path, ...]
    sources: tuple[str, ...]
    named: bool = True

    @property
    def has_set(self) -> bool:
        return bool(self.files or eval_files(self.skill_dir))


@dataclass(frozen=True)
class LoadedTarget:
    """A target with its skill and trigger set loaded."""

    target: Target
    skill: Skill
    trigger_set: TriggerSet


def skill_folders(root: Path) -> list[Path]:
    """The skill folders directly under ``root``, sorted by name."""
    return sorted(p.parent for p in root.glob(f"*/{SKILL_MD}") if p.is_file())


def _owner(file: Path) -> Path:
    for folder in file.resolve().parents:
        if (folder / SKILL_MD).is_file():
            return folder
    raise InputError(Location(str(file)), "no SKILL.md in any folder above this eval file")


def find_targets(paths: Sequence[str], catalog: Sequence[str] = ()) -> list[Target]:
    """Targets for the command-line ``paths``, one per skill folder, in the order given.

    Raises:
        InputError: a path that does not exist, or a folder holding no skill.
    """
    files: dict[Path, list[Path]] = {}
    named: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            files.setdefault(_owner(path), []).append(path)
            named.add(_owner(path))
        elif (path / SKILL_MD).is_file():
            files.setdefault(path.resolve(), [])
            named.add(path.resolve())
        elif path.is_dir():
            found = skill_folders(path)
            if not found:
                raise InputError(Location(raw), "neither a skill folder nor a folder of skills")
            for folder in found:
                files.setdefault(folder.resolve(), [])
        else:
            raise InputError(Location(raw), "not found")
    return [
        Target(folder, tuple(given), tuple(catalog) or (str(folder.parent),), folder in named)
        for folder, given in files.items()
    ]


def _skill_of(catalog: Catalog, target: Target) -> Skill:
    path = target.skill_dir / SKILL_MD
    for skill in catalog.skills:
        if skill.path is not None and Path(skill.path).resolve() == path:
            return skill
    problems = [str(d) for d in catalog.diagnostics if Path(d.path).resolve() == path]
    why = f": {'; '.join(problems)}" if problems else ""
    raise SkillbenchError(
        f"{path} is not in the catalog {', '.join(target.sources)} as the profile loads it{why}"
    )


@dataclass(frozen=True)
class ResolvedSkill:
    """A target's skill as the profile loads it, and the catalog it is listed in."""

    target: Target
    skill: Skill
    catalog: Catalog


def resolve_skills(targets: Sequence[Target], profile: str) -> list[ResolvedSkill]:
    """Each target's skill and catalog (each distinct catalog loaded once)."""
    catalogs: dict[tuple[str, ...], Catalog] = {}
    resolved = []
    for target in targets:
        if target.sources not in catalogs:
            catalogs[target.sources] = load_catalog(list(target.sources), profile=profile)
        catalog = catalogs[target.sources]
        resolved.append(ResolvedSkill(target, _skill_of(catalog, target), catalog))
    return resolved


class WithSets(NamedTuple):
    """The skills with their trigger sets, and the names of those found without one."""

    loaded: list[LoadedTarget]
    without_set: list[str]


def with_sets(resolved: Sequence[ResolvedSkill]) -> WithSets:
    """Each resolved skill with its trigger set; a skill found in a folder of skills with
    no eval file is listed apart.

    Raises:
        InputErrors: a bad eval file, with file and line.
        SkillbenchError: a named skill without trigger queries.
    """
    loaded = [
        LoadedTarget(
            r.target, r.skill, load_trigger_set(r.skill.name, r.target.skill_dir, r.target.files)
        )
        for r in resolved
        if r.target.named or r.target.has_set
    ]
    kept = {id(item.target) for item in loaded}
    return WithSets(loaded, [r.skill.name for r in resolved if id(r.target) not in kept])
