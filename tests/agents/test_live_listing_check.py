"""Every agent's live listing check, on the shipped CLI with the scripted loopback model.

With the agent's own profile, every live decision's listing equals the render and the
positive controls pass. With a deliberately wrong profile (the agent's own, except that it
reads ``db-migrate``'s description as another text), every decision names that entry: the
four skills sort by name (none has usage yet, all from one source), so ``db-migrate`` is
entry 2, after ``api-docs``, except on Gemini CLI, which lists its skill folders in
descending order (release-notes, pdf-tools, db-migrate, api-docs): entry 3. The agent shows
the description the skill file holds (written by ``_setup``), the render the wrong one.
Cline lists names only, in folder order: there the wrong profile reads ``db-migrate``'s
name as ``db-other``, and the decision names the entry where the agent lists it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

import pytest

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import Skill
from skillbench.listing import PROFILES, Profile
from skillbench.listing._renderer import Renderer
from skillbench.results import read_run
from tests.agents.test_live_selector import _EXPLICIT, _TRIGGER, _run, _setup, _users, tool_call
from tests.support.fake_openai import FakeOpenAI

WRONG_SKILL = "db-migrate"
WRONG_TEXT = "Handles other work."
POSITION = {"gemini-cli": 3}
"""Where db-migrate is listed, by hand (see above); 2 on every other agent."""
NAMES_ONLY = {"cline"}
"""Agents whose listing holds no description (see their profile pages)."""
WRONG_NAME = "db-other"
RENAMED = re.compile(r"entry [1-4]: the agent lists 'db-migrate', the render 'db-other'")
EXPECTED = (
    "entry {} (db-migrate): the agent shows 'Handles db-migrate work.', "
    "the render 'Handles other work.'"
)
"""By hand: ``_setup`` writes ``description: Handles db-migrate work.``."""
PREFIX = "wrong_"


class _MisreadRenderer:
    """The agent's renderer, except that one skill's description is read as another text."""

    def __init__(self, inner: Renderer, names_only: bool) -> None:
        self._inner = inner
        self._names_only = names_only

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def entry(self, skill: Skill, index: int) -> Any:
        if skill.name == WRONG_SKILL and self._names_only:
            skill = replace(skill, name=WRONG_NAME, listed={})
        elif skill.name == WRONG_SKILL:
            skill = replace(skill, description=WRONG_TEXT, listed={})
        return self._inner.entry(skill, index)


def wrong_profile(agent: str) -> Profile:
    """``agent``'s profile under its own name with ``_MisreadRenderer`` around its renderer."""
    right = PROFILES.get(agent)

    def factory(**options: Any) -> Renderer:
        misread = _MisreadRenderer(right.renderer(**options), agent in NAMES_ONLY)
        return misread  # type: ignore[return-value]

    return replace(right, renderer=factory, release_renderers={})


def __getattr__(name: str) -> Profile:
    """``wrong_<agent>`` (dashes as underscores): the wrong profile a run config names as
    ``tests.agents.test_live_listing_check:wrong_<agent>``."""
    if not name.startswith(PREFIX):
        raise AttributeError(name)
    return wrong_profile(name.removeprefix(PREFIX).replace("_", "-"))


def script(body: Mapping[str, Any]) -> list[tuple[str, str]] | str:
    """``test_live_selector``'s script, with each agent's skill tool argument from its record."""
    users = _users(body)
    found = _TRIGGER.search(users) or _EXPLICIT.search(users)
    if found is None:
        return "Nothing to do with a skill."
    name = next(g for g in found.groups() if g)
    tools = {t["function"]["name"] for t in body.get("tools") or ()}
    for spec in AGENT_SPECS.values():
        if spec.live.skill_tool in tools and spec.live.skill_argument:
            properties = _schema(body, spec.live.skill_tool).get("properties", {})
            if spec.live.skill_argument in properties:
                return [(spec.live.skill_tool, json.dumps({spec.live.skill_argument: name}))]
    return tool_call(name, body)


def _schema(body: Mapping[str, Any], name: str) -> Any:
    return next(t for t in body["tools"] if t["function"]["name"] == name)["function"]["parameters"]


def _config(tmp_path: Any, agent: str, url: str, profile: str, n: int = 4) -> Any:
    config = _setup(tmp_path, agent, url, n, ", model: openai/fake")
    text = config.read_text().replace(f"profiles: [{agent}]", f"profiles: ['{profile}']")
    if n < 4:
        text += "controls: {per_cell: 0}\n"
    config.write_text(text)
    return config


AGENTS = sorted(AGENT_SPECS.names())


@pytest.mark.agents
@pytest.mark.parametrize("agent", AGENTS)
def test_the_agents_own_profile_matches_every_listing_and_passes_the_controls(
    agent: str, tmp_path: Any
) -> None:
    with FakeOpenAI(policy=script) as fake:
        assert _run(_config(tmp_path, agent, fake.base_url, agent)) == 0
    run = read_run(tmp_path / "out")
    (cell,) = run.summary.cells
    assert cell.controls is not None
    assert (cell.controls.n, cell.controls.triggered, cell.controls.status) == (4, 4, "passed")
    assert cell.n == 4 and cell.metric("accuracy") == 1.0
    assert cell.listing_mismatches == 0, [r.listing_mismatch for r in run.rows]


@pytest.mark.agents
@pytest.mark.parametrize("agent", AGENTS)
def test_a_wrong_profile_names_the_first_differing_entry(agent: str, tmp_path: Any) -> None:
    """Two decisions (a skill request and a joke) without controls: each agent turn is
    costly, and every decision's listing is checked alike."""
    reference = f"tests.agents.test_live_listing_check:{PREFIX}{agent.replace('-', '_')}"
    with FakeOpenAI(policy=script) as fake:
        assert _run(_config(tmp_path, agent, fake.base_url, reference, n=2)) == 0
    run = read_run(tmp_path / "out")
    (cell,) = run.summary.cells
    assert cell.controls is None
    assert cell.listing_mismatches == 2
    found = [r.listing_mismatch or "" for r in run.rows]
    if agent in NAMES_ONLY:
        assert len(found) == 2 and all(RENAMED.fullmatch(f) for f in found), found
    else:
        assert found == [EXPECTED.format(POSITION.get(agent, 2))] * 2
