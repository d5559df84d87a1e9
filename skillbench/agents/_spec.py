"""What skillbench needs to know to run one shipped agent CLI offline and read its request.

Each agent is one module that registers an ``AgentSpec``: where the agent looks for each kind
of skill source, how to point it at a loopback model endpoint, and how to find the listing
in the request it sends. Adding an agent (or the next version of one) is one module.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._install import install_skills
from skillbench.agents._recorder import Recorded
from skillbench.catalog import SourceSpec
from skillbench.listing import PROFILES, AgentSnapshot, RenderOptions
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.agents._capture import Capture


class Workspace(NamedTuple):
    """The temporary HOME and project an agent runs in."""

    home: Path
    project: Path


class AgentSpec(Protocol):
    """One agent CLI as skillbench drives it.

    Attributes:
        name: the profile name (``claude-code``, ``codex``).
        executable: the command the npm package installs.
        npm_package: the package to install it from.
        verified_version: the release installs are pointed at (the one CI pins); every
            release the profile was verified against is in ``verified_versions``.
    """

    @property
    def name(self) -> str: ...

    @property
    def executable(self) -> str: ...

    @property
    def npm_package(self) -> str: ...

    @property
    def verified_version(self) -> str: ...

    def lay_out(self, sources: Sequence[SourceSpec], workspace: Workspace) -> list[str]:
        """Copy ``sources`` where the agent looks for their kind; return extra CLI arguments."""
        ...

    def configure(
        self, workspace: Workspace, settings: JsonObject, usage: Mapping[str, int]
    ) -> None:
        """Write the agent's settings and seed its skill-usage history."""
        ...

    def command(
        self, executable: str, prompt: str, model: str | None, base_url: str
    ) -> list[str]: ...

    def environment(self, workspace: Workspace, base_url: str) -> dict[str, str]:
        """The whole environment of the run (nothing inherited but PATH and locale)."""
        ...

    def main_request(self, requests: Sequence[Recorded]) -> Recorded:
        """The request of the user's turn (the one that carries the listing)."""
        ...

    def listing(self, body: JsonObject) -> str:
        """The listing block exactly as sent."""
        ...

    def tools(self, body: JsonObject) -> list[JsonObject]: ...

    def installed(self, workspace: Workspace) -> list[SourceSpec]:
        """The sources as laid out in ``workspace`` (what a faithful render loads)."""
        ...

    def render_options(self, capture: Capture) -> RenderOptions:
        """The profile options that reproduce ``capture``'s setting (snapshot, window, …)."""
        ...

    def snapshot(self, version: str, body: JsonObject, workspace: Workspace) -> AgentSnapshot:
        """The agent's own text read from a capture with no user skills."""
        ...


SKILL_FILE = "SKILL.md"

AGENTS: Registry[AgentSpec] = Registry("agent")
"""Agent name → how to drive its CLI."""

_VERSION = re.compile(r"\d+\.\d+\.\d+(?:[-.][0-9A-Za-z.]+)?")
STRICT_VARIABLE = "SKILLBENCH_STRICT_AGENTS"
"""Set (``--strict-agents``): a live run or capture refuses an unverified agent release."""


def bin_variable(name: str, version: str | None = None) -> str:
    """``SKILLBENCH_<AGENT>_BIN``, or ``SKILLBENCH_<AGENT>_<VERSION>_BIN`` (dots as ``_``) for
    a second installed release, e.g. ``SKILLBENCH_CODEX_0_171_0_BIN``."""
    parts = [name, *([version] if version else [])]
    return "SKILLBENCH_" + "_".join(re.sub(r"\W", "_", p).upper() for p in parts) + "_BIN"


def verified_versions(name: str) -> tuple[str, ...]:
    """The releases of agent ``name`` its profile was verified against, oldest first."""
    return PROFILES.get(name).verified_versions


def unverified_note(name: str, version: str) -> str | None:
    """What a run or capture says about release ``version`` of agent ``name`` when its
    profile was not verified against it (None when it was); raises under
    ``$SKILLBENCH_STRICT_AGENTS``."""
    known = verified_versions(name)
    if version in known:
        return None
    note = (
        f"{name} {version} is installed but skillbench's profile was verified against "
        f"{', '.join(known)}: its listings may differ from what the agent sends "
        f"(`skillbench agents check` compares them)"
    )
    if os.environ.get(STRICT_VARIABLE, "") not in ("", "0", "false"):
        raise SkillbenchError(f"--strict-agents: {note}")
    return note


_CHOSEN: ContextVar[Mapping[str, str] | None] = ContextVar("skillbench_executables", default=None)


@contextmanager
def using_executable(name: str, executable: str) -> Iterator[None]:
    """Within the block (and this thread), agent ``name`` runs ``executable``: every turn of
    one capture, its snapshot turns included, uses the same installed release."""
    token = _CHOSEN.set({**(_CHOSEN.get() or {}), name: executable})
    try:
        yield
    finally:
        _CHOSEN.reset(token)


def find_executable(spec: AgentSpec, version: str | None = None) -> str:
    """The agent's CLI: the one chosen by ``using_executable``, else ``$SKILLBENCH_<AGENT>_BIN``,
    else on PATH, else one line saying how to install the verified version. With
    ``version``, only that release's variable (``bin_variable``) is looked at."""
    chosen = (_CHOSEN.get() or {}).get(spec.name)
    if chosen is not None and version is None:
        return chosen
    variable = bin_variable(spec.name, version)
    explicit = os.environ.get(variable)
    if explicit:
        if not Path(explicit).is_file():
            raise SkillbenchError(f"{variable}={explicit}: no such file")
        return explicit
    if version is not None:
        raise SkillbenchError(f"{spec.name} {version}: {variable} is not set")
    found = shutil.which(spec.executable)
    if found:
        return found
    raise SkillbenchError(
        f"{spec.name}: the `{spec.executable}` CLI is not installed; install the verified "
        f"version with `npm install -g {spec.npm_package}@{spec.verified_version}` "
        f"(or set {variable})"
    )


@functools.lru_cache(maxsize=8)
def agent_version(executable: str) -> str:
    """The version the CLI reports for itself (``--version``), asked once per executable:
    a capture, a live selector and the run's manifest all want it."""
    try:
        done = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SkillbenchError(f"{executable} --version failed: {exc}") from None
    match = _VERSION.search(done.stdout)
    if done.returncode != 0 or match is None:
        raise SkillbenchError(
            f"{executable} --version exited {done.returncode}: {done.stderr.strip()[:200]}"
        )
    return match.group(0)


def agent_available(name: str, version: str | None = None) -> bool:
    """Whether the agent's CLI is installed at ``version`` (None: the pinned release): on
    PATH or ``SKILLBENCH_<AGENT>_BIN``, or, for another release, its own variable."""
    spec = AGENTS.get(name)
    try:
        if version is not None and version != spec.verified_version:
            return agent_version(find_executable(spec, version)) == version
        return agent_version(find_executable(spec)) == spec.verified_version
    except SkillbenchError:
        return False


def copy_skills(
    source: SourceSpec, target: Path, workspace: Workspace, *, flatten: bool = True
) -> None:
    """Install every skill folder found under ``source`` into ``target`` (one level deep with
    ``flatten``, else at its place below the source), bounded and never following a link out
    of a skill folder (see ``skillbench.agents._install``); two skill folders landing on one
    path are an error, not a silent overwrite."""
    holding = workspace.home.parent / "linked"
    install_skills(Path(source.path), target, holding, flatten=flatten)


def base_environment() -> dict[str, str]:
    """PATH and locale from the caller; nothing else (no keys, no proxies, no agent config)."""
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
    return {k: os.environ[k] for k in keep if k in os.environ}
