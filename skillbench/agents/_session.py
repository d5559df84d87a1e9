"""A scripted conversation of several turns through a shipped agent's CLI, every request kept.

One turn is one non-interactive run of the CLI; each turn after the first resumes the same
conversation by its id, so every request carries what the agent keeps from the turns before
(a skill's body run inline, a forked skill's summary). The model behind it is a script: it
sees each request with the role of whoever sent it (the main conversation or a sub-agent the
agent started) and answers with a fixed ``Reply``. Nothing reaches the network.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._capture import DEFAULT_TIMEOUT, Turn, run_turn
from skillbench.agents._conversation import conversation, tool_name
from skillbench.agents._driver import AGENTS
from skillbench.agents._executable import agent_version, find_executable
from skillbench.agents._recorder import Responder
from skillbench.agents._wire import Recorded, Reply, objects
from skillbench.agents._workspace import Workspace
from skillbench.agentspec import AGENT_SPECS, AgentSpec, Delegate, Sessions
from skillbench.catalog import SourceSpec
from skillbench.types import JsonObject

Role = Literal["main", "subagent"]
"""Who sent a request: the conversation the user talks to, or a sub-agent it started."""


class SessionRequest(NamedTuple):
    """One request of a session, the turn it belongs to, who sent it and what the script said."""

    turn: int
    role: Role
    recorded: Recorded
    reply: Reply


Script = Callable[[Role, Recorded], Reply]
"""Decides the model's answer to one request, knowing who sent it."""


@dataclass(frozen=True)
class Session:
    """Every request of a scripted conversation, in order.

    Attributes:
        agent / version: the agent and the version its CLI reported.
        prompts: the user's message of each turn (turn 0 first).
        requests: what the agent sent, with the turn, the sender and the scripted answer.
        workspace: where it ran (paths in the requests name it).
    """

    agent: str
    version: str
    prompts: tuple[str, ...]
    requests: tuple[SessionRequest, ...]
    workspace: Workspace


@dataclass(frozen=True)
class SessionAgent:
    """What a multi-turn session needs of an agent, read from its record (``Live.sessions``)."""

    spec: AgentSpec
    rules: Sessions

    @property
    def settings(self) -> JsonObject:
        """Settings under which a model's skill call runs without asking anyone."""
        return self.rules.settings

    @property
    def skill_tool(self) -> str:
        """The tool whose call runs a skill."""
        return self.spec.live.skill_tool or ""

    @property
    def delegate(self) -> Delegate | None:
        """The sub-agent tool a task is handed to (None: a skill forks itself)."""
        return None if self.rules.fork == "context" else self.rules.fork

    def turn_args(self, session_id: str, first: bool) -> list[str]:
        """CLI arguments that start (``first``) or resume the conversation ``session_id``."""
        args = self.rules.first if first else self.rules.resume
        return [a.replace("$session_id", session_id) for a in args]

    def is_subagent(self, body: JsonObject) -> bool:
        """Whether a request comes from a sub-agent rather than the main conversation."""
        blocks = conversation(self.spec.wire.api, body)
        mark = self.rules.subagent_text
        if mark is not None and any(b.role == "system" and mark in b.text for b in blocks):
            return True
        tools = {tool_name(t) for t in objects(body.get("tools"))}
        lacks = self.rules.subagent_lacks
        return lacks is not None and bool(tools) and lacks not in tools

    def skill_call(self, name: str, args: str | None) -> Reply:
        """The model's call of the agent's skill tool for ``name``."""
        arguments = {self.spec.live.skill_argument or "name": name}
        if args is not None and self.rules.args_argument is not None:
            arguments[self.rules.args_argument] = args
        return Reply(tool=self.skill_tool, raw_arguments=json.dumps(arguments))

    def read_call(self, path: str) -> Reply:
        """The model's call of the agent's file-reading tool on ``path``: real work a
        scripted sub-agent does before it answers."""
        return Reply(
            tool=self.rules.read_tool, raw_arguments=json.dumps({self.rules.read_argument: path})
        )

    def delegate_call(self, task: str) -> Reply:
        """The model's call handing ``task`` to a sub-agent (an agent with a ``Delegate``)."""
        if self.delegate is None:
            raise SkillbenchError(f"{self.spec.name}: a skill forks itself; nothing is delegated")
        arguments = {
            k: v.replace("$task", task) if isinstance(v, str) else v
            for k, v in self.delegate.arguments.items()
        }
        return Reply(tool=self.delegate.tool, raw_arguments=json.dumps(arguments))


SESSION_AGENTS: Registry[SessionAgent] = Registry("session agent")
"""Agents whose CLI can hold a conversation over several non-interactive turns (derived from
the records that say how: ``Live.sessions``)."""


def _add_session(name: str, spec: AgentSpec) -> None:
    if spec.live.sessions is not None:
        SESSION_AGENTS.register(name)(SessionAgent(spec, spec.live.sessions))


def _remove_session(name: str, spec: AgentSpec) -> None:
    if name in SESSION_AGENTS:
        SESSION_AGENTS.remove(name)


AGENT_SPECS.watch(_add_session, _remove_session)


def _responder(
    turn: int, support: SessionAgent, script: Script, sink: list[SessionRequest]
) -> Responder:
    """Answers with ``script`` and keeps each request of ``turn`` with its sender and answer."""

    def respond(recorded: Recorded) -> Reply:
        role: Role = "subagent" if support.is_subagent(recorded.body) else "main"
        reply = script(role, recorded)
        sink.append(SessionRequest(turn, role, recorded, reply))
        return reply

    return respond


def run_session(
    agent: str,
    sources: Sequence[SourceSpec],
    prompts: Sequence[str],
    script: Script,
    workdir: Path,
    *,
    model: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
) -> Session:
    """Run ``prompts`` as the turns of one conversation of ``agent`` with ``sources`` installed.

    ``workdir`` holds the HOME and project of the session (created when absent).
    """
    spec = AGENTS.get(agent)
    support = SESSION_AGENTS.get(agent)
    executable = find_executable(spec)
    version = agent_version(executable)
    workspace = Workspace(workdir / "home", workdir / "project")
    for path in workspace:
        path.mkdir(parents=True, exist_ok=True)
    extra = spec.lay_out(sources, workspace)
    session_id = str(uuid.uuid4())
    requests: list[SessionRequest] = []
    for number, prompt in enumerate(prompts):
        respond = _responder(number, support, script, requests)
        args = (*extra, *support.turn_args(session_id, number == 0))
        turn = Turn(model, dict(support.settings), {}, {}, prompt, timeout, respond, args)
        run_turn(spec, executable, [], workspace, turn)
    return Session(agent, version, tuple(prompts), tuple(requests), workspace)
