"""A scripted conversation of several turns through a shipped agent's CLI, every request kept.

One turn is one non-interactive run of the CLI; each turn after the first resumes the same
conversation by its id, so every request carries what the agent keeps from the turns before
(a skill's body run inline, a forked skill's summary). The model behind it is a script: it
sees each request with the role of whoever sent it (the main conversation or a sub-agent the
agent started) and answers with a fixed ``Reply``. Nothing reaches the network.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple, Protocol

from skillbench._registry import Registry
from skillbench.agents._capture import DEFAULT_TIMEOUT, Turn, run_turn
from skillbench.agents._driver import AGENTS
from skillbench.agents._executable import agent_version, find_executable
from skillbench.agents._recorder import Responder
from skillbench.agents._wire import Recorded, Reply
from skillbench.agents._workspace import Workspace
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


class SessionAgent(Protocol):
    """What a multi-turn session needs beyond the agent's ``AgentSpec``."""

    @property
    def settings(self) -> JsonObject:
        """Settings under which a model's skill call runs without asking anyone."""
        ...

    def turn_args(self, session_id: str, first: bool) -> list[str]:
        """CLI arguments that start (``first``) or resume the conversation ``session_id``."""
        ...

    def is_subagent(self, body: JsonObject) -> bool:
        """Whether a request comes from a sub-agent rather than the main conversation."""
        ...

    def skill_call(self, name: str, args: str | None) -> Reply:
        """The model's call of the agent's skill tool for ``name``."""
        ...

    @property
    def skill_tool(self) -> str:
        """The name of the tool whose result carries a skill (or its forked summary)."""
        ...

    def read_call(self, path: str) -> Reply:
        """The model's call of the agent's file-reading tool on ``path``: real work a
        scripted sub-agent does before it answers."""
        ...


SESSION_AGENTS: Registry[SessionAgent] = Registry("session agent")
"""Agents whose CLI can hold a conversation over several non-interactive turns."""


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
