"""Today's listing of one profile, and the same listing week by week as usage decays."""

from __future__ import annotations

from datetime import datetime, timedelta

from skillbench.planner._knobs import Derivation
from skillbench.planner._records import Budget, Step, Today
from skillbench.planner._setup import Setup, ShownEntry, counts
from skillbench.usage import UsageTracker

WEEK = timedelta(days=7)


def budget_record(derivation: Derivation) -> Budget:
    return Budget(
        value=derivation.budget,
        unit=derivation.unit,
        how=derivation.how,
        window=derivation.window,
    )


def today(
    setup: Setup,
    derivation: Derivation,
    scores: dict[str, float],
    *,
    tokenizer: str,
    turns: int,
) -> Today:
    """The listing at the profile's default budget under ``scores``: every skill's fate,
    its tokens per turn and per session of ``turns`` turns (the listing is sent with each
    turn's input), and its share of the model's window."""
    from skillbench.tokens import count_tokens

    listing = setup.render(None, scores)
    fates = setup.fates(listing)
    tokens = count_tokens(listing.text, tokenizer)
    window = derivation.window
    return Today(
        budget=budget_record(derivation),
        used=listing.used,
        listing_chars=listing.chars,
        tokens_per_turn=tokens,
        tokenizer=tokenizer,
        turns=turns,
        tokens_per_session=tokens * turns,
        window_share=round(tokens / window, 6) if window else None,
        counts=counts(fates),
        skills=fates,
    )


def timeline(setup: Setup, tracker: UsageTracker | None, now: datetime, weeks: int) -> list[Step]:
    """The listing at day 0, 7, … ``7 × weeks`` with no new use: counts, the skills shown
    by name only, and which fell to name only or came back since the step before (scores
    equal to the step before's give its listing again)."""
    steps: list[Step] = []
    before: set[str] = set()
    last: tuple[dict[str, float], list[ShownEntry]] | None = None
    for week in range(weeks + 1):
        scores = tracker.scores(now + week * WEEK) if tracker is not None else {}
        if last is None or last[0] != scores:
            last = (scores, setup.shown(None, scores))
        shown = last[1]
        name_only = {e.name for e in shown if e.status == "name_only"}
        steps.append(
            Step(
                day=7 * week,
                counts=setup.tally(shown),
                name_only=sorted(name_only),
                fell=sorted(name_only - before) if week else [],
                restored=sorted(before - name_only) if week else [],
            )
        )
        before = name_only
    return steps
