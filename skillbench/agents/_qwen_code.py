"""Driving Qwen Code offline: where it looks for skills and where its listing sits.

Verified against Qwen Code 0.24.4: ``qwen -p`` posts ``/v1/chat/completions`` (streamed) to
``OPENAI_BASE_URL`` with ``OPENAI_API_KEY`` and ``OPENAI_MODEL``; the listing is the first
text part of the first user message, a ``<system-reminder>`` holding
``<available_skills>``, its bundled skills sorted in among the user's. A second request
after the turn (its managed-memory pass) is answered like the first.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from skillbench.agents._layout import (
    FolderAgent,
    Folders,
    write_settings,
)
from skillbench.agents._recorder import objects
from skillbench.agents._spec import AGENTS, Workspace, base_environment
from skillbench.listing import AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

LISTING_MARK = "<available_skills>"
EMPTY_MARK = "No skills are currently available."
DEFAULT_MODEL = "qwen3-coder-plus"
"""The model a capture names when none is asked for (Qwen Code needs one; any name works
against the recorder)."""
QUIET = {"privacy": {"usageStatisticsEnabled": False}}
"""Settings every run gets: no usage statistics (there is no network to send them to)."""
_BUNDLED = re.compile(
    r"<skill>\n<name>\n(?P<name>.*?)\n</name>\n<description>\n(?P<text>.*?) \(bundled\)\n"
    r"</description>\n<location>\nbundled\n</location>\n</skill>",
    re.DOTALL,
)

FOLDERS: Folders = {
    "project": ("project", ".qwen/skills"),
    "user": ("home", ".qwen/skills"),
    "extra": ("home", ".agents/skills"),
}
"""Where a capture puts each source kind: Qwen Code's own folders, project and user; an
``extra`` source goes to ``~/.agents/skills``, the second user folder it reads."""


def _texts(body: JsonObject) -> list[str]:
    """The text parts of the user messages, in order."""
    found: list[str] = []
    for message in objects(body.get("messages")):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            found.append(content)
        found += [str(p["text"]) for p in objects(content) if isinstance(p.get("text"), str)]
    return found


def skills_reminder(body: JsonObject) -> str | None:
    """The ``<system-reminder>`` that lists the skills (tags included), or None."""
    for text in _texts(body):
        if text.startswith("<system-reminder>") and (LISTING_MARK in text or EMPTY_MARK in text):
            return text
    return None


@dataclass(frozen=True)
class QwenCode(FolderAgent):
    name: str = "qwen-code"
    executable: str = "qwen"
    npm_package: str = "@qwen-code/qwen-code"
    verified_version: str = "0.24.4"
    folders: ClassVar[Folders] = FOLDERS

    def block(self, body: JsonObject) -> str | None:
        return skills_reminder(body)

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        path = workspace.home / ".qwen" / "settings.json"
        write_settings(self.name, path, {**QUIET, **settings}, usage)

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        model = model or DEFAULT_MODEL
        return [executable, "-p", prompt, "--auth-type", "openai", "--model", model]

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        return {
            **base_environment(),
            "HOME": str(workspace.home),
            "OPENAI_BASE_URL": f"{base_url}/v1",
            "OPENAI_API_KEY": "skillbench-capture",
        }

    def render_options(self, capture: Capture) -> RenderOptions:
        return {"snapshot": capture.snapshot} if capture.snapshot is not None else {}

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """The bundled skills as a bare turn lists them (their text unescaped, the
        ``when_to_use`` already joined as the agent joins it), the system prompt, tools."""
        listing = self.listing(body)
        skills = tuple(
            BuiltinSkill(html.unescape(m["name"]), html.unescape(m["text"]))
            for m in _BUNDLED.finditer(listing)
        )
        system = [str(m.get("content")) for m in objects(body.get("messages"))]
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=skills,
            texts={"system_prompt": system[0] if system else ""},
            tools=tuple(self.tools(body)),
            model=str(body.get("model")) if body.get("model") else None,
        )


AGENTS.register("qwen-code")(QwenCode())
