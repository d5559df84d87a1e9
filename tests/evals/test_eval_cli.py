"""``skillbench eval``: trigger rates and pass/fail from scripted model answers, counted by
hand; the scorecard of a folder of skills; errors in a set reach the user with file and line."""

from __future__ import annotations

import json
import threading
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, default_policy, user_text

from skillbench.authoring import EvalReport
from skillbench.cli._main import main
from tests.evals.conftest import write_set

KEY_ENV = "SKILLBENCH_TEST_KEY"

# Per query, what the model invokes on its 1st, 2nd and 3rd call (None: answers in text).
SCRIPT: dict[str, list[str | None]] = {
    "get the text out of this pdf report": ["pdf-extract", None, "pdf-extract"],
    "extract the table on page 3 of invoice.pdf": [None, "pdf-merge", "pdf-extract"],
    "merge a.pdf and b.pdf into one file": ["pdf-merge", "pdf-merge", None],
    "rebase my feature branch on main": ["pdf-extract", "pdf-extract", "git-rebase"],
    "build an image and push it": ["docker-build", None, None],
}
# Hand count for pdf-extract (3 runs each; only pdf-extract's own firing counts, except for
# the none_should_trigger query where any skill counts):
#   #1 should trigger      fired 2/3 -> rate 0.667 >= 0.5 pass
#   #2 should trigger      fired 1/3 -> rate 0.333 <  0.5 fail
#   #3 should not          fired 0/3 (pdf-merge twice is not pdf-extract's failure) -> pass
#   #4 should not          fired 2/3 -> rate 0.667, not < 0.5 -> fail
#   #5 none should trigger any skill 1/3 -> rate 0.333 < 0.5 -> pass
EXPECTED = {
    "pdf-extract#1": (2, 3, True),
    "pdf-extract#2": (1, 3, False),
    "pdf-extract#3": (0, 3, True),
    "pdf-extract#4": (2, 3, False),
    "pdf-extract#5": (1, 3, True),
}


class Scripted:
    """Answers each query with the next scripted choice for its text."""

    def __init__(self) -> None:
        self.calls: Counter[str] = Counter()
        self.lock = threading.Lock()

    def __call__(self, body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
        text = user_text(body)
        if text not in SCRIPT:  # the selector's pre-flight probe
            return default_policy(body)
        with self.lock:
            turn = self.calls[text]
            self.calls[text] += 1
        choice = SCRIPT[text][turn]
        return "No skill needed." if choice is None else [("Skill", json.dumps({"skill": choice}))]


def test_trigger_rates_and_pass_fail_match_a_hand_count(
    skills: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-test")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    write_set(
        skills / "pdf-extract",
        [
            {"query": "get the text out of this pdf report", "should_trigger": True},
            {"query": "extract the table on page 3 of invoice.pdf", "should_trigger": True},
            {"query": "merge a.pdf and b.pdf into one file", "should_trigger": False},
            {"query": "rebase my feature branch on main", "should_trigger": False},
            {
                "query": "build an image and push it",
                "should_trigger": False,
                "none_should_trigger": True,
            },
        ],
    )
    policy = Scripted()
    with FakeOpenAI(policy=policy) as server:
        code = main(
            [
                "eval",
                str(skills / "pdf-extract"),
                "--model",
                "openai/gpt-4o-mini",
                "--api-base",
                server.base_url,
                "--api-key-env",
                KEY_ENV,
                "--format",
                "json",
                "--quiet",
            ]
        )
    assert code == 0
    report = EvalReport.model_validate_json(capsys.readouterr().out)
    (card,) = report.skills
    assert report.repeats == 3 and report.selector == "litellm:openai/gpt-4o-mini"
    got = {q.id: (q.triggered, q.runs, q.passed) for q in card.queries}
    assert got == EXPECTED
    assert policy.calls == Counter({text: 3 for text in SCRIPT})
    assert (card.should_trigger.passed, card.should_trigger.n) == (1, 2)
    assert (card.should_not_trigger.passed, card.should_not_trigger.n) == (2, 3)
    assert card.failing == ["pdf-extract#2", "pdf-extract#4"]
    assert card.catalog_size == 4
    # Wilson 95% for 3 of 5 (z = 1.96): centre (0.6 + 1.9208/5)/1.76829 = 0.55654, half
    # 1.96 * sqrt(0.24/5 + 3.8415/100)/1.76829 = 0.32571 -> [0.2308, 0.8823].
    assert card.overall.ci == pytest.approx([0.2308, 0.8823], abs=1e-4)
    # Both labels have two queries or more, so the set is split: max(1, int(2 * 0.4)) +
    # max(1, int(3 * 0.4)) = 2 validation queries.
    assert card.validation is not None and card.validation.n == 2


def test_a_folder_of_skills_prints_the_scorecard(
    skills: Path, capsys: pytest.CaptureFixture
) -> None:
    code = main(["eval", str(skills), "--selector", "oracle", "--repeats", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "oracle selector, codebot listing, 2 runs per query" in out
    assert "no trigger set (not scored): docker-build, git-rebase" in out
    assert "pdf-extract  (4 skills listed)" in out
    assert "pdf-merge  (4 skills listed; 1 output evals ignored)" in out
    # The oracle invokes the expected skill when shown and abstains on negatives: all pass.
    assert "  should trigger      2/2 (100%, 95% CI 34%-100%)" in out
    assert "  should not trigger  1/1 (100%, 95% CI 21%-100%)" in out


def test_the_gate_fails_a_skill_under_the_floor(
    skills: Path, capsys: pytest.CaptureFixture
) -> None:
    # `never` abstains everywhere: should-trigger queries all fail, should-not all pass.
    code = main(
        ["eval", str(skills / "pdf-extract"), "--selector", "never", "--min-pass-rate", "0.6"]
    )
    out = capsys.readouterr().out
    assert code == 100
    assert "pdf-extract  FAIL" in out
    assert "all queries         2/4 (50%" in out


def test_verbose_lists_every_query(
    skills: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.chdir(skills)
    assert main(["eval", "pdf-extract", "--selector", "never", "--repeats", "2", "-v"]) == 0
    lines = capsys.readouterr().out.splitlines()
    queries = lines[lines.index("  queries:") + 1 :]
    # `never` abstains: rate 0 fails both should-trigger queries and passes both others.
    assert queries == [
        "    FAIL pdf-extract/evals/evals.json:2  should trigger, triggered 0/2 (rate 0.00)  "
        "'get the text out of this pdf report'  (invoked: none 2)",
        "    FAIL pdf-extract/evals/evals.json:6  should trigger, triggered 0/2 (rate 0.00)  "
        "'extract the table on page 3 of invoice.pdf'  (invoked: none 2)",
        "    pass pdf-extract/evals/evals.json:10  should not trigger, triggered 0/2 (rate 0.00)  "
        "'merge a.pdf and b.pdf into one file'  (invoked: none 2)",
        "    pass pdf-extract/evals/evals.json:14  should not trigger, triggered 0/2 (rate 0.00)  "
        "'rebase my feature branch on main'  (invoked: none 2)",
    ]


def test_a_bad_set_is_an_error_with_file_and_line(
    skills: Path, capsys: pytest.CaptureFixture
) -> None:
    path = write_set(skills / "git-rebase", [{"query": "rebase it", "should_trigger": "yes"}])
    code = main(["eval", str(skills / "git-rebase"), "--selector", "oracle"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: {path}:2: field 'should_trigger': required: true or false" in err
    assert "Traceback" not in err


def test_a_named_skill_without_a_set_says_how_to_write_one(
    skills: Path, capsys: pytest.CaptureFixture
) -> None:
    code = main(["eval", str(skills / "docker-build"), "--selector", "oracle"])
    assert code == 1
    assert "skillbench init" in capsys.readouterr().err
