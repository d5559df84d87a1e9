"""A retrieve stage in front of the litellm selector: the model is sent only the top k skills."""

from __future__ import annotations

from pathlib import Path

import pytest
from llm_helpers import calls, fake_selector, write_project
from support.fake_openai import FakeOpenAI, listed_skills, user_text

from skillbench.replay import dry_run, load_config, run_experiment
from skillbench.results import read_run

REQUESTS = [
    {"id": "q0", "text": "merge the pdf files", "expected": "pdf-merge"},
    {"id": "q1", "text": "weather in Paris tomorrow", "expected": "weather"},
    {"id": "q2", "text": "write a git commit message", "expected": "git-commit"},
]


@pytest.mark.parametrize("profile", ["codebot", "codex"])
def test_the_model_sees_only_the_retrieved_skills(
    tmp_path: Path, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch, profile: str
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    selector = fake_selector(fake.base_url, retrieve={"method": "bm25", "k": 2})
    project = write_project(tmp_path, REQUESTS, selector, profiles=[profile])
    result = run_experiment(load_config(project), output=tmp_path / "run")
    assert result.status == "complete"
    names = {r["expected"] for r in REQUESTS}  # the catalog (codex's preamble has more bullets)
    sent = {user_text(b): set(listed_skills(b)) & names for b in calls(fake.bodies)}
    assert len(sent) == 3
    # BM25 puts the one skill sharing words with the request first; the other two tie at 0
    # and keep catalog order (git-commit, pdf-merge, weather), so the first of them follows.
    assert sent["merge the pdf files"] == {"pdf-merge", "git-commit"}
    assert sent["weather in Paris tomorrow"] == {"weather", "git-commit"}
    assert sent["write a git commit message"] == {"git-commit", "pdf-merge"}
    rows = read_run(result.run_dir).rows
    assert all(r.retrieved == 2 and r.shown == 2 for r in rows)
    assert all(r.retrieved_ranks == [1] for r in rows)
    assert all(r.outcome == "correct_skill" for r in rows)
    assert all(r.listing_tokens < r.full_listing_tokens for r in rows)


def test_dry_run_estimates_the_top_k_listings(
    tmp_path: Path, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    plans = {}
    for k in (1, 3):
        selector = fake_selector(fake.base_url, retrieve={"method": "bm25", "k": k})
        project = write_project(tmp_path / str(k), REQUESTS, selector)
        estimate = dry_run(load_config(project)).selectors["fake"].estimate
        assert estimate is not None
        plans[k] = estimate
    assert plans[1]["calls"] == plans[3]["calls"] == 3
    assert plans[1]["est_prompt_tokens"] < plans[3]["est_prompt_tokens"]  # 1 listed skill, not 3
    assert fake.requests == 0
