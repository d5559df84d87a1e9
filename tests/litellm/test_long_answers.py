"""A model that answers with 20 MB: the decision is read from the whole answer, the run's
files keep a bounded excerpt (head, tail, size, digest), and ``--keep-raw`` keeps it whole."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.fake_openai import FakeOpenAI
from support.long_answers import (
    HUGE_TEXT,
    KEY_ENV,
    REQUESTS,
    huge_arguments,
    long_answer_policy,
    write_long_answer_project,
)

from skillbench._excerpt import HEAD_CHARS, TAIL_CHARS
from skillbench.cli import main
from skillbench.results import ResultRow, read_run

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv(KEY_ENV, "sk-local")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    with FakeOpenAI(policy=long_answer_policy) as server:
        yield write_long_answer_project(tmp_path / "project", server.base_url)


def _rows(run: Path) -> dict[str, ResultRow]:
    return {r.request_id: r for r in read_run(run).rows}


def _digest(text: str) -> tuple[int, str]:
    data = text.encode("utf-8")
    return len(data), hashlib.sha256(data).hexdigest()


def test_a_20_mb_answer_is_scored_whole_and_kept_as_an_excerpt(
    project: Path, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert main(["run", str(project), "-o", str(run), "--quiet"]) == 0
    assert main(["report", str(run), "--format", "csv,html"]) == 0
    assert main(["view", str(run), "-o", str(run / "view.html")]) == 0
    for name in ("results.jsonl", "decisions.csv", "report.html", "view.html"):
        assert (run / name).stat().st_size < 1_000_000, name

    rows = _rows(run)
    assert {rid: r.outcome for rid, r in rows.items()} == {
        "chatty": "correct_abstain",
        "bulky": "correct_skill",
        "plain": "correct_skill",
        "city": "correct_skill",
    }
    # The abstention's text: head, tail, UTF-8 size and digest of what the server sent.
    size, sha = _digest(HUGE_TEXT)
    text = rows["chatty"].detail["text"]
    assert text == {
        "excerpt": True,
        "bytes": size,
        "sha256": sha,
        "head": HUGE_TEXT[:HEAD_CHARS],
        "tail": HUGE_TEXT[-TAIL_CHARS:],
    }
    # The 20 MB arguments were parsed whole (the skill was read from them), then excerpted.
    call = rows["bulky"].detail["calls"][0]
    assert call["skill"] == "pdf-merge" and rows["bulky"].chosen == "pdf-merge"
    sent = huge_arguments("pdf-merge")
    assert (call["arguments"]["bytes"], call["arguments"]["sha256"]) == _digest(sent)
    assert call["arguments"]["head"] == sent[:HEAD_CHARS]
    # The raw response keeps its shape; only its long strings are excerpts.
    message = rows["chatty"].detail["response"]["choices"][0]["message"]
    assert message["role"] == "assistant" and message["content"]["sha256"] == sha
    assert rows["plain"].detail["calls"] == [
        {"name": "Skill", "arguments": json.dumps({"skill": "git-commit"}), "skill": "git-commit"}
    ]


@pytest.mark.slow
def test_keep_raw_keeps_every_answer_whole(project: Path, tmp_path: Path) -> None:
    run = tmp_path / "raw"
    assert main(["run", str(project), "-o", str(run), "--quiet", "--keep-raw"]) == 0
    rows = _rows(run)
    assert rows["chatty"].detail["text"] == HUGE_TEXT
    assert rows["bulky"].detail["calls"][0]["arguments"] == huge_arguments("pdf-merge")
    assert (run / "results.jsonl").stat().st_size > 2 * len(HUGE_TEXT)
    assert len(rows) == len(REQUESTS)
