"""The catalog-size sweep in the grid: nested catalogs that keep their anchors, seeded draws,
visible notes for unusable sizes and config errors with their YAML line."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numpy as np
import pytest
from support.runs import DEVTOOLS_INPUTS

from skillbench._errors import InputError
from skillbench.cache import default_cache_root
from skillbench.dataset import InputErrors
from skillbench.listing import ListedSkill
from skillbench.replay import Grid, build_grid, load_config, resolve_experiment, run_experiment
from skillbench.selectors import DEFAULT_MODEL, Embedder, entry_text

HEAD = f"""\
name: sizes
{DEVTOOLS_INPUTS}selectors:
  - {{type: oracle}}
"""


def _config(tmp_path: Path, extra: str, name: str = "c.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + extra, encoding="utf-8")
    return path


def _grid(path: Path) -> Grid:
    """The grid of the config at ``path``."""
    return build_grid(resolve_experiment(load_config(path)).grid)


def _catalogs(tmp_path: Path, extra: str) -> dict[tuple[int, str], list[str]]:
    """(size, mode) → the skill names of that catalog."""
    grid = _grid(_config(tmp_path, extra))
    out: dict[tuple[int, str], list[str]] = {}
    for cell, plan in grid.plans.items():
        assert cell.key.catalog_size is not None and cell.key.distractors is not None
        out[cell.key.catalog_size, cell.key.distractors] = [s.name for s in plan.skills]
    return out


SWEEP = "seed: {seed}\nanchors: 6\ncatalog_sizes: [25, 6, 12, all]\ndistractors: both\n"


def test_catalogs_are_nested_keep_their_anchors_and_have_their_size(tmp_path: Path) -> None:
    config = load_config(_config(tmp_path, SWEEP.format(seed=0)))
    grid = build_grid(resolve_experiment(config).grid)
    anchors = {name for r in grid.requests for name in r.expected}
    assert len(anchors) == 6
    catalogs = _catalogs(tmp_path, SWEEP.format(seed=0))
    # devtools holds 44 skills under codebot: 3 disabled and terraform-plan inactive (its
    # paths glob matches nothing in the workspace), so a listing may show 40.
    full = grid.catalogs["devtools", "codebot"]
    assert len(full.skills) == 44
    total = len(full.active)
    assert total == 40
    active = {s.name for s in full.active}
    # One of the six drawn anchors is terraform-plan: kept, but not counted as it is not listed.
    assert anchors - active == {"terraform-plan"}
    assert sorted({size for size, _ in catalogs}) == [6, 12, 25, total]
    for mode in ("random", "nearest"):
        sizes = [set(catalogs[n, mode]) for n in (6, 12, 25, total)]
        assert [len(s & active) for s in sizes] == [6, 12, 25, total]
        assert all(anchors <= s and s - active == {"terraform-plan"} for s in sizes)
        assert all(small < big for small, big in itertools.pairwise(sizes))
    assert set(catalogs[12, "random"]) != set(catalogs[12, "nearest"])


def test_sizes_count_listed_skills_and_never_list_a_disabled_one(tmp_path: Path) -> None:
    """With room for every skill, a catalog of size n lists exactly n skills, none of them
    disabled, under a profile that lists two skills of one name (codex) and one that does not."""
    extra = (
        "profiles: [codebot, codex]\nbudgets: [1000000]\n"
        "anchors: 6\ncatalog_sizes: [10, 25, all]\ndistractors: both\n"
    )
    grid = _grid(_config(tmp_path, extra))
    disabled = {
        profile: {s.name for s in c.skills if c.status(s) == "disabled"}
        for (_, profile), c in grid.catalogs.items()
    }
    # Codex ignores `disable-model-invocation` (a capture listed such skills), codebot not.
    assert disabled == {
        "codebot": {"scaffold-project", "bump-version", "deploy-production"},
        "codex": set(),
    }
    # codex: 47 skills (changelog, review and debug twice, deduped by file only); it reads
    # only SKILL.md files, so two skill.json folders and three flat files are hidden: 42
    # listable. codebot: 44 skills, three disabled and one paths-inactive: 40.
    expected_all = {"codebot": 40, "codex": 42}
    seen = set()
    for cell, plan in grid.plans.items():
        listing = plan.render({})
        assert cell.key.catalog_size is not None
        assert len(listing.shown_names) == cell.key.catalog_size, cell
        assert not disabled[cell.key.profile] & set(listing.shown_names)
        assert not disabled[cell.key.profile] & {s.name for s in plan.skills}
        seen.add((cell.key.profile, cell.key.catalog_size))
    assert seen == {(p, n) for p, full in expected_all.items() for n in (10, 25, full)}


def test_draws_are_seeded(tmp_path: Path) -> None:
    first = _catalogs(tmp_path, SWEEP.format(seed=0))
    assert _catalogs(tmp_path, SWEEP.format(seed=0)) == first
    other = _catalogs(tmp_path, SWEEP.format(seed=1))
    assert other[12, "random"] != first[12, "random"]


def test_nearest_distractors_are_the_anchors_closest_look_alikes(tmp_path: Path) -> None:
    """Every distractor the nearest mode adds at 12 skills is at least as close to some anchor
    (cosine of the packaged MiniLM) as every listable skill it leaves out."""
    grid = _grid(_config(tmp_path, SWEEP.format(seed=0)))
    catalog = grid.catalogs["devtools", "codebot"]
    catalogs = _catalogs(tmp_path, SWEEP.format(seed=0))
    anchors = {name for r in grid.requests for name in r.expected}
    kept = set(catalogs[12, "nearest"])
    skills = list(catalog.skills)
    texts = [entry_text(ListedSkill(s, "full", 0, 0, s.description, s.when_to_use)) for s in skills]
    vectors = Embedder.shared(DEFAULT_MODEL, default_cache_root()).embed(texts)
    is_anchor = np.array([s.name in anchors for s in skills])
    closeness = (vectors @ vectors[is_anchor].T).max(axis=1)
    candidates = [(s, c) for s, c in zip(skills, closeness, strict=True) if s in catalog.active]
    added = [c for s, c in candidates if s.name in kept - anchors]
    left = [c for s, c in candidates if s.name not in kept]
    # 12 listed: the 5 listable anchors and 7 distractors.
    assert len(added) == 7 and min(added) >= max(left) - 1e-6


def test_sizes_below_the_anchors_or_past_the_catalog_are_skipped_with_a_note(
    tmp_path: Path,
) -> None:
    grid = _grid(_config(tmp_path, "anchors: 8\ncatalog_sizes: [5, 10, 500]\n"))
    assert {c.key.catalog_size for c in grid.cells} == {10}
    assert {c.key.distractors for c in grid.cells} == {"random", "nearest"}
    notes = "\n".join(grid.notes)
    assert "size 5 skipped: the requests expect 8 skills, 7 of them listed" in notes
    assert "size 500 skipped: the catalog lists only 40 skills" in notes


def test_no_usable_size_is_an_error_at_the_sizes_line(tmp_path: Path) -> None:
    path = _config(tmp_path, "catalog_sizes: [5]\n")
    with pytest.raises(InputError) as info:
        _grid(path)
    assert info.value.location.line == 12
    assert "no catalog size of the sweep fits" in str(info.value)


@pytest.mark.parametrize(
    ("extra", "line", "field", "reason"),
    [
        ("catalog_sizes: [10]\ndistractors: closest\n", 13, "distractors", "'random'"),
        ("catalog_sizes: [10, 0]\n", 12, "catalog_sizes[1]", "at least 1"),
        ("catalog_sizes: [10, tiny]\n", 12, "catalog_sizes[1]", "'all'"),
        ("catalog_sizes: [10, 10]\n", 12, "catalog_sizes", "duplicate catalog size"),
        ("distractors: random\n", 12, "distractors", "needs catalog_sizes"),
        ("anchors: 4\n", 12, "anchors", "needs catalog_sizes"),
    ],
)
def test_bad_sweep_settings_name_file_line_and_field(
    tmp_path: Path, extra: str, line: int, field: str, reason: str
) -> None:
    path = _config(tmp_path, extra)
    with pytest.raises(InputErrors) as info:
        load_config(path)
    problems = [p for p in info.value.problems if p.location.field == field]
    assert problems, [str(p) for p in info.value.problems]
    assert problems[0].location.file == str(path) and problems[0].location.line == line
    assert reason in problems[0].reason


def test_rows_and_cells_carry_the_size_only_in_a_sweep(tmp_path: Path) -> None:
    plain = run_experiment(
        load_config(_config(tmp_path, "limit: 20\n", "plain.yaml")), output=tmp_path / "plain"
    )
    swept = run_experiment(
        load_config(_config(tmp_path, "limit: 20\ncatalog_sizes: [all]\n", "swept.yaml")),
        output=tmp_path / "swept",
    )
    for result, present in ((plain, False), (swept, True)):
        rows = [json.loads(line) for line in (result.run_dir / "results.jsonl").open()]
        summary = json.loads((result.run_dir / "summary.json").read_text())
        for record in (*rows, *summary["cells"]):
            assert ("catalog_size" in record) is present
            assert ("distractors" in record) is present
    assert {c.distractors for c in swept.cells} == {"random", "nearest"}
    manifest = json.loads((swept.run_dir / "manifest.json").read_text())
    assert manifest["catalog_sizes"]["distractors"] == ["random", "nearest"]
    assert "catalog_sizes" not in json.loads((plain.run_dir / "manifest.json").read_text())
