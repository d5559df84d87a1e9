"""A seventh agent from its record alone: a plugin module registers an ``AgentSpec`` and
nothing else, and the agent renders, captures against its (stub) CLI, appears in ``agents``,
``render --profile all`` and lint, and the completeness check names what its docs lack.

The stub CLI is written here: it reads its skills folders itself, builds its listing with
its own code (not skillbench's), posts one OpenAI chat request to its endpoint and prints the
answer. The expected listing is written out by hand.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.plugins.toy_plugin import pip_install, write_package

REPO = Path(__file__).resolve().parents[2]

SPEC = """\
from skillbench.agentspec import (
    AgentSpec, Launch, ListingFormat, Live, Locator, Package, Release, SkillFolder, Wire,
    register_agent,
)
from skillbench.catalog import Precedence

SEVENTH = register_agent(
    AgentSpec(
        name="seventh",
        title="Seventh Agent",
        package=Package("npm", "seventh-agent", "seventh"),
        releases=(Release("1.0.0", "captured by its test", pinned=True),),
        folders=(
            SkillFolder("project", ".seventh/skills", install=True),
            SkillFolder("user", "~/.seventh/skills", install=True),
        ),
        loading=Precedence(
            "seventh", ("project", "user"), False, "seventh: first found wins", depth=1
        ),
        wire=Wire("openai-chat", Locator("system", "<skills>", "</skills>"), "system"),
        launch=Launch(argv=("$executable", "--print", "$prompt"), env={"SEVENTH_URL": "$base_url"}),
        listing=ListingFormat(
            element='<skill name="{name}">{text}</skill>',
            wrapper="<skills>\\n{elements}\\n</skills>",
            escape="xml",
            text_from="stripped",
        ),
        live=Live("use_skill", "name"),
        summary="every skill by name, no budget",
    )
)
"""

STUB = """\
import json, os, sys, urllib.request
from pathlib import Path

if sys.argv[1:] == ["--version"]:
    print("seventh 1.0.0")
    sys.exit(0)
prompt = sys.argv[sys.argv.index("--print") + 1]
skills = {}
for root in (Path(".seventh/skills"), Path(os.environ["HOME"]) / ".seventh/skills"):
    for folder in sorted(root.iterdir()) if root.is_dir() else []:
        text = (folder / "SKILL.md").read_text()
        meta = dict(
            line.split(": ", 1) for line in text.split("---")[1].strip().splitlines()
        )
        skills.setdefault(meta["name"], meta["description"].strip())
def esc(s):
    for a, b in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("'", "&apos;")):
        s = s.replace(a, b)
    return s
elements = [f'<skill name="{esc(n)}">{esc(d)}</skill>' for n, d in sorted(skills.items())]
listing = "<skills>\\n" + "\\n".join(elements) + "\\n</skills>"
body = {"model": "seventh", "stream": False, "messages": [
    {"role": "system", "content": "You are Seventh.\\n" + listing},
    {"role": "user", "content": prompt},
]}
request = urllib.request.Request(
    os.environ["SEVENTH_URL"] + "/v1/chat/completions",
    data=json.dumps(body).encode(), headers={"content-type": "application/json"},
)
answer = json.load(urllib.request.urlopen(request, timeout=30))
print(answer["choices"][0]["message"]["content"])
"""

EXPECTED = (
    "<skills>\n"
    '<skill name="alpha">Reads &lt;CSV&gt; files &amp; tables.</skill>\n'
    '<skill name="beta">Writes the team&apos;s notes.</skill>\n'
    "</skills>"
)
"""The two skills below as the seventh agent lists them, written by hand."""


@pytest.fixture(scope="module")
def seventh(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The plugin installed, the stub CLI on disk: the environment that runs both."""
    root = tmp_path_factory.mktemp("seventh")
    project = write_package(
        root, "skillbench_seventh", 'seventh = "skillbench_seventh"', {"__init__.py": SPEC}
    )
    site = root / "site"
    pip_install(project, site)
    stub = root / "seventh"
    stub.write_text(f"#!{sys.executable}\n{STUB}", encoding="utf-8")
    stub.chmod(stub.stat().st_mode | stat.S_IEXEC)
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), str(site)]),
        "SKILLBENCH_SEVENTH_BIN": str(stub),
    }


@pytest.fixture(scope="module")
def skills(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("catalog") / "skills"
    for name, description in (
        ("beta", "Writes the team's notes."),
        ("alpha", "Reads <CSV> files & tables."),
    ):
        (folder / name).mkdir(parents=True)
        (folder / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nBody.\n", encoding="utf-8"
        )
    return folder


def _run(
    env: dict[str, str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "skillbench", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_it_renders_as_its_record_says(seventh: dict[str, str], skills: Path) -> None:
    done = _run(seventh, "render", f"project={skills}", "--profile", "seventh", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stdout == EXPECTED + "\n"


def test_the_stub_cli_is_captured_and_matches(
    seventh: dict[str, str], skills: Path, tmp_path: Path
) -> None:
    done = _run(seventh, "capture", "seventh", f"project={skills}", "-o", str(tmp_path / "cap"))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cap" / "listing.txt").read_text(encoding="utf-8") == EXPECTED
    agent = json.loads((tmp_path / "cap" / "agent.json").read_text(encoding="utf-8"))
    assert agent["version"] == "1.0.0" and agent["notes"] == []
    done = _run(seventh, "fidelity", "--agent", "seventh", f"project={skills}")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "identical" in done.stdout


def test_agents_lists_it_installed_and_verified(seventh: dict[str, str]) -> None:
    done = _run(seventh, "agents", "--agent", "seventh", "--format", "json")
    assert done.returncode == 0, done.stderr
    (row,) = json.loads(done.stdout)
    assert row["pinned"] == "1.0.0"
    assert [i["version"] for i in row["installed"] if i["verified"]] == ["1.0.0"]


def test_render_all_and_lint_include_it(
    seventh: dict[str, str], skills: Path, tmp_path: Path
) -> None:
    done = _run(seventh, "render", f"project={skills}", "--profile", "all", "--format", "json")
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)["agents"]
    assert [r["counts"]["full"] for r in rows if r["profile"] == "seventh"] == [2]
    elsewhere = tmp_path / "repo" / ".claude" / "skills"
    (elsewhere / "alpha").mkdir(parents=True)
    (elsewhere / "alpha" / "SKILL.md").write_text(
        "---\nname: alpha\ndescription: Reads files.\n---\nBody.\n", encoding="utf-8"
    )
    done = _run(seventh, "lint", f"project={elsewhere}", "--format", "json")
    assert "seventh" in done.stdout, done.stdout + done.stderr


def test_the_completeness_check_names_what_its_docs_lack(seventh: dict[str, str]) -> None:
    code = (
        "from skillbench.agentspec import AGENT_SPECS\n"
        "from tests.support.completeness import missing_pieces\n"
        "print('\\n'.join(missing_pieces(AGENT_SPECS.get('seventh'))))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=seventh,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "seventh: no docs page docs/profiles/seventh.md",
        "seventh: no row in the README's table of agents",
        "seventh: docs/agents.md does not name Seventh Agent",
    ]
