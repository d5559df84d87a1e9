"""The embedding selector and its cache, with the real packaged MiniLM model."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from selector_helpers import SKILLS, listing, query

from skillbench.listing import ListedSkill
from skillbench.selectors import (
    DEFAULT_MODEL,
    SELECTORS,
    Calibratable,
    Embedder,
    EmbeddingSelector,
    SelectorEnv,
    entry_text,
    preload_vectors,
    shared_vectors,
)

ALL = ["weather", "pdf-merge", "git-commit", "translate"]


def test_picks_the_closest_shown_skill(env: SelectorEnv) -> None:
    lst = listing(ALL)
    decisions = SELECTORS.get("embedding")({}, env).select(
        [
            query("will it rain in Berlin tomorrow?", ("weather",), lst),
            query("combine these two PDFs into one file", ("pdf-merge",), lst),
            query("say this in French: good morning", ("translate",), lst),
        ]
    )
    assert [d.chosen for d in decisions] == ["weather", "pdf-merge", "translate"]
    assert all(0.35 <= d.score <= 1 and d.latency_ms > 0 for d in decisions)


def test_hidden_best_match_is_never_chosen(env: SelectorEnv) -> None:
    lst = listing(["weather", "git-commit"], hidden=["pdf-merge"])
    [d] = SELECTORS.get("embedding")({"threshold": -1}, env).select(
        [query("combine these two PDFs into one file", ("pdf-merge",), lst)]
    )
    assert d.kind == "invoke" and d.chosen in {"weather", "git-commit"}


def test_threshold_abstains(env: SelectorEnv) -> None:
    lst = listing(ALL)
    q = query("what is the capital of Peru", (), lst)
    [loose] = SELECTORS.get("embedding")({"threshold": -1}, env).select([q])
    [strict] = SELECTORS.get("embedding")({"threshold": 0.99}, env).select([q])
    [default] = SELECTORS.get("embedding")({}, env).select([q])
    assert loose.kind == "invoke" and strict.kind == "abstain" and default.kind == "abstain"
    assert strict.score == pytest.approx(loose.score)


def test_entry_text_is_what_was_shown() -> None:
    skill = SKILLS["weather"]
    assert entry_text(ListedSkill(skill, "name_only", 0, 9, "")) == "weather"
    cut = ListedSkill(skill, "truncated", 0, 20, "Report the cur…", when="Use for trips")
    assert entry_text(cut) == "weather: Report the cur… Use for trips"


def test_calibration_picks_a_threshold_between_positives_and_negatives(env: SelectorEnv) -> None:
    lst = listing(ALL)
    train = [
        query("will it rain in Berlin tomorrow?", ("weather",), lst, rid="p1"),
        query("combine these two PDFs into one file", ("pdf-merge",), lst, rid="p2"),
        query("write the commit message for my staged diff", ("git-commit",), lst, rid="p3"),
        query("what is the capital of Peru", (), lst, rid="n1"),
        query("recommend a good novel", (), lst, rid="n2"),
    ]
    selector = SELECTORS.get("embedding")({"threshold": "auto"}, env)
    assert isinstance(selector, Calibratable)
    threshold = selector.calibrate(train).threshold
    scores = [d.score for d in SELECTORS.get("embedding")({"threshold": -1}, env).select(train)]
    assert max(scores[3:]) < threshold < min(scores[:3])
    assert selector.calibrate(train).threshold == threshold  # deterministic
    assert [d.chosen for d in selector.select(train)] == [
        "weather", "pdf-merge", "git-commit", None, None,
    ]  # fmt: skip


def test_each_text_is_encoded_once_then_read_from_disk(tmp_path: Path) -> None:
    calls: list[list[str]] = []
    lst = listing(ALL)
    queries = [
        query("will it rain in Berlin tomorrow?", ("weather",), lst),
        query("will it rain in Berlin tomorrow?", ("weather",), lst, repeat=1),
        query("merge PDFs", ("pdf-merge",), lst),
    ]
    first = Embedder(DEFAULT_MODEL, tmp_path)
    first.on_encode = calls.append
    decisions = EmbeddingSelector(first, 0.35).select(queries)
    assert len(calls) == 1 and len(calls[0]) == 2 + len(ALL)  # one batch, unique texts
    EmbeddingSelector(first, 0.35).select(queries)
    assert len(calls) == 1  # memory hit

    second = Embedder(DEFAULT_MODEL, tmp_path)  # a new process: empty memory, same disk cache
    second.on_encode = calls.append
    again = EmbeddingSelector(second, 0.35).select(queries)
    assert len(calls) == 1  # disk hit: the model was not asked again
    assert [d.score for d in again] == pytest.approx([d.score for d in decisions])
    assert next(iter((tmp_path / "embeddings").iterdir())).joinpath("vectors.sqlite").is_file()


def test_shared_embedder_is_one_per_model_and_cache(tmp_path: Path) -> None:
    a = Embedder.shared(DEFAULT_MODEL, tmp_path)
    assert Embedder.shared("sentence-transformers/all-MiniLM-L6-v2", tmp_path) is a
    assert Embedder.shared(DEFAULT_MODEL, tmp_path / "other") is not a
    vectors = a.embed(["hello world", "hello world"])
    assert vectors.shape == (2, 384)
    assert np.linalg.norm(vectors, axis=1) == pytest.approx([1.0, 1.0], abs=1e-5)


def test_a_query_scores_the_same_to_the_last_bit_in_any_batch(env: SelectorEnv) -> None:
    lst = listing(ALL)
    texts = [f"please help with task number {i}: merge, translate or forecast" for i in range(40)]
    queries = [query(t, (), lst) for t in texts]
    selector = SELECTORS.get("embedding")({}, env)
    together = [d.score for d in selector.select(queries)]
    alone = [selector.select([q])[0].score for q in queries]
    halves = [d.score for part in (queries[:7], queries[7:]) for d in selector.select(part)]
    assert together == alone == halves  # exact float equality, not approx


def test_shipped_vectors_spare_another_process_the_model(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Preloading is process-wide: keep it to this test.
    monkeypatch.setattr("skillbench.selectors._embedder._preloaded", {})
    here = Embedder.shared(DEFAULT_MODEL, tmp_path / "driver")
    texts = ["will it rain in Berlin tomorrow?", "merge PDFs"]
    vectors = here.embed(texts)
    shipped = shared_vectors()
    assert here.model_id in shipped
    # Another process: an empty memory and its own (empty) disk cache.
    calls: list[list[str]] = []
    preload_vectors(shipped)
    there = Embedder.shared(DEFAULT_MODEL, tmp_path / "worker")
    there.on_encode = calls.append
    assert np.array_equal(there.embed(texts), vectors)
    assert calls == []
