"""Driving Gemini CLI offline: where it looks for skills and where its listing sits.

Verified against Gemini CLI 0.61.0: with ``GOOGLE_GEMINI_BASE_URL`` and an API key it posts
``/v1beta/models/MODEL:streamGenerateContent?alt=sse``; the listing is the
``<available_skills>`` block of the system instruction, its built-in skills first. An
explicit ``-m`` model skips the router that would first ask a small model to grade the
request. In a headless turn the agent's own policy withholds its ``activate_skill`` tool
(it asks the user first), so the workspace gets a policy file allowing that one tool: the
listing is the same either way, and with it the model can decide.

The order of one folder's skills is the order in which the CLI's file-system calls finish:
descending folder names when they finish in the order issued. With Node's default four
worker threads neighbours sometimes swap on a busy machine (one capture in four of the 248
shared skills); a capture runs the CLI with one worker thread (``UV_THREADPOOL_SIZE=1``),
which leaves its logic alone and makes the order the issued one.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

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
from skillbench.listing._gemini_cli import CLOSE_TAG, OPEN_TAG, parse_skills
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

DEFAULT_MODEL = "gemini-3.1-pro-preview"
"""The model Gemini CLI 0.61.0 resolves ``auto`` to when its router gives no grade."""
SKILL_TOOL = "activate_skill"
FOLDERS: Folders = {
    "project": ("project", ".gemini/skills"),
    "user": ("home", ".gemini/skills"),
}
"""Where a capture puts each source kind (Gemini CLI also reads ``.agents/skills`` beside
each, after it)."""
SETTINGS: JsonObject = {
    "security": {"auth": {"selectedType": "gemini-api-key"}},
    "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
    "privacy": {"usageStatisticsEnabled": False},
    "telemetry": {"enabled": False},
}
"""Key authentication (the base URL alone selects a gateway mode the CLI then refuses), no
update check, no usage statistics, no telemetry."""
POLICY = f'[[rule]]\ntoolName = "{SKILL_TOOL}"\ndecision = "allow"\npriority = 100\n'


def _system_texts(body: JsonObject) -> list[str]:
    instruction = body.get("systemInstruction")
    parts = instruction.get("parts") if isinstance(instruction, dict) else None
    return [str(p["text"]) for p in objects(parts) if isinstance(p.get("text"), str)]


def skills_block(body: JsonObject) -> str | None:
    """The ``<available_skills>`` block of a generateContent request, tags included."""
    return block_between(_system_texts(body), OPEN_TAG, CLOSE_TAG)


def _merge(base: JsonObject, extra: Mapping[str, JsonValue]) -> JsonObject:
    """``base`` with ``extra`` merged in, nested objects key by key."""
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        merged[key] = (
            _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return merged


@dataclass(frozen=True)
class GeminiCli(FolderAgent):
    name: str = "gemini-cli"
    executable: str = "gemini"
    npm_package: str = "@google/gemini-cli"
    verified_version: str = "0.61.0"
    folders: ClassVar[Folders] = FOLDERS

    def block(self, body: JsonObject) -> str | None:
        return skills_block(body)

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        folder = workspace.home / ".gemini"
        write_settings(self.name, folder / "settings.json", _merge(SETTINGS, settings), usage)
        (folder / "policies").mkdir(parents=True, exist_ok=True)
        (folder / "policies" / "skillbench.toml").write_text(POLICY, encoding="utf-8")

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        return [executable, "-p", prompt, "-m", model or DEFAULT_MODEL, "-o", "json"]

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        return {
            **base_environment(),
            "HOME": str(workspace.home),
            "GOOGLE_GEMINI_BASE_URL": base_url,
            "GEMINI_API_KEY": "skillbench-capture",
            "GEMINI_CLI_TRUST_WORKSPACE": "true",
            "GEMINI_TELEMETRY_ENABLED": "false",
            "UV_THREADPOOL_SIZE": "1",
        }

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return [
            declaration
            for tool in objects(body.get("tools"))
            for declaration in objects(tool.get("functionDeclarations"))
        ]

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
        """Gemini CLI's built-in skills as listed in a turn with no user skills (their
        locations are inside the installed package), its system instruction and tools."""
        block = self.listing(body)
        skills = tuple(BuiltinSkill(n, d, path=p) for n, d, p in parse_skills(block))
        texts = {f"system.{i}": t for i, t in enumerate(_system_texts(body))}
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=skills,
            texts=texts,
            tools=tuple(self.tools(body)),
            model=None,
        )


AGENTS.register("gemini-cli")(GeminiCli())
