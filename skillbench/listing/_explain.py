"""Why each skill is where it is in a listing: the status and the rule behind it.

``render --explain`` prints these; they name the profile's rule rather than restate the
status, so a user can tell a budget cut from a loader decision or a profile setting.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Literal, NamedTuple

from skillbench.catalog import Catalog
from skillbench.listing._profile import PROFILES
from skillbench.listing._renderer import RenderOptions
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
    listing: Listing, catalog: Catalog, options: RenderOptions | None = None
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


NotShownReason = Literal["budget", "inactive", "disabled", "hidden", "overridden", "not_loaded"]
"""Why an expected skill was missing from the listing a decision saw."""

NOT_SHOWN_REASONS: Mapping[NotShownReason, str] = {
    "budget": "cut by the budget",
    "inactive": "inactive `paths` skill",
    "disabled": "disabled (`disable-model-invocation`)",
    "hidden": "hidden by a profile rule",
    "overridden": "overridden by another skill of the same name",
    "not_loaded": "not loaded (no skill of that name in the catalog)",
}
"""Each reason as a table or legend names it."""


_STATUS_WHY: Mapping[NotShownReason, str] = {
    "inactive": "inactive: a `paths` skill no workspace file matches",
    "disabled": "disabled: `disable-model-invocation` keeps it out of every listing",
}


class NotShown(NamedTuple):
    """An expected skill the listing did not show: which, why (a ``NotShownReason``) and a
    sentence saying so with whatever detail the caller's facts allow."""

    skill: str
    reason: NotShownReason
    why: str


def why_not_shown(
    name: str,
    *,
    listing: Listing | None = None,
    statuses: Mapping[str, str] | None = None,
    loaded: Collection[str] | None = None,
    overridden: Mapping[str, str] | None = None,
    budget: int | None = None,
) -> NotShown:
    """Why the skill ``name`` was not in a listing.

    With the rendered ``listing`` (the viewer, ``render``) the entry itself answers, with the
    budget, the characters used and how many entries fit before the cut. Without it (a run
    directory's rows) the catalog facts answer: ``statuses`` (name → ``inactive`` or
    ``disabled`` for skills not active), ``loaded`` (every skill name the catalog holds),
    ``overridden`` (loser name → the loader's reason) and the listing's ``budget`` (``None``:
    the profile has none, so an active skill it left out was hidden by a profile rule).

    Raises:
        ValueError: ``listing`` shows ``name``.
    """
    entry = listing.entry(name) if listing is not None else None
    if entry is not None and entry.shown:
        raise ValueError(f"{name!r} was shown at position {entry.position}")
    if entry is not None and listing is not None:
        return _from_entry(name, entry.status, entry.chars, entry.reason, listing)
    overridden = overridden or {}
    if name in overridden:
        return NotShown(name, "overridden", f"overridden: {overridden[name]}")
    status = (statuses or {}).get(name)
    if status in ("inactive", "disabled"):
        reason: NotShownReason = "inactive" if status == "inactive" else "disabled"
        return NotShown(name, reason, _STATUS_WHY[reason])
    if listing is not None or (loaded is not None and name not in loaded):
        return NotShown(name, "not_loaded", NOT_SHOWN_REASONS["not_loaded"])
    if budget is None:
        return NotShown(name, "hidden", "hidden: the profile has no budget, so a rule left it out")
    return NotShown(name, "budget", f"cut by the budget of {budget:,} characters")


def _from_entry(name: str, status: str, chars: int, rule: str, listing: Listing) -> NotShown:
    if status == "dropped":
        budget = "" if listing.budget is None else f" of {listing.budget:,} characters"
        used = "" if listing.used is None else f", {listing.used:,} characters used"
        size = f" (its entry: {chars:,} characters)" if chars else ""
        shown = len(listing.shown_names)
        return NotShown(
            name,
            "budget",
            f"cut by the budget{budget}: it did not fit after the {shown} shown "
            f"entr{'y' if shown == 1 else 'ies'}{used}{size}",
        )
    if status in ("inactive", "disabled"):
        reason: NotShownReason = "inactive" if status == "inactive" else "disabled"
        return NotShown(name, reason, _STATUS_WHY[reason])
    return NotShown(name, "hidden", f"hidden: {rule or 'a profile rule never lists it'}")
