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
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from skillbench._errors import SkillbenchError
from skillbench._registry import Registry
from skillbench.agents._install import install_skills
from skillbench.agents._recorder import Recorded
from skillbench.catalog import SourceSpec
from skillbench.listing import AgentSnapshot, RenderOptions
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
        verified_version: the version skillbench's profile was verified against.
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


def find_executable(spec: AgentSpec) -> str:
    """The agent's CLI: ``$SKILLBENCH_<AGENT>_BIN``, else on PATH, else one line saying how
    to install the verified version."""
    variable = "SKILLBENCH_" + spec.name.upper().replace("-", "_") + "_BIN"
    explicit = os.environ.get(variable)
    if explicit:
        if not Path(explicit).is_file():
            raise SkillbenchError(f"{variable}={explicit}: no such file")
        return explicit
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


def agent_available(name: str) -> bool:
    """Whether the agent's CLI is installed at the version its profile was verified against."""
    spec = AGENTS.get(name)
    try:
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
