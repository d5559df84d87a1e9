"""Frontmatter keys, value shapes and every on-disk format map onto Skill fields."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.catalog import SourceSpec, load_catalog, parse_source_arg

FULL = """\
---
name: deploy
description: Ship it.
when-to-use: When the user says ship.
argument-hint: "[env]"
arguments: env region
context: FORK
agent: Explore
model: sonnet
effort: high
allowed_tools: Read, Bash(git add:*) Grep
paths: ["src/**/*.py", "*.toml"]
user-invocable: "no"
disable_model_invocation: false
aliases: [ship, release]
version: 1.0
tags: ops, release
trigger_keywords: [deploy, ship]
priority: 90
side_effects: true
permission: network
parameters: {type: object}
dependencies: [build]
license: MIT
metadata: {author: someone}
---
Body text.
"""


def test_every_frontmatter_key(tmp_path: Path) -> None:
    (tmp_path / "deploy").mkdir()
    (tmp_path / "deploy" / "SKILL.md").write_text(FULL)
    catalog = load_catalog([str(tmp_path)])
    assert not catalog.diagnostics
    s = catalog.get("deploy")
    assert s is not None
    assert (s.when_to_use, s.argument_hint, s.arguments) == (
        "When the user says ship.",
        "[env]",
        ("env", "region"),
    )
    assert (s.context, s.agent, s.model, s.effort) == ("fork", "Explore", "sonnet", "high")
    assert s.allowed_tools == ("Read", "Bash(git add:*)", "Grep")
    assert s.paths == ("src/**/*.py", "*.toml")
    assert (s.user_invocable, s.disable_model_invocation) == (False, False)
    assert (s.aliases, s.version, s.tags) == (("ship", "release"), "1.0", ("ops", "release"))
    assert (s.trigger_keywords, s.priority, s.side_effects) == (
        ("deploy", "ship"),
        90,
        ("unspecified",),
    )
    assert (s.permission, s.parameters, s.dependencies) == (
        "network",
        {"type": "object"},
        ("build",),
    )
    assert s.body == "Body text.\n"
    assert catalog.get("Ship") is s and catalog.get("RELEASE") is s


def test_context_other_than_fork_is_inline(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("---\ndescription: x\ncontext: sub-agent\n---\n")
    assert load_catalog([f"bundled={tmp_path}"]).skills[0].context == "inline"


def test_flat_markdown_names_and_fallback(tmp_path: Path) -> None:
    (tmp_path / "review.md").write_text("---\ndescription: Review code.\n---\n# Heading\n")
    (tmp_path / "plain.md").write_text("# Code Helper\n\nHelps with\ncode.\n\n## More\n")
    (tmp_path / "bare.md").write_text("just one line without heading " * 10)
    (tmp_path / "README.md").write_text("# Not a skill\n")
    catalog = load_catalog([f"bundled={tmp_path}"])
    assert catalog.names == ("bare", "Code Helper", "review")
    assert catalog.get("code-helper").description == "Helps with code."  # type: ignore[union-attr]
    assert len(catalog.get("bare").description) == 200  # type: ignore[union-attr]
    assert not catalog.diagnostics


def test_heading_only_file_gets_template_description(tmp_path: Path) -> None:
    (tmp_path / "lonely").mkdir()
    (tmp_path / "lonely" / "SKILL.md").write_text("# Lonely\n")
    skill = load_catalog([str(tmp_path / "lonely" / "SKILL.md")]).skills[0]
    assert (skill.name, skill.description) == ("lonely", "Skill: lonely")


def test_skill_json_declarations(tmp_path: Path) -> None:
    decl = {
        "name": "web_fetch",
        "version": "1.0.0",
        "description": "Fetch a page.",
        "tags": ["web"],
        "trigger_keywords": ["url"],
        "priority": 50,
        "side_effects": False,
        "permission": "network",
        "timeout_seconds": 15,
        "parameters": {"type": "object", "required": ["url"]},
        "output_schema": {"type": "object"},
        "dependencies": [],
    }
    (tmp_path / "web_fetch").mkdir()
    (tmp_path / "web_fetch" / "skill.json").write_text(json.dumps(decl, indent=1))
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "skill.json").write_text('{"description": "Daily report.", "x": 1}')
    (tmp_path / "report" / "SKILL.md").write_text("---\nname: daily-report\n---\nSteps.\n")
    catalog = load_catalog([str(tmp_path)])
    fetch = catalog.get("web-fetch")
    assert fetch is not None and fetch.priority == 50 and fetch.side_effects == ()
    assert fetch.parameters == {"type": "object", "required": ["url"]}
    report = catalog.get("daily-report")
    assert report is not None
    assert (report.description, report.body) == ("Daily report.", "Steps.\n")
    [unknown] = catalog.diagnostics
    assert (Path(unknown.path).name, unknown.field, unknown.line) == ("skill.json", "x", 1)


def test_single_file_sources(tmp_path: Path) -> None:
    (tmp_path / "one.json").write_text('{"description": "From JSON."}')
    (tmp_path / "two.md").write_text("---\ndescription: From MD.\n---\n")
    catalog = load_catalog([str(tmp_path / "one.json"), f"user={tmp_path / 'two.md'}"])
    assert [(s.name, s.source) for s in catalog.skills] == [("two", "user"), ("one", "project")]


def test_parse_source_arg() -> None:
    assert parse_source_arg("./x") == SourceSpec("./x", "project")
    assert parse_source_arg("bundled=./x") == SourceSpec("./x", "bundled")
    assert parse_source_arg("./a=b/c") == SourceSpec("./a=b/c", "project")
    with pytest.raises(SkillbenchError, match="did you mean 'plugin'"):
        parse_source_arg("plugins=./x")
