"""Codex live (the pinned 0.169.0): the codex profile's render equals the block Codex sends.

Each test lays a catalog out where Codex looks, runs one offline turn against the loopback
recorder and renders the same installed skills with the codex profile (the capture's folders
as the roots table's roots, its snapshot for Codex's system skills), byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.agents import agent_fidelity, capture_agent
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.cli import main
from skillbench.listing import save_snapshot
from tests.support.agents import needs_agent

SKILL = "---\nname: {name}\ndescription: {description}\n---\nBody of {name}.\n"
CATALOGS = ("superpowers", "mattpocock", "wshobson-agents", "anthropics-skills")
DEVTOOLS = Path(__file__).parents[2] / "datasets" / "devtools" / "skills"


def _skills(root: Path, **descriptions: str) -> Path:
    for name, description in descriptions.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(SKILL.format(name=name, description=description))
    return root


def _identical(sources: list[SourceSpec], **capture: object) -> str:
    result = agent_fidelity("codex", sources, **capture)
    assert result.version == "0.169.0"
    assert result.identical, "\n".join(result.lines[:20])
    assert not result.notes
    return result.listing


def _entries(listing: str) -> list[str]:
    return listing.split("### Available skills\n", 1)[1].splitlines()


@needs_agent("codex")
def test_two_skills(tmp_path: Path) -> None:
    skills = _skills(tmp_path / "s", **{"zeta-tool": "Zeta things.", "db-migrate": "Migrate."})
    listing = _identical([SourceSpec(str(skills), "project")])
    assert _entries(listing)[-3:] == [
        "- db-migrate: Migrate. (file: r1/db-migrate/SKILL.md)",
        "- zeta-tool: Zeta things. (file: r1/zeta-tool/SKILL.md)",
        "</skills_instructions>",
    ]


@needs_agent("codex")
def test_render_of_the_folder_prints_the_agents_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the capture's snapshot in the cache, ``render project=DIR`` prints every entry as
    Codex sent it: only the roots table names folders of this machine."""
    skills = _skills(tmp_path / "s", **{"pdf-tools": "PDF things.", "db-migrate": "Migrate."})
    cap = capture_agent("codex", [f"project={skills}"], workdir=tmp_path / "w")
    assert cap.snapshot is not None
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    save_snapshot(cap.snapshot)
    profile = f"codex@{cap.version}"
    assert main(["render", f"project={skills}", "--profile", profile, "-q"]) == 0
    rendered = capsys.readouterr().out.rstrip("\n")
    assert _entries(rendered) == _entries(cap.listing)
    assert "- `r0` = `~/.codex/skills/.system`\n- `r1` = `.agents/skills`\n" in rendered


@needs_agent("codex")
@pytest.mark.parametrize("name", CATALOGS)
def test_shared_catalog(shared_data: Path, name: str) -> None:
    _identical([SourceSpec(str(shared_data / "catalogs" / name), "project")])


@needs_agent("codex")
def test_all_four_catalogs_overflow_to_shared_descriptions(shared_data: Path) -> None:
    """Over 240 skills, each installed by its folder's name: their lines pass 5,440 tokens,
    so every skill stays listed with its description shared round-robin (none bare)."""
    sources = [SourceSpec(str(shared_data / "catalogs"), "project")]
    loaded = len(load_catalog(sources, profile="codex").skills)
    assert loaded >= 240
    entries = [line for line in _entries(_identical(sources)) if "(file: " in line]
    assert len(entries) >= loaded and not [e for e in entries if ": (file: " in e]


@needs_agent("codex")
def test_shared_descriptions_with_a_larger_window(shared_data: Path) -> None:
    """A 1,000,000-token window leaves 20,000 tokens: every skill, descriptions shared."""
    sources = [SourceSpec(str(shared_data / "catalogs"), "project")]
    listing = _identical(sources, settings={"model_context_window": 1_000_000})
    entries = [line for line in _entries(listing) if "(file: " in line]
    assert len(entries) == len(load_catalog(sources, profile="codex").skills) + 4
    assert any(": (file: " not in line for line in entries)


@needs_agent("codex")
def test_names_only_with_a_small_window(shared_data: Path) -> None:
    """A 100,000-token window leaves 2,000 tokens."""
    sources = [SourceSpec(str(shared_data / "catalogs" / "wshobson-agents"), "project")]
    _identical(sources, settings={"model_context_window": 100_000})


@needs_agent("codex")
def test_bundled_benchmark_over_project_user_and_plugin() -> None:
    _identical([SourceSpec(str(DEVTOOLS / kind), kind) for kind in ("project", "user", "plugin")])
