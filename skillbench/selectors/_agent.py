"""The ``agent`` selector: the shipped agent CLI itself decides, with a real model behind it.

Per request the cell's catalog is installed where the agent looks for it, in a fresh
temporary HOME and project, the cell's budget set through the agent's own setting where it
has one; the agent runs one non-interactive turn with its model endpoint at a loopback
``Bridge``, which forwards the turn that carries the listing to the configured model through
litellm and records it. The decision is the model's first call: the agent's skill tool (its record's
``Live.skill_tool``), or for an agent without one a tool call that reads a listed
``SKILL.md``.

With ``warm: auto`` (the default), consecutive queries that the agent would list alike share
one warm process where the agent has one (``_agent_warm``); processes outlive a batch in the
selector's pool and end with it.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import time
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

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
    warm_agents,
)
from skillbench.cache import ResponseCache
from skillbench.catalog import Skill, SourceSpec
from skillbench.listing import ListedSkill
from skillbench.selectors._agent_listing import ListingCheck, seeded_usage
from skillbench.selectors._agent_params import SPEC, AgentParams
from skillbench.selectors._agent_warm import Setting, WarmPool, WarmRun, decide_warm, runs
from skillbench.selectors._controls import explicit_request
from skillbench.selectors._params import check_params
from skillbench.selectors._registry import SELECTORS
from skillbench.selectors._types import Decision, Query, SelectorEnv
from skillbench.types import JsonObject, RunStopped


class AgentSelector:
    """Runs the real agent once per query; see the module docstring."""

    def __init__(self, name: str, params: AgentParams, env: SelectorEnv) -> None:
        self.name = name
        self.params = params
        self.driver = AGENTS.get(params.agent)
        self.spec = self.driver.spec
        self.executable = find_executable(self.driver)
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
        self._check = ListingCheck(self.driver, self.executable, params.timeout)
        self.pool = WarmPool(self.workers)
        weakref.finalize(self, self.pool.close)

    def select(self, queries: Sequence[Query]) -> list[Decision]:
        warm = self.params.warm == "auto" and self.spec.name in warm_agents()
        settings = [self._setting(query) for query in queries]
        listings = [query.listing for query in queries]
        counts_uses = self.spec.launch.keeps_usage
        rereads = counts_uses and self.spec.live.rereads_usage
        parts = runs(settings, listings, self.workers, warm, counts_uses, rereads)

        def decide(run: WarmRun) -> list[Decision]:
            chosen = [queries[p] for p in run.positions]
            return decide_warm(self, run, chosen) if run.warm else [self._decide(chosen[0])]

        answered = map_agent_turns(decide, parts, self.workers, "skillbench-agent")
        return [decision for part in answered for decision in part]

    def control_request(self, entry: ListedSkill) -> str | None:
        """The request naming ``entry`` in the agent's explicit form (None: a skill this
        selector cannot install, which the agent never lists)."""
        if not self._installable(entry.skill):
            return None
        return explicit_request(self.spec.live.explicit, entry.name)

    def _decide(self, query: Query) -> Decision:
        """One query in a process of its own."""
        self._check_cap()
        setting = self._setting(query)
        with tempfile.TemporaryDirectory(prefix="skillbench-agent-") as tmp:
            root = Path(tmp).resolve()
            workspace = Workspace(root / "home", root / "project")
            for path in workspace:
                path.mkdir()
            bridge = self._bridge(root, query.repeat)
            turn = Turn(
                None,
                {},
                dict(setting.env),
                dict(setting.usage),
                query.request.text,
                self.params.timeout,
                bridge,
            )
            sources = list(setting.sources)
            start = time.perf_counter()
            try:
                with install_notes() as notes:
                    requests, _ = run_turn(self.driver, self.executable, sources, workspace, turn)
            except SkillbenchError as exc:
                return self._failed(str(exc))
            seconds = time.perf_counter() - start
            return self._read(query, bridge, requests, setting, notes, seconds)

    def _check_cap(self) -> None:
        cap = self.params.max_cost_usd
        with self._lock:
            if cap is not None and self._spent >= cap:
                raise RunStopped(f"spend cap ${cap:.2f} reached (${self._spent:.4f} spent)")

    def _failed(self, error: str) -> Decision:
        return Decision("error", detail={"error": error, "agent": self.version})

    def _setting(self, query: Query) -> Setting:
        """What the agent lists ``query`` from: skills installed, budget, seeded usage."""
        sources, skipped = self._sources(query)
        variable = self.spec.launch.budget_variable
        budget = query.listing.budget
        env = ((variable, str(budget)),) if variable and budget is not None else ()
        usage = seeded_usage(query) if self.spec.launch.keeps_usage else {}
        return Setting(tuple(sources), skipped, env, tuple(sorted(usage.items())))

    def _bridge(self, root: Path, repeat: int) -> Bridge:
        """The bridge of one request, its workspace ``root`` a placeholder in cache keys and
        its ``repeat`` part of them."""
        return Bridge(
            self.upstream,
            lambda body: self._carries_listing(body),
            self.cache,
            {str(root): "$WORKSPACE"},
            repeat,
        )

    def _carries_listing(self, body: JsonObject) -> bool:
        return self.driver.block(body) is not None

    def _installable(self, skill: Skill) -> bool:
        """Whether the skill is a ``SKILL.md`` folder of a kind this agent can be given."""
        kinds = self.spec.installable
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
        setting: Setting,
        notes: Sequence[str],
        seconds: float,
    ) -> Decision:
        """The decision of an agent turn that took ``seconds`` (its latency)."""
        decision = self._reply(query, bridge, requests, setting.skipped)
        detail = {**decision.detail, "install_notes": list(notes)} if notes else decision.detail
        return replace(decision, latency_ms=round(seconds * 1000, 3), detail=detail)

    def _reply(
        self, query: Query, bridge: Bridge, requests: Sequence[Any], skipped: int
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
            bridge_cpu_ms=round(call.cpu_ms, 1),
            answer=call.answer,
        )
        reply = call.reply
        if reply.tool is None:
            return Decision("abstain", detail=detail)
        tool, argument = self.spec.live.skill_tool, self.spec.live.skill_argument
        if tool is not None and argument is not None:
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
