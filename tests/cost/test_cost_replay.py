"""The cost annotator inside a real replay: row columns and the summary cell's ``cost``."""

from __future__ import annotations

import json
from pathlib import Path

from skillbench.replay import load_config, run_experiment
from skillbench.results import read_rows

REQUESTS = [
    {"id": "r1", "text": "review my diff", "expected": "review", "session": "s", "turn": 0},
    {"id": "r2", "text": "and the tests", "expected": "review", "session": "s", "turn": 1},
    {"id": "r3", "text": "explain the repo", "expected": "tour", "session": "s", "turn": 2},
    {"id": "r4", "text": "hello", "expected": None, "session": "t", "turn": 0},
]


def _project(tmp_path: Path, settings: str = "") -> Path:
    """Two skills, four requests and a config (plus ``settings`` YAML); returns the config."""
    skills = tmp_path / "skills"
    for name, extra, body in [
        ("review", "", "Review $ARGUMENTS carefully. " * 40),
        ("tour", "context: fork\n", "Walk every module. " * 200),
    ]:
        (skills / name).mkdir(parents=True)
        (skills / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: The {name} skill.\n{extra}---\n{body}\n",
            encoding="utf-8",
        )
    lines = [{**r, "at": f"2025-01-01T00:0{i}:00Z"} for i, r in enumerate(REQUESTS)]
    (tmp_path / "requests.jsonl").write_text(
        "\n".join(json.dumps(r) for r in lines), encoding="utf-8"
    )
    (tmp_path / "c.yaml").write_text(
        "name: c\ncatalogs:\n  main: [skills]\nrequests: requests.jsonl\n"
        "selectors:\n  - {type: oracle}\n" + settings,
        encoding="utf-8",
    )
    return tmp_path / "c.yaml"


def test_replay_rows_and_cells_carry_cost(tmp_path: Path) -> None:
    result_dir = tmp_path / "out"
    run_experiment(load_config(_project(tmp_path)), output=result_dir)
    rows = {r.request_id: r for r in read_rows(result_dir / "results.jsonl")}
    assert rows["r4"].inline_tokens is None
    assert rows["r1"].inline_tokens % 3 == 0  # three turns left in session s
    assert rows["r2"].inline_tokens * 3 == rows["r1"].inline_tokens * 2
    assert rows["r3"].declared_tokens == rows["r3"].fork_tokens
    (cell,) = json.loads((result_dir / "summary.json").read_text())["cells"]
    cost = cell["cost"]
    assert cost["invocations"] == 3 and cost["waste_tokens"] == 0
    assert cost["inline_tokens"] == sum(r.inline_tokens or 0 for r in rows.values())
    assert cost["fork_tokens"] == sum(r.fork_tokens or 0 for r in rows.values())
    assert cost["dollars"] > 0
    review, tour = cost["per_skill"]["review"], cost["per_skill"]["tour"]
    assert (review["invocations"], tour["invocations"]) == (2, 1)
    assert review["inline_tokens"] == rows["r1"].inline_tokens + rows["r2"].inline_tokens
    assert review["inline_tokens_mean"] == review["inline_tokens"] / 2
    assert tour["fork_tokens_mean"] == rows["r3"].fork_tokens and tour["declared"] == "fork"
    assert isinstance(tour["break_even_turns"], int) and tour["break_even_turns"] > 1


def test_cost_section_sets_the_model_assumptions(tmp_path: Path) -> None:
    extra = "token_model: gpt-4o\ncost: {summary_tokens: 10, horizon: 4, fork_work_tokens: 0}\n"
    run_experiment(load_config(_project(tmp_path, extra)), output=tmp_path / "out")
    (cell,) = json.loads((tmp_path / "out" / "summary.json").read_text())["cells"]
    cost = cell["cost"]
    assert (cost["model"], cost["summary_tokens"], cost["horizon"]) == ("gpt-4o", 10, 4)
    assert (cost["fork_work_tokens"], cost["fork_system_prompt_tokens"]) == (0, 1000)
    rows = {r.request_id: r for r in read_rows(tmp_path / "out" / "results.jsonl")}
    # A fixed horizon replaces the session's remaining turns: r1 and r2 cost the same.
    assert rows["r1"].inline_tokens == rows["r2"].inline_tokens
