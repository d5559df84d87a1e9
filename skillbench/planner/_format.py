"""The plan for people: one document rendered as Markdown or as a self-contained HTML page
with the coverage curves (also written as PNGs)."""

from __future__ import annotations

from collections.abc import Sequence

from skillbench.planner._records import AgentPlan, Fits, PlanReport, Step, Trim
from skillbench.report import Bullets, Document, Heading, Para, Table
from skillbench.report._doc import Figure

JUDGED_HEADER = ("selector", "budget", "requests", "as is", "trimmed", "gain [95% CI]")
JUDGED_COUNTS = ("worse", "better", "p")
FATE_ROWS = 60
"""Skills listed per agent in the table of today's fates (the JSON holds them all)."""


def _n(value: int | None) -> str:
    return "-" if value is None else f"{value:,}"


def coverage_figure(plan: AgentPlan, draw: bool = True) -> Figure:
    """Share of skills in full and shown against the budget, the default budget marked."""
    fits = plan.fits
    budgets = [p.budget for p in fits.curve]
    values = {
        "full": [p.full for p in fits.curve],
        "shown": [p.shown for p in fits.curve],
        "budget": budgets,
    }
    caption = (
        f"{plan.profile}: every description fits from {fits.budget:,} {fits.unit}; the default "
        f"budget is {_n(fits.default_budget)} (dashed line)"
    )
    name = f"coverage-{plan.profile.replace('@', '-')}"
    title = f"Coverage against budget: {plan.profile}"
    if not draw or not budgets:
        return Figure(name, title, None, caption, values)
    from skillbench.report import png, pyplot, thousands

    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7, 3.6))
    ax.plot(budgets, values["shown"], label="shown at all", color="#1f77b4")
    ax.plot(budgets, values["full"], label="description in full", color="#ff7f0e")
    if fits.default_budget is not None:
        ax.axvline(fits.default_budget, color="#7f7f7f", linestyle="--", label="default budget")
    ax.axvline(fits.budget, color="#2ca02c", linestyle=":", label="everything fits")
    ax.set_xlabel(f"budget ({fits.unit})")
    ax.set_ylabel("share of listable skills")
    ax.set_ylim(-0.02, 1.02)
    thousands(ax.xaxis)
    ax.legend(loc="lower right", fontsize=8)
    fig.suptitle(caption, fontsize=8.5, x=0.01, ha="left")
    return Figure(name, title, png(fig), caption, values)


def _today(doc: Document, plan: AgentPlan) -> None:
    t = plan.today
    share = "" if t.window_share is None else f", {t.window_share:.2%} of the window"
    doc.add(
        Para(
            f"Budget: **{_n(t.budget.value)} {t.budget.unit}** ({t.budget.how}); used "
            f"{_n(t.used)}. The listing is {t.listing_chars:,} characters, "
            f"{t.tokens_per_turn:,} tokens per turn ({t.tokenizer}), "
            f"{t.tokens_per_session:,} over a session of {t.turns} turns{share}."
        ),
        Para(", ".join(f"{fate} {n}" for fate, n in t.counts.items())),
    )
    rows = [
        [
            f.name,
            f.fate if f.chars is None else f"cut to {f.chars}",
            "-" if f.position is None else str(f.position),
            f.reason,
            f.why,
        ]
        for f in t.skills
        if f.fate != "full"
    ]
    if rows:
        doc.add(
            Table(
                ["skill", "fate", "pos", "reason", "why"],
                rows[:FATE_ROWS],
                frozenset({2}),
                collapsed=f"{len(rows)} skills not shown in full"
                + (f" (first {FATE_ROWS})" if len(rows) > FATE_ROWS else ""),
            )
        )


def _timeline(doc: Document, steps: Sequence[Step]) -> None:
    rows = [
        [
            str(s.day),
            str(s.counts["full"]),
            str(s.counts["name_only"]),
            str(s.counts["hidden"]),
            ", ".join(s.fell[:8]) + (" …" if len(s.fell) > 8 else ""),
            ", ".join(s.restored[:8]) + (" …" if len(s.restored) > 8 else ""),
        ]
        for s in steps
    ]
    doc.add(
        Table(
            ["day", "full", "name only", "hidden", "fell to name only", "came back"],
            rows,
            frozenset({0, 1, 2, 3}),
        )
    )


def _fits(doc: Document, fits: Fits, draw: bool, plan: AgentPlan) -> Figure:
    verdict = "fits" if fits.fits_default else "does not fit"
    doc.add(
        Para(
            f"Every description is listed in full from **{fits.budget:,} {fits.unit}** "
            f"(one less cuts one: {'checked' if fits.checked_below else 'not checked'}); the "
            f"catalog {verdict} at the default {_n(fits.default_budget)}."
        ),
        Bullets(
            [
                f"`{v.setting}` ({v.where}): {v.value}" if v.value else f"`{v.setting}`: {v.note}"
                for v in fits.values
            ]
        ),
    )
    if fits.capped:
        doc.add(Para(f"Cut by the per-entry cap at any budget: {', '.join(fits.capped)}."))
    if fits.losing_first:
        doc.add(
            Para(
                "First to lose their descriptions as the budget shrinks (with no usage): "
                + ", ".join(f"{x.name} (below {x.below:,})" for x in fits.losing_first[:10])
            )
        )
    figure = coverage_figure(plan, draw)
    doc.add(figure)
    return figure


def _trim(doc: Document, trim: Trim) -> None:
    doc.add(
        Heading("Trim plan", 3),
        Para(
            f"Target {trim.target:,} {trim.unit}: {len(trim.edits)} edits save "
            f"{trim.saved:,} characters; {'fits' if trim.fits else 'does not fit'}. "
            f"**{'Proposed' if trim.proposed else 'Not proposed'}**: {trim.verdict}."
        ),
    )
    if trim.judged:
        doc.add(
            Table(
                [*JUDGED_HEADER, *JUDGED_COUNTS],
                [
                    [
                        j.selector,
                        j.budget,
                        str(s.requests),
                        f"{s.base_accuracy:.3f}",
                        f"{s.tuned_accuracy:.3f}",
                        f"{s.gain:+.3f} [{s.gain_ci95[0]:+.3f}, {s.gain_ci95[1]:+.3f}]",
                        str(s.worse),
                        str(s.better),
                        f"{s.p_value:.3g}",
                    ]
                    for j, s in ((j, j.stats) for j in trim.judged)
                ],
                frozenset({2, 3, 4, 6, 7, 8}),
            )
        )
    if trim.edits:
        doc.add(
            Table(
                ["skill", "saved", "after"],
                [[e.name, str(e.saved), e.after] for e in trim.edits[:FATE_ROWS]],
                frozenset({1}),
                collapsed=f"{len(trim.edits)} description edits",
            )
        )


def plan_document(report: PlanReport, draw: bool = True) -> tuple[Document, list[Figure]]:
    """The plan as a document, and its figures (to write as PNGs)."""
    doc = Document("Listing budget plan")
    doc.add(
        Para(
            f"{report.skills} skills from {', '.join(report.sources)}; day 0 is {report.now}; "
            f"usage: {report.usage or 'none'}."
        )
    )
    figures = []
    for plan in report.agents:
        version = f" {plan.agent_version}" if plan.agent_version else ""
        doc.add(Heading(f"{plan.profile}{version}"))
        _today(doc, plan)
        doc.add(Heading(f"Over {report.weeks} weeks with no new use", 3))
        _timeline(doc, plan.timeline)
        doc.add(Heading("What fits", 3))
        figures.append(_fits(doc, plan.fits, draw, plan))
        if plan.trim is not None:
            _trim(doc, plan.trim)
    return doc, figures
