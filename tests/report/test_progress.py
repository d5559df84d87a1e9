"""The run command's terminal: phases with their times, running counts, a patient ETA; and
``--model``."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.cli._progress import TerminalProgress
from skillbench.cli._run import with_model
from skillbench.replay import load_config


def test_phases_counts_and_eta() -> None:
    out = io.StringIO()
    progress = TerminalProgress(out)
    progress.phase("loading requests and catalogs")
    progress.phase("replaying decisions", 4)
    assert "ETA –" in progress.line()  # no rate yet: no guess
    for outcome in ("correct_skill", "error", "false_trigger", "wrong_skill"):
        progress.decision({"outcome": outcome})
    line = progress.line()
    assert "4/4 (100%)" in line and "errors 1" in line and "unwanted invocations 2" in line
    progress.close()
    closed = [x for x in out.getvalue().replace("\r", "\n").splitlines() if x.startswith("\x1b[K✓")]
    assert [x.split("  ")[0] for x in closed] == [
        "\x1b[K✓ loading requests and catalogs",
        "\x1b[K✓ replaying decisions 4/4",
    ]


def test_model_flag_overrides_every_litellm_selector_only() -> None:
    configs = Path(__file__).parents[2] / "configs"
    config = with_model(load_config(configs / "litellm-example.yaml"), "ollama/qwen2.5:7b")
    models = {s.type: s.params.get("model") for s in config.selectors}
    assert models["litellm"] == "ollama/qwen2.5:7b"
    assert {t for t, m in models.items() if m == "ollama/qwen2.5:7b"} == {"litellm"}
    with pytest.raises(SkillbenchError, match="no litellm selector"):
        with_model(load_config(configs / "quickstart.yaml"), "x")
