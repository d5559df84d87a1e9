"""Everything authoring needs from the replay engine and run directories, in one place.

``overlap`` reads a finished run's rows (``skillbench.results.read_run``); ``tune`` replays
candidate catalogs in-process with ``run_experiment`` (the process-wide embedder keeps every
embedding in memory and in the shared cache, so only changed entries are encoded again).
Keeping this coupling in one module means a change of the engine's public API touches only
this file.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.dataset import LabelledRequest, load_requests
from skillbench.replay import RunConfig, SourceConfig, run_experiment
from skillbench.results import RESULTS, ResultRow, Run, read_run
from skillbench.types import CELL_FIELDS, CORRECT, UNWANTED, expected_shown


class ReplayedDecision(NamedTuple):
    """One replayed decision, reduced to what authoring scores."""

    request_id: str
    expected: tuple[str, ...]
    chosen: str | None
    outcome: str
    cell: str
    shown: bool = True
    """The listing showed an expected skill (always true for a negative): only such
    decisions say anything about how descriptions read."""

    @property
    def correct(self) -> bool:
        return self.outcome in CORRECT

    @property
    def unwanted(self) -> bool:
        return self.outcome in UNWANTED


def _cell_label(row: ResultRow) -> str:
    return "/".join(str(getattr(row, k)) for k in (*CELL_FIELDS, "repeat"))


def _decision(row: ResultRow) -> ReplayedDecision:
    return ReplayedDecision(
        row.request_id,
        tuple(row.expected),
        row.chosen,
        row.outcome,
        _cell_label(row),
        expected_shown(row),
    )


def run_decisions(run: Run | str | Path) -> list[ReplayedDecision]:
    """Every decision of a finished run (a directory is read with ``read_run``).

    Raises:
        SkillbenchError: not a run directory, a run without rows, or one with a decision
            that got no answer.
    """
    run = run if isinstance(run, Run) else read_run(run)
    path = run.path / RESULTS
    if not run.rows:
        raise InputError(Location(str(path)), "the run holds no decisions")
    for row in run.rows:
        if row.outcome == "error":
            raise SkillbenchError(
                f"{path}: request {row.request_id} ended in an error; "
                "finish the run (skillbench run --resume) before reading confusions from it"
            )
    return [_decision(r) for r in run.rows]


def run_request_texts(run: Run) -> dict[str, str]:
    """Request id → text, from the requests file the run's config copy names (empty when
    that file is gone)."""
    requests = run.requests_file
    if requests is None or not requests.is_file():
        return {}
    return {r.id: r.text for r in load_requests(requests)}


def config_requests(config: RunConfig) -> list[LabelledRequest]:
    """The config's requests, as the run would read them (its ``limit`` applied)."""
    requests = load_requests(config.resolve(config.requests))
    return requests[: config.limit] if config.limit else requests


def replay_catalog(
    config: RunConfig,
    sources: Sequence[tuple[str, str]],
    requests_file: Path,
    work_dir: Path,
    max_concurrency: int = 8,
) -> list[ReplayedDecision]:
    """Replay ``config``'s grid with one catalog (``(path, source kind)`` pairs) over
    ``requests_file``, in-process; the run directory is ``work_dir``.

    Raises:
        SkillbenchError: the run did not complete (a selector failed or the spend cap hit).
    """
    variant = config.model_copy(
        update={
            "catalogs": {"candidate": [SourceConfig(path=p, source=k) for p, k in sources]},  # type: ignore[arg-type]
            "requests": str(requests_file),
            "limit": None,
            "output_dir": None,
        }
    )
    result = run_experiment(variant, output=work_dir, quiet=True, max_concurrency=max_concurrency)
    if result.status != "complete":
        raise SkillbenchError(
            f"replay of a candidate catalog stopped ({result.status}): {result.reason}"
        )
    return run_decisions(read_run(work_dir))


class Paired(NamedTuple):
    """Two catalogs on the same requests: per-request means over cells, compared.

    ``worse``/``better`` count requests the tuned catalog lost/won (exact McNemar, or the
    sign test when several cells make per-request scores fractional); ``ci`` is a paired
    bootstrap interval of the accuracy difference.
    """

    n: int
    base: float
    tuned: float
    worse: int
    better: int
    p_value: float
    ci_low: float
    ci_high: float


def per_request(decisions: Sequence[ReplayedDecision], ids: Sequence[str]) -> list[float]:
    """Each request's correctness averaged over the cells that replayed it, in ``ids`` order
    (a request counts once, however many cells and repeats)."""
    totals: dict[str, list[int]] = {}
    for d in decisions:
        totals.setdefault(d.request_id, []).append(int(d.correct))
    return [sum(totals[i]) / len(totals[i]) for i in ids]


def compare_paired(
    base: Sequence[ReplayedDecision],
    tuned: Sequence[ReplayedDecision],
    ids: Sequence[str],
    seed: int,
) -> Paired:
    """``Paired`` statistics of ``tuned`` against ``base`` over the requests ``ids``."""
    from skillbench.metrics import paired_bootstrap, sign_test

    a, b = per_request(base, ids), per_request(tuned, ids)
    if not ids:
        return Paired(0, 0.0, 0.0, 0, 0, 1.0, 0.0, 0.0)
    test = sign_test(a, b)
    boot = paired_bootstrap(a, b, seed=seed)
    return Paired(
        len(ids),
        sum(a) / len(a),
        sum(b) / len(b),
        test.worse,
        test.better,
        test.p_value,
        boot.ci.low,
        boot.ci.high,
    )
