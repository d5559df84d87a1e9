"""``plan`` on catalogs small enough to work out by hand: budgets from each agent's own
arithmetic, the smallest fit, the week-by-week decay of a usage history, a trim, the CLI.

Claude Code's listing line is ``- name: description``; with no built-ins (``snapshot=none``)
the budget counts the lines and the newlines between them. Usage scores follow Claude Code's
rule ``count × max(0.5^(days/7), 0.1)``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from skillbench.catalog import SourceSpec, load_catalog
from skillbench.cli import main
from skillbench.listing import PROFILES
from skillbench.planner import Setup, derive, fit_values, plan_schema, shorten, smallest_fit
from skillbench.planner._trim import Words

DESC = {
    "xray": "Inspect x-ray images for fractures, lesions and foreign bodies in radiology scans.",
    "yak": "Shave a yak, trim long hair from highland cattle before summer, safely and gently.",
    "zebra": "Draw zebra stripes on vector art, alternating black and white bands evenly now.",
}
NOW = "2026-01-01T00:00:00Z"


def _catalog(root: Path) -> Path:
    for name, description in DESC.items():
        (root / name).mkdir(parents=True)
        (root / name / "SKILL.md").write_text(
            f"---\nname: {name}\ndescription: {description}\n---\nBody.\n", encoding="utf-8"
        )
    return root


def _widths() -> dict[str, tuple[int, int]]:
    """(full line, name-only line) widths of each entry, by hand."""
    return {n: (len(f"- {n}: {d}"), len(f"- {n}")) for n, d in DESC.items()}


def test_budgets_in_each_agents_terms() -> None:
    claude, codex = PROFILES.get("claude-code"), PROFILES.get("codex")
    assert derive(claude, {"snapshot": "none"}).budget == 1_000_000 * 3 // 100
    older = derive(claude, {"snapshot": "none", "context_window": 200_000, "chars_per_token": 4})
    assert older.budget == 8_000 and "200,000 tokens" in older.how
    assert derive(claude, {"budget": 2500}).how == "SLASH_COMMAND_TOOL_CHAR_BUDGET=2500"
    # Codex 0.169.0's default model has a 272,000-token window, 0.171.0's (gpt-6.2-sol) 500,000.
    assert derive(PROFILES.get("codex@0.169.0"), {"snapshot": "none"}).budget == 272_000 * 2 // 100
    assert derive(codex, {"snapshot": "none"}).budget == 500_000 * 2 // 100
    assert derive(codex, {"snapshot": "none", "context_window": 100_000}).budget == 2_000
    assert derive(codex, {"snapshot": "none", "context_window": 2_000_000}).budget == 17_440


def test_each_knob_is_searched_to_the_value_that_reaches_a_budget() -> None:
    """12,345 characters: the variable itself; a fraction of 0.004115 of 1,000,000 tokens at
    3 characters (3,000,000 × 0.004115 = 12,345); a window of 411,500 tokens (× 3 × 0.01).
    Codex: 3,000 tokens are 2% of 150,000; 20,000 are beyond its 17,440-token cap."""
    claude = {
        v.setting: v for v in fit_values(PROFILES.get("claude-code"), {"snapshot": "none"}, 12_345)
    }
    assert claude["SLASH_COMMAND_TOOL_CHAR_BUDGET"].value == "12345"
    assert claude["skillListingBudgetFraction"].value == "0.004115"
    assert claude["a model with a context window of"].value == "411,500 tokens"
    codex = PROFILES.get("codex")
    assert fit_values(codex, {"snapshot": "none"}, 3_000)[0].value == "150000"
    capped = fit_values(codex, {"snapshot": "none"}, 20_000)[0]
    assert capped.value is None and "17,440" in capped.note


def test_the_smallest_fit_is_every_line_and_the_newlines_between(tmp_path: Path) -> None:
    root = _catalog(tmp_path / "skills")
    catalog = load_catalog([SourceSpec(str(root), "project")], profile="claude-code")
    setup = Setup(catalog, PROFILES.get("claude-code"), {"snapshot": "none"})
    expected = sum(full for full, _ in _widths().values()) + len(DESC) - 1
    assert smallest_fit(setup) == (expected, True)
    assert {e.status for e in setup.render(expected).entries} == {"full"}
    assert "name_only" in {e.status for e in setup.render(expected - 1).entries}


def _claude_plan(
    capsys: pytest.CaptureFixture[str], root: Path, budget: int, *argv: str
) -> dict[str, object]:
    """``plan --format json`` of ``root`` for Claude Code without built-ins at ``budget``."""
    claude = ["--profile", "claude-code", "-O", "snapshot=none", "--budget", str(budget)]
    assert main(["plan", f"project={root}", *claude, *argv, "--format", "json", "-q"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_a_usage_history_decays_week_by_week(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Room for one description beyond the names. xray: 10 uses 30 days before day 0, at the
    0.1 floor from then on: score 1.0. yak: 3 uses at day 0: 3, 1.5, 0.75, 0.375. yak keeps
    its description through day 7 and loses it to xray at day 14; zebra, never used, never
    gets one."""
    root = _catalog(tmp_path / "skills")
    names = sum(short for _, short in _widths().values()) + len(DESC) - 1
    budget = names + _widths()["xray"][0] - _widths()["xray"][1]
    usage = {
        "xray": {"count": 10, "last_used": "2025-12-02T00:00:00Z"},
        "yak": {"count": 3, "last_used": NOW},
    }
    (tmp_path / "usage.json").write_text(json.dumps(usage))
    report = _claude_plan(
        capsys,
        root,
        budget,
        "--usage",
        str(tmp_path / "usage.json"),
        "--now",
        NOW,
        "--weeks",
        "3",
    )
    plan = report["agents"][0]  # type: ignore[index]
    steps = [(s["day"], s["name_only"], s["fell"], s["restored"]) for s in plan["timeline"]]
    assert steps == [
        (0, ["xray", "zebra"], [], []),
        (7, ["xray", "zebra"], [], []),
        (14, ["yak", "zebra"], ["yak"], ["xray"]),
        (21, ["yak", "zebra"], [], []),
    ]
    fates = {s["name"]: (s["fate"], s["reason"]) for s in plan["today"]["skills"]}
    assert fates == {
        "xray": ("name_only", "usage_rank"),
        "yak": ("full", "fits"),
        "zebra": ("name_only", "usage_rank"),
    }
    total = sum(full for full, _ in _widths().values()) + len(DESC) - 1
    assert plan["fits"]["budget"] == total
    values = {v["setting"]: v["value"] for v in plan["fits"]["values"]}
    assert values["SLASH_COMMAND_TOOL_CHAR_BUDGET"] == str(total)


def test_shorten_drops_what_a_neighbour_also_says_first() -> None:
    worth = Words({"alpha": 1, "beta": 1, "gamma": 1}, 3, frozenset({"beta"}), frozenset())
    assert shorten("alpha beta gamma", 11, worth) == "alpha gamma"
    assert shorten("Keep this. Drop beta beta beta.", 10, worth) == "Keep this."


def test_a_trim_fits_every_description_at_the_budget(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Names take 20 cells; at 122 each of the three lines has room for 32 characters of
    description (20 + 3 × (2 + 32) = 122)."""
    root = _catalog(tmp_path / "skills")
    report = _claude_plan(capsys, root, 122, "--weeks", "0", "--trim")
    trim = report["agents"][0]["trim"]  # type: ignore[index]
    assert trim["fits"] and not trim["proposed"] and "not judged" in trim["verdict"]
    assert len(trim["edits"]) == 3
    assert all(len(e["after"]) <= 32 and e["after"] for e in trim["edits"])
    assert trim["saved"] == sum(len(e["before"]) - len(e["after"]) for e in trim["edits"])


def test_the_schema_documents_every_record() -> None:
    schema = plan_schema()
    assert {"AgentPlan", "Today", "Step", "Fits", "Trim", "SkillFate"} <= set(schema["$defs"])


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--apply"], "--apply needs --trim and -o DIR"),
        (["--requests", "r.jsonl"], "--requests judges a trim plan: add --trim"),
        (["--option", "line_cap=5", "--profile", "codex"], "--option line_cap: none of"),
        (["--profile", "nope"], "nope"),
        (["--weeks", "-1"], "--weeks: must be 0 or more"),
    ],
)
def test_bad_input_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    root = _catalog(tmp_path / "skills")
    assert main(["plan", f"project={root}", *argv]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and message in err and "\n" not in err


def test_a_claude_usage_file_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Claude Code's own ``~/.claude.json``: ``skillUsage`` with counts and ms timestamps."""
    root = _catalog(tmp_path / "skills")
    ms = 1_767_225_600_000  # 2026-01-01T00:00:00Z
    claude = {"skillUsage": {"zebra": {"usageCount": 5, "lastUsedAt": ms}}}
    (tmp_path / ".claude.json").write_text(json.dumps(claude))
    report = _claude_plan(
        capsys,
        root,
        122,
        "--usage",
        str(tmp_path / ".claude.json"),
        "--now",
        NOW,
        "--weeks",
        "0",
    )
    fates = {s["name"]: s["fate"] for s in report["agents"][0]["today"]["skills"]}  # type: ignore[index]
    assert fates == {"xray": "name_only", "yak": "name_only", "zebra": "full"}


def test_the_committed_schema_is_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "plan"]) == 0
    committed = json.loads((Path(__file__).parents[2] / "docs" / "plan.schema.json").read_text())
    assert json.loads(capsys.readouterr().out) == committed, (
        "regenerate: skillbench schema plan > docs/plan.schema.json"
    )
