"""Per skill, the agents that would list it differently from what its author wrote.

Expected agents come from the agents' documented rules, not from the code: Claude Code reads
``SKILL.md`` one level below a skills folder, Pi enters no skill's folder, Codex walks six
levels; Claude Code and Codex re-read front matter
YAML refuses with its plain values quoted (``description: USE FOR: x`` loads as ``USE FOR: x``).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.catalog import parse_source_arg
from skillbench.cli import main
from skillbench.listing import agent_views, divergences

PROFILES = ["claude-code", "codex"]


def _skill(root: Path, rel: str, front: str) -> Path:
    path = root / rel / "SKILL.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}---\nbody\n", encoding="utf-8")
    return path


@pytest.fixture
def skills(tmp_path: Path) -> Path:
    root = tmp_path / "skills"
    _skill(root, "pack", "name: pack\ndescription: A pack of skills\n")
    _skill(root, "pack/inner", "name: inner\ndescription: Nested in the pack\n")
    _skill(root, "colon", "name: colon\ndescription: USE FOR: merging pdf files\n")
    _skill(root, "plain", "name: plain\ndescription: Read alike by everyone\n")
    return root


def test_each_difference_names_the_agents_it_applies_to(skills: Path) -> None:
    specs = [parse_source_arg(f"project={skills}")]
    views = agent_views(specs, profiles=PROFILES)
    named = {v.profile: f"{v.profile} {v.version}" for v in views}
    found = {(d.kind, d.name): d for d in divergences(specs, views)}
    assert set(found) == {("undiscovered", "inner"), ("reads_differently", "colon")}
    nested = found[("undiscovered", "inner")]
    assert nested.agents == (named["claude-code"],)
    assert nested.path == str(skills / "pack" / "inner" / "SKILL.md")
    assert "at most 1 level below a skills folder" in nested.detail
    lenient = found[("reads_differently", "colon")]
    assert lenient.agents == (named["claude-code"], named["codex"])
    assert "'USE FOR: merging pdf files'" in lenient.detail
    assert "YAML refuses it" in lenient.detail


def test_a_description_read_alike_by_every_agent_is_not_reported(tmp_path: Path) -> None:
    root = tmp_path / "skills"
    _skill(root, "folded", "name: folded\ndescription: >\n  Two folded\n  lines\n")
    specs = [parse_source_arg(f"project={root}")]
    assert divergences(specs, agent_views(specs, profiles=PROFILES)) == []


def test_lint_and_render_all_name_the_agents_per_skill(
    skills: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    main(["lint", f"project={skills}", "--format", "json"])
    findings = json.loads(capsys.readouterr().out)["findings"]
    nested = [f for f in findings if f["rule"] == "SB805"]
    assert [f["skill"] for f in nested] == ["inner", "inner"]
    messages = " | ".join(sorted(f["message"] for f in nested))
    assert "claude-code" in messages and "pi 0.73.1" in messages
    assert "codex" not in messages
    read = [f for f in findings if f["rule"] == "SB804"]
    assert [f["skill"] for f in read] == ["colon"]

    assert main(["render", f"project={skills}", "--profile", "all", "--format", "json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    kinds = {(d["skill"], d["kind"]) for d in payload["divergences"]}
    assert ("inner", "undiscovered") in kinds
    assert ("colon", "reads_differently") in kinds
    assert ("plain", "undiscovered") not in kinds

    main(["render", f"project={skills}", "--profile", "all"])
    text = capsys.readouterr().out
    assert "Listed differently from what the author wrote:" in text
    assert f"inner ({skills / 'pack' / 'inner' / 'SKILL.md'}):" in text
