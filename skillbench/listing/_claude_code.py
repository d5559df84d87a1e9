"""Claude Code's own listing rules (its record: ``skillbench.agentspec``), verified by
capture at every release the record names.

The listing block is ``HEADER``, a blank line, then one line per skill: the user's skills in
load order (user, project, then plugin skills; within one source by a locale comparison of
the skill's folder name), then the agent's own skills from its snapshot (a built-in whose name
a user's skill already takes is not listed). An entry is ``- NAME: TEXT``:

- NAME is the skill's folder (``plugin:folder`` for a plugin); when the frontmatter ``name``
  differs it follows in parentheses, ``- postgresql (postgresql-table-design)``, unless that
  name is itself another skill's folder or not a valid name (letters, digits, ``_:.-``; its
  length does not matter);
- TEXT is the description, `` - `` and ``when_to_use`` when there is one (as
  ``spaced_text`` writes them: invisible characters as spaces; ``<`` and ``>`` as
  ``&lt;`` ``&gt;``), cut at
  ``entry_cap`` UTF-16 units (the last one an ellipsis). A skill without a description gets
  the first non-empty line of its body (heading marks removed, cut to 100 characters with
  ``...``), or ``Skill`` for an empty body.

Budget: ``budget`` characters if given (``SLASH_COMMAND_TOOL_CHAR_BUDGET``), else
``floor(context_window × chars_per_token × budget_fraction)``. It counts the entries (terminal
cells, newlines between them), not the header. When everything fits, every entry is full.
Otherwise the snapshot's fixed built-ins and ``name-only`` overrides stay as they are, every
other entry starts as its name, and descriptions come back in order of usage score (highest
first, ties in listing order) whenever they still fit; one that does not fit is skipped and
the next is tried. No skill is ever hidden by the budget.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePath
from typing import Literal, NamedTuple, cast

from skillbench._registry import Registry
from skillbench.agentspec import AgentSpec, Release
from skillbench.agentspec._claude_code import CLAUDE_CODE
from skillbench.catalog import Skill, loaded_fallback_description, spaced_text
from skillbench.listing._js_text import cap_utf16, cell_width, collation_key
from skillbench.listing._knobs import (
    KNOBS,
    Derivation,
    Knob,
    Knobs,
    budget_of,
    option_of,
    snapshot_window,
)
from skillbench.listing._orderings import ORDERINGS, Ordering
from skillbench.listing._profile import OWN_RENDERERS, Profile
from skillbench.listing._renderer import Entry, Layout, Placed, RenderOptions
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

AGENT = CLAUDE_CODE.name
HEADER = "The following skills are available for use with the Skill tool:\n"
FIXED_BUILTINS = "listing_fixed_builtins"
"""Snapshot text: the built-ins (one name a line) that keep their text under any budget."""
DEFAULT_CONTEXT_WINDOW = 1_000_000
"""Context window of the verified version's default model, in tokens."""
CHARS_PER_TOKEN = 3
"""Characters per token for current models; the agent uses 4 for older ones."""
_OLDER_MODELS = re.compile(r"^claude-(?:3-|(?:opus|sonnet|haiku)-4(?:-[0-6])?$)")
OLDER_WINDOW = 200_000
OLDER_CHARS_PER_TOKEN = 4


def older_model(model: str) -> bool:
    """Whether Claude Code budgets ``model`` at 200,000 tokens and 4 characters a token: the
    claude-3.x and 4.0–4.6 families, dated or not, dots and ``_`` as ``-`` (captured:
    claude-sonnet-4-6 gets an 8,000-character budget; later models 3 characters a token)."""
    family = re.sub(r"-\d{8}$", "", model.strip().lower()).replace(".", "-").replace("_", "-")
    return _OLDER_MODELS.match(family) is not None


class BudgetBasis(NamedTuple):
    """What the budget is a fraction of: the model's window and its characters a token."""

    window: int
    chars_per_token: int


def budget_basis(
    model: str | None,
    context_window: int | None,
    chars_per_token: int | None,
    snapshot_window: int | None,
) -> BudgetBasis:
    """The window and characters a token Claude Code budgets with: an older model's (see
    ``older_model``), else the snapshot's window at 3 characters a token, else the default
    model's; ``context_window`` and ``chars_per_token`` win when given."""
    older = model is not None and older_model(model)
    default = OLDER_WINDOW if older else snapshot_window
    return BudgetBasis(
        context_window or default or DEFAULT_CONTEXT_WINDOW,
        chars_per_token or (OLDER_CHARS_PER_TOKEN if older else CHARS_PER_TOKEN),
    )


BUDGET_FRACTION = 0.01
ENTRY_CAP = 1536
FALLBACK_CHARS = 100
SKILL_JSON = "skill.json"
EMPTY_BODY = "Skill"
SkillOverride = Literal["on", "name-only", "user-invocable-only", "off"]
OVERRIDES: tuple[SkillOverride, ...] = ("on", "name-only", "user-invocable-only", "off")
LEGACY_BUDGET = 15_000

DropRule = Callable[[Sequence["ListingLine"], Mapping[str, float], int], set[int]]
"""``(lines in listing order, scores, room for descriptions) -> positions keeping theirs``.

Room is the budget minus the listing with every droppable line as its name; giving line i its
description back costs ``line.extra`` cells of it. Fixed lines are never offered."""

DROP_RULES: Registry[DropRule] = Registry("drop rule")
SCORELESS_DROP_RULES: frozenset[str] = frozenset({"alpha_greedy"})
"""Drop rules that never read usage scores; any other rule is assumed to read them."""


@dataclass(frozen=True)
class ListingLine:
    """One listing line in both forms (``full``, ``short`` = ``- name``), the score key, and
    whether the budget may shorten it (``fixed``: never); ``entry`` is None for a built-in.
    Both forms' terminal cells are measured once, when the line is made."""

    key: str
    full: str
    short: str
    fixed: bool
    entry: Entry | None = None
    full_cells: int = field(init=False, repr=False, compare=False)
    short_cells: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "full_cells", cell_width(self.full))
        object.__setattr__(self, "short_cells", cell_width(self.short))

    @property
    def extra(self) -> int:
        return self.full_cells - self.short_cells


def _restore(lines: Sequence[ListingLine], order: list[int], room: int) -> set[int]:
    """Give descriptions back in ``order`` while they fit; one that does not is skipped."""
    kept: set[int] = set()
    for i in order:
        if lines[i].extra <= room:
            room -= lines[i].extra
            kept.add(i)
    return kept


def _open(lines: Sequence[ListingLine]) -> list[int]:
    return [i for i, line in enumerate(lines) if not line.fixed]


@DROP_RULES.register("least_used")
def _least_used(lines: Sequence[ListingLine], scores: Mapping[str, float], room: int) -> set[int]:
    order = sorted(_open(lines), key=lambda i: -scores.get(lines[i].key, 0.0))
    return _restore(lines, order, room)


@DROP_RULES.register("alpha_greedy")
def _alpha_greedy(lines: Sequence[ListingLine], scores: Mapping[str, float], room: int) -> set[int]:
    order = sorted(_open(lines), key=lambda i: (lines[i].key.casefold(), i))
    return _restore(lines, order, room)


def listing_name(skill: Skill) -> str:
    """The name Claude Code lists and invokes: the skill's folder (``plugin:folder``)."""
    return _listing_name(skill.path, skill.name, skill.source)


@lru_cache(maxsize=1 << 16)
def _listing_name(path_text: str | None, name: str, source: str) -> str:
    path = PurePath(path_text) if path_text else None
    if path is None or path.name != "SKILL.md":
        return name
    plugin, sep, _ = name.rpartition(":")
    return f"{plugin}:{path.parent.name}" if sep and source == "plugin" else path.parent.name


def _valid_name(name: str) -> bool:
    """Letters, digits and ``_:.-``, of any length (a 200-character name is shown)."""
    return all(c.isalnum() or c in "_:.-" for c in name)


def _fallback(body: str) -> str:
    line = next((t.strip() for t in body.split("\n") if t.strip()), "")
    text = line.lstrip("#").strip()
    if not text:
        return EMPTY_BODY
    return spaced_text(text if len(text) <= FALLBACK_CHARS else text[: FALLBACK_CHARS - 3] + "...")


def _escaped(text: str) -> str:
    return text.replace("<", "&lt;").replace(">", "&gt;")


def _parts(skill: Skill) -> tuple[str, str | None]:
    """The description and ``when_to_use`` as read, written by ``spaced_text`` with ``<``
    and ``>`` as entities; a missing description is the body's first line."""
    desc = skill.listed.get("description", skill.description)
    if not desc.strip() or (
        "description" not in skill.listed
        and desc == loaded_fallback_description(skill.body, skill.name)
    ):
        desc = _fallback(skill.read_body())
    else:
        desc = spaced_text(desc)
    when = spaced_text(skill.listed.get("when_to_use", skill.when_to_use or ""))
    return _escaped(desc), _escaped(when) if when else None


@dataclass(frozen=True)
class ClaudeCodeRenderer:
    """``- name: description - when_to_use`` entries; see the module docstring."""

    default_budget: int | None
    entry_cap: int = ENTRY_CAP
    legacy: bool = False
    drop_rule: str = "least_used"
    overrides: Mapping[str, SkillOverride] = field(default_factory=dict)
    builtins: tuple[BuiltinSkill, ...] = ()
    fixed_builtins: frozenset[str] = frozenset()
    name: str = AGENT
    budgeted: bool = True
    uses_scores: bool = True
    stops_early: bool = False

    @property
    def layout_uses_scores(self) -> bool:
        """The drop rule decides which descriptions go; legacy layouts drop nothing by usage."""
        return not self.legacy and self.drop_rule not in SCORELESS_DROP_RULES

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        cut = f"description - when_to_use cut at {self.entry_cap} characters"
        if self.legacy:
            return {"truncated": cut, "dropped": "legacy budget reached: later skills are hidden"}
        return {
            "truncated": cut,
            "name_only": f"description dropped to fit the budget by the {self.drop_rule!r} rule "
            "(or skill_overrides says name-only)",
        }

    def hidden(self, skill: Skill) -> str | None:
        if skill.path and PurePath(skill.path).name == SKILL_JSON:
            return "a skill.json folder: Claude Code reads only SKILL.md"
        override = self.overrides.get(listing_name(skill), "on")
        if override in ("off", "user-invocable-only"):
            return f"skill_overrides sets it {override!r}: never listed to the model"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        folder = listing_name(skill)
        if self.overrides.get(folder) == "name-only":
            short = f"- {folder}"
            return Entry(skill, index, short, "name_only", "", None, short=short)
        own = skill.name
        plain = own == folder or folder.endswith(f":{own}") or not _valid_name(own)
        short = f"- {folder}" if plain else f"- {folder} ({own})"
        desc, joined = _parts(skill)
        full = f"{desc} - {joined}" if joined else desc
        body = cap_utf16(full, self.entry_cap)
        status: EntryStatus = "full" if body == full else "truncated"
        when = joined if status == "full" else None
        shown = body if when is None else body[: len(body) - len(when) - 3]
        return Entry(skill, index, f"{short}: {body}", status, shown, when, short=short)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        return self.prepare(list(ordered)).layout(budget, scores)

    def prepare(self, ordered: Sequence[Entry]) -> PreparedLines:
        """The lines of ``ordered`` made and measured once, for layouts at many budgets and
        usage scores (a plan's weekly steps and coverage curve)."""
        return PreparedLines(self, ordered)


class PreparedLines:
    """One ordering's listing lines, measured once; ``layout`` then only runs the drop rule
    and joins the kept forms, and the listing where everything fits is built once."""

    def __init__(self, renderer: ClaudeCodeRenderer, ordered: Sequence[Entry]) -> None:
        self.renderer = renderer
        self.entries = list(ordered)
        self._lines: list[ListingLine] | None = None
        self._forms: list[_Forms] = []
        self._whole: Layout | None = None
        self._full = self._base = 0
        self._fixed: set[int] = set()

    def _measured(self) -> list[ListingLine]:
        if self._lines is None:
            r = self.renderer
            lines = _lines(self.entries, r.builtins, r.fixed_builtins, r.entry_cap)
            gaps = max(len(lines) - 1, 0)
            self._full = sum(line.full_cells for line in lines) + gaps
            self._base = sum(ln.full_cells if ln.fixed else ln.short_cells for ln in lines) + gaps
            self._fixed = {i for i, line in enumerate(lines) if line.fixed}
            self._forms = [_forms(line) for line in lines]
            self._lines = lines
        return self._lines

    def layout(self, budget: int | None, scores: Mapping[str, float]) -> Layout:
        limit = budget if budget is not None else float("inf")
        if self.renderer.legacy:
            return _legacy(self.entries, limit)
        lines = self._measured()
        if self._full <= limit:
            if self._whole is None:
                self._whole = _emit(lines, self._forms, set(range(len(lines))))
            return self._whole
        kept = DROP_RULES.get(self.renderer.drop_rule)(lines, scores, int(limit - self._base))
        return _emit(lines, self._forms, kept | self._fixed)


def _lines(
    entries: list[Entry], builtins: Sequence[BuiltinSkill], fixed: frozenset[str], cap: int
) -> list[ListingLine]:
    """The user's entries, then the built-ins no user's skill shadows; a display name naming
    another listed skill's folder, or one an earlier entry shows, falls back to the bare
    folder."""
    users = {listing_name(e.skill) for e in entries}
    taken = users | {b.name for b in builtins}
    lines = []
    for e in entries:
        own = f" ({e.skill.name})"
        short, text = e.short, e.text
        if short.endswith(own) and e.skill.name in taken:
            short = short[: -len(own)]
            text = short + text[len(e.short) :]
        elif short.endswith(own):
            taken.add(e.skill.name)
        fixed_entry = e.status == "name_only"
        lines.append(ListingLine(e.skill.name, text, short, fixed_entry, e))
    for b in builtins:
        if b.name not in users:
            body = cap_utf16(b.description, cap)
            lines.append(ListingLine(b.name, f"- {b.name}: {body}", f"- {b.name}", b.name in fixed))
    return lines


class _Forms(NamedTuple):
    """A user's line placed in full and as its name (None for a built-in)."""

    full: Placed | None
    short: Placed | None


def _forms(line: ListingLine) -> _Forms:
    e = line.entry
    if e is None:
        return _Forms(None, None)
    short = Placed(e.index, "name_only", len(line.short), "", None)
    if e.status == "name_only":
        return _Forms(short, short)
    return _Forms(Placed(e.index, e.status, len(line.full), e.description, e.when), short)


def _emit(lines: list[ListingLine], forms: list[_Forms], kept: set[int]) -> Layout:
    if not lines:
        return Layout("", 0, [])
    shown, placed, cells = [], [], len(lines) - 1
    for i, line in enumerate(lines):
        whole = i in kept
        shown.append(line.full if whole else line.short)
        cells += line.full_cells if whole else line.short_cells
        form = forms[i].full if whole else forms[i].short
        if form is not None:
            placed.append(form)
    return Layout(HEADER + "\n" + "\n".join(shown), cells, placed)


def _legacy(entries: list[Entry], limit: float) -> Layout:
    """Before 2.1: entries in full in listing order, stopping at the first that overflows."""
    used = len(HEADER)
    chosen: list[Entry] = []
    for e in entries:
        if used + len(e.text) + 1 > limit:
            break
        used += len(e.text) + 1
        chosen.append(e)
    if not chosen:
        return Layout("", 0, [])
    block = HEADER + "\n" + "\n".join(e.text for e in chosen)
    return Layout(block, len(block), [e.placed for e in chosen])


@dataclass(frozen=True)
class LoadOrder:
    """Claude Code's listing order: user, project, then plugin skills, each source sorted by
    a locale comparison of the folder name; usage never reorders it."""

    spec: str = AGENT
    uses_scores: bool = False

    def order(self, skills: Sequence[Skill], scores: Mapping[str, float], seed: int) -> list[int]:
        def key(i: int) -> tuple[object, ...]:
            rank = CLAUDE_CODE.loading.rank(skills[i].source)
            return (rank, collation_key(listing_name(skills[i])))

        return sorted(range(len(skills)), key=key)


@ORDERINGS.register(AGENT)
def _load_order(arg: str | None) -> Ordering:
    if arg is not None:
        raise ValueError(f"ordering {AGENT!r} takes no argument")
    return LoadOrder()


def _claude_code(
    budget: int | None = None,
    context_window: int | None = None,
    model: str | None = None,
    chars_per_token: int | None = None,
    budget_fraction: float = BUDGET_FRACTION,
    entry_cap: int = ENTRY_CAP,
    legacy: bool = False,
    drop_rule: str = "least_used",
    skill_overrides: Mapping[str, str] | None = None,
    snapshot: AgentSnapshot | str | None = "auto",
) -> ClaudeCodeRenderer:
    """Budget: ``budget`` if given, else 15,000 (legacy), else ``floor(context_window ×
    chars_per_token × budget_fraction)``. ``model``: the turn's model; an older one (the
    claude-3.x and 4.0–4.6 families) has 200,000 tokens at 4 characters a token, unless
    ``context_window`` / ``chars_per_token`` say otherwise; for the default model (None or a
    current one) 3 characters a token and the snapshot's window, else the default model's.
    ``snapshot``: ``auto`` (the cached one of the profile's release), ``none``, a path, or
    an ``AgentSnapshot``; its built-ins follow the user's skills."""
    DROP_RULES.get(drop_rule)
    if isinstance(budget_fraction, bool) or not isinstance(budget_fraction, (int, float)):
        raise ValueError(f"budget_fraction is {budget_fraction!r}: a number above 0, at most 1")
    if not 0 < budget_fraction <= 1:
        raise ValueError(f"budget_fraction is {budget_fraction!r}: a number above 0, at most 1")
    if isinstance(entry_cap, bool) or not isinstance(entry_cap, int) or entry_cap < 1:
        raise ValueError(f"entry_cap is {entry_cap!r}: a whole number of characters, at least 1")
    overrides = dict(skill_overrides or {})
    for skill, value in overrides.items():
        if value not in OVERRIDES:
            raise ValueError(f"skill_overrides[{skill!r}] is {value!r}; choose one of {OVERRIDES}")
    newest = CLAUDE_CODE.newest.version
    snap = snapshot if not isinstance(snapshot, str) else resolve_snapshot(snapshot, AGENT, newest)
    if budget is None:
        if legacy:
            budget = LEGACY_BUDGET
        else:
            snapshot_window = snap.context_window if snap else None
            basis = budget_basis(model, context_window, chars_per_token, snapshot_window)
            budget = max(1, int(basis.window * basis.chars_per_token * budget_fraction))
    typed = {k: cast(SkillOverride, v) for k, v in overrides.items()}
    builtins = snap.builtin_skills if snap and not legacy else ()
    fixed = frozenset((snap.texts.get(FIXED_BUILTINS, "") if snap else "").split())
    return ClaudeCodeRenderer(budget, entry_cap, legacy, drop_rule, typed, builtins, fixed)


@OWN_RENDERERS.register(AGENT)
def claude_code_renderer(spec: AgentSpec, release: Release) -> Callable[..., ClaudeCodeRenderer]:
    """The renderer factory of a Claude Code release: every verified release lists by one
    set of rules (its profile resolves the release's own cached snapshot)."""
    return _claude_code


def _derivation(profile: Profile, options: RenderOptions, given: int | None) -> Derivation:
    """The budget: SLASH_COMMAND_TOOL_CHAR_BUDGET, the legacy flat one, or the model's window
    × characters per token × skillListingBudgetFraction."""
    budget = budget_of(profile, options)
    if options.get("budget") is not None:
        return Derivation(budget, "characters", f"SLASH_COMMAND_TOOL_CHAR_BUDGET={budget}", None)
    if options.get("legacy"):
        return Derivation(budget, "characters", f"legacy flat budget of {budget:,}", None)
    fraction = option_of(profile, options, "budget_fraction")
    assert isinstance(fraction, int | float)
    model, option, cpt = (options.get(k) for k in ("model", "context_window", "chars_per_token"))
    window_of_snapshot = snapshot_window(profile, options)
    basis = budget_basis(
        model if isinstance(model, str) else None,
        option if isinstance(option, int) else None,
        cpt if isinstance(cpt, int) else None,
        window_of_snapshot,
    )
    if isinstance(option, int):
        source = "given"
    elif isinstance(model, str) and older_model(model):
        source = f"{model}'s"
    else:
        source = "the agent snapshot's model" if window_of_snapshot else "default model"
    how = (
        f"floor({basis.window:,} tokens ({source}) × {basis.chars_per_token} characters/token × "
        f"skillListingBudgetFraction {fraction:g}) = {budget:,}"
    )
    return Derivation(budget, "characters", how, basis.window)


def _model_options(model: str) -> RenderOptions:
    """The profile takes the model itself: it knows which models budget differently."""
    return {"model": model}


def _tokens(value: float) -> str:
    return f"{value:,.0f} tokens"


def _fraction(value: float) -> str:
    return f"{value:.6f}".rstrip("0")


KNOBS.register(AGENT)(
    Knobs(
        _derivation,
        (
            Knob("budget", "SLASH_COMMAND_TOOL_CHAR_BUDGET", "environment variable"),
            Knob("budget_fraction", "skillListingBudgetFraction", "settings.json", 1e-6, _fraction),
            Knob("context_window", "a model with a context window of", "--model", 1, _tokens),
        ),
        _model_options,
    )
)
