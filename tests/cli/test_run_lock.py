"""Two real ``skillbench run`` processes started together on one ``-o`` (the second with
``--overwrite`` and another config): exactly one runs, the other is refused by name, and the
folder ends holding one consistent run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.fake_openai import FakeOpenAI

from skillbench.replay import load_config
from skillbench.results import LOCK_FILE, read_run

pytestmark = pytest.mark.timeout(300)

KEY_ENV = "SKILLBENCH_LOCK_TEST_KEY"
SKILLS = {
    "pdf-merge": "Merge several PDF files into one document.",
    "weather": "Report the weather forecast for a city.",
}


def _project(root: Path, base_url: str) -> tuple[Path, Path]:
    """Two configs of one catalog that differ (budgets), each a model run of some seconds."""
    for name, description in SKILLS.items():
        folder = root / "skills" / name
        folder.mkdir(parents=True)
        (folder / "SKILL.md").write_text(f"---\nname: {name}\ndescription: {description}\n---\n")
    with (root / "requests.jsonl").open("w", encoding="utf-8") as fh:
        for i in range(12):
            text, expected = ("merge pdf", "pdf-merge") if i % 2 else ("weather", "weather")
            fh.write(json.dumps({"id": f"q{i}", "text": f"{text} {i}", "expected": expected}))
            fh.write("\n")
    selector = {
        "type": "litellm",
        "model": "openai/gpt-4o-mini",
        "api_base": base_url,
        "api_key_env": KEY_ENV,
        "backoff_s": 0.01,
    }
    configs = []
    for name, budgets in (("a", [4000]), ("b", [2000, 4000])):
        body = {
            "name": name,
            "catalogs": {"base": ["skills"]},
            "requests": "requests.jsonl",
            "budgets": budgets,
            "selectors": [selector],
        }
        path = root / f"{name}.yaml"
        path.write_text(json.dumps(body), encoding="utf-8")
        configs.append(path)
    return configs[0], configs[1]


def test_two_runs_on_one_folder_one_runs_the_other_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "reports" / "x"
    env = {**os.environ, KEY_ENV: "sk-local", "SKILLBENCH_CACHE_DIR": str(tmp_path / "cache")}
    with FakeOpenAI(latency_s=0.1) as server:
        a, b = _project(tmp_path, server.base_url)
        argv = {
            a: ["run", str(a), "-o", str(out), "--quiet", "-j", "1"],
            b: ["run", str(b), "-o", str(out), "--quiet", "-j", "1", "--overwrite"],
        }
        started = {
            config: subprocess.Popen(
                [sys.executable, "-m", "skillbench", *args],
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for config, args in argv.items()
        }
        ended = {config: (p.wait(timeout=240), *p.communicate()) for config, p in started.items()}
    codes = {config: code for config, (code, _, _) in ended.items()}
    assert sorted(codes.values()) == [0, 1], ended
    winner = next(config for config, code in codes.items() if code == 0)
    loser = b if winner == a else a
    pid = started[winner].pid
    refusal = ended[loser][2]
    assert f"error: {out} is being written by pid {pid} (skillbench run {winner} -o {out}" in (
        refusal
    ), refusal
    # The folder holds the winner's run alone, complete and whole.
    run = read_run(out)
    assert run.manifest is not None and run.manifest.status == "complete"
    assert run.summary.config_hash == load_config(winner).config_hash()
    assert run.manifest.config_hash == run.summary.config_hash
    assert len(run.rows) == run.manifest.decisions == 12 * (1 if winner == a else 2)
    assert not (out / LOCK_FILE).exists()
