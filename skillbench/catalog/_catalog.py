"""The deduplicated catalog an agent would hold, and the one function that builds it."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Literal

from skillbench._errors import InputError, Location
from skillbench.catalog._loaders import Loaded, load_source
from skillbench.catalog._paths import any_match
from skillbench.catalog._plugins import plugin_name
from skillbench.catalog._precedence import PRECEDENCE, Precedence
from skillbench.catalog._skill import Skill, normalize_name
from skillbench.catalog._types import Diagnostic, Override, SourceSpec, parse_source_arg

SkillStatus = Literal["active", "inactive", "disabled"]
"""disabled: ``disable-model-invocation``; inactive: ``paths`` skill with no matching file."""


@dataclass(frozen=True)
class Catalog:
    """Skills after precedence and dedupe, with everything the loader had to decide or report.

    Attributes:
        profile: the precedence profile used.
        skills: the winners, in catalog order (sources in the profile's scan order, skills in
            path order within a source; a winner takes the slot of the name's first sighting).
        overrides: every collision and who won it.
        diagnostics: problems found on disk; none of them stopped loading.
        cwd: the working directory ``paths`` globs were matched against (None: none given).
        inactive: names of ``paths`` skills with no matching file under ``cwd``.
    """

    profile: str
    skills: tuple[Skill, ...]
    overrides: tuple[Override, ...] = ()
    diagnostics: tuple[Diagnostic, ...] = ()
    cwd: str | None = None
    inactive: frozenset[str] = frozenset()
    _index: Mapping[str, Skill] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        index = {normalize_name(a): s for s in reversed(self.skills) for a in s.aliases}
        index.update((s.key, s) for s in self.skills)
        object.__setattr__(self, "_index", index)

    def get(self, name: str) -> Skill | None:
        """The skill named ``name`` (normalised) or carrying it as an alias."""
        return self._index.get(normalize_name(name))

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[Skill]:
        return iter(self.skills)

    def __len__(self) -> int:
        return len(self.skills)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.skills)

    def status(self, skill: Skill) -> SkillStatus:
        if skill.disable_model_invocation:
            return "disabled"
        return "inactive" if skill.name in self.inactive else "active"

    @property
    def model_invocable(self) -> tuple[Skill, ...]:
        """Skills the model may invoke (``disable-model-invocation`` not set), active or not."""
        return tuple(s for s in self.skills if s.model_invocable)

    @property
    def active(self) -> tuple[Skill, ...]:
        """Skills a listing may show: model-invocable and not held back by ``paths``."""
        return tuple(s for s in self.skills if self.status(s) == "active")

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.severity == "error")


def _describe(skill: Skill) -> str:
    return f"{skill.source} {skill.path}"


def _identity(skill: Skill, rule: Precedence) -> str:
    """What makes two skills the same one to the agent: the normalised name, or for an agent
    that names skills by their folder the folder (``plugin:folder`` for a plugin skill)."""
    if rule.dedupe == "exact_name_and_path":
        return skill.name
    if rule.dedupe == "lowercase_name_and_path":
        return skill.name.strip().lower()
    if rule.dedupe != "folder_and_path" or skill.path is None:
        return skill.key
    path = Path(skill.path)
    if path.name not in ("SKILL.md", "skill.json"):
        return skill.key
    plugin, sep, _ = skill.name.partition(":")
    namespaced = sep and skill.source == "plugin" and rule.namespace_plugins
    return f"{plugin}:{path.parent.name}" if namespaced else path.parent.name


def skill_keys(skill: Skill) -> tuple[str, str]:
    """The names a skill answers to where an agent registers it under both: its own and its
    folder's (its installed folder; a flat file's name without ``.md``)."""
    if skill.path is None:
        return skill.name, skill.name
    path = PurePosixPath(skill.rel_path or Path(skill.path).as_posix())
    if path.name != "SKILL.md":
        return skill.name, path.stem
    return skill.name, path.parent.name or Path(skill.path).parent.name


def kept_by_keys(keys: Sequence[Iterable[str]]) -> list[int | None]:
    """For skills registered in this order under these names each (later ones replacing
    earlier ones name by name), None for a skill that still holds a name, else the index of
    the last skill that took one of its names."""
    owner: dict[str, int] = {}
    for index, names in enumerate(keys):
        owner.update((name, index) for name in names)
    held = set(owner.values())
    return [
        None if index in held else max(owner[name] for name in names)
        for index, names in enumerate(keys)
    ]


def _dedupe_keys(loaded: list[Loaded], rule: Precedence) -> tuple[list[Skill], list[Override]]:
    """``keys`` dedupe: a skill is kept while it holds one of its names (``skill_keys``), in
    the slot of the first skill it (or one it replaced) took names from."""
    skills = [item.skill for item in loaded]
    takers = kept_by_keys([skill_keys(s) for s in skills])
    overrides = [
        Override(
            skills[taker].name,
            skills[taker],
            loser,
            f"its names taken: {_describe(skills[taker])} wins over {_describe(loser)} "
            f"({rule.summary})",
        )
        for loser, taker in zip(skills, takers, strict=True)
        if taker is not None
    ]
    slot = list(range(len(skills)))
    for loser, taker in enumerate(takers):
        if taker is not None:
            slot[taker] = min(slot[taker], slot[loser])
    kept = sorted((i for i, taker in enumerate(takers) if taker is None), key=lambda i: slot[i])
    return [skills[i] for i in kept], overrides


def _dedupe(loaded: list[Loaded], rule: Precedence) -> tuple[list[Skill], list[Override]]:
    """Collapse collisions by normalised name (unless the rule dedupes by file only), then by
    real path, recording each override."""
    if rule.dedupe == "keys":
        return _dedupe_keys(loaded, rule)
    slots: list[Loaded] = []
    by_key: dict[str, int] = {}
    by_real: dict[str, int] = {}
    overrides: list[Override] = []
    by_name = rule.dedupe != "path"
    for item in loaded:
        key = _identity(item.skill, rule)
        slot = by_key.get(key) if by_name else None
        why = "same folder name" if rule.dedupe == "folder_and_path" else "same name"
        if slot is None and item.real is not None:
            slot = by_real.get(item.real)
            why = "same file (real path)"
        if slot is None:
            by_key.setdefault(key, len(slots))
            if item.real is not None:
                by_real[item.real] = len(slots)
            slots.append(item)
            continue
        old = slots[slot]
        winner, loser = (item, old) if rule.later_wins else (old, item)
        overrides.append(
            Override(
                winner.skill.name,
                winner.skill,
                loser.skill,
                f"{why}: {_describe(winner.skill)} wins over {_describe(loser.skill)} "
                f"({rule.summary})",
            )
        )
        slots[slot] = winner
        by_key.setdefault(_identity(winner.skill, rule), slot)
        if winner.real is not None:
            by_real.setdefault(winner.real, slot)
    return [item.skill for item in slots], overrides


def _located(
    items: list[Loaded], spec: SourceSpec, rule: Precedence, diags: list[Diagnostic]
) -> list[Loaded]:
    """``items`` with ``rel_path`` set and, where the rule says so, plugin names namespaced."""
    root = Path(spec.path)
    base = root if root.is_dir() else root.parent
    out: list[Loaded] = []
    for item in items:
        skill = item.skill
        if skill.path is None:
            out.append(item)
            continue
        rel = item.installed or Path(os.path.relpath(skill.path, base)).as_posix()
        name = skill.name
        if rule.namespace_plugins and spec.kind == "plugin":
            plugin = plugin_name(Path(skill.path).parent, base, diags)
            if plugin is not None:
                name = f"{plugin}:{skill.name}"
        located = replace(skill, rel_path=rel, root=str(base), name=name)
        out.append(Loaded(located, item.real, item.installed))
    return out


def load_catalog(
    sources: Sequence[SourceSpec | str],
    *,
    profile: str | Precedence = "codebot",
    cwd: str | Path | None = None,
) -> Catalog:
    """Load every source and apply ``profile``'s precedence, dedupe and ``paths`` activation.

    Args:
        sources: source specs, or ``"kind=path"`` / ``"path"`` strings, in any order: the
            profile's own source order decides who wins a collision.
        profile: a built-in agent's name (``PRECEDENCE``) or its loading rules.
        cwd: working directory for ``paths`` globs; with None every ``paths`` skill is inactive.

    Raises:
        SkillbenchError: unknown profile or source kind, or a source path that does not exist.
    """
    rule = PRECEDENCE.get(profile) if isinstance(profile, str) else profile
    cwd_text = None if cwd is None else str(cwd)
    if cwd_text is not None and not Path(cwd_text).is_dir():
        raise InputError(Location(cwd_text), "working directory not found")
    specs = [s if isinstance(s, SourceSpec) else parse_source_arg(s) for s in sources]
    diagnostics: list[Diagnostic] = []
    loaded: list[Loaded] = []
    for index in rule.order([s.kind for s in specs]):
        spec = specs[index]
        found = _located(load_source(spec, diagnostics, profile=rule), spec, rule, diagnostics)
        if rule.walk == "descending":
            found.sort(key=lambda item: (item.skill.rel_path or "").split("/"), reverse=True)
        elif rule.walk == "path_text":
            found.sort(key=lambda item: item.skill.rel_path or "")
        elif rule.walk == "directory":
            found.sort(key=_listed_position(spec.path))
        loaded.extend(found)
    skills, overrides = _dedupe(loaded, rule)
    return Catalog(
        rule.name,
        tuple(skills),
        tuple(overrides),
        tuple(dict.fromkeys(diagnostics)),
        cwd_text,
        _inactive(skills, rule, cwd_text),
    )


def _listed_position(source: str) -> Callable[[Loaded], int]:
    """Where a skill's top folder (or file) comes as the file system lists ``source``."""
    try:
        names = os.listdir(os.path.expanduser(source))
    except OSError:
        names = []
    position = {name: index for index, name in enumerate(names)}
    return lambda item: position.get((item.skill.rel_path or "").split("/")[0], len(names))


def _inactive(skills: Sequence[Skill], rule: Precedence, cwd: str | None) -> frozenset[str]:
    """Names of the ``paths`` skills the agent would not list at the start of a session."""
    if rule.paths == "ignored":
        return frozenset()
    return frozenset(
        s.name
        for s in skills
        if s.paths
        and s.source not in rule.paths_ignored_for
        and (rule.paths == "touched" or cwd is None or not any_match(s.paths, cwd))
    )
