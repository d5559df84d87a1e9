"""Drift: which agent releases are installed, and whether skillbench still lists as they do.

Agents ship weekly. ``installed_agents`` finds every installed CLI (on PATH or
``SKILLBENCH_<AGENT>_BIN``, and other releases under ``SKILLBENCH_<AGENT>_<VERSION>_BIN``);
``check_agent`` captures one of them on the bundled probe catalog and renders that capture
with the rules of every release the profile was verified against, so a new release shows
either as "matches version X" or as the first difference and its likely cause.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.agents._capture import capture_agent, map_agent_turns
from skillbench.agents._driver import AGENTS
from skillbench.agents._executable import agent_version, bin_variable, find_executable
from skillbench.agents._fidelity import AgentFidelity, compare_capture
from skillbench.catalog import SourceSpec
from skillbench.listing import PROFILES
from skillbench.types import JsonObject

PROBE = Path(__file__).resolve().parents[2] / "datasets" / "probe" / "skills"
"""The probe catalog of a source checkout (``datasets/probe``): overflowing every verified
budget, with a name that differs from its folder, a ``paths`` skill and a skill pack."""
PROBE_USAGE = {"probe-log-triage": 9, "probe-dns-records": 4}
"""The usage history a check seeds where the agent keeps one."""


class Installed(NamedTuple):
    """One installed agent CLI: where it was found and the version it reports (None, with
    ``error``, when it could not say)."""

    agent: str
    executable: str
    found_by: str
    version: str | None
    error: str | None = None

    @property
    def verified(self) -> bool:
        return self.version in PROFILES.get(self.agent).verified_versions

    def to_json(self) -> JsonObject:
        return {
            "agent": self.agent,
            "executable": self.executable,
            "found_by": self.found_by,
            "version": self.version,
            "verified": self.verified,
            "error": self.error,
        }


def _installed(agent: str, executable: str, found_by: str) -> Installed:
    try:
        return Installed(agent, executable, found_by, agent_version(executable))
    except SkillbenchError as exc:
        return Installed(agent, executable, found_by, None, str(exc))


def installed_agents(agents: Sequence[str] = ()) -> list[Installed]:
    """Every installed CLI of ``agents`` (none named: of every known agent): the one on PATH or
    in ``SKILLBENCH_<AGENT>_BIN``, then each ``SKILLBENCH_<AGENT>_<VERSION>_BIN`` by name."""
    found: list[Installed] = []
    for name in agents or AGENTS.names():
        spec = AGENTS.get(name)
        default = bin_variable(name)
        try:
            executable = find_executable(spec)
            found.append(_installed(name, executable, default if default in os.environ else "PATH"))
        except SkillbenchError:
            pass
        prefix = default.removesuffix("BIN")
        for variable in sorted(os.environ):
            if variable.startswith(prefix) and variable.endswith("_BIN") and variable != default:
                found.append(_installed(name, os.environ[variable], variable))
    return found


@dataclass(frozen=True)
class AgentCheck:
    """One installed CLI captured on the probe and rendered with each verified release.

    Attributes:
        installed: the CLI checked.
        results: per verified release (newest first), skillbench's render of the capture
            under that release's rules against what the agent sent.
        model: the model the agent's request named.
        seconds: how long the capture and renders took.
    """

    installed: Installed
    results: tuple[tuple[str, AgentFidelity], ...]
    model: str | None
    seconds: float

    @property
    def matches(self) -> tuple[str, ...]:
        """The verified releases whose rules reproduce the capture byte for byte."""
        return tuple(version for version, result in self.results if result.identical)

    @property
    def reference(self) -> str:
        """The release the installed version should match: itself when verified, else the
        newest verified release."""
        version = self.installed.version
        return version if version in dict(self.results) else self.results[0][0]

    @property
    def ok(self) -> bool:
        """The installed release lists as its own verified rules (or, unverified, as some
        verified release's)."""
        return self.reference in self.matches if self.installed.verified else bool(self.matches)

    def verdict(self) -> str:
        """One line: what the installed release matches, or where it first differs and why."""
        agent, version = self.installed.agent, self.installed.version
        if self.ok:
            matched = self.reference if self.reference in self.matches else self.matches[0]
            line = f"matches version {matched}"
            if not self.installed.verified:
                line += (
                    f" ({agent} {version} is not verified: its listing rules look unchanged, "
                    f"so a Release({version!r}) line in the profile would cover it)"
                )
            others = [v for v in dict(self.results) if v not in self.matches]
            if others:
                line += f"; differs from {', '.join(others)}"
            return line
        result = dict(self.results)[self.reference]
        return (
            f"differs from version {self.reference} at byte {result.first_difference}: "
            f"{likely_cause(result, self.model)}"
        )

    def to_json(self) -> JsonObject:
        return {
            **self.installed.to_json(),
            "ok": self.ok,
            "matches": list(self.matches),
            "verdict": self.verdict(),
            "model": self.model,
            "seconds": round(self.seconds, 2),
            "releases": {version: result.to_json() for version, result in self.results},
        }


def likely_cause(result: AgentFidelity, model: str | None) -> str:
    """Why a listing differs, from the shape of the difference: the framing (format), or
    how much text the budget let through (budget or window), or the entries themselves."""
    recorded, rendered = result.listing.splitlines(), result.rendered.splitlines()
    first = next(
        (i for i, (a, b) in enumerate(zip(recorded, rendered, strict=False)) if a != b),
        min(len(recorded), len(rendered)),
    )
    line = recorded[first] if first < len(recorded) else rendered[first]
    named = f" (the request names model {model})" if model else ""
    if not line.startswith("- ") or "` = `" in line:
        return f"format: the listing's framing differs at line {first + 1}"
    sent, ours = len(result.listing), len(result.rendered)
    if sent != ours:
        more = "more" if sent > ours else "less"
        return (
            f"budget or window: the agent listed {more} text ({sent:,} characters against "
            f"skillbench's {ours:,}){named}; its budget, or its model's context window, changed"
        )
    return f"format or order: entry line {first + 1} differs at the same total length"


def check_agent(installed: Installed, probe: Path = PROBE, timeout: float = 180.0) -> AgentCheck:
    """Capture ``installed`` on ``probe`` (as project skills, with ``PROBE_USAGE`` where the
    agent keeps usage) and render the capture with every verified release's rules."""
    if not probe.is_dir():
        raise SkillbenchError(f"{probe}: no probe catalog here; pass one with --probe DIR")
    profile = PROFILES.get(installed.agent)
    keeps_usage = profile.make_renderer({"snapshot": "none"}).uses_scores
    usage = PROBE_USAGE if keeps_usage else {}
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="skillbench-check-") as tmp:
        cap = capture_agent(
            installed.agent,
            [SourceSpec(str(probe), "project")],
            executable=installed.executable,
            usage=usage,
            workdir=tmp,
            timeout=timeout,
        )
        results = tuple(
            (version, compare_capture(cap, profile.at(version)))
            for version in reversed(profile.verified_versions)
        )
    model = cap.request.get("model")
    return AgentCheck(
        installed._replace(version=cap.version, error=None),
        results,
        model if isinstance(model, str) else None,
        time.perf_counter() - start,
    )


def check_all(found: Sequence[Installed], probe: Path = PROBE, jobs: int = 2) -> list[AgentCheck]:
    """``check_agent`` for each of ``found``, ``jobs`` at a time, in the order given; on
    Ctrl-C every running agent is killed."""
    return map_agent_turns(lambda one: check_agent(one, probe), found, jobs, "skillbench-check")
