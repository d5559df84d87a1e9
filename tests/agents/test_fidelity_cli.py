"""``fidelity --agent`` refuses the flags of the recorded-listings comparison (no agent run)."""

from __future__ import annotations

import pytest

from skillbench.cli._main import main


@pytest.mark.parametrize("flag", [["--budget", "800"], ["--order", "alpha"], ["--deltas"]])
def test_a_listings_flag_with_agent_is_one_error_naming_it(
    flag: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["fidelity", "--agent", "claude-code", "skills", *flag]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"error: fidelity --agent: {flag[0]} applies to --listings; the capture's own setting "
        "decides (e.g. --env SLASH_COMMAND_TOOL_CHAR_BUDGET=N for a budget)"
    ]
