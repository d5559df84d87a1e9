"""The ``agent`` selector: the shipped agent CLI itself decides, with a real model behind it.

Per request the cell's catalog is installed where the agent looks for it, in a fresh
temporary HOME and project, the cell's budget set through the agent's own setting where it
has one; the agent runs one non-interactive turn with its model endpoint at a loopback
``Bridge``, which forwards the turn that carries the listing to the configured model through
litellm and records it. The decision is the model's first call: the agent's skill tool
(Claude Code's ``Skill``, Gemini CLI's ``activate_skill``, Copilot CLI's, Qwen Code's and
opencode's ``skill``), or in Codex a tool call that reads a listed ``SKILL.md``.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from skillbench._errors import SkillbenchError
from skillbench.agents import (
    AGENTS,
    Bridge,
    Turn,
    Upstream,
    Workspace,
    agent_version,
    find_executable,
    install_notes,
    map_agent_turns,
    run_turn,
)
from skillbench.cache import ResponseCache
from skillbench.catalog import Skill, SourceSpec
from skillbench.listing import ListedSkill
from skillbench.selectors._agent_listing import ListingCheck, seeded_usage
from skillbench.selectors._controls import ExplicitForm, explicit_request
from skillbench.selectors._params import check_params, positive_int_param, str_param
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._types import Decision, Query, SelectorEnv
from skillbench.types import JsonObject, RunStopped

AgentName = Literal["claude-code", "codex", "copilot-cli", "gemini-cli", "opencode", "qwen-code"]
INSTALLABLE = {
    "claude-code": ("project", "user", "extra"),
    "codex": ("project", "user"),
    "copilot-cli": ("project", "user"),
    "gemini-cli": ("project", "user"),
    "opencode": ("project", "user", "extra"),
    "qwen-code": ("project", "user", "extra"),
}
"""Source kinds a live run can install for each agent (others stand for built-ins)."""
SKILL_TOOLS = {
    "claude-code": ("Skill", "skill"),
    "copilot-cli": ("skill", "skill"),
    "gemini-cli": ("activate_skill", "name"),
    "opencode": ("skill", "name"),
    "qwen-code": ("skill", "skill"),
}
"""Each agent's skill tool and the argument that names the skill; an agent without one
(Codex) triggers by reading a listed ``SKILL.md``."""
BUDGET_VARIABLE = {"claude-code": "SLASH_COMMAND_TOOL_CHAR_BUDGET"}
"""The agent's own setting for the listing budget, in characters."""
EXPLICIT_FORMS: dict[str, ExplicitForm] = {"codex": "mention"}
"""How a user names a skill outright in each agent (in words where not listed here)."""
USAGE_AGENTS = frozenset({"claude-code"})
"""Agents that keep a skill-usage history of their own, seeded from the cell's per request."""


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError("expected a positive number")
    return float(value)


def _agent(value: Any) -> str:
    if value not in INSTALLABLE:
        raise ValueError(f"expected one of {', '.join(INSTALLABLE)}")
    return str(value)


def _wire(value: Any) -> str:
    if value not in ("chat", "native"):
        raise ValueError("expected 'chat' or 'native'")
    return str(value)


SPEC = {
    "agent": (_agent, None),
    "model": (str_param, None),
    "api_base": (str_param, None),
    "api_key_env": (str_param, None),
    "wire": (_wire, "chat"),
    "timeout": (_number, 300.0),
    "max_tokens": (positive_int_param, 1024),
    "temperature": (lambda v: float(v), 0.0),
    "max_cost_usd": (_number, None),
    "cache": (bool, True),
}


@dataclass(frozen=True)
class AgentParams:
    """The selector's parameters, checked."""

    agent: str
    model: str
    api_base: str | None
    api_key_env: str | None
    wire: str
    timeout: float
    max_tokens: int
    temperature: float
    max_cost_usd: float | None
    cache: bool


class AgentSelector:
    """Runs the real agent once per query; see the module docstring."""

    def __init__(self, name: str, params: AgentParams, env: SelectorEnv) -> None:
        self.name = name
        self.params = params
        self.spec = AGENTS.get(params.agent)
        self.executable = find_executable(self.spec)
        self.version = agent_version(self.executable)
        self.workers = max(1, env.max_concurrency)
        self.cache = ResponseCache(env.cache_dir) if params.cache else None
        key = os.environ.get(params.api_key_env) if params.api_key_env else None
        if params.api_key_env and not key:
            raise SkillbenchError(f"selector {name!r}: {params.api_key_env} is not set")
        self.upstream = Upstream(
            model=params.model,
            api_base=params.api_base,
            api_key=key or "skillbench-local",
            wire=params.wire,  # type: ignore[arg-type]
            timeout=params.timeout,
            max_tokens=params.max_tokens,
            temperature=params.temperature,
        )
        self._spent = 0.0
        self._lock = threading.Lock()
        self._check = ListingCheck(self.spec, self.executable, params.timeout)

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        return map_agent_turns(self._decide, queries, self.workers, "skillbench-agent")

    def control_request(self, entry: ListedSkill) -> str | None:
        """The request naming ``entry`` in the agent's explicit form (None: a skill this
        selector cannot install, which the agent never lists)."""
        if not self._installable(entry.skill):
            return None
        return explicit_request(EXPLICIT_FORMS.get(self.spec.name, "words"), entry.name)

    def _decide(self, query: Query) -> Decision:
        cap = self.params.max_cost_usd
        with self._lock:
            if cap is not None and self._spent >= cap:
                raise RunStopped(f"spend cap ${cap:.2f} reached (${self._spent:.4f} spent)")
        with tempfile.TemporaryDirectory(prefix="skillbench-agent-") as tmp:
            root = Path(tmp).resolve()
            workspace = Workspace(root / "home", root / "project")
            for path in workspace:
                path.mkdir()
            sources, skipped = self._sources(query)
            bridge = Bridge(
                self.upstream,
                lambda body: self._carries_listing(body),
                self.cache,
                {str(root): "$WORKSPACE"},
            )
            variable = BUDGET_VARIABLE.get(self.spec.name)
            env = (
                {variable: str(query.listing.budget)}
                if variable and query.listing.budget is not None
                else {}
            )
            usage = seeded_usage(query) if self.spec.name in USAGE_AGENTS else {}
            turn = Turn(None, {}, env, usage, query.request.text, self.params.timeout, bridge)
            try:
                with install_notes() as notes:
                    requests, _ = run_turn(self.spec, self.executable, sources, workspace, turn)
            except SkillbenchError as exc:
                return Decision("error", detail={"error": str(exc), "agent": self.version})
            decision = self._read(query, bridge, requests, workspace, skipped)
            if not notes:
                return decision
            return replace(decision, detail={**decision.detail, "install_notes": list(notes)})

    def _carries_listing(self, body: JsonObject) -> bool:
        try:
            self.spec.listing(body)
        except SkillbenchError:
            return False
        return True

    def _installable(self, skill: Skill) -> bool:
        """Whether the skill is a ``SKILL.md`` folder of a kind this agent can be given."""
        kinds = INSTALLABLE[self.spec.name]
        return bool(skill.path and skill.path.endswith("SKILL.md") and skill.source in kinds)

    def _sources(self, query: Query) -> tuple[list[SourceSpec], int]:
        """One source per installable skill folder of the cell's catalog."""
        sources, skipped = [], 0
        for entry in query.listing.entries:
            skill = entry.skill
            if skill.path and self._installable(skill):
                sources.append(SourceSpec(str(Path(skill.path).parent), skill.source))
            else:
                skipped += 1
        return sources, skipped

    def _read(
        self,
        query: Query,
        bridge: Bridge,
        requests: Sequence[Any],
        workspace: Workspace,
        skipped: int,
    ) -> Decision:
        detail: dict[str, Any] = {
            "agent": f"{self.spec.name} {self.version}",
            "requests": len(requests),
            "not_installed": skipped,
        }
        if bridge.errors:
            return Decision("error", detail={**detail, "error": bridge.errors[0]})
        if not bridge.calls:
            return Decision("error", detail={**detail, "error": "the agent made no model call"})
        call = bridge.calls[0]
        detail.update(self._check(query, requests))
        with self._lock:
            self._spent += call.cost_usd
        detail.update(
            input_tokens=call.input_tokens,
            output_tokens=call.output_tokens,
            cost_usd=call.cost_usd,
            cached=call.cached,
            model_latency_ms=round(call.latency_ms, 1),
            answer=call.answer,
        )
        reply = call.reply
        if reply.tool is None:
            return Decision("abstain", detail=detail)
        skill_tool = SKILL_TOOLS.get(self.spec.name)
        if skill_tool is not None:
            tool, argument = skill_tool
            if reply.tool != tool:
                return Decision("abstain", detail={**detail, "tool": reply.tool})
            try:
                chosen = json.loads(reply.raw_arguments, strict=False).get(argument)
            except (json.JSONDecodeError, AttributeError):
                chosen = None
            if not isinstance(chosen, str) or not chosen:
                return Decision("malformed", detail={**detail, "arguments": reply.raw_arguments})
            return Decision("invoke", chosen=chosen, detail=detail)
        text = reply.custom_input if reply.custom_input is not None else reply.raw_arguments
        read = _read_skill(text, query)
        if read is None:
            return Decision("abstain", detail={**detail, "tool": reply.tool})
        return Decision("invoke", chosen=read, detail=detail)


def _read_skill(text: str, query: Query) -> str | None:
    """The listed skill whose ``SKILL.md`` the call reads (by its folder), if any."""
    for entry in query.listing.entries:
        path = entry.skill.path
        if entry.shown and path:
            folder = Path(path).parent.name
            if re.search(rf"(?:^|[/\s'\"`]){re.escape(folder)}/SKILL\.md", text):
                return entry.skill.name
    return None


@SELECTORS.register("agent")
def _make_agent(params: Mapping[str, Any], env: SelectorEnv) -> AgentSelector:
    checked = check_params("agent", params, SPEC)
    for required in ("agent", "model"):
        if checked[required] is None:
            raise SkillbenchError(f"selector 'agent': parameter {required!r} is required")
    return AgentSelector("agent", AgentParams(**checked), env)
