"""Driving Claude Code offline: where it looks for skills and where its listing sits.

Verified against Claude Code 2.1.328: it posts ``/v1/messages?beta=true`` (streamed) to
``ANTHROPIC_BASE_URL``; the listing is a section of a system-role message (for older models
such as claude-sonnet-4-6, a ``<system-reminder>`` in the user's turn), opened by
``The following skills are available for use with the Skill tool:`` and followed by the
user's skills, then the agent's built-in ones.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from skillbench._errors import SkillbenchError
from skillbench.agents._install import Installer
from skillbench.agents._recorder import Recorded, objects
from skillbench.agents._spec import AGENTS, Workspace, base_environment, copy_skills
from skillbench.catalog import SourceSpec
from skillbench.listing import FIXED_BUILTINS, AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

HEADER = "The following skills are available for use with the Skill tool:"
REMINDER_CLOSE = "\n</system-reminder>"
"""Older models get the listing as a reminder in the user's turn; the tag is not listing."""
UNCAPPED = {"skillListingMaxDescChars": 1_000_000}
"""Settings under which the built-ins' texts reach the listing uncut."""
BUDGET_VARIABLE = "SLASH_COMMAND_TOOL_CHAR_BUDGET"
"""The listing's budget in characters, over any fraction of the window."""
TINY_BUDGET = {BUDGET_VARIABLE: "1"}
"""Under a one-character budget only the built-ins that never lose their text keep it."""
SETTING_OPTIONS = {
    "skillListingBudgetFraction": "budget_fraction",
    "skillListingMaxDescChars": "entry_cap",
    "skillOverrides": "skill_overrides",
}
"""``settings.json`` keys that change the listing → the claude-code profile's options."""
_ENTRY_START = re.compile(r"\n(?=- [^\s:]+(?: \([^)\n]*\))?(?::|\n|$))")


def _texts(content: Any) -> list[str]:
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [
            b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)
        ]
    return []


def listing_section(body: JsonObject) -> str | None:
    """The listing section of a Messages request: from its header through the last entry.

    Sections of the system message are separated by blank lines; the listing runs from the
    header over the blank line after it up to the first paragraph that is not an entry.
    """
    texts = _texts(body.get("system"))
    for message in objects(body.get("messages")):
        texts.extend(_texts(message.get("content")))
    for text in texts:
        start = text.find(HEADER)
        if start < 0:
            continue
        head, _, rest = text[start:].partition("\n\n")
        kept = [head]
        for paragraph in rest.split("\n\n"):
            if not paragraph.startswith("- "):
                break
            kept.append(paragraph)
        return "\n\n".join(kept).removesuffix(REMINDER_CLOSE)
    return None


def context_window(output: str) -> int | None:
    """The context window ``claude -p --output-format json`` reports for the model it used."""
    try:
        usage = json.loads(output).get("modelUsage") or {}
    except (json.JSONDecodeError, AttributeError):
        return None
    windows = [m.get("contextWindow") for m in usage.values() if isinstance(m, dict)]
    return next((w for w in windows if isinstance(w, int)), None)


def parse_entries(listing: str) -> list[tuple[str, str]]:
    """``(name, text after "name: ")`` per entry of a listing (names-only entries: "")."""
    _, _, body = listing.partition("\n\n")
    entries = []
    for chunk in _ENTRY_START.split(body):
        if not chunk.startswith("- "):
            continue
        name, sep, text = chunk[2:].partition(": ")
        entries.append((name, text) if sep else (chunk[2:].strip(), ""))
    return entries


@dataclass(frozen=True)
class ClaudeCode:
    name: str = "claude-code"
    executable: str = "claude"
    npm_package: str = "@anthropic-ai/claude-code"
    verified_version: str = "2.1.328"

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        plugins = [s.path for s in sources if s.kind == "plugin"]
        if len(plugins) > 1:
            raise SkillbenchError(
                f"plugin={plugins[1]}: Claude Code {self.verified_version} loads only the first "
                "--plugin-dir of a non-interactive turn; capture one plugin at a time"
            )
        args: list[str] = []
        for source in sources:
            if source.kind == "project":
                copy_skills(source, workspace.project / ".claude" / "skills", workspace)
            elif source.kind == "user":
                copy_skills(source, workspace.home / ".claude" / "skills", workspace)
            elif source.kind == "plugin":
                args += ["--plugin-dir", str(_plugin(source, workspace))]
            elif source.kind == "extra":
                extra = workspace.home.parent / "extra" / Path(source.path).name
                copy_skills(source, extra / ".claude" / "skills", workspace)
                args += ["--add-dir", str(extra)]
            else:
                raise SkillbenchError(
                    f"{source.kind}={source.path}: Claude Code has no folder for {source.kind} "
                    "skills that a capture can fill (its built-in skills come from the agent)"
                )
        return args

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        if settings:
            path = workspace.home / ".claude" / "settings.json"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(dict(settings), indent=2), encoding="utf-8")
        if usage:
            now = int(time.time() * 1000)
            history = {name: {"usageCount": n, "lastUsedAt": now} for name, n in usage.items()}
            path = workspace.home / ".claude.json"
            path.write_text(json.dumps({"skillUsage": history}, indent=2), encoding="utf-8")

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        command = [executable, "-p", prompt, "--output-format", "json"]
        return command + (["--model", model] if model else [])

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        return {
            **base_environment(),
            "HOME": str(workspace.home),
            "ANTHROPIC_BASE_URL": base_url,
            "ANTHROPIC_API_KEY": "skillbench-capture",
            "DISABLE_TELEMETRY": "1",
            "DISABLE_AUTOUPDATER": "1",
            "DISABLE_ERROR_REPORTING": "1",
            "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
        }

    def main_request(self, requests: Sequence[Recorded]) -> Recorded:
        for recorded in requests:
            if listing_section(recorded.body) is not None:
                return recorded
        raise SkillbenchError("claude-code sent no request carrying a skill listing")

    def listing(self, body: JsonObject) -> str:
        section = listing_section(body)
        if section is None:
            raise SkillbenchError("claude-code: the request carries no skill listing")
        return section

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return objects(body.get("tools"))

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        found = [
            SourceSpec(str(workspace.project / ".claude" / "skills"), "project"),
            SourceSpec(str(workspace.home / ".claude" / "skills"), "user"),
        ]
        plugins = workspace.home.parent / "plugins"
        if plugins.is_dir():
            found += [SourceSpec(str(p), "plugin") for p in sorted(plugins.iterdir())]
        extra = workspace.home.parent / "extra"
        if extra.is_dir():
            found += [
                SourceSpec(str(p / ".claude" / "skills"), "extra") for p in sorted(extra.iterdir())
            ]
        return [s for s in found if Path(s.path).is_dir()]

    def render_options(self, capture: Capture) -> RenderOptions:
        """The window the CLI reported, the snapshot, and every setting and variable of the
        capture that the profile models (``SETTING_OPTIONS``, ``BUDGET_VARIABLE``)."""
        options: dict[str, JsonValue | AgentSnapshot] = {}
        model = capture.request.get("model") or capture.model
        if isinstance(model, str):
            options["model"] = model
        window = context_window(capture.output)
        if window is not None:
            options["context_window"] = window
        if capture.snapshot is not None:
            options["snapshot"] = capture.snapshot
        for setting, option in SETTING_OPTIONS.items():
            if setting in capture.settings:
                options[option] = capture.settings[setting]
        budget = capture.env.get(BUDGET_VARIABLE, "").strip()
        if budget.isdigit() and int(budget) > 0:
            options["budget"] = int(budget)
        return options

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """The agent's own text. Two more bare turns read the built-ins' texts uncut (the
        turn's settings may cap them), which of them a budget never shortens, and the
        model's context window as the CLI reports it."""
        from skillbench.agents._capture import capture_agent

        model = str(body.get("model")) if body.get("model") else None
        full = capture_agent(self.name, model=model, settings=UNCAPPED, snapshot=False)
        tiny = capture_agent(self.name, model=model, env=TINY_BUDGET, snapshot=False)
        listing = self.listing(body)
        texts = {f"system.{i}": t for i, t in enumerate(_texts(body.get("system")))}
        texts["listing_header"] = listing.partition("\n\n")[0]
        texts[FIXED_BUILTINS] = "\n".join(n for n, d in parse_entries(tiny.listing) if d)
        skill_tool = next((t for t in self.tools(body) if t.get("name") == "Skill"), None)
        if skill_tool is not None:
            texts["skill_tool_description"] = str(skill_tool.get("description", ""))
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=tuple(BuiltinSkill(n, d) for n, d in parse_entries(full.listing)),
            texts=texts,
            tools=tuple(self.tools(body)),
            model=model,
            context_window=_context_window(full.output, model),
        )


def _context_window(output: str, model: str | None) -> int | None:
    """The model's context window from the CLI's JSON result (``modelUsage``)."""
    try:
        usage = json.loads(output).get("modelUsage") or {}
    except (json.JSONDecodeError, AttributeError):
        return None
    entry = usage.get(model) if model in usage else next(iter(usage.values()), None)
    window = entry.get("contextWindow") if isinstance(entry, dict) else None
    return window if isinstance(window, int) else None


def _plugin(source: SourceSpec, workspace: Workspace) -> Path:
    """A copy of a plugin folder (``.claude-plugin/plugin.json`` and ``skills/``)."""
    root = Path(source.path).expanduser()
    if not (root / ".claude-plugin" / "plugin.json").is_file():
        raise SkillbenchError(
            f"plugin={source.path}: not a Claude Code plugin (no .claude-plugin/plugin.json)"
        )
    target = workspace.home.parent / "plugins" / root.name
    if target.exists():
        raise SkillbenchError(f"plugin={source.path}: two plugins named {root.name!r}")
    Installer(workspace.home.parent / "linked").copy_folder(root, target)
    return target


AGENTS.register("claude-code")(ClaudeCode())
