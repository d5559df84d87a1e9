"""Driving Codex offline: where it looks for skills and where its skills block sits.

Verified against Codex 0.169.0: ``codex exec`` posts ``/v1/responses`` (streamed) to a
``model_providers`` entry given on the command line; the skills block is the
``<skills_instructions>…</skills_instructions>`` text of a developer message. Codex writes its
own system skills under ``$CODEX_HOME/skills/.system`` and lists them first.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillbench._errors import SkillbenchError
from skillbench.agents._layout import Folders, carrying, kind_folders, listing_of
from skillbench.agents._recorder import Recorded, objects
from skillbench.agents._spec import AGENTS, Workspace, base_environment, copy_skills
from skillbench.catalog import SourceKind, SourceSpec
from skillbench.listing import AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

OPEN = "<skills_instructions>"
CLOSE = "</skills_instructions>"
PROVIDER = "skillbench"
KEY_VARIABLE = "SKILLBENCH_CAPTURE_KEY"
SYSTEM_ROOT = "r0"
_SYSTEM_ENTRY = re.compile(
    r"^- (?P<name>[^:\n]+): (?P<text>.*) \(file: " + SYSTEM_ROOT + r"/(?P<path>[^)\n]+)\)$",
    re.MULTILINE,
)


FOLDERS: Folders = {
    "project": ("project", ".agents/skills"),
    "user": ("home", ".agents/skills"),
    "plugin": ("home", ".codex/skills"),
    "extra": ("home", ".codex/skills"),
}
"""Where a capture puts each source kind: project skills in the project's ``.agents/skills``,
user skills in ``~/.agents/skills``, plugin and extra ones in ``~/.codex/skills`` (both are
user-scope roots for Codex)."""


def _toml(value: Any) -> str:
    """A TOML literal for one ``-c key=value`` override (JSON's literals are TOML's)."""
    if isinstance(value, bool | int | float | str):
        return json.dumps(value)
    raise SkillbenchError(f"codex setting value {value!r}: only strings, numbers and booleans")


def _texts(body: JsonObject) -> list[str]:
    found = []
    for item in objects(body.get("input")):
        for part in objects(item.get("content")):
            text = part.get("text")
            if isinstance(text, str):
                found.append(text)
    return found


def skills_block(body: JsonObject) -> str | None:
    """The ``<skills_instructions>`` block of a Responses request, tags included."""
    for text in _texts(body):
        start = text.find(OPEN)
        end = text.find(CLOSE, start)
        if start >= 0 and end >= 0:
            return text[start : end + len(CLOSE)]
    return None


@dataclass(frozen=True)
class Codex:
    name: str = "codex"
    executable: str = "codex"
    npm_package: str = "@openai/codex"
    verified_version: str = "0.169.0"

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        for source in sources:
            folder = FOLDERS.get(source.kind)
            if folder is None:
                raise SkillbenchError(
                    f"{source.kind}={source.path}: Codex has no folder for {source.kind} "
                    "skills that a capture can fill (its system skills come from the agent)"
                )
            copy_skills(source, _folders(workspace)[source.kind], workspace, flatten=False)
        return []

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        (workspace.home / ".codex").mkdir(parents=True, exist_ok=True)
        if settings:
            lines = [f"{key} = {_toml(value)}" for key, value in settings.items()]
            (workspace.home / ".codex" / "config.toml").write_text(
                "\n".join(lines) + "\n", encoding="utf-8"
            )
        if usage:
            raise SkillbenchError("codex keeps no skill-usage history: drop the usage option")

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        provider = f"model_providers.{PROVIDER}"
        overrides = {
            "model_provider": PROVIDER,
            f"{provider}.name": PROVIDER,
            f"{provider}.base_url": f"{base_url}/v1",
            f"{provider}.wire_api": "responses",
            f"{provider}.env_key": KEY_VARIABLE,
        }
        command = [executable, "exec", "--skip-git-repo-check"]
        for key, value in overrides.items():
            command += ["-c", f"{key}={json.dumps(value)}"]
        return command + (["-m", model] if model else []) + ["--", prompt]

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        return {
            **base_environment(),
            "HOME": str(workspace.home),
            "CODEX_HOME": str(workspace.home / ".codex"),
            KEY_VARIABLE: "skillbench-capture",
        }

    def main_request(self, requests: Sequence[Recorded]) -> Recorded:
        return carrying(self.name, requests, skills_block)

    def listing(self, body: JsonObject) -> str:
        return listing_of(self.name, body, skills_block)

    def tools(self, body: JsonObject) -> list[JsonObject]:
        tools = objects(body.get("tools"))
        for item in objects(body.get("input")):
            if item.get("type") == "additional_tools":
                tools += objects(item.get("tools"))
        return tools

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        found = [SourceSpec(str(folder), kind) for kind, folder in _folders(workspace).items()]
        return [s for s in found if _has_skills(Path(s.path))]

    def render_options(self, capture: Capture) -> RenderOptions:
        """The capture's folders as the roots table's roots, its snapshot, the model the
        request names (its window sets the budget) and the context window a
        ``model_context_window`` setting gave it."""
        roots: dict[str, JsonValue] = {
            kind: str(folder) for kind, folder in _folders(capture.workspace).items()
        }
        roots["bundled"] = str(capture.workspace.home / ".codex" / "skills" / ".system")
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
        root = str(workspace.home / ".codex" / "skills" / ".system")
        texts = {
            "skills_block": block.replace(root, "$CODEX_SYSTEM_ROOT"),
            "developer_messages": json.dumps(_texts(body), ensure_ascii=False),
        }
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=skills,
            texts=texts,
            tools=tuple(self.tools(body)),
            model=str(body.get("model")) if body.get("model") else None,
        )


def _folders(workspace: Workspace) -> dict[SourceKind, Path]:
    return kind_folders(workspace, FOLDERS)


def _has_skills(folder: Path) -> bool:
    """Whether ``folder`` holds anything besides hidden entries (Codex's ``.system``)."""
    return folder.is_dir() and any(not p.name.startswith(".") for p in folder.iterdir())


AGENTS.register("codex")(Codex())
