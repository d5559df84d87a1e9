"""What ``tune`` leaves behind: the variant's diff, a report (train and held-out test gains
with paired tests), and, with ``apply``, the winning descriptions written back with backups.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from skillbench._output import write_atomic
from skillbench.authoring._replay_link import Decision, Paired, compare_paired
from skillbench.authoring._tune import Score, TuneResult

DIFF_FILE = "changes.diff"
REPORT_JSON = "report.json"
REPORT_MD = "report.md"
BACKUP_DIR = "backup"


def diff_root(path: Path, source: Path) -> Path:
    """Where ``git apply`` runs for a change to ``path`` of the skill source ``source``: the
    repository holding it (the nearest folder with ``.git``), else the source folder. Paths
    are taken as the catalog names them, links unresolved: a ``SKILL.md`` linked from
    elsewhere is changed where the catalog keeps the link."""
    for folder in path.absolute().parents:
        if (folder / ".git").exists():
            return folder
    return source.absolute()


def unified_diff(result: TuneResult) -> str:
    """A unified diff from each original file to its rewritten copy, with ``a/`` and ``b/``
    paths relative to :func:`diff_root`, so ``git apply`` takes it in the catalog's
    repository."""
    assert result.copy is not None
    chunks: list[str] = []
    for copy, original in sorted(result.copy.changed_files().items()):
        before = original.read_text(encoding="utf-8").splitlines(keepends=True)
        after = copy.read_text(encoding="utf-8").splitlines(keepends=True)
        path = original.absolute()
        source = next(
            (s.path for s in result.copy.sources if path.is_relative_to(s.path.absolute())),
            original.parent,
        )
        name = path.relative_to(diff_root(path, source)).as_posix()
        chunks.extend(difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"))
    return "".join(chunks)


class Verdict(NamedTuple):
    """Whether to apply the rewrite, and the held-out evidence behind it."""

    apply: bool
    reason: str

    def line(self) -> str:
        return f"Verdict: {'apply' if self.apply else 'do not apply'}: {self.reason}"


ALPHA = 0.05
"""Significance level the held-out test must reach for a rewrite to be applied."""


def verdict(data: Mapping[str, Any]) -> Verdict:
    """Apply only a change whose held-out test gain is positive and significant (exact
    McNemar p below ``ALPHA``); train gains chose the change, so they cannot confirm it."""
    if not data["changes"]:
        return Verdict(False, "no candidate improved train accuracy; the catalog is unchanged")
    test, train = data["test"], data["train"]
    p, gain = test["p_value"], test["gain"]
    evidence = (
        f"held-out test gain {gain:+.4f} (p = {p:.3g}, {test['worse']} requests worse, "
        f"{test['better']} better); train gain {train['gain']:+.4f} (p = {train['p_value']:.3g})"
    )
    if gain <= 0:
        return Verdict(
            False, f"the rewrite does not help on requests it was not tuned on: {evidence}"
        )
    if p >= ALPHA:
        return Verdict(
            False,
            f"the test gain could be noise (p ≥ {ALPHA:g}): {evidence}; "
            "collect more labelled requests or a larger test split",
        )
    return Verdict(True, f"the held-out test confirms the gain: {evidence}")


def _unwanted_invocations(decisions: Sequence[Decision], skill: str | None = None) -> int:
    return sum(d.unwanted and (skill is None or d.chosen == skill) for d in decisions)


def _paired_json(p: Paired) -> dict[str, Any]:
    return {
        "requests": p.n,
        "base_accuracy": round(p.base, 4),
        "tuned_accuracy": round(p.tuned, 4),
        "gain": round(p.tuned - p.base, 4),
        "gain_ci95": [round(p.ci_low, 4), round(p.ci_high, 4)],
        "worse": p.worse,
        "better": p.better,
        "p_value": round(p.p_value, 4),
    }


def _split_json(base: Score, tuned: Score, ids: list[str], seed: int) -> dict[str, Any]:
    stats = _paired_json(compare_paired(base.decisions, tuned.decisions, ids, seed))
    stats["unwanted_invocations"] = {
        "base": _unwanted_invocations(base.decisions),
        "tuned": _unwanted_invocations(tuned.decisions),
    }
    return stats


def _per_skill(result: TuneResult, seed: int) -> list[dict[str, Any]]:
    """Per skill on the test split: requests expecting it or that chose it (either catalog)."""
    assert result.base_test is not None and result.tuned_test is not None
    base, tuned = result.base_test.decisions, result.tuned_test.decisions
    rows = []
    for name in sorted(result.skills):
        ids = sorted(
            {d.request_id for d in (*base, *tuned) if name in d.expected or d.chosen == name}
        )
        if not ids:
            continue
        stats = compare_paired(base, tuned, ids, seed)
        fi = (_unwanted_invocations(base, name), _unwanted_invocations(tuned, name))
        if name not in result.changes and stats.worse == stats.better == 0 and fi[0] == fi[1]:
            continue
        rows.append(
            {
                "skill": name,
                "changed": name in result.changes,
                **_paired_json(stats),
                "unwanted_invocations": {"base": fi[0], "tuned": fi[1]},
            }
        )
    return rows


def report_data(result: TuneResult, proposer: str) -> dict[str, Any]:
    """The report as JSON-ready data."""
    assert result.base_test is not None and result.tuned_test is not None
    seed = result.config.seed
    train_ids = [r.id for r in result.split.train]
    test_ids = [r.id for r in result.split.test]
    data: dict[str, Any] = {
        "config": result.config.name,
        "catalog": result.catalog,
        "proposer": proposer,
        "baseline_proposer": proposer == "offline",
        "status": "stopped" if result.stopped else "complete",
        "reason": result.stopped,
        "split": {"train": len(train_ids), "test": len(test_ids), "seed": seed},
        "candidates_evaluated": len([a for a in result.attempts if not a.accepted]),
        "iterations_kept": len([a for a in result.attempts if a.accepted]),
        "train": _split_json(result.base_train, result.tuned_train, train_ids, seed),
        "test": _split_json(result.base_test, result.tuned_test, test_ids, seed),
        "changes": {
            name: {"before": result.skills[name].description, "after": text}
            for name, text in sorted(result.changes.items())
        },
        "per_skill_test": _per_skill(result, seed),
        "prompts": [str(p) for p in result.prompts],
    }
    found = verdict(data)
    data["verdict"] = {"apply": found.apply, "reason": found.reason}
    return data


BASELINE_NOTE = (
    "*The offline proposer is a baseline: it writes no new text, only adds sentences from "
    "the skill's own instructions that carry words its rivals lack (and drops sentences "
    "built on rivals' words). Read its rewrites as a floor; a model proposer "
    "(`--proposer MODEL`) writes real descriptions.*"
)


def _row(label: str, s: dict[str, Any]) -> str:
    low, high = s["gain_ci95"]
    fi = s["unwanted_invocations"]
    return (
        f"| {label} | {s['requests']} | {s['base_accuracy']:.4f} | {s['tuned_accuracy']:.4f} "
        f"| {s['gain']:+.4f} | [{low:+.4f}, {high:+.4f}] | {s['worse']}/{s['better']} "
        f"| {s['p_value']:.3g} | {fi['base']} → {fi['tuned']} |"
    )


def report_markdown(data: dict[str, Any]) -> str:
    head = "| split | requests | base | tuned | gain | 95% CI | worse/better | p | unwanted |"
    rule = "|---|---|---|---|---|---|---|---|---|"
    found = Verdict(data["verdict"]["apply"], data["verdict"]["reason"])
    lines = [
        f"# tune: {data['config']} / catalog {data['catalog']}",
        "",
        f"**{found.line()}**",
        "",
    ]
    if data["baseline_proposer"]:
        lines += [BASELINE_NOTE, ""]
    lines += [
        f"Proposer {data['proposer']}; split seed {data['split']['seed']}: "
        f"{data['split']['train']} train / {data['split']['test']} test requests, stratified "
        "by expected skill, negatives included. Status: "
        + (data["status"] if not data["reason"] else f"{data['status']} ({data['reason']})")
        + f". {data['candidates_evaluated']} candidate catalogs evaluated on train.",
        "",
        head,
        rule,
        _row("train (chose the winner)", data["train"]),
        _row("**test (held out)**", data["test"]),
        "",
        "Accuracy counts correct skills and correct abstentions, averaged per request over the "
        "config's cells. p: exact McNemar (sign test on per-request means when there are "
        "several cells); CI: paired bootstrap. The test split was never shown to the proposer "
        "and never used to choose: its gain is the one to believe.",
        "",
        "## Changed descriptions",
    ]
    if not data["changes"]:
        lines.append("\nNo candidate improved train accuracy: the catalog is unchanged.")
    for name, change in data["changes"].items():
        lines += [
            "",
            f"### {name}",
            "",
            f"- before: {change['before']}",
            f"- after: {change['after']}",
        ]
    if data["per_skill_test"]:
        lines += [
            "",
            "## Per skill, test split",
            "",
            "| skill | requests | base | tuned | gain | 95% CI | worse/better | p | unwanted |",
            rule,
        ]
        lines += [
            _row(f"{r['skill']}{' (changed)' if r['changed'] else ''}", r)
            for r in data["per_skill_test"]
        ]
    return "\n".join(lines) + "\n"


def write_report(result: TuneResult, out: Path, proposer: str) -> dict[str, Any]:
    """Write the diff, ``report.json`` and ``report.md`` under ``out``; returns the data."""
    data = report_data(result, proposer)
    (out / DIFF_FILE).write_text(unified_diff(result), encoding="utf-8")
    (out / REPORT_JSON).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    (out / REPORT_MD).write_text(report_markdown(data), encoding="utf-8")
    return data


def apply_changes(result: TuneResult, out: Path) -> list[tuple[Path, Path]]:
    """Write each rewritten file over its original, after copying the original under
    ``out/backup`` (same relative layout as the variant); returns (original, backup) pairs.

    An earlier apply's backup is never overwritten (a later one goes to ``backup-2``, …), so
    the first backup keeps the text before any tuning. Each file is replaced by rename, after
    its backup is on disk: a kill leaves the old text or the new, never half of either. A
    symlinked skill file is written through, so the link stays.
    """
    assert result.copy is not None
    backups = _fresh(out / BACKUP_DIR)
    done = []
    for copy, original in sorted(result.copy.changed_files().items()):
        backup = backups / copy.relative_to(result.copy.root)
        backup.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(backup, Path(original).read_bytes())
        write_atomic(original, copy.read_bytes())
        done.append((original, backup))
    return done


def _fresh(folder: Path) -> Path:
    """``folder``, or ``folder-2``, ``folder-3`` … : the first that does not exist yet."""
    candidate, n = folder, 1
    while candidate.exists():
        n += 1
        candidate = folder.with_name(f"{folder.name}-{n}")
    return candidate
