"""Driving GitHub Copilot CLI offline: where it looks for skills and where its listing sits.

Verified against Copilot CLI 1.0.102 (closed source; everything here was learnt by capture):
in bring-your-own-key mode (``COPILOT_PROVIDER_BASE_URL``, ``COPILOT_PROVIDER_TYPE=anthropic``,
``COPILOT_MODEL``, ``COPILOT_OFFLINE=true``) it posts ``/v1/messages`` (streamed) with no
GitHub sign-in; the listing is the ``<available_skills>`` block of its system prompt, the
built-in skills last, and the model loads a skill with its ``skill`` tool (``{skill: name}``).
Of the documented user folders, ``~/.claude/skills`` was not read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from skillbench._errors import SkillbenchError
from skillbench.agents._layout import (
    FolderAgent,
    Folders,
    block_between,
    refuse_usage,
)
from skillbench.agents._recorder import objects
from skillbench.agents._spec import AGENTS, Workspace, base_environment
from skillbench.listing import AgentSnapshot, RenderOptions
from skillbench.listing._copilot_cli import CLOSE_TAG, OPEN_TAG, parse_builtins
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

DEFAULT_MODEL = "claude-sonnet-4.5"
"""The model named to the loopback endpoint when a capture names none."""
FOLDERS: Folders = {
    "project": ("project", ".github/skills"),
    "user": ("home", ".copilot/skills"),
}
"""Where a capture puts each source kind (Copilot CLI also reads ``.claude/skills`` and
``.agents/skills`` in the project and ``~/.agents/skills``)."""


def _system_texts(body: JsonObject) -> list[str]:
    system = body.get("system")
    if isinstance(system, str):
        return [system]
    return [str(b["text"]) for b in objects(system) if isinstance(b.get("text"), str)]


def skills_block(body: JsonObject) -> str | None:
    """The ``<available_skills>`` block of a Messages request, tags included."""
    return block_between(_system_texts(body), OPEN_TAG, CLOSE_TAG)


@dataclass(frozen=True)
class CopilotCli(FolderAgent):
    name: str = "copilot-cli"
    executable: str = "copilot"
    npm_package: str = "@github/copilot"
    verified_version: str = "1.0.102"
    folders: ClassVar[Folders] = FOLDERS

    def block(self, body: JsonObject) -> str | None:
        return skills_block(body)

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        if settings:
            raise SkillbenchError("copilot-cli: no settings are modelled; drop --setting")
        refuse_usage(self.name, usage)

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        return [executable, "-p", prompt, "--model", model or DEFAULT_MODEL]

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        return {
            **base_environment(),
            "HOME": str(workspace.home),
            "COPILOT_PROVIDER_BASE_URL": base_url,
            "COPILOT_PROVIDER_TYPE": "anthropic",
            "COPILOT_PROVIDER_API_KEY": "skillbench-capture",
            "COPILOT_MODEL": DEFAULT_MODEL,
            "COPILOT_OFFLINE": "true",
        }

    def render_options(self, capture: Capture) -> RenderOptions:
        return {"snapshot": capture.snapshot} if capture.snapshot is not None else {}

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """Copilot CLI's built-in skills as listed in a turn with no user skills, its
        system prompt and tools."""
        block = self.listing(body)
        texts = {f"system.{i}": t for i, t in enumerate(_system_texts(body))}
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=tuple(parse_builtins(block)),
            texts=texts,
            tools=tuple(self.tools(body)),
            model=str(body.get("model")) if body.get("model") else None,
        )


AGENTS.register("copilot-cli")(CopilotCli())
