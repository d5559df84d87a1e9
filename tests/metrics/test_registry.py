"""The metric registry: one definition per metric, read by every consumer."""

from __future__ import annotations

import itertools

import pytest
from support.rows import result_row

from skillbench._errors import SkillbenchError
from skillbench.metrics import METRICS, find_metric


def _one_edit_apart(a: str, b: str) -> bool:
    """Whether one insertion, deletion or substitution turns ``a`` into ``b``."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = sorted((a, b), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


def test_no_two_metric_names_differ_by_one_letter() -> None:
    names = [m.name for m in METRICS.values()]
    for a, b in itertools.combinations(names, 2):
        assert not _one_edit_apart(a, b), (a, b)
    assert _one_edit_apart("false_invocation_rate", "false_invocations_rate")  # the check works


def test_every_metric_has_a_definition_and_a_direction() -> None:
    for m in METRICS.values():
        assert m.definition and "\n" not in m.definition
        assert isinstance(m.higher_is_better, bool)
        assert m.interval in ("wilson", "bootstrap")


def test_old_names_resolve_and_unknown_names_suggest() -> None:
    assert find_metric("false_invocations_rate").name == "unwanted_invocation_rate"
    with pytest.raises(SkillbenchError, match="did you mean 'accuracy'"):
        find_metric("acuracy")


def test_rates_leave_out_errors_but_error_rate_counts_them() -> None:
    rows = [
        result_row(expected=["a"], outcome="correct_skill", visible=True),
        result_row(expected=["a"], outcome="error", visible=True),
        result_row(expected=[], outcome="correct_abstain"),
        result_row(expected=[], outcome="error"),
    ]
    values = {m.name: m.compute(rows)[0] for m in METRICS.values()}
    assert values["accuracy"] == 1.0  # 2 of the 2 answered
    assert values["recall"] == 1.0 and values["coverage"] == 1.0
    assert values["error_rate"] == 0.5  # 2 of all 4
