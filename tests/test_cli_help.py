"""`skillbench --help` must stay fast: no heavy library is imported to build the parser."""

from __future__ import annotations

import subprocess
import sys

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
