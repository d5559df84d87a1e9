"""Why each skill is where it is in a listing: the status and the rule behind it.

``render --explain`` prints these; they name the profile's rule rather than restate the
status, so a user can tell a budget cut from a loader decision or a profile setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, NamedTuple

from skillbench.catalog import Catalog
from skillbench.listing._profile import PROFILES
from skillbench.listing._types import Listing

Fate = Literal[
    "full", "truncated", "name_only", "dropped", "disabled", "inactive", "hidden", "overridden"
]
"""A listing status, or ``overridden`` for a skill the loader set aside for another."""

_PATHS = {
    "cwd": "paths globs match no file in the working directory",
    "touched": "paths skill: listed only after the session touches a matching file",
}


class Explanation(NamedTuple):
    """One skill's fate: name, source, status, 0-based position (None: not shown) and why."""

    name: str
    source: str
    fate: Fate
    position: int | None
    why: str


def explain(
    listing: Listing, catalog: Catalog, options: Mapping[str, Any] | None = None
) -> list[Explanation]:
    """Every skill of ``catalog`` (winners in listing order, then the overridden ones);
    ``options`` are the profile options the listing was rendered with."""
    profile = PROFILES.get(listing.profile)
    rules = profile.make_renderer(options).rules
    paths_rule = _PATHS.get(profile.precedence.paths, "")
    out: list[Explanation] = []
    for e in listing.entries:
        if e.status == "full":
            why = "shown in full"
        elif e.status == "disabled":
            why = "disable-model-invocation: only the user may call it"
        elif e.status == "inactive":
            why = paths_rule
        elif e.status == "hidden":
            why = e.reason
        else:
            why = rules.get(e.status, e.status)
        out.append(Explanation(e.name, e.skill.source, e.status, e.position, why))
    out.extend(
        Explanation(o.loser.name, o.loser.source, "overridden", None, o.reason)
        for o in catalog.overrides
    )
    return out
