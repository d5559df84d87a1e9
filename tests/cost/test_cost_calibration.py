"""Calibrated fork constants: worked out by hand from measurements, stored in the cache,
used by ``skillbench cost`` and by a run when the profile's agent version was measured."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from skillbench.catalog import Skill
from skillbench.cli import main
from skillbench.cost import (
    CostModel,
    ForkCalibration,
    ModeCost,
    SkillMeasurement,
    calibrate,
    calibration_path,
    compare,
    load_calibration,
    save_calibration,
)
from skillbench.replay import load_config, run_experiment
from skillbench.report._plots_skills import inline_vs_fork
from skillbench.results import read_run
from skillbench.tokens import litellm_offline
from tests.cost.test_cost_replay import _project

VERSION = "2.1.328"


def _measured(name: str, agent: str | None, prompt: int, body: int) -> SkillMeasurement:
    """A measurement with round figures: summary 200 written, 220 carried, no extra work."""
    skill = Skill(name=name, description="d", agent=agent, body=f"# {name}\n" + "word " * body)
    fork = ModeCost(prompt + body + 200, (220, 220, 220), prompt, body, 0, 200, body)
    inline = ModeCost(0, (body + 10,) * 3, 0, 0, 0, 0, body)
    return SkillMeasurement(skill, "claude-code", VERSION, "Please.", None, inline, fork, False)


MEASURED = [
    _measured("a", None, 7000, 500),
    _measured("b", None, 8000, 900),
    _measured("c", "Explore", 6000, 700),
]


def wrapped_tokens(m: SkillMeasurement) -> int:
    """B of the model: the body inside the reference ``<skill>`` wrapper, counted by litellm."""
    name = m.skill.name
    text = f'<skill name="{name}">\n' + m.skill.body.strip() + "\n</skill>"
    return int(litellm_offline().token_counter(model="gpt-4o", text=text))


def test_calibration_by_hand() -> None:
    cal = calibrate(MEASURED, "gpt-4o")
    overhead = [m.inline.carried[0] - wrapped_tokens(m) for m in MEASURED]
    assert cal.body_overhead_tokens == round(sum(overhead) / 3)
    # general P: mean of the two skills naming no sub-agent type; Explore its own; each less
    # the request "Please." (2 gpt-4o tokens), which the model adds back as Q
    assert cal.fork_system_prompt_tokens == 7498
    assert cal.fork_system_prompt_by_agent == {"Explore": 5998}
    # W = fixed - P - B as carried inline - S as carried = -30 for each: no work, 0
    assert (cal.fork_work_tokens, cal.summary_tokens) == (0, 220)
    assert (cal.fork_requests, cal.fork_body_requests, cal.fork) == (1, 1, "context")
    assert (cal.skills, cal.follow_ups, cal.basis) == (
        ("a", "b", "c"),
        2,
        f"measured on claude-code {VERSION}",
    )


def test_compare_by_hand() -> None:
    cal = calibrate(MEASURED, "gpt-4o")
    row = compare(MEASURED[2], CostModel(), cal, [1, 2])
    # measured: fork 6000 + 700 + 200 fixed + 220 a turn; inline 710 a turn
    assert row.fork_measured == (6900 + 2 * 220, 6900 + 3 * 220)
    assert row.inline_measured == (2 * 710, 3 * 710)
    # fork < inline from R > 6900 / (710 - 220) = 14.08: 15 remaining turns
    assert row.break_even_measured == 15
    assert row.body_modelled == wrapped_tokens(MEASURED[2])
    b = row.body_modelled + cal.body_overhead_tokens
    # calibrated: P 5998 (Explore), W 0, S 220; request "Please." has 2 gpt-4o tokens
    fixed = 5998 + b + 2 + 0 + 220
    assert row.fork_calibrated == (fixed + 2 * 220, fixed + 3 * 220)
    assert row.inline_calibrated == (2 * b, 3 * b)
    assert row.break_even_calibrated == fixed // (b - 220) + 1


def test_store_and_load(tmp_path: Path) -> None:
    cal = calibrate(MEASURED, "gpt-4o")
    path = save_calibration(cal, tmp_path)
    assert path == tmp_path / "agents" / "claude-code" / VERSION / "fork-cost.json"
    assert load_calibration("claude-code", VERSION, tmp_path) == cal
    assert load_calibration("claude-code", "0.0.1", tmp_path) is None
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(Exception, match=r"fork-cost\.json.*not a fork-cost calibration"):
        load_calibration("claude-code", VERSION, tmp_path)


def _store() -> ForkCalibration:
    cal = calibrate(MEASURED, "gpt-4o")
    save_calibration(cal)
    return cal


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def test_cost_uses_the_calibration_and_says_so(
    cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    skills = tmp_path / "skills" / "big"
    skills.mkdir(parents=True)
    (skills / "SKILL.md").write_text("---\nname: big\ndescription: d\n---\n" + "x y " * 900)
    profile = f"claude-code@{VERSION}"
    argv = ["cost", str(tmp_path / "skills"), "--profile", profile, "--format", "json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    before = report["cost_model"]
    assert before["basis"] == "modelled" and before["fork_system_prompt_tokens"] == 1000
    assert report["fork_constants"] == (
        f"modelled (no calibration of claude-code {VERSION} in the cache: "
        "`skillbench cost --measure claude-code` measures it)"
    )
    _store()
    assert calibration_path("claude-code", VERSION).is_file()
    assert main(argv) == 0
    after = json.loads(capsys.readouterr().out)["cost_model"]
    assert after["basis"] == f"measured on claude-code {VERSION}"
    assert (after["fork_system_prompt_tokens"], after["summary_tokens"]) == (7498, 220)
    assert main([*argv[:-2]]) == 0
    assert capsys.readouterr().out.startswith(f"fork constants: measured on claude-code {VERSION}")
    assert main([*argv, "--summary-tokens", "100"]) == 0
    report = json.loads(capsys.readouterr().out)
    given = report["cost_model"]
    assert (given["basis"], given["fork_system_prompt_tokens"]) == ("modelled", 1000)
    assert report["fork_constants"] == "modelled (given by hand)"
    assert main([*argv[:2], "--format", "json"]) == 0  # codebot: no agent version
    assert json.loads(capsys.readouterr().out)["fork_constants"] == "modelled"


def test_a_run_names_measured_constants(cache: Path, tmp_path: Path) -> None:
    _store()
    config = _project(tmp_path, f"profiles: [claude-code@{VERSION}, codebot]\n")
    run_experiment(load_config(config), output=tmp_path / "out")
    cells = json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]
    by_profile = {c["profile"]: c["cost"] for c in cells}
    measured, modelled = by_profile[f"claude-code@{VERSION}"], by_profile["codebot"]
    assert measured["fork_constants"] == f"measured on claude-code {VERSION}"
    assert measured["fork_system_prompt_tokens"] == 7498
    assert "fork_constants" not in modelled and modelled["fork_system_prompt_tokens"] == 1000
    assert os.environ["SKILLBENCH_CACHE_DIR"] == str(cache)
    caption = inline_vs_fork(read_run(tmp_path / "out")).caption
    assert caption.endswith(f"Fork constants: measured on claude-code {VERSION} / modelled.")


def test_a_config_that_sets_the_constants_keeps_them(cache: Path, tmp_path: Path) -> None:
    _store()
    config = _project(tmp_path, "profiles: [claude-code]\ncost: {summary_tokens: 50}\n")
    run_experiment(load_config(config), output=tmp_path / "out")
    (cell,) = json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]
    assert "fork_constants" not in cell["cost"]
    assert (cell["cost"]["summary_tokens"], cell["cost"]["fork_system_prompt_tokens"]) == (50, 1000)


def test_sub_agent_work_is_calibrated_and_moves_the_break_even_by_hand() -> None:
    """Two skills whose sub-agents each read a file (7,600 and 8,400 tokens of work): W is
    their mean, less what the measured summary and body differ from the carried ones."""
    worked = []
    for m, work in zip(MEASURED[:2], (7600, 8400), strict=True):
        f = m.fork
        fork = ModeCost(
            f.fixed + work, f.carried, f.subagent_prompt, f.subagent_body, work, 200, f.body
        )
        worked.append(
            SkillMeasurement(m.skill, m.agent, VERSION, "Please.", None, m.inline, fork, False)
        )
    cal = calibrate(worked, "gpt-4o")
    # W per skill: fixed - P - B carried inline (body + 10) - S carried (220):
    # a: 15300 - 7000 - 510 - 220 = 7570; b: 17500 - 8000 - 910 - 220 = 8370
    assert (cal.fork_system_prompt_tokens, cal.fork_work_tokens) == (7498, 7970)
    row = compare(worked[0], CostModel(), cal, [1, 2])
    # measured: fork 7000 + 500 + 7600 + 200 = 15300 fixed + 220 a turn, inline 510 a turn;
    # fork < inline from R > 15300 / (510 - 220) = 52.76: 53 remaining turns
    assert row.fork_measured == (15300 + 2 * 220, 15300 + 3 * 220)
    assert row.break_even_measured == 53
    b = row.body_modelled + cal.body_overhead_tokens
    fixed = 7498 + b + 2 + 7970 + 220  # P, B, the request "Please.", W, S
    assert row.fork_calibrated == (fixed + 2 * 220, fixed + 3 * 220)
    assert row.break_even_calibrated == fixed // (b - 220) + 1
