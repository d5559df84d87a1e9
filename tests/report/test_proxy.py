"""``compare --proxy``: rank agreement of configurations between a proxy run and a model run,
on synthetic runs whose rankings are known by construction."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from scipy.stats import bootstrap, kendalltau, spearmanr
from synthetic import write_run

from skillbench.cli import main
from skillbench.report import check_proxy, parse_selection
from skillbench.report._proxy import _verdict
from skillbench.report._proxy_types import BestPick, Correlation, PairOrder

N = 40
BUDGETS = (500, 1000, 2000, 4000)


def _rows(
    selector: str,
    correct: Mapping[int | None, Sequence[bool]],
    *,
    ordering: str = "usage",
    error: set[tuple[int | None, int]] = frozenset(),  # type: ignore[assignment]
    expected: str = "review",
) -> list[dict[str, Any]]:
    """One cell per budget; request i is right iff ``correct[budget][i]``; the (budget,
    request) pairs in ``error`` got no answer."""
    out = []
    for budget, hits in correct.items():
        for i, ok in enumerate(hits):
            failed = (budget, i) in error
            outcome = "error" if failed else "correct_skill" if ok else "wrong_skill"
            out.append(
                {
                    "catalog": "base",
                    "profile": "codebot",
                    "budget": budget,
                    "ordering": ordering,
                    "half_life": "7d",
                    "selector": selector,
                    "repeat": 0,
                    "request_id": f"r{i:03d}",
                    "text": f"request {i}",
                    "expected": [expected],
                    "chosen": None if failed else expected if ok else "refactor",
                    "outcome": outcome,
                    "visible": True,
                    "gold_position": 0,
                    "listing_chars": 400,
                    "listing_tokens": 100,
                    "shown": 4,
                    "latency_ms": 1.0,
                }
            )
    return out


def _hits(counts: Sequence[int], budgets: Sequence[int | None] = BUDGETS, n: int = N):
    """Budget → the first ``count`` requests right, the rest wrong."""
    return {b: [i < k for i in range(n)] for b, k in zip(budgets, counts, strict=True)}


def _pair(tmp_path: Path, proxy: Mapping, model: Mapping, **kw: Any) -> tuple[Path, Path]:
    return (
        write_run(tmp_path / "proxy", _rows("lexical", proxy)),
        write_run(tmp_path / "model", _rows("gpt", model, **kw)),
    )


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["compare", "--proxy", *argv, "--format", "json", "--resamples", "2000"])
    return code, json.loads(capsys.readouterr().out)


PROXY = (8, 16, 24, 32)
"""The proxy's hits at each budget: accuracy 0.2, 0.4, 0.6, 0.8."""


@pytest.mark.parametrize(
    ("model", "rho", "tau", "answer"),
    [
        ((6, 14, 26, 36), 1.0, 1.0, "yes"),  # the same order
        ((36, 26, 14, 6), -1.0, -1.0, "no"),  # reversed
        # budgets 1000 and 2000 swapped: ρ = 1 - 6·(1 + 1)/(4·15) = 0.8, τ = (5 - 1)/6
        ((6, 26, 14, 36), 0.8, 4 / 6, "yes"),
    ],
)
def test_known_rankings_of_four_budgets(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    model: tuple[int, ...],
    rho: float,
    tau: float,
    answer: str,
) -> None:
    proxy_dir, model_dir = _pair(tmp_path, _hits(PROXY), _hits(model))
    code, out = _json(capsys, str(proxy_dir), str(model_dir))
    assert code == 0
    assert out["spearman"]["value"] == pytest.approx(rho)
    assert out["kendall"]["value"] == pytest.approx(tau)
    accuracy = [k / N for k in model]
    assert [c["model"] for c in out["configurations"]] == pytest.approx(accuracy)
    assert [c["proxy"] for c in out["configurations"]] == pytest.approx([k / N for k in PROXY])
    assert spearmanr(PROXY, model).statistic == pytest.approx(rho)
    assert kendalltau(PROXY, model).statistic == pytest.approx(tau)
    assert out["verdict"]["answer"] == answer
    assert out["axes"] == ["budget"] and out["requests"] == N
    assert out["verdict"]["line"].startswith("the lexical proxy ranks budgets like the model gpt")


def test_pairs_best_pick_and_decisions_of_the_swap(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Proxy 8/16/24/32 hits, model 6/26/14/36: the model's 1000 beats its 2000 (12 requests
    apart: clear), the proxy says the opposite: one contradicted pair of six. Both pick 4000.
    The same decision: at 500, requests 6 and 7 differ (2 of 40); at 1000, 16..25 (10); at
    2000, 14..23 (10); at 4000, 32..35 (4): 26 of 160 differ."""
    proxy_dir, model_dir = _pair(tmp_path, _hits(PROXY), _hits((6, 26, 14, 36)))
    _, out = _json(capsys, str(proxy_dir), str(model_dir))
    pairs = out["pairs"]
    assert (pairs["total"], pairs["model_clear"], pairs["agree"], pairs["contradicted"]) == (
        6,
        6,
        5,
        1,
    )
    [bad] = [p for p in pairs["list"] if not p["agree"]]
    assert (bad["first"], bad["second"]) == ("budget=1000", "budget=2000")
    assert bad["model"] == pytest.approx(-0.3) and bad["proxy"] == pytest.approx(0.2)
    assert out["best"]["status"] == "same" and out["best"]["model"] == "budget=4000"
    assert out["decisions"] == {"paired": 160, "same_choice": pytest.approx(134 / 160)}
    same = [c["same_choice"] for c in out["configurations"]]
    assert same == pytest.approx([38 / 40, 30 / 40, 30 / 40, 36 / 40])


def test_the_interval_matches_scipy_bootstrap_on_noisy_runs(tmp_path: Path) -> None:
    """Six configurations, 80 requests scored at random: the point values are scipy's
    correlations of the per-configuration accuracies, and the percentile interval is close
    to scipy's bootstrap of the same statistic (resampling request indices)."""
    rng = np.random.default_rng(11)
    budgets = (500, 1000, 1500, 2000, 3000, 4000)
    p_hit = np.array([0.3, 0.4, 0.5, 0.55, 0.7, 0.75])
    proxy = rng.random((6, 80)) < p_hit[:, None]
    model = rng.random((6, 80)) < (p_hit[::-1] * 0.3 + p_hit * 0.7)[:, None]
    proxy_dir = write_run(
        tmp_path / "p", _rows("lexical", dict(zip(budgets, proxy.tolist(), strict=True)))
    )
    model_dir = write_run(
        tmp_path / "m", _rows("gpt", dict(zip(budgets, model.tolist(), strict=True)))
    )
    check = check_proxy(
        parse_selection(str(proxy_dir)), parse_selection(str(model_dir)), resamples=4000
    )
    acc_p, acc_m = proxy.mean(axis=1), model.mean(axis=1)
    assert check.spearman.value == pytest.approx(spearmanr(acc_p, acc_m).statistic)
    assert check.kendall.value == pytest.approx(kendalltau(acc_p, acc_m).statistic)

    def rho(idx: np.ndarray) -> float:
        idx = idx.astype(int)
        return spearmanr(proxy[:, idx].mean(axis=1), model[:, idx].mean(axis=1)).statistic

    ref = bootstrap(
        (np.arange(80),),
        rho,
        vectorized=False,
        n_resamples=2000,
        method="percentile",
        random_state=np.random.default_rng(5),
    ).confidence_interval
    assert check.spearman.ci is not None
    assert check.spearman.ci[0] == pytest.approx(ref.low, abs=0.1)
    assert check.spearman.ci[1] == pytest.approx(ref.high, abs=0.1)


def test_one_run_with_both_selectors_is_both_sides(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The proxy side takes the offline selector, the model side the other; the oracle
    baseline is neither. Named selectors work too."""
    rows = _rows("lexical", _hits(PROXY)) + _rows("gpt", _hits((6, 14, 26, 36)))
    rows += _rows("oracle", _hits((40, 40, 40, 40)))
    run = write_run(tmp_path / "both", rows)
    (run / "config.yaml").write_text(
        "name: synthetic\nselectors:\n  - {type: lexical}\n  - {type: litellm, name: gpt, "
        "model: openai/x}\n  - {type: oracle}\n",
        encoding="utf-8",
    )
    code, out = _json(capsys, str(run), str(run))
    assert code == 0 and out["spearman"]["value"] == pytest.approx(1.0)
    assert out["proxy"]["selector"] == "lexical" and out["model"]["type"] == "litellm"
    assert out["notes"] == []
    code, out = _json(capsys, f"{run}::selector=oracle", f"{run}::selector=gpt")
    assert out["proxy"]["selector"] == "oracle" and out["spearman"]["value"] is None


def test_errored_decisions_are_not_answers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Request 0 got no answer from the model at budget 500: that configuration is scored
    on the 39 requests answered on both sides (r001..r005 right on the model: 5/39)."""
    proxy_dir, model_dir = _pair(tmp_path, _hits(PROXY), _hits((6, 14, 26, 36)), error={(500, 0)})
    _, out = _json(capsys, str(proxy_dir), str(model_dir))
    first = out["configurations"][0]
    assert first["requests"] == 39
    assert first["model"] == pytest.approx(5 / 39) and first["proxy"] == pytest.approx(7 / 39)
    assert out["decisions"]["paired"] == 159


@pytest.mark.parametrize(
    ("model", "message"),
    [
        (
            _rows("gpt", _hits((6, 14, 26, 36), (500, 1000, 2000, 8000))),
            "the grids differ: budget 4000 only in the proxy run; budget 8000 only in the "
            "model run",
        ),
        (
            _rows("gpt", _hits((6, 14, 26, 36)), ordering="alpha"),
            "the grids differ: ordering usage only in the proxy run; ordering alpha only in "
            "the model run",
        ),
        (
            _rows("gpt", _hits((6, 14, 26, 36), n=38)),
            "the request sets differ: 2 only in the proxy run (r038, r039)",
        ),
        (
            _rows("gpt", _hits((6, 14, 26, 36)), expected="refactor"),
            "the request labels differ for 40 request(s)",
        ),
    ],
)
def test_mismatched_runs_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: list, message: str
) -> None:
    proxy_dir = write_run(tmp_path / "proxy", _rows("lexical", _hits(PROXY)))
    model_dir = write_run(tmp_path / "model", model)
    assert main(["compare", "--proxy", str(proxy_dir), str(model_dir)]) == 1
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_unfinished_runs_and_unclear_sides_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    proxy_dir = write_run(tmp_path / "proxy", _rows("lexical", _hits(PROXY)))
    stopped = write_run(tmp_path / "stopped", _rows("gpt", _hits(PROXY)), status="stopped")
    two = write_run(tmp_path / "two", _rows("lexical", _hits(PROXY)) + _rows("bm25", _hits(PROXY)))
    for argv, message in (
        ([str(proxy_dir), str(stopped)], "the run is stopped"),
        ([str(two), str(proxy_dir)], "cells of several selectors (lexical, bm25)"),
        ([str(proxy_dir), str(proxy_dir)], "both sides are selector lexical"),
        ([str(proxy_dir), str(proxy_dir), "--fail-on-regression"], "does not apply to --proxy"),
    ):
        assert main(["compare", "--proxy", *argv]) == 1
        assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("proxy", "model", "answer", "reason"),
    [
        (_hits((8, 16), (500, 1000)), _hits((6, 14), (500, 1000)), "not enough data", "2 conf"),
        (_hits(PROXY, n=20), _hits((4, 8, 12, 16), n=20), "not enough data", "20 paired"),
        (_hits(PROXY), _hits((20, 20, 20, 20)), "not enough data", "tells no two"),
        (_hits((20, 20, 20, 20)), _hits((6, 14, 26, 36)), "no", "scores every configuration"),
    ],
)
def test_verdicts_without_enough_to_rank(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    proxy: Mapping,
    model: Mapping,
    answer: str,
    reason: str,
) -> None:
    proxy_dir, model_dir = _pair(tmp_path, proxy, model)
    code, out = _json(capsys, str(proxy_dir), str(model_dir), "--require-agreement")
    assert code == 100
    assert out["verdict"]["answer"] == answer and reason in out["verdict"]["reason"]


def _pairs(clear: bool) -> list[PairOrder]:
    ci = (0.05, 0.2) if clear else (-0.05, 0.2)
    return [PairOrder("a", "b", 0.1, ci, 0.1, ci)]


@pytest.mark.parametrize(
    ("rho", "answer", "reason"),
    [
        (Correlation(0.9, (0.6, 1.0), 0), "yes", "lower bound ≥ 0.5"),
        (Correlation(0.6, (0.2, 1.0), 0), "not enough data", "straddles 0.5"),
        (Correlation(0.1, (-0.5, 0.4), 0), "no", "below 0.5"),
        (Correlation(0.9, None, 900), "not enough data", "undefined in 900"),
    ],
)
def test_the_rule_on_rho(rho: Correlation, answer: str, reason: str) -> None:
    best = BestPick("budget=4000", "budget=4000", "same", 0.0, (0.0, 0.0))
    got = _verdict(4, 100, 0, rho, best, _pairs(True), 0.5)
    assert got[0] == answer and reason in got[1]
    worse = BestPick("budget=2000", "budget=4000", "differs", 0.1, (0.02, 0.2))
    assert _verdict(4, 100, 0, rho, worse, _pairs(True), 0.5)[0] == "no"
    failed = _verdict(4, 100, 1, rho, best, _pairs(True), 0.5)
    assert failed == ("not enough data", "the model failed its positive controls in 1 cell(s)")


def test_text_markdown_and_html(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    proxy_dir, model_dir = _pair(tmp_path, _hits(PROXY), _hits((36, 26, 14, 6)))
    base = ["compare", "--proxy", str(proxy_dir), str(model_dir), "--resamples", "500"]
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "Verdict: the lexical proxy ranks budgets like the model gpt (gpt): no (" in text
    assert "budget=500              0.200           0.900           4           1" in text
    assert "|" not in text and "**" not in text
    assert main([*base, "--format", "md", "-o", str(tmp_path / "p.md")]) == 0
    md = (tmp_path / "p.md").read_text(encoding="utf-8")
    assert "| budget=500 | 0.200 | 0.900 | 4 | 1 | 30% |" in md
    assert "contradicted" in md and md.startswith("# Proxy check: lexical for gpt")
    assert main([*base, "--format", "html", "-o", str(tmp_path / "p.html")]) == 0
    assert "<table>" in (tmp_path / "p.html").read_text(encoding="utf-8")
    assert main(["compare", str(proxy_dir), str(model_dir), "--format", "text"]) == 1
    assert "--format text is for --proxy" in capsys.readouterr().err


def test_intervals_are_seeded(tmp_path: Path) -> None:
    rng = np.random.default_rng(2)
    hits = {b: (rng.random(N) < 0.5).tolist() for b in BUDGETS}
    other = {b: (rng.random(N) < 0.5).tolist() for b in BUDGETS}
    proxy_dir, model_dir = _pair(tmp_path, hits, other)
    sides = parse_selection(str(proxy_dir)), parse_selection(str(model_dir))
    one, two = (check_proxy(*sides, resamples=1000, seed=4) for _ in range(2))
    assert one.spearman == two.spearman and one.pairs == two.pairs
    assert check_proxy(*sides, resamples=1000, seed=5).pairs != one.pairs


def test_a_tie_on_the_model_keeps_the_proxys_pick(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model scores every budget 0.5: the proxy's best (4000) is best on the model too,
    tied with the three others; no pair is told apart."""
    proxy_dir, model_dir = _pair(tmp_path, _hits(PROXY), _hits((20, 20, 20, 20)))
    _, out = _json(capsys, str(proxy_dir), str(model_dir))
    assert out["best"] == {
        "proxy": "budget=4000",
        "model": "budget=4000",
        "status": "same",
        "regret": 0.0,
        "regret_ci": [0.0, 0.0],
        "model_ties": 4,
    }
    main(["compare", "--proxy", str(proxy_dir), str(model_dir), "--resamples", "500"])
    text = capsys.readouterr().out
    assert "- best configuration: budget=4000 on both (the model ties it with 3 others)" in text
    assert "6 pairs of configurations; the model tells none apart; 6 within noise" in text
