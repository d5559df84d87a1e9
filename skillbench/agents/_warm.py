"""Warm agents: one CLI process answering many independent requests, a fresh conversation each.

A live decision today starts the agent's CLI for one turn, and starting it costs far more than
the model call. Two shipped CLIs can instead take request after request in one process:

- Claude Code: ``-p --input-format stream-json --output-format stream-json`` reads user
  messages from stdin and ends each turn with a ``result`` event; a ``/clear`` message between
  requests starts a new session, whose model call carries nothing of the previous request and
  lists the skills again.
- Codex: ``codex app-server`` speaks JSON-RPC on stdio; each request gets its own
  ``thread/start`` (``ephemeral``: nothing saved) and ``turn/start``, which ends with a
  ``turn/completed`` notification.

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
from typing import Any

from skillbench._errors import SkillbenchError
from skillbench.agents._capture import start_agent, stop_agent
from skillbench.agents._recorder import Recorded, Recorder
from skillbench.agents._spec import AGENTS, Workspace

WARM_AGENTS = ("claude-code", "codex")
"""Agents whose CLI can answer independent requests in one process."""
EPHEMERAL = {"ephemeral": True}
"""A thread the app server saves nothing of."""


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
        if agent not in WARM_AGENTS:
            raise SkillbenchError(f"{agent} has no warm mode; known: {', '.join(WARM_AGENTS)}")
        spec = AGENTS.get(agent)
        self.agent = agent
        self.recorder = recorder
        self.timeout = timeout
        self.workspace = workspace
        self.turns = 0
        self._ids = 0
        if agent == "claude-code":
            streams = ["--input-format", "stream-json", "--output-format", "stream-json"]
            command = [executable, "-p", *streams, "--verbose"]
        else:  # the provider overrides of ``codex exec``, given to the app server
            once = spec.command(executable, "", None, recorder.base_url)
            command = [executable, "app-server", *once[3 : once.index("--")]]
        env = {**spec.environment(workspace, recorder.base_url), **(env or {})}
        self.process = start_agent([*command, *args], env, workspace.project, talk=True)
        self.lines: queue.SimpleQueue[dict[str, Any]] = queue.SimpleQueue()
        threading.Thread(target=self._read, daemon=True).start()
        if agent == "codex":
            try:
                self._call("initialize", {"clientInfo": {"name": "skillbench", "version": "0"}})
                self._send({"jsonrpc": "2.0", "method": "initialized"})
            except (SkillbenchError, OSError):
                self.close()
                raise

    def ask(self, prompt: str) -> list[Recorded]:
        """Run ``prompt`` as a new conversation; the model requests it made."""
        before = len(self.recorder.requests)
        if self.agent == "claude-code":
            if self.turns:
                self._claude_turn("/clear")
            self._claude_turn(prompt)
        else:
            started = self._call("thread/start", {"cwd": str(self.workspace.project)} | EPHEMERAL)
            thread = started["thread"]["id"]
            message = [{"type": "text", "text": prompt}]
            self._call("turn/start", {"threadId": thread, "input": message})
            self._until(lambda m: m.get("method") == "turn/completed")
        self.turns += 1
        return self.recorder.requests[before:]

    def close(self) -> None:
        """Let the agent end on its own, then end it and every child it started."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        with suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=10)
        stop_agent(self.process)

    def _claude_turn(self, text: str) -> None:
        self._send({"type": "user", "message": {"role": "user", "content": text}})
        self._until(lambda m: m.get("type") == "result")

    def _call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._ids += 1
        ident = self._ids
        self._send({"jsonrpc": "2.0", "id": ident, "method": method, "params": params})
        answer = self._until(lambda m: m.get("id") == ident and "method" not in m)
        if "error" in answer:
            raise SkillbenchError(f"{self.agent} app-server {method}: {answer['error']}")
        result: dict[str, Any] = answer["result"]
        return result

    def _send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message) + "\n")
        self.process.stdin.flush()

    def _until(self, done: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
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
