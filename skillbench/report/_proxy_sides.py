"""The two sides of a proxy check: one selector's cells in each run, matched configuration by
configuration, on the same requests with the same labels.

A *configuration* is a cell key less its selector (catalog, profile, budget, ordering,
half-life, catalog size): what the user tunes. The proxy side and the model side must hold the
same configurations and the same requests; anything else is refused in one line naming what
differs, since a correlation over mismatched grids measures the mismatch.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.report._pairing import read_finished_run
from skillbench.report._run import (
    BASELINES,
    ORACLE,
    fmt_value,
    rows_by_cell,
    selector_type,
    sort_value,
)
from skillbench.report._select import Selection, select_cells
from skillbench.results import MODEL_TYPES, CellFields, ResultRow, Run
from skillbench.types import CELL_FIELDS

CONFIG_FIELDS: tuple[str, ...] = tuple(f for f in CELL_FIELDS if f != "selector")
"""The key fields of a configuration: a cell's, less its selector."""

Config = tuple[Any, ...]


@dataclass(frozen=True)
class Side:
    """One selector's cells in one run.

    Attributes:
        role: ``proxy`` or ``model``.
        selection: the run directory and filters as given.
        run: the run, read and finished.
        selector: the selector's name in the cells.
        type: its registry type (``lexical``, ``litellm`` …).
        model: the model or agent release its rows name (None for offline selectors).
        cells: its cells by configuration.
    """

    role: str
    selection: Selection
    run: Run
    selector: str
    type: str
    model: str | None
    cells: Mapping[Config, CellFields]

    @property
    def name(self) -> str:
        """``lexical (lexical)``, ``fake (litellm openai/gpt-4o-mini)``."""
        what = self.type + (f" {self.model}" if self.model else "")
        return f"{self.selector} ({what})"

    def rows(self) -> dict[Config, list[ResultRow]]:
        """Every row of each configuration (train split included), by configuration."""
        by_key = rows_by_cell(self.run.rows, counted=False)
        return {config: by_key.get(cell.key, []) for config, cell in self.cells.items()}


def config_of(cell: CellFields) -> Config:
    return tuple(getattr(cell, f) for f in CONFIG_FIELDS)


def _pick_selector(run: Run, sel: Selection, role: str) -> str:
    """The one selector of the selection: baselines left out unless named; with several, the
    one of the role's kind (an offline one for the proxy, a model for the model side)."""
    names = list(dict.fromkeys(c.selector for c in select_cells(run, sel)))
    if "selector" in sel.filters:
        candidates = names
    else:
        candidates = [s for s in names if selector_type(run, s) not in BASELINES | {ORACLE}]
    if len(candidates) > 1:
        wants_model = role == "model"
        kind = [s for s in candidates if (selector_type(run, s) in MODEL_TYPES) == wants_model]
        candidates = kind if len(kind) == 1 else candidates
    if len(candidates) == 1:
        return candidates[0]
    listed = ", ".join(names)
    raise SkillbenchError(
        f"{role} side {sel}: "
        + (f"cells of several selectors ({listed})" if candidates else f"only baselines ({listed})")
        + f"; choose one with {sel.path}::selector=NAME"
    )


def _model_name(rows: Iterable[ResultRow]) -> str | None:
    """The model (litellm) or agent release (agent) the rows record, if any."""
    for row in rows:
        for key in ("agent", "model"):
            found = row.detail.get(key)
            if isinstance(found, str) and found:
                return found
    return None


def read_side(sel: Selection, role: str, run: Run | None = None) -> Side:
    """``sel`` as one side: its run (refused unless finished) and one selector's cells."""
    run = run if run is not None else read_finished_run(sel.path)
    if not run.rows:
        raise SkillbenchError(f"{sel.path}/results.jsonl: missing or empty (needed to pair)")
    selector = _pick_selector(run, sel, role)
    cells = [c for c in select_cells(run, sel) if c.selector == selector]
    by_config: dict[Config, CellFields] = {}
    for cell in cells:
        config = config_of(cell)
        if config in by_config:
            raise SkillbenchError(f"{role} side {sel}: two cells share configuration {config}")
        by_config[config] = cell
    rows = (r for r in run.rows if r.selector == selector)
    return Side(
        role, sel, run, selector, selector_type(run, selector), _model_name(rows), by_config
    )


def _values(configs: Iterable[Config], field: int) -> set[str]:
    return {fmt_value(c[field]) for c in configs}


def require_same_grid(proxy: Side, model: Side) -> None:
    """Refuse, in one line, two sides whose configurations differ (field values first)."""
    a, b = set(proxy.cells), set(model.cells)
    if a == b:
        return
    parts = []
    for i, name in enumerate(CONFIG_FIELDS):
        only = [
            (role, sorted(x - y, key=sort_value))
            for role, x, y in (
                ("proxy", _values(a, i), _values(b, i)),
                ("model", _values(b, i), _values(a, i)),
            )
        ]
        parts += [f"{name} {', '.join(v)} only in the {role} run" for role, v in only if v]
    if not parts:  # the same values, combined differently
        for role, x, y in (("proxy", a, b), ("model", b, a)):
            for config in sorted(x - y, key=lambda c: tuple(map(sort_value, c)))[:3]:
                parts.append(f"{config_label(config, CONFIG_FIELDS)} only in the {role} run")
    raise SkillbenchError(
        "the grids differ: " + "; ".join(parts) + " (a proxy check needs the same cells on "
        "both sides, apart from the selector)"
    )


def config_label(config: Config, keys: Sequence[str]) -> str:
    """``budget=2000 ordering=usage``: only ``keys``."""
    values = dict(zip(CONFIG_FIELDS, config, strict=True))
    return " ".join(f"{k}={fmt_value(values[k])}" for k in keys) or "all"


def require_same_requests_and_labels(proxy: Side, model: Side) -> None:
    """Refuse two sides that replayed other requests, other texts or other labels."""
    seen: dict[str, dict[str, ResultRow]] = {}
    for side in (proxy, model):
        first: dict[str, ResultRow] = {}
        for rows in side.rows().values():
            for row in rows:
                first.setdefault(row.request_id, row)
        seen[side.role] = first
    only = [
        f"{len(ids)} only in the {role} run ({', '.join(ids[:5])}{', …' if len(ids) > 5 else ''})"
        for role, ids in (
            ("proxy", sorted(seen["proxy"].keys() - seen["model"].keys())),
            ("model", sorted(seen["model"].keys() - seen["proxy"].keys())),
        )
        if ids
    ]
    if only:
        raise SkillbenchError(
            f"the request sets differ: {'; '.join(only)} (run both on the same requests: "
            "same file, same --limit)"
        )
    texts, labels = [], []
    for rid, a in seen["proxy"].items():
        b = seen["model"][rid]
        if a.text is not None and b.text is not None and a.text != b.text:
            texts.append(rid)
        if sorted(a.expected) != sorted(b.expected):
            labels.append(rid)
    for what, ids, fix in (
        ("texts", texts, "the requests file changed between the runs"),
        ("labels", labels, "run both with the same requests file and --labels"),
    ):
        if ids:
            shown = ", ".join(sorted(ids)[:5]) + (", …" if len(ids) > 5 else "")
            raise SkillbenchError(
                f"the request {what} differ for {len(ids)} request(s) ({shown}): {fix}"
            )


def train_ids(rows_by_config: Iterable[Sequence[ResultRow]]) -> set[str]:
    """Requests a calibrated selector was fitted on (its train split) in any configuration."""
    return {r.request_id for rows in rows_by_config for r in rows if r.split == "train"}


def failed_controls(side: Side) -> list[str]:
    """Configurations of ``side`` whose positive controls failed (their figures are not the
    model's)."""
    return [c.path for c in side.cells.values() if c.controls is not None and c.controls.failed]


def by_request(rows: Iterable[ResultRow]) -> dict[str, list[ResultRow]]:
    out: dict[str, list[ResultRow]] = defaultdict(list)
    for row in rows:
        out[row.request_id].append(row)
    return out
