"""Warm agents: one CLI process answering many independent requests, a fresh conversation each.

A live decision starts the agent's CLI for one turn, and starting it costs far more than the
model call. Some CLIs can instead take request after request in one process, each a new
conversation whose model call carries nothing of the previous request and lists the skills
again; how is the agent's own ``WarmProtocol`` (``WARM_PROTOCOLS``, registered beside its
driver), and its record says it has one (``Live.warm``).

The installed skills, the budget setting and the environment belong to the process, so one
warm process serves requests whose listing is the same: a cell whose listing does not follow
usage. The live ``agent`` selector uses it for such requests (``warm: auto``);
``benchmarks/live_throughput_bench.py`` measures what it gains.
"""

from __future__ import annotations

import json
import queue
import subprocess
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from typing import Protocol

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._capture import start_agent, stop_agent
from skillbench.agents._driver import AGENTS, AgentDriver
from skillbench.agents._recorder import Recorder
from skillbench.agents._wire import Recorded
from skillbench.agents._workspace import Workspace
from skillbench.agentspec import AGENT_SPECS
from skillbench.types import JsonObject


class WarmProtocol(Protocol):
    """How one agent's CLI takes request after request on stdin and stdout."""

    def command(self, driver: AgentDriver, executable: str, base_url: str) -> list[str]:
        """The command of the warm process (its turn's own arguments are added after)."""
        ...

    def start(self, warm: WarmAgent) -> None:
        """Whatever the process needs before its first request."""
        ...

    def ask(self, warm: WarmAgent, prompt: str) -> None:
        """Run ``prompt`` as a new conversation, until its turn ends."""
        ...


WARM_PROTOCOLS: Registry[WarmProtocol] = Registry("warm protocol")
"""Agent name → how its CLI answers request after request in one process."""


def warm_agents() -> tuple[str, ...]:
    """Agents whose CLI can answer independent requests in one process."""
    return tuple(spec.name for spec in AGENT_SPECS.values() if spec.live.warm)


class WarmAgent:
    """One warm agent process; ``ask`` runs one request in a fresh conversation.

    ``env`` and ``args`` are a turn's own (the budget setting, the folders ``lay_out``
    adds); the process is registered with the running agents, so Ctrl-C kills it too.
    """

    def __init__(
        self,
        agent: str,
        executable: str,
        workspace: Workspace,
        recorder: Recorder,
        timeout: float,
        env: Mapping[str, str] | None = None,
        args: Sequence[str] = (),
    ) -> None:
        if agent not in warm_agents():
            known = ", ".join(warm_agents())
            raise SkillbenchError(f"{agent} has no warm mode; known: {known}")
        driver = AGENTS.get(agent)
        self.agent = agent
        self.protocol = WARM_PROTOCOLS.get(agent)
        self.recorder = recorder
        self.timeout = timeout
        self.workspace = workspace
        self.turns = 0
        self.ids = 0
        command = self.protocol.command(driver, executable, recorder.base_url)
        env = {**driver.environment(workspace, recorder.base_url), **(env or {})}
        self.process = start_agent([*command, *args], env, workspace.project, talk=True)
        self.lines: queue.SimpleQueue[JsonObject] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self.protocol.start(self)
        except (SkillbenchError, OSError):
            self.close()
            raise

    def ask(self, prompt: str) -> list[Recorded]:
        """Run ``prompt`` as a new conversation; the model requests it made."""
        before = len(self.recorder.requests)
        self.protocol.ask(self, prompt)
        self.turns += 1
        return self.recorder.requests[before:]

    def close(self) -> None:
        """Let the agent end on its own, then end it and every child it started."""
        if self.process.stdin is not None:
            with suppress(OSError):  # a process that died leaves unsent bytes: nothing to send
                self.process.stdin.close()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        stop_agent(self.process)

    def call(self, method: str, params: JsonObject) -> JsonObject:
        """One JSON-RPC call and its result."""
        self.ids += 1
        ident = self.ids
        self.send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        answer = self.until(lambda m: m.get("id") == ident and "method" not in m)
        if "error" in answer:
            raise SkillbenchError(f"{self.agent} (warm) {method}: {answer['error']}")
        result = answer.get("result")
        return result if isinstance(result, dict) else {}

    def send(self, message: JsonObject) -> None:
        """One JSON line to the process."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(json.dumps(message) + "\n")
            self.process.stdin.flush()
        except OSError as exc:  # the process is gone (a broken pipe)
            raise SkillbenchError(f"{self.agent} (warm) exited: {exc}") from None

    def until(self, done: Callable[[JsonObject], bool]) -> JsonObject:
        """The first message from the process that ``done`` accepts."""
        while True:
            try:
                message = self.lines.get(timeout=self.timeout)
            except queue.Empty:
                raise SkillbenchError(
                    f"{self.agent} (warm) said nothing for {self.timeout:g} s"
                ) from None
            if not message:
                raise SkillbenchError(f"{self.agent} (warm) exited")
            if done(message):
                return message

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            try:
                message = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(message, dict):
                self.lines.put(message)
        self.lines.put({})


@contextmanager
def warm_agent(
    agent: str,
    executable: str,
    workspace: Workspace,
    recorder: Recorder,
    timeout: float = 120.0,
    env: Mapping[str, str] | None = None,
    args: Sequence[str] = (),
) -> Iterator[WarmAgent]:
    """A warm process of ``agent`` in ``workspace`` (skills laid out, settings written)."""
    warm = WarmAgent(agent, executable, workspace, recorder, timeout, env, args)
    try:
        yield warm
    finally:
        warm.close()
