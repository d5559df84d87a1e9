"""Retrieve stages in a run: config checks, listings of the top k, rows, summary and report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.runs import DEVTOOLS_INPUTS

from skillbench._errors import InputError
from skillbench.cli import main
from skillbench.dataset import InputErrors
from skillbench.replay import load_config, run_experiment
from skillbench.report import write_report
from skillbench.results import ResultRow, read_rows

CONFIG = f"""\
name: rt
{DEVTOOLS_INPUTS}orderings: [alpha]
usage: {{record: label}}
selectors:
"""
SELECTORS = """\
  - {type: oracle, name: plain}
  - {type: oracle, name: bm25-3, retrieve: {method: bm25, k: 3}}
  - {type: lexical, name: embedding-5,
     retrieve: {method: embedding, k: 5}}
"""


def _config(tmp_path: Path, selectors: str = SELECTORS) -> Path:
    path = tmp_path / "rt.yaml"
    path.write_text(CONFIG + selectors, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("retrieve")
    run_experiment(load_config(_config(tmp)), output=tmp / "run", limit=60)
    return tmp / "run"


def _rows(run_dir: Path, selector: str) -> list[ResultRow]:
    return [r for r in read_rows(run_dir / "results.jsonl") if r.selector == selector]


def test_a_retrieve_stage_shows_the_selector_only_its_top_k(run_dir: Path) -> None:
    for name, k in (("bm25-3", 3), ("embedding-5", 5)):
        rows = _rows(run_dir, name)
        assert len(rows) == 60
        for r in rows:
            assert r.retrieved == k and r.shown == k  # k entries fit the default budget
            assert r.listing_tokens < r.full_listing_tokens
            assert r.retrieved_ranks == sorted(r.retrieved_ranks)
            assert all(1 <= rank <= k for rank in r.retrieved_ranks)
            if r.expected:
                # A retrieved expected skill is exactly one the listing then shows.
                assert r.visible is bool(r.retrieved_ranks)
    for r in _rows(run_dir, "plain"):
        assert r.retrieved is None and r.retrieved_ranks is None
        assert r.full_listing_tokens is None


def test_summary_metrics_follow_from_the_rows(run_dir: Path) -> None:
    cells = {c["selector"]: c for c in json.loads((run_dir / "summary.json").read_text())["cells"]}
    assert "hit_at_k" not in cells["plain"] and "tokens_saved" not in cells["plain"]
    rows = _rows(run_dir, "bm25-3")
    positives = [r for r in rows if r.expected]
    hits = sum(bool(r.retrieved_ranks) for r in positives)
    cell = cells["bm25-3"]
    assert cell["hit_at_k"] == pytest.approx(hits / len(positives))
    # The oracle invokes an expected skill exactly when the top 3 hold one.
    assert cell["recall"] == pytest.approx(cell["hit_at_k"])
    first = [1 / r.retrieved_ranks[0] if r.retrieved_ranks else 0 for r in positives]
    assert cell["mrr"] == pytest.approx(sum(first) / len(positives))
    saved = 1 - sum(r.listing_tokens for r in rows) / sum(r.full_listing_tokens for r in rows)
    assert cell["tokens_saved"] == pytest.approx(saved)
    assert 0 < cell["ndcg_at_k"] <= 1 and cell["mean_full_listing_tokens"] > 0
    # The full listing is the plain cell's: same plan, same moments.
    assert cell["mean_full_listing_tokens"] == pytest.approx(cells["plain"]["mean_listing_tokens"])


def test_the_report_has_a_retrieval_table_for_retrieval_cells_only(run_dir: Path) -> None:
    write_report(run_dir, formats=["md"])
    md = (run_dir / "report.md").read_text(encoding="utf-8")
    section = md.split("### Retrieval", 1)[1].split("\n## ", 1)[0]
    assert "| cell | hit_at_k | mrr | ndcg_at_k | tokens_saved |" in section
    assert "selector=bm25-3" in section and "selector=embedding-5" in section
    assert "selector=plain" not in section


@pytest.mark.parametrize(
    ("stage", "field", "reason"),
    [
        ("{method: bm52, k: 3}", "selectors[1].retrieve.method", "did you mean 'bm25'"),
        ("{method: bm25, k: 0}", "selectors[1].retrieve.k", "greater than or equal to 1"),
        ("{method: bm25, k: two}", "selectors[1].retrieve.k", "valid integer"),
        ("{k: 3}", "selectors[1].retrieve.method", "Field required"),
    ],
)
def test_bad_stages_are_reported_with_file_and_line(
    tmp_path: Path, stage: str, field: str, reason: str
) -> None:
    selectors = f"  - {{type: oracle}}\n  - {{type: lexical, retrieve: {stage}}}\n"
    path = _config(tmp_path, selectors)
    with pytest.raises(InputErrors) as info:
        load_config(path)
    (problem,) = info.value.problems
    assert problem.location.file == str(path) and problem.location.line == 14
    assert problem.location.field == field and reason in problem.reason


def test_a_param_the_method_rejects_names_the_stage_line(tmp_path: Path) -> None:
    selectors = "  - {type: oracle}\n  - type: lexical\n    retrieve: {method: bm25, model: x}\n"
    config = load_config(_config(tmp_path, selectors))
    with pytest.raises(InputError) as info:
        run_experiment(config, output=tmp_path / "run", limit=5)
    assert info.value.location.line == 15 and "unknown parameter 'model'" in info.value.reason


@pytest.mark.parametrize(
    ("model", "says"),
    [
        ("/no/such/minilm", "'/no/such/minilm': model folder not found"),
        ("./minilm-copy", "'./minilm-copy': model folder not found (relative to"),
        ("someone/no-such-model", "'someone/no-such-model' cannot be loaded: no such folder"),
    ],
)
def test_a_missing_embedding_model_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], model: str, says: str
) -> None:
    selectors = f"  - {{type: oracle, retrieve: {{method: embedding, k: 3, model: {model}}}}}\n"
    config = _config(tmp_path, selectors)
    code = main(["run", str(config), "-o", str(tmp_path / "run"), "--limit", "5", "--quiet"])
    err = capsys.readouterr().err
    assert code == 1 and "Traceback" not in err
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert says in err
    if model.startswith(("/", "./")):  # known before any work: at the stage's config line
        assert f"{config}:{CONFIG.count(chr(10)) + 1}: field 'selectors[0].retrieve'" in err
