"""``skillbench compare``: paired runs with known flips, cell selections, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from synthetic import paired_rows, sweep_rows, write_run

from skillbench.cli import main
from skillbench.report import compare_runs, parse_selection


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict]:
    code = main(["compare", *argv, "--format", "json", "--resamples", "2000"])
    out = capsys.readouterr().out
    return code, json.loads(out) if code != 1 else {}


def test_known_flips(pair_dirs, capsys) -> None:
    a, b = pair_dirs(n=30, worse=8, better=1)
    code, doc = _json(capsys, str(a), str(b))
    assert code == 0
    assert doc["p_value"] == pytest.approx(2 * 10 / 512)  # exact binomial, 1 of 9 discordant
    pair = doc["pairs"][0]
    assert (pair["worse"], pair["better"], pair["n_requests"]) == (8, 1, 30)
    assert pair["diff"] == pytest.approx(-7 / 30)
    assert pair["diff_ci"][0] < pair["diff"] < pair["diff_ci"][1] < 0
    assert [f["request_id"] for f in pair["flipped_worse"]] == [f"r{i:03d}" for i in range(8)]
    assert [f["request_id"] for f in pair["flipped_better"]] == ["r008"]
    assert pair["flipped_worse"][0]["chosen_b"] == ["refactor"]
    assert doc["regression"] is True


def test_fail_on_regression_exit_codes(pair_dirs, capsys) -> None:
    a, b = pair_dirs(n=30, worse=8, better=1)
    assert main(["compare", str(a), str(b), "--fail-on-regression", "--resamples", "500"]) == 100
    # the other way round B is better: no regression
    assert main(["compare", str(b), str(a), "--fail-on-regression", "--resamples", "500"]) == 0
    out = capsys.readouterr().out
    assert "Worse in B (8)" in out and "significantly better" in out


def test_not_significant_is_not_a_regression(pair_dirs, capsys) -> None:
    a, b = pair_dirs(n=30, worse=2, better=1)
    assert main(["compare", str(a), str(b), "--fail-on-regression", "--resamples", "500"]) == 0


def test_repeats_stay_with_their_request(pair_dirs) -> None:
    a, b = pair_dirs(n=20, worse=6, better=0, repeats=3)
    cmp = compare_runs(parse_selection(str(a)), parse_selection(str(b)), resamples=1000)
    (r,) = cmp.results
    assert r.n_requests == 20 and r.n_decisions == 120
    assert (r.test.worse, r.test.better) == (6, 0)  # 6 requests, not 18 decisions
    assert r.test.p_value == pytest.approx(2 / 64)


def test_cells_of_one_run_pair_on_the_free_keys(tmp_path: Path, capsys) -> None:
    rows = sweep_rows(
        budgets=(500, 2000),
        catalogs=("base", "rewrite"),
        n_requests=30,
        skill=lambda c: 0.95 if c == "rewrite" else 0.6,
    )
    run = write_run(tmp_path / "run", rows)
    code, doc = _json(capsys, f"{run}::catalog=base", f"{run}::catalog=rewrite")
    assert code == 0
    labels = [p["label"] for p in doc["pairs"]]
    assert labels == [
        "budget=500 ordering=alpha",
        "budget=500 ordering=usage",
        "budget=2000 ordering=alpha",
        "budget=2000 ordering=usage",
    ]
    assert all(p["cell_a"]["catalog"] == "base" for p in doc["pairs"])
    # the same selection through --cell-a/--cell-b
    code2, doc2 = _json(
        capsys,
        str(run),
        str(run),
        "--cell-a",
        "catalog=base,budget=2000",
        "--cell-b",
        "catalog=rewrite,budget=2000",
    )
    assert code2 == 0 and len(doc2["pairs"]) == 2


def test_lower_is_better_metric_direction(tmp_path: Path, capsys) -> None:
    def negatives(triggers: int) -> list[dict]:
        rows = paired_rows([True] * 20)
        for i, row in enumerate(rows):
            row.update(expected=[], visible=None, gold_position=None)
            row.update(
                chosen="review" if i < triggers else None,
                outcome="false_trigger" if i < triggers else "correct_abstain",
            )
        return rows

    a = write_run(tmp_path / "a", negatives(0))
    b = write_run(tmp_path / "b", negatives(9))
    code, doc = _json(capsys, str(a), str(b), "--metric", "false_invocation_rate")
    assert code == 0
    pair = doc["pairs"][0]
    assert pair["worse"] == 9 and pair["diff"] == pytest.approx(9 / 20)
    assert doc["regression"] is True


def test_markdown_and_html_outputs(pair_dirs, tmp_path: Path) -> None:
    a, b = pair_dirs()
    out = tmp_path / "cmp.html"
    assert (
        main(["compare", str(a), str(b), "--format", "html", "-o", str(out), "--resamples", "500"])
        == 0
    )
    text = out.read_text()
    assert text.startswith("<!DOCTYPE html>") and "Worse in B" in text


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda a, b: [str(a), str(b.parent / "missing")], "not a directory"),
        (lambda a, b: [f"{a}::catalgo=base", str(b)], "did you mean 'catalog'"),
        (lambda a, b: [f"{a}::catalog=nope", str(b)], "no cell matches"),
        (lambda a, b: [str(a), str(b), "--metric", "f1"], "cannot be paired"),
    ],
)
def test_errors_exit_1(pair_dirs, capsys, mutate, message) -> None:
    a, b = pair_dirs()
    assert main(["compare", *mutate(a, b)]) == 1
    assert message in capsys.readouterr().err


def test_unpaired_requests_exit_1(tmp_path: Path, capsys) -> None:
    a = write_run(tmp_path / "a", paired_rows([True] * 10))
    b = write_run(tmp_path / "b", paired_rows([True] * 8))
    assert main(["compare", str(a), str(b)]) == 1
    assert "unpaired requests" in capsys.readouterr().err


def _markdown(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["compare", *argv, "--resamples", "500"]) == 0
    return capsys.readouterr().out


def test_the_reading_column_says_regressed_or_improved_and_no_bare_star(pair_dirs, capsys) -> None:
    a, b = pair_dirs(n=30, worse=8, better=1)
    # 8 worse, 1 better: one-sided p = 10/512 < 0.05 and the drop 7/30 > 0.02
    worse = _markdown(capsys, str(a), str(b))
    assert not any("*" in line for line in worse.splitlines() if line.startswith("|"))
    assert "| 0.0195 | regressed |" in worse
    # the other way round: 1 worse, 8 better, two-sided p = 20/512 < 0.05
    better = _markdown(capsys, str(b), str(a))
    # p(B worse) = P(at least 1 of 9 discordant worse) = 1 − 1/512
    assert "| 0.0391 | 0.998 | improved |" in better and "regressed |" not in better
    assert not any("*" in line for line in better.splitlines() if line.startswith("|"))


def test_identical_runs_say_so_in_a_few_lines(pair_dirs, capsys) -> None:
    a, _ = pair_dirs(n=30, worse=0, better=0)
    text = _markdown(capsys, str(a), str(a))
    assert (
        "**No differences**: in 1 cell pair (30 paired requests) every request has the same "
        "accuracy in A and B (1.000 in each pair)." in text
    )
    assert len(text.strip().splitlines()) <= 6


def test_baseline_pairs_get_a_table_row_but_no_section(tmp_path: Path, capsys) -> None:
    flips = [False] * 6 + [True] * 24
    never = [
        {**r, "selector": "never", "chosen": None, "outcome": "missed"}
        for r in paired_rows([False] * 30)
    ]
    a = write_run(tmp_path / "a", paired_rows([True] * 30) + never)
    b = write_run(tmp_path / "b", paired_rows(flips) + never)
    text = _markdown(capsys, str(a), str(b))
    assert "| selector=never | 30 |" in text  # Δ = 0 by construction: a row, no section
    assert "## selector=embedding" in text and "## selector=never" not in text
    assert "No section for 1 cell pair: 1 of baselines" in text
