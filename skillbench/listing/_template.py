"""The template renderer: a listing of one element per skill, written from an agent's record.

Most agents list skills as XML-like elements and differ only in data: the element's text,
what is escaped, how skills are ordered, where the agent's own skills go, and the budget
(``skillbench.agentspec.ListingFormat``). This renderer reads that data, so such an agent
needs no rendering code of its own.
"""

from __future__ import annotations

import inspect
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from skillbench.agentspec import AgentSpec, Escape, ListingFormat, Overflow, Release
from skillbench.catalog import Skill, SourceKind, kept_by_keys, skill_keys
from skillbench.listing._js_text import collation_key, utf16_len
from skillbench.listing._raw import escape_xml, listed_text, unescape_xml
from skillbench.listing._renderer import Entry, Layout, Placed, RendererFactory
from skillbench.listing._snapshot import AgentSnapshot, BuiltinSkill, resolve_snapshot
from skillbench.listing._types import EntryStatus

SKILL_FILE = "SKILL.md"


def escape(text: str, how: Escape) -> str:
    if how == "xml":
        return escape_xml(text)
    if how == "xml_numeric_apostrophe":
        return escape_xml(text, "&#39;")
    return text


class Element(NamedTuple):
    """One element as a listing shows it: name, text, location and the skill's own name
    where it shows one beside its folder's (all as written)."""

    name: str
    text: str
    location: str
    alias: str | None = None


def element_pattern(fmt: ListingFormat) -> re.Pattern[str]:
    """A pattern matching one element of ``fmt`` (its holes as named groups)."""
    before, _, after = fmt.alias.partition("{name}")
    alias = rf"(?:{re.escape(before)}(?P<alias>.*?){re.escape(after)})?" if fmt.alias else ""
    holes = {"{name}": r"(?P<name>.*?)", "{text}": r"(?P<text>.*?)", "{alias}": alias}
    pattern, seen = "", False
    for part in re.split(r"(\{name\}|\{text\}|\{location\}|\{alias\})", fmt.element):
        if part == "{location}":
            pattern += "(?P=location)" if seen else r"(?P<location>[^\n]*?)"
            seen = True
        else:
            pattern += holes.get(part) or re.escape(part)
    if fmt.element.endswith("}"):
        # An element ending in a hole runs to the next element's start or the listing's end.
        start = re.split(r"\{\w+\}", fmt.element, maxsplit=1)[0]
        pattern += rf"(?=\n{re.escape(start)}|\Z)"
    return re.compile(pattern, re.DOTALL)


def parse_elements(fmt: ListingFormat, listing: str) -> list[Element]:
    """The elements of a listing written in ``fmt``, in order, as written (escaped).

    Elements joined by newlines are found where their pattern matches; a one-line
    separator (``, ``) splits the wrapper's elements, each element the whole of its part.
    """
    pattern = element_pattern(fmt)
    if fmt.separator == "\n":
        found = list(pattern.finditer(listing))
    else:
        head, _, tail = fmt.wrapper.partition("{elements}")
        body = listing.removeprefix(head).removesuffix(tail) if listing else ""
        parts = body.split(fmt.separator) if body else []
        found = [m for m in map(pattern.fullmatch, parts) if m is not None]
    holes = [m.groupdict() for m in found]
    return [
        Element(h["name"], h.get("text") or "", h.get("location") or "", h.get("alias"))
        for h in holes
    ]


def parse_builtins(spec: AgentSpec, listing: str) -> list[BuiltinSkill]:
    """The agent's own skills as a turn with nothing installed lists them, unescaped."""
    fmt = spec.listing
    assert fmt is not None
    skills = []
    for found in parse_elements(fmt, listing):
        location = unescape_xml(found.location) if fmt.location_escape != "none" else found.location
        if fmt.location == "scope" and location != fmt.builtin_location:
            continue
        own_path = fmt.location == "path" and location != fmt.builtin_location
        name, text = (unescape_xml(t) if fmt.escape != "none" else t for t in found[:2])
        alias = found.alias and (unescape_xml(found.alias) if fmt.escape != "none" else found.alias)
        skills.append(BuiltinSkill(name, text, path=location if own_path else None, alias=alias))
    return skills


def default_roots(spec: AgentSpec) -> dict[SourceKind, str]:
    """Each source kind's folder as a listing names it on a user's machine: the one a capture
    installs into, else the first the agent reads."""
    roots = {f.scope: f.path for f in reversed(spec.folders) if f.install}
    for folder in spec.folders:
        roots.setdefault(folder.scope, folder.path)
    return roots


class _Slot(NamedTuple):
    """One skill to list: its entry (None for a built-in), listed name, full element, the
    element it keeps past a first-line cut and the names it answers to (``keys`` shadow)."""

    entry: Entry | None
    name: str
    full: str
    cut: str
    keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class TemplateRenderer:
    """Renders ``spec.listing``; see the module docstring.

    Args:
        spec: the agent.
        builtin_skills: its own skills (from a snapshot).
        roots: the folder of each source kind, as locations show it.
        default_budget: the overflow budget in characters (None: no budget).
    """

    spec: AgentSpec
    builtin_skills: tuple[BuiltinSkill, ...] = ()
    roots: Mapping[SourceKind, str] = field(default_factory=dict)
    default_budget: int | None = None
    name: str = ""
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    @property
    def fmt(self) -> ListingFormat:
        assert self.spec.listing is not None
        return self.spec.listing

    @property
    def budgeted(self) -> bool:
        return self.fmt.overflow is not None

    @property
    def lists_disabled(self) -> bool:
        """Whether the agent lists a ``disable-model-invocation`` skill like any other."""
        return not self.spec.loading.reads_disable

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        rules: dict[EntryStatus, str] = {}
        if self.fmt.first_line_cut is not None:
            rules["truncated"] = (
                f"the listing passed {self.fmt.first_line_cut.threshold:,} characters: only "
                "the first line of the description is kept"
                + (", when_to_use dropped" if self.fmt.when_joiner else "")
            )
        if self.fmt.overflow is not None:
            rules["name_only"] = (
                f"past the {self.fmt.overflow.budget:,}-character budget: this and every later "
                "skill are only named, on one line"
            )
            if self.fmt.overflow.names_cap is not None:
                rules["dropped"] = (
                    f"the names line past the budget holds {self.fmt.overflow.names_cap:,} "
                    "characters: later skills are only counted"
                )
        return rules

    def hidden(self, skill: Skill) -> str | None:
        title = self.spec.title
        if skill.source in self.fmt.never_lists:
            return f"{title} has no {skill.source} skills besides its own"
        limit = self.fmt.max_description
        if limit is not None and len(_described(skill).strip()) > limit:
            return f"{title} does not load a skill whose description is over {limit:,} characters"
        if skill.path is not None and os.path.basename(skill.path) != SKILL_FILE:
            return f"{title} loads only SKILL.md files, not other skill declarations"
        return None

    def shown_path(self, skill: Skill) -> str | None:
        if self.fmt.location != "path":
            return None
        root = self.roots.get(skill.source)
        if skill.rel_path is None or root is None:
            return os.path.abspath(skill.path) if skill.path else None
        return f"{root}/{skill.rel_path}"

    def own_name(self, skill: Skill) -> str:
        """The skill's name as the agent's reader gave it (an empty one where its loading
        rules list empty names), before ``unsafe_name``."""
        if self.spec.loading.empty_fields == "listed":
            return listed_text(skill, "name", skill.name)
        return skill.name

    def listed_name(self, name: str) -> str:
        unsafe = self.fmt.unsafe_name
        return "".join("-" if c in unsafe else c for c in name) if unsafe else name

    def label(self, skill: Skill) -> str:
        """The name an element shows for ``skill`` (``ListingFormat.label``)."""
        return skill_keys(skill)[1] if self.fmt.label == "folder" else self.own_name(skill)

    def _element(self, name: str, text: str, location: str, own: str | None = None) -> str:
        """One element; ``own`` is the skill's own name where ``name`` is its folder's."""
        fmt = self.fmt
        alias = ""
        if fmt.alias and own is not None and own != name:
            alias = fmt.alias.replace("{name}", escape(own, fmt.escape))
        return (
            fmt.element.replace("{location}", escape(location, fmt.location_escape))
            .replace("{name}", escape(self.listed_name(name), fmt.escape))
            .replace("{alias}", alias)
            .replace("{text}", text)
        )

    def entry(self, skill: Skill, index: int) -> Entry:
        fmt = self.fmt
        description = _described(skill)
        if fmt.text_from == "stripped":
            description = description.strip()
        when = skill.when_to_use and listed_text(skill, "when_to_use", skill.when_to_use)
        when = when if fmt.when_joiner else None
        text = escape(description, fmt.escape)
        if when:
            text += f"{fmt.when_joiner}{escape(when, fmt.escape)}"
        text += self._details(skill)
        location = self._location(skill)
        label = self.label(skill)
        element = self._element(label, text, location, skill.name)
        short = escape(description.split("\n")[0].strip(), fmt.escape)
        cut = self._element(label, short, location, skill.name)
        return Entry(skill, index, element, "full", description, when or None, short=cut)

    def _details(self, skill: Skill) -> str:
        """The fields ``ListingFormat.details`` writes after the description, as the agent's
        reader read them."""
        written = ""
        for detail in self.fmt.details:
            parts = [label + skill.listed[f] for f, label in detail.fields if skill.listed.get(f)]
            if parts:
                written += detail.template.replace("{fields}", detail.joiner.join(parts))
        return escape(written, self.fmt.escape)

    def _location(self, skill: Skill) -> str:
        if self.fmt.location == "scope":
            return self.fmt.locations.get(skill.source, "")
        return (self.shown_path(skill) or "") if self.fmt.location == "path" else ""

    def _builtin(self, skill: BuiltinSkill) -> _Slot:
        text = escape(skill.description, self.fmt.escape)
        where = skill.path or self.fmt.builtin_location
        element = self._element(skill.name, text, where, skill.alias)
        keys = (skill.alias or skill.name, skill.name)
        return _Slot(None, self.listed_name(skill.name), element, element, keys)

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        fmt = self.fmt
        entries = [
            _Slot(e, self.listed_name(self.label(e.skill)), e.text, e.short, skill_keys(e.skill))
            for e in _ORDERS[fmt.order](self, list(ordered))
        ]
        builtins = [self._builtin(b) for b in self.builtin_skills]
        items = _placed_builtins(fmt, builtins, entries)
        if not items:
            return Layout("", None, [])
        cut = fmt.first_line_cut
        trim = cut is not None and utf16_len("\n".join(i.full for i in items)) > cut.threshold
        shown = [it.cut if trim and it.entry is not None else it.full for it in items]
        if fmt.overflow is None:
            body = fmt.separator.join(shown)
            placed = [_place(it, s) for it, s in zip(items, shown, strict=True) if it.entry]
            return Layout(fmt.wrapper.replace("{elements}", body), None, placed)
        limit = fmt.overflow.budget if budget is None else budget
        used, full = 0, 0
        for text in shown:
            if used + len(text) + 1 > limit:
                break
            used += len(text) + 1
            full += 1
        rest = items[full:]
        lines = shown[:full]
        named = _names_line(fmt.overflow, rest)
        if rest:
            lines.append(named.line)
        placed = [_place(it, s) for it, s in zip(items[:full], shown, strict=False) if it.entry]
        placed += [
            Placed(it.entry.index, "name_only", len(it.name), "", None)
            for it in rest[: named.names]
            if it.entry
        ]
        return Layout(fmt.wrapper.replace("{elements}", fmt.separator.join(lines)), used, placed)


class _NamesLine(NamedTuple):
    line: str
    names: int


def _names_line(overflow: Overflow, rest: Sequence[_Slot]) -> _NamesLine:
    """The line naming the skills past the budget, and how many it names (the rest of a
    capped line are only counted)."""
    line, count = overflow.names_prefix, 0
    for it in rest:
        added = (", " if count else "") + it.name
        if overflow.names_cap is not None and len(line) + len(added) > overflow.names_cap:
            return _NamesLine(line + overflow.names_more.format(count=len(rest) - count), count)
        line, count = line + added, count + 1
    return _NamesLine(line, count)


def _described(skill: Skill) -> str:
    return listed_text(skill, "description", skill.description)


def _place(item: _Slot, shown: str) -> Placed:
    entry = item.entry
    assert entry is not None
    if shown == item.full:
        return entry.placed
    first = entry.description.split("\n")[0].strip()
    return Placed(entry.index, "truncated", len(shown), first, None)


def _placed_builtins(
    fmt: ListingFormat, builtins: list[_Slot], entries: list[_Slot]
) -> list[_Slot]:
    """The agent's own skills placed among the user's (``ListingFormat.builtins``), a
    shadowed one replaced in its place or left out (``ListingFormat.shadow``)."""
    where, shadow = fmt.builtins, fmt.shadow
    if shadow == "keys":
        loaded = [*builtins, *sorted(entries, key=lambda it: it.entry.index if it.entry else 0)]
        takers = kept_by_keys([it.keys for it in loaded])
        gone = {id(it) for it, taker in zip(loaded, takers, strict=True) if taker is not None}
        builtins = [it for it in builtins if id(it) not in gone]
        entries = [it for it in entries if id(it) not in gone]
    if shadow == "in_place":
        slots: dict[str, _Slot] = {}
        for item in [*builtins, *entries] if where == "first" else [*entries, *builtins]:
            slots[item.name] = item
        return list(slots.values())
    if shadow == "skip":
        taken = {item.name for item in entries}
        builtins = [b for b in builtins if b.name not in taken]
    if where == "first":
        return [*builtins, *entries]
    if where == "last":
        return [*entries, *builtins]
    if fmt.order == "code_points":
        return sorted([*builtins, *entries], key=lambda it: it.name)
    return sorted([*builtins, *entries], key=lambda it: collation_key(it.name))


def _root(skill: Skill) -> str:
    """The source folder a skill was found in (one skills folder once installed)."""
    return skill.root or os.path.dirname(os.path.dirname(os.path.abspath(skill.path or "")))


def _by_name(renderer: TemplateRenderer, entries: list[Entry]) -> list[Entry]:
    """By a locale comparison of the listed name."""
    return sorted(
        entries, key=lambda e: collation_key(renderer.listed_name(renderer.own_name(e.skill)))
    )


def _by_code_points(renderer: TemplateRenderer, entries: list[Entry]) -> list[Entry]:
    """By the listed name's code points, ties in load order."""
    return sorted(entries, key=lambda e: (renderer.listed_name(renderer.label(e.skill)), e.index))


def _scope_then_name(renderer: TemplateRenderer, entries: list[Entry]) -> list[Entry]:
    """Project skills by name; every other folder in catalog order, each by name."""
    rank = renderer.spec.loading.rank
    first: dict[str, int] = {}
    for e in sorted(entries, key=lambda e: e.index):
        if e.skill.source != "project":
            first.setdefault(_root(e.skill), e.index)

    def key(e: Entry) -> tuple[int, int, str]:
        s = e.skill
        group = 0 if s.source == "project" else first[_root(s)]
        return rank(s.source), group, s.name

    return sorted(entries, key=key)


def _loaded(renderer: TemplateRenderer, entries: list[Entry]) -> list[Entry]:
    """In the catalog's order: the agent's scan order, a winner in its loser's slot."""
    return sorted(entries, key=lambda e: e.index)


_ORDERS: Mapping[str, Callable[[TemplateRenderer, list[Entry]], list[Entry]]] = {
    "name": _by_name,
    "code_points": _by_code_points,
    "scope_then_name": _scope_then_name,
    "loaded": _loaded,
}


def template_renderer(spec: AgentSpec, release: Release) -> RendererFactory:
    """The renderer factory of ``spec`` at ``release``: its options are ``snapshot`` (the
    agent's own skills: an AgentSnapshot, ``auto`` for the cached one of the release,
    ``none`` or a path), ``roots`` where locations show paths, and ``budget`` where the
    agent has one."""
    fmt = spec.listing
    assert fmt is not None

    def factory(
        budget: int | None = None,
        snapshot: AgentSnapshot | str | None = "auto",
        roots: Mapping[SourceKind, str] | None = None,
    ) -> TemplateRenderer:
        if snapshot is None or isinstance(snapshot, str):
            snapshot = resolve_snapshot(snapshot, spec.name, release.version)
        builtins = snapshot.builtin_skills if snapshot is not None else ()
        limit = budget if budget is not None else fmt.overflow.budget if fmt.overflow else None
        merged = {**default_roots(spec), **(roots or {})}
        return TemplateRenderer(spec, builtins, merged, limit, spec.name)

    wanted = ["snapshot"]
    if fmt.overflow is not None:
        wanted.insert(0, "budget")
    if fmt.location == "path":
        wanted.append("roots")
    signature = inspect.signature(factory)
    kept: Sequence[inspect.Parameter] = [signature.parameters[p] for p in wanted]
    factory.__signature__ = signature.replace(parameters=kept)  # type: ignore[attr-defined]
    factory.__doc__ = template_renderer.__doc__
    return factory
