"""Every agent has everything a user meets: driver, profile per release, docs, README row,
portability folders; what is derived from its record is derived, not restated."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

import skillbench
from skillbench.agentspec import AGENT_SPECS, AgentSpec
from tests.support.completeness import REPO, missing_pieces

PACKAGE = Path(skillbench.__file__).parent


@pytest.mark.parametrize("name", AGENT_SPECS.names())
def test_every_agent_is_complete(name: str) -> None:
    assert missing_pieces(AGENT_SPECS.get(name)) == []


def test_a_missing_piece_is_named() -> None:
    """The check can fail: an agent whose docs page and README row do not exist."""
    found = missing_pieces(AGENT_SPECS.get("qwen-code"), REPO / "tests")
    assert "qwen-code: no docs page docs/profiles/qwen-code.md" in found
    assert "qwen-code: no row in the README's table of agents" in found


def test_every_record_module_registers_its_agent() -> None:
    """The package imports its modules without naming them: each record module (named
    after its agent) registered that agent."""
    modules = {p.stem for p in (PACKAGE / "agentspec").glob("_*.py")} - {
        "__init__",
        "_registry",
        "_types",
    }
    assert modules == {own_stem(s) for s in AGENT_SPECS.values()}


def test_ci_installs_what_the_records_pin() -> None:
    """`.ci/run` names no agent package: it installs `skillbench agents pins` (npm) and
    `skillbench agents pins --registry pypi` (one venv each)."""
    ci = (REPO / ".ci" / "run").read_text(encoding="utf-8")
    assert "skillbench agents pins" in ci and "agents pins --registry pypi" in ci
    assert [s.package.name for s in AGENT_SPECS.values() if s.package.name in ci] == []
    specs = [AGENT_SPECS.get(name) for name in AGENT_SPECS.names()]
    for registry in ("npm", "pypi"):
        done = subprocess.run(
            [sys.executable, "-m", "skillbench", "agents", "pins", "--registry", registry],
            capture_output=True,
            text=True,
            check=True,
        )
        pins = [s.package.pin(s.pinned.version) for s in specs if s.package.registry == registry]
        assert done.stdout.split() == pins
    assert "openharness-ai==0.1.9" in pins


def test_the_capture_help_names_every_agent_and_its_folders() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "skillbench", "capture", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    for spec in AGENT_SPECS.values():
        folder = next(f for f in spec.folders if f.install)
        assert re.search(rf"{re.escape(spec.name)}: .*{re.escape(folder.path)}", done.stdout)


def _top_level_classes() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                found.setdefault(node.name, []).append(str(path.relative_to(PACKAGE)))
    return found


def test_no_two_top_level_classes_share_a_name() -> None:
    shared = {name: paths for name, paths in _top_level_classes().items() if len(paths) > 1}
    assert shared == {}


def _modules_naming(words: tuple[str, ...]) -> list[str]:
    pattern = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    return sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if pattern.search(p.read_text(encoding="utf-8"))
    )


@pytest.mark.parametrize(
    "words",
    [("gemini",), ("copilot",), ("qwen",), ("opencode",), ("kilo",), ("openharness",)],
    ids=lambda w: w[0],
)
def test_an_agent_is_named_in_at_most_four_modules(words: tuple[str, ...]) -> None:
    """Its record, its own rules and a wire format only it speaks; nothing else names it."""
    assert len(_modules_naming(words)) <= 4, _modules_naming(words)


def spellings(spec: AgentSpec) -> tuple[str, ...]:
    """How code and prose write the agent: its name (``claude-code``), title (``Claude
    Code``) and identifiers (``claude_code``, ``CLAUDE_CODE``, ``ClaudeCode``)."""
    words = re.split(r"[-_ ]", spec.name)
    ident = "_".join(words)
    camel = "".join(w.capitalize() for w in words)
    return tuple(
        dict.fromkeys([spec.name, spec.title, spec.title.lower(), ident, ident.upper(), camel])
    )


def own_stem(spec: AgentSpec) -> str:
    """Its own modules are named ``_<identifier>…`` (``_codex.py``, ``_claude_code.py``)."""
    return "_" + spec.name.replace("-", "_")


def _names(spec: AgentSpec) -> re.Pattern[str]:
    """A spelling standing alone, not inside a longer word (``pi`` in ``pip``, ``PyPI`` or
    ``PIPE``); a capitalised one may open a longer identifier (``CodexRules``)."""
    either = "|".join(
        re.escape(s) + ("(?![A-Za-z0-9])" if s[-1].isupper() else "(?![a-z0-9])")
        for s in spellings(spec)
    )
    return re.compile(rf"(?<![A-Za-z0-9])(?:{either})")


def modules_naming(spec: AgentSpec, package: Path = PACKAGE) -> list[str]:
    """Every module of ``package`` that names ``spec``'s agent."""
    pattern = _names(spec)
    return sorted(
        str(p.relative_to(package))
        for p in package.rglob("*.py")
        if pattern.search(p.read_text(encoding="utf-8"))
    )


def strangers(spec: AgentSpec, package: Path = PACKAGE) -> list[str]:
    """Modules naming the agent that belong to no agent: an agent's own modules are named
    after it (one agent's record may build on another's, as Kilo Code's on opencode's)."""
    stems = tuple(own_stem(s) for s in AGENT_SPECS.values())
    return [m for m in modules_naming(spec, package) if not Path(m).stem.startswith(stems)]


OWN_MODULES = 4
"""Its record, its own capture and listing rules, a wire format only it speaks."""


@pytest.mark.parametrize("name", AGENT_SPECS.names())
def test_no_generic_module_names_an_agent(name: str) -> None:
    spec = AGENT_SPECS.get(name)
    assert strangers(spec) == []
    own = [m for m in modules_naming(spec) if Path(m).stem.startswith(own_stem(spec))]
    assert 1 <= len(own) <= OWN_MODULES, own


def test_a_generic_module_naming_an_agent_is_found(tmp_path: Path) -> None:
    """The check can fail: a generic module naming an agent in a docstring, an identifier
    or a string, and not in words that merely contain its name."""
    spec = AGENT_SPECS.get("pi")
    (tmp_path / "_pi_rules.py").write_text('"""Pi lists its skills."""\n', encoding="utf-8")
    (tmp_path / "_plan.py").write_text('"""As Pi does."""\n', encoding="utf-8")
    (tmp_path / "_knobs.py").write_text('PI_BUDGET = "pi"\n', encoding="utf-8")
    (tmp_path / "_deps.py").write_text('"""pip: PyPI, an api, PIPE."""\n', encoding="utf-8")
    assert strangers(spec, tmp_path) == ["_knobs.py", "_plan.py"]
