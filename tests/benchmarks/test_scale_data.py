"""The scale benchmark's generated catalog and requests: valid, unique, labelled, seeded."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.scale_data import SHARD, write_scale_data
from skillbench._sanitize import name_problem
from skillbench.catalog import load_catalog


def test_catalog_has_n_unique_valid_skills_that_load(tmp_path: Path, shared_data: Path) -> None:
    data = write_scale_data(tmp_path, skills=2500, n_requests=400)
    files = sorted(tmp_path.glob("skills/*/*/SKILL.md"))
    names = [f.parent.name for f in files]
    assert data.skills == len(files) == 2500
    assert len(set(names)) == 2500
    assert [n for n in names if name_problem(n, "agent-skills")] == []
    assert len(data.skill_dirs) == 3  # 1000 + 1000 + 500: under the 2,000-folder scan limit
    assert all(len(list(d.iterdir())) <= SHARD for d in data.skill_dirs)
    catalog = load_catalog([str(d) for d in data.skill_dirs])
    assert len(catalog.skills) == 2500
    assert [d for d in catalog.diagnostics if d.severity == "error"] == []


def test_requests_target_invocable_skills_with_one_negative_in_twenty(
    tmp_path: Path, shared_data: Path
) -> None:
    data = write_scale_data(tmp_path, skills=1500, n_requests=400)
    rows = [json.loads(line) for line in data.requests.read_text().splitlines()]
    assert len(rows) == 400
    assert len({r["id"] for r in rows}) == 400
    assert sum(not r["expected"] for r in rows) == data.negatives == 20
    catalog = {s.name: s for s in load_catalog([str(d) for d in data.skill_dirs]).skills}
    scoped = 0
    for row in rows:
        for name in row["expected"]:
            skill = catalog[name]
            assert not skill.disable_model_invocation
            # A variant's description ends ", for the <scope> team[ (pro plan)]."; its
            # requests end with the same phrase, a base skill's carry none.
            _, sep, phrase = skill.description.rpartition(", for the ")
            if sep and " team" in phrase:
                scoped += 1
                assert row["text"].endswith(f"This is for the {phrase}")
            else:
                assert "This is for the " not in row["text"]
    assert scoped > 200  # 1,053 of the 1,500 skills are variants


def test_same_arguments_write_identical_files(tmp_path: Path, shared_data: Path) -> None:
    a = write_scale_data(tmp_path / "a", skills=600, n_requests=200, seed=3)
    b = write_scale_data(tmp_path / "b", skills=600, n_requests=200, seed=3)
    assert a.requests.read_bytes() == b.requests.read_bytes()
    files_a = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("SKILL.md"))
    files_b = sorted(p.relative_to(tmp_path / "b") for p in (tmp_path / "b").rglob("SKILL.md"))
    assert files_a == files_b
    assert all(
        (tmp_path / "a" / f).read_bytes() == (tmp_path / "b" / f).read_bytes() for f in files_a
    )
