"""The ``eval`` scorecard for people (text), for a CI step summary (Markdown) and as GitHub
annotations on the failing queries' lines."""

from __future__ import annotations

from skillbench.authoring._github import AnnotationLevel, workflow_command
from skillbench.authoring._scorecard import EvalReport, PassRate, QueryResult, SkillScorecard


def _rate(rate: PassRate) -> str:
    if rate.n == 0:
        return "-"
    assert rate.rate is not None and rate.ci is not None
    return f"{rate.passed}/{rate.n} ({rate.rate:.0%}, 95% CI {rate.ci[0]:.0%}-{rate.ci[1]:.0%})"


def _label(query: QueryResult) -> str:
    if query.should_trigger:
        return "should trigger"
    return "no skill should trigger" if query.none_should_trigger else "should not trigger"


def _fired(query: QueryResult) -> str:
    return ", ".join(f"{name} {n}" for name, n in query.fired.items()) or "-"


def _rows(card: SkillScorecard) -> list[tuple[str, PassRate]]:
    rows = [
        ("should trigger", card.should_trigger),
        ("should not trigger", card.should_not_trigger),
        ("all queries", card.overall),
    ]
    return rows + ([("validation split", card.validation)] if card.validation else [])


def _header(report: EvalReport) -> str:
    budget = f", budget {report.budget:,}" if report.budget else ""
    return (
        f"{report.selector} selector, {report.profile} listing{budget}, "
        f"{report.repeats} runs per query, pass at trigger rate "
        f">= {report.threshold} (should) / < {report.threshold} (should not)"
    )


def _gate(card: SkillScorecard) -> str:
    return "" if card.gate is None else ("  PASS" if card.gate else "  FAIL")


def _query_line(q: QueryResult, mark: str) -> str:
    rate = "-" if q.trigger_rate is None else f"{q.trigger_rate:.2f}"
    lead = f"    {mark} " if mark else "    "
    return (
        f"{lead}{q.file}:{q.line}  {_label(q)}, triggered {q.triggered}/{q.runs} "
        f"(rate {rate})  {q.text!r}  (invoked: {_fired(q)})"
    )


def text_scorecard(report: EvalReport, every_query: bool = False) -> str:
    """The scorecard as a terminal reads it: one block per skill with its failing queries
    (``every_query``: all of them, each marked pass or FAIL)."""
    lines = [_header(report)]
    if report.changed is not None:
        lines.append(_changed_line(report))
    if report.without_set:
        lines.append(f"no trigger set (not scored): {', '.join(report.without_set)}")
    for card in report.skills:
        ignored = (
            f"; {card.output_evals_ignored} output evals ignored"
            if card.output_evals_ignored
            else ""
        )
        lines += ["", f"{card.skill}{_gate(card)}  ({card.catalog_size} skills listed{ignored})"]
        lines += [f"  {name:<19} {_rate(rate)}" for name, rate in _rows(card)]
        shown = [q for q in card.queries if every_query or q.passed is False]
        if shown:
            lines.append("  queries:" if every_query else "  failing:")
        marks = {True: "pass", False: "FAIL", None: "----"}
        lines += [_query_line(q, marks[q.passed] if every_query else "") for q in shown]
        lines += [f"    {qid}: no run got an answer" for qid in card.unanswered]
    if report.status != "complete":
        lines += ["", f"replay {report.status}: {report.reason}"]
    return "\n".join(lines)


def _changed_line(report: EvalReport) -> str:
    changed = report.changed
    assert changed is not None
    looks = sorted({name for names in changed.lookalikes.values() for name in names})
    line = (
        f"changed since {changed.base_ref}: {', '.join(changed.changed) or 'no skill'}; "
        f"look-alikes: {', '.join(looks) or 'none'}"
    )
    return line


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def markdown_scorecard(report: EvalReport) -> str:
    """The scorecard as a GitHub step summary: a table of skills, then the failing queries."""
    lines = ["## Skill trigger evals", "", _cell(_header(report)), ""]
    if report.changed is not None:
        lines += [_cell(_changed_line(report)), ""]
    if report.without_set:
        lines += [_cell(f"No trigger set (not scored): {', '.join(report.without_set)}"), ""]
    lines += [
        "| skill | should trigger | should not trigger | all | validation | gate |",
        "|---|---|---|---|---|---|",
    ]
    for card in report.skills:
        gate = {None: "", True: "pass", False: "**fail**"}[card.gate]
        validation = _rate(card.validation) if card.validation else "-"
        lines.append(
            f"| `{_cell(card.skill)}` | {_rate(card.should_trigger)} | "
            f"{_rate(card.should_not_trigger)} | {_rate(card.overall)} | {validation} | {gate} |"
        )
    failing = [(c, q) for c in report.skills for q in c.queries if q.passed is False]
    if failing:
        lines += ["", "### Failing queries", "", "| skill | query | label | triggered | invoked |"]
        lines.append("|---|---|---|---|---|")
        for card, q in failing:
            lines.append(
                f"| `{_cell(card.skill)}` | {_cell(q.text)} | {_label(q)} | "
                f"{q.triggered}/{q.runs} | {_cell(_fired(q))} |"
            )
    if report.status != "complete":
        lines += ["", f"Replay {report.status}: {_cell(str(report.reason))}"]
    return "\n".join(lines) + "\n"


def github_annotations(report: EvalReport) -> str:
    """One annotation per failing query, on its line of the eval file: an error when the
    skill fails the gate, else a warning."""
    lines = []
    for card in report.skills:
        level: AnnotationLevel = "error" if card.gate is False else "warning"
        for q in card.queries:
            if q.passed is not False:
                continue
            message = (
                f"{_label(q)} but triggered {q.triggered} of {q.runs} runs "
                f"(invoked: {_fired(q)}): {q.text}"
            )
            title = f"{card.skill}: trigger eval failed"
            lines.append(workflow_command(level, message, file=q.file, line=q.line, title=title))
        if card.gate is False:
            assert card.overall.rate is not None
            message = (
                f"pass rate {card.overall.rate:.0%} is below the floor {report.min_pass_rate:.0%}"
            )
            file = card.files[0] if card.files else None
            lines.append(workflow_command("error", message, file=file, title=card.skill))
    return "\n".join(lines)
