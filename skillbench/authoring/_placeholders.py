"""Placeholders in a skill body that nothing will fill when the skill runs.

An agent substitutes ``$ARGUMENTS``, ``$ARGUMENTS[N]``, ``$N``, the names declared in
``arguments`` (``$name``) and the few ``${PREFIX_...}`` variables its record names
(``AgentSpec.variables``); other agents substitute a subset. Code blocks and inline code
are skipped: shell snippets and CI templates there use ``$1`` and ``{{ }}`` for their own
purposes. Bare ``$N`` is not checked: in prose it is far
more often a price than an argument.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from skillbench._io import split_lines
from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import Skill

_FENCE = re.compile(r"^\s*(```|~~~)")
_INLINE_CODE = re.compile(r"`[^`]*`")
_POSITIONAL = re.compile(r"\$ARGUMENTS(?:\[\d+\])?")
_NAMED = re.compile(r"\$([a-z_][a-z0-9_-]*)\b")
_VARIABLE = re.compile(r"\$\{(([A-Z][A-Z0-9]*_)[A-Z_]+)\}")
_TEMPLATE = re.compile(r"\{\{\s*[^{}]+?\s*\}\}")


class Placeholder(NamedTuple):
    """One unresolved placeholder: 1-based line within the body and why it stays unfilled."""

    line: int
    text: str
    reason: str


def _prose_lines(body: str) -> Iterator[tuple[int, str]]:
    """Body lines outside fenced code blocks, inline code removed."""
    fenced = False
    for number, line in enumerate(split_lines(body), start=1):
        if _FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, _INLINE_CODE.sub("", line)


def unresolved(skill: Skill) -> Iterator[Placeholder]:
    """Every unresolved placeholder in ``skill``'s body, in body order (one line at a time)."""
    declared = {a.lower() for a in skill.arguments}
    takes_arguments = bool(declared or (skill.argument_hint or "").strip())
    known = frozenset().union(*(spec.variables for spec in AGENT_SPECS.values()))
    prefixes = {name.split("_")[0] + "_" for name in known}
    for number, line in _prose_lines(skill.read_body()):
        for m in _POSITIONAL.finditer(line):
            if not takes_arguments:
                yield Placeholder(number, m.group(), "no argument-hint or arguments is declared")
        if declared:
            for m in _NAMED.finditer(line):
                if m.group(1).lower() not in declared and m.group(1) != "ARGUMENTS":
                    yield Placeholder(number, m.group(), "not among the declared arguments")
        for m in _VARIABLE.finditer(line):
            if m.group(2) in prefixes and m.group(1) not in known:
                yield Placeholder(number, m.group(), "not a variable the agent fills")
        for m in _TEMPLATE.finditer(line):
            yield Placeholder(number, m.group(), "a template placeholder left unfilled")
