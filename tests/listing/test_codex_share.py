"""Codex's stage 2 (descriptions shared one character at a time, round-robin) computed in
vectorised passes equals the rule applied literally, character by character."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from skillbench.listing._codex import LineBudget, SkillLine, _share, line_cost


def _cost(text: str, tokens: bool) -> int:
    """A line's cost as Codex counts it: UTF-8 bytes / 4 rounded up, or characters."""
    return math.ceil(len(text.encode()) / 4) if tokens else len(text)


def _literal(lines: list[SkillLine], limit: int, tokens: bool) -> list[int]:
    """The rule as stated: pass over the skills in order, giving each one more character
    when the whole listing still fits, until a pass gives none."""
    alloc = [0] * len(lines)

    def extra(i: int, n: int) -> int:
        bare = _cost(lines[i].render(0) + "\n", tokens)
        return max(_cost(lines[i].render(n) + "\n", tokens) - bare, 0)

    spent = sum(_cost(line.render(0) + "\n", tokens) for line in lines)
    changed = True
    while changed:
        changed = False
        for i, line in enumerate(lines):
            if alloc[i] >= len(line.description):
                continue
            step = extra(i, alloc[i] + 1) - extra(i, alloc[i])
            if spent + step <= limit:
                alloc[i] += 1
                spent += step
                changed = True
    return alloc


TEXT = st.text(alphabet="ab c.é中😀", max_size=30)


@settings(max_examples=300, deadline=None)
@given(
    descriptions=st.lists(TEXT, min_size=1, max_size=10),
    tokens=st.booleans(),
    slack=st.floats(min_value=0, max_value=1),
)
def test_share_equals_the_literal_rule(descriptions: list[str], tokens: bool, slack: float):
    lines = [SkillLine(f"skill-{i}", d, f"/s/{i}/SKILL.md") for i, d in enumerate(descriptions)]
    unit = LineBudget(0, tokens)
    minimum = [line.render(0) for line in lines]
    floor = sum(line_cost(unit, m) for m in minimum)
    whole = sum(line_cost(unit, line.render()) for line in lines)
    limit = floor + int(slack * (whole - floor))
    got = _share(lines, LineBudget(limit, tokens), floor)
    want = _literal(lines, limit, tokens)
    assert got.allocations == want
    assert got.lines == [line.render(n) for line, n in zip(lines, want, strict=True)]
    assert got.truncated_chars == sum(len(d) for d in descriptions) - sum(want)
    assert got.used <= limit
