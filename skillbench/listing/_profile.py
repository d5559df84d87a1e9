"""A profile: everything skillbench models about one agent, registered once.

An agent is described by how it loads skills (``precedence``: source order, collisions,
``paths`` activation, plugin names), how it renders its listing (``renderer``: a factory
taking the profile's options, such as a context window), where the listing goes in the
prompt (``placement``) and how a model triggers a skill (``trigger``). Adding an agent is one
module that builds these parts and registers a ``Profile``.

A profile of a shipped agent also lists the releases it was verified against (``Release``):
``codex@0.171.0`` names one of them, plain ``codex`` the newest. A release whose rules did not
change is one line of data; one whose rules changed brings its own renderer factory.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass, field, is_dataclass, replace
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError, suggest
from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench._sanitize import clip
from skillbench.catalog import PRECEDENCE, Precedence
from skillbench.listing._renderer import Renderer, RendererFactory, RenderOptions
from skillbench.listing._snapshot import (
    AgentSnapshot,
    cached_versions,
    resolve_snapshot,
    snapshot_path,
)

VERSION_SEPARATOR = "@"

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
        others = [v for v in cached_versions(self.agent) if v != self.version]
        hint = f" (cached for {', '.join(f'{self.agent}@{v}' for v in others)})" if others else ""
        return (
            f"{self.agent} {self.version}: no agent snapshot{hint}, so the agent's built-in "
            f"skills are missing from its listings; `skillbench capture {self.agent}` with "
            f"{self.version} installed reads them once"
        )


@dataclass(frozen=True)
class Release:
    """One release of an agent that a profile was verified against.

    Attributes:
        version: the release, as the agent's ``--version`` reports it.
        verified: how it was verified (one line, shown by ``skillbench agents``).
        renderer: the release's renderer factory when its rules differ from the profile's
            (None: the profile's own).
    """

    version: str
    verified: str = "byte-identical captures"
    renderer: RendererFactory | None = None


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
        agent_version: the agent release this profile renders (None: modelled on documents
            only); plain names render the newest of ``releases``.
        ordering: the ordering that reproduces the agent's own listing order, used when a
            command is given none.
        mention: what an explicit ``$name`` mention does (None: nothing beyond the text).
        uncapped: renderer options that lift the per-entry caps (empty: none to lift), so
            ``lint`` can measure what the caps cut by rendering an entry both ways.
        releases: the agent releases verified by capture, oldest first.
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
    releases: tuple[Release, ...] = ()

    @property
    def agent(self) -> str:
        """The agent's name without a version (``codex`` for ``codex@0.171.0``)."""
        return self.name.partition(VERSION_SEPARATOR)[0]

    @property
    def verified_versions(self) -> tuple[str, ...]:
        return tuple(r.version for r in self.releases)

    def at(self, version: str) -> Profile:
        """This agent as release ``version`` lists skills, named ``agent@version``."""
        for release in self.releases:
            if release.version == version:
                return replace(
                    self,
                    name=f"{self.agent}{VERSION_SEPARATOR}{version}",
                    agent_version=version,
                    renderer=release.renderer or self.renderer,
                )
        known = ", ".join(self.verified_versions) or "none"
        raise SkillbenchError(
            f"profile {self.agent!r} was not verified against version {version!r}; "
            f"verified versions: {known}"
        )

    def snapshot_use(self, options: RenderOptions | None = None) -> SnapshotUse | None:
        """Which agent snapshot this profile renders with under ``options`` (None for a
        profile not verified against a shipped agent)."""
        if self.agent_version is None:
            return None
        choice = (options or {}).get("snapshot", "auto")
        if isinstance(choice, AgentSnapshot):
            return SnapshotUse(self.agent, self.agent_version, "given", len(choice.builtin_skills))
        if choice is not None and not isinstance(choice, str):
            raise SkillbenchError(
                f"profile {self.name!r}: option snapshot is {choice!r}; "
                "expected auto, none or the path of a snapshot.json"
            )
        found = resolve_snapshot(choice, self.agent, self.agent_version)
        if found is None:
            return SnapshotUse(self.agent, self.agent_version, None, 0)
        where = snapshot_path(self.agent, self.agent_version) if choice == "auto" else choice
        return SnapshotUse(self.agent, self.agent_version, str(where), len(found.builtin_skills))

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
        if self.agent_version is not None and "snapshot" in self.options:
            choice = opts.get("snapshot", "auto")
            if choice is None or isinstance(choice, str):
                opts["snapshot"] = resolve_snapshot(choice, self.agent, self.agent_version)
        try:
            renderer = self.renderer(**opts)
        except (TypeError, ValueError) as exc:
            # the options as given, never the resolved snapshot (the agent's own text)
            given = ", ".join(f"{k}={_shown(v)}" for k, v in (options or {}).items())
            raise SkillbenchError(
                f"profile {self.name!r}: bad options ({given}): {clip(str(exc))}"
            ) from None
        if self.name != self.agent and is_dataclass(renderer) and renderer.name == self.agent:
            # a release's listings name it (``codex@0.169.0``), so what reads them back (the
            # agent's own prompt, explanations) finds that release's profile
            renderer = replace(renderer, name=self.name)
        return renderer


def _shown(value: object) -> str:
    """An option's value for an error line: plain values as written, an object (a snapshot
    holding the agent's own text) by its type alone."""
    plain = value is None or isinstance(value, (str, int, float, bool, list, dict))
    return clip(repr(value)) if plain else f"<{type(value).__name__}>"


PROFILES: Registry[Profile] = Registry("profile", adopt=instance_of(Profile))
"""Profile name → Profile."""


def register_profile(profile: Profile) -> Profile:
    """Register ``profile`` under its name (a duplicate name is a programming error), and
    its loading rules where the catalog looks names up, so an agent is one module.

    A profile with releases is registered as its newest release under the plain name and
    as each release under ``name@version``."""
    versions = [profile.at(r.version) for r in profile.releases]
    if versions:
        profile = replace(versions[-1], name=profile.name)
    for one in (profile, *versions):
        if one.name not in PRECEDENCE:
            PRECEDENCE.register(one.name)(one.precedence)
        PROFILES.register(one.name)(one)
    return profile


def make_renderer(profile: str, options: RenderOptions | None = None) -> Renderer:
    """The renderer of the profile named ``profile`` built with ``options``."""
    return PROFILES.get(profile).make_renderer(options)
