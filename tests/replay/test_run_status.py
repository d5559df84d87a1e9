"""How a run ends, against a real loopback model server: incomplete, failed, interrupted,
stopped and resumed; and which output folders a run accepts."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest
from support.fake_openai import FakeOpenAI

from skillbench._errors import SkillbenchError
from skillbench.cli import main
from skillbench.replay import load_config, run_experiment
from skillbench.results import read_rows, read_run
from skillbench.selectors import SELECTORS, Decision, Query, SelectorEnv

KEY_ENV = "SKILLBENCH_STATUS_TEST_KEY"
SKILLS = {
    "pdf-merge": "Merge several PDF files into one document.",
    "git-commit": "Write a commit message for staged changes.",
    "weather": "Report the weather forecast for a city.",
}
REQUESTS = [
    ("q0", "merge the pdf files", "pdf-merge"),
    ("q1", "weather in Paris tomorrow", "weather"),
    ("q2", "write a git commit message", "git-commit"),
    ("q3", "what is 2 + 2", None),
    ("q4", "pdf merge again please", "pdf-merge"),
    ("q5", "forecast weather for Oslo", "weather"),
]


@pytest.fixture
def fake() -> Iterator[FakeOpenAI]:
    with FakeOpenAI(retry_after="0.01") as server:
        yield server


@pytest.fixture(autouse=True)
def _env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-status-test")
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))


def project(root: Path, selector: Mapping[str, Any], **extra: Any) -> Path:
    """Skills, requests and a run config under ``root``; returns the config path."""
    for name, description in SKILLS.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nDo it.\n", encoding="utf-8"
        )
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for rid, text, expected in REQUESTS:
            fh.write(json.dumps({"id": rid, "text": text, "expected": expected}) + "\n")
    config = {
        "name": "status",
        "catalogs": {"base": ["skills"]},
        "requests": "requests.jsonl",
        "orderings": ["alpha"],
        "selectors": [dict(selector)],
        **extra,
    }
    path = root / "config.yaml"
    path.write_text(json.dumps(config), encoding="utf-8")
    return path


def model(base_url: str, **params: Any) -> dict[str, Any]:
    return {
        "type": "litellm",
        "name": "model",
        "model": "openai/gpt-4o-mini",
        "api_base": base_url,
        "api_key_env": KEY_ENV,
        "backoff_s": 0.01,
        "max_attempts": 2,
        **params,
    }


def decisions(run_dir: Path) -> list[tuple[str, str | None, str]]:
    return sorted((r.request_id, r.chosen, r.outcome) for r in read_rows(run_dir / "results.jsonl"))


def test_errors_make_the_run_incomplete_and_resume_retries_exactly_them(
    tmp_path: Path, fake: FakeOpenAI, capsys: pytest.CaptureFixture[str]
) -> None:
    # Without controls: the one naming weather would fail too (a third error).
    config = project(tmp_path, model(fake.base_url), controls={"per_cell": 0})
    fake.script.update({"weather": "[[always500]]"})
    out = tmp_path / "run"
    assert main(["run", str(config), "-o", str(out), "-q"]) == 1
    err = capsys.readouterr().err
    assert "run incomplete: 2 decision(s) got no answer; first (q" in err
    assert "InternalServerError" in err
    assert "--resume" in err
    run = read_run(out)
    assert run.status == "incomplete" and run.manifest is not None and run.manifest.errors == 2
    (cell,) = run.summary.cells
    # Four requests were answered, all correctly; the two errors are beside the rates.
    assert (cell.n, cell.errors) == (6, 2)
    assert cell.metric("accuracy") == 1.0
    assert cell.metric("error_rate") == pytest.approx(2 / 6)
    assert cell.metric("recall") == 1.0  # over the 3 answered positives
    assert "**Run incomplete: 2 decision(s) got no answer" in (out / "report.md").read_text()
    sent = fake.requests

    fake.script.clear()
    assert main(["run", str(config), "-o", str(out), "-q", "--resume"]) == 0
    # The pre-flight probe, then only the two errored decisions are asked again.
    assert fake.requests - sent == 1 + 2
    assert read_run(out).status == "complete"
    assert decisions(out) == [
        ("q0", "pdf-merge", "correct_skill"),
        ("q1", "weather", "correct_skill"),
        ("q2", "git-commit", "correct_skill"),
        ("q3", None, "correct_abstain"),
        ("q4", "pdf-merge", "correct_skill"),
        ("q5", "weather", "correct_skill"),
    ]


def test_a_spend_capped_run_resumes_after_raising_the_cap(
    tmp_path: Path, fake: FakeOpenAI, monkeypatch: pytest.MonkeyPatch
) -> None:
    capped = project(tmp_path / "capped", model(fake.base_url, max_cost_usd=1e-9))
    out = tmp_path / "capped" / "run"
    assert main(["run", str(capped), "-o", str(out), "-q", "-j", "1"]) == 1
    assert read_run(out).status == "stopped"
    raised = project(tmp_path / "capped", model(fake.base_url, max_cost_usd=10.0))
    assert main(["run", str(raised), "-o", str(out), "-q", "--resume"]) == 0
    assert read_run(out).status == "complete"
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "fresh-cache"))
    full_dir = tmp_path / "full"
    config = project(tmp_path, model(fake.base_url))
    run_experiment(load_config(config), output=full_dir, max_concurrency=1)
    assert decisions(out) == decisions(full_dir)


class _Refusing:
    """A selector that cannot go on, as a model selector is when its key is refused."""

    name = "refusing"

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        raise SkillbenchError("provider refused the key (401)")


def test_a_selector_error_fails_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def factory(params: Mapping[str, Any], env: SelectorEnv) -> _Refusing:
        return _Refusing()

    with SELECTORS.temporarily("test-refusing", factory):
        config = project(tmp_path, {"type": "test-refusing"})
        out = tmp_path / "run"
        assert main(["run", str(config), "-o", str(out), "-q"]) == 1
    assert "provider refused the key (401)" in capsys.readouterr().err
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["status"] == "failed"
    assert manifest["stop_reason"] == "provider refused the key (401)"


def test_sigint_stops_the_run_at_once_and_marks_it_interrupted(tmp_path: Path) -> None:
    """Six calls of 5 s each: after Ctrl-C during the first, no further call is made (the
    number of requests, not the wall clock, shows it: a loaded machine may be slow to exit)."""
    with FakeOpenAI(latency_s=5.0) as slow:
        config = project(tmp_path, model(slow.base_url))
        out = tmp_path / "run"
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
        cmd = [sys.executable, "-m", "skillbench", "run", str(config), "-o", str(out), "-q"]
        proc = subprocess.Popen([*cmd, "-j", "1"], env=env, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 180
        while slow.requests == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert slow.requests == 1
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=180)
        asked = slow.requests
    assert code == 130
    assert asked == 1
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"


def _never_config(tmp_path: Path, **extra: Any) -> Path:
    return project(tmp_path, {"type": "never"}, **extra)


@pytest.mark.parametrize("case", ["file", "parent-file", "proc"])
def test_unusable_output_folders_fail_in_one_line_before_any_work(
    tmp_path: Path, case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    config = _never_config(tmp_path)
    (tmp_path / "a-file").write_text("x")
    target = {
        "file": tmp_path / "a-file",
        "parent-file": tmp_path / "a-file" / "run",
        "proc": Path("/proc/skillbench-run"),
    }[case]
    assert main(["run", str(config), "-o", str(target), "-q"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: -o {target}:")
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "a-file",
        "config.yaml",
        "requests.jsonl",
        "skills",
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into any folder")
def test_an_unwritable_output_folder_fails_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    assert main(["run", str(_never_config(tmp_path)), "-o", str(locked), "-q"]) == 1
    assert capsys.readouterr().err.startswith(f"error: -o {locked}: cannot write there")


def test_another_configs_run_is_refused_unless_overwrite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    first = _never_config(tmp_path / "a")
    assert main(["run", str(first), "-o", str(out), "-q"]) == 0
    second = _never_config(tmp_path / "b", repeats=2)
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    assert main(["run", str(second), "-o", str(out), "-q"]) == 1
    assert "pass --overwrite" in capsys.readouterr().err
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before  # untouched
    assert main(["run", str(second), "-o", str(out), "-q", "--overwrite"]) == 0
    run = read_run(out)
    assert run.manifest is not None and run.manifest.config_hash == run.summary.config_hash
    assert len(run.rows) == 2 * len(REQUESTS)


def test_pacing_settings_do_not_change_the_config_hash(tmp_path: Path) -> None:
    base = load_config(project(tmp_path / "a", model("http://127.0.0.1:9/v1")))
    paced = project(
        tmp_path / "b",
        model("http://127.0.0.1:9/v1", max_cost_usd=3.0, max_attempts=9, timeout=5, cache=False),
        output_dir=str(tmp_path / "elsewhere"),
    )
    assert load_config(paced).config_hash() == base.config_hash()
    sampled = project(tmp_path / "c", model("http://127.0.0.1:9/v1", params={"temperature": 1}))
    assert load_config(sampled).config_hash() != base.config_hash()
