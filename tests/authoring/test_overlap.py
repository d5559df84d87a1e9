"""overlap: terms and symmetric BM25 reasoned by hand on a three-skill catalog, embeddings
from the packaged MiniLM, confusions from a real (lexical) run."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from skillbench.authoring import load_overlap, overlap_pairs
from skillbench.catalog import Skill
from skillbench.cli._main import main
from skillbench.replay import load_config, run_experiment
from skillbench.results import read_run
from tests.authoring.conftest import write_skill

SKILLS = [
    Skill("pdf-merge", "Merge PDF files into one."),
    Skill("pdf-split", "Split PDF files into pages."),
    Skill("weather", "Report the weather forecast."),
]


def _idf(df: int, n: int = 3) -> float:
    """Lucene's non-negative BM25 idf."""
    return math.log(1 + (n - df + 0.5) / (df + 0.5))


def test_terms_and_symmetric_bm25_by_hand() -> None:
    pairs = overlap_pairs(SKILLS)
    assert [(p.a, p.b) for p in pairs] == [
        ("pdf-merge", "pdf-split"),
        ("pdf-merge", "weather"),
        ("pdf-split", "weather"),
    ]
    top = pairs[0]
    # Content words: pdf-merge {pdf, merge, files, one}, pdf-split {pdf, split, files, pages}.
    # Both documents have 6 words (pdf and their verb twice), so each word's length
    # normalisation is the same on both sides: the self-normalised score of one against the
    # other is idf(pdf) + idf(files) over the sum of all four idfs, with pdf and files in 2
    # documents and the other two in 1.
    shared, own = _idf(2), _idf(1)
    assert top.bm25 == pytest.approx(shared / (shared + own), abs=1e-9)
    assert top.shared == ("files", "pdf")
    assert top.only_a == ("merge", "one")
    assert top.only_b == ("pages", "split")
    assert pairs[1].bm25 == 0.0 and pairs[1].shared == ()
    assert top.cosine is None and top.similarity == top.bm25


def test_embedding_cosine_ranks_the_pdf_pair_first() -> None:
    from skillbench.cache import default_cache_root
    from skillbench.selectors import DEFAULT_MODEL, Embedder

    embed = Embedder.shared(DEFAULT_MODEL, default_cache_root()).embed
    pairs = overlap_pairs(SKILLS, embed=embed)
    by_pair = {(p.a, p.b): p for p in pairs}
    pdf = by_pair["pdf-merge", "pdf-split"]
    assert pdf.cosine is not None and 0.0 < pdf.cosine < 1.0
    for other in (by_pair["pdf-merge", "weather"], by_pair["pdf-split", "weather"]):
        assert other.cosine is not None and other.cosine < pdf.cosine
    assert pairs[0] is pdf


def _project(root: Path) -> Path:
    for s in SKILLS:
        write_skill(root / "skills", s.name, f"name: {s.name}\ndescription: {s.description}")
    requests = [
        # Expects pdf-merge, but only pdf-split's entry shares words (split, pages): a flip.
        {"id": "r1", "text": "split pages out of it", "expected": "pdf-merge"},
        {"id": "r2", "text": "merge the pdf files", "expected": "pdf-merge"},
        {"id": "r3", "text": "weather forecast for Paris", "expected": "weather"},
    ]
    (root / "requests.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in requests), encoding="utf-8"
    )
    config = {
        "name": "overlap-test",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "selectors": [{"type": "lexical", "threshold": 0.5}],
        "orderings": ["alpha"],
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def test_measured_confusions_and_flipped_requests(tmp_path: Path) -> None:
    config = load_config(_project(tmp_path))
    run_experiment(config, output=tmp_path / "run")
    run = read_run(tmp_path / "run")
    pairs = load_overlap([str(tmp_path / "skills")], run=run, embeddings=False)
    top = pairs[0]
    assert (top.a, top.b, top.confusions) == ("pdf-merge", "pdf-split", 1)
    [flip] = top.flips
    assert flip == ("r1", "pdf-merge", "pdf-split", 1, "split pages out of it")
    assert all(p.confusions == 0 for p in pairs[1:])


def test_cli_json(tmp_path: Path) -> None:
    config = load_config(_project(tmp_path))
    run_experiment(config, output=tmp_path / "run")
    out = tmp_path / "overlap.json"
    argv = ["overlap", str(tmp_path / "skills"), "--run", str(tmp_path / "run")]
    assert main([*argv, "--no-embeddings", "--format", "json", "--top", "1", "-o", str(out)]) == 0
    [pair] = json.loads(out.read_text(encoding="utf-8"))
    assert pair["confusions"] == 1 and pair["flips"][0]["request_id"] == "r1"
    assert main(["overlap", str(tmp_path / "skills"), "--run", str(tmp_path / "nowhere")]) == 1


def test_top_pairs_of_a_catalog_spanning_many_blocks_are_the_full_rankings_first() -> None:
    """``top`` keeps each skill's best partners a block at a time; the pairs it returns are
    exactly the first of the ranking over every pair."""
    vocabulary = [f"w{k}" for k in range(60)]
    skills = [
        Skill(
            f"s{i:03d}",
            " ".join(vocabulary[(i * 7 + k * k) % 60] for k in range(6 + i % 5)) + ".",
        )
        for i in range(600)
    ]
    everything = overlap_pairs(skills)
    assert len(everything) == 600 * 599 // 2
    for top in (1, 7, 40):
        assert overlap_pairs(skills, top=top) == everything[:top]
