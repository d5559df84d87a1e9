"""``write_report`` / ``skillbench report``: files, self-contained HTML, plots and advice."""

from __future__ import annotations

import csv
import re
from pathlib import Path

from synthetic import paired_rows, write_run

from skillbench.cli import main
from skillbench.metrics import METRICS
from skillbench.report import write_report
from skillbench.report._report import summary_rows
from skillbench.results import read_run

PNG = b"\x89PNG\r\n\x1a\n"


def test_full_report_files(sweep_report) -> None:
    tmp_path, written = sweep_report
    names = {p.name for p in written}
    assert {"report.md", "report.html", "summary.csv", "decisions.csv"} <= names
    plots = sorted(p for p in written if p.suffix == ".png")
    assert {p.stem for p in plots} == {
        "accuracy_vs_budget",
        "coverage_vs_budget",
        "timeline",
        "confusion",
        "inline_vs_fork",
    }
    assert all(p.read_bytes().startswith(PNG) and p.stat().st_size > 5_000 for p in plots)
    md = (tmp_path / "report.md").read_text()
    for p in plots:
        assert f"(plots/{p.name})" in md
    assert "## What to do" in md and "### Budget" in md and "### Ordering" in md
    assert "Omitted: no cell uses an ordering that moves skills" in md
    assert "never shown" in md
    assert "### Confused skills in the best cell (budget=" in md


def test_html_is_self_contained(sweep_report) -> None:
    html = (sweep_report[0] / "report.html").read_text()
    srcs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)""", html)
    assert srcs and all(s.startswith("data:image/png;base64,") for s in srcs)
    assert "<link" not in html and "@import" not in html and "url(" not in html
    assert html.count("<img") == 5  # no position plot: usage and alpha do not move skills
    assert '<span class="ci">[' in html  # intervals set off from values


def test_summary_table_rows_and_csvs(sweep_run: Path, tmp_path: Path) -> None:
    run = read_run(sweep_run)
    rows = summary_rows(run)
    # every registered metric but the optional retrieval ones (no retrieve stage here)
    assert len(rows) == len(run.summary.cells) * len(
        [m for m in METRICS.values() if not m.optional]
    )
    first = rows[0]
    assert first[1] == "accuracy" and first[5].startswith("[") and first[6] == "40"
    write_report(sweep_run, formats=["csv"], output=tmp_path)
    with (tmp_path / "summary.csv").open() as fh:
        cells = list(csv.DictReader(fh))
    assert len(cells) == len(run.summary.cells)
    assert float(cells[0]["accuracy_low"]) <= float(cells[0]["accuracy"])
    with (tmp_path / "decisions.csv").open() as fh:
        decisions = list(csv.DictReader(fh))
    assert len(decisions) == len(run.rows)


def test_one_point_runs_skip_plots_with_reasons(tmp_path: Path) -> None:
    rows = paired_rows([True, False] * 10)
    for row in rows:  # optional keys absent
        for key in ("tags", "at", "session", "turn"):
            row.pop(key)
    run = write_run(tmp_path / "run", rows)
    (run / "manifest.json").unlink()
    write_report(run, formats=["md"])
    md = (run / "report.md").read_text()
    assert "Skipped: the run has one budget." in md
    assert "Skipped: no cost data in the results." in md
    assert "Only one budget was run (4,000)" in md
    assert "`review` requests went to `refactor` 10 times." in md  # no descriptions: names only


def test_summary_only_run(sweep_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "summary.json").write_text((sweep_run / "summary.json").read_text())
    written = write_report(run, formats=["html", "csv"])
    html = (run / "report.html").read_text()
    assert "results.jsonl is missing" in html
    assert html.count("<img") == 3  # timeline and cost need results rows
    assert {p.name for p in written} == {"report.html", "summary.csv", "decisions.csv"}


def test_cli_report(sweep_run: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["report", str(sweep_run), "--format", "csv", "-o", str(out)]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [str(out / "summary.csv"), str(out / "decisions.csv")]
    assert main(["report", str(sweep_run), "--format", "pdf", "-o", str(out)]) == 1
    assert main(["report", str(tmp_path / "missing")]) == 1
    bad = tmp_path / "bad"
    bad.mkdir()
    for name in ("summary.json", "manifest.json"):
        (bad / name).write_text((sweep_run / name).read_text())
    first = (sweep_run / "results.jsonl").read_text().splitlines()[0]
    (bad / "results.jsonl").write_text(first + "\nnot json\n")
    assert main(["report", str(bad)]) == 1
    assert "results.jsonl:2: invalid JSON" in capsys.readouterr().err


def test_cli_report_with_no_format_is_an_error(sweep_run: Path, tmp_path: Path, capsys) -> None:
    """``--format ,`` once wrote nothing and exited 0."""
    assert main(["report", str(sweep_run), "--format", ",", "-o", str(tmp_path / "out")]) == 1
    assert "--format: no report format given" in capsys.readouterr().err
