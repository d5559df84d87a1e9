"""The report's proof section: did each model or live cell measure what it claims?

Two checks, both recorded by the run: positive controls (requests naming a listed skill
outright must come back as that skill; a cell below its threshold is ``controls_failed``
and its figures are greyed everywhere) and, for live agents, whether the listing the agent
really sent was the cell's rendered one (a mismatch means the cell's numbers are about
another listing).
"""

from __future__ import annotations

from skillbench.agentspec import AGENT_SPECS
from skillbench.report._doc import Block, Bullets, Heading, Para, Table
from skillbench.report._run import cell_label, varying_keys
from skillbench.results import CellFields, Run, group_by_cell


def failed_cells(run: Run) -> frozenset[int]:
    """Indices (in summary order) of the cells whose positive controls failed."""
    return frozenset(
        i for i, c in enumerate(run.summary.cells) if c.controls is not None and c.controls.failed
    )


def controls_section(run: Run) -> list[Block]:
    """A table of every cell with controls or compared listings, then what failed; nothing
    when no cell has either."""
    cells = [
        c for c in run.summary.cells if c.controls is not None or c.listing_mismatches is not None
    ]
    if not cells:
        return []
    keys = varying_keys(run.summary.cells)
    header = ["cell", "controls triggered", "rate", "controls", "listing mismatches"]
    rows = [[cell_label(c, keys), *_figures(c)] for c in cells]
    out: list[Block] = [
        Heading("Positive controls and listings", 3),
        Para(
            "Controls: requests that name a listed skill outright (`$name` in "
            + ", ".join(s.title for s in AGENT_SPECS.values() if s.live.explicit == "mention")
            + ", in words elsewhere), outside every other figure; below the threshold the "
            "cell's figures are greyed. Listing mismatches: live decisions whose agent sent "
            "another listing than the cell rendered (its built-in skills and file paths aside).",
            muted=True,
        ),
        Table(header, rows, numeric=frozenset({1, 2, 4})),
    ]
    first = _first_mismatches(run)
    problems = [
        f"**{cell_label(c, keys)}**: {c.controls.reason}; its figures are not about its model."
        for c in cells
        if c.controls is not None and c.controls.failed
    ] + [
        f"**{cell_label(c, keys)}**: {c.listing_mismatches} of {c.n} decisions saw another "
        f"listing than the render (first: {first.get(c.path, 'not recorded')}); its numbers "
        "are not about the rendered listing."
        for c in cells
        if c.listing_mismatches
    ]
    return out + ([Bullets(problems)] if problems else [])


def _figures(cell: CellFields) -> list[str]:
    controls = cell.controls
    mismatches = cell.listing_mismatches
    shown = "–" if mismatches is None else f"{mismatches}/{cell.n}"
    if controls is None:
        return ["–", "–", "–", shown]
    rate = "–" if controls.rate is None else f"{controls.rate:.0%}"
    return [f"{controls.triggered}/{controls.n}", rate, controls.status, shown]


def _first_mismatches(run: Run) -> dict[str, str]:
    """Each cell's first recorded mismatch, by cell path."""
    out: dict[str, str] = {}
    for key, rows in group_by_cell(run.rows).items():
        found = next((r.listing_mismatch for r in rows if r.listing_mismatch), None)
        if found is not None:
            out[key.path] = found
    return out
