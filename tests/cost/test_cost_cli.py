"""``skillbench cost`` on a hand-made catalog: numbers match the library and litellm's prices."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.cli import main
from skillbench.tokens import count_tokens, litellm_offline


def write_skill(root: Path, name: str, body: str, extra: str = "") -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(
        f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n{body}", encoding="utf-8"
    )


def test_cost_json_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "small", "Say hi.\n")
    write_skill(tmp_path, "large", "Explore every module. " * 300, "context: fork\n")
    code = main(
        [
            "cost",
            str(tmp_path),
            "--model",
            "claude-sonnet-4-5",
            "--horizon",
            "4",
            "--format",
            "json",
        ]
    )
    assert code == 0
    report = json.loads(capsys.readouterr().out)
    skills = {s["name"]: s for s in report["skills"]}
    wrapped = '<skill name="small">\nSay hi.\n</skill>'
    body = count_tokens(wrapped, "claude-sonnet-4-5")
    assert skills["small"]["body_tokens"] == body
    assert skills["small"]["inline_tokens"] == 4 * body
    assert skills["small"]["break_even"] is None
    assert skills["small"]["verdict"] == "keep inline"
    assert skills["large"]["verdict"] == "keep fork"
    assert skills["large"]["break_even"] <= 4
    entry = litellm_offline().model_cost["claude-sonnet-4-5"]
    listing = report["listing"]
    assert listing["tokens_per_turn"] > 0
    assert listing["dollars_per_turn"] == pytest.approx(
        listing["tokens_per_turn"] * entry["input_cost_per_token"]
    )
    assert listing["tokens_at_horizon"] == 4 * listing["tokens_per_turn"]


def test_cost_text_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "small", "Say hi.\n")
    assert main(["cost", str(tmp_path), "--summary-tokens", "0"]) == 0
    out = capsys.readouterr().out
    assert "INLINE@10" in out and "BREAK-EVEN" in out
    assert "listing (codebot, budget 4000)" in out


def test_unknown_model_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_skill(tmp_path, "small", "Say hi.\n")
    assert main(["cost", str(tmp_path), "--model", "gpt-4oo"]) == 1
    assert "did you mean" in capsys.readouterr().err
