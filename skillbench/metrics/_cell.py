"""Per-cell summary metrics from results rows (the ``summary.json`` cell contract)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.metrics._intervals import rate, wilson_json
from skillbench.metrics._metric import METRICS, completed
from skillbench.types import INVOKED, OUTCOMES, UNANSWERED, UNWANTED, expected_shown


def with_ci(name: str, successes: int, n: int) -> dict[str, Any]:
    """``{name: rate, name_ci: [low, high]}``, both ``None`` when ``n`` is 0."""
    return {name: rate(successes, n), f"{name}_ci": wilson_json(successes, n)}


def counted_rows(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The rows a summary counts: the test split when any row was used for calibration."""
    if any(r.get("split") == "train" for r in rows):
        return [r for r in rows if r.get("split", "test") == "test"]
    return list(rows)


def cell_metrics(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Every summary metric of one cell, JSON-ready (the ``summary.json`` cell contract).

    ``n`` counts every decision of the cell and ``errors`` those that got no answer; each
    registered metric (``METRICS``) adds its value and ``_ci`` interval, every rate but
    ``error_rate`` over the completed decisions. Undefined rates are ``None``.
    """
    rows = counted_rows(rows)
    for row in rows:
        _outcome(row)
    outcomes = Counter(str(r["outcome"]) for r in rows)
    scored = [r for r in rows if completed(r)]
    positives = [r for r in scored if r.get("expected")]
    out: dict[str, Any] = {"n": len(rows), "errors": sum(outcomes[o] for o in UNANSWERED)}
    for m in METRICS.values():
        out[m.name], out[f"{m.name}_ci"] = m.compute(rows)
    return {
        **out,
        "unwanted_invocations": sum(outcomes[o] for o in UNWANTED),
        "outcomes": {o: outcomes[o] for o in OUTCOMES},
        "by_position": by_position(positives),
        "per_skill": per_skill(scored),
        "confusion": confusion(rows),
        "not_shown": not_shown(rows),
        "mean_listing_chars": _mean(rows, "listing_chars"),
        "mean_listing_tokens": _mean(rows, "listing_tokens"),
        "mean_full_listing_tokens": _mean(rows, "full_listing_tokens"),
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
    """Counts of ``{expected: {chosen: n}}`` with ``none`` for no skill, over the decisions
    whose expected skill was shown (``not_shown`` counts the others).

    The expected label is the chosen name when it was acceptable, else the first expected
    name; an unusable answer is labelled ``<malformed>`` or ``<error>`` rather than ``none``.
    """
    table: dict[str, Counter[str]] = {}
    for r in rows:
        if not expected_shown(r):
            continue
        expected, chosen, outcome = r.get("expected") or [], r.get("chosen"), _outcome(r)
        if outcome in ("malformed", "error") and chosen is None:
            col = f"<{outcome}>"
        else:
            col = chosen if chosen is not None else "none"
        row = str(chosen) if chosen in expected else (str(expected[0]) if expected else "none")
        table.setdefault(row, Counter())[col] += 1
    return {k: dict(sorted(v.items())) for k, v in sorted(table.items())}


def not_shown(rows: Sequence[Mapping[str, Any]]) -> dict[str, int]:
    """Decisions whose expected skill the listing did not show, by that skill (the first
    expected name): left out of ``confusion``, as no description could have helped them."""
    counts = Counter(str(r["expected"][0]) for r in rows if not expected_shown(r))
    return dict(sorted(counts.items()))


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
