"""Rates per request tag: where a selector fails (near-misses, boundary cases …)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from skillbench.metrics import METRICS, wilson
from skillbench.report._doc import Block, Para, Table
from skillbench.report._effects import Effects
from skillbench.report._run import cell_label, distinct, varying_keys
from skillbench.results import CellFields, ResultRow, Run

KNOWN = ("normal", "boundary", "abnormal", "near-miss", "negative")
"""Tags the bundled datasets use, shown first and in this order; user tags follow by name."""
WIDE = 12
"""Cells beyond which the every-cell table is folded away in HTML."""


def tag_order(tags: Sequence[str]) -> list[str]:
    known = [t for t in KNOWN if t in tags]
    return known + sorted(t for t in tags if t not in KNOWN)


def _by_tag(rows: Sequence[ResultRow]) -> dict[str, list[ResultRow]]:
    out: dict[str, list[ResultRow]] = defaultdict(list)
    for row in rows:
        for tag in row.tags:
            out[tag].append(row)
    return out


def _rate(rows: Sequence[ResultRow], metric: str, interval: bool = False) -> str:
    hits, n = METRICS.get(metric).counts(rows)
    if not n:
        return "–"
    text = f"{hits / n:.3f}"
    if interval:
        low, high = wilson(hits, n)
        text += f" [{low:.3f}, {high:.3f}]"
    return text


def tag_tables(run: Run, effects: Effects, best: CellFields | None) -> list[Block]:
    """The best cell per tag (with intervals), then accuracy per tag for every cell."""
    tags = tag_order(sorted({t for r in run.rows for t in r.tags}))
    if not tags:
        return [Para("No request carries a tag.", muted=True)]
    out: list[Block] = []
    if best is not None and effects.rows(best):
        per_tag = _by_tag(effects.rows(best))
        rows = [
            [
                tag,
                f"{len(per_tag[tag]):,}",
                _rate(per_tag[tag], "accuracy", interval=True),
                _rate(per_tag[tag], "recall_when_shown"),
                _rate(per_tag[tag], "unwanted_invocation_rate"),
            ]
            for tag in tags
        ]
        label = cell_label(best, varying_keys(run.summary.cells))
        out += [
            Para(
                f"Best cell ({label}) per tag; a request may carry several tags. Accuracy "
                "with Wilson 95% interval; on requests needing no skill, accuracy is the "
                "share correctly left alone.",
                muted=True,
            ),
            Table(
                ["tag", "decisions", "accuracy", "recall when shown", "unwanted inv. rate"],
                rows,
                numeric=frozenset({1}),
            ),
        ]
    cells, keys = distinct(run.summary.cells)
    counts = _by_tag(effects.rows(cells[0])) if cells else {}
    header = ["cell", *(f"{t} ({len(counts.get(t, ())):,})" for t in tags)]
    table_rows = []
    for cell in cells:
        per_tag = _by_tag(effects.rows(cell))
        table_rows.append(
            [cell_label(cell, keys), *(_rate(per_tag.get(t, []), "accuracy") for t in tags)]
        )
    out += [
        Para("Accuracy per tag in every cell (decisions per tag in the header).", muted=True),
        Table(
            header,
            table_rows,
            numeric=frozenset(range(1, len(header))),
            collapsed=f"Show all {len(table_rows)} cells" if len(table_rows) > WIDE else None,
        ),
    ]
    return out
