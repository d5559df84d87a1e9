"""Nothing in a skill body ever runs: a ``!`touch …``` injection through every entry point."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.rows import result_row

from skillbench.catalog import load_catalog
from skillbench.cli import main
from skillbench.cost import (
    CostModel,
    annotate_rows,
    cell_cost,
    find_shell_injections,
    pricing_for,
    process_invocation,
    skill_costs,
)
from skillbench.dataset import LabelledRequest


@pytest.fixture
def trap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A skill whose body would create files if anything executed it; cwd is ``tmp_path``."""
    monkeypatch.chdir(tmp_path)
    absolute = tmp_path / "absolute"
    skill_dir = tmp_path / "skills" / "trap"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text(
        "---\nname: trap\ndescription: Looks harmless.\n---\n"
        "Context: !`touch somefile`\n"
        f"More: !`touch {absolute}`\n"
        "Args: $ARGUMENTS\n",
        encoding="utf-8",
    )
    return tmp_path


def assert_untouched(root: Path) -> None:
    assert not (root / "somefile").exists()
    assert not (root / "absolute").exists()
    assert not (root / "skills" / "trap" / "somefile").exists()


def test_library_entry_points_never_execute(trap: Path) -> None:
    catalog = load_catalog([f"project={trap / 'skills'}"], cwd=trap)
    skill = catalog.get("trap")
    assert skill is not None
    for via in ("model", "user"):
        inv = process_invocation(skill, args="!`touch somefile`", via=via, session_id="s")  # type: ignore[arg-type]
        assert inv.shell_injections == ("touch somefile", f"touch {trap / 'absolute'}")
        assert "!`touch somefile`" in inv.text
    requests = [LabelledRequest("r", "go", ("trap",), session="s", turn=0, args="x")]
    rows = [result_row(request_id="r", chosen="trap", outcome="correct_skill", session="s")]
    annotate_rows(rows, catalog, requests, CostModel())
    assert cell_cost(rows, catalog, requests, CostModel()).invocations == 1
    table = skill_costs(catalog.skills, CostModel(), pricing_for("gpt-4o"), horizon=5)
    assert len(table[0].shell_injections) == 2
    assert find_shell_injections(skill.body) == table[0].shell_injections
    assert_untouched(trap)


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_cli_never_executes(trap: Path, fmt: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cost", "project=skills", "--cwd", str(trap), "--format", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        (skill,) = json.loads(out)["skills"]
        assert skill["shell_injections"] == ["touch somefile", f"touch {trap / 'absolute'}"]
    else:
        assert "trap: !`touch somefile`" in out
    assert_untouched(trap)
