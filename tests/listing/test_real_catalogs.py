"""The four public catalogs load and render under every profile without false overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from skillbench.catalog import load_catalog
from skillbench.listing import PROFILES, render_listing

CATALOGS = ["wshobson-agents", "superpowers", "mattpocock", "anthropics-skills"]


@pytest.mark.parametrize("catalog", CATALOGS)
@pytest.mark.parametrize("profile", PROFILES.names())
def test_loads_and_renders_without_false_overrides(
    shared_data: Path, catalog: str, profile: str
) -> None:
    root = shared_data / "catalogs" / catalog
    loaded = load_catalog([f"user={root}"], profile=profile)
    assert loaded.skills and loaded.overrides == ()
    assert len({s.name for s in loaded.skills}) == len(loaded.skills)
    listing = render_listing(loaded.skills, profile=profile, inactive=loaded.inactive)
    assert str(root) not in listing.text  # no checkout path leaks into a listing
    assert listing.shown_names
