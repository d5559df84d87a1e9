"""The claude-code profile against the shipped Claude Code: rendered listing == sent listing.

Each test captures one real turn of the installed CLI (offline, loopback model) and renders
the same sources with skillbench, using the snapshot the capture read from the agent itself.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from skillbench.agents import Capture, capture_agent
from skillbench.catalog import SourceSpec, load_catalog
from skillbench.listing import AgentSnapshot, render_listing
from tests.support.agents import needs_agent

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = ROOT.parent / "shared" / "data" / "catalogs"
DEVTOOLS = ROOT / "datasets" / "devtools" / "skills"
SHARED = ["superpowers", "mattpocock", "wshobson-agents", "anthropics-skills"]


@pytest.fixture(scope="module")
def snapshot() -> AgentSnapshot:
    """The agent's own text, read once for the module from a turn with no user skills (the
    tests using it are marked, so the CLI is there)."""
    own = capture_agent("claude-code").snapshot
    assert own is not None and own.builtin_skills
    return own


def _render(
    sources: list[SourceSpec],
    snapshot: AgentSnapshot,
    scores: Mapping[str, float] | None = None,
    **options: Any,
) -> str:
    catalog = load_catalog(sources, profile="claude-code")
    listing = render_listing(
        catalog.skills,
        profile="claude-code",
        ordering="claude-code",
        scores=scores or {},
        inactive=catalog.inactive,
        options={"snapshot": snapshot, **options},
    )
    return listing.text


def _same(capture: Capture, rendered: str) -> None:
    if rendered != capture.listing:
        at = next(
            (i for i, (a, b) in enumerate(zip(rendered, capture.listing, strict=False)) if a != b),
            min(len(rendered), len(capture.listing)),
        )
        pytest.fail(
            f"first difference at character {at}:\n"
            f"agent:      {capture.listing[max(0, at - 80) : at + 80]!r}\n"
            f"skillbench: {rendered[max(0, at - 80) : at + 80]!r}"
        )


def _capture(sources: list[SourceSpec], **kwargs: Any) -> Capture:
    return capture_agent("claude-code", sources, snapshot=False, **kwargs)


def _devtools_plugin(tmp_path: Path) -> Path:
    """The benchmark's plugin skills as a Claude Code plugin (a manifest names it)."""
    plugin = tmp_path / "devtools-plugin"
    shutil.copytree(DEVTOOLS / "plugin", plugin / "skills")
    (plugin / ".claude-plugin").mkdir()
    manifest = {"name": "devtools-plugin", "version": "1.0.0"}
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
    return plugin


def _devtools(tmp_path: Path) -> list[SourceSpec]:
    return [
        SourceSpec(str(DEVTOOLS / "user"), "user"),
        SourceSpec(str(DEVTOOLS / "project"), "project"),
        SourceSpec(str(_devtools_plugin(tmp_path)), "plugin"),
    ]


@needs_agent("claude-code")
def test_two_skills(snapshot: AgentSnapshot) -> None:
    sources = [
        SourceSpec(str(DEVTOOLS / "project" / "review"), "project"),
        SourceSpec(str(DEVTOOLS / "user" / "debug"), "user"),
    ]
    _same(_capture(sources), _render(sources, snapshot))


@needs_agent("claude-code")
@pytest.mark.parametrize("catalog", SHARED)
def test_each_shared_catalog(snapshot: AgentSnapshot, catalog: str) -> None:
    sources = [SourceSpec(str(CATALOGS / catalog), "project")]
    _same(_capture(sources), _render(sources, snapshot))


@needs_agent("claude-code")
def test_all_four_catalogs_overflow(snapshot: AgentSnapshot) -> None:
    """248 skills: past the budget most descriptions go, every name stays."""
    sources = [SourceSpec(str(CATALOGS / c), "project") for c in SHARED]
    capture = _capture(sources)
    names_only = [
        ln for ln in capture.listing.splitlines() if ln.startswith("- ") and ": " not in ln
    ]
    assert len(names_only) >= 100
    _same(capture, _render(sources, snapshot))


@needs_agent("claude-code")
def test_bundled_benchmark_over_user_project_and_plugin(
    snapshot: AgentSnapshot, tmp_path: Path
) -> None:
    sources = _devtools(tmp_path)
    capture = _capture(sources)
    assert "- devtools-plugin:k8s-manifest: " in capture.listing
    _same(capture, _render(sources, snapshot))


@needs_agent("claude-code")
@pytest.mark.parametrize("fraction", [0.003, 0.0035, 0.004])
def test_budget_fraction_and_usage_decide_which_descriptions_stay(
    snapshot: AgentSnapshot, tmp_path: Path, fraction: float
) -> None:
    """A fraction of the window small enough to overflow; a seeded usage history (used
    just now, so its score is the count) brings those skills' descriptions back first."""
    sources = _devtools(tmp_path)
    usage = {"changelog": 4, "devtools-plugin:k8s-manifest": 9, "security-review": 3}
    settings = {"skillListingBudgetFraction": fraction}
    plain = _capture(sources, settings=settings)
    _same(plain, _render(sources, snapshot, budget_fraction=fraction))
    used = _capture(sources, settings=settings, usage=usage)
    scores = {name: float(n) for name, n in usage.items()}
    _same(used, _render(sources, snapshot, scores, budget_fraction=fraction))


@needs_agent("claude-code")
def test_char_budget_variable_and_entry_cap(snapshot: AgentSnapshot) -> None:
    sources = [SourceSpec(str(CATALOGS / "superpowers"), "project")]
    capture = _capture(
        sources,
        env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": "2500"},
        settings={"skillListingMaxDescChars": 120},
    )
    _same(capture, _render(sources, snapshot, budget=2500, entry_cap=120))


@needs_agent("claude-code")
def test_an_older_model_has_a_200k_window_at_4_characters_a_token(
    snapshot: AgentSnapshot,
) -> None:
    sources = [SourceSpec(str(CATALOGS / "wshobson-agents"), "project")]
    capture = _capture(sources, model="claude-sonnet-4-6")
    rendered = _render(sources, snapshot, context_window=200_000, chars_per_token=4)
    _same(capture, rendered)


def _skill(root: Path, folder: str, front: str, body: str = "Body.\n") -> None:
    (root / folder).mkdir(parents=True)
    (root / folder / "SKILL.md").write_text(f"---\n{front}---\n{body}")


@needs_agent("claude-code")
def test_frontmatter_cases_overrides_and_a_renamed_plugin_skill(
    snapshot: AgentSnapshot, tmp_path: Path
) -> None:
    project, plugin = tmp_path / "project", tmp_path / "kit"
    _skill(project, "postgresql", "name: postgresql-table-design\ndescription: Tables.\n")
    _skill(project, "blank", "name: blank\n", "\n## Steps to follow\nMore.\n")
    _skill(project, "when-only", "name: when-only\nwhen_to_use: When asked.\n")
    _skill(project, "manual", "name: manual\ndescription: M.\ndisable-model-invocation: true\n")
    _skill(project, "typed", "name: typed\ndescription: T.\nuser-invocable: false\n")
    _skill(project, "quiet", "name: quiet\ndescription: Quiet.\n")
    _skill(project, "gone", "name: gone\ndescription: Gone.\n")
    _skill(project, "long", "name: long\ndescription: " + "word " * 400 + "\n")
    _skill(project, "joined", "name: joined\ndescription: Does.\nwhen_to_use: When.\n")
    (plugin / ".claude-plugin").mkdir(parents=True)
    (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": "kit"}))
    _skill(plugin / "skills", "fmt", "name: formatter\ndescription: Formats.\n")
    sources = [SourceSpec(str(project), "project"), SourceSpec(str(plugin), "plugin")]
    overrides = {"quiet": "name-only", "gone": "off"}
    capture = _capture(sources, settings={"skillOverrides": overrides})
    assert "- postgresql (postgresql-table-design): Tables." in capture.listing
    _same(capture, _render(sources, snapshot, skill_overrides=overrides))


@needs_agent("claude-code")
def test_a_name_of_any_length_follows_its_folder(snapshot: AgentSnapshot, tmp_path: Path) -> None:
    """A valid name over 64 characters is shown in parentheses; one with a space is not."""
    long = "x" * 70
    _skill(tmp_path, "mb", f"name: {long}\ndescription: Long.\n")
    _skill(tmp_path, "mc", f"name: {'u' * 200}\ndescription: Longer.\n")
    _skill(tmp_path, "md", f'name: "{"w" * 66} q"\ndescription: Spaced.\n')
    _skill(tmp_path, "me", f"name: {'y' * 64}\ndescription: Edge.\n")
    sources = [SourceSpec(str(tmp_path), "project")]
    capture = _capture(sources)
    assert f"- mb ({long}): Long." in capture.listing
    assert "- md: Spaced." in capture.listing
    _same(capture, _render(sources, snapshot))


@needs_agent("claude-code")
def test_text_rules_and_front_matter_it_cannot_read(
    snapshot: AgentSnapshot, tmp_path: Path
) -> None:
    """Invisible characters as spaces, ``<``/``>`` as entities, terminal escapes removed;
    front matter never closed, an unclosed flow or quote, a file without front matter."""
    files = {
        "za": 'name: za\ndescription: "a\u200bb end\u200b"\n',
        "zb": 'name: zb\ndescription: "a   b\\tc\u200b\u200bd\\e[1;31mred\\e[0m \u00a0e"\n',
        "zc": 'name: zc\ndescription: audit <b> lint #schema\nwhen_to_use: "w <i>\\tv"\n',
        "zd": "name: zd\ndescription: [alpha, beta\n",
        "ze": "name: ze\ndescription: {a: b\n",
        "zf": 'name: zf\ndescription: "unclosed\n',
    }
    for folder, front in files.items():
        _skill(tmp_path, folder, front, "\n# word\n\nBody <line>.\n")
    (tmp_path / "zg").mkdir()
    (tmp_path / "zg" / "SKILL.md").write_text("---\nname: zg\ndescription: x\n\n# T\n")
    (tmp_path / "zh").mkdir()
    (tmp_path / "zh" / "SKILL.md").write_text("  x\u200by \u200b  \n")
    sources = [SourceSpec(str(tmp_path), "project")]
    capture = _capture(sources)
    assert "- za: a b end \n" in capture.listing
    assert "- zc: audit &lt;b&gt; lint - w &lt;i&gt; v\n" in capture.listing
    _same(capture, _render(sources, snapshot))
