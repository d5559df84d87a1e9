"""Repeats arithmetic: per-request trigger rates, pass^k and the trigger threshold."""

from __future__ import annotations

import pytest
from support.rows import result_row

from skillbench.metrics import group_repeats, pass_hat_k, repeat_metrics, trigger_rates
from skillbench.results import ResultRow
from skillbench.types import CellKey

CELL = CellKey(
    catalog="c", profile="codebot", budget=None, ordering="usage", half_life="7d", selector="m"
)


def rows(
    request_id: str, expected: list[str], outcomes: list[str], **extra: str
) -> list[ResultRow]:
    fields = {**CELL.model_dump(), "request_id": request_id, "expected": expected, **extra}
    return [result_row(**fields, repeat=i, outcome=o) for i, o in enumerate(outcomes)]


def test_pass_hat_k_is_the_unbiased_all_k_estimate() -> None:
    assert pass_hat_k(3, 3, 3) == 1.0
    assert pass_hat_k(3, 2, 3) == 0.0
    assert pass_hat_k(3, 2, 1) == pytest.approx(2 / 3)
    assert pass_hat_k(4, 3, 2) == pytest.approx(3 / 6)
    with pytest.raises(ValueError):
        pass_hat_k(3, 4, 1)


def test_trigger_rates_threshold_and_pass_k() -> None:
    data = (
        rows("a", ["pdf"], ["correct_skill", "correct_skill", "missed"])  # rate 2/3, passes
        + rows("b", ["pdf"], ["missed", "wrong_skill", "correct_skill"])  # rate 1/3, fails
        + rows("n", [], ["correct_abstain", "false_trigger", "hallucinated"])  # rate 2/3, fails
        + rows("z", [], ["correct_abstain"] * 3)  # rate 0, passes
    )
    (cell,) = group_repeats(data).values()
    rates = trigger_rates(cell)
    assert rates == pytest.approx({"a": 2 / 3, "b": 1 / 3, "n": 2 / 3, "z": 0.0})
    m = repeat_metrics(cell, threshold=0.5)
    assert m.repeats == 3 and m.requests == 4
    assert m.threshold_accuracy == 0.5
    assert m.mean_trigger_rate_positive == pytest.approx(0.5)
    assert m.mean_trigger_rate_negative == pytest.approx(1 / 3)
    # passes per request: a 2, b 1, n 1, z 3 (of 3)
    assert m.pass_k["1"] == pytest.approx((2 + 1 + 1 + 3) / 12)
    assert m.pass_k["3"] == pytest.approx(0.25)
    assert m.consistent == 0.25
    lo, hi = m.threshold_accuracy_ci
    assert lo < 0.5 < hi
    assert repeat_metrics(cell, threshold=0.3).threshold_accuracy == 0.75


def test_train_rows_and_other_cells_are_kept_apart() -> None:
    data = rows("a", ["pdf"], ["correct_skill"] * 2)
    data += rows("t", ["pdf"], ["missed"] * 2, split="train")
    data += rows("a", ["pdf"], ["missed"] * 2, selector="other")
    cells = group_repeats(data)
    assert len(cells) == 2
    assert [r.request_id for r in cells[CELL]] == ["a"]
