"""A row's ``shown`` counts the entries its listing shows, so ``gold_position`` (an index into
those entries) is always below it, also when a profile lists two skills of one name."""

from __future__ import annotations

import json
import re
from pathlib import Path

from support.runs import DEVTOOLS, DEVTOOLS_INPUTS

from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import render_listing
from skillbench.replay import load_config, run_experiment

SOURCES = ("bundled", "user", "project", "plugin")


def _listed_lines(budget: int | None) -> list[str]:
    """The skill names of the Codex listing's ``- name: …`` lines, read from its text."""
    catalog = load_catalog(
        [SourceSpec(str(DEVTOOLS / "skills" / kind), kind) for kind in SOURCES],
        profile="codex@0.169.0",
        cwd=DEVTOOLS / "workspace",
    )
    text = render_listing(catalog.skills, profile="codex@0.169.0", budget=budget).text
    block = text.split("### Available skills\n", 1)[1].split("### How to use skills", 1)[0]
    return [m.group(1) for m in re.finditer(r"^- ([^:\n]+):", block, flags=re.MULTILINE)]


def test_codex_shown_counts_entries_not_names(tmp_path: Path) -> None:
    config = tmp_path / "codex.yaml"
    config.write_text(
        "name: codex-shown\n"
        + DEVTOOLS_INPUTS
        + "profiles: [codex@0.169.0]\nbudgets: [null, 2000]\norderings: [alpha]\n"
        + "selectors:\n  - {type: oracle}\nlimit: 300\nseed: 0\n",
        encoding="utf-8",
    )
    result = run_experiment(load_config(config), output=tmp_path / "run")
    rows = [json.loads(line) for line in (result.run_dir / "results.jsonl").open()]
    by_budget = {row["budget"]: row for row in rows}
    assert set(by_budget) == {5440, 2000}  # codex's default: 2% of a 272,000-token window
    full = _listed_lines(None)
    # changelog is listed twice (two SKILL.md files, one name); Codex reads no flat files.
    assert len(full) == len(set(full)) + 1
    for budget in by_budget:
        assert {r["shown"] for r in rows if r["budget"] == budget} == {len(_listed_lines(budget))}
    assert by_budget[5440]["shown"] == len(full)
    visible = [r for r in rows if r["visible"]]
    assert any(r["gold_position"] >= len(set(full)) for r in visible)
    assert all(r["gold_position"] < r["shown"] for r in visible)
