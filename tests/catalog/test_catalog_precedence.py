"""Who wins a name collision under each profile, and that every override is reported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from skillbench.catalog import PRECEDENCE, SourceSpec, load_catalog

WriteSkill = Callable[..., Path]

KINDS = ("plugin", "project", "bundled", "user")
"""Configured order on purpose different from every profile's kind order."""


@pytest.fixture
def sources(tmp_path: Path, write_skill: WriteSkill) -> list[SourceSpec]:
    specs = []
    for kind in KINDS:
        root = tmp_path / kind
        write_skill(root, "review", description=f"Review from {kind}.")
        write_skill(root, f"only-{kind}", description=f"Only in {kind}.")
        specs.append(SourceSpec(str(root), kind))  # type: ignore[arg-type]
    return specs


@pytest.mark.parametrize(
    ("profile", "winner", "order"),
    [
        ("codebot", "plugin", ("bundled", "user", "project", "plugin")),
        ("claude-code", "user", ("user", "project", "bundled", "plugin")),
        ("openharness", "plugin", ("bundled", "user", "project", "plugin")),
    ],
)
def test_profile_precedence(
    sources: list[SourceSpec], profile: str, winner: str, order: tuple[str, ...]
) -> None:
    catalog = load_catalog(sources, profile=profile)
    review = catalog.get("review")
    assert review is not None and review.source == winner
    assert review.description == f"Review from {winner}."
    assert len(catalog.skills) == 5
    assert len(catalog.overrides) == 3
    assert {o.loser.source for o in catalog.overrides} == set(KINDS) - {winner}
    assert {o.winner.key for o in catalog.overrides} == {"review"}
    assert catalog.overrides[-1].winner is review  # with later-wins, earlier winners lose later
    assert all(profile in o.reason for o in catalog.overrides)
    # catalog order: sources in scan order, the winner in the slot of the first sighting
    scan = [s.source for s in catalog.skills if s.name != "review"]
    assert tuple(scan) == order
    assert catalog.names[1] == "review"  # "only-…" sorts before "review" in the first source


def test_codex_keeps_same_named_skills_of_different_files(sources: list[SourceSpec]) -> None:
    catalog = load_catalog(sources, profile="codex")
    assert catalog.overrides == ()
    assert [s.source for s in catalog.skills if s.name == "review"] == [
        "project",
        "user",
        "plugin",
        "bundled",
    ]


@pytest.mark.parametrize("profile", ["codebot", "claude-code", "codex", "openharness"])
def test_argument_order_never_decides(sources: list[SourceSpec], profile: str) -> None:
    forward = load_catalog(sources, profile=profile)
    backward = load_catalog(sources[::-1], profile=profile)
    assert forward.skills == backward.skills
    assert [o.winner for o in forward.overrides] == [o.winner for o in backward.overrides]


def test_names_collide_after_normalisation(tmp_path: Path, write_skill: WriteSkill) -> None:
    """skill.json names are identifiers (``Code_Review``); they collide once normalised."""
    for folder, name in (("a/x", "Code_Review"), ("b/y", "code review")):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "skill.json").write_text(f'{{"name": "{name}", "description": "d"}}')
    catalog = load_catalog([str(tmp_path / "a"), str(tmp_path / "b")])
    assert catalog.names == ("code review",)
    assert catalog.overrides[0].loser.name == "Code_Review"


def test_same_directory_twice_is_deduped_by_real_path(
    tmp_path: Path, write_skill: WriteSkill
) -> None:
    write_skill(tmp_path / "real", "s")
    (tmp_path / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    catalog = load_catalog(
        [f"user={tmp_path / 'real'}", f"project={tmp_path / 'link'}"], profile="claude-code"
    )
    assert len(catalog.skills) == 1 and catalog.skills[0].source == "user"
    assert len(catalog.overrides) == 1


def test_rules_live_in_a_registry() -> None:
    assert PRECEDENCE.get("codex@0.169.0") is PRECEDENCE.get("codex")
    assert [n for n in PRECEDENCE.names() if "@" not in n] == [
        "claude-code",
        "codebot",
        "codex",
        "copilot-cli",
        "gemini-cli",
        "kilo-code",
        "opencode",
        "openharness",
        "pi",
        "qwen-code",
    ]
    assert PRECEDENCE.get("codex").order(["user", "bundled", "project"]) == [2, 0, 1]
    assert PRECEDENCE.get("codebot").order(["user", "bundled", "project"]) == [1, 0, 2]
