"""Embedding work is counted while it runs: the run's terminal shows texts embedded of total."""

from __future__ import annotations

from skillbench.selectors import DEFAULT_MODEL, Embedder, embedding_progress


def test_each_batch_is_counted_after_the_model_loads() -> None:
    """70 texts in batches of 32: 0 once loaded, then 32, 64, 70; nothing outside the block."""
    embedder = Embedder(DEFAULT_MODEL, None, batch_size=32)
    seen: list[tuple[int, int]] = []
    texts = [f"request number {i} about deploying service {i % 7}" for i in range(70)]
    with embedding_progress(lambda done, total: seen.append((done, total))):
        vectors = embedder.embed(texts)
    assert seen == [(0, 70), (32, 70), (64, 70), (70, 70)]
    assert vectors.shape[0] == 70
    embedder.embed(["one more text, embedded outside the block"])
    assert len(seen) == 4
