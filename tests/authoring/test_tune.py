"""tune with the offline proposer on a tiny project: split, hill climb, variant, diff, report,
apply, and the proof that no test request reached the proposer."""

from __future__ import annotations

import filecmp
import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest
from tune_project import (
    DEPLOY,
    DOCS,
    FLAKY,
    NEGATIVE,
    assert_no_test_text_in_prompts,
    write_tune_project,
)

from skillbench.authoring import (
    OfflineProposer,
    TuneOptions,
    replace_frontmatter_description,
    stratified_split,
    tune,
    write_report,
)
from skillbench.catalog import load_catalog
from skillbench.cli._main import main
from skillbench.dataset import LabelledRequest
from skillbench.replay import load_config


def _requests() -> list[LabelledRequest]:
    skills = ["a"] * 10 + ["b"] * 5 + ["c"] * 1
    out = [LabelledRequest(f"p{i}", f"text {i}", (s,)) for i, s in enumerate(skills)]
    return out + [LabelledRequest(f"n{i}", f"neg {i}") for i in range(5)]


def test_split_is_stratified_seeded_and_disjoint() -> None:
    requests = _requests()
    split = stratified_split(requests, test_fraction=0.4, seed=7)
    strata = Counter(r.expected[0] if r.expected else "" for r in split.test)
    # round(n * 0.4) per stratum: a 10 → 4, b 5 → 2, c 1 → 0, negatives 5 → 2.
    assert strata == {"a": 4, "b": 2, "": 2}
    assert {r.id for r in split.train}.isdisjoint(r.id for r in split.test)
    assert len(split.train) + len(split.test) == len(requests)
    again = stratified_split(list(reversed(requests)), test_fraction=0.4, seed=7)
    assert {r.id for r in again.test} == {r.id for r in split.test}
    other = stratified_split(requests, test_fraction=0.4, seed=8)
    assert {r.id for r in other.test} != {r.id for r in split.test}


@pytest.mark.parametrize(
    "text",
    [
        "---\nname: x\ndescription: >\n  folded over\n  two lines\nwhen_to_use: later\n---\nBody\n",
        "---\nname: x\ndescription: 'quoted: with colon'\n---\nBody\n",
        "---\nname: x\n---\nBody\n",
        "# x\n\nNo frontmatter at all.\n",
    ],
)
def test_rewritten_description_loads_back(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x" / "SKILL.md"
    path.parent.mkdir()
    new = 'Says "hi": to {everyone} # not a comment'
    path.write_text(replace_frontmatter_description(text, "x", new), encoding="utf-8")
    skill = load_catalog([str(tmp_path)]).get("x")
    assert skill is not None and skill.description == new
    if "when_to_use" in text:
        assert skill.when_to_use == "later"


def test_offline_tune_improves_train_and_reports_test(tmp_path: Path) -> None:
    config = load_config(write_tune_project(tmp_path / "project"))
    out = tmp_path / "out"
    result = tune(config, OfflineProposer(), out, TuneOptions(iterations=3))
    # The base listing shares no word with any flaky request, so every one is missed; the
    # proposer adds body words those requests use.
    assert result.base_train.accuracy < result.tuned_train.accuracy
    assert set(result.changes) == {"flaky-checks"}
    new = result.changes["flaky-checks"]
    # the baseline proposer quotes its own body: the description, then one of the body's
    # two sentences verbatim (both carry intermittently, timing and races), no keyword list
    body = [
        "When checks fail intermittently, rerun them with a fixed seed and look for timing "
        "races between workers.",
        "Intermittently failing checks usually come from timing, races or shared state.",
    ]
    assert new in {f"Stabilise a test suite. {sentence}" for sentence in body}
    data = write_report(result, out, "offline")
    test = data.test
    # 4 of the 10 flaky requests are held out; all 4 are fixed and nothing breaks, so the
    # exact McNemar p is 2 * 0.5**4.
    assert (test.worse, test.better) == (0, 4)
    assert test.p_value == pytest.approx(2 * 0.5**4, abs=1e-4)
    assert test.gain == pytest.approx(4 / len(result.split.test), abs=1e-4)
    assert data.changes["flaky-checks"].after == new
    assert assert_no_test_text_in_prompts(out) >= 1
    # The variant differs from the catalog in exactly the rewritten file.
    compare = filecmp.dircmp(tmp_path / "project" / "skills", out / "catalog" / "0-project")
    assert compare.diff_files == [] and compare.left_only == compare.right_only == []
    assert compare.subdirs["flaky-checks"].diff_files == ["SKILL.md"]
    assert compare.subdirs["deploy"].diff_files == []
    diff = (out / "changes.diff").read_text(encoding="utf-8")
    assert diff.count("+++ ") == 1 and f"+description: {json.dumps(new)}" in diff
    # outside a git repository, paths are relative to the skill source folder
    assert "+++ b/flaky-checks/SKILL.md" in diff
    # 4 better, 0 worse on test: p = 0.125 is no evidence at 0.05, so the verdict says no
    assert data.verdict.apply is False
    md = (out / "report.md").read_text(encoding="utf-8")
    assert "**RewriteVerdict: do not apply: the test gain could be noise (p ≥ 0.05)" in md
    assert "The offline proposer is a baseline" in md


def test_no_improvement_stops_and_leaves_the_catalog(tmp_path: Path) -> None:
    config = load_config(write_tune_project(tmp_path / "project"))
    result = tune(config, OfflineProposer(), tmp_path / "out", TuneOptions(skills=("write-docs",)))
    assert result.changes == {}
    assert result.tuned_train == result.base_train


def test_cli_apply_writes_back_with_backup(tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "project")
    original = tmp_path / "project" / "skills" / "flaky-checks" / "SKILL.md"
    before = original.read_text(encoding="utf-8")
    out = tmp_path / "out"
    assert main(["tune", str(config), "-o", str(out), "--apply", "-q"]) == 0
    backup = out / "backup" / "0-project" / "flaky-checks" / "SKILL.md"
    assert backup.read_text(encoding="utf-8") == before
    after = load_catalog([str(tmp_path / "project" / "skills")]).get("flaky-checks")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert after is not None and after.description == report["changes"]["flaky-checks"]["after"]
    assert (out / "report.md").read_text(encoding="utf-8").startswith("# tune: tune-test")


def test_cli_dry_run_and_bad_skill(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = write_tune_project(tmp_path / "project")
    assert main(["tune", str(config), "--dry-run", "--format", "json"]) == 0
    plan = json.loads(capsys.readouterr().out)
    total = len(FLAKY) + len(DOCS) + len(DEPLOY) + len(NEGATIVE)
    assert (plan["train"] + plan["test"], plan["skills"]) == (total, 3)
    assert main(["tune", str(config), "--skills", "nope", "-o", str(tmp_path / "o")]) == 1


def test_changes_diff_applies_in_the_catalogs_git_repository(tmp_path: Path) -> None:
    config = write_tune_project(tmp_path / "project")
    repo = tmp_path / "project"
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "catalog"]):
        subprocess.run([*git, *args], cwd=repo, check=True)
    out = tmp_path / "out"
    assert main(["tune", str(config), "-o", str(out), "-q"]) == 0
    diff = (out / "changes.diff").read_text(encoding="utf-8")
    assert "--- a/skills/flaky-checks/SKILL.md" in diff
    check = subprocess.run(
        ["git", "apply", "--check", str(out / "changes.diff")],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert check.returncode == 0, check.stderr
    subprocess.run(["git", "apply", str(out / "changes.diff")], cwd=repo, check=True)
    after = load_catalog([str(repo / "skills")]).get("flaky-checks")
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert after is not None and after.description == report["changes"]["flaky-checks"]["after"]


def test_cli_apply_interrupted_says_what_it_wrote_and_exits_130(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ctrl-C while the first skill file is being rewritten (its backup is on disk): exit
    130, the file keeps its text, no temporary file is left, and the message says so."""
    import skillbench._output as output

    config = write_tune_project(tmp_path / "project")
    original = tmp_path / "project" / "skills" / "flaky-checks" / "SKILL.md"
    before = original.read_bytes()
    out = tmp_path / "out"
    real = output.os.replace

    def interrupted(src: str, dst: object) -> None:
        if Path(str(dst)) == original.resolve():
            raise KeyboardInterrupt
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(output.os, "replace", interrupted)
    assert main(["tune", str(config), "-o", str(out), "--apply", "-q"]) == 130
    err = capsys.readouterr().err
    assert (
        f"tune --apply interrupted after 0 of 1 files; the originals of the files it reached "
        f"are under {out / 'backup'}, the other files are as they were"
    ) in err
    assert original.read_bytes() == before
    assert (out / "backup" / "0-project" / "flaky-checks" / "SKILL.md").read_bytes() == before
    assert sorted(p.name for p in original.parent.iterdir()) == ["SKILL.md"]
