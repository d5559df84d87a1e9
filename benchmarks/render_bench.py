"""Renders per second of a 200-skill synthetic catalog under the ``usage`` ordering.

Between renders a few random skills are used, so the order changes every time. Two ways:
``ListingPlan.render`` (entries formatted once, only scored skills sorted, codebot stops at the
budget) and a naive loop (format and sort every skill, then lay out), both single core.
Rates use process CPU time, so a busy machine slows them less than wall time would.

    .venv/bin/python benchmarks/render_bench.py [--skills 200] [--seconds 2] [--profile codebot]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Mapping, Sequence

from skillbench.catalog import Skill, SourceKind
from skillbench.listing import Listing, ListingPlan, render_listing
from skillbench.listing._orderings import get_ordering
from skillbench.listing._renderer import make_renderer

WORDS = [
    "review",
    "refactor",
    "debug",
    "test",
    "deploy",
    "lint",
    "format",
    "migrate",
    "profile",
    "audit",
    "docs",
    "build",
]


def synthetic_catalog(n: int, rng: random.Random) -> list[Skill]:
    """``n`` skills with descriptions of 60-260 characters, some with ``when_to_use``."""
    sources: tuple[SourceKind, ...] = ("project", "user", "bundled", "plugin")
    skills = []
    for i in range(n):
        desc = " ".join(rng.choice(WORDS) for _ in range(rng.randint(8, 35)))
        when = " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 20)))
        skills.append(
            Skill(
                name=f"skill-{i:03d}-{rng.choice(WORDS)}",
                description=desc,
                when_to_use=when if rng.random() < 0.3 else None,
                argument_hint="[target]" if rng.random() < 0.2 else None,
                source=rng.choice(sources),
            )
        )
    return skills


def naive(skills: Sequence[Skill], profile: str) -> Callable[[Mapping[str, float]], Listing]:
    """Sort every skill and format every entry from scratch at each render."""
    renderer, ordering = make_renderer(profile), get_ordering("usage")

    def render(scores: Mapping[str, float]) -> Listing:
        perm = ordering.order(skills, scores, 0)
        entries = [renderer.entry(skills[i], i) for i in perm]
        layout = renderer.layout(entries, renderer.default_budget, scores)
        return Listing(profile, renderer.default_budget, layout.text, (), used=layout.used)

    return render


def rate(
    render: Callable[[Mapping[str, float]], Listing], names: list[str], seconds: float
) -> float:
    rng = random.Random(1)
    scores: dict[str, float] = {}
    n, start = 0, time.process_time()
    while (elapsed := time.process_time() - start) < seconds:
        for _ in range(100):
            for _ in range(3):  # a few uses between renders
                name = rng.choice(names)
                scores[name] = scores.get(name, 0.0) * 0.9 + rng.random()
            render(scores)
        n += 100
    return n / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--skills", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--profile", default="codebot")
    args = parser.parse_args()
    skills = synthetic_catalog(args.skills, random.Random(0))
    names = [s.name for s in skills]
    plan = ListingPlan(skills, profile=args.profile)
    check = {names[3]: 2.0, names[50]: 1.0}
    assert plan.render(check) == render_listing(skills, profile=args.profile, scores=check)
    fast = rate(plan.render, names, args.seconds)
    slow = rate(naive(skills, args.profile), names, args.seconds)
    shown = len(plan.render(check).shown_names)
    print(f"profile={args.profile} skills={args.skills} shown={shown}")
    print(f"ListingPlan: {fast:>10,.0f} renders/s")
    print(f"naive loop:  {slow:>10,.0f} renders/s  (speed-up {fast / slow:.1f}x)")


if __name__ == "__main__":
    main()
