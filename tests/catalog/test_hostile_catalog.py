"""The hostile catalog corpus: no traceback, no hang, no lost good skill, no forged line.

Every case lays one hostile thing beside two healthy skills, then loads the folder under every
profile, renders every profile's listing and runs ``skillbench catalog`` (text and JSON).
"""

from __future__ import annotations

import json
import re
import unicodedata
from pathlib import Path

import pytest

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import PRECEDENCE, Catalog, clear_paths_cache, load_catalog
from skillbench.cli._main import main
from skillbench.listing import element_pattern, render_listing
from tests.catalog.hostile_corpus import CASES, FORGED, Case, front, skill

pytestmark = pytest.mark.timeout(20)

GOOD = ("good-one", "good-two")
IDS = [case.id for case in CASES]


def _build(tmp_path: Path, case: Case) -> tuple[list[str], Path]:
    root = tmp_path / "skills"
    root.mkdir()
    for name in GOOD:
        skill(root, name, front(name, f"The healthy skill {name}."))
    case.build(root)
    work = tmp_path / "work"
    (work / "src").mkdir(parents=True)
    (work / "src" / ("a" * 200)).write_text("")
    clear_paths_cache()
    return [str(root), *(str(p) for p in sorted(root.glob("*.jsonl")))], work


_DESCRIPTION = re.compile(r"<description>[^<]*</description>")


def _no_forged_lines(text: str, profile: str | None = None) -> None:
    """No line of ``text`` poses as an entry. Agents that list the YAML value as parsed
    (Qwen Code, opencode, Gemini CLI, Copilot CLI) keep a description's line breaks inside its
    ``<description>`` element, as they send it; a line there is the description's text, not
    an entry, so an intact element is read as one. An agent whose elements are lines
    (OpenHarness: ``- **folder**: text``; Deep Agents Code: ``- **name**: text`` and a
    ``-> Read`` line) sends those breaks too: what its listing format reads as one element's
    text is that text, however many lines it spans."""
    agent = (profile or "").split("@")[0]
    spec = AGENT_SPECS.get(agent) if agent in AGENT_SPECS else None
    element = spec.listing.element if spec is not None and spec.listing is not None else ""
    if spec is not None and spec.listing is not None and "{text}" in element:
        text = element_pattern(spec.listing).sub(
            lambda m: m.group(0)[: m.start("text") - m.start()] + "<text/>", text
        )
    for line in _DESCRIPTION.sub("<description/>", text).splitlines():
        assert not line.lstrip("-*#> ").startswith("FORGED"), line
    assert all(c.isprintable() or c == "\n" or _inert(c) for c in text), repr(text[:200])


def _inert(char: str) -> bool:
    """An invisible format character that neither breaks a line, reorders text nor spells
    hidden text (Codex lists a zero-width space as written, so its profile keeps it)."""
    bidi = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    tag = 0xE0000 <= ord(char) < 0xE0080
    return unicodedata.category(char) == "Cf" and char not in bidi and not tag


def test_corpus_size() -> None:
    """The corpus keeps at least 60 distinct cases."""
    assert len(CASES) >= 60 and len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_loads_the_good_skills_and_reports_the_bad(tmp_path: Path, case: Case) -> None:
    sources, work = _build(tmp_path, case)
    catalog = load_catalog(sources, profile=case.profile, cwd=work)
    assert sorted(catalog.names) == sorted({*GOOD, *case.loads}) or (
        case.profile == "codex" and set(GOOD) <= set(catalog.names)
    )
    reasons = [str(d) for d in catalog.diagnostics]
    if case.expect:
        assert any(case.expect in r for r in reasons), reasons
    else:
        assert not catalog.errors, reasons
    for skill_ in catalog.skills:
        for text in (skill_.name, skill_.description, skill_.when_to_use or "", skill_.path or ""):
            assert text.isprintable(), repr(text[:80])
            assert FORGED not in text or text.index(FORGED) > 0


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_renders_no_forged_line_under_any_profile(tmp_path: Path, case: Case) -> None:
    sources, work = _build(tmp_path, case)
    for profile in PRECEDENCE.names():
        catalog: Catalog = load_catalog(sources, profile=profile, cwd=work)
        assert set(GOOD) <= set(catalog.names), profile
        listing = render_listing(catalog.skills, profile=profile, inactive=catalog.inactive)
        _no_forged_lines(listing.text, profile)
        assert all(name in listing.text for name in GOOD)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_case_catalog_command_text_and_json(
    tmp_path: Path, case: Case, capsys: pytest.CaptureFixture[str]
) -> None:
    sources, _ = _build(tmp_path, case)
    assert main(["catalog", *sources, "--profile", case.profile]) == 0
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    _no_forged_lines(out)
    assert "\x1b" not in out + err
    assert main(["catalog", *sources, "--profile", case.profile, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    document = json.loads(out)
    assert {s["name"] for s in document["skills"]} >= set(GOOD)
    assert "Traceback" not in err
