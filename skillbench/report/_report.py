"""``write_report``: report.md, a self-contained report.html and CSVs for one run directory."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.metrics import METRICS, OUTCOMES, Metric, calls_saved, find_metric
from skillbench.report._advice import confused_pairs, hidden_skills
from skillbench.report._advice_axes import axis_advice, budget_advice
from skillbench.report._advice_half_life import half_life_advice
from skillbench.report._controls import controls_section, failed_cells
from skillbench.report._doc import (
    Block,
    Bullets,
    Document,
    Figure,
    Heading,
    Para,
    Table,
    to_html,
    to_markdown,
)
from skillbench.report._effects import Effects, is_baseline
from skillbench.report._headline import OBJECTIVE, best_cell, headline
from skillbench.report._models import model_section
from skillbench.report._objective import objective_in_summary
from skillbench.report._plots import render_plots
from skillbench.report._plots_sizes import size_figure
from skillbench.report._plots_skills import cost_table
from skillbench.report._run import (
    banner,
    cell_label,
    fmt_value,
    has_metric,
    inert_keys,
    rows_by_cell,
    run_name,
    varying_keys,
)
from skillbench.report._sizes import size_blocks, size_json, size_lines
from skillbench.report._tags import tag_tables
from skillbench.results import CellFields, Run, hold_run_folder, read_run
from skillbench.types import CellKey, JsonObject, cell_fields

FORMATS = ("md", "html", "csv")
OVERVIEW = (
    "accuracy",
    "false_invocation_rate",
    "unwanted_invocation_rate",
    "coverage",
    "recall_when_shown",
)


def fmt_rate(value: Any) -> str:
    return (
        "–" if value is None or (isinstance(value, float) and math.isnan(value)) else f"{value:.3f}"
    )


def fmt_ci(ci: Any) -> str:
    if not ci or any(v is None or math.isnan(v) for v in ci):
        return "–"
    return f"[{ci[0]:.3f}, {ci[1]:.3f}]"


def _half_width(value: Any, ci: Any) -> str:
    if value is None or not ci or any(v is None or math.isnan(v) for v in ci):
        return "–"
    return f"{max(value - ci[0], ci[1] - value):.3f}"


def _denominators(run: Run) -> dict[CellKey, dict[str, int]]:
    """Per cell and metric, how many decisions the value is over (from results rows)."""
    out: dict[CellKey, dict[str, int]] = {}
    for key, rows in rows_by_cell(run.rows).items():
        sizes = {m.name: m.size(rows) for m in METRICS.values()}
        out[key] = {name: n for name, n in sizes.items() if n is not None}
    return out


def summary_rows(run: Run) -> list[list[str]]:
    """lm-evaluation-harness style: one row per cell and metric (value, ±, interval, n)."""
    keys = varying_keys(run.summary.cells)
    dens = _denominators(run)
    out = []
    for cell in run.summary.cells:
        label = cell_label(cell, keys)
        for m in METRICS.values():
            if not has_metric(cell, m.name):
                continue
            value, ci = cell.metric(m.name), cell.interval(m.name)
            n = dens.get(cell.key, {}).get(m.name, cell.n)
            arrow = "↑" if m.higher_is_better else "↓"
            out.append(
                [
                    label,
                    m.name,
                    arrow,
                    fmt_rate(value),
                    _half_width(value, ci),
                    fmt_ci(ci),
                    str(n),
                ]
            )
            label = ""
    return out


OVERVIEW_HEADER = {
    "accuracy": "accuracy",
    "false_invocation_rate": "false inv. rate",
    "unwanted_invocation_rate": "unwanted inv./decision",
    "coverage": "coverage",
    "recall_when_shown": "recall when shown",
}


def _overview_metrics(run: Run) -> list[str]:
    """Overview metrics with a value in some cell (no negatives: no false invocation rate)."""
    return [m for m in OVERVIEW if any(c.metric(m) is not None for c in run.summary.cells)]


def overview_rows(run: Run) -> list[list[str]]:
    keys = varying_keys(run.summary.cells)
    out = []
    for cell in run.summary.cells:
        row = [cell_label(cell, keys), str(cell.n)]
        for name in _overview_metrics(run):
            value, ci = cell.metric(name), cell.interval(name)
            row.append(fmt_rate(value) + ("" if value is None else f" {fmt_ci(ci)}"))
        chars = cell.mean_listing_chars
        row.append("–" if chars is None else f"{chars:,.0f}")
        out.append(row)
    return out


def retrieval_section(run: Run) -> list[Block]:
    """One row per cell with a retrieve stage: each optional metric with its interval, and
    the listing tokens with and without the stage; nothing when no cell has one."""
    cells = [c for c in run.summary.cells if c.mean_full_listing_tokens is not None]
    if not cells:
        return []
    metrics = [m.name for m in METRICS.values() if m.optional]
    keys = varying_keys(run.summary.cells)
    rows = []
    for cell in cells:
        row = [cell_label(cell, keys)]
        for name in metrics:
            value, ci = cell.metric(name), cell.interval(name)
            row.append(fmt_rate(value) + ("" if value is None else f" {fmt_ci(ci)}"))
        full, shown = cell.mean_full_listing_tokens or 0, cell.mean_listing_tokens or 0
        row.append(f"{full:,.0f} → {shown:,.0f}")
        rows.append(row)
    note = (
        "Cells whose selector sees only a retrieve stage's top k skills (docs/retrieval.md), "
        "over positive requests: hit_at_k, mrr and ndcg_at_k of the retrieved ranking "
        "(Wilson, bootstrap and bootstrap 95% intervals); tokens_saved: the share of the "
        "full listing's tokens the top-k listing saves."
    )
    header = ["cell", *metrics, "listing tokens (full → top k)"]
    table = Table(header, rows, numeric=frozenset(range(1, len(header))))
    return [Heading("Retrieval", 3), Para(note, muted=True), table]


def _notes(run: Run) -> list[Block]:
    """What holds for the whole run: fixed fields, fields that changed nothing, skipped cells."""
    out: list[Block] = []
    cells = run.summary.cells
    varying = varying_keys(cells)
    fixed = [k for k in cell_fields(cells) if k not in varying] if cells else []
    if fixed:
        same = ", ".join(f"{k} `{fmt_value(getattr(cells[0], k))}`" for k in fixed)
        out.append(Para(f"Same in every cell: {same}."))
    for key in inert_keys(cells):
        values = ", ".join(
            f"`{v}`" for v in dict.fromkeys(fmt_value(getattr(c, key)) for c in cells)
        )
        out.append(
            Para(
                f"**{key} changed no rate**: cells differing only in {key} ({values}) have "
                f"identical outcomes and coverage. Plots and advice show {key} "
                f"`{fmt_value(getattr(cells[0], key))}` only; the tables list every cell."
            )
        )
    saved = calls_saved(c.repeats for c in cells)
    if saved is not None:
        out.append(
            Para(
                f"**Adaptive repeats**: {saved:,} repeat(s) were not asked: their request's "
                "verdict under the trigger rule was already settled (calls saved). "
                "Per-decision rates pool the repeats made."
            )
        )
    recorded = run.summary.recorded_note()
    if recorded:
        out.append(Para(f"**{recorded}**; install the plugin to see them in the tables."))
    manifest = run.manifest
    releases = (manifest.agents or {}) if manifest is not None else {}
    if releases:
        named = ", ".join(f"`{p}` → {f.get('verified_version')}" for p, f in releases.items())
        out.append(Para(f"**Agent releases** the listings follow: {named}."))
    for name, facts in releases.items():
        if "snapshot" in facts and facts["snapshot"] is None:
            out.append(
                Para(
                    f"**{name} listings lack the agent's built-in skills**: no snapshot of "
                    f"{name.partition('@')[0]} {facts.get('verified_version')} was found; "
                    f"`skillbench capture {name.partition('@')[0]}` reads it from the "
                    "installed agent."
                )
            )
        if "note" in facts:
            out.append(Para(f"**{name} is not a verified release**: {facts['note']}."))
    skipped = manifest.duplicate_listings_skipped if manifest is not None else None
    if skipped:
        listed = ", ".join(f"`{s}`" for s in skipped[:6])
        more = f" and {len(skipped) - 6} more" if len(skipped) > 6 else ""
        out.append(
            Para(
                f"Not run, as their listing equals another cell's: {listed}{more}.",
                muted=True,
            )
        )
    return out


AXES = (("ordering", "Ordering"), ("profile", "Profile"), ("catalog", "Catalog"))


def _advice(run: Run, effects: Effects, best: CellFields | None) -> list[Block]:
    """One subsection per swept field, then hidden skills and the best cell's confusions."""
    varying = varying_keys(run.summary.cells)
    out: list[Block] = [Heading("Budget", 3), Bullets(budget_advice(run, effects))]
    for axis, title in AXES:
        if axis in varying:
            out += [Heading(title, 3), Bullets(axis_advice(run, effects, axis))]
    half_life = half_life_advice(run)
    if half_life:
        out += [Heading("Half-life", 3), Bullets(half_life)]
    if "selector" in varying:
        out += [Heading("Selector", 3), Bullets(axis_advice(run, effects, "selector"))]
    out += [Heading("Skills never shown", 3), Bullets(hidden_skills(run))]
    where = "" if best is None else f" in the best cell ({cell_label(best, varying)})"
    out += [Heading(f"Confused skills{where}", 3), Bullets(confused_pairs(run, best))]
    return out


def build_report(run: Run, objective: str = OBJECTIVE) -> Document:
    """The report as blocks (shared by the Markdown and HTML outputs); the headline's best
    cell is the best on ``objective`` (a per-decision metric of the registry)."""
    metric = find_metric(objective)
    if not metric.per_row:
        raise SkillbenchError(
            f"objective {objective!r} is not a per-decision metric; use accuracy, recall, "
            "precision or a rate"
        )
    with objective_in_summary(run, metric, objective) as summarised_run:
        return _document(summarised_run, metric)


def _document(run: Run, metric: Metric) -> Document:
    doc = Document(f"skillbench report: {run_name(run)}")
    warning = banner(run)
    if warning:
        doc.add(Para(f"**{warning}**"))
    meta = [f"{len(run.summary.cells)} cells", f"{len(run.rows):,} decisions"]
    if run.summary.config_hash:
        meta.append(f"config `{run.summary.config_hash}`")
    if run.manifest is not None and run.manifest.started_at:
        meta.append(f"started {run.manifest.started_at}")
    if run.manifest is not None and run.manifest.stop_reason:
        meta.append(f"stop: {run.manifest.stop_reason}")
    doc.add(Para(" · ".join(meta), muted=True))
    doc.add(
        Para(
            f"Every decision, the listing it saw and why a skill was not shown or missed: "
            f"`skillbench view {run.path}`.",
            muted=True,
        )
    )
    doc.add(*_notes(run))

    effects = Effects(run)
    best = best_cell(run, metric.name)
    doc.add(Heading("Headline"), *headline(run, effects, metric.name))
    doc.add(Heading("What to do"))
    doc.add(*_advice(run, effects, best))
    doc.add(Heading("By tag"), *tag_tables(run, effects, best))
    sizes = size_lines(run)
    if sizes:
        drawn = [line for line in sizes if not is_baseline(run, line.reference)] or sizes
        doc.add(*size_blocks(run, sizes), size_figure(drawn))

    doc.add(Heading("Cells"))
    metrics = _overview_metrics(run)
    note = (
        "Rates with Wilson 95% intervals. False invocation rate: on requests that need no "
        "skill; unwanted invocations per decision: wrong, false or hallucinated skill. "
        "Decisions without an answer (errors) are outside every rate."
    )
    if "false_invocation_rate" not in metrics:
        note += " No request needs no skill, so there is no false invocation rate."
    doc.add(Para(note, muted=True))
    header = ["cell", "n", *(OVERVIEW_HEADER[m] for m in metrics), "listing chars"]
    numeric = frozenset({1, len(header) - 1})
    doc.add(Table(header, overview_rows(run), numeric=numeric, muted=failed_cells(run)))
    doc.add(*controls_section(run))
    doc.add(*retrieval_section(run))
    doc.add(*model_section(run))

    doc.add(Heading("Plots"))
    doc.add(*render_plots(run))
    costs = cost_table(run)
    if costs is not None:
        doc.add(Heading("Token cost per cell", 3))
        doc.add(
            Para(
                "Totals over each cell's decisions (summary `cost`, docs/cost.md): listing "
                "tokens sent with every turn; inline and fork tokens of the invoked skills in "
                "each mode; declared: in the mode each skill declares; wasted: declared tokens "
                "of false invocations.",
                muted=True,
            ),
            costs,
        )

    doc.add(Heading("Summary table"))
    doc.add(
        Para(
            "One row per cell and metric; ↑ higher is better, ↓ lower is better; ± is the "
            "larger distance from the value to its 95% interval; n is the denominator.",
            muted=True,
        )
    )
    header = ["cell", "metric", "", "value", "±", "95% interval", "n"]
    rows = summary_rows(run)
    fold = f"Show all {len(rows)} rows" if len(rows) > 40 else None
    doc.add(Table(header, rows, numeric=frozenset({3, 4, 5, 6}), collapsed=fold))
    return doc


def _flat(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return "|".join(str(v) for v in value)
    if isinstance(value, Mapping):
        return json.dumps(value, sort_keys=True)
    return "" if value is None else value


def _write_csv(path: Path, header: Sequence[str], rows: Iterable[JsonObject]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(header), extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({k: _flat(row.get(k)) for k in header})
    return path


def _summary_records(run: Run) -> tuple[list[str], list[JsonObject]]:
    names = [m.name for m in METRICS.values()]
    header = [*cell_fields(run.summary.cells), "n", "errors"]
    for m in names:
        header += [m, f"{m}_low", f"{m}_high"]
    header += [f"outcome_{o}" for o in OUTCOMES]
    header += ["unwanted_invocations", "mean_listing_chars", "mean_listing_tokens"]
    header += ["mean_full_listing_tokens"]
    records = []
    for cell in run.summary.cells:
        rec = cell.to_json()
        for m in names:
            ci = cell.interval(m) or (None, None)
            rec[f"{m}_low"], rec[f"{m}_high"] = ci
        for o in OUTCOMES:
            rec[f"outcome_{o}"] = cell.outcomes.get(o, 0)
        records.append(rec)
    return header, records


def write_report(
    run_dir: str | Path | Run,
    formats: Sequence[str] = FORMATS,
    output: str | Path | None = None,
    objective: str = OBJECTIVE,
) -> list[Path]:
    """Write the report of a run directory; returns the files written.

    Args:
        run_dir: a run directory (summary.json required, results.jsonl used when present),
            or the run already read from one.
        formats: any of ``md`` (report.md + plots/*.png), ``html`` (one self-contained file)
            and ``csv`` (summary.csv, one row per cell; decisions.csv, one row per decision).
        output: where to write (default: the run directory itself, held while the report is
            written: one writer per run folder).
        objective: the metric the headline ranks cells on.
    """
    unknown = [f for f in formats if f not in FORMATS]
    if unknown:
        raise SkillbenchError(
            f"unknown report format(s) {', '.join(unknown)}; choose from md, html, csv"
        )
    if output is not None:
        run = run_dir if isinstance(run_dir, Run) else read_run(run_dir)
        return _write(run, formats, Path(output), objective)
    source = run_dir.path if isinstance(run_dir, Run) else Path(run_dir)
    with hold_run_folder(source):
        run = run_dir if isinstance(run_dir, Run) else read_run(source)
        return _write(run, formats, run.path, objective)


def _write(run: Run, formats: Sequence[str], out: Path, objective: str) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    if "md" in formats or "html" in formats:
        doc = build_report(run, objective)
        if "md" in formats:
            plots = out / "plots"
            plots.mkdir(exist_ok=True)
            for fig in doc.blocks:
                if isinstance(fig, Figure) and fig.png is not None:
                    path = plots / f"{fig.name}.png"
                    path.write_bytes(fig.png)
                    written.append(path)
            (out / "report.md").write_text(to_markdown(doc), encoding="utf-8")
            written.append(out / "report.md")
        if "html" in formats:
            (out / "report.html").write_text(to_html(doc), encoding="utf-8")
            written.append(out / "report.html")
    sizes = size_lines(run)
    if sizes:
        path = out / "catalog-size.json"
        path.write_text(json.dumps(size_json(sizes), indent=2, sort_keys=True) + "\n")
        written.append(path)
    if "csv" in formats:
        header, records = _summary_records(run)
        written.append(_write_csv(out / "summary.csv", header, records))
        rows = [row.to_json() for row in run.rows]
        # the schema version leads, then the cell key and the rest in the row model's order
        keys = list(dict.fromkeys(k for row in rows for k in ("schema_version", *row)))
        written.append(_write_csv(out / "decisions.csv", keys, rows))
    return written
