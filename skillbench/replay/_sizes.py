"""The catalog-size sweep: nested catalogs of anchors plus distractors, per size and mode.

Every catalog of the sweep keeps the **anchors**, the skills the replayed requests expect, so
a request can be answered at every size; the rest of each catalog is **distractors**. Each
mode draws one seeded ordering of the non-anchor skills and each size takes a prefix of it,
so the catalogs are nested (the 50-skill catalog holds the 25-skill one) and two sizes
differ only by the distractors added between them.

- ``random``: a seeded permutation, the crowd alone (context dilution);
- ``nearest``: non-anchors by their largest embedding cosine to any anchor, the look-alikes
  first (dilution plus shadowing).

Sizes count the skills a listing may show, and distractors are drawn from those only: a
disabled skill in the catalog must not add to a size nor push a look-alike out.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Collection, Sequence
from typing import NamedTuple

import numpy as np

from skillbench.catalog import Catalog, Skill
from skillbench.dataset import LabelledRequest
from skillbench.listing import ListedSkill
from skillbench.selectors import entry_text
from skillbench.types import DistractorMode

Embed = Callable[[Sequence[str]], np.ndarray]
"""Unit-normalised embeddings of texts, one row per text (the selectors' shared embedder)."""


class SizedCatalog(NamedTuple):
    """One catalog of the sweep: its size, how it was filled and the catalog itself (size
    and mode ``None``: a run without a sweep, the whole catalog)."""

    size: int | None
    mode: DistractorMode | None
    catalog: Catalog


class SweepPlan(NamedTuple):
    """The sweep of one catalog variant: its catalogs and what was skipped, said aloud."""

    catalogs: list[SizedCatalog]
    notes: list[str]


def anchor_requests(
    requests: Sequence[LabelledRequest], count: int | None, seed: int
) -> tuple[list[LabelledRequest], list[str]]:
    """The requests to replay and the notes on them, for ``anchors: count``.

    Without ``count`` every request is kept, so the anchors are every expected skill. With it,
    ``count`` expected skills are drawn (seeded) and only the requests whose expected skills
    are all among them are kept, with every request that expects none: a catalog with many
    expected skills still leaves room for distractors.
    """
    names = sorted({name for r in requests for name in r.expected})
    if count is None or count >= len(names):
        return list(requests), []
    random.Random(f"skillbench-anchors-{seed}").shuffle(names)
    chosen = set(names[:count])
    kept = [r for r in requests if set(r.expected) <= chosen]
    note = (
        f"anchors: {count} of the {len(names)} expected skills drawn (seed {seed}); "
        f"{len(kept)} of {len(requests)} requests expect only those (or nothing) and are replayed"
    )
    return kept, [note]


def listing_text(skill: Skill) -> str:
    """A skill's text as a full listing entry shows it (what an embedding selector reads)."""
    entry = ListedSkill(skill, "full", 0, 0, skill.description, skill.when_to_use)
    return entry_text(entry)


def distractor_order(
    pool: Sequence[Skill],
    anchors: Sequence[Skill],
    mode: DistractorMode,
    seed: int,
    embed: Embed,
) -> list[int]:
    """Positions in ``pool`` (the candidate distractors) in the order ``mode`` adds them,
    ties broken by name, then path (``nearest`` without anchors: that order alone)."""
    rest = sorted(range(len(pool)), key=lambda i: (pool[i].name, pool[i].path or ""))
    if mode == "random":
        random.Random(f"skillbench-distractors-{seed}").shuffle(rest)
        return rest
    if not rest or not anchors:
        return rest
    texts = [listing_text(s) for s in [*anchors, *(pool[i] for i in rest)]]
    vectors = embed(texts).astype(np.float64)
    nearest = (vectors[len(anchors) :] @ vectors[: len(anchors)].T).max(axis=1)
    ranked = sorted(range(len(rest)), key=lambda k: -round(float(nearest[k]), 6))
    return [rest[k] for k in ranked]


def plan_sizes(
    catalog: Catalog,
    label: str,
    requests: Sequence[LabelledRequest],
    sizes: Sequence[int | str],
    modes: Sequence[DistractorMode],
    seed: int,
    embed: Embed,
    listable: Collection[int],
) -> SweepPlan:
    """The nested catalogs of ``catalog`` (variant ``label``) for each size and mode.

    ``listable`` are the catalog indices of the skills the profile may list: a size counts
    those (anchors the profile would not list are kept but not counted) and distractors are
    drawn from them, so a catalog of size n lists n skills whatever its disabled, hidden or
    inactive skills; those are left out of every sized catalog. ``all`` is every listable
    skill; a size past it is the whole catalog too and a size smaller than the anchors cannot
    keep them: both are skipped with a note rather than run twice or run without the skills
    the requests expect.
    """
    skills = catalog.skills
    names = frozenset(
        skill.name for r in requests for name in r.expected if (skill := catalog.get(name))
    )
    anchors = [i for i, s in enumerate(skills) if s.name in names]
    pool = [i for i in sorted(listable) if skills[i].name not in names]
    counted = sum(1 for i in anchors if i in listable)
    total, notes = counted + len(pool), []
    unlisted = "" if counted == len(anchors) else f", {counted} of them listed"
    wanted: list[int] = []
    for size in sizes:
        n = total if size == "all" else int(size)
        if n < counted:
            notes.append(
                f"catalog {label}: size {size} skipped: the requests expect {len(names)} skills"
                f"{unlisted}, which every catalog of the sweep keeps (set anchors: to fewer to "
                "sweep it)"
            )
        elif n > total:
            notes.append(
                f"catalog {label}: size {size} skipped: the catalog lists only {total} skills "
                "(size all)"
            )
        elif n not in wanted:
            wanted.append(n)
    out: list[SizedCatalog] = []
    anchor_skills = [skills[i] for i in anchors]
    for mode in modes:
        order = distractor_order([skills[i] for i in pool], anchor_skills, mode, seed, embed)
        for n in sorted(wanted):
            keep = sorted([*anchors, *(pool[k] for k in order[: n - counted])])
            sized = dataclasses.replace(catalog, skills=tuple(skills[i] for i in keep))
            out.append(SizedCatalog(n, mode, sized))
    return SweepPlan(out, notes)
