"""Everything authoring needs from the replay engine and run directories, in one place.

``overlap`` reads a finished run's rows; ``tune`` replays candidate catalogs in-process with
``run_experiment`` (the process-wide embedder keeps every embedding in memory and in the
shared cache, so only changed entries are encoded again). Keeping this coupling in one
module means a change of the engine's public API touches only this file.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import yaml

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench.dataset import LabelledRequest, load_requests
from skillbench.replay import RunConfig, SourceConfig, read_rows, run_experiment
from skillbench.types import CELL_FIELDS, CORRECT, UNWANTED, expected_shown

RESULTS_FILE = "results.jsonl"
CONFIG_FILE = "config.yaml"


class Decision(NamedTuple):
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


def _cell_label(row: Mapping[str, Any]) -> str:
    return "/".join(str(row.get(k)) for k in (*CELL_FIELDS, "repeat"))


def _decision(row: Mapping[str, Any]) -> Decision:
    return Decision(
        str(row["request_id"]),
        tuple(row.get("expected") or ()),
        row.get("chosen"),
        str(row.get("outcome")),
        _cell_label(row),
        expected_shown(row),
    )


def run_decisions(run_dir: str | Path) -> list[Decision]:
    """Every decision of a finished run directory.

    Raises:
        InputError: the directory holds no results file or no rows.
    """
    path = Path(run_dir) / RESULTS_FILE
    if not path.is_file():
        raise InputError(Location(str(path)), "no results file: is this a run directory?")
    rows = read_rows(path)
    if not rows:
        raise InputError(Location(str(path)), "the run holds no decisions")
    for row in rows:
        if row.get("outcome") == "error":
            raise SkillbenchError(
                f"{path}: request {row.get('request_id')} ended in an error; "
                "finish the run (skillbench run --resume) before reading confusions from it"
            )
    return [_decision(r) for r in rows]


def run_request_texts(run_dir: str | Path) -> dict[str, str]:
    """Request id → text, from the requests file the run's config copy names (empty when
    that file is gone)."""
    config = Path(run_dir) / CONFIG_FILE
    if not config.is_file():
        return {}
    data = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    requests = Path(str(data.get("requests", "")))
    if not requests.is_file():
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
) -> list[Decision]:
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
    return run_decisions(work_dir)


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


def per_request(decisions: Sequence[Decision], ids: Sequence[str]) -> list[float]:
    """Each request's correctness averaged over the cells that replayed it, in ``ids`` order
    (a request counts once, however many cells and repeats)."""
    totals: dict[str, list[int]] = {}
    for d in decisions:
        totals.setdefault(d.request_id, []).append(int(d.correct))
    return [sum(totals[i]) / len(totals[i]) for i in ids]


def compare_paired(
    base: Sequence[Decision], tuned: Sequence[Decision], ids: Sequence[str], seed: int
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
