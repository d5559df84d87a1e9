"""Lint rules: stable ids, severities and the explanation ``lint --explain`` prints.

Ids never change meaning once released, so CI configs and suppressions can rely on them;
a retired rule keeps its id unused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from skillbench._errors import SkillbenchError, suggest
from skillbench._registry import Registry
from skillbench.agentspec import AGENT_SPECS, AgentSpec
from skillbench.types import JsonObject

LintSeverity = Literal["error", "warning", "info"]
"""``error`` fails lint; ``warning`` fails it under ``--strict``; ``info`` never fails."""


@dataclass(frozen=True, slots=True)
class Rule:
    """One check: ``id`` (``SB101``) and ``slug`` (``name-format``) both name it."""

    id: str
    slug: str
    severity: LintSeverity
    summary: str
    explanation: str


@dataclass(frozen=True, slots=True)
class Finding:
    """A rule firing on one skill or file.

    Attributes:
        rule: the rule that fired.
        path: the file concerned (None for catalog-wide findings).
        line: 1-based line in ``path`` when known.
        message: what is wrong, with the numbers that make it actionable.
        skill: the skill's name when the finding is about one skill.
        profile: the agent profile the finding applies to (per-profile rules).
        field: the frontmatter key concerned, when there is one.
    """

    rule: Rule
    path: str | None
    line: int | None
    message: str
    skill: str | None = None
    profile: str | None = None
    field: str | None = None

    @property
    def severity(self) -> LintSeverity:
        return self.rule.severity

    def to_json(self) -> JsonObject:
        return {
            "rule": self.rule.id,
            "slug": self.rule.slug,
            "severity": self.severity,
            "path": self.path,
            "line": self.line,
            "skill": self.skill,
            "profile": self.profile,
            "field": self.field,
            "message": self.message,
        }


RULES: Registry[Rule] = Registry("lint rule")


def _rule(id: str, slug: str, severity: LintSeverity, summary: str, explanation: str) -> Rule:
    rule = Rule(id, slug, severity, summary, " ".join(explanation.replace("``", "`").split()))
    RULES.register(id)(rule)
    return rule


LOAD_ERROR = _rule(
    "SB001",
    "unloadable",
    "error",
    "the file does not load (frontmatter or JSON does not parse, unreadable file)",
    """The catalog loader skipped this file, so no agent profile lists the skill. The message
    is the loader's own: unterminated or invalid YAML frontmatter, invalid JSON, a file that is
    not text. Fix the line it names.""",
)
LOAD_WARNING = _rule(
    "SB002",
    "load-warning",
    "warning",
    "the file loaded but something in it was ignored or defaulted",
    """The loader kept the skill but dropped or replaced part of it: a missing description
    (the listing falls back to the body's first paragraph), a value of the wrong type, an
    unknown frontmatter key (with the nearest valid key). The skill is listed, not as you
    wrote it.""",
)
NAME_FORMAT = _rule(
    "SB101",
    "name-format",
    "warning",
    "the name breaks the Agent Skills naming rules (characters, hyphens)",
    """The Agent Skills format allows lowercase letters, digits and hyphens, no leading or
    trailing hyphen and no two hyphens in a row. Other characters load in some agents and
    not in others, and differ from how users type the slash command.""",
)
NAME_LENGTH = _rule(
    "SB102",
    "name-length",
    "warning",
    "the name is longer than 64 characters",
    """The Agent Skills format caps names at 64 characters; an agent whose loader enforces it
    rejects a longer name, so the skill never reaches its listing.""",
)
NAME_FOLDER = _rule(
    "SB103",
    "name-folder",
    "warning",
    "a SKILL.md's name differs from its folder name",
    """The Agent Skills format requires the name to match the skill's directory. Agents that
    key skills by folder and agents that key them by name then disagree on what the skill is
    called, and a duplicate under either name goes unnoticed.""",
)
EMPTY_DESCRIPTION = _rule(
    "SB104",
    "empty-description",
    "error",
    "the frontmatter declares `description` with no text",
    """An empty ``description`` is not a missing one that agents forgive: a strict loader
    rejects the skill (it never reaches the listing), and others list the body's first line
    in its place, so the model chooses on text never written to describe the skill. The
    message names the agents of each kind.""",
)
DUPLICATE_NAME = _rule(
    "SB201",
    "duplicate-name",
    "warning",
    "two sources define the same name; one overrides the other",
    """Only one of the two skills reaches the listing; which one depends on the agent's
    precedence (codebot: the later source wins; most agents: the first). Often
    intended (a project skill replacing a bundled one), so this is a warning: check that the
    winner is the one you mean.""",
)
CASE_COLLISION = _rule(
    "SB202",
    "case-collision",
    "error",
    "two names differ only by case, `_` or spaces",
    """Agents normalise names before deduplicating, so ``Deploy_Prod`` and ``deploy-prod`` are
    one skill and the other silently disappears. Unlike an exact duplicate this is rarely on
    purpose.""",
)
SHADOWS_BUILTIN = _rule(
    "SB301",
    "shadows-builtin",
    "warning",
    "the name is a built-in tool or command of an agent",
    """A skill named like a built-in slash command is either unreachable as a command or
    hides the built-in, and a skill named like a built-in tool invites the model to call the
    tool instead. The names come from each agent's record (its tools and commands
    references, its source).""",
)
PLACEHOLDER = _rule(
    "SB401",
    "unresolved-placeholder",
    "warning",
    "the body has a placeholder nothing will fill",
    """Outside code blocks, the body uses ``$ARGUMENTS`` while the skill declares no
    ``argument-hint`` or ``arguments`` (callers get no hint what to pass, so it usually
    expands to nothing), a ``$name`` that is not among its declared ``arguments``, an
    unknown ``${CLAUDE_...}`` variable, or a ``{{template}}`` leftover. Each distinct
    placeholder is reported once per skill, at its first line, with how often it recurs
    (at most 20 per skill; the last says how many more there are).""",
)
PATHS_UNMATCHED = _rule(
    "SB501",
    "paths-unmatched",
    "warning",
    "no file under --cwd matches the skill's `paths` globs",
    """A skill with ``paths`` is listed only when the working directory holds a matching file.
    With none under --cwd the skill is never listed there: check the globs (gitignore syntax)
    or the directory you lint against.""",
)


def _cap_rule(name: str, spec: AgentSpec) -> None:
    if spec.cap_rule is not None:
        cap = spec.cap_rule
        _rule(cap.id, cap.slug, "warning", cap.summary, cap.explanation)


def _drop_cap_rule(name: str, spec: AgentSpec) -> None:
    if spec.cap_rule is not None:
        RULES.remove(spec.cap_rule.id)


AGENT_SPECS.watch(_cap_rule, _drop_cap_rule)
"""An agent's per-entry cap rule (``SB6xx``) comes from its record."""

CODEBOT_CAP = _rule(
    "SB603",
    "codebot-line-cap",
    "warning",
    "codebot cuts the entry line past 220 or the when: line past 160 characters",
    """The codebot listing caps each ``- name hint: description`` line at 220 characters and
    each ``when:`` line at 160, ending the cut text with an ellipsis.""",
)
HIDDEN = _rule(
    "SB701",
    "hidden-by-budget",
    "warning",
    "the profile's budget hides the skill or its description",
    """With every skill of the sources listed at once (no usage history), the profile's budget
    drops this skill or shows its name only. Ordering by recent use may rescue it for some
    requests; ``skillbench render --explain`` shows the whole layout.""",
)
BUDGET_SHARE = _rule(
    "SB702",
    "budget-share",
    "info",
    "how many characters of the profile's budget the entry takes",
    """What this skill's entry costs in the listing budget, as the profile counts it: the
    entry as shown (after per-entry caps) plus its newline, and its share of the budget.""",
)
NOT_FOUND = _rule(
    "SB801",
    "agent-never-finds",
    "warning",
    "the skill lies in a folder some agents never read",
    """Each agent reads its own skills folders (``skillbench capture --help`` lists them):
    ``.claude/skills`` is read by some agents and not by others, and an agent's own folder by
    that agent alone. The message names the agents that would never see the skill and a
    folder most of them read (``.agents/skills`` is the widest).""",
)
AGENT_HIDES = _rule(
    "SB802",
    "agent-rejects",
    "warning",
    "an agent's own rules leave the skill out",
    """An agent loads the folder but its rules drop this skill: one does not load a skill
    whose description is over 1,024 characters, another reads only ``SKILL.md`` files, one
    nested in another skill's folder, or named against its rule. The message names the
    agent, its version and the rule.""",
)
DISABLE_IGNORED = _rule(
    "SB803",
    "disable-not-read",
    "warning",
    "`disable-model-invocation` is not read by some agents",
    """Some agents keep a skill with ``disable-model-invocation: true`` out of the model's
    listing; others do not read the field, so their model sees the skill and may call it on
    its own. The message names the agents and versions that do not read it.""",
)


AGENT_READS_DIFFERENTLY = _rule(
    "SB804",
    "agent-reads-differently",
    "warning",
    "an agent reads the name or description differently from YAML",
    """Agents read front matter with different parsers: one keeps a folded block's last line
    break, one rewrites ``key: value: more`` before parsing, one loads front matter YAML
    refuses, one names a skill by its folder. The message names the agents and versions and
    shows both readings from where they part.""",
)
AGENT_MISSES_NESTED = _rule(
    "SB805",
    "agent-misses-nested",
    "warning",
    "an agent that reads the folder never reaches the skill",
    """Agents walk a skills folder to different depths: some read ``SKILL.md`` only one
    level below it, others at any depth, so a skill nested in a pack (``pack/inner/SKILL.md``)
    or in a ``skills/`` sub-folder is found by some and not others. The message names the
    agents and versions that never find it and their rule.""",
)
AGENT_DROPS = _rule(
    "SB806",
    "agent-drops",
    "info",
    "an agent's listing budget or overflow cap leaves the skill out",
    """Each agent lists skills within its own budget: past it some list names only, and the
    names-only overflow line itself is capped by some, so the last skills appear nowhere. The
    message names the agents and versions (at their default budgets) whose model never sees
    the skill.""",
)


def get_rule(key: str) -> Rule:
    """The rule with id (``SB101``, any case) or slug (``name-format``) ``key``."""
    by_slug = {RULES.get(i).slug: RULES.get(i) for i in RULES}
    if key.upper() in RULES:
        return RULES.get(key.upper())
    if key in by_slug:
        return by_slug[key]
    raise SkillbenchError(
        f"unknown lint rule {key!r}{suggest(key, [*RULES, *by_slug])}; "
        f"see `skillbench lint --explain all`"
    )


def all_rules() -> list[Rule]:
    return [RULES.get(i) for i in RULES]
