"""``lint``: what an agent will reject, cut, hide or confuse in a set of skill sources.

Parsing is the catalog loader's job: its diagnostics become ``SB001``/``SB002`` findings, and
the rules below read the loaded skills. Line numbers of frontmatter keys come from a plain
text search of the key in the file, not from a second parse.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import islice
from pathlib import Path

from skillbench._io import split_lines
from skillbench._sanitize import AGENT_SKILLS_NAME
from skillbench.agentspec import AGENT_SPECS, default_agents
from skillbench.authoring._builtins import builtin_collisions
from skillbench.authoring._lint_portability import portability_findings
from skillbench.authoring._placeholders import unresolved
from skillbench.authoring._rules import (
    BUDGET_SHARE,
    CASE_COLLISION,
    CODEBOT_CAP,
    DUPLICATE_NAME,
    EMPTY_DESCRIPTION,
    HIDDEN,
    LOAD_ERROR,
    LOAD_WARNING,
    NAME_FOLDER,
    NAME_FORMAT,
    NAME_LENGTH,
    PATHS_UNMATCHED,
    PLACEHOLDER,
    RULES,
    SHADOWS_BUILTIN,
    Finding,
    LintSeverity,
    Rule,
)
from skillbench.catalog import (
    MAX_DESCRIPTION_CHARS,
    MAX_NAME_CHARS,
    BodyFile,
    Catalog,
    Precedence,
    Skill,
    SourceSpec,
    load_catalog,
)
from skillbench.listing import PROFILES, make_renderer, render_listing


def lint_profiles() -> tuple[str, ...]:
    """Profiles whose caps and budgets lint checks by default: codebot's and the default
    agents' (``AgentSpec.default``)."""
    return ("codebot", *(spec.name for spec in default_agents()))


def _description_caps() -> tuple[Rule, ...]:
    """The cap rules of agents that cut the description alone (a file's own front matter)."""
    return tuple(
        RULES.get(spec.cap_rule.id)
        for spec in AGENT_SPECS.values()
        if spec.cap_rule is not None and spec.cap_rule.cuts == "description"
    )


_SEVERITY_ORDER: dict[LintSeverity, int] = {"error": 0, "warning": 1, "info": 2}


@dataclass(frozen=True)
class LintReport:
    """Everything ``lint`` found, sorted by file, line and rule."""

    findings: tuple[Finding, ...]
    skills: int
    profiles: tuple[str, ...]

    def count(self, severity: LintSeverity) -> int:
        return sum(1 for f in self.findings if f.severity == severity)

    def failed(self, strict: bool = False) -> bool:
        """Errors fail; under ``strict`` warnings fail too; info never does."""
        return self.count("error") > 0 or (strict and self.count("warning") > 0)


KEY_LINES = 200
"""Leading lines of a file searched for a key: where frontmatter or a JSON object's keys are."""

PLACEHOLDER_FINDINGS = 20
"""Placeholder findings per skill: each distinct placeholder once, with how often it recurs,
at most this many; a body repeating one placeholder on 25,000 lines gets one finding."""


def _read(path: str) -> str:
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


class _Files:
    """The leading lines of each file, split once, for locating keys by line.

    Many skills can share one file (a JSONL tool list), so a file's leading lines are split
    once and each key's line is looked up once per file: lint stays linear in the catalog.
    Only those lines are kept: a whole file is read again, one at a time, by the rare rule
    that needs more of it, so linting huge skills holds no file's text for long.
    """

    def __init__(self) -> None:
        self._heads: dict[str, list[str]] = {}
        self._key_lines: dict[tuple[str, str], int | None] = {}

    def key_line(self, path: str | None, key: str) -> int | None:
        """Line of ``key:`` in the leading frontmatter (or ``"key"`` in a JSON file)."""
        if path is None:
            return None
        found = (path, key)
        if found not in self._key_lines:
            pattern = re.compile(rf'^\s*"?{re.escape(key)}"?\s*:')
            self._key_lines[found] = next(
                (n for n, line in enumerate(self.head(path), start=1) if pattern.match(line)),
                None,
            )
        return self._key_lines[found]

    def head(self, path: str) -> list[str]:
        """The file's first ``KEY_LINES`` lines."""
        if path not in self._heads:
            self._heads[path] = list(islice(split_lines(_read(path)), KEY_LINES))
        return self._heads[path]

    @staticmethod
    def body_offset(skill: Skill) -> int:
        """Lines before the body in the skill's file (0 when the body cannot be located)."""
        if isinstance(skill.body, BodyFile):
            return skill.body.line - 1
        text = _read(skill.path) if skill.path else ""
        at = text.rfind(skill.body) if skill.body else -1
        return text.count("\n", 0, at) if at >= 0 else 0


_FILE_RULES = (
    LOAD_ERROR,
    LOAD_WARNING,
    NAME_FORMAT,
    NAME_LENGTH,
    NAME_FOLDER,
    EMPTY_DESCRIPTION,
)
"""Rules about a file's own front matter: an agent rejecting such a file is no extra news."""


def _loader_findings(catalog: Catalog, covered: set[tuple[str, str]]) -> list[Finding]:
    """Loader diagnostics as findings, minus warnings a specific rule already restates."""
    out = []
    for d in catalog.diagnostics:
        if d.severity == "warning" and (d.path, d.field or "") in covered:
            continue
        rule = LOAD_ERROR if d.severity == "error" else LOAD_WARNING
        message = d.reason if d.field is None else f"field {d.field!r}: {d.reason}"
        # A key the loader found missing has no line of its own: point at the file's top,
        # where its frontmatter (or JSON object) starts.
        line = d.line if d.line is not None or not Path(d.path).is_file() else 1
        out.append(Finding(rule, d.path, line, message, field=d.field))
    return out


def _name_findings(skill: Skill, files: _Files) -> list[Finding]:
    line = files.key_line(skill.path, "name")
    out = []
    local = skill.name.rsplit(":", 1)[-1]  # plugin skills are named ``plugin:skill``
    if not AGENT_SKILLS_NAME.fullmatch(local):
        out.append(
            Finding(
                NAME_FORMAT,
                skill.path,
                line,
                f"name {skill.name!r}: use lowercase letters, digits and single hyphens",
                skill.name,
                field="name",
            )
        )
    if len(skill.name) > MAX_NAME_CHARS:
        out.append(
            Finding(
                NAME_LENGTH,
                skill.path,
                line,
                f"name is {len(skill.name)} characters, over the {MAX_NAME_CHARS} allowed",
                skill.name,
                field="name",
            )
        )
    if skill.path and Path(skill.path).name == "SKILL.md":
        folder = Path(skill.path).parent.name
        if folder != skill.name:
            out.append(
                Finding(
                    NAME_FOLDER,
                    skill.path,
                    line,
                    f"name {skill.name!r} differs from its folder {folder!r}",
                    skill.name,
                    field="name",
                )
            )
    collisions = builtin_collisions(skill.name)
    if collisions:
        owners = ", ".join(f"{c.agent} {c.kind} {c.name!r}" for c in collisions)
        out.append(
            Finding(
                SHADOWS_BUILTIN,
                skill.path,
                line,
                f"name {skill.name!r} is also the {owners}",
                skill.name,
                field="name",
            )
        )
    return out


_EMPTY_VALUES = ("", '""', "''", "~", "null")


def _empty_description_findings(skill: Skill, files: _Files) -> list[Finding]:
    """A Markdown skill whose ``description:`` line holds no text and no indented
    continuation below it (the loader then falls back to the body without a word)."""
    line = files.key_line(skill.path, "description")
    if line is None or skill.path is None or not skill.path.endswith(".md"):
        return []
    key_line = files.head(skill.path)[line - 1]
    if key_line.split(":", 1)[1].split(" #")[0].strip() not in _EMPTY_VALUES:
        return []
    text = _read(skill.path)
    lines = split_lines(text)
    first = next(lines, "")
    closing = next((i for i, line_text in enumerate(lines, 2) if line_text.strip() == "---"), 0)
    if first.strip() != "---" or not line < closing:
        return []  # the key found is in the body, not the frontmatter
    indent = len(key_line) - len(key_line.lstrip())
    rest = islice(split_lines(text), line, None)
    after = next((line_text for line_text in rest if line_text.strip()), "")
    if len(after) - len(after.lstrip()) > indent:
        return []
    return [
        Finding(
            EMPTY_DESCRIPTION,
            skill.path,
            line,
            f"description is empty: {_empty_fates(skill.description)}",
            skill.name,
            field="description",
        )
    ]


def _empty_fates(fallback: str) -> str:
    """What each agent does with an empty description (``fallback``: the loader's reading
    of the body), from its loading rules."""
    fates: dict[str, list[str]] = {}
    for spec in AGENT_SPECS.values():
        rules = spec.loading
        fate = (
            "drop the skill"
            if rules.strict_limits
            else f"list the body's first line instead ({fallback!r})"
            if rules.empty_fields == "derived"
            else "list it empty"
        )
        fates.setdefault(fate, []).append(spec.title)
    return "; ".join(f"{', '.join(titles)}: {fate}" for fate, titles in fates.items())


def _recurs(more: int) -> str:
    return "" if more == 0 else f" (and {more:,} more time{'s' if more > 1 else ''})"


def _placeholder_findings(skill: Skill, files: _Files) -> list[Finding]:
    """Each distinct unresolved placeholder once, at its first line, with how often it
    recurs (at most ``PLACEHOLDER_FINDINGS`` of them; the last says how many more)."""
    first: dict[tuple[str, str], list[int]] = {}
    unlisted = 0
    for p in unresolved(skill):
        seen = first.get((p.text, p.reason))
        if seen is not None:
            seen[1] += 1
        elif len(first) < PLACEHOLDER_FINDINGS:
            first[p.text, p.reason] = [p.line, 1]
        else:
            unlisted += 1
    offset = files.body_offset(skill) if first else 0
    out = [
        Finding(
            PLACEHOLDER,
            skill.path,
            offset + line,
            f"{text}: {reason}" + _recurs(times - 1),
            skill.name,
        )
        for (text, reason), (line, times) in first.items()
    ]
    if unlisted:
        last = out[-1]
        message = f"{last.message}; {unlisted:,} more unresolved placeholders are not listed"
        out[-1] = replace(last, message=message)
    return out


def _duplicate_findings(catalog: Catalog, files: _Files) -> list[Finding]:
    out = []
    for o in catalog.overrides:
        if o.winner.key != o.loser.key:
            continue  # the same file reached twice (symlink), not a naming problem
        rule = DUPLICATE_NAME if o.winner.name == o.loser.name else CASE_COLLISION
        out.append(
            Finding(
                rule,
                o.loser.path,
                files.key_line(o.loser.path, "name"),
                f"{o.loser.name!r} ({o.loser.source}) loses to {o.winner.name!r} "
                f"({o.winner.source}, {o.winner.path}) under {catalog.profile} precedence",
                o.loser.name,
                field="name",
            )
        )
    return out


def _cap_findings(profile: str, skills: Sequence[Skill], files: _Files) -> list[Finding]:
    """What a profile's per-entry caps cut, measured by rendering each entry with and without
    the caps (a cap on the description alone by its length: ``CapRule.cuts``)."""
    agent = PROFILES.get(profile).agent
    spec = AGENT_SPECS.get(agent) if agent in AGENT_SPECS else None
    cap = spec.cap_rule if spec is not None else None
    if spec is not None and cap is not None and cap.cuts == "description":
        return [
            Finding(
                RULES.get(cap.id),
                s.path,
                files.key_line(s.path, "description"),
                f"description is {len(s.description)} characters; {spec.title} lists only the "
                f"first {MAX_DESCRIPTION_CHARS}",
                s.name,
                profile,
                "description",
            )
            for s in skills
            if len(s.description) > MAX_DESCRIPTION_CHARS
        ]
    lifted = PROFILES.get(profile).uncapped
    if not lifted:
        return []
    capped, uncapped = make_renderer(profile), make_renderer(profile, lifted)
    out = []
    for i, s in enumerate(skills):
        entry = capped.entry(s, i)
        if entry.status != "truncated":
            continue
        full = uncapped.entry(s, i).text
        if profile == "codebot":
            cuts = [
                f"{what} line from {len(a)} to {len(b)} characters"
                for what, a, b in zip(
                    ("entry", "when:"), full.split("\n"), entry.text.split("\n"), strict=False
                )
                if len(a) != len(b)
            ]
            rule, message = CODEBOT_CAP, "codebot cuts the " + " and the ".join(cuts)
        elif spec is not None and cap is not None:
            rule = RULES.get(cap.id)
            message = (
                f"{spec.title} cuts the entry from {len(full)} to {len(entry.text)} characters; "
                f"{len(full) - len(entry.text)} characters of description/when_to_use are lost"
            )
        else:
            continue
        out.append(
            Finding(rule, s.path, files.key_line(s.path, "description"), message, s.name, profile)
        )
    return out


def _budget_findings(
    catalog: Catalog, profile: str, budget: int | None, files: _Files
) -> list[Finding]:
    listing = render_listing(
        catalog.skills, profile=profile, budget=budget, inactive=catalog.inactive
    )
    renderer = make_renderer(profile)
    where = f"{profile} (budget {listing.budget:,})" if listing.budget else profile
    total = len([e for e in listing.entries if e.status not in ("disabled", "inactive")])
    shown = len(listing.shown_names)
    out = []
    for index, e in enumerate(listing.entries):
        if e.status in ("disabled", "inactive"):
            continue
        s = e.skill
        line = files.key_line(s.path, "description")
        if e.status in ("dropped", "name_only"):
            fate = "not listed" if e.status == "dropped" else "listed by name only"
            out.append(
                Finding(
                    HIDDEN,
                    s.path,
                    line,
                    f"{where}: {fate} ({shown} of {total} skills shown)",
                    s.name,
                    profile,
                )
            )
        full = len(renderer.entry(s, index).text) + 1
        cost = e.chars + 1 if e.shown else full
        share = f" ({cost / listing.budget:.1%})" if listing.budget else ""
        verb = "takes" if e.shown else "would take"
        out.append(
            Finding(
                BUDGET_SHARE,
                s.path,
                line,
                f"{where}: {verb} {cost:,} characters{share}",
                s.name,
                profile,
            )
        )
    return out


def _unique(skills: Iterable[Skill]) -> list[Skill]:
    seen: dict[tuple[str | None, str], Skill] = {}
    for s in skills:
        seen.setdefault((s.path, s.name), s)
    return list(seen.values())


def _lenient(profile: str) -> Precedence:
    """``profile``'s loader, keeping skills a strict loader would skip so the rules can say
    why."""
    return replace(PROFILES.get(profile).precedence, strict_limits=False)


def lint_sources(
    sources: Sequence[SourceSpec | str],
    *,
    profiles: Sequence[str] | None = None,
    budget: int | None = None,
    cwd: str | Path | None = None,
) -> LintReport:
    """Lint ``sources`` as each of ``profiles`` would load, cut and list them.

    Args:
        sources: source specs or ``"kind=path"`` strings, as for ``load_catalog``.
        profiles: agent profiles whose caps and budget to check (precedence of the first
            decides which duplicate wins in the duplicate findings); None:
            ``lint_profiles()``.
        budget: listing budget in characters; None uses each profile's default.
        cwd: working directory for ``paths`` globs; None skips the ``paths`` rule.

    Raises:
        SkillbenchError: a source path that does not exist, or an unknown profile.
    """
    profiles = lint_profiles() if profiles is None else profiles
    files = _Files()
    catalogs = {p: load_catalog(sources, profile=_lenient(p), cwd=cwd) for p in profiles}
    first = catalogs[profiles[0]]
    loaded = _unique([*first.skills, *(o.loser for o in first.overrides)])
    findings: list[Finding] = []
    for skill in loaded:
        findings += _name_findings(skill, files)
        findings += _empty_description_findings(skill, files)
        findings += _placeholder_findings(skill, files)
    findings += _duplicate_findings(first, files)
    if cwd is not None:
        findings += [
            Finding(
                PATHS_UNMATCHED,
                s.path,
                files.key_line(s.path, "paths"),
                f"none of {', '.join(s.paths)} matches a file under {cwd}",
                s.name,
                field="paths",
            )
            for s in first.skills
            if s.name in first.inactive
        ]
    for profile, catalog in catalogs.items():
        findings += _cap_findings(profile, catalog.model_invocable, files)
        findings += _budget_findings(catalog, profile, budget, files)
    covered = {
        (f.path or "", f.field or "")
        for f in findings
        if f.rule in (NAME_LENGTH, EMPTY_DESCRIPTION, *_description_caps())
    }
    findings += _loader_findings(first, covered)
    refused = {
        f.path for f in findings if f.path and f.rule in (*_FILE_RULES, *_description_caps())
    }
    findings += portability_findings(sources, files.key_line, refused)
    findings.sort(
        key=lambda f: (
            f.path or "",
            f.line or 0,
            _SEVERITY_ORDER[f.severity],
            f.rule.id,
            f.profile or "",
        )
    )
    return LintReport(tuple(findings), len(first.skills), tuple(profiles))
