"""What ``tune`` leaves behind: the variant's diff, a report (train and held-out test gains
with paired tests), and, with ``apply``, the winning descriptions written back with backups.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, model_serializer

from skillbench._output import write_atomic
from skillbench.authoring._replay_link import Paired, ReplayedDecision, compare_paired
from skillbench.authoring._tune import Score, TuneResult
from skillbench.authoring._variant import CatalogCopy
from skillbench.types import JsonObject

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
    """The diff of the tuned variant (see :func:`copy_diff`)."""
    assert result.copy is not None
    return copy_diff(result.copy)


def copy_diff(variant: CatalogCopy) -> str:
    """A unified diff from each original file to its rewritten copy, with ``a/`` and ``b/``
    paths relative to :func:`diff_root`, so ``git apply`` takes it in the catalog's
    repository."""
    chunks: list[str] = []
    for copy, original in sorted(variant.changed_files().items()):
        before = original.read_text(encoding="utf-8").splitlines(keepends=True)
        after = copy.read_text(encoding="utf-8").splitlines(keepends=True)
        path = original.absolute()
        source = next(
            (s.path for s in variant.sources if path.is_relative_to(s.path.absolute())),
            original.parent,
        )
        name = path.relative_to(diff_root(path, source)).as_posix()
        chunks.extend(difflib.unified_diff(before, after, f"a/{name}", f"b/{name}"))
    return "".join(chunks)


class RewriteVerdict(NamedTuple):
    """Whether to apply the rewrite, and the held-out evidence behind it."""

    apply: bool
    reason: str

    def line(self) -> str:
        return f"RewriteVerdict: {'apply' if self.apply else 'do not apply'}: {self.reason}"


ALPHA = 0.05
"""Significance level the held-out test must reach for a rewrite to be applied."""


class _TuneRecord(BaseModel):
    model_config = ConfigDict(frozen=True)


class Unwanted(_TuneRecord):
    """Unwanted invocations (false triggers, wrong and unlisted skills) of either catalog."""

    base: int
    tuned: int


class TunePaired(_TuneRecord):
    """The tuned catalog against the base on the same requests (see ``Paired``)."""

    requests: int
    base_accuracy: float
    tuned_accuracy: float
    gain: float
    gain_ci95: tuple[float, float]
    worse: int
    better: int
    p_value: float
    unwanted_invocations: Unwanted

    @classmethod
    def of(cls, p: Paired, unwanted: Unwanted) -> TunePaired:
        """Rounded to 4 places, as the report shows them."""
        return cls(
            requests=p.n,
            base_accuracy=round(p.base, 4),
            tuned_accuracy=round(p.tuned, 4),
            gain=round(p.tuned - p.base, 4),
            gain_ci95=(round(p.ci_low, 4), round(p.ci_high, 4)),
            worse=p.worse,
            better=p.better,
            p_value=round(p.p_value, 4),
            unwanted_invocations=unwanted,
        )


class TunedSkill(_TuneRecord):
    """One skill on the test split: the requests expecting it or that chose it."""

    skill: str
    changed: bool
    stats: TunePaired

    @model_serializer
    def _flat(self) -> JsonObject:
        """The skill's name and whether it changed, then its statistics, in one object."""
        return {"skill": self.skill, "changed": self.changed, **self.stats.model_dump(mode="json")}


class SplitSizes(_TuneRecord):
    train: int
    test: int
    seed: int


class Change(_TuneRecord):
    """A rewritten description."""

    before: str
    after: str


class VerdictRecord(_TuneRecord):
    apply: bool
    reason: str


class TuneReport(_TuneRecord):
    """``report.json``: the split, train and held-out test statistics, the changed
    descriptions and the verdict."""

    config: str
    catalog: str
    proposer: str
    baseline_proposer: bool
    status: Literal["complete", "stopped"]
    reason: str | None
    split: SplitSizes
    candidates_evaluated: int
    iterations_kept: int
    train: TunePaired
    test: TunePaired
    changes: dict[str, Change]
    per_skill_test: list[TunedSkill]
    prompts: list[str]
    verdict: VerdictRecord


def verdict(changes: Mapping[str, Change], train: TunePaired, test: TunePaired) -> RewriteVerdict:
    """Apply only a change whose held-out test gain is positive and significant (exact
    McNemar p below ``ALPHA``); train gains chose the change, so they cannot confirm it."""
    if not changes:
        return RewriteVerdict(
            False, "no candidate improved train accuracy; the catalog is unchanged"
        )
    p, gain = test.p_value, test.gain
    evidence = (
        f"held-out test gain {gain:+.4f} (p = {p:.3g}, {test.worse} requests worse, "
        f"{test.better} better); train gain {train.gain:+.4f} (p = {train.p_value:.3g})"
    )
    if gain <= 0:
        return RewriteVerdict(
            False, f"the rewrite does not help on requests it was not tuned on: {evidence}"
        )
    if p >= ALPHA:
        return RewriteVerdict(
            False,
            f"the test gain could be noise (p ≥ {ALPHA:g}): {evidence}; "
            "collect more labelled requests or a larger test split",
        )
    return RewriteVerdict(True, f"the held-out test confirms the gain: {evidence}")


def _unwanted_invocations(decisions: Sequence[ReplayedDecision], skill: str | None = None) -> int:
    return sum(d.unwanted and (skill is None or d.chosen == skill) for d in decisions)


def _split_stats(base: Score, tuned: Score, ids: list[str], seed: int) -> TunePaired:
    unwanted = Unwanted(
        base=_unwanted_invocations(base.decisions), tuned=_unwanted_invocations(tuned.decisions)
    )
    return TunePaired.of(compare_paired(base.decisions, tuned.decisions, ids, seed), unwanted)


def _per_skill(result: TuneResult, seed: int) -> list[TunedSkill]:
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
        unwanted = Unwanted(base=fi[0], tuned=fi[1])
        rows.append(
            TunedSkill(
                skill=name, changed=name in result.changes, stats=TunePaired.of(stats, unwanted)
            )
        )
    return rows


def report_data(result: TuneResult, proposer: str) -> TuneReport:
    """The report of a finished tune."""
    assert result.base_test is not None and result.tuned_test is not None
    seed = result.config.seed
    train_ids = [r.id for r in result.split.train]
    test_ids = [r.id for r in result.split.test]
    train = _split_stats(result.base_train, result.tuned_train, train_ids, seed)
    test = _split_stats(result.base_test, result.tuned_test, test_ids, seed)
    changes = {
        name: Change(before=result.skills[name].description, after=text)
        for name, text in sorted(result.changes.items())
    }
    found = verdict(changes, train, test)
    return TuneReport(
        config=result.config.name,
        catalog=result.catalog,
        proposer=proposer,
        baseline_proposer=proposer == "offline",
        status="stopped" if result.stopped else "complete",
        reason=result.stopped,
        split=SplitSizes(train=len(train_ids), test=len(test_ids), seed=seed),
        candidates_evaluated=len([a for a in result.attempts if not a.accepted]),
        iterations_kept=len([a for a in result.attempts if a.accepted]),
        train=train,
        test=test,
        changes=changes,
        per_skill_test=_per_skill(result, seed),
        prompts=[str(p) for p in result.prompts],
        verdict=VerdictRecord(apply=found.apply, reason=found.reason),
    )


BASELINE_NOTE = (
    "*The offline proposer is a baseline: it writes no new text, only adds sentences from "
    "the skill's own instructions that carry words its rivals lack (and drops sentences "
    "built on rivals' words). Read its rewrites as a floor; a model proposer "
    "(`--proposer MODEL`) writes real descriptions.*"
)


def _row(label: str, s: TunePaired) -> str:
    low, high = s.gain_ci95
    fi = s.unwanted_invocations
    return (
        f"| {label} | {s.requests} | {s.base_accuracy:.4f} | {s.tuned_accuracy:.4f} "
        f"| {s.gain:+.4f} | [{low:+.4f}, {high:+.4f}] | {s.worse}/{s.better} "
        f"| {s.p_value:.3g} | {fi.base} → {fi.tuned} |"
    )


def report_markdown(data: TuneReport) -> str:
    head = "| split | requests | base | tuned | gain | 95% CI | worse/better | p | unwanted |"
    rule = "|---|---|---|---|---|---|---|---|---|"
    found = RewriteVerdict(data.verdict.apply, data.verdict.reason)
    lines = [
        f"# tune: {data.config} / catalog {data.catalog}",
        "",
        f"**{found.line()}**",
        "",
    ]
    if data.baseline_proposer:
        lines += [BASELINE_NOTE, ""]
    lines += [
        f"Proposer {data.proposer}; split seed {data.split.seed}: "
        f"{data.split.train} train / {data.split.test} test requests, stratified "
        "by expected skill, negatives included. Status: "
        + (data.status if not data.reason else f"{data.status} ({data.reason})")
        + f". {data.candidates_evaluated} candidate catalogs evaluated on train.",
        "",
        head,
        rule,
        _row("train (chose the winner)", data.train),
        _row("**test (held out)**", data.test),
        "",
        "Accuracy counts correct skills and correct abstentions, averaged per request over the "
        "config's cells. p: exact McNemar (sign test on per-request means when there are "
        "several cells); CI: paired bootstrap. The test split was never shown to the proposer "
        "and never used to choose: its gain is the one to believe.",
        "",
        "## Changed descriptions",
    ]
    if not data.changes:
        lines.append("\nNo candidate improved train accuracy: the catalog is unchanged.")
    for name, change in data.changes.items():
        lines += [
            "",
            f"### {name}",
            "",
            f"- before: {change.before}",
            f"- after: {change.after}",
        ]
    if data.per_skill_test:
        lines += [
            "",
            "## Per skill, test split",
            "",
            "| skill | requests | base | tuned | gain | 95% CI | worse/better | p | unwanted |",
            rule,
        ]
        lines += [
            _row(f"{r.skill}{' (changed)' if r.changed else ''}", r.stats)
            for r in data.per_skill_test
        ]
    return "\n".join(lines) + "\n"


def write_report(result: TuneResult, out: Path, proposer: str) -> TuneReport:
    """Write the diff, ``report.json`` and ``report.md`` under ``out``; returns the report."""
    data = report_data(result, proposer)
    (out / DIFF_FILE).write_text(unified_diff(result), encoding="utf-8")
    (out / REPORT_JSON).write_text(report_json(data), "utf-8")
    (out / REPORT_MD).write_text(report_markdown(data), encoding="utf-8")
    return data


def report_json(data: TuneReport) -> str:
    """``report.json``'s text (also what ``tune --format json`` prints)."""
    return json.dumps(data.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"


class Applied(NamedTuple):
    """One file written back: the skill file and the copy of its text before."""

    original: Path
    backup: Path


def backup_folder(out: Path) -> Path:
    """Where an apply into ``out`` keeps the originals: ``out/backup``, or ``backup-2``, …
    when an earlier apply's backup is there (never overwritten, so the first keeps the text
    before any tuning)."""
    return _fresh(out / BACKUP_DIR)


def apply_changes(result: TuneResult, backups: Path) -> Iterator[Applied]:
    """Write the tuned variant over the catalog (see :func:`apply_copy`)."""
    assert result.copy is not None
    return apply_copy(result.copy, backups)


def apply_copy(variant: CatalogCopy, backups: Path) -> Iterator[Applied]:
    """Write each rewritten file over its original, after copying the original under
    ``backups`` (same relative layout as the variant); yields each file once written, so an
    interrupted apply can say which files it wrote.

    Each file is replaced by rename, after its backup is on disk: a kill leaves the old text
    or the new, never half of either. A symlinked skill file is written through, so the
    link stays.
    """
    for copy, original in sorted(variant.changed_files().items()):
        backup = backups / copy.relative_to(variant.root)
        backup.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(backup, Path(original).read_bytes())
        write_atomic(original, copy.read_bytes())
        yield Applied(Path(original), backup)


def _fresh(folder: Path) -> Path:
    """``folder``, or ``folder-2``, ``folder-3`` … : the first that does not exist yet."""
    candidate, n = folder, 1
    while candidate.exists():
        n += 1
        candidate = folder.with_name(f"{folder.name}-{n}")
    return candidate
