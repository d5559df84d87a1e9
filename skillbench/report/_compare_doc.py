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


def verdict(cmp: Comparison, r: PairedResult) -> str:
    name = cmp.metric.name
    if cmp.regressed(r):
        return f"**B is significantly worse** on {name} (p = {r.test.p_value:.3g})."
    if cmp.significant(r):
        return f"**B is significantly better** on {name} (p = {r.test.p_value:.3g})."
    return f"No significant difference on {name} (p = {r.test.p_value:.3g})."


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


def build_comparison(cmp: Comparison) -> Document:
    doc = Document(f"skillbench compare: {cmp.metric.name}")
    direction = "higher" if cmp.metric.higher_is_better else "lower"
    doc.add(Bullets([f"A: `{cmp.a}`", f"B: `{cmp.b}`"]))
    note = (
        f"Paired on request ids; {direction} {cmp.metric.name} is better. Test: exact McNemar "
        "(sign test on per-request scores, repeats averaged per request). Interval: paired "
        f"bootstrap over requests, {cmp.results[0].bootstrap.resamples:,} resamples, 95%."
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
    header = ["cell", "requests", "A", "B", "B − A", "95% interval", "worse", "better", "p"]
    rows = [
        [
            r.label,
            str(r.n_requests),
            _rate(r.value_a),
            _rate(r.value_b),
            _signed(r.bootstrap.diff),
            f"[{r.bootstrap.ci.low:+.3f}, {r.bootstrap.ci.high:+.3f}]",
            str(r.test.worse),
            str(r.test.better),
            f"{r.test.p_value:.3g}" + (" *" if cmp.significant(r) else ""),
        ]
        for r in cmp.results
    ]
    doc.add(Table(header, rows, numeric=frozenset(range(1, 9))))
    for r in cmp.results:
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
