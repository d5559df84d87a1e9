"""The generic capture driver: one offline turn of an agent, from its record alone.

``AgentDriver`` reads an ``AgentSpec``: it copies skill sources where the agent looks for
their kind, writes its settings and files, builds its command and environment from the
launch templates, and finds the listing in the request the agent sent (the wire format of its
API says which texts a request carries, the record where the block sits). An agent whose
record cannot say everything subclasses it (``OWN_DRIVERS``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from string import Template
from typing import TYPE_CHECKING, Any

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._install import install_skills
from skillbench.agents._wire import WIRES, Recorded, RequestText, WireFormat
from skillbench.agents._workspace import Workspace, base_environment
from skillbench.agentspec import AgentSpec, Locator, SkillFolder
from skillbench.catalog import SourceSpec
from skillbench.listing import AgentSnapshot, RenderOptions, parse_builtins
from skillbench.types import JsonObject, JsonValue

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture

MODEL_ARGS = "$model_args"
_ROLES = {"system": ("system", "developer"), "user": ("user",)}


class AgentDriver:
    """Runs one agent's CLI offline as its record describes."""

    def __init__(self, spec: AgentSpec) -> None:
        self.spec = spec

    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def executable(self) -> str:
        return self.spec.package.executable

    @property
    def pinned_version(self) -> str:
        """The release CI installs and tests."""
        return self.spec.pinned.version

    @property
    def wire(self) -> WireFormat:
        return WIRES.get(self.spec.wire.api)

    def folder(self, folder: SkillFolder, workspace: Workspace) -> Path:
        """Where ``folder`` is in ``workspace``."""
        if folder.in_home:
            return workspace.home / folder.path.removeprefix("~/")
        return workspace.project / folder.path

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        """Copy each source where the agent looks for its kind, as it is laid out; return
        extra CLI arguments."""
        for source in sources:
            folder = self.spec.install_folder(source.kind)
            if folder is None:
                raise SkillbenchError(
                    f"{source.kind}={source.path}: {self.name} has no folder for "
                    f"{source.kind} skills that a capture can fill (its own skills come from "
                    "the agent)"
                )
            holding = workspace.home.parent / "linked"
            install_skills(Path(source.path), self.folder(folder, workspace), holding)
        return []

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        """Write the agent's settings (its own under the turn's) and files; a usage history
        for an agent that keeps none is refused rather than ignored."""
        launch = self.spec.launch
        if usage and not launch.keeps_usage:
            raise SkillbenchError(
                f"{self.name} keeps no skill-usage history: drop the usage option"
            )
        if launch.settings_file is None:
            if settings:
                raise SkillbenchError(f"{self.name}: no settings are modelled; drop --setting")
        else:
            merged = _merge(launch.settings, settings)
            path = workspace.home / launch.settings_file
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(_settings_text(merged, launch.settings_format), encoding="utf-8")
        for folder in launch.project_dirs:
            (workspace.project / folder).mkdir(parents=True, exist_ok=True)
        for relative, text in launch.files.items():
            path = workspace.home / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")

    def write_usage(self, workspace: Workspace, usage: Mapping[str, int]) -> None:
        """Replace the agent's usage history (skill → use count, all used now), keeping
        whatever else the agent wrote beside it; an agent that keeps none has none."""
        raise SkillbenchError(f"{self.name} keeps no skill-usage history")

    def command(self, executable: str, prompt: str, model: str | None, base_url: str) -> list[str]:
        launch = self.spec.launch
        if launch.fixed_model and model not in (None, launch.default_model):
            raise SkillbenchError(
                f"{self.name}: --model {model}: the agent runs only the model its capture "
                f"declares, {launch.default_model!r}"
            )
        chosen = model or launch.default_model
        values = {"executable": executable, "prompt": prompt, "base_url": base_url}
        values["model"] = chosen or ""
        argv: list[str] = []
        for arg in launch.argv:
            if arg == MODEL_ARGS:
                argv += [Template(a).substitute(values) for a in launch.model_argv] if model else []
            elif arg == "$prompt":
                argv.append(prompt)
            else:
                argv.append(Template(arg).substitute(values))
        return argv

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        """The whole environment of the run (nothing inherited but PATH and locale); the
        record's endpoint files are written here, the first place the endpoint is known."""
        values = {"base_url": base_url, "home": str(workspace.home)}
        for relative, text in self.spec.launch.endpoint_files.items():
            path = workspace.home / relative
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(Template(text).substitute(values), encoding="utf-8")
        own = {k: Template(v).substitute(values) for k, v in self.spec.launch.env.items()}
        return {**base_environment(), "HOME": str(workspace.home), **own}

    def texts(self, body: JsonObject) -> list[RequestText]:
        """The texts of a request the listing may be in (the record's region)."""
        locator = self.spec.wire.listing
        if locator is not None and locator.region == "tools":
            return [RequestText("tool", d) for d in map(_description, self.tools(body)) if d]
        found = self.wire.texts(body)
        roles = _ROLES.get(locator.region) if locator is not None else None
        return [t for t in found if roles is None or t.role in roles]

    def block(self, body: JsonObject) -> str | None:
        """The listing block of a request body as sent, or None."""
        locator = self.spec.wire.listing
        assert locator is not None
        return find_block((t.text for t in self.texts(body)), locator)

    def main_request(self, requests: Sequence[Recorded]) -> Recorded:
        """The request of the user's turn (the one that carries the listing; for an agent
        that sends no listing when it lists no skill, ``Wire.lists_none``, its first request
        when none does)."""
        for recorded in requests:
            if self.block(recorded.body) is not None:
                return recorded
        if requests and not self.spec.wire.lists_none:
            return requests[0]
        raise SkillbenchError(f"{self.name} sent no request carrying a skill listing")

    def listing(self, body: JsonObject) -> str:
        """The listing block exactly as sent (empty where an agent that lists no skill
        sends none)."""
        block = self.block(body)
        if block is None and not self.spec.wire.lists_none:
            return ""
        if block is None:
            raise SkillbenchError(f"{self.name}: the request carries no skill listing")
        return block

    def tools(self, body: JsonObject) -> list[JsonObject]:
        return self.wire.tools(body)

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        """The sources as laid out in ``workspace`` (what a faithful render loads)."""
        found = [
            SourceSpec(str(self.folder(f, workspace)), f.scope)
            for f in self.spec.folders
            if f.install
        ]
        return [s for s in dict.fromkeys(found) if _has_skills(Path(s.path))]

    def install_roots(self, workspace: Workspace) -> dict[str, JsonValue]:
        """Each installed source kind's folder in ``workspace``, as locations name it."""
        return {f.scope: str(self.folder(f, workspace)) for f in self.spec.folders if f.install}

    def render_options(self, capture: Capture) -> RenderOptions:
        """The profile options that reproduce ``capture``: the folders its locations name
        and the agent's own text."""
        options: dict[str, JsonValue | AgentSnapshot] = {}
        fmt = self.spec.listing
        if fmt is not None and fmt.location == "path":
            options["roots"] = self.install_roots(capture.workspace)
        if capture.snapshot is not None:
            options["snapshot"] = capture.snapshot
        return options

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """The agent's own text read from a turn with no user skills: its built-in skills as
        listed, its system texts and its tools."""
        listing = self.listing(body)
        builtins = parse_builtins(self.spec, listing) if self.spec.listing is not None else []
        system = [t.text for t in self.wire.texts(body) if t.role in _ROLES["system"]]
        model = body.get("model")
        return AgentSnapshot(
            agent=self.name,
            version=version,
            builtin_skills=tuple(builtins),
            texts={f"system.{i}": t for i, t in enumerate(system)},
            tools=tuple(self.tools(body)),
            model=str(model) if model else None,
        )


def find_block(texts: Any, locator: Locator) -> str | None:
    """The first ``open`` … ``close`` block of ``texts`` (tags included, ``close`` only when
    the locator keeps it) that holds one of the locator's marks (any block when it names
    none)."""
    for text in texts:
        start = text.find(locator.open)
        while start >= 0:
            end = text.find(locator.close, start) if locator.close else len(text)
            if end < 0:
                break
            block = text[start : end + (len(locator.close) if locator.keep_close else 0)]
            if not locator.contains or any(mark in block for mark in locator.contains):
                return block
            start = text.find(locator.open, end)
    return None


def _description(tool: JsonObject) -> str:
    """A tool definition's description: at its top (Anthropic, Responses) or in its
    ``function`` (chat completions)."""
    function = tool.get("function")
    found = function.get("description") if isinstance(function, dict) else None
    found = found if found is not None else tool.get("description")
    return found if isinstance(found, str) else ""


def _merge(base: JsonObject, extra: Mapping[str, JsonValue]) -> JsonObject:
    """``base`` with ``extra`` merged in, nested objects key by key."""
    merged = dict(base)
    for key, value in extra.items():
        old = merged.get(key)
        merged[key] = (
            _merge(old, value) if isinstance(old, dict) and isinstance(value, dict) else value
        )
    return merged


def _settings_text(settings: JsonObject, form: str) -> str:
    if form == "json":
        return json.dumps(settings, indent=2)
    return "".join(f"{key} = {_toml(value)}\n" for key, value in settings.items())


def _toml(value: JsonValue) -> str:
    """A TOML literal for one top-level setting (JSON's literals are TOML's)."""
    if isinstance(value, bool | int | float | str):
        return json.dumps(value)
    raise SkillbenchError(f"setting value {value!r}: only strings, numbers and booleans")


def _has_skills(folder: Path) -> bool:
    """Whether ``folder`` holds anything besides hidden entries (an agent's own skills)."""
    return folder.is_dir() and any(not p.name.startswith(".") for p in folder.iterdir())


OWN_DRIVERS: Registry[type[AgentDriver]] = Registry("agent driver")
"""Agent name → the driver class of an agent with rules of its own (``AgentSpec.own_rules``)."""

AGENTS: Registry[AgentDriver] = Registry("agent")
"""Agent name → its capture driver, one per record (kept in step with ``AGENT_SPECS``)."""


def driver_of(spec: AgentSpec) -> AgentDriver:
    """The driver of ``spec``: its own class where it has rules of its own."""
    return (OWN_DRIVERS.get(spec.name) if spec.own_rules else AgentDriver)(spec)
