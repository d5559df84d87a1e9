"""Claude Code's own capture rules (its record: ``skillbench.agentspec``).

What no record says: the listing is a section of a system-role message (for older models, a
``<system-reminder>`` in the user's turn) found by its header and its entries; plugin and
additional-directory sources are given on the command line; the usage history lives in
``~/.claude.json``; and a snapshot takes two more bare turns (the built-ins' texts uncut, and
which of them a budget never shortens) and the window the CLI reports.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from skillbench._errors import SkillbenchError
from skillbench.agents._driver import OWN_DRIVERS, AgentDriver
from skillbench.agents._install import Installer, install_skills
from skillbench.agents._listing_check import OWN_PARSERS, ListingEntry
from skillbench.agents._warm import WARM_PROTOCOLS, WarmAgent
from skillbench.agents._workspace import Workspace
from skillbench.agentspec._claude_code import CLAUDE_CODE
from skillbench.catalog import SourceSpec
from skillbench.listing import AgentSnapshot, BuiltinSkill, RenderOptions
from skillbench.listing._claude_code import FIXED_BUILTINS
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

HEADER = "The following skills are available for use with the Skill tool:"
REMINDER_CLOSE = "\n</system-reminder>"
"""Older models get the listing as a reminder in the user's turn; the tag is not listing."""
UNCUT_SETTINGS = {"skillListingMaxDescChars": 1_000_000}
"""Settings under which the built-ins' texts reach the listing uncut."""
BUDGET_VARIABLE = CLAUDE_CODE.launch.budget_variable or ""
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


def listing_section(texts: Iterable[str]) -> str | None:
    """The listing section of a request's texts: from its header through the last entry.

    Sections of the system message are separated by blank lines; the listing runs from the
    header over the blank line after it up to the first paragraph that is not an entry.
    """
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


def context_window(output: str, model: str | None = None) -> int | None:
    """The context window ``claude -p --output-format json`` reports (``modelUsage``) for
    ``model``, else for the first model it used."""
    try:
        usage = json.loads(output).get("modelUsage") or {}
    except (json.JSONDecodeError, AttributeError):
        return None
    if not isinstance(usage, dict):
        return None
    entries = [usage[model]] if model in usage else list(usage.values())
    windows = [m.get("contextWindow") for m in entries if isinstance(m, dict)]
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


@OWN_DRIVERS.register(CLAUDE_CODE.name)
class ClaudeCodeDriver(AgentDriver):
    """See the module docstring."""

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        plugins = [s.path for s in sources if s.kind == "plugin"]
        if len(plugins) > 1:
            raise SkillbenchError(
                f"plugin={plugins[1]}: Claude Code loads only the first --plugin-dir of a "
                "non-interactive turn; capture one plugin at a time"
            )
        args: list[str] = []
        own = [s for s in sources if s.kind not in ("plugin", "extra")]
        super().lay_out(own, workspace)
        for source in sources:
            if source.kind == "plugin":
                args += ["--plugin-dir", str(_plugin(source, workspace))]
            elif source.kind == "extra":
                extra = workspace.home.parent / "extra" / Path(source.path).name
                holding = workspace.home.parent / "linked"
                install_skills(Path(source.path), extra / ".claude" / "skills", holding)
                args += ["--add-dir", str(extra)]
        return args

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        super().configure(workspace, settings, {})
        if usage:
            self.write_usage(workspace, usage)

    def write_usage(self, workspace: Workspace, usage: Mapping[str, int]) -> None:
        """``skillUsage`` of ``~/.claude.json``, which a running process reads again before
        each request (captured at 2.1.328: a rewrite between two requests of one warm process
        changes which descriptions the second request's listing keeps)."""
        path = workspace.home / ".claude.json"
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            kept = {}
        now = int(time.time() * 1000)
        history = {name: {"usageCount": n, "lastUsedAt": now} for name, n in usage.items()}
        data = {**(kept if isinstance(kept, dict) else {}), "skillUsage": history}
        path.write_text(json.dumps(data, indent=2), encoding="utf-8")

    def block(self, body: JsonObject) -> str | None:
        return listing_section(t.text for t in self.wire.texts(body))

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        found = super().installed(workspace)
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
        capture that the profile models (``SETTING_OPTIONS``, the budget variable)."""
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
        full = capture_agent(self.name, model=model, settings=UNCUT_SETTINGS, snapshot=False)
        tiny = capture_agent(self.name, model=model, env=TINY_BUDGET, snapshot=False)
        snap = super().snapshot(version, body, workspace)
        texts = {k: v for k, v in snap.texts.items() if k.startswith("system.")}
        texts["listing_header"] = self.listing(body).partition("\n\n")[0]
        texts[FIXED_BUILTINS] = "\n".join(n for n, d in parse_entries(tiny.listing) if d)
        skill_tool = next((t for t in self.tools(body) if t.get("name") == "Skill"), None)
        if skill_tool is not None:
            texts["skill_tool_description"] = str(skill_tool.get("description", ""))
        return replace(
            snap,
            builtin_skills=tuple(BuiltinSkill(n, d) for n, d in parse_entries(full.listing)),
            texts=texts,
            model=model,
            context_window=context_window(full.output, model),
        )


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


class ClaudeCodeWarm:
    """``-p --input-format stream-json --output-format stream-json`` reads user messages from
    stdin and ends each turn with a ``result`` event; a ``/clear`` message between requests
    starts a new session."""

    def command(self, driver: AgentDriver, executable: str, base_url: str) -> list[str]:
        streams = ["--input-format", "stream-json", "--output-format", "stream-json"]
        return [executable, "-p", *streams, "--verbose"]

    def start(self, warm: WarmAgent) -> None:
        return None

    def ask(self, warm: WarmAgent, prompt: str) -> None:
        if warm.turns:
            self._turn(warm, "/clear")
        self._turn(warm, prompt)

    def _turn(self, warm: WarmAgent, text: str) -> None:
        warm.send({"type": "user", "message": {"role": "user", "content": text}})
        warm.until(lambda m: m.get("type") == "result")


WARM_PROTOCOLS.register(CLAUDE_CODE.name)(ClaudeCodeWarm())


@OWN_PARSERS.register(CLAUDE_CODE.name)
def listed_entries(listing: str) -> list[ListingEntry]:
    """The ``- name: text`` entries of a listing (names-only entries: empty text)."""
    return [ListingEntry(name, text) for name, text in parse_entries(listing)]
