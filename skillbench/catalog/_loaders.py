"""Loaders for each on-disk format; one source path → skills plus diagnostics, never a crash.

Formats: ``<dir>/**/<name>/SKILL.md`` folders (every agent's), ``skill.json``
declarations (agent-skills style, alone or beside a SKILL.md), flat ``*.md`` files at a
directory's top level (bundled sources, ``Precedence.flat_files``) and JSONL tool lists
(``{"name", "description"}`` per line, MetaTool). Every file is read through
``skillbench._io`` (regular files only, bounded, one encoding policy). A SKILL.md name must
follow the Agent Skills rule; the other formats accept any safe single-line name.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from skillbench._errors import InputError, Location
from skillbench._io import MAX_INPUT_BYTES, head_bytes, iter_lines, loads_json
from skillbench.catalog._fields import (
    first_heading,
    listed_texts,
    make_skill,
    read_fields,
    safe_texts,
)
from skillbench.catalog._frontmatter import kept_body, line_finder, markdown_fields, read_text
from skillbench.catalog._precedence import CODEBOT, Precedence
from skillbench.catalog._skill import Skill
from skillbench.catalog._types import Diagnostic, LoadRules, SourceSpec
from skillbench.catalog._walk import FOLDER_RULES, walk

SKILL_MD = "SKILL.md"
SKILL_JSON = "skill.json"
NOT_SKILLS = frozenset({"readme", "changelog", "contributing", "license"})
"""Stems of top-level Markdown files that document a folder rather than declare a skill."""


@dataclass(frozen=True, slots=True)
class Loaded:
    """A loaded skill, the real path used for symlink dedupe (None: file shared by many), and
    where its file lies once installed (``installed``, see ``_directory_skills``; None: below
    the source as it is)."""

    skill: Skill
    real: str | None
    installed: str | None = None


def _json_line_finder(text: str) -> Callable[[str], int | None]:
    def line_of(key: str) -> int | None:
        at = text.find(f'"{key}"')
        return None if at < 0 else text.count("\n", 0, at) + 1

    return line_of


def _json_fields(
    path: Path, diagnostics: list[Diagnostic]
) -> tuple[dict[str, Any], Callable[[str], int | None]] | None:
    text = read_text(path, diagnostics)
    if text is None:
        return None
    try:
        data = loads_json(text, str(path))
    except InputError as exc:
        diagnostics.append(Diagnostic(str(path), exc.location.line, exc.reason, "error"))
        return None
    if not isinstance(data, dict):
        diagnostics.append(
            Diagnostic(str(path), 1, f"expected a JSON object, got {type(data).__name__}", "error")
        )
        return None
    line_of = _json_line_finder(text)
    fields, problems = read_fields(data, str(path), line_of)
    diagnostics.extend(problems)
    return fields, line_of


def _markdown_skill(
    path: Path,
    real: str,
    spec: SourceSpec,
    rules: LoadRules,
    folder_name: str | None,
    diagnostics: list[Diagnostic],
) -> Loaded | None:
    """A SKILL.md (``folder_name`` given; merged over a sibling skill.json) or a flat file,
    whose real path is ``real``."""
    fields: dict[str, Any] = {}
    json_path = path.parent / SKILL_JSON
    if folder_name is not None and os.path.lexists(json_path):
        declared = _json_fields(json_path, diagnostics)
        fields = declared[0] if declared else {}
    if rules.byte_order_mark == "refused" and _opens_with_bom(path):
        diagnostics.append(
            Diagnostic(
                str(path), 1, f"{rules.agent} does not load a file opening with a BOM", "error"
            )
        )
        return None
    text = read_text(path, diagnostics, mark=rules.byte_order_mark)
    parsed = (
        None
        if text is None
        else markdown_fields(str(path), text, diagnostics, reader=rules.front_matter)
    )
    if parsed is None:
        return None
    own, doc = parsed
    if missing := [k for k in rules.required if not isinstance((doc.meta or {}).get(k), str)]:
        reason = f"{rules.agent} needs a text {' and '.join(missing)}; skill skipped"
        diagnostics.append(Diagnostic(str(path), 1, reason, "error"))
        return None
    fields.update(own)
    if folder_name is not None:
        default = folder_name
    else:
        default = (first_heading(doc.body) if doc.meta is None else None) or path.stem
    skill, problems = make_skill(
        fields,
        path=str(path),
        source=spec.kind,
        default_name=default,
        name_rule=rules.names if path.name == SKILL_MD else "identifier",
        text_rule=rules.text,
        strict_limits=rules.strict_limits,
        body=doc.kept_body(str(path)),
        line_of=line_finder(doc.key_lines),
        warn_missing_description=doc.meta is not None and "description" not in fields,
    )
    diagnostics.extend(problems)
    if skill is None:
        return None
    listed = listed_texts(doc.meta, skill, rules.text) if doc.meta else {}
    listed.update(safe_texts(doc.listed))
    if rules.empty_fields == "listed" and doc.meta:
        listed |= {k: "" for k in ("name", "description") if doc.meta.get(k) == ""}
    return Loaded(replace(skill, listed=listed) if listed else skill, real)


def _outside(path: Path, root: Path) -> bool:
    """Whether ``path``'s real path lies outside ``root``'s."""
    return not os.path.realpath(path).startswith(os.path.realpath(root) + os.sep)


def _opens_with_bom(path: Path) -> bool:
    """Whether ``path`` opens with a UTF-8 or UTF-16 byte-order mark."""
    return head_bytes(path, 3).startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff"))


def _json_skill(
    path: Path, spec: SourceSpec, rules: LoadRules, diagnostics: list[Diagnostic]
) -> Loaded | None:
    declared = _json_fields(path, diagnostics)
    if declared is None:
        return None
    fields, line_of = declared
    default = path.parent.name if path.name == SKILL_JSON else path.stem
    # A declaration keeps its instructions in a README.md beside it: that is the body.
    readme = path.parent / "README.md"
    text = (read_text(readme, diagnostics) or "") if os.path.lexists(readme) else ""
    skill, problems = make_skill(
        fields,
        path=str(path),
        source=spec.kind,
        default_name=default,
        name_rule="identifier",
        strict_limits=rules.strict_limits,
        body=kept_body(str(readme), text),
        line_of=line_of,
    )
    diagnostics.extend(problems)
    return None if skill is None else Loaded(skill, os.path.realpath(path))


def _at_line(number: int) -> Callable[[str], int | None]:
    """Every key of a JSONL record sits on the record's line."""
    return lambda _key: number


def _jsonl_skills(
    path: Path, spec: SourceSpec, rules: LoadRules, diagnostics: list[Diagnostic]
) -> list[Loaded]:
    """One tool per line; a bad line (bytes, JSON, shape) loses only itself."""
    loaded: list[Loaded] = []
    name = str(path)
    notes: list[str] = []
    try:
        lines = list(iter_lines(path, limit=MAX_INPUT_BYTES, notes=notes))
    except InputError as exc:
        diagnostics.append(Diagnostic(name, exc.location.line, f"{exc.reason}; skipped", "error"))
        return []
    diagnostics.extend(Diagnostic(name, None, note, "warning") for note in notes)
    for number, line, error in lines:
        if error is not None or line is None:
            reason = error.reason if error is not None else "unreadable line"
            diagnostics.append(Diagnostic(name, number, f"{reason}; line skipped", "error"))
            continue
        if not line.strip():
            continue
        try:
            data = loads_json(line, name, line=number)
        except InputError as exc:
            diagnostics.append(Diagnostic(name, number, f"{exc.reason}; line skipped", "error"))
            continue
        if not isinstance(data, dict) or not isinstance(data.get("name"), str):
            diagnostics.append(
                Diagnostic(name, number, "expected an object with a 'name' string", "error")
            )
            continue
        line_of = _at_line(number)
        fields, problems = read_fields(data, name, line_of)
        skill, more = make_skill(
            fields,
            path=name,
            source=spec.kind,
            default_name="",
            name_rule="identifier",
            strict_limits=rules.strict_limits,
            line_of=line_of,
        )
        diagnostics.extend(problems + more)
        if skill is not None:
            loaded.append(Loaded(skill, None))
    return loaded


def _keep(name: str, depth: int) -> bool:
    if name in (SKILL_MD, SKILL_JSON):
        return True
    stem, ext = os.path.splitext(name)
    return depth == 0 and ext.lower() == ".md" and stem.lower() not in NOT_SKILLS


def _directory_skills(
    root: Path, spec: SourceSpec, rules: LoadRules, diagnostics: list[Diagnostic]
) -> list[Loaded]:
    """The skills under ``root`` as an agent finds them once the source is installed: every
    outermost ``SKILL.md`` folder placed in the agent's skills folder by its own name, what
    lies inside it with it, so a skill's level is counted from its outermost skill folder."""
    loaded: list[Loaded | None] = []
    skill_folders: set[tuple[str, ...]] = set()
    outermost: set[tuple[str, ...]] = set()
    for folder in sorted(
        walk(
            str(root),
            _keep,
            diagnostics,
            links=rules.links,
            max_depth=rules.walk_depth,
            max_dirs=rules.walk_dirs,
            sealed_by=None if rules.nested else SKILL_MD,
            enters=FOLDER_RULES.get(rules.folders),
        ),
        key=lambda f: f.rel,
    ):
        here = Path(folder.path)
        name = folder.rel[-1] if folder.rel else root.resolve().name
        if SKILL_MD in folder.files or SKILL_JSON in folder.files:
            outer = _outermost(folder.rel, skill_folders)
            skill_folders.add(folder.rel)
            if outer is not None and not rules.nested:
                diagnostics.append(_nested(here, root, outer))
                continue
        outer_md = None
        if SKILL_MD in folder.files:
            outer_md = _outermost(folder.rel, outermost)
            outer_md = folder.rel if outer_md is None else outer_md
            if outer_md == folder.rel:
                outermost.add(folder.rel)
            level = len(folder.rel) - len(outer_md) + 1
            if rules.depth is not None and level > rules.depth:
                diagnostics.append(_too_deep(here, root, rules))
                continue
        if SKILL_MD in folder.files and rules.contained and _outside(here / SKILL_MD, root):
            reason = f"{rules.agent} does not load a skill whose file lies outside {root}"
            diagnostics.append(Diagnostic(str(here / SKILL_MD), None, reason, "error"))
            continue
        if SKILL_MD in folder.files:
            real = folder.real(SKILL_MD)
            one = _markdown_skill(here / SKILL_MD, real, spec, rules, name, diagnostics)
            if one is not None and outer_md is not None:
                top = outer_md[-1] if outer_md else root.resolve().name
                placed = (top, *folder.rel[len(outer_md) :], SKILL_MD)
                one = Loaded(one.skill, one.real, "/".join(placed))
            loaded.append(one)
        elif SKILL_JSON in folder.files:
            loaded.append(_json_skill(here / SKILL_JSON, spec, rules, diagnostics))
        if folder.rel or SKILL_MD in folder.files:
            continue
        flat = [
            (here / file, real)
            for file, real in zip(folder.files, folder.reals, strict=True)
            if file != SKILL_JSON
        ]
        if rules.flat_files:
            loaded.extend(
                _markdown_skill(file, real, spec, rules, None, diagnostics) for file, real in flat
            )
        else:
            diagnostics.extend(
                Diagnostic(
                    str(file),
                    None,
                    "loose Markdown file ignored: skills are <name>/SKILL.md folders here "
                    "(top-level *.md files are skills only in bundled sources and where an "
                    "agent's loading rules read flat files)",
                    "warning",
                )
                for file, _ in flat
            )
    return [item for item in loaded if item is not None]


def _outermost(rel: tuple[str, ...], found: set[tuple[str, ...]]) -> tuple[str, ...] | None:
    """The shortest of ``found`` that ``rel`` lies in (folders come in sorted order, so an
    ancestor was found before its descendants), looked up per level, not per folder found."""
    return next((rel[:k] for k in range(len(rel) + 1) if rel[:k] in found), None)


def _too_deep(here: Path, root: Path, rules: LoadRules) -> Diagnostic:
    levels = "one level" if rules.depth == 1 else f"{rules.depth} levels"
    return Diagnostic(
        str(here),
        None,
        f"not listed: installed from {root}, it lies inside another skill's folder, and "
        f"{rules.agent} reads skills only {levels} below its skills folder",
        "warning",
    )


def _nested(here: Path, root: Path, outer: tuple[str, ...]) -> Diagnostic:
    owner = root.joinpath(*outer) if outer else root
    return Diagnostic(
        str(here),
        None,
        f"not listed: inside the skill folder {owner}, whose files it is to this agent "
        "(only the outermost SKILL.md of a folder is a skill)",
        "warning",
    )


def load_source(
    spec: SourceSpec, diagnostics: list[Diagnostic], *, profile: Precedence = CODEBOT
) -> list[Loaded]:
    """Every skill under ``spec.path`` in path order, by ``profile``'s loader rules.

    Problems go to ``diagnostics``.

    Raises:
        InputError: the path does not exist or is a file of an unsupported type.
    """
    rules = profile.load_rules(spec.kind)
    path = Path(os.path.expanduser(spec.path))
    if path.is_dir():
        return _directory_skills(path, spec, rules, diagnostics)
    if not path.exists():
        raise InputError(Location(spec.path), "skill source not found")
    suffix = path.suffix.lower()
    if suffix == ".md":
        folder = path.parent.resolve().name if path.name == SKILL_MD else None
        one = _markdown_skill(path, os.path.realpath(path), spec, rules, folder, diagnostics)
    elif suffix == ".json":
        one = _json_skill(path, spec, rules, diagnostics)
    elif suffix == ".jsonl":
        return _jsonl_skills(path, spec, rules, diagnostics)
    else:
        raise InputError(
            Location(spec.path),
            "unsupported skill source: expected a directory, .md, .json or .jsonl",
        )
    return [one] if one is not None else []
