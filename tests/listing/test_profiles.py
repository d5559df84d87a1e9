"""A profile is one registered object; options come from the run config; --explain names rules."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.catalog import PRECEDENCE, Precedence, Skill
from skillbench.cli._main import main
from skillbench.listing import (
    PROFILES,
    Entry,
    EntryStatus,
    Layout,
    Profile,
    register_profile,
    render_listing,
)
from skillbench.replay import load_config


@dataclass(frozen=True)
class ShoutRenderer:
    """A toy agent: names in capitals, one per line, no budget."""

    default_budget: int | None = None
    name: str = "shout"
    budgeted: bool = False
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = False

    @property
    def rules(self) -> Mapping[EntryStatus, str]:
        return {}

    def hidden(self, skill: Skill) -> str | None:
        return None

    def shown_path(self, skill: Skill) -> str | None:
        return None

    def entry(self, skill: Skill, index: int) -> Entry:
        return Entry(skill, index, skill.name.upper(), "full", "")

    def layout(
        self, ordered: Iterable[Entry], budget: int | None, scores: Mapping[str, float]
    ) -> Layout:
        entries = list(ordered)
        return Layout("\n".join(e.text for e in entries), None, [e.placed for e in entries])


@pytest.fixture
def toy_profile(monkeypatch: pytest.MonkeyPatch) -> Profile:
    """The toy profile, registered for this test only (with its loading rules, which
    ``register_profile`` also makes known to the catalog)."""
    monkeypatch.setattr(PROFILES, "_items", dict(PROFILES._items))
    monkeypatch.setattr(PRECEDENCE, "_items", dict(PRECEDENCE._items))
    rule = Precedence("shout", ("bundled", "project"), True, "shout: later wins")

    def shout() -> ShoutRenderer:
        return ShoutRenderer()

    return register_profile(Profile("shout", rule, shout, "system", "skill_tool", "a toy agent"))


def test_adding_an_agent_is_one_object(toy_profile: Profile) -> None:
    listing = render_listing([Skill("a", "x"), Skill("b", "y")], profile="shout")
    assert listing.text == "A\nB"
    assert PROFILES.get("shout") is toy_profile and toy_profile.options == ()


def test_every_profile_carries_all_its_parts() -> None:
    for name in PROFILES:
        profile = PROFILES.get(name)
        assert profile.precedence.name == profile.agent == name.partition("@")[0]
        assert profile.make_renderer().name == name
    assert PROFILES.get("codex").trigger == "file_read"
    assert PROFILES.get("claude-code").placement == "system_message"


def test_unknown_option_names_the_nearest() -> None:
    with pytest.raises(SkillbenchError, match="did you mean 'context_window'"):
        PROFILES.get("codex").make_renderer({"context_windw": 5})
    with pytest.raises(SkillbenchError, match="skill_overrides"):
        PROFILES.get("claude-code").make_renderer({"skill_overrides": {"x": "maybe"}})


def test_a_snapshot_option_that_is_no_path_is_an_error() -> None:
    with pytest.raises(SkillbenchError, match="option snapshot is 3; expected auto, none"):
        PROFILES.get("codex").snapshot_use({"snapshot": 3})


def _config(tmp_path: Path, profiles: str) -> Path:
    path = tmp_path / "run.yaml"
    (tmp_path / "skills").mkdir()
    (tmp_path / "r.jsonl").write_text("")
    path.write_text(
        "name: t\ncatalogs:\n  c: [skills]\nrequests: r.jsonl\n"
        f"profiles: {profiles}\nselectors: [{{type: oracle}}]\n"
    )
    return path


def test_profile_options_from_the_run_config(tmp_path: Path) -> None:
    config = load_config(
        _config(tmp_path, "[codebot, {name: claude-code, context_window: 1000000}]")
    )
    assert config.profiles == ["codebot", "claude-code"]
    assert config.profile_options == {"claude-code": {"context_window": 1_000_000}}


def test_bad_profile_option_in_a_config_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(SkillbenchError, match="no option 'window'"):
        load_config(_config(tmp_path, "[{name: codex, window: 5}]"))


def _skill(root: Path, name: str, text: str) -> None:
    (root / name).mkdir(parents=True)
    (root / name / "SKILL.md").write_text(text)


def test_render_explain_names_each_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _skill(tmp_path / "b", "review", "---\ndescription: Review (bundled).\n---\n")
    _skill(tmp_path / "p", "review", "---\ndescription: Review (project).\n---\n")
    _skill(tmp_path / "p", "quiet", "---\ndescription: Q.\n---\n")
    _skill(tmp_path / "p", "manual", "---\ndescription: M.\ndisable-model-invocation: true\n---\n")
    code = main(
        [
            "render",
            f"project={tmp_path / 'p'}",
            f"bundled={tmp_path / 'b'}",
            "--profile",
            "claude-code",
            "--explain",
            "--option",
            'skill_overrides={"quiet": "off"}',
            "-q",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    rows = {line.split()[0] + "/" + line.split()[1]: line for line in out.splitlines()[1:]}
    assert "shown in full" in rows["review/project"]
    assert "overridden" in rows["review/bundled"] and "first found wins" in rows["review/bundled"]
    assert "skill_overrides sets it 'off'" in rows["quiet/project"]
    assert "disable-model-invocation" in rows["manual/project"]


def test_render_json_carries_why_and_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _skill(tmp_path / "p", "long", "---\ndescription: " + "x" * 400 + "\n---\n")
    _skill(tmp_path / "p", "other", "---\ndescription: " + "y" * 400 + "\n---\n")
    code = main(
        [
            *("render", f"project={tmp_path / 'p'}", "--profile", "codex", "--budget", "200"),
            *("--option", 'roots={"project": "/r"}', "--format", "json"),
        ]
    )
    doc = json.loads(capsys.readouterr().out)
    assert code == 0
    # Codex 0.169.0 warns only when skills are left out, not when descriptions are cut.
    assert doc["warning"] is None
    assert {s["status"] for s in doc["skills"]} == {"truncated"}
    assert all("round-robin" in s["why"] for s in doc["skills"])
    # "/r/long/SKILL.md" is shorter than "r0/long/SKILL.md": the absolute variant is cheaper.
    assert "(file: /r/long/SKILL.md)" in doc["text"] and "### Skill roots" not in doc["text"]
