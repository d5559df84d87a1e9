"""The run command's terminal: phases with their times, running counts, a patient ETA; and
``--model``."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from skillbench._errors import SkillbenchError
from skillbench.cli._progress import TerminalProgress
from skillbench.cli._run import with_model
from skillbench.replay import load_config
from skillbench.results import ResultRow, cell_model
from skillbench.types import Outcome


def _row(outcome: Outcome) -> ResultRow:
    """A finished decision with ``outcome`` (the progress counts only outcomes)."""
    return ResultRow(
        catalog="base",
        profile="codebot",
        budget=None,
        ordering="given",
        half_life="inf",
        selector="lexical",
        repeat=0,
        request_id="q1",
        expected=[],
        outcome=outcome,
        listing_chars=0,
        listing_tokens=None,
        shown=0,
        latency_ms=0.0,
    )


def test_phases_counts_and_eta() -> None:
    out = io.StringIO()
    progress = TerminalProgress(out)
    progress.phase("loading requests and catalogs")
    progress.phase("replaying decisions", 4)
    assert "ETA –" in progress.line()  # no rate yet: no guess
    for outcome in ("correct_skill", "error", "false_trigger", "wrong_skill"):
        progress.decision(_row(outcome))
    line = progress.line()
    assert "4/4 (100%)" in line and "errors 1" in line and "unwanted invocations 2" in line
    progress.close()
    closed = [x for x in out.getvalue().replace("\r", "\n").splitlines() if x.startswith("\x1b[K✓")]
    assert [x.split("  ")[0] for x in closed] == [
        "\x1b[K✓ loading requests and catalogs",
        "\x1b[K✓ replaying decisions 4/4",
    ]


def test_model_flag_overrides_every_litellm_selector_only() -> None:
    configs = Path(__file__).parents[2] / "configs"
    config = with_model(load_config(configs / "litellm-example.yaml"), "ollama/qwen2.5:7b")
    models = {s.type: s.params.get("model") for s in config.selectors}
    assert models["litellm"] == "ollama/qwen2.5:7b"
    assert {t for t, m in models.items() if m == "ollama/qwen2.5:7b"} == {"litellm"}
    with pytest.raises(SkillbenchError, match="no litellm selector"):
        with_model(load_config(configs / "quickstart.yaml"), "x")


def test_plain_lines_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """No escape codes; a line when a phase starts, then one per PLAIN_EVERY seconds."""
    import skillbench.cli._progress as progress_module

    out = io.StringIO()  # not a TTY
    progress = progress_module.make_progress(out)
    assert progress.plain
    progress.phase("replaying decisions", 10)
    progress.decision(_row("correct_skill"))
    monkeypatch.setattr(progress_module, "PLAIN_EVERY", 0.0)
    with progress._lock:
        progress._draw()
    progress.close()
    lines = out.getvalue().splitlines()
    assert "\x1b" not in out.getvalue() and "\r" not in out.getvalue()
    assert lines[0].startswith("… replaying decisions  0/10 (0%)")
    assert any(x.startswith("… replaying decisions  1/10 (10%)") for x in lines[1:])
    assert lines[-1].startswith("✓ replaying decisions 1/10")


def test_an_interrupted_phase_gets_no_tick() -> None:
    out = io.StringIO()
    progress = TerminalProgress(out, plain=True)
    progress.phase("replaying decisions", 10)
    progress.close(finished=False)
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("✗ replaying decisions 0/10") and last.endswith("interrupted")


def test_the_eta_follows_the_recent_rate(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 decisions in the first 60 s, then 10 per second: 1,000 left at 10/s is 1:40."""
    import skillbench.cli._progress as progress_module

    now = [0.0]
    monkeypatch.setattr(progress_module.time, "monotonic", lambda: now[0])
    progress = TerminalProgress(io.StringIO(), plain=True)
    progress.phase("replaying decisions", 1_360)
    for _ in range(60):
        now[0] += 1.0
        progress.decision(_row("correct_skill"))
        progress.line()
    for _ in range(30):
        now[0] += 1.0
        for _ in range(10):
            progress.decision(_row("correct_skill"))
        progress.line()
    assert progress.done == 360
    assert "ETA 1:40" in progress.line()
    progress.close()


def test_ctrl_c_counts_kept_decisions_by_outcome(tmp_path: Path) -> None:
    """Five lines: three answered (two right, one missed) and two errors, which are not
    kept (``--resume`` redoes them): 3 kept, not 5."""
    from skillbench.cli._run import interrupted_message
    from tests.support.rows import result_row

    outcomes = ["correct_skill", "error", "correct_skill", "missed", "error"]
    rows = [result_row(outcome=o, expected=["pdf"]) for o in outcomes]
    (tmp_path / "results.jsonl").write_text(
        "".join(json.dumps(r.to_json()) + "\n" for r in rows), encoding="utf-8"
    )
    assert interrupted_message("configs/x.yaml", tmp_path) == (
        f"interrupted: 3 decision(s) kept in {tmp_path} (2 correct_skill, 1 missed); "
        "2 without an answer, redone by --resume\n"
        f"continue with: skillbench run configs/x.yaml --resume -o {tmp_path}"
    )
    empty = tmp_path / "empty"
    empty.mkdir()
    assert interrupted_message("c.yaml", empty).startswith(
        f"interrupted: 0 decision(s) kept in {empty}\n"
    )


def test_a_selector_typo_leaves_no_output_folder(tmp_path: Path) -> None:
    from skillbench.cli._main import main
    from tests.view.conftest import write_inputs

    config = write_inputs(tmp_path, "  - {type: lexical, treshold: 2}\n")
    out = tmp_path / "out" / "run"
    assert main(["run", str(config), "-o", str(out), "-q"]) == 1
    assert not out.exists()


def test_the_final_table_fits_the_terminal() -> None:
    """Shared settings go above the table; metric columns that do not fit are named."""
    from skillbench.cli._run import summary_table

    cells = [
        cell_model().model_construct(  # only what the table reads: key, counts, headline metrics
            catalog="devtools",
            profile="codebot",
            budget=budget,
            ordering="usage",
            half_life="7d",
            selector="embedding",
            n=200,
            errors=0,
            accuracy=0.5,
            accuracy_ci=[0.4, 0.6],
            false_invocation_rate=0.25,
            miss_rate=0.125,
            coverage=1.0,
        )
        for budget in (2000, 4000)
    ]
    wide = summary_table(cells, 100).splitlines()
    assert wide[0] == (
        "every cell: catalog=devtools  profile=codebot  ordering=usage  "
        "half_life=7d  selector=embedding  n=200"
    )
    assert wide[1].split() == [
        "budget",
        "accuracy",
        "95%",
        "CI",
        "false",
        "inv",
        "miss",
        "coverage",
    ]
    assert wide[2].split() == ["2000", "0.500", "[0.400,", "0.600]", "0.250", "0.125", "1.000"]
    narrow = summary_table(cells, 40).splitlines()
    assert all(len(line) <= 40 for line in narrow[1:-1])
    assert narrow[-1] == "(left out to fit 40 columns: false inv, miss, coverage; see the report)"


def test_render_rejects_a_zero_budget_like_configs(capsys: pytest.CaptureFixture[str]) -> None:
    from skillbench.cli._main import main

    skills = Path(__file__).parents[2] / "datasets" / "devtools" / "skills" / "project"
    with pytest.raises(SystemExit) as exit_:
        main(["render", f"project={skills}", "--budget", "0"])
    assert exit_.value.code == 2
    assert "argument --budget: must be >= 1" in capsys.readouterr().err


def test_dry_run_counts_cells_without_their_repeats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """quickstart: 3 budgets × 2 orderings × 3 selectors = 18 cells; 2 repeats of 10 requests
    make 360 decisions."""
    from skillbench.cli._main import main

    config = Path(__file__).parents[2] / "configs" / "quickstart.yaml"
    text = config.read_text(encoding="utf-8").replace("seed: 0", "seed: 0\nrepeats: 2")
    text = text.replace("datasets/", f"{config.parents[1]}/datasets/")
    (tmp_path / "q.yaml").write_text(text, encoding="utf-8")
    assert main(["run", str(tmp_path / "q.yaml"), "--dry-run", "--limit", "10"]) == 0
    out = capsys.readouterr().out
    assert "10 requests × 18 cells × 2 repeats = 360 decisions" in out
    assert "selector embedding (embedding): 6 cells, 120 decisions" in out


def _model_row(outcome: Outcome, **detail: object) -> ResultRow:
    return _row(outcome).model_copy(update={"selector": "gpt", "detail": detail})


def test_model_figures_ride_on_the_replay_line() -> None:
    """Half the grid's decisions are the model's: of 8 replayed, 4. Two done: one sent
    ($0.003 with its sub-agent's $0.001), one cached (free): $0.004 for 2, ~$0.008 for 4.
    An offline decision adds nothing; an unpriced model says so."""
    from skillbench.cli._progress_live import LivePlan

    plan = LivePlan(frozenset({"gpt"}), 0.5, 0, 0, 0.95)
    progress = TerminalProgress(io.StringIO(), plain=True, live=plan)
    progress.phase("replaying decisions", 8)
    progress.decision(_row("correct_skill"))
    assert progress.line().endswith("unwanted invocations 0")
    sub = {"cost_usd": 0.001, "cached": False}
    progress.decision(_model_row("correct_skill", cost_usd=0.003, cached=False, fork=sub))
    progress.decision(_model_row("missed", cost_usd=0.003, cached=True))
    assert progress.line().endswith("model 2/4, –/min  $0.0040 spent, ~$0.0080 projected  1 cached")
    progress.phase("positive controls", 2)
    for outcome in ("correct_skill", "missed"):
        control = {"control": True, "expected": ["pdf"]}
        progress.decision(_model_row(outcome).model_copy(update=control))
    assert progress.line().endswith("controls 1/2 triggered, 1 cell(s) with a miss")
    progress.close()
    assert (
        progress.stream.getvalue()
        .splitlines()[-1]
        .endswith(  # type: ignore[attr-defined]
            "controls 1/2 triggered, 1 cell(s) failed (below 95%)"
        )
    )
    unpriced = TerminalProgress(io.StringIO(), plain=True, live=plan)
    unpriced.phase("replaying decisions", 8)
    unpriced.decision(_model_row("missed", cost_usd=None, cached=False))
    assert "model 1/4, –/min  spend unknown (no price)" in unpriced.line()
    unpriced.close()


def test_agent_decisions_show_the_share_of_the_agents_own_pace() -> None:
    """Two agent turns of 200 and 300 ms whose bridge spent 30 and 20 ms of processor time:
    the agent alone would take 450 of the 500 ms, 90% of the pace. A decision without the
    bridge's figure (another selector, an error) leaves the share as it is."""
    from skillbench.cli._progress_live import LivePlan

    plan = LivePlan(frozenset({"gpt"}), 1.0, 0, 0, 0.95)
    progress = TerminalProgress(io.StringIO(), plain=True, live=plan)
    progress.phase("replaying decisions", 3)
    for ms, bridge in ((200.0, 30.0), (300.0, 20.0)):
        row = _model_row("correct_skill", cost_usd=0.001, cached=False, bridge_cpu_ms=bridge)
        progress.decision(row.model_copy(update={"latency_ms": ms}))
    progress.decision(_model_row("missed", cost_usd=0.001, cached=False))
    assert "model 3/3, –/min (90% of the agent's own pace)  $0.0030 spent" in progress.line()
    progress.close()
    assert "(90% of the agent's own pace)" in progress.stream.getvalue().splitlines()[-1]  # type: ignore[attr-defined]


def test_a_resumed_run_projects_only_what_is_left(tmp_path: Path) -> None:
    """litellm-example.yaml: a model (gpt-4o-mini) and the oracle, half the grid each. Kept:
    3 answered decisions (2 of the model's); an error (redone) and a control are not kept
    decisions. With 5 left to replay, the grid has 8: 4 of the model's, 2 still to come."""
    from skillbench.cli._progress_live import live_plan
    from tests.support.rows import result_row

    model = {"selector": "gpt-4o-mini", "expected": ["pdf"]}
    rows = [
        result_row(outcome="correct_skill", **model),
        result_row(outcome="missed", **model),
        result_row(outcome="error", **model),
        result_row(outcome="correct_skill", **model, control=True),
        result_row(outcome="correct_skill", selector="oracle", expected=["pdf"]),
    ]
    (tmp_path / "results.jsonl").write_text(
        "".join(json.dumps(r.to_json()) + "\n" for r in rows), encoding="utf-8"
    )
    configs = Path(__file__).parents[2] / "configs"
    plan = live_plan(load_config(configs / "litellm-example.yaml"), tmp_path, resume=True)
    assert plan is not None and plan.selectors == {"gpt-4o-mini"}
    assert (plan.share, plan.kept, plan.kept_live) == (0.5, 3, 2)
    progress = TerminalProgress(io.StringIO(), plain=True, live=plan)
    progress.phase("replaying decisions", 5)
    progress.decision(result_row(outcome="missed", **model, detail={"cost_usd": 0.001}))
    assert "model 1/2, –/min  $0.0010 spent, ~$0.0020 projected" in progress.line()
    progress.close()
    assert live_plan(load_config(configs / "quickstart.yaml"), tmp_path, resume=True) is None
