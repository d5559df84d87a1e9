"""Codex's own listing rules (its record: ``skillbench.agentspec``), verified by capture at
every release the record names; what differs between releases is the record's data (the
model catalogue).

The listing is the ``<skills_instructions>`` block of a developer message: ``## Skills``, an
opening sentence, a ``### Skill roots`` table (``r0``, ``r1``, … naming the folders skills
were found in) and ``### Available skills`` with one ``- name: description (file: rN/…)``
line per skill. Codex's own system skills (from an agent snapshot) are listed like the
user's skills and share the budget.

- LineBudget: 2% of the model's context window in approximate tokens (UTF-8 bytes / 4, rounded
  up), or a character budget when no window is set; a line costs itself and its newline.
  The window is the model's in the release's catalogue (the default model's unless
  ``model`` names another); a configured window counts up to the model's maximum.
- Order: scope (system, admin, repo, user), then name (byte order), then absolute path.
- Descriptions longer than 1,024 characters are cut to 1,021 plus ``...``.
- Stages (``render_lines``): all in full; else every line kept with description characters
  shared round-robin (``_share``); else bare lines in order while they fit (``_names``), the
  rest omitted.
- Two variants are rendered, absolute paths and aliased paths (the roots table's cost,
  measured against the absolute variant's framing, comes off the budget); the aliased one
  is sent when it shows more skills, or cuts fewer characters, or costs less.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Literal, NamedTuple

from skillbench.agentspec import AgentSpec, Release
from skillbench.agentspec._codex import CODEX, CodexRules
from skillbench.catalog import Skill, SourceKind
from skillbench.listing._knobs import KNOBS, Derivation, Knob, Knobs, Unit, budget_of, option_of
from skillbench.listing._profile import OWN_RENDERERS, Profile
from skillbench.listing._renderer import (
    Entry,
    Layout,
    Placed,
    RendererFactory,
    RenderOptions,
    one_line,
)
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

OPEN_TAG = "<skills_instructions>"
CLOSE_TAG = "</skills_instructions>"

INTRO_ALIASES = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
"""The opening sentence when paths are shortened with a ``### Skill roots`` table (what
every captured request carried)."""

INTRO_LOCATORS = (
    "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list "
    "of skills that can be used. Each entry includes a name, description, and source locator. "
    "`file` locators are on the host filesystem, `executor package` locators are owned by "
    "their execution environment, `cloud package` locators are opaque package identifiers, "
    "and `custom resource` locators use their provider's access mechanism."
)
"""The opening sentence of the variant with absolute paths. Codex sends it only when the
aliased variant is not better; its length also sets what the roots table costs."""

REMOVED_PREFIX = "Exceeded skills context budget. All skill descriptions were removed and"

TRUNCATED_SUFFIX = "..."
"""What a description cut at the per-entry cap ends with."""

BYTES_PER_TOKEN = 4


def _tokens(nbytes: int) -> int:
    """Codex's approximate token count: UTF-8 bytes / 4, rounded up."""
    return (nbytes + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN


@dataclass(frozen=True, slots=True)
class LineBudget:
    """A limit in approximate tokens (``tokens``) or in characters."""

    limit: int
    tokens: bool

    def cost(self, text: str) -> int:
        return _tokens(len(text.encode())) if self.tokens else len(text)

    def counts(self, chars: int, nbytes: int) -> int:
        return _tokens(nbytes) if self.tokens else chars

    def minus(self, spent: int) -> LineBudget:
        return LineBudget(max(self.limit - spent, 0), self.tokens)


class SkillLine(NamedTuple):
    """One listed skill: its name, description (already capped) and path as shown."""

    name: str
    description: str
    path: str

    def render(self, chars: int | None = None) -> str:
        """The line with the first ``chars`` description characters (None: all)."""
        desc = self.description if chars is None else self.description[:chars]
        if desc:
            return f"- {self.name}: {desc} (file: {self.path})"
        return f"- {self.name}: (file: {self.path})"


class Rendered(NamedTuple):
    """A rendering: lines shown, description characters kept per skill (None: omitted), and
    the counts Codex compares variants by."""

    lines: list[str]
    allocations: list[int | None]
    omitted: int
    truncated_chars: int
    used: int

    @property
    def included(self) -> int:
        return len(self.lines)


def line_cost(budget: LineBudget, line: str) -> int:
    """What one listed line costs: itself and its newline."""
    return budget.cost(line + "\n")


class Bounds(NamedTuple):
    """What a set of lines costs in full and bare (every description omitted): the same at
    every budget, so computed once for the many budgets a plan renders."""

    full: list[str]
    used: int
    minimum: list[str]
    floor: int


@lru_cache(maxsize=4)
def _bounds(lines: tuple[SkillLine, ...], tokens: bool) -> Bounds:
    unit = LineBudget(0, tokens)
    full = [line.render() for line in lines]
    minimum = [line.render(0) for line in lines]
    used = sum(line_cost(unit, text) for text in full)
    return Bounds(full, used, minimum, sum(line_cost(unit, text) for text in minimum))


def render_lines(lines: Sequence[SkillLine], budget: LineBudget) -> Rendered:
    """Stage 1 (all in full) if it fits, else stage 2 (shared descriptions), else stage 3."""
    bounds = _bounds(tuple(lines), budget.tokens)
    if bounds.used <= budget.limit:
        kept: list[int | None] = [len(line.description) for line in lines]
        return Rendered(list(bounds.full), kept, 0, 0, bounds.used)
    if bounds.floor <= budget.limit:
        return _share(lines, budget, bounds.floor)
    return _names(lines, bounds.minimum, budget)


if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Deltas = tuple[npt.NDArray[np.int8], npt.NDArray[np.int64], npt.NDArray[np.int64]]


@lru_cache(maxsize=2)
def _deltas(lines: tuple[SkillLine, ...], tokens: bool) -> Deltas:
    """What each further description character costs, all skills in one flat array (skill
    ``i``'s ``k``-th character at ``offsets[i] + k``), with each description's length;
    cached, as a plan renders one catalog at many budgets.

    Showing ``k`` characters makes a line ``k + 1`` characters longer (the description and
    its separating space) than the bare line; in tokens the cost is the rounded-up bytes of
    the longer line less those of the bare one, never below zero.
    """
    import numpy as np  # only a render that overflows needs it; ``--help`` never does

    lengths = np.fromiter((len(line.description) for line in lines), np.int64, len(lines))
    offsets = np.zeros(len(lines), np.int64)
    np.cumsum(lengths[:-1], out=offsets[1:])
    starts = offsets[lengths > 0]
    if not tokens:
        deltas = np.ones(int(lengths.sum()), np.int8)
        deltas[starts] = 2
        return deltas, offsets, lengths
    points = np.frombuffer("".join(line.description for line in lines).encode("utf-32-le"), "<u4")
    grown = np.cumsum(
        1 + (points >= 0x80).view(np.int8) + (points >= 0x800) + (points >= 0x10000),
        dtype=np.int32,
    )
    del points
    bare = np.fromiter((len(line.render(0).encode()) + 1 for line in lines), np.int32, len(lines))
    shift = bare - np.concatenate(([0], grown))[offsets].astype(np.int32)
    grown += np.repeat(shift, lengths)
    grown += BYTES_PER_TOKEN
    grown //= BYTES_PER_TOKEN
    grown -= np.repeat((bare + BYTES_PER_TOKEN - 1) // BYTES_PER_TOKEN, lengths)
    np.maximum(grown, 0, out=grown)
    deltas = np.diff(grown, prepend=0).astype(np.int8)
    deltas[starts] = grown[starts]
    return deltas, offsets, lengths


def _round(deltas: npt.NDArray[np.int8], remaining: int) -> npt.NDArray[np.bool_]:
    """Which skills of one round-robin pass take their next character: each in turn while
    its cost fits what is left; a character costing nothing is always taken."""
    import numpy as np

    spent = np.cumsum(deltas)
    take = np.ones(len(deltas), bool)
    if spent[-1] <= remaining:
        return take
    first = int(np.searchsorted(spent, remaining, side="right"))
    left = remaining - (int(spent[first - 1]) if first else 0)
    take[first:] = deltas[first:] == 0
    for j in np.flatnonzero(deltas[first + 1 :] > 0) + first + 1:
        if left == 0:
            break
        if deltas[j] <= left:
            take[j] = True
            left -= int(deltas[j])
    return take


def _share(lines: Sequence[SkillLine], budget: LineBudget, floor: int) -> Rendered:
    """Stage 2: one description character at a time to each skill in turn while it fits.

    A skill whose next character does not fit is passed over for good (what is left only
    shrinks), so each pass is one vectorised step over the skills still growing.
    """
    import numpy as np

    deltas, offsets, lengths = _deltas(tuple(lines), budget.tokens)
    alloc = np.zeros(len(lines), np.int64)
    remaining = budget.limit - floor
    active = np.flatnonzero(lengths > 0)
    step = 0
    while active.size:
        cost = deltas[offsets[active] + step]
        take = _round(cost, remaining)
        remaining -= int(cost[take].sum())
        alloc[active[take]] += 1
        step += 1
        active = active[take & (lengths[active] > step)]
    kept: list[int] = alloc.tolist()
    shown = [line.render(n) for line, n in zip(lines, kept, strict=True)]
    cut = int(lengths.sum() - alloc.sum())
    return Rendered(shown, list[int | None](kept), 0, cut, budget.limit - remaining)


def _names(lines: Sequence[SkillLine], minimum: list[str], budget: LineBudget) -> Rendered:
    """Stage 3: bare lines in order while they fit; one that does not is omitted and later
    ones are still tried."""
    shown: list[str] = []
    alloc: list[int | None] = []
    used = omitted = 0
    for text in minimum:
        cost = line_cost(budget, text)
        if used + cost <= budget.limit:
            used += cost
            shown.append(text)
            alloc.append(0)
        else:
            omitted += 1
            alloc.append(None)
    cut = sum(len(line.description) for line in lines)
    return Rendered(shown, alloc, omitted, cut, used)


def is_better(
    candidate: Rendered, candidate_cost: int, current: Rendered, current_cost: int
) -> bool:
    """Codex's choice between two variants: more skills shown, else fewer description
    characters cut, else a cheaper block."""
    if candidate.included != current.included:
        return candidate.included > current.included
    if candidate.truncated_chars != current.truncated_chars:
        return candidate.truncated_chars < current.truncated_chars
    return candidate_cost < current_cost


def warning(rendered: Rendered) -> str | None:
    """The warning Codex shows its user when skills were left out, if any."""
    if not rendered.omitted:
        return None
    one = rendered.omitted == 1
    return (
        f"{REMOVED_PREFIX} {rendered.omitted} additional {'skill' if one else 'skills'} "
        f"{'was' if one else 'were'} not included in the model-visible skills list."
    )


AGENT = CODEX.name
CHARACTER_BUDGET = 8000
"""The budget in characters when a render sets no window (``context_window: null``)."""

SCOPE_RANK: Mapping[SourceKind, int] = {
    "bundled": 0,
    "managed": 1,
    "project": 2,
    "user": 3,
    "plugin": 3,
    "extra": 3,
}
"""Codex's prompt order of scopes (system 0, admin 1, repo 2, user 3) by source kind."""

DEFAULT_ROOTS: Mapping[SourceKind, str] = {
    "plugin": "~/.codex/skills",
    "extra": "~/.codex/skills",
    "user": "~/.agents/skills",
    "bundled": "~/.codex/skills/.system",
    "managed": "/etc/codex/skills",
    "project": ".agents/skills",
}
"""Where each source kind lives on a user's machine, in the order Codex numbers its roots
(user roots, system, admin, project); a render can pass the real folders instead."""


class _Item(NamedTuple):
    """One skill to list: a catalog entry (None for a system skill) and its line parts."""

    entry: Entry | None
    kind: SourceKind
    name: str
    description: str
    rel_path: str | None
    path: str


def cap_description(text: str, limit: int) -> str:
    """The description as listed: one line, cut to ``limit`` characters with ``...``."""
    desc = one_line(text)
    if len(desc) <= limit:
        return desc
    return desc[: limit - len(TRUNCATED_SUFFIX)] + TRUNCATED_SUFFIX


def body(intro: str, root_lines: Sequence[str], skill_lines: Sequence[str]) -> str:
    """The block between the tags, a newline at both ends."""
    lines = ["## Skills", intro]
    if root_lines:
        lines += ["### Skill roots", *root_lines]
    lines += ["### Available skills", *skill_lines]
    return "\n" + "\n".join(lines) + "\n"


@dataclass(frozen=True)
class CodexRenderer:
    """See the module docstring.

    Args:
        default_budget: the limit when no budget is given (tokens when ``tokens``).
        tokens: whether budgets count approximate tokens rather than characters.
        roots: the folder of each source kind, as the roots table shows it.
        system_skills: Codex's own skills (from a snapshot), listed in the system scope.
        max_description_chars: the per-entry cap of the release.
    """

    default_budget: int | None
    tokens: bool = True
    roots: Mapping[SourceKind, str] = field(default_factory=lambda: dict(DEFAULT_ROOTS))
    system_skills: tuple[BuiltinSkill, ...] = ()
    max_description_chars: int = 1024
    name: str = AGENT
    budgeted: bool = True
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    def shown_path(self, skill: Skill) -> str | None:
        """The skill's ``SKILL.md`` under its root (the absolute form Codex aliases)."""
        if skill.rel_path is None:
            return skill.path
        return f"{self.roots[skill.source]}/{skill.rel_path}"

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {
            "truncated": "description shortened: the whole listing did not fit, so description "
            "characters were shared round-robin among all skills",
            "name_only": "no description characters left: round-robin sharing gave it none, "
            "or even bare lines overflowed and only names are shown",
            "dropped": "even the bare name line did not fit in what the budget had left",
        }

    def hidden(self, skill: Skill) -> str | None:
        if skill.path is not None and not skill.path.endswith("SKILL.md"):
            return "Codex loads only SKILL.md files, not other skill declarations"
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        desc = cap_description(skill.description, self.max_description_chars)
        status: EntryStatus = "truncated" if desc != one_line(skill.description) else "full"
        line = SkillLine(skill.name, desc, self.shown_path(skill) or "")
        return Entry(skill, index, line.render(), status, desc, body=desc)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        return self.prepare(list(ordered)).layout(budget, scores)

    def prepare(self, ordered: Sequence[Entry]) -> PreparedCodex:
        """The items of ``ordered`` sorted and their lines made once, for layouts at many
        budgets (a plan's coverage curve and fit)."""
        return PreparedCodex(self, ordered)

    def _item(self, e: Entry) -> _Item:
        s = e.skill
        return _Item(e, s.source, s.name, e.body, s.rel_path, self.shown_path(s) or "")

    def _system_items(self) -> list[_Item]:
        root = self.roots["bundled"]
        return [
            _Item(
                None,
                "bundled",
                b.name,
                cap_description(b.description, self.max_description_chars),
                b.path,
                f"{root}/{b.path}" if b.path else "",
            )
            for b in self.system_skills
        ]

    def _root_of(self, item: _Item) -> str | None:
        return self.roots[item.kind] if item.rel_path is not None else None

    def _short(self, item: _Item, alias: Mapping[str, str]) -> str:
        """``rN/…`` for a skill under a root, else its path unchanged."""
        root = self._root_of(item)
        return item.path if root is None else f"{alias[root]}/{item.rel_path}"

    def _aliases(self, items: list[_Item]) -> _Aliases | None:
        """The roots table and the lines under ``rN`` aliases (None: no skill under a root)."""
        used = {self._root_of(it) for it in items}
        roots: list[str] = []
        for kind in DEFAULT_ROOTS:
            root = self.roots[kind]
            if root in used and root not in roots:
                roots.append(root)
        if not roots:
            return None
        alias = {root: f"r{i}" for i, root in enumerate(roots)}
        lines = tuple(SkillLine(it.name, it.description, self._short(it, alias)) for it in items)
        return _Aliases([f"- `r{i}` = `{root}`" for i, root in enumerate(roots)], lines)


class _Aliases(NamedTuple):
    table: list[str]
    lines: tuple[SkillLine, ...]


class PreparedCodex:
    """One ordering's items in Codex's order and both forms of their lines (paths in full,
    and under ``rN`` aliases), made once; ``layout`` fits them to a budget."""

    def __init__(self, renderer: CodexRenderer, ordered: Sequence[Entry]) -> None:
        self.renderer = renderer
        self.items = sorted(
            [*renderer._system_items(), *(renderer._item(e) for e in ordered)],
            key=lambda it: (SCOPE_RANK[it.kind], it.name.encode(), it.path.encode()),
        )
        self.lines = tuple(SkillLine(it.name, it.description, it.path) for it in self.items)
        self.aliases = renderer._aliases(self.items) if self.items else None

    def layout(self, budget: int | None, scores: Mapping[str, float]) -> Layout:
        r = self.renderer
        if not self.items:
            return Layout("", 0, [])
        default = r.default_budget if r.default_budget is not None else 0
        limit = LineBudget(budget if budget is not None else default, r.tokens)
        best = render_lines(self.lines, limit)
        intro, root_lines, table = INTRO_LOCATORS, [], 0
        aliased = self._aliased(limit)
        if aliased is not None:
            rendered, alias_cost = aliased
            if is_better(rendered, alias_cost + rendered.used, best, best.used):
                best, intro, table = rendered, INTRO_ALIASES, alias_cost
                root_lines = self.aliases.table if self.aliases is not None else []
        text = OPEN_TAG + body(intro, root_lines, best.lines) + CLOSE_TAG
        return Layout(text, table + best.used, _placed(self.items, best), warning(best))

    def _aliased(self, limit: LineBudget) -> tuple[Rendered, int] | None:
        """The ``rN/…`` variant and what its table costs, or None when the table alone fills
        the budget."""
        if self.aliases is None:
            return None
        table = max(
            limit.cost(body(INTRO_ALIASES, self.aliases.table, []))
            - limit.cost(body(INTRO_LOCATORS, [], [])),
            0,
        )
        if table >= limit.limit:
            return None
        return render_lines(self.aliases.lines, limit.minus(table)), table


def _placed(items: list[_Item], rendered: Rendered) -> list[Placed]:
    """The catalog's entries as shown, in listing order (system skills are not the catalog's)."""
    placed: list[Placed] = []
    shown_index = 0
    for it, chars in zip(items, rendered.allocations, strict=True):
        if chars is None:
            continue
        line = rendered.lines[shown_index]
        shown_index += 1
        if it.entry is None:
            continue
        full = len(it.description)
        status: EntryStatus = "full" if chars == full else "truncated" if chars else "name_only"
        if status == "full" and it.entry.status == "truncated":
            status = "truncated"
        placed.append(Placed(it.entry.index, status, len(line), it.description[:chars], None))
    return placed


ContextWindow = int | Literal["model"] | None
"""A window in tokens, ``model`` (the model's in the release's catalogue) or None (budgets
count characters)."""


def line_budget(rules: CodexRules, model: str | None, context_window: int) -> int:
    """The release's share of ``context_window`` tokens (capped at the model's largest
    window), at least 1."""
    limit = rules.window(model).max_window
    return max(min(context_window, limit) * rules.budget_percent // 100, 1)


def codex_renderer(version: str, rules: CodexRules) -> RendererFactory:
    """The renderer factory of the Codex release ``version``, whose rules are ``rules``."""

    def codex(
        budget: int | None = None,
        context_window: ContextWindow = "model",
        model: str | None = None,
        roots: Mapping[SourceKind, str] | None = None,
        snapshot: AgentSnapshot | str | None = "auto",
    ) -> CodexRenderer:
        """``model``: the model of the turn (the release's default model when None); its
        window in the release's catalogue sets the budget unless ``context_window`` gives
        one (counted up to the model's largest window, as Codex caps a configured one).
        Budgets count approximate tokens, 2% of the window unless ``budget`` is given;
        without a window (``context_window: null``) they count characters, 8,000 unless
        ``budget`` is given. ``roots`` replaces the folders the roots table names.
        ``snapshot`` supplies Codex's own system skills (listed first, sharing the budget):
        an AgentSnapshot, ``auto`` (the cached snapshot of this release, if any), ``none``
        or a path to a ``snapshot.json``."""
        merged = {**DEFAULT_ROOTS, **(roots or {})}
        if snapshot is None or isinstance(snapshot, str):
            snapshot = resolve_snapshot(snapshot, AGENT, version)
        system = snapshot.builtin_skills if snapshot is not None else ()
        cap = rules.max_description_chars
        if context_window == "model":
            context_window = rules.window(model).window
        if context_window is not None and context_window > 0:
            limit = budget if budget is not None else line_budget(rules, model, context_window)
            return CodexRenderer(limit, True, merged, system, cap)
        limit = budget if budget is not None else CHARACTER_BUDGET
        return CodexRenderer(limit, False, merged, system, cap)

    return codex


@OWN_RENDERERS.register(AGENT)
def _codex_release(spec: AgentSpec, release: Release) -> RendererFactory:
    if not isinstance(release.rules, CodexRules):
        raise TypeError(f"{spec.name} {release.version}: its release carries no CodexRules")
    return codex_renderer(release.version, release.rules)


def _derivation(profile: Profile, options: RenderOptions, given: int | None) -> Derivation:
    """The budget: the budget option, or 2% of the context window in tokens."""
    budget = budget_of(profile, options)
    window = option_of(profile, options, "context_window")
    if options.get("budget") is not None:
        unit: Unit = "tokens" if window else "characters"
        return Derivation(budget, unit, f"budget option {budget:,} {unit}", None)
    if not isinstance(window, int) or window <= 0:
        return Derivation(budget, "characters", f"no context window: {budget:,} characters", None)
    how = f"2% of {window:,} tokens of context window (capped by the agent) = {budget:,} tokens"
    return Derivation(budget, "tokens", how, window)


def _model_options(model: str) -> RenderOptions:
    """Codex budgets every model offline at its default window; set ``--window`` instead."""
    return {}


KNOBS.register(AGENT)(
    Knobs(
        _derivation,
        (Knob("context_window", "model_context_window", "config.toml"),),
        _model_options,
    )
)
