"""The skill-pack fixture captured from both agents: what each lists equals skillbench's render.

datasets/skill-pack holds every loading shape the agents decide on (names with ``/``, ``:``,
capitals and ``_``; a name unlike its folder; a pack with skills nested at depth 2 and 3; a
plain folder holding skills at depth 2 and 3; one name in two scopes and twice in one scope;
linked skill folders, in and out of the scope; a description strict YAML rejects). The lines
asserted here were read from the agents' own captures.
"""

from __future__ import annotations

from pathlib import Path

from skillbench.agents import agent_fidelity
from tests.support.agents import needs_agent

PACK = Path(__file__).resolve().parents[2] / "datasets" / "skill-pack"
SOURCES = [f"project={PACK / 'project'}", f"user={PACK / 'user'}"]


def _entries(listing: str) -> list[str]:
    return [line for line in listing.splitlines() if line.startswith("- ")]


@needs_agent("claude-code")
def test_claude_code_lists_the_pack_as_skillbench_renders_it() -> None:
    result = agent_fidelity("claude-code", SOURCES)
    assert result.identical, "\n".join(result.lines)
    entries = _entries(result.listing)
    android = (
        "- android: Builds the contact-center widget for an Android app (a name with a slash)."
    )
    assert android in entries
    assert any(e.startswith("- lint-colon (tools:lint): ") for e in entries)
    assert any(e.startswith("- capital-name (Capital-Name): ") for e in entries)
    assert any(e.startswith("- dup-a (twice): ") for e in entries)
    assert any(e.startswith("- dup-b: ") for e in entries)
    assert any(e.startswith("- alias-link (snake_case_skill): ") for e in entries)
    assert not any("snake_case_skill:" in e for e in entries)
    assert not any("nested at depth" in e for e in entries)
    assert [e for e in entries if "shared-name" in e] == [
        "- shared-name: User copy, checks a pull request against the user's own rules."
    ]
    assert any(e.startswith("- colon-description: Note: this description") for e in entries)


@needs_agent("codex")
def test_codex_lists_the_pack_as_skillbench_renders_it() -> None:
    result = agent_fidelity("codex", SOURCES)
    assert result.identical, "\n".join(result.lines)
    entries = _entries(result.listing)
    names = [e[2:].split(": ", 1)[0] for e in entries]
    for name in ("contact-center/android", "tools:lint", "Capital-Name", "snake_case_skill"):
        assert name in names
    assert names.count("twice") == 2 and names.count("shared-name") == 2
    assert any("(file: r2/meeting-kit/android/compose/SKILL.md)" in e for e in entries)
    assert any("(file: r2/icons/SKILL.md)" in e for e in entries)
    assert any(e.endswith("(file: r2/alias-link/SKILL.md)") for e in entries)


def test_the_pack_keeps_its_links() -> None:
    """Git keeps the fixture's links; without them the linked shapes are not tested."""
    links = sorted(str(p.relative_to(PACK)) for p in PACK.rglob("*") if p.is_symlink())
    assert links == ["project/alias-link", "project/linked-skill", "user/user-linked"]
