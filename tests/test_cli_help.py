"""`skillbench --help` must stay fast: no heavy library is imported to build the parser."""

from __future__ import annotations

import subprocess
import sys

import pytest

HEAVY = ("torch", "litellm", "pandas", "matplotlib", "sentence_transformers")


def test_help_imports_no_heavy_library() -> None:
    code = (
        "import sys; from skillbench.cli._main import build_parser; build_parser();"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_every_subcommand_has_help() -> None:
    from skillbench.cli._main import SUBCOMMANDS, build_parser

    parser = build_parser()
    text = parser.format_help()
    for name in SUBCOMMANDS:
        assert name in text
    for name in SUBCOMMANDS:
        out = subprocess.run(
            [sys.executable, "-m", "skillbench", name, "--help"], capture_output=True, text=True
        )
        assert out.returncode == 0, (name, out.stderr)
        assert "usage: skillbench " + name in out.stdout


def test_help_does_not_import_the_report_stack() -> None:
    """``compare --help`` once pulled ``skillbench.report`` (and with it numpy) for one string."""
    code = (
        "import sys; from skillbench.cli._main import build_parser; build_parser();"
        "print(','.join(m for m in ('numpy', 'skillbench.report', 'skillbench.selectors')"
        " if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_bad_env_default_is_a_usage_error_not_a_crash(monkeypatch, capsys) -> None:
    """A bad ``SKILLBENCH_MAX_CONCURRENCY`` once raised ValueError while building the parser."""
    from skillbench.cli._main import build_parser

    monkeypatch.setenv("SKILLBENCH_MAX_CONCURRENCY", "abc")
    parser = build_parser()
    assert parser.parse_args(["run", "x.yaml", "-j", "3"]).max_concurrency == 3
    with pytest.raises(SystemExit) as exc:
        parser.parse_args(["run", "x.yaml"])
    assert exc.value.code == 2
    assert "invalid int value: 'abc'" in capsys.readouterr().err
