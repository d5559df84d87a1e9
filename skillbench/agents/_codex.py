"""Codex's own capture rules (its record: ``skillbench.agentspec``).

What no record says: Codex writes its own system skills under ``$CODEX_HOME/skills/.system``
(the render names that root), a configured ``model_context_window`` and the request's model
set the budget, and its snapshot keeps the skills block with the system root as a
placeholder.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from skillbench.agents._driver import OWN_DRIVERS, AgentDriver
from skillbench.agents._listing_check import OWN_PARSERS, ListingEntry
from skillbench.agents._warm import WARM_PROTOCOLS, WarmAgent
from skillbench.agents._wire import field
from skillbench.agents._workspace import Workspace
from skillbench.agentspec._codex import CODEX
from skillbench.listing import AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

SYSTEM_ROOT = "r0"
_SYSTEM_ENTRY = re.compile(
    r"^- (?P<name>[^:\n]+): (?P<text>.*) \(file: " + SYSTEM_ROOT + r"/(?P<path>[^)\n]+)\)$",
    re.MULTILINE,
)


def system_root(workspace: Workspace) -> str:
    """Where Codex writes its own skills in ``workspace``."""
    return str(workspace.home / ".codex" / "skills" / ".system")


@OWN_DRIVERS.register(CODEX.name)
class CodexDriver(AgentDriver):
    """See the module docstring."""

    def render_options(self, capture: Capture) -> RenderOptions:
        """The capture's folders as the roots table's roots, its snapshot, the model the
        request names (its window sets the budget) and the context window a
        ``model_context_window`` setting gave it."""
        roots = self.install_roots(capture.workspace)
        roots["bundled"] = system_root(capture.workspace)
        options: dict[str, JsonValue | AgentSnapshot] = {"roots": roots}
        if capture.snapshot is not None:
            options["snapshot"] = capture.snapshot
        model = capture.request.get("model")
        if isinstance(model, str):
            options["model"] = model
        window = capture.settings.get("model_context_window")
        if isinstance(window, int) and not isinstance(window, bool):
            options["context_window"] = window
        return options

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """Codex's system skills as listed in a turn with no user skills (full text, only
        the system root), its developer messages and tools."""
        block = self.listing(body)
        skills = tuple(
            BuiltinSkill(m["name"], m["text"], path=m["path"])
            for m in _SYSTEM_ENTRY.finditer(block)
        )
        texts = {
            "skills_block": block.replace(system_root(workspace), "$CODEX_SYSTEM_ROOT"),
            "developer_messages": json.dumps(
                [t.text for t in self.wire.texts(body) if t.role != "system"], ensure_ascii=False
            ),
        }
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=skills,
            texts=texts,
            tools=tuple(self.tools(body)),
            model=str(body.get("model")) if body.get("model") else None,
        )


class CodexWarm:
    """``codex app-server`` speaks JSON-RPC on stdio; each request gets its own
    ``thread/start`` (``ephemeral``: nothing saved) and ``turn/start``, which ends with a
    ``turn/completed`` notification. The app server takes the provider overrides of a turn."""

    def command(self, driver: AgentDriver, executable: str, base_url: str) -> list[str]:
        once = driver.command(executable, "", None, base_url)
        return [executable, "app-server", *once[3 : once.index("--")]]

    def start(self, warm: WarmAgent) -> None:
        warm.call("initialize", {"clientInfo": {"name": "skillbench", "version": "0"}})
        warm.send({"jsonrpc": "2.0", "method": "initialized"})

    def ask(self, warm: WarmAgent, prompt: str) -> None:
        project = str(warm.workspace.project)
        started = warm.call("thread/start", {"cwd": project, "ephemeral": True})
        message: JsonValue = [{"type": "text", "text": prompt}]
        thread = field(started.get("thread"), "id")
        warm.call("turn/start", {"threadId": thread, "input": message})
        warm.until(lambda m: m.get("method") == "turn/completed")


WARM_PROTOCOLS.register(CODEX.name)(CodexWarm())

_ENTRY = re.compile(r"^- (?P<name>[^:\n]+?)(?:: (?P<text>.*?))?(?: \(file: [^)\n]*\))?$")


@OWN_PARSERS.register(CODEX.name)
def listed_entries(listing: str) -> list[ListingEntry]:
    """The ``### Available skills`` lines, paths left out."""
    _, _, section = listing.partition("### Available skills\n")
    close = CODEX.wire.listing.close if CODEX.wire.listing else ""
    entries = []
    for line in section.removesuffix(close).splitlines():
        if line.startswith("#"):
            break
        found = _ENTRY.match(line)
        if found:
            entries.append(ListingEntry(found["name"], found["text"] or ""))
    return entries
