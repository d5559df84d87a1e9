"""A proxy check as a document (plain text, Markdown or HTML from the same blocks)."""

from __future__ import annotations

from skillbench.report._doc import Bullets, Document, Para, Table
from skillbench.report._pairing import count
from skillbench.report._proxy_types import (
    MIN_CONFIGS,
    MIN_REQUESTS,
    Correlation,
    PairOrder,
    ProxyCheck,
)


def _interval(ci: tuple[float, float] | None, fmt: str = "+.3f") -> str:
    return "–" if ci is None else f"[{ci[0]:{fmt}}, {ci[1]:{fmt}}]"


def _corr(name: str, c: Correlation) -> str:
    if c.value is None:
        return f"{name} undefined (a side scores every configuration alike)"
    text = f"{name} = {c.value:.3f} {_interval(c.ci, '.3f')}"
    return text + (f" (undefined in {c.undefined:,} resamples)" if c.undefined else "")


def _share(part: int, whole: int) -> str:
    return f"{part}/{whole}" + (f" ({part / whole:.0%})" if whole else "")


def _reading(p: PairOrder) -> str:
    if not p.model_clear:
        return "within noise on the model" + (" (the proxy tells them apart)" * p.proxy_clear)
    if p.contradicted:
        return "contradicted"
    return "same order" if p.agree else "other order"


def _pairs_line(check: ProxyCheck) -> str:
    pairs = check.pairs
    clear = [p for p in pairs if p.model_clear]
    noise = [p for p in pairs if not p.model_clear]
    text = f"{count(len(pairs), 'pair')} of configurations; "
    if clear:
        text += (
            f"the model tells {len(clear)} apart and the proxy orders "
            f"{_share(sum(p.agree for p in clear), len(clear))} of those the same way, "
            f"{sum(p.contradicted for p in clear)} clearly the other way"
        )
    else:
        text += "the model tells none apart"
    if noise:
        spurious = sum(p.proxy_clear for p in noise)
        text += (
            f"; {len(noise)} within noise on the model, reported apart "
            f"({spurious} of them told apart by the proxy)"
        )
    return text


def build_proxy_check(check: ProxyCheck) -> Document:
    """The verdict first, then the figures it rests on and the rule it applies."""
    pct = f"{check.level:.0%}"
    doc = Document(f"Proxy check: {check.proxy.selector} for {check.model.selector}")
    doc.add(Para(f"**Verdict: {check.verdict_line}**"))
    held = f"; {check.held_out} held out (calibration)" if check.held_out else ""
    doc.add(
        Para(
            f"proxy `{check.proxy.name}` in `{check.proxy.selection}`; model "
            f"`{check.model.name}` in `{check.model.selection}`; metric {check.metric.name}; "
            f"{count(check.requests, 'paired request')}{held}; {pct} intervals from "
            f"{check.resamples:,} request resamples (seed {check.seed})."
        )
    )
    rows = [
        [
            c.label,
            f"{c.proxy:.3f}",
            f"{c.model:.3f}",
            f"{c.proxy_rank:g}",
            f"{c.model_rank:g}",
            "–" if c.same_choice is None else f"{c.same_choice:.0%}",
        ]
        for c in check.configurations
    ]
    m = check.metric.name
    header = [
        "configuration",
        f"proxy {m}",
        f"model {m}",
        "proxy rank",
        "model rank",
        "same decision",
    ]
    doc.add(Table(header, rows, numeric=frozenset(range(1, 6))))
    items = [_corr("Spearman ρ", check.spearman), _corr("Kendall τ-b", check.kendall)]
    best = check.best
    if best is not None and best.status == "same":
        ties = best.model_ties - 1
        tie = f" (the model ties it with {count(ties, 'other')})" if ties else ""
        items.append(f"best configuration: {best.model} on both{tie}")
    elif best is not None:
        loss = f"{best.regret:.3f} {_interval(best.regret_ci)}"
        items.append(
            f"best configuration: proxy {best.proxy}, model {best.model}; the model scores "
            f"the proxy's pick {loss} below its own best"
            + (" (within noise)" if best.status == "within noise" else "")
        )
    items.append(_pairs_line(check))
    if check.same_choice is not None:
        items.append(
            f"same decision (same skill, or both abstained): {check.same_choice:.1%} of "
            f"{check.decisions:,} request × configuration pairs"
        )
    doc.add(Bullets(items))
    for note in check.notes:
        doc.add(Para(f"Note: {note}.", muted=True))
    doc.add(
        Para(
            f"Rule: yes when the lower end of ρ's interval is at least {check.min_rho:g} "
            "and the proxy's best configuration is the model's or within noise of it; no "
            "when the proxy's best is clearly worse on the model, ρ's interval lies below "
            f"{check.min_rho:g}, or the proxy scores every configuration alike; not enough "
            f"data with fewer than {MIN_CONFIGS} configurations or {MIN_REQUESTS} requests, "
            "when the model tells no two configurations apart, or when ρ's interval straddles "
            f"{check.min_rho:g}.",
            muted=True,
        )
    )
    pair_rows = [
        [
            f"{p.second} vs {p.first}",
            f"{p.proxy:+.3f} {_interval(p.proxy_ci)}",
            f"{p.model:+.3f} {_interval(p.model_ci)}",
            _reading(p),
        ]
        for p in check.pairs
    ]
    doc.add(
        Table(
            ["pair", "proxy difference", "model difference", "reading"],
            pair_rows,
            collapsed=f"every pair of configurations ({len(pair_rows)})",
        )
    )
    return doc
