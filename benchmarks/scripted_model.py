"""The scripted loopback model as a server of its own process, speaking every wire it is asked in.

Both sides of ``live_throughput_bench.py``'s comparison talk to one of these: the live cell's
bridge through litellm over chat completions, and a bare warm agent directly in its own API
(Anthropic Messages for Claude Code, OpenAI Responses for Codex). Each request gets the same
work (its JSON read, the script applied, the answer written in the request's wire format),
and none of it competes with the process that measures.

The script (``tests.agents.test_live_selector.script``) answers the first model turn of a
conversation that carries the agent's listing: "trigger NAME now" calls skill NAME through the
agent's own tool, anything else is answered in text. A later turn of the conversation (a tool
result coming back), and a side request without the listing, get ``DONE``: the turn ends, as
the bridge ends it locally after its one forwarded call.

    python benchmarks/scripted_model.py claude-code codex

prints its base URL, then serves until its stdin closes; a line ``stats`` on stdin gets one
JSON line back: how many requests it answered with the script and with ``DONE``, by path.
"""

from __future__ import annotations

import json
import sys
import threading
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from skillbench.agents import AGENTS, Recorded, Recorder, Reply  # noqa: E402
from skillbench.agents._driver import AgentDriver  # noqa: E402
from skillbench.agents._wire import DONE, wire_of  # noqa: E402
from skillbench.types import JsonObject  # noqa: E402
from tests.agents.test_live_selector import script  # noqa: E402

CHAT = "openai-chat"
"""The API the bridge forwards in (its default relay): always a first turn with the listing."""

_LATER = frozenset({"function_call", "custom_tool_call", "function_call_output"})
"""Responses input items that show the conversation is past its first model turn."""


def leaves(tools: list[JsonObject]) -> dict[str, str]:
    """Tool name → type, namespaces flattened."""
    found: dict[str, str] = {}
    for tool in tools:
        inner = tool.get("tools")
        if isinstance(inner, list):
            found.update(leaves([t for t in inner if isinstance(t, dict)]))
        elif isinstance(tool.get("name"), str):
            found[str(tool["name"])] = str(tool.get("type", "function"))
        elif isinstance(tool.get("function"), dict):
            found[str(tool["function"].get("name"))] = "function"
    return found


def later_turn(body: JsonObject) -> bool:
    """Whether the request continues a conversation the model already answered."""
    for item in [*_list(body.get("messages")), *_list(body.get("input"))]:
        if item.get("role") in ("assistant", "tool") or item.get("type") in _LATER:
            return True
    return False


def _list(value: Any) -> list[JsonObject]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


class Scripted:
    """The responder: ``script`` on a request's user texts and tool names, in any wire."""

    def __init__(self, agents: list[str]) -> None:
        self.drivers: dict[str, AgentDriver] = {}
        for name in agents:
            driver = AGENTS.get(name)
            self.drivers[driver.wire.api] = driver
        self.counts: Counter[str] = Counter()
        self._lock = threading.Lock()

    def __call__(self, recorded: Recorded) -> Reply:
        reply = self.reply(recorded)
        with self._lock:
            self.counts[f"{'DONE' if reply.text == DONE else 'script'} {recorded.path}"] += 1
        return reply

    def reply(self, recorded: Recorded) -> Reply:
        wire, body = wire_of(recorded.path), recorded.body
        if wire is None or later_turn(body):
            return Reply(text=DONE)
        driver = self.drivers.get(wire.api)
        if wire.api != CHAT and (driver is None or driver.block(body) is None):
            return Reply(text=DONE)
        users = [t.text for t in wire.texts(body) if t.role == "user"]
        tools = leaves(wire.tools(body))
        chat = {
            "messages": [{"role": "user", "content": u} for u in users],
            "tools": [{"function": {"name": name}} for name in tools],
        }
        answer = script(chat)
        if isinstance(answer, str):
            return Reply(text=answer)
        name, arguments = answer[0]
        if tools.get(name) == "custom":
            return Reply(tool=name, custom_input=json.loads(arguments)["input"])
        return Reply(tool=name, raw_arguments=arguments)


def main() -> None:
    responder = Scripted(sys.argv[1:] or ["claude-code", "codex"])
    with Recorder(responder) as server:
        print(server.base_url, flush=True)
        for line in sys.stdin:
            if line.strip() == "stats":
                with responder._lock:
                    print(json.dumps(dict(responder.counts)), flush=True)


if __name__ == "__main__":
    main()
