"""``compare --proxy`` on real runs: the lexical selector offline against a litellm selector
talking to a scripted OpenAI-compatible server on 127.0.0.1, both through ``skillbench run``.

The grid is four codebot budgets over three skills listed alphabetically: 200 characters
list none, 250 git-commit, 300 git-commit and pdf-merge, 400 all three.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from llm_helpers import GRID, REQUESTS, fake_selector, write_project
from scipy.stats import kendalltau, spearmanr
from support.fake_openai import FakeOpenAI, listed_skills, user_text

from skillbench.cli import main


def _run(root: Path, selector: Mapping[str, Any], *extra: str) -> tuple[int, Path]:
    root.mkdir(parents=True)
    config = write_project(root, REQUESTS, selector, **GRID)
    return main(["run", str(config), "-o", str(root / "run"), "-q", *extra]), root / "run"


@pytest.fixture
def offline(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("SKILLBENCH_CACHE_DIR", str(tmp_path / "cache"))
    code, run = _run(tmp_path / "offline", {"type": "lexical"})
    assert code == 0
    return run


def _accuracy(run: Path) -> list[float]:
    """Each budget's accuracy as the run's own summary.json has it."""
    cells = json.loads((run / "summary.json").read_text(encoding="utf-8"))["cells"]
    return [c["accuracy"] for c in sorted(cells, key=lambda c: c["budget"])]


def _choices(run: Path) -> dict[tuple[int, str], str | None]:
    rows = [json.loads(x) for x in (run / "results.jsonl").read_text().splitlines()]
    return {(r["budget"], r["request_id"]): r["chosen"] for r in rows if not r.get("control")}


def test_lexical_ranks_budgets_like_the_model(
    offline: Path, fake: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, live = _run(tmp_path / "live", fake_selector(fake.base_url))
    assert code == 0
    capsys.readouterr()
    out_file = tmp_path / "proxy.json"
    argv = ["compare", "--proxy", str(offline), str(live), "--format", "json"]
    assert main([*argv, "-o", str(out_file), "--require-agreement"]) == 0
    out = json.loads(out_file.read_text(encoding="utf-8"))
    proxy, model = _accuracy(offline), _accuracy(live)
    assert [c["proxy"] for c in out["configurations"]] == pytest.approx(proxy)
    assert [c["model"] for c in out["configurations"]] == pytest.approx(model)
    assert model == sorted(model) and len(set(model)) == 4  # more listed, more right
    assert out["spearman"]["value"] == pytest.approx(spearmanr(proxy, model).statistic)
    assert out["kendall"]["value"] == pytest.approx(kendalltau(proxy, model).statistic)
    assert out["verdict"]["answer"] == "yes"
    assert out["model"]["type"] == "litellm" and out["model"]["model"] == "openai/gpt-4o-mini"
    a, b = _choices(offline), _choices(live)
    assert a.keys() == b.keys() and len(a) == 4 * len(REQUESTS)
    same = sum(a[k] == b[k] for k in a) / len(a)
    assert out["decisions"]["same_choice"] == pytest.approx(same)
    assert main(["compare", "--proxy", str(offline), str(live)]) == 0
    text = capsys.readouterr().out
    line = "the lexical proxy ranks budgets like the model fake (litellm openai/gpt-4o-mini): yes"
    assert line in text


def _first_listed(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """A model that invokes the skill a request asks for by name ("Use the NAME skill"),
    else the first one listed."""
    skills = list(listed_skills(body))
    text = user_text(body)
    named = [s for s in skills if f"Use the {s} skill" in text]
    choice = (named or skills or [None])[0]
    return "No skill applies." if choice is None else [("Skill", json.dumps({"skill": choice}))]


def test_a_model_that_ignores_descriptions_leaves_nothing_to_rank(
    offline: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It picks the first listed skill: every budget scores 12 of 48 (the negatives at 200
    characters, git-commit's requests above), so no pair differs beyond noise."""
    with FakeOpenAI(policy=_first_listed) as server:
        code, live = _run(tmp_path / "live", fake_selector(server.base_url))
    assert code == 0
    assert _accuracy(live) == pytest.approx([0.25] * 4)
    capsys.readouterr()
    argv = ["compare", "--proxy", str(offline), str(live), "--format", "json"]
    assert main([*argv, "--require-agreement"]) == 100
    out = json.loads(capsys.readouterr().out)
    assert out["verdict"]["answer"] == "not enough data"
    assert "the model tells no two configurations apart" in out["verdict"]["reason"]


def test_a_live_run_with_unanswered_decisions_is_refused(
    offline: Path, fake: FakeOpenAI, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake.script["tell me a joke"] = "[[always500]]"
    code, live = _run(tmp_path / "live", fake_selector(fake.base_url, max_attempts=1))
    assert code == 1
    capsys.readouterr()
    assert main(["compare", "--proxy", str(offline), str(live)]) == 1
    assert "the run is incomplete" in capsys.readouterr().err
