"""Finding an agent's installed CLI and the release it reports.

The CLI is the one on PATH, or ``$SKILLBENCH_<AGENT>_BIN``; another installed release is
named by ``$SKILLBENCH_<AGENT>_<VERSION>_BIN``. A release its record does not list as verified
is noted wherever a result depends on it, and refused under ``--strict-agents``.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.agents._driver import AGENTS, AgentDriver
from skillbench.agentspec import AGENT_SPECS

_VERSION = re.compile(r"\d+\.\d+\.\d+(?:[-.][0-9A-Za-z.]+)?")
STRICT_VARIABLE = "SKILLBENCH_STRICT_AGENTS"
"""Set (``--strict-agents``): a live run or capture refuses an unverified agent release."""


def bin_variable(name: str, version: str | None = None) -> str:
    """``SKILLBENCH_<AGENT>_BIN``, or ``SKILLBENCH_<AGENT>_<VERSION>_BIN`` (dots as ``_``) for
    a second installed release, e.g. ``SKILLBENCH_MY_AGENT_1_2_0_BIN``."""
    parts = [name, *([version] if version else [])]
    return "SKILLBENCH_" + "_".join(re.sub(r"\W", "_", p).upper() for p in parts) + "_BIN"


def verified_versions(name: str) -> tuple[str, ...]:
    """The releases of agent ``name`` verified by capture, oldest first."""
    return AGENT_SPECS.get(name).versions


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


def find_executable(spec: AgentDriver, version: str | None = None) -> str:
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
    package = spec.spec.package
    raise SkillbenchError(
        f"{spec.name}: the `{spec.executable}` CLI is not installed; install the verified "
        f"version with `{package.install_command(spec.pinned_version)}` (or set {variable})"
    )


@functools.lru_cache(maxsize=8)
def agent_version(executable: str) -> str:
    """The version the CLI reports for itself (``--version``), asked once per executable:
    a capture, a live selector and the run's manifest all want it. Some CLIs print it on
    stderr."""
    try:
        done = subprocess.run(
            [executable, "--version"], capture_output=True, text=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SkillbenchError(f"{executable} --version failed: {exc}") from None
    match = _VERSION.search(done.stdout) or _VERSION.search(done.stderr)
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
        if version is not None and version != spec.pinned_version:
            return agent_version(find_executable(spec, version)) == version
        return agent_version(find_executable(spec)) == spec.pinned_version
    except SkillbenchError:
        return False
