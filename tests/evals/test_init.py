"""``skillbench init``: a scaffolded set lands where ``eval`` finds it, and ``eval`` runs it."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI, user_text

from skillbench.authoring import EvalReport
from skillbench.cli._main import main

KEY_ENV = "SKILLBENCH_INIT_TEST_KEY"


def test_offline_init_writes_a_set_that_eval_runs(
    skills: Path, capsys: pytest.CaptureFixture
) -> None:
    assert main(["init", str(skills / "git-rebase")]) == 0
    path = skills / "git-rebase" / "evals" / "trigger-evals.json"
    written = json.loads(path.read_text())
    # The description's one sentence is the should-trigger query; the near misses are the
    # descriptions of the three siblings, each a request of a task another skill owns.
    assert written[0] == {
        "query": "Can you rebase a git branch onto another and resolve conflicts step by step?",
        "should_trigger": True,
        "origin": "from git-rebase's description",
    }
    negatives = {q["origin"].rsplit(" ", 1)[1] for q in written if not q["should_trigger"]}
    assert negatives == {"pdf-extract", "pdf-merge", "docker-build"}
    capsys.readouterr()
    assert (
        main(["eval", str(skills / "git-rebase"), "--selector", "oracle", "--format", "json"]) == 0
    )
    report = EvalReport.model_validate_json(capsys.readouterr().out)
    (card,) = report.skills
    assert card.files == [str(path)]  # outside the current directory: shown in full
    assert (card.should_trigger.n, card.should_not_trigger.n) == (1, 3)
    # A second init keeps the person's edits unless told otherwise.
    assert main(["init", str(skills / "git-rebase")]) == 1
    assert "already there" in capsys.readouterr().err


def writer(body: Mapping[str, Any]) -> str:
    """Plays the model for synth's prompts: two positives, or two near misses."""
    text = user_text(body)
    name = re.search(r"skill named '([^']+)'", text)
    skill = name.group(1) if name else "?"
    if "none of these" in text:
        requests = [{"text": f"what is a {skill} anyway"}, {"text": f"history of {skill}"}]
    else:
        requests = [
            {"kind": "normal", "text": f"please {skill.replace('-', ' ')} my branch"},
            {"kind": "boundary", "text": f"{skill} with an empty branch?"},
        ]
    return json.dumps({"requests": requests})


def test_init_with_a_model_writes_synths_queries(
    skills: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-init-test")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    with FakeOpenAI(policy=writer) as server:
        code = main(
            [
                "init",
                str(skills / "git-rebase"),
                "--model",
                "openai/gpt-4o-mini",
                "--api-base",
                server.base_url,
                "--api-key-env",
                KEY_ENV,
            ]
        )
        calls = server.requests
    assert code == 0
    assert calls == 2  # one positive and one near-miss prompt, for git-rebase only
    written = json.loads((skills / "git-rebase" / "evals" / "trigger-evals.json").read_text())
    assert [(q["query"], q["should_trigger"], q["origin"]) for q in written] == [
        ("please git rebase my branch", True, "synth: normal"),
        ("git-rebase with an empty branch?", True, "synth: boundary"),
        ("what is a git-rebase anyway", False, "synth: near-miss"),
        ("history of git-rebase", False, "synth: near-miss"),
    ]
