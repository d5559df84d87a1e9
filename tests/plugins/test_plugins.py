"""Third-party parts: a toy plugin package is pip-installed into a folder and the real CLI,
run with that folder on PYTHONPATH, uses its selector, profile and metric by registered name
(``skillbench.plugins`` entry point) and by ``package.module:object``.

Expected values are worked out by hand from the toy parts (see toy_plugin.py). Skills
apple, banana, cherry, date are listed alphabetically; requests q0..q3 expect them in that
order, q4 expects none. ``toy-names`` lists ``- name`` lines, so a 13-character budget shows
``- apple`` (7) but not ``- apple\\n- banana`` (16); ``BARE`` lists bare names, so 13 shows
``apple\\nbanana`` (12) but not ``+\\ncherry`` (19). A 100-character budget shows all four:
7+8+8+6 plus 3 newlines = 32 characters with dashes, 5+6+6+4+3 = 24 bare.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toy_project import BARE, REQUESTS, SKILLS, Sites, cli, project

SHOWN = {
    ("toy-names", 13): ("apple",),
    ("toy-names", 100): SKILLS,
    (BARE, 13): ("apple", "banana"),
    (BARE, 100): SKILLS,
}
"""What each listing shows (module docstring)."""


def test_plugin_parts_run_by_entry_point_name_and_by_module_object(toy_run: Path) -> None:
    rows = [json.loads(line) for line in (toy_run / "results.jsonl").read_text().splitlines()]
    chosen = {
        (r["profile"], r["budget"], r["selector"], r["request_id"]): r["chosen"] for r in rows
    }
    expected = {}
    for (profile, budget), shown in SHOWN.items():
        for rid, skill in REQUESTS.items():
            expected[profile, budget, "toy/first", rid] = shown[0]
            expected[profile, budget, "last", rid] = shown[-1]
            expected[profile, budget, "oracle", rid] = skill if skill in shown else None
    assert chosen == expected


def test_plugin_metric_and_profile_in_the_summary(toy_run: Path) -> None:
    """toy/invoke_rate = invocations / decisions: the toy selectors always invoke (5/5);
    the oracle invokes the shown expected skills: 1, 4, 2 and 4 of 5."""
    cells = json.loads((toy_run / "summary.json").read_text())["cells"]
    got = {
        (c["profile"], c["budget"], c["selector"]): (
            c["toy/invoke_rate"],
            c["coverage"],
            c["mean_listing_chars"],
        )
        for c in cells
    }
    chars = {("toy-names", 13): 7.0, ("toy-names", 100): 32.0, (BARE, 13): 12.0, (BARE, 100): 24.0}
    oracle = {("toy-names", 13): 0.2, ("toy-names", 100): 0.8, (BARE, 13): 0.4, (BARE, 100): 0.8}
    want = {}
    for key, shown in SHOWN.items():
        coverage = len(shown) / 4
        for selector in ("toy/first", "last"):
            want[(*key, selector)] = (1.0, coverage, chars[key])
        want[(*key, "oracle")] = (oracle[key], coverage, chars[key])
    assert got == want


def test_plugin_metric_drives_compare(toy_run: Path, sites: Sites) -> None:
    """On the bare 13-character listing the oracle invokes apple and banana (2 of 5) and
    toy/first invokes on all 5: the three requests it newly invokes on (q2, q3, q4) all
    flip one way, a one-sided sign-test p of 0.5³ = 0.125."""
    done = cli(
        [
            "compare",
            f"out::selector=oracle,profile={BARE},budget=13",
            f"out::selector=toy/first,profile={BARE},budget=13",
            "--metric",
            "toy/invoke_rate",
            "--format",
            "json",
        ],
        toy_run.parent,
        sites.toy,
    )
    assert done.code == 0, done.stderr
    (pair,) = json.loads(done.stdout)["pairs"]
    assert (pair["value_a"], pair["value_b"], pair["worse"], pair["better"]) == (0.4, 1.0, 3, 0)
    assert [f["request_id"] for f in pair["flipped_worse"]] == ["q2", "q3", "q4"]
    assert pair["p_worse"] == pytest.approx(0.125)


def test_plugin_metric_as_report_objective(toy_run: Path, sites: Sites) -> None:
    """Lower invoke rate is better; every cell of a selector under test invokes 5/5, so the
    tie goes to the shortest listing: toy-names at 13 characters, toy/first first."""
    done = cli(
        ["report", "out", "--objective", "toy/invoke_rate", "--format", "md", "-o", "report"],
        toy_run.parent,
        sites.toy,
    )
    assert done.code == 0, done.stderr
    text = (toy_run.parent / "report" / "report.md").read_text()
    assert (
        "**Best cell on toy/invoke_rate** (the objective; decisions that invoked any skill / "
        "completed decisions): **profile=toy-names budget=13 selector=toy/first**, "
        "toy/invoke_rate **1.000**"
    ) in text


def test_bad_module_object_names_are_config_errors(sites: Sites, tmp_path: Path) -> None:
    """Each bad name is one line naming the config line and field; nothing runs."""
    project(
        tmp_path,
        '["skillbench_toy.selectors:FirstShown"]',
        [
            '{type: "nopkg.selectors:Thing"}',
            '{type: "skillbench_toy.selectors:Nope"}',
            '{type: "skillbench_toy.metrics:NOT_A_METRIC"}',
            '{type: "skillbench_broken:anything"}',
        ],
    )
    done = cli(["run", "config.yaml", "-o", "out"], tmp_path, sites.toy, sites.broken)
    assert done.code == 1 and "Traceback" not in done.stderr
    assert "error: 5 problems in config.yaml:" in done.stderr
    assert not (tmp_path / "out" / "results.jsonl").exists()
    lines = [line.strip() for line in done.stderr.splitlines()]
    for line in (
        "config.yaml:5: field 'profiles[0]': profile 'skillbench_toy.selectors:FirstShown': "
        "FirstShown is a type, not a Profile",
        "config.yaml:9: field 'selectors[0].type': selector 'nopkg.selectors:Thing': cannot "
        "import 'nopkg.selectors': ModuleNotFoundError: No module named 'nopkg'",
        "config.yaml:10: field 'selectors[1].type': selector 'skillbench_toy.selectors:Nope': "
        "module 'skillbench_toy.selectors' has no 'Nope'",
        "config.yaml:11: field 'selectors[2].type': selector "
        "'skillbench_toy.metrics:NOT_A_METRIC': NOT_A_METRIC is an int, not a factory taking "
        "(params, env)",
        "config.yaml:12: field 'selectors[3].type': selector 'skillbench_broken:anything': "
        "cannot import 'skillbench_broken': RuntimeError: the broken plugin refuses to load",
    ):
        assert line in lines, done.stderr


def test_a_metric_name_of_the_wrong_kind(toy_run: Path, sites: Sites) -> None:
    done = cli(["compare", "out", "out", "--metric", BARE], toy_run.parent, sites.toy)
    assert done.code == 1 and "Traceback" not in done.stderr
    assert f"metric '{BARE}': BARE is a Profile, not a Metric" in done.stderr


def test_a_plugin_raising_on_import_leaves_the_others_working(sites: Sites, tmp_path: Path) -> None:
    """The broken plugin is reported once, in one line; the toy plugin's selector still
    runs; a name no plugin registers names the broken one as a possible reason."""
    project(tmp_path, "[toy-names]", ["{type: toy/first}"])
    done = cli(["run", "config.yaml", "-o", "out", "--quiet"], tmp_path, sites.toy, sites.broken)
    warning = (
        "warning: plugin 'broken = skillbench_broken' (skillbench.plugins entry point) failed "
        "to load: RuntimeError: the broken plugin refuses to load"
    )
    assert done.code == 0, done.stderr
    assert done.stderr.splitlines().count(warning) == 1 and "Traceback" not in done.stderr
    rows = (tmp_path / "out" / "results.jsonl").read_text().splitlines()
    assert {json.loads(r)["chosen"] for r in rows} == {"apple"}

    project(tmp_path, "[toy-names]", ["{type: toy/frist}"])
    done = cli(["run", "config.yaml", "-o", "out2"], tmp_path, sites.toy, sites.broken)
    assert done.code == 1 and "Traceback" not in done.stderr
    (error,) = [line for line in done.stderr.splitlines() if "selectors[0].type" in line]
    assert "unknown selector 'toy/frist' (did you mean 'toy/first'?)" in error
    assert warning.removeprefix("warning: ") in error


def test_plugin_metric_gates_a_run(toy_run: Path, sites: Sites) -> None:
    """``--max toy/invoke_rate=0.9``: the four oracle cells (0.2, 0.8, 0.4, 0.8) hold, the
    eight cells of the toy selectors (1.0) fail; by module:object the same metric, gated on a
    drop against an identical baseline, holds everywhere."""
    root = toy_run.parent
    assert cli(["bless", "out", "BASE.json"], root, sites.toy).code == 0
    gate = ["--metric", "toy/invoke_rate", "--max", "toy/invoke_rate=0.9"]
    done = cli(["check", "out", "--baseline", "BASE.json", *gate], root, sites.toy)
    assert done.code == 100, done.stderr
    assert "4 passed, 8 failed, 0 skipped (12 checks)" in done.stdout + done.stderr
    reference = "skillbench_toy.metrics:INVOKE_RATE"
    done = cli(["check", "out", "--baseline", "BASE.json", "--metric", reference], root, sites.toy)
    assert done.code == 0, done.stderr
    assert "12 passed, 0 failed, 0 skipped (12 checks)" in done.stdout + done.stderr


def test_a_run_with_a_plugin_metric_reads_reports_and_compares_without_the_plugin(
    toy_run: Path,
) -> None:
    """No plugin on the path: the run loads with toy/invoke_rate kept as recorded (1.0 for
    toy/first everywhere, the oracle's 0.2/0.8/0.4/0.8), the report names the plugin, a
    compare on accuracy works and one on the plugin's metric names what to install."""
    from skillbench.results import read_run

    summary = json.loads((toy_run / "summary.json").read_text())
    assert summary["plugin_metrics"] == {"toy/invoke_rate": "skillbench_toy"}
    root = toy_run.parent
    run = read_run(toy_run)  # this process has no toy plugin on its path
    assert run.summary.recorded_metrics() == {"toy/invoke_rate": "skillbench_toy"}
    oracle = {("toy-names", 13): 0.2, ("toy-names", 100): 0.8, (BARE, 13): 0.4, (BARE, 100): 0.8}
    for cell, written in zip(run.summary.cells, summary["cells"], strict=True):
        assert cell.to_json() == written  # written back exactly as read
        want = oracle[cell.profile, cell.budget] if cell.selector == "oracle" else 1.0
        assert cell.metric("toy/invoke_rate") == want

    report = cli(["report", "out", "--format", "md", "-o", "plain-report"], root)
    assert report.code == 0, report.stderr
    text = (root / "plain-report" / "report.md").read_text()
    assert "toy/invoke_rate (plugin skillbench_toy)" in text

    pair = [
        f"out::selector=oracle,profile={BARE},budget=13",
        f"out::selector=last,profile={BARE},budget=13",
    ]
    done_compare = cli(["compare", *pair, "--format", "json"], root)
    assert done_compare.code == 0, done_compare.stderr
    refused = cli(["compare", *pair, "--metric", "toy/invoke_rate"], root)
    assert refused.code == 1 and "Traceback" not in refused.stderr
    assert refused.stderr.strip().splitlines() == [
        "error: --metric toy/invoke_rate: computed by skillbench_toy, which is not installed "
        "here; install it to compare on it (summary.json keeps its recorded values)"
    ]


def test_a_metric_named_by_reference_is_the_registered_metric(toy_run: Path, sites: Sites) -> None:
    """``--objective package.module:object`` finds the values the summary holds under the
    metric's registered name: the same headline as ``--objective toy/invoke_rate``."""
    root = toy_run.parent
    texts = []
    for name, out in (
        ("toy/invoke_rate", "by-name"),
        ("skillbench_toy.metrics:INVOKE_RATE", "by-ref"),
    ):
        done = cli(
            ["report", "out", "--objective", name, "--format", "md", "-o", out], root, sites.toy
        )
        assert done.code == 0, done.stderr
        texts.append((root / out / "report.md").read_text())
    assert "**Best cell on toy/invoke_rate**" in texts[1]
    assert texts[0] == texts[1]
