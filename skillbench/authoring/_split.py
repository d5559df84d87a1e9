"""The tune split: train requests the proposer may see, test requests it never does.

Stratified by expected skill (negatives are one stratum of their own), so every skill with
at least two requests has some in each split and the test gain is measured on the same mix
of skills as the train gain.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from skillbench.dataset import LabelledRequest
from skillbench.types import JsonObject


class Split(NamedTuple):
    """Train and test requests, each in the input order."""

    train: tuple[LabelledRequest, ...]
    test: tuple[LabelledRequest, ...]


def stratified_split(
    requests: Sequence[LabelledRequest], *, test_fraction: float, seed: int
) -> Split:
    """Put ``round(n * test_fraction)`` requests of every stratum in test, the rest in train.

    The stratum is the first expected skill (``""`` for a negative). Within a stratum the
    ids are sorted and shuffled by a generator seeded from ``seed`` alone, so the same file
    and seed give the same split whatever the file order.
    """
    if not 0.0 < test_fraction < 1.0:
        raise ValueError("test_fraction must be between 0 and 1")
    rng = random.Random(f"skillbench-tune-split-{seed}")
    strata: dict[str, list[str]] = {}
    for r in requests:
        strata.setdefault(r.expected[0] if r.expected else "", []).append(r.id)
    test: set[str] = set()
    for key in sorted(strata):
        ids = sorted(strata[key])
        rng.shuffle(ids)
        test.update(ids[: round(len(ids) * test_fraction)])
    return Split(
        tuple(r for r in requests if r.id not in test),
        tuple(r for r in requests if r.id in test),
    )


def request_record(request: LabelledRequest) -> JsonObject:
    """``request`` as a requests-file record that loads back to an equal request."""
    record: JsonObject = {**request.extra, "id": request.id, "text": request.text}
    record["expected"] = list(request.expected)
    if request.at is not None:
        record["at"] = request.at.isoformat()
    for key in ("session", "turn", "args"):
        if getattr(request, key) is not None:
            record[key] = getattr(request, key)
    if request.tags:
        record["tags"] = list(request.tags)
    return record


def write_requests(requests: Sequence[LabelledRequest], path: Path) -> Path:
    """Write ``requests`` as JSONL (one record per line) and return ``path``."""
    lines = (json.dumps(request_record(r), ensure_ascii=False) for r in requests)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path
