"""A profile: everything skillbench models about one agent's listing, registered once.

An agent is described by how it loads skills (``precedence``: source order, collisions,
``paths`` activation, plugin names), how it renders its listing (``renderer``: a factory
taking the profile's options, such as a context window), where the listing goes in the
prompt (``placement``) and how a model triggers a skill (``trigger``).

A shipped agent's profile is derived from its record (``skillbench.agentspec``), with one
profile per verified release: ``my-agent@1.2.0`` names one of them, plain ``my-agent`` the newest.
Its renderer is the template renderer of its listing format, or the rules of its own
registered in ``OWN_RENDERERS``. Profiles of agents without a record (codebot, a plugin's
own) are registered with ``register_profile``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, is_dataclass, replace
from typing import Literal, NamedTuple

from skillbench._errors import SkillbenchError, suggest
from skillbench._plugins import instance_of
from skillbench._registry import Registry
from skillbench._sanitize import clip
from skillbench.agentspec import AGENT_SPECS, AgentSpec, Placement, Release
from skillbench.catalog import PRECEDENCE, Precedence
from skillbench.listing._renderer import Renderer, RendererFactory, RenderOptions
from skillbench.listing._snapshot import (
    AgentSnapshot,
    cached_versions,
    resolve_snapshot,
    snapshot_path,
)
from skillbench.listing._template import template_renderer

VERSION_SEPARATOR = "@"

Mention = Literal["inject_skill"]
"""``inject_skill``: a ``$name`` in the user's text naming exactly one skill makes the agent add
that skill's whole ``SKILL.md`` as a user message right after the request, so the model reads
it without choosing to."""

Trigger = Literal["skill_tool", "file_read"]
"""``skill_tool``: the model calls a skill tool with the name; ``file_read``: there is no
skill tool and reading the skill's ``SKILL.md`` is the trigger."""

OwnRenderer = Callable[[AgentSpec, Release], RendererFactory]
"""The renderer factory of an agent's release whose listing no template can write."""

OWN_RENDERERS: Registry[OwnRenderer] = Registry("own renderer")
"""Agent name → its own rules, for agents whose record has no listing format."""


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
        release_renderers: a release's renderer factory where its rules differ from
            ``renderer``'s, by version.
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
    release_renderers: Mapping[str, RendererFactory] = field(default_factory=dict)

    @property
    def agent(self) -> str:
        """The agent's name without a version (``my-agent`` for ``my-agent@1.2.0``)."""
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
                    renderer=self.release_renderers.get(version, self.renderer),
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
            # a release's listings name it (``my-agent@1.2.0``), so what reads them back (the
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


def profile_of(spec: AgentSpec) -> Profile:
    """The profile of a shipped agent, from its record."""
    if spec.listing is None:
        own = OWN_RENDERERS.get(spec.name)
        factories = {r.version: own(spec, r) for r in spec.releases}
    else:
        factories = {r.version: template_renderer(spec, r) for r in spec.releases}
    return Profile(
        spec.name,
        spec.loading,
        factories[spec.newest.version],
        placement=spec.wire.placement,
        trigger="skill_tool" if spec.live.skill_tool else "file_read",
        summary=spec.summary,
        ordering=spec.ordering,
        mention="inject_skill" if spec.live.mention_injects else None,
        uncapped=dict(spec.uncapped),
        releases=spec.releases,
        release_renderers=factories,
    )


def _add_agent(name: str, spec: AgentSpec) -> None:
    register_profile(profile_of(spec))


def _remove_agent(name: str, spec: AgentSpec) -> None:
    for one in (name, *(f"{name}{VERSION_SEPARATOR}{v}" for v in spec.versions)):
        PROFILES.remove(one)
        if one in PRECEDENCE:
            PRECEDENCE.remove(one)


def follow_agents() -> None:
    """Keep a profile registered for every agent record, now and as plugins add more."""
    AGENT_SPECS.watch(_add_agent, _remove_agent)
