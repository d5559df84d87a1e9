"""A profile: everything skillbench models about one agent, registered once.

An agent is described by how it loads skills (``precedence``: source order, collisions,
``paths`` activation, plugin names), how it renders its listing (``renderer``: a factory
taking the profile's options, such as a context window), where the listing goes in the
prompt (``placement``) and how a model triggers a skill (``trigger``). Adding an agent is one
module that builds these parts and registers a ``Profile``.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError, suggest
from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench.catalog import PRECEDENCE, Precedence
from skillbench.listing._renderer import Renderer, RendererFactory, RenderOptions
from skillbench.listing._snapshot import AgentSnapshot, resolve_snapshot, snapshot_path

Placement = Literal["reminder", "system", "system_message"]
"""``reminder``: a per-turn ``<system-reminder>`` before the user's message (the system prompt
stays cache-stable); ``system``: in the system (developer) instructions; ``system_message``:
a system-role message after the user's turn (the system prompt stays cache-stable)."""

Mention = Literal["inject_skill"]
"""``inject_skill``: a ``$name`` in the user's text naming exactly one skill makes the agent add
that skill's whole ``SKILL.md`` as a user message right after the request, so the model reads
it without choosing to (Codex)."""

Trigger = Literal["skill_tool", "file_read"]
"""``skill_tool``: the model calls a ``Skill`` tool with the name; ``file_read``: there is no
Skill tool and reading the skill's ``SKILL.md`` is the trigger."""


class SnapshotUse(NamedTuple):
    """The agent text a profile renders with: from where (None: none found), how many
    built-in skills it brings."""

    agent: str
    version: str
    snapshot: str | None
    builtin_skills: int

    def missing_note(self) -> str | None:
        """What a run says when the agent's own skills are missing from its listings."""
        if self.snapshot is not None:
            return None
        return (
            f"{self.agent} {self.version}: no agent snapshot, so the agent's built-in skills "
            f"are missing from its listings; `skillbench capture {self.agent}` reads them "
            "from the installed agent once"
        )


@dataclass(frozen=True)
class Profile:
    """One agent.

    Attributes:
        name: the profile name used in configs and on the command line.
        precedence: how the agent loads its sources into a catalog.
        renderer: factory of the listing renderer; its keyword arguments are the profile's
            options (``budget`` among them), settable per profile in a run config.
        placement: where the listing goes in the prompt.
        trigger: how a model invokes a skill.
        summary: one line for help texts.
        agent_version: the agent release the profile was verified against by capture
            (None: modelled on documents only).
        ordering: the ordering that reproduces the agent's own listing order, used when a
            command is given none.
        mention: what an explicit ``$name`` mention does (None: nothing beyond the text).
        uncapped: renderer options that lift the per-entry caps (empty: none to lift), so
            ``lint`` can measure what the caps cut by rendering an entry both ways.
    """

    name: str
    precedence: Precedence
    renderer: RendererFactory
    placement: Placement
    trigger: Trigger
    summary: str
    agent_version: str | None = None
    ordering: str = "usage"
    mention: Mention | None = None
    uncapped: RenderOptions = field(default_factory=dict)

    def snapshot_use(self, options: RenderOptions | None = None) -> SnapshotUse | None:
        """Which agent snapshot this profile renders with under ``options`` (None for a
        profile not verified against a shipped agent)."""
        if self.agent_version is None:
            return None
        choice = (options or {}).get("snapshot", "auto")
        if isinstance(choice, AgentSnapshot):
            return SnapshotUse(self.name, self.agent_version, "given", len(choice.builtin_skills))
        if choice is not None and not isinstance(choice, str):
            raise SkillbenchError(
                f"profile {self.name!r}: option snapshot is {choice!r}; "
                "expected auto, none or the path of a snapshot.json"
            )
        found = resolve_snapshot(choice, self.name, self.agent_version)
        if found is None:
            return SnapshotUse(self.name, self.agent_version, None, 0)
        where = snapshot_path(self.name, self.agent_version) if choice == "auto" else choice
        return SnapshotUse(self.name, self.agent_version, str(where), len(found.builtin_skills))

    @property
    def options(self) -> tuple[str, ...]:
        """Names of the options the renderer accepts."""
        return tuple(inspect.signature(self.renderer).parameters)

    def check_options(self, options: RenderOptions) -> None:
        """Raise naming the nearest valid option when ``options`` holds an unknown one."""
        for key in options:
            if key not in self.options:
                raise SkillbenchError(
                    f"profile {self.name!r} has no option {key!r}{suggest(key, self.options)}; "
                    f"options: {', '.join(self.options)}"
                )

    def make_renderer(self, options: RenderOptions | None = None) -> Renderer:
        """The renderer built with ``options`` (unknown or ill-typed options raise)."""
        opts = dict(options or {})
        self.check_options(opts)
        try:
            return self.renderer(**opts)
        except (TypeError, ValueError) as exc:
            raise SkillbenchError(f"profile {self.name!r}: bad options {opts}: {exc}") from None


PROFILES: Registry[Profile] = Registry("profile", adopt=instance_of(Profile))
"""Profile name → Profile."""


def register_profile(profile: Profile) -> Profile:
    """Register ``profile`` under its name (a duplicate name is a programming error), and
    its loading rules where the catalog looks names up, so an agent is one module."""
    if profile.name not in PRECEDENCE:
        PRECEDENCE.register(profile.name)(profile.precedence)
    return PROFILES.register(profile.name)(profile)


def make_renderer(profile: str, options: RenderOptions | None = None) -> Renderer:
    """The renderer of the profile named ``profile`` built with ``options``."""
    return PROFILES.get(profile).make_renderer(options)
