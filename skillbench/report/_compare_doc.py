"""A comparison as a readable document (Markdown or HTML)."""

from __future__ import annotations

from collections.abc import Sequence

from skillbench.report._compare import Comparison, Flip, PairedResult
from skillbench.report._doc import Bullets, Document, Heading, Para, Table

MAX_FLIPS = 50
MAX_SKILLS = 30


def _rate(x: float) -> str:
    return f"{x:.3f}"


def _signed(x: float) -> str:
    return f"{x:+.3f}"


def _resolution(cmp: Comparison, r: PairedResult) -> str:
    res = r.stats.resolution
    if res.flips is None:
        return (
            f"No drop is detectable on {res.requests} requests at α = "
            f"{cmp.adjusted_alpha:.3g}, even if every one of them got worse."
        )
    return (
        f"The smallest detectable drop here is {res.drop:.3f} ({res.flips} of {res.requests} "
        f"requests worse, none better, at α = {cmp.adjusted_alpha:.3g})."
    )


def verdict(cmp: Comparison, r: PairedResult) -> str:
    """One sentence with the same rule ``skillbench check`` gates on."""
    name, st = cmp.metric.name, r.stats
    p = f"two-sided p = {st.test.p_value:.3g}, one-sided p(B worse) = {st.test.p_worse:.3g}"
    if cmp.regressed(r):
        return (
            f"**B is worse** on {name}: by {st.drop:.3f} > tolerance {cmp.max_drop:g}, "
            f"and not noise ({p})."
        )
    if cmp.improved(r):
        return f"**B is significantly better** on {name} ({p})."
    if st.drop > 0 and st.test.p_worse < cmp.adjusted_alpha:
        return (
            f"B is significantly worse on {name}, but by {st.drop:.3f}, within the tolerance "
            f"{cmp.max_drop:g} ({p})."
        )
    return f"No significant difference on {name} ({p}). " + _resolution(cmp, r)


def _choices(chosen: Sequence[str | None]) -> str:
    names = list(dict.fromkeys("none" if c is None else c for c in chosen))
    return ", ".join(f"`{n}`" for n in names)


def _flips(title: str, flips: Sequence[Flip]) -> list:
    if not flips:
        return [Heading(title, 4), Para("None.", muted=True)]
    rows = [
        [
            f"`{f.request_id}`",
            ", ".join(f.expected) or "none",
            _choices(f.chosen_a),
            _choices(f.chosen_b),
            f"{f.a:.2f} → {f.b:.2f}",
        ]
        for f in flips[:MAX_FLIPS]
    ]
    blocks = [
        Heading(f"{title} ({len(flips)})", 4),
        Table(["request", "expected", "chosen in A", "chosen in B", "score"], rows),
    ]
    if len(flips) > MAX_FLIPS:
        blocks.append(Para(f"… and {len(flips) - MAX_FLIPS} more (see --format json).", muted=True))
    return blocks


def _reading(cmp: Comparison, r: PairedResult) -> str:
    """The table's last column: the legend's words, never a bare mark."""
    if cmp.regressed(r):
        return "regressed"
    if cmp.improved(r):
        return "improved"
    return "no change" if not r.flipped else "–"


def _identical(cmp: Comparison) -> Document:
    """The whole answer when no request scored differently: a few lines, not a section per
    cell pair."""
    doc = Document(f"skillbench compare: {cmp.metric.name}")
    doc.add(Bullets([f"A: `{cmp.a}`", f"B: `{cmp.b}`"]))
    sizes = sorted({r.n_requests for r in cmp.results})
    requests = (
        f"{sizes[0]:,} paired requests" if len(sizes) == 1 else f"{sizes[0]:,}–{sizes[-1]:,}"
    ) + (" each" if len(cmp.results) > 1 else "")
    values = sorted({f"{r.stats.value_a:.3f}" for r in cmp.results})
    doc.add(
        Para(
            f"**No differences**: in {len(cmp.results)} cell pair"
            f"{'s' if len(cmp.results) != 1 else ''} ({requests}) every request has the same "
            f"{cmp.metric.name} in A and B"
            + (f" ({values[0]} in each pair)." if len(values) == 1 else ".")
        )
    )
    return doc


def build_comparison(cmp: Comparison) -> Document:
    if not any(r.flipped for r in cmp.results):
        return _identical(cmp)
    doc = Document(f"skillbench compare: {cmp.metric.name}")
    direction = "higher" if cmp.metric.higher_is_better else "lower"
    doc.add(Bullets([f"A: `{cmp.a}`", f"B: `{cmp.b}`"]))
    note = (
        f"Paired on request ids; {direction} {cmp.metric.name} is better. Test: exact McNemar "
        "(sign test on per-request scores, a request's repeats pooled into one score), "
        "two-sided p and one-sided p that B is worse. Interval: paired bootstrap over "
        f"requests, {cmp.results[0].stats.bootstrap.resamples:,} resamples, 95%. Reading: "
        f"**regressed** when B is worse by more than {cmp.max_drop:g} and the one-sided p is "
        "below α (the rule `skillbench check` gates on); **improved** when B is better and "
        "the two-sided p is below α; no change: no request flipped."
    )
    if len(cmp.results) > 1:
        note += f" {len(cmp.results)} cell pairs share α = {cmp.alpha} (Bonferroni)."
    held = max(r.held_out for r in cmp.results)
    if held:
        note += (
            f" Up to {held:,} requests per pair are left out: a selector was calibrated on "
            "them (train split)."
        )
    doc.add(Para(note, muted=True))
    header = [
        "cell",
        "requests",
        "A",
        "B",
        "B − A",
        "95% interval",
        "worse",
        "better",
        "p",
        "p (B worse)",
        "reading",
    ]
    rows = [
        [
            r.label,
            str(r.n_requests),
            _rate(r.stats.value_a),
            _rate(r.stats.value_b),
            _signed(r.stats.bootstrap.diff),
            f"[{r.stats.bootstrap.ci.low:+.3f}, {r.stats.bootstrap.ci.high:+.3f}]",
            str(r.stats.test.worse),
            str(r.stats.test.better),
            f"{r.stats.test.p_value:.3g}",
            f"{r.stats.test.p_worse:.3g}",
            _reading(cmp, r),
        ]
        for r in cmp.results
    ]
    doc.add(Table(header, rows, numeric=frozenset(range(1, 10))))
    # baselines are references beside the selectors under test; compared alone, the subject
    subjects = [r for r in cmp.results if not r.baseline] or cmp.results
    detailed = [r for r in subjects if r.flipped]
    quiet = [r for r in cmp.results if r not in detailed]
    if quiet and len(cmp.results) > 1:
        baselines = sum(r.baseline for r in quiet)
        doc.add(
            Para(
                f"No section for {len(quiet)} cell pair{'s' if len(quiet) != 1 else ''}: "
                + ", ".join(
                    part
                    for part in (
                        f"{baselines} of baselines (oracle, never, random: references, not "
                        "the change under test)"
                        if baselines
                        else "",
                        f"{len(quiet) - baselines} without a flipped request"
                        if len(quiet) > baselines
                        else "",
                    )
                    if part
                )
                + ".",
                muted=True,
            )
        )
    for r in detailed:
        if len(cmp.results) > 1:
            doc.add(Heading(r.label, 2))
        doc.add(Para(verdict(cmp, r)))
        changed = [s for s in r.per_skill if s.diff != 0]
        doc.add(Heading("Per skill", 3))
        if changed:
            doc.add(
                Table(
                    ["expected skill", "requests", "A", "B", "B − A"],
                    [
                        [f"`{s.skill}`", str(s.n), _rate(s.a), _rate(s.b), _signed(s.diff)]
                        for s in changed[:MAX_SKILLS]
                    ],
                    numeric=frozenset({1, 2, 3, 4}),
                )
            )
        else:
            doc.add(Para("No skill changed.", muted=True))
        doc.add(Heading("Flipped requests", 3))
        doc.add(*_flips("Worse in B", r.worse), *_flips("Better in B", r.better))
    return doc
