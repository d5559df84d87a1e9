"""Advice per swept field, one line per comparable group, each citing the numbers it uses.

Lines are computed within groups of cells that differ in the advised field alone, so a
profile's or a selector's results never leak into another's advice. Baselines (oracle,
never, random) get no advice: they are the references the advice is read against.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from skillbench.report._effects import Effect, Effects, group_label, groups, is_baseline, kind
from skillbench.report._figure import finite
from skillbench.report._run import ORACLE, distinct, fmt_value, inert_keys, value
from skillbench.results import CellFields, Run
from skillbench.types import CELL_FIELDS

Cell = CellFields
TOLERANCE = 0.01
""""Within one point" of the best accuracy."""
COVERED = 0.9
"""Coverage from which the budget stops being the limit: at most a tenth of the expected
skills are still hidden."""
FITS = 0.8
"""A listing this far under its budget left nothing out (no entry is a fifth of a budget)."""
AXIS_NAMES = {
    "ordering": "ordering",
    "profile": "profile",
    "catalog": "catalog",
    "selector": "selector",
}


def _seq(cells: Sequence[Cell], metric: str) -> str:
    return " → ".join(f"{v:.3f}" if finite(v := c.metric(metric)) else "–" for c in cells)


def _budgets(cells: Sequence[Cell]) -> str:
    return " → ".join(f"{_budget(c):,}" for c in cells)


def _budget(cell: Cell) -> int:
    """The budget of a cell kept for having a numeric one."""
    if cell.budget is None:
        raise ValueError(f"cell {cell.key} has no budget")
    return cell.budget


def _oracle(run: Run, cell: Cell) -> Cell | None:
    """The oracle cell with the same listing as ``cell`` (every field but the selector)."""
    for other in run.summary.cells:
        if kind(run, other) == ORACLE and all(
            getattr(other, k) == getattr(cell, k) for k in CELL_FIELDS if k != "selector"
        ):
            return other
    return None


def _baselines_note(run: Run, cells: Sequence[Cell]) -> str | None:
    names = sorted({c.selector for c in cells if is_baseline(run, c)})
    if not names:
        return None
    listed = ", ".join(f"`{n}`" for n in names)
    return (
        f"No advice for {listed}: baselines (oracle, never, random) are the references "
        "the advice reads against, not systems to tune."
    )


def budget_advice(run: Run, effects: Effects) -> list[str]:
    """Per comparable group, whether the budget or the selector limits accuracy, and the
    smallest budget worth its characters."""
    cells = [
        c
        for c in distinct(run.summary.cells)[0]
        if finite(c.budget) and c.metric("accuracy") is not None
    ]
    budgets = sorted({_budget(c) for c in cells})
    if len(budgets) < 2:
        only = ", ".join(f"{b:,}" for b in budgets) or "none"
        return [
            f"Only one budget was run ({only}): sweep several budgets to find the smallest "
            "that keeps accuracy."
        ]
    out = [
        _budget_line(run, effects, line)
        for line in groups(cells, "budget").values()
        if not is_baseline(run, line[0])
    ]
    note = _baselines_note(run, cells)
    return out + ([note] if note else [])


def _head(run: Run, cell: Cell, axis: str) -> str:
    label = group_label(run, cell, axis)
    return f"**{label}**: " if label != "all" else ""


def _budget_line(run: Run, effects: Effects, line: Sequence[Cell]) -> str:
    head = _head(run, line[0], "budget")
    last, prev = line[-1], line[-2]
    best = max(line, key=lambda c: (value(c, "accuracy"), -_budget(c)))
    if value(best, "accuracy") >= 1.0:
        return f"{head}accuracy 1.000 at budget {_budget(best):,}: nothing left to gain."
    cov = last.metric("coverage")
    chars = last.mean_listing_chars
    step = effects.effect("budget", prev, last)
    limit = None
    if finite(cov) and cov >= COVERED:
        limit = (
            f"at budget {_budget(last):,} the listing shows {cov:.3f} of the expected skills "
            f"(coverage), so more budget can reveal at most {1 - cov:.3f} of them"
        )
    elif finite(chars) and chars <= FITS * _budget(last):
        limit = (
            f"at budget {_budget(last):,} the listing used only {chars:,.0f} characters: "
            "everything fit, so more budget shows nothing more"
        )
    if limit is not None:
        text = head + limit
        text += f"; recall when shown is {_seq(line, 'recall_when_shown')} over budgets "
        text += _budgets(line)
        oracle = _oracle(run, last)
        if oracle is not None and finite(oracle.metric("accuracy")):
            text += (
                f", and the oracle reaches accuracy {value(oracle, 'accuracy'):.3f} on the same "
                f"listing against {value(last, 'accuracy'):.3f} here"
            )
        text += (
            ": **the gap is the selector's, not the budget's**. Sharpen the descriptions the "
            "selector confuses (below) or change the selector before raising the budget."
        )
        text += " " + _smallest(line, best, effects)
    elif step is not None and step.clear and step.diff > 0:
        text = (
            f"{head}accuracy still rises at the largest budget ({_seq(line, 'accuracy')} over "
            f"budgets {_budgets(line)}; last step Δ {step.text()}) and the listing shows only "
            f"{_cov(cov)} of the expected skills: **the budget limits accuracy**; try larger "
            "budgets."
        ) + _selector_share(run, effects, last)
    else:
        text = f"{head}{_smallest(line, best, effects)}"
        if step is not None and not step.clear:
            text += (
                f" The last step ({_budget(prev):,} → {_budget(last):,}) changed accuracy by "
                f"{step.text()}: no detectable gain."
            )
    return text + _false_invocations(line, effects)


def _selector_share(run: Run, effects: Effects, last: Cell) -> str:
    """A sentence when the selector, more than the budget, keeps ``last`` from the oracle.

    Showing every hidden expected skill could add at most (1 − coverage) × positives ×
    recall-when-shown correct decisions; when that is under half the gap to the oracle on
    the same listing, most of the gap is the selector's.
    """
    oracle = _oracle(run, last)
    cov, rws = last.metric("coverage"), last.metric("recall_when_shown")
    if oracle is None or not (finite(cov) and finite(rws) and finite(oracle.metric("accuracy"))):
        return ""
    decisions = len(effects.scores(last, "accuracy"))
    positives = len(effects.scores(last, "coverage"))
    if not decisions:
        return ""
    reach = (1 - cov) * positives / decisions * rws
    gap = value(oracle, "accuracy") - value(last, "accuracy")
    if reach >= gap / 2:
        return ""
    return (
        f" Even then, showing every hidden skill adds at most about {reach:.3f} accuracy "
        f"((1 − {cov:.3f}) × {positives:,}/{decisions:,} requests needing a skill × {rws:.3f} "
        f"recall when shown), against a gap of {gap:.3f} to the oracle "
        f"({value(oracle, 'accuracy'):.3f}): most of the gap is the selector's."
    )


def _cov(cov: Any) -> str:
    return f"{cov:.3f}" if finite(cov) else "an unknown share"


def _smallest(line: Sequence[Cell], best: Cell, effects: Effects) -> str:
    """The smallest budget within one point of the best accuracy, with the paired gap."""
    enough = next(c for c in line if value(c, "accuracy") >= value(best, "accuracy") - TOLERANCE)
    if enough is best:
        return (
            f"Best accuracy {value(best, 'accuracy'):.3f} at budget **{_budget(best):,}**; no "
            "smaller budget comes within one point."
        )
    gap = effects.effect("budget", best, enough)
    saved = _budget(best) - _budget(enough)
    return (
        f"Best accuracy {value(best, 'accuracy'):.3f} at budget {_budget(best):,}; the smallest "
        f"budget within one point is **{_budget(enough):,}** ({value(enough, 'accuracy'):.3f}"
        + (f"; Δ {gap.text()}" if gap is not None else "")
        + f"), saving {saved:,} characters."
    )


def _false_invocations(line: Sequence[Cell], effects: Effects) -> str:
    """A sentence when false invocations rise clearly with the budget."""
    first, last = line[0], line[-1]
    if not all(finite(c.metric("false_invocation_rate")) for c in (first, last)):
        return ""
    rise = effects.effect("budget", first, last, "false_invocation_rate")
    if rise is None or not rise.clear or rise.diff <= 0:
        return ""
    return (
        f" False invocations on requests needing no skill rise with the budget "
        f"({_seq(line, 'false_invocation_rate')}; Δ {rise.text()} from {_budget(first):,} to "
        f"{_budget(last):,}): each added entry is one more to trigger on by mistake."
    )


def axis_advice(run: Run, effects: Effects, axis: str) -> list[str]:
    """Per comparable group, the best value of ``axis`` and whether the others differ."""
    if axis in inert_keys(run.summary.cells):
        return [
            f"{axis} changed no rate: every value gives identical outcomes, so choose it "
            "on other grounds."
        ]
    cells = [
        c
        for c in distinct(run.summary.cells)[0]
        if c.metric("accuracy") is not None and not is_baseline(run, c)
    ]
    out = [_axis_line(run, effects, axis, group) for group in groups(cells, axis).values()]
    if not out:
        reason = (
            "fewer than two selectors that are not baselines"
            if axis == "selector"
            else "no two cells differ only in it"
        )
        return [f"No {axis} advice: {reason}."]
    return out


def _axis_line(run: Run, effects: Effects, axis: str, group: Sequence[Cell]) -> str:
    best = max(group, key=lambda c: value(c, "accuracy"))
    name = fmt_value(getattr(best, axis))
    compared = [(c, effects.effect(axis, c, best)) for c in group if c is not best]
    known: list[tuple[Cell, Effect]] = [(c, e) for c, e in compared if e is not None]
    clear = [(c, e) for c, e in known if e.clear]
    tied = [(c, e) for c, e in known if not e.clear]

    def listed(items: Sequence[tuple[Cell, Effect]]) -> str:
        return "; ".join(
            f"{fmt_value(getattr(c, axis))} {value(c, 'accuracy'):.3f} (Δ {e.text()})"
            for c, e in items
        )

    head = _head(run, best, axis) + f"{AXIS_NAMES[axis]} **{name}** ({value(best, 'accuracy'):.3f})"
    if not tied:
        return f"{head} beats {listed(clear)}: use {name}."
    if not clear:
        return (
            f"{head} is not distinguishable from {listed(tied)}: no detectable {axis} effect; "
            "choose on cost or simplicity."
        )
    return (
        f"{head} beats {listed(clear)}; it is not distinguishable from {listed(tied)}: use either."
    )
