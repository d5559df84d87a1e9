"""Lint output: text for people, JSON for tools, GitHub workflow commands for CI annotations.

Paths and messages carry folder and skill names, which may hold line breaks or escape
sequences: every format escapes them for its medium, so no name can forge a finding or a
``::error`` command (JSON escapes them itself)."""

from __future__ import annotations

import json
from typing import Literal

from skillbench._sanitize import printable
from skillbench.authoring._github import AnnotationLevel, workflow_command
from skillbench.authoring._lint import LintReport
from skillbench.authoring._rules import Finding, Rule

LintFormat = Literal["text", "json", "github"]

_GITHUB_LEVEL: dict[str, AnnotationLevel] = {
    "error": "error",
    "warning": "warning",
    "info": "notice",
}


def _where(f: Finding) -> str:
    if f.path is None:
        return "<catalog>"
    path = printable(f.path)
    return path if f.line is None else f"{path}:{f.line}"


def _summary(report: LintReport) -> str:
    return (
        f"{report.skills} skills, profiles {', '.join(report.profiles)}: "
        f"{report.count('error')} errors, {report.count('warning')} warnings, "
        f"{report.count('info')} notes"
    )


def _text(report: LintReport, verbose: bool) -> str:
    lines = [
        f"{_where(f)}: {f.severity} {f.rule.id} {f.rule.slug}: {printable(f.message)}"
        for f in report.findings
        if verbose or f.severity != "info"
    ]
    hidden = "" if verbose else " (notes shown with --verbose)"
    return "\n".join([*lines, _summary(report) + (hidden if report.count("info") else "")])


def _github(report: LintReport, verbose: bool) -> str:
    """One ``::level file=…,line=…,title=…::message`` workflow command per finding."""
    lines = []
    for f in report.findings:
        if f.severity == "info" and not verbose:
            continue
        title = f"{f.rule.id} {f.rule.slug}"
        level = _GITHUB_LEVEL[f.severity]
        lines.append(workflow_command(level, f.message, file=f.path, line=f.line, title=title))
    return "\n".join([*lines, _summary(report)])


def format_report(report: LintReport, fmt: LintFormat, *, verbose: bool = False) -> str:
    """The report in ``fmt``; notes (``info``) appear in text/github only when ``verbose``."""
    if fmt == "json":
        data = {
            "skills": report.skills,
            "profiles": list(report.profiles),
            "counts": {s: report.count(s) for s in ("error", "warning", "info")},
            "findings": [f.to_json() for f in report.findings],
        }
        return json.dumps(data, indent=2, ensure_ascii=False)
    if fmt == "github":
        return _github(report, verbose)
    return _text(report, verbose)


def explain(rule: Rule) -> str:
    """``--explain`` text of one rule."""
    return f"{rule.id} {rule.slug} ({rule.severity}): {rule.summary}\n\n{rule.explanation}"
