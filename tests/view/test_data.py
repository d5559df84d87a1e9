"""The viewer's data: rebuilt listings match the rows, untrusted text stays inert, flips pair."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import HOSTILE
from hypothesis import given
from hypothesis import strategies as st

from skillbench.cli import main
from skillbench.results import read_run
from skillbench.view import build_payload, embed_json, read_run_data, render_page


def _text(payload: dict, listing: int) -> str:
    return "\n".join(payload["lines"][i] for i in payload["listings"][listing]["lines"])


def test_every_listing_is_rebuilt_to_the_size_and_position_its_row_records(
    hostile_run: Path,
) -> None:
    rows = read_run(hostile_run).rows
    payload = build_payload([read_run_data(hostile_run)])
    assert payload["runs"][0]["note"] is None
    assert len(payload["decisions"]) == len(rows) == 6 * 2 * 2 * 2
    for row, decision in zip(rows, payload["decisions"], strict=True):
        listing = decision[6]
        assert listing is not None
        assert len(_text(payload, listing)) == row.listing_chars
        spans = payload["listings"][listing]["spans"]
        assert len(spans) == row.shown
        if row.gold_position is not None:
            name, start, end = spans[row.gold_position]
            assert name in row.expected
            assert _text(payload, listing)[start:end].startswith(f"- {name}")


def test_a_hostile_description_is_kept_verbatim_and_never_becomes_markup(
    hostile_run: Path,
) -> None:
    payload = build_payload([read_run_data(hostile_run)])
    texts = [_text(payload, i) for i in range(len(payload["listings"]))]
    assert any(HOSTILE in t for t in texts if "deploy" in t)
    page = render_page(payload, "t</title><script>x</script>")
    assert page.count("<script") == 2  # the data element and the viewer's own script
    assert "window.__pwned" in page  # present, but only as escaped JSON text
    data = page.split('id="skillbench-data">', 1)[1].split("</script>", 1)[0]
    assert json.loads(data) == json.loads(json.dumps(payload))


@given(st.recursive(st.text() | st.integers() | st.none(), lambda c: st.lists(c, max_size=4)))
def test_embedded_json_round_trips_and_holds_no_markup_character(value: object) -> None:
    text = embed_json(value)
    assert not {"<", ">", "&", "\u2028", "\u2029"} & set(text)
    assert json.loads(text) == value


def test_two_runs_pair_the_requests_whose_outcome_flipped(flip_runs: tuple[Path, Path]) -> None:
    a, b = flip_runs
    payload = build_payload([read_run_data(a), read_run_data(b)])
    decisions, requests = payload["decisions"], payload["requests"]
    flipped = {(decisions[i][1], requests[decisions[i][2]]["id"]) for i, _ in payload["flips"]}
    # The oracle is right exactly where the expected skill was shown; never, only on negatives.
    cells = read_run_data(a).cells
    shown = {
        (
            cells.index(r.key),
            r.request_id,
        )
        for r in read_run(a).rows
        if r.visible
    }
    assert flipped == shown
    assert all(decisions[i][0] == 0 and decisions[j][0] == 1 for i, j in payload["flips"])


def test_cli_writes_the_page_into_the_run(hostile_run: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "page.html"
    assert main(["view", str(hostile_run), "-o", str(out)]) == 0
    assert capsys.readouterr().out.strip() == str(out)
    page = out.read_text(encoding="utf-8")
    assert "http://" not in page and "https://" not in page  # nothing to fetch


def test_listings_behind_a_retrieve_stage_are_rebuilt(tmp_path: Path) -> None:
    """A BM25 stage passing on the top 1 skill: every decision's one-skill listing is rebuilt
    to its row's size, and at budget 4000, where the full listing shows all three skills, an
    expected skill missing from it can only have been left out by the stage."""
    from conftest import replay

    run = replay(tmp_path, "  - {type: oracle, retrieve: {method: bm25, k: 1}}\n")
    rows = read_run(run).rows
    payload = build_payload([read_run_data(run)])
    assert payload["runs"][0]["note"] is None
    for row, decision in zip(rows, payload["decisions"], strict=True):
        assert decision[6] is not None
        assert len(_text(payload, decision[6])) == row.listing_chars
        assert len(payload["listings"][decision[6]]["spans"]) == row.shown <= 1
        hidden = row.expected and not row.visible
        if hidden and row.budget == 4000:
            (name,) = row.expected
            assert decision[9] == (
                f"{name}: shown in the full listing, but not among the retrieve stage's top k"
            )
    assert any(r.expected and not r.visible and r.budget == 4000 for r in rows)


def test_two_runs_differ_in_settings_and_in_a_rewritten_description() -> None:
    from skillbench.view._diff import run_diff, word_diff
    from skillbench.view._source import RunData

    def run(record: str, description: str) -> RunData:
        settings = {"name": "x", "usage": {"record": record}, "budgets": [4000]}
        return RunData("x", Path("x"), [], [], [], None, settings, (), {"deploy": description})

    diff = run_diff(run("chosen", "Deploy the app."), run("label", "Deploy the web app."))
    assert diff["settings"] == [["usage.record", "chosen", "label"]]
    assert diff["descriptions"] == [
        ["deploy", [["=", "Deploy the "], ["+", "web "], ["=", "app."]]]
    ]
    assert word_diff("a b", "a c") == [["=", "a "], ["-", "b"], ["+", "c"]]
