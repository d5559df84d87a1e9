"""``plan`` against the shipped agents: the skills it predicts each agent shows by name only
and leaves out are those the agent's own request shows so, and its "fits" value and trim
plan hold when the agent is run with them.

Each capture is one offline turn of the installed CLI against a loopback model; the sets are
read from the captured listing with a parser written here from the listing's format, not
from skillbench's renderer.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from skillbench.agents import AGENTS, Capture, capture_agent
from skillbench.catalog import Catalog, SourceSpec, load_catalog
from skillbench.cli import main
from skillbench.listing import PROFILES, AgentSnapshot, RenderOptions, save_snapshot
from skillbench.planner import PlanOptions, Setup, derive, plan_catalog, what_fits
from tests.support.agents import needs_agent, require_agent

CLAUDE = f"claude-code@{AGENTS.get('claude-code').pinned_version}"
CODEX = f"codex@{AGENTS.get('codex').pinned_version}"
"""The pinned releases the tests capture: predictions use their rules and snapshots."""
CATALOGS = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "catalogs"
SHARED = ["superpowers", "mattpocock", "wshobson-agents", "anthropics-skills"]
CLAUDE_LINE = re.compile(r"^- (?P<name>[^\s:(]+(?::[^\s:(]+)?)(?: \([^)]*\))?(?P<text>: .*)?$")
CODEX_LINE = re.compile(r"^- (?P<name>[^:]+): (?P<text>.*)\(file: (?P<file>[^)]*)\)$")
CODEX_ROOT = re.compile(r"^- `(?P<alias>r\d+)` = `(?P<root>[^`]*)`$")


def _sources(catalog: str) -> list[SourceSpec]:
    return [SourceSpec(str(CATALOGS if catalog == "all" else CATALOGS / catalog), "project")]


@pytest.fixture(scope="module")
def claude_snapshot() -> AgentSnapshot:
    require_agent("claude-code")
    own = capture_agent("claude-code").snapshot
    assert own is not None and own.builtin_skills
    return own


@pytest.fixture(scope="module")
def codex_snapshot() -> AgentSnapshot:
    require_agent("codex")
    own = capture_agent("codex").snapshot
    assert own is not None
    return own


def _folder(skill_path: str | None, name: str) -> str:
    """Claude Code lists a skill by its folder."""
    return Path(skill_path).parent.name if skill_path else name


def _claude_sets(capture: Capture, catalog: Catalog) -> tuple[set[str], set[str]]:
    """(listed by name only, not listed at all) among the catalog's skills, by folder."""
    named, bare = set(), set()
    for line in capture.listing.splitlines():
        m = CLAUDE_LINE.match(line)
        if m:
            named.add(m["name"])
            if m["text"] is None:
                bare.add(m["name"])
    folders = {_folder(s.path, s.name) for s in catalog.skills}
    return bare & folders, folders - named


def _codex_sets(capture: Capture, catalog: Catalog) -> tuple[set[str], set[str]]:
    """(listed by name only, left out) among the catalog's skills; Codex's own system
    skills (under the ``.system`` root) are set aside, one of them shares a catalog name."""
    lines = capture.listing.splitlines()
    system = tuple(
        f"{m['alias']}/"
        for line in lines
        if (m := CODEX_ROOT.match(line)) and m["root"].endswith("/.system")
    )
    listed, bare = set(), set()
    for line in lines:
        m = CODEX_LINE.match(line)
        if m and not m["file"].startswith(system or ("\0",)):
            listed.add(m["name"])
            if not m["text"].strip():
                bare.add(m["name"])
    names = {s.name for s in catalog.skills}
    return bare & names, names - listed


def _predicted(
    profile: str, catalog: Catalog, options: RenderOptions, folders: bool
) -> tuple[set[str], set[str]]:
    setup = Setup(catalog, PROFILES.get(profile), options)
    fates = setup.fates(setup.render(None))
    paths = {s.name: s.path for s in catalog.skills}

    def key(name: str) -> str:
        return _folder(paths[name], name) if folders else name

    bare = {key(f.name) for f in fates if f.fate == "name_only"}
    hidden = {key(f.name) for f in fates if f.fate == "hidden"}
    return bare, hidden


@needs_agent("claude-code")
@pytest.mark.parametrize("budget", [2500, 8000, None])
@pytest.mark.parametrize("catalog", [*SHARED, "all"])
def test_claude_code_name_only_and_hidden_sets(
    claude_snapshot: AgentSnapshot, catalog: str, budget: int | None
) -> None:
    sources = _sources(catalog)
    env = {} if budget is None else {"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(budget)}
    capture = capture_agent("claude-code", sources, env=env, snapshot=False)
    loaded = load_catalog(sources, profile=CLAUDE)
    options: RenderOptions = {"snapshot": claude_snapshot}
    if budget is not None:
        options["budget"] = budget
    predicted = _predicted(CLAUDE, loaded, options, folders=True)
    assert predicted == _claude_sets(capture, loaded)
    if budget == 2500:
        assert predicted[0], "a 2,500-character budget must cut some description"


@needs_agent("codex")
@pytest.mark.parametrize("window", [None, 100_000])
@pytest.mark.parametrize("catalog", [*SHARED, "all"])
def test_codex_name_only_and_hidden_sets(
    codex_snapshot: AgentSnapshot, catalog: str, window: int | None
) -> None:
    sources = _sources(catalog)
    settings = {} if window is None else {"model_context_window": window}
    capture = capture_agent("codex", sources, settings=settings, snapshot=False)
    loaded = load_catalog(sources, profile=CODEX)
    options = {**AGENTS.get("codex").render_options(capture), "snapshot": codex_snapshot}
    predicted = _predicted(CODEX, loaded, options, folders=False)
    assert predicted == _codex_sets(capture, loaded)


def _name_only_lines(listing: str) -> list[str]:
    return [
        line
        for line in listing.splitlines()
        if (m := CLAUDE_LINE.match(line)) is not None and m["text"] is None
    ]


@needs_agent("claude-code")
def test_the_fits_value_plan_prints_lists_every_description(
    claude_snapshot: AgentSnapshot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The SLASH_COMMAND_TOOL_CHAR_BUDGET value ``plan --format json`` prints for the four
    catalogs together: at it Claude Code lists every description, one below it does not."""
    import json

    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    save_snapshot(claude_snapshot)
    argv = ["plan", f"project={CATALOGS}", "--profile", CLAUDE, "--weeks", "0"]
    assert main([*argv, "--format", "json", "-q"]) == 0
    report = json.loads(capsys.readouterr().out)
    values = {v["setting"]: v["value"] for v in report["agents"][0]["fits"]["values"]}
    fit = int(values["SLASH_COMMAND_TOOL_CHAR_BUDGET"])
    assert fit > 30_000
    sources = _sources("all")
    env = {"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(fit)}
    at = capture_agent("claude-code", sources, env=env, snapshot=False)
    assert _name_only_lines(at.listing) == []
    env = {"SLASH_COMMAND_TOOL_CHAR_BUDGET": str(fit - 1)}
    below = capture_agent("claude-code", sources, env=env, snapshot=False)
    assert len(_name_only_lines(below.listing)) >= 1


@needs_agent("claude-code")
def test_the_trim_plan_fits_the_default_budget(
    claude_snapshot: AgentSnapshot, tmp_path: Path
) -> None:
    """The trimmed copy of the four catalogs, installed in Claude Code at its default budget
    (30,000 characters with the default model), lists every description in full; the
    catalog as it is does not."""
    sources = _sources("all")
    options = PlanOptions(
        profiles=(CLAUDE,), weeks=0, trim=True, extra={"snapshot": claude_snapshot}
    )
    planned = plan_catalog(sources, options, work=tmp_path / "work")
    trim = planned.report.agents[0].trim
    assert trim is not None and trim.fits and trim.edits
    copy = planned.copies[CLAUDE]
    trimmed = [SourceSpec(path, kind) for path, kind in copy.source_pairs()]  # type: ignore[arg-type]
    capture = capture_agent("claude-code", trimmed, snapshot=False)
    assert _name_only_lines(capture.listing) == []
    profile = PROFILES.get(CLAUDE)
    as_is = Setup(load_catalog(sources, profile=CLAUDE), profile, options.extra)
    assert not what_fits(as_is, derive(profile, options.extra)).fits_default
