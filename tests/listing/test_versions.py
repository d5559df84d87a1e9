"""Agent releases are part of a profile: ``codex@0.171.0``, plain ``codex`` = the newest.

Expected budgets are worked out by hand from the model catalogues compiled into each Codex
release (``context_window`` / ``max_context_window`` of each model) and the 2% rule:
0.169.0's default gpt-6.1-sol has 272,000 tokens (5,440 for the listing); 0.171.0's
default gpt-6.2-sol 500,000 (10,000), where gpt-6.1-sol also has 500,000.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.agents import STRICT_VARIABLE, bin_variable, unverified_note
from skillbench.catalog import Skill
from skillbench.cli import main
from skillbench.listing import PROFILES, AgentSnapshot, BuiltinSkill, render_listing, save_snapshot
from skillbench.replay import load_config, run_experiment
from tests.support.runs import DEVTOOLS_INPUTS

ONE = [Skill("a", "b", path="/x/a/SKILL.md", rel_path="a/SKILL.md")]


def _budget(profile: str, **options: object) -> int | None:
    return render_listing(ONE, profile=profile, options=options).budget


def test_plain_names_are_the_newest_verified_release() -> None:
    assert PROFILES.get("codex").agent_version == "0.171.0"
    assert PROFILES.get("claude-code").agent_version == "2.1.332"
    assert PROFILES.get("codex").verified_versions == ("0.169.0", "0.171.0")
    assert PROFILES.get("codex@0.169.0").name == "codex@0.169.0"
    assert PROFILES.get("codex@0.169.0").agent == "codex"


def test_an_unverified_version_names_the_verified_ones() -> None:
    with pytest.raises(SkillbenchError, match=re.escape("verified versions: 0.169.0, 0.171.0")):
        PROFILES.get("codex").at("0.170.0")
    with pytest.raises(SkillbenchError, match=re.escape("unknown profile 'codex@0.170.0'")):
        PROFILES.get("codex@0.170.0")


@pytest.mark.parametrize(
    ("profile", "model", "budget"),
    [
        ("codex@0.169.0", None, 5_440),
        ("codex@0.171.0", None, 10_000),
        ("codex", None, 10_000),
        ("codex@0.169.0", "gpt-6.1-sol", 5_440),
        ("codex@0.171.0", "gpt-6.1-sol", 10_000),
        ("codex@0.169.0", "gpt-6.1-terra", 10_000),
        ("codex@0.171.0", "gpt-daybreak-red-latest", 7_440),
        ("codex@0.171.0", "no-such-model", 5_440),
    ],
)
def test_the_models_window_sets_the_codex_budget(
    profile: str, model: str | None, budget: int
) -> None:
    assert _budget(profile, model=model) == budget


def test_a_configured_window_counts_up_to_the_models_largest() -> None:
    # gpt-6.2-sol may grow to 872,000 tokens (17,440); gpt-5.5 only to 272,000 (5,440).
    assert _budget("codex", context_window=1_000_000) == 17_440
    assert _budget("codex", context_window=1_000_000, model="gpt-5.5") == 5_440
    assert _budget("codex", context_window=100_000) == 2_000
    assert _budget("codex", context_window=None) == 8_000  # characters


def test_claude_code_releases_render_alike(shared_data: Path) -> None:
    from skillbench.catalog import load_catalog

    skills = load_catalog([f"project={shared_data / 'catalogs' / 'wshobson-agents'}"]).skills
    texts = {
        p: render_listing(skills, profile=p, options={"snapshot": "none"}).text
        for p in ("claude-code@2.1.328", "claude-code@2.1.332", "claude-code")
    }
    assert len(set(texts.values())) == 1


def test_each_release_renders_with_its_own_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path))
    ours = BuiltinSkill("house-style", "Our own test text.", path="house-style/SKILL.md")
    save_snapshot(AgentSnapshot("codex", "0.169.0", builtin_skills=(ours,)), tmp_path)
    assert "- house-style: Our own test text." in render_listing(ONE, profile="codex@0.169.0").text
    assert "house-style" not in render_listing(ONE, profile="codex@0.171.0").text
    use = PROFILES.get("codex").snapshot_use()
    assert use is not None and use.version == "0.171.0" and use.snapshot is None
    assert "codex 0.171.0: no agent snapshot (cached for codex@0.169.0)" in (
        use.missing_note() or ""
    )


def test_render_accepts_a_release_and_a_model(capsys: pytest.CaptureFixture[str]) -> None:
    skills = Path(__file__).parents[2] / "datasets" / "probe" / "skills"
    for profile, model, tokens in (
        ("codex@0.169.0", "gpt-6.1-sol", 5_440),
        ("codex@0.171.0", "gpt-6.1-sol", 10_000),
    ):
        argv = ["render", f"project={skills}", "--profile", profile, "-q"]
        assert main([*argv, "--option", f"model={model}", "--option", "snapshot=none"]) == 0
        lines = [line for line in capsys.readouterr().out.splitlines() if "(file: " in line]
        used = sum(-(-len((line + "\n").encode()) // 4) for line in lines)
        assert tokens - 100 < used <= tokens


def test_a_run_config_names_the_release_and_the_manifest_records_it(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        "name: releases\n"
        + DEVTOOLS_INPUTS
        + "profiles: [codex, codex@0.169.0, {name: codex@0.171.0, model: gpt-6.1-sol}]\n"
        + "budgets: [null]\norderings: [alpha]\nselectors: [{type: oracle}]\n"
    )
    run_experiment(load_config(config), output=tmp_path / "o", limit=2)
    agents = json.loads((tmp_path / "o" / "manifest.json").read_text())["agents"]
    assert {p: f["verified_version"] for p, f in agents.items()} == {
        "codex": "0.171.0",
        "codex@0.169.0": "0.169.0",
        "codex@0.171.0": "0.171.0",
    }


def test_a_config_with_an_unverified_release_is_one_line(tmp_path: Path) -> None:
    config = tmp_path / "run.yaml"
    config.write_text(
        "name: x\n" + DEVTOOLS_INPUTS + "profiles: [codex@0.170.0]\nselectors: [{type: oracle}]\n"
    )
    with pytest.raises(SkillbenchError, match=re.escape("codex@0.170.0")):
        load_config(config)


def test_an_unverified_installed_release_is_a_note_or_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert unverified_note("codex", "0.171.0") is None
    note = unverified_note("codex", "0.172.0")
    assert note is not None and note.startswith("codex 0.172.0 is installed but skillbench's")
    assert "verified against 0.169.0, 0.171.0" in note
    monkeypatch.setenv(STRICT_VARIABLE, "1")
    with pytest.raises(SkillbenchError, match=re.escape("--strict-agents: codex 0.172.0")):
        unverified_note("codex", "0.172.0")
    assert bin_variable("codex", "0.171.0") == "SKILLBENCH_CODEX_0_171_0_BIN"
    assert bin_variable("claude-code") == "SKILLBENCH_CLAUDE_CODE_BIN"


@pytest.mark.parametrize(
    ("model", "budget"),
    [
        (None, 30_000),  # 1,000,000 tokens × 3 characters × 1%
        ("claude-opus-5-5", 30_000),
        ("claude-sonnet-4-6", 8_000),  # the 4.0–4.6 families: 200,000 × 4 × 1%
        ("claude-3-5-haiku-20241022", 8_000),
        ("claude-sonnet-4-20250514", 8_000),
    ],
)
def test_the_claude_code_model_sets_window_and_characters_per_token(
    model: str | None, budget: int
) -> None:
    assert _budget("claude-code", model=model, snapshot="none") == budget


def test_the_report_and_the_viewer_name_the_release(tmp_path: Path) -> None:
    from skillbench.report import write_report
    from skillbench.view import write_view

    config = tmp_path / "run.yaml"
    config.write_text(
        "name: releases\n"
        + DEVTOOLS_INPUTS
        + "profiles: [codex, claude-code@2.1.328]\n"
        + "budgets: [null]\norderings: [alpha]\nselectors: [{type: oracle}]\n"
    )
    run_experiment(load_config(config), output=tmp_path / "o", limit=2)
    write_report(tmp_path / "o", ["md"])
    report = (tmp_path / "o" / "report.md").read_text()
    page = write_view([tmp_path / "o"], tmp_path / "view.html").read_text()
    for profile, release in (("codex", "0.171.0"), ("claude-code@2.1.328", "2.1.328")):
        assert f"`{profile}` → {release}" in report
        assert f"{profile} \\u2192 {release}" in page or f"{profile} → {release}" in page
    assert "**Agent releases** the listings follow: " in report
    assert "no snapshot of claude-code 2.1.328 was found" in report


def test_agents_takes_several_agents_in_the_order_given(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    for variable in [v for v in os.environ if v.startswith("SKILLBENCH_") and v.endswith("_BIN")]:
        monkeypatch.delenv(variable)
    assert main(["agents", "--agent", "qwen-code", "--agent", "codex", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [row["agent"] for row in rows] == ["qwen-code", "codex"]
    assert rows[1]["pinned"] == "0.169.0" and rows[1]["installed"] == []


@pytest.mark.parametrize(
    ("option", "value"),
    [("budget_fraction", "abc"), ("budget_fraction", -1), ("budget_fraction", 2), ("entry_cap", 0)],
)
def test_a_bad_claude_code_setting_is_one_line_without_the_agents_text(
    option: str, value: object
) -> None:
    ours = BuiltinSkill("house-style", "MARKER-OF-THE-SNAPSHOT " * 50)
    snapshot = AgentSnapshot("claude-code", "2.1.328", builtin_skills=(ours,))
    with pytest.raises(SkillbenchError) as caught:
        PROFILES.get("claude-code@2.1.328").make_renderer({option: value, "snapshot": snapshot})
    message = str(caught.value)
    assert "\n" not in message and len(message) < 400
    assert f"{option} is {value!r}" in message
    assert "MARKER-OF-THE-SNAPSHOT" not in message and "snapshot=<AgentSnapshot>" in message
