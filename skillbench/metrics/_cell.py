"""Per-cell summary metrics from results rows (the ``summary.json`` cell contract)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.metrics._intervals import bootstrap_ratio, rate, wilson_json
from skillbench.types import FALSE_INVOCATIONS, INVOKED, OUTCOMES


def with_ci(name: str, successes: int, n: int) -> dict[str, Any]:
    """``{name: rate, name_ci: [low, high]}``, both ``None`` when ``n`` is 0."""
    return {name: rate(successes, n), f"{name}_ci": wilson_json(successes, n)}


def counted_rows(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows a summary counts: the test split when any row was used for calibration."""
    if any(r.get("split") == "train" for r in rows):
        return [r for r in rows if r.get("split", "test") == "test"]
    return list(rows)


def cell_metrics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every summary metric of one cell (docs/architecture.md, ``summary.json``).

    Definitions (positives expect a skill, negatives expect none):
    accuracy = (correct_skill + correct_abstain) / n; precision = correct_skill / invoked;
    recall = correct_skill / positives; f1 = harmonic mean (bootstrap interval);
    false_invocation_rate = negatives where anything was invoked (false_trigger or a
    hallucinated name) / negatives; false_invocations = false_trigger + wrong_skill +
    hallucinated, ``_rate`` over n; miss_rate = missed / positives; coverage = positives whose
    expected skill was shown / positives; recall_when_shown = correct_skill / those.
    Undefined rates are ``None``; the result is JSON-ready.
    """
    rows = counted_rows(rows)
    outcomes = Counter(_outcome(r) for r in rows)
    n = len(rows)
    positives = [r for r in rows if r.get("expected")]
    negatives = [r for r in rows if not r.get("expected")]
    correct = outcomes["correct_skill"]
    invoked = sum(outcomes[o] for o in INVOKED)
    negative_invoked = sum(_outcome(r) in INVOKED for r in negatives)
    false_invocations = sum(outcomes[o] for o in FALSE_INVOCATIONS)
    shown = [r for r in positives if r.get("visible")]
    shown_correct = sum(_outcome(r) == "correct_skill" for r in shown)
    precision, recall = rate(correct, invoked), rate(correct, len(positives))
    return {
        "n": n,
        **with_ci("accuracy", correct + outcomes["correct_abstain"], n),
        **with_ci("precision", correct, invoked),
        **with_ci("recall", correct, len(positives)),
        "f1": _f1(precision, recall),
        "f1_ci": _f1_ci(rows),
        **with_ci("false_invocation_rate", negative_invoked, len(negatives)),
        "false_invocations": false_invocations,
        **with_ci("false_invocations_rate", false_invocations, n),
        **with_ci("miss_rate", outcomes["missed"], len(positives)),
        **with_ci("coverage", len(shown), len(positives)),
        **with_ci("recall_when_shown", shown_correct, len(shown)),
        "outcomes": {o: outcomes[o] for o in OUTCOMES},
        "by_position": by_position(positives),
        "per_skill": per_skill(rows),
        "confusion": confusion(rows),
        "mean_listing_chars": _mean(rows, "listing_chars"),
        "mean_listing_tokens": _mean(rows, "listing_tokens"),
    }


def by_position(positives: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Accuracy on positives by the 0-based listing position of the expected skill.

    Keys are positions as strings in numeric order; hidden expected skills have no position.
    """
    groups: dict[int, list[bool]] = {}
    for r in positives:
        if r.get("gold_position") is not None:
            groups.setdefault(int(r["gold_position"]), []).append(_outcome(r) == "correct_skill")
    return {
        str(p): {"n": len(hits), **with_ci("accuracy", sum(hits), len(hits))}
        for p, hits in sorted(groups.items())
    }


def per_skill(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per skill name: ``n`` requests accepting it, recall (those handled correctly), ``chosen``
    (times invoked) and precision (invocations that were correct), each with ``_ci``."""
    wanted: Counter[str] = Counter()
    recalled: Counter[str] = Counter()
    picked: Counter[str] = Counter()
    right: Counter[str] = Counter()
    for r in rows:
        correct = _outcome(r) == "correct_skill"
        for name in set(r.get("expected") or ()):
            wanted[name] += 1
            recalled[name] += correct
        chosen = r.get("chosen")
        if chosen is not None and _outcome(r) in INVOKED:
            picked[chosen] += 1
            right[chosen] += correct
    names = sorted(set(wanted) | _chosen_names(rows))
    return {
        name: {
            "n": wanted[name],
            **with_ci("recall", recalled[name], wanted[name]),
            "chosen": picked[name],
            **with_ci("precision", right[name], picked[name]),
        }
        for name in names
    }


def confusion(rows: Sequence[Mapping[str, Any]]) -> dict[str, dict[str, int]]:
    """Counts of ``{expected: {chosen: n}}`` with ``none`` for no skill.

    The expected label is the chosen name when it was acceptable, else the first expected
    name; an unusable answer is labelled ``<malformed>`` or ``<error>`` rather than ``none``.
    """
    table: dict[str, Counter[str]] = {}
    for r in rows:
        expected, chosen, outcome = r.get("expected") or [], r.get("chosen"), _outcome(r)
        if outcome in ("malformed", "error") and chosen is None:
            col = f"<{outcome}>"
        else:
            col = chosen if chosen is not None else "none"
        row = str(chosen) if chosen in expected else (str(expected[0]) if expected else "none")
        table.setdefault(row, Counter())[col] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(table.items())}


def _f1(precision: float | None, recall: float | None) -> float | None:
    if precision is None or recall is None:
        return None
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)


def _f1_ci(rows: Sequence[Mapping[str, Any]]) -> list[float] | None:
    """Bootstrap interval of F1 = 2·correct / (invoked + positives), by row category."""
    kinds = Counter(
        (_outcome(r) == "correct_skill", _outcome(r) in INVOKED, bool(r.get("expected")))
        for r in rows
    )
    if not any(invoked or positive for _, invoked, positive in kinds):
        return None
    keys = sorted(kinds)
    low, high = bootstrap_ratio(
        [2.0 * tp for tp, _, _ in keys],
        [float(inv) + float(pos) for _, inv, pos in keys],
        [kinds[k] for k in keys],
    )
    return [low, high]


def _chosen_names(rows: Sequence[Mapping[str, Any]]) -> set[str]:
    return {r["chosen"] for r in rows if r.get("chosen") is not None and _outcome(r) in INVOKED}


def _mean(rows: Sequence[Mapping[str, Any]], key: str) -> float | None:
    values = [r[key] for r in rows if r.get(key) is not None]
    return sum(values) / len(values) if values else None


def _outcome(row: Mapping[str, Any]) -> str:
    outcome = row.get("outcome")
    if outcome not in OUTCOMES:
        raise SkillbenchError(
            f"results row {row.get('request_id', '?')!r}: unknown outcome {outcome!r}; "
            f"expected one of: {', '.join(OUTCOMES)}"
        )
    return str(outcome)
