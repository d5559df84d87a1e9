"""Driving opencode offline: where it looks for skills and where its listing sits.

Verified against opencode 1.18.33: ``opencode run`` posts ``/v1/chat/completions``
(streamed) to an OpenAI-compatible provider given in ``OPENCODE_CONFIG_CONTENT``; first a
short title request, then the turn, whose system prompt holds the ``<available_skills>``
block. Its default plugins, model list, updates and sharing are switched off, and npm is
told to stay offline, so nothing leaves the machine.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from skillbench._errors import SkillbenchError
from skillbench.agents._layout import (
    FolderAgent,
    Folders,
    block_between,
    kind_folders,
    write_settings,
)
from skillbench.agents._recorder import objects
from skillbench.agents._spec import AGENTS, Workspace, base_environment
from skillbench.listing import AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

OPEN = "<available_skills>"
CLOSE = "</available_skills>"
PROVIDER = "skillbench"
DEFAULT_MODEL = "model"
_BUILT_IN = re.compile(
    r"  <skill>\n    <name>(?P<name>[^\n]*)</name>\n    <description>(?P<text>.*?)</description>\n"
    r"    <location>&lt;built-in&gt;</location>\n  </skill>",
    re.DOTALL,
)
QUIET = {
    "OPENCODE_DISABLE_MODELS_FETCH": "1",
    "OPENCODE_DISABLE_AUTOUPDATE": "1",
    "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
    "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
    "OPENCODE_DISABLE_SHARE": "1",
    "npm_config_offline": "true",
}

FOLDERS: Folders = {
    "project": ("project", ".agents/skills"),
    "user": ("home", ".agents/skills"),
    "extra": ("home", ".claude/skills"),
}
"""Where a capture puts each source kind: the project's and the user's ``.agents/skills``;
an ``extra`` source goes to ``~/.claude/skills``, the other user folder opencode reads."""


def _system(body: JsonObject) -> list[str]:
    return [
        str(m.get("content"))
        for m in objects(body.get("messages"))
        if m.get("role") == "system" and isinstance(m.get("content"), str)
    ]


def skills_block(body: JsonObject) -> str | None:
    """The ``<available_skills>`` block of the system prompt, tags included."""
    return block_between(_system(body), OPEN, "\n" + CLOSE)


@dataclass(frozen=True)
class Opencode(FolderAgent):
    name: str = "opencode"
    executable: str = "opencode"
    npm_package: str = "opencode-ai"
    verified_version: str = "1.18.33"
    folders: ClassVar[Folders] = FOLDERS

    def block(self, body: JsonObject) -> str | None:
        return skills_block(body)

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        path = workspace.home / ".config" / "opencode" / "opencode.json"
        write_settings(self.name, path, settings, usage)

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        if model not in (None, DEFAULT_MODEL):
            raise SkillbenchError(
                f"opencode: --model {model}: opencode runs only a model declared in its "
                f"provider config, and a capture declares one, {DEFAULT_MODEL!r} (the name "
                "changes one sentence of the system prompt, not the listing)"
            )
        return [executable, "run", "--model", f"{PROVIDER}/{DEFAULT_MODEL}", prompt]

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        provider = {
            "npm": "@ai-sdk/openai-compatible",
            "name": PROVIDER,
            "options": {"baseURL": f"{base_url}/v1", "apiKey": "skillbench-capture"},
            "models": {DEFAULT_MODEL: {"name": DEFAULT_MODEL}},
        }
        config = {
            "provider": {PROVIDER: provider},
            "model": f"{PROVIDER}/{DEFAULT_MODEL}",
            "small_model": f"{PROVIDER}/{DEFAULT_MODEL}",
            "autoupdate": False,
            "share": "disabled",
        }
        return {
            **base_environment(),
            **QUIET,
            "HOME": str(workspace.home),
            "OPENCODE_CONFIG_CONTENT": json.dumps(config),
        }

    def render_options(self, capture: Capture) -> RenderOptions:
        """The capture's folders as the locations' roots, and its snapshot."""
        roots: dict[str, JsonValue] = {
            kind: str(folder) for kind, folder in kind_folders(capture.workspace, FOLDERS).items()
        }
        options: dict[str, JsonValue | AgentSnapshot] = {"roots": roots}
        if capture.snapshot is not None:
            options["snapshot"] = capture.snapshot
        return options

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """opencode's own skill as a bare turn lists it, the system prompt and tools."""
        block = self.listing(body)
        skills = tuple(BuiltinSkill(m["name"], m["text"]) for m in _BUILT_IN.finditer(block))
        system = _system(body)
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=skills,
            texts={"system_prompt": system[0] if system else ""},
            tools=tuple(self.tools(body)),
            model=str(body.get("model")) if body.get("model") else None,
        )


AGENTS.register("opencode")(Opencode())
