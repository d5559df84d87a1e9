"""Shell completion: the bash script, loaded in a real bash, completes what the parser accepts."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from skillbench.cli._main import SUBCOMMANDS


def _script(shell: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", "completion", shell],
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def _complete(script: str, *words: str) -> list[str]:
    """COMPREPLY of ``_skillbench`` for the command line ``words`` (the last is the cursor's)."""
    quoted = " ".join(f"'{w}'" for w in words)
    program = (
        f"{script}\n"
        f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _skillbench; "
        'printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", program], capture_output=True, text=True, check=True)
    return [line for line in done.stdout.splitlines() if line]


@pytest.fixture(scope="module")
def bash() -> str:
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    return _script("bash")


def test_subcommands(bash: str) -> None:
    assert _complete(bash, "skillbench", "") == [*SUBCOMMANDS, "--help", "--version"]
    assert _complete(bash, "skillbench", "co") == ["compare", "cost", "completion"]


def test_flags_of_a_subcommand(bash: str) -> None:
    assert _complete(bash, "skillbench", "eval", "--min") == ["--min-pass-rate"]
    assert set(_complete(bash, "skillbench", "check", "--m")) == {
        "--metric",
        "--max-drop",
        "--min-accuracy",
        "--max-false-invocation-rate",
        "--min",
        "--max",
    }


def test_choices_of_a_flag(bash: str) -> None:
    assert _complete(bash, "skillbench", "eval", "--format", "") == ["text", "json", "github"]
    assert _complete(bash, "skillbench", "completion", "") == ["bash", "zsh", "fish"]
    assert _complete(bash, "skillbench", "eval", "--selector", "l") == ["lexical"]


def test_other_arguments_complete_file_names(bash: str, tmp_path) -> None:
    (tmp_path / "skills-one").mkdir()
    program_words = ("skillbench", "eval", str(tmp_path / "skills-"))
    assert _complete(bash, *program_words) == [str(tmp_path / "skills-one")]


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_parse(shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"{shell} is not installed")
    done = subprocess.run([shell, "-n"], input=_script(shell), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_zsh_and_fish_name_every_subcommand() -> None:
    for shell in ("zsh", "fish"):
        script = _script(shell)
        for name in SUBCOMMANDS:
            assert name in script
