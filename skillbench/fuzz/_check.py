"""Fuzzing one installed agent release: generate, pack, capture, compare, shrink, write."""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.agents import (
    AgentFidelity,
    Installed,
    capture_agent,
    compare_capture,
    failed_as_predicted,
    map_agent_turns,
)
from skillbench.agentspec import AGENT_SPECS
from skillbench.fuzz._generate import generate_cases
from skillbench.fuzz._pack import pack_cases
from skillbench.fuzz._report import AgentFuzz, FuzzDifference
from skillbench.fuzz._reproducer import write_reproducer
from skillbench.fuzz._shrink import shrink
from skillbench.fuzz._types import FuzzCatalog
from skillbench.listing import AgentSnapshot

Progress = Callable[[str], None]


@dataclass(frozen=True)
class FuzzSettings:
    """What a run does.

    Attributes:
        count / seed: cases generated, and the seed that makes them.
        output: where reproducers go.
        jobs: captures at once.
        shrink_limit: differences shrunk per release (the rest keep their whole catalog).
        shrink_tries: captures one shrink may take.
        timeout: seconds one capture may take.
    """

    count: int
    seed: int
    output: Path
    jobs: int = 2
    shrink_limit: int = 8
    shrink_tries: int = 60
    timeout: float = 300.0


class _Release:
    """Captures of one installed release, its own text read once and shared."""

    def __init__(self, installed: Installed, timeout: float) -> None:
        """Reads the agent's own text from a turn with nothing installed, where the agent
        sends a listing then (``Wire.lists_none``; otherwise it has no built-ins to read)."""
        self.installed = installed
        self.timeout = timeout
        self.snapshot: AgentSnapshot | None = None
        if AGENT_SPECS.get(installed.agent).wire.lists_none:
            bare = capture_agent(
                installed.agent, [], executable=installed.executable, timeout=timeout
            )
            self.snapshot = bare.snapshot

    def compare(self, catalog: FuzzCatalog) -> AgentFidelity:
        with tempfile.TemporaryDirectory(prefix="skillbench-fuzz-") as name:
            tmp = Path(name)
            sources = catalog.write(tmp / "catalog")
            agent, version = self.installed.agent, str(self.installed.version)
            try:
                capture = capture_agent(
                    agent,
                    sources,
                    executable=self.installed.executable,
                    env=catalog.env,
                    usage=catalog.usage,
                    snapshot=False,
                    workdir=tmp / "run",
                    timeout=self.timeout,
                )
            except SkillbenchError as exc:
                return failed_as_predicted(agent, version, f"{agent}@{version}", sources, exc)
            return compare_capture(replace(capture, snapshot=self.snapshot))

    def differs_as(self, kind: DiffKind) -> Callable[[FuzzCatalog], bool]:
        """The shrinking oracle: the candidate differs in the same way (see ``diff_kind``),
        so shrinking does not slip to another difference; a candidate the agent refuses
        shows nothing."""

        def oracle(catalog: FuzzCatalog) -> bool:
            try:
                fidelity = self.compare(catalog)
            except SkillbenchError:
                return False
            return not fidelity.identical and diff_kind(fidelity) == kind

        return oracle


class DiffKind(NamedTuple):
    """How a listing differs: lines only the agent sent, lines only skillbench rendered."""

    agent_only: bool
    skillbench_only: bool


def diff_kind(fidelity: AgentFidelity) -> DiffKind:
    """Whether the difference is a line changed, missing or extra (by its diff's sides)."""
    body = [line for line in fidelity.lines if not line.startswith(("---", "+++", "@@"))]
    return DiffKind(any(x.startswith("-") for x in body), any(x.startswith("+") for x in body))


def fuzz_release(installed: Installed, settings: FuzzSettings, progress: Progress) -> AgentFuzz:
    """Compare ``settings.count`` generated cases on ``installed``, shrink what differs and
    write a reproducer of each (see ``FuzzSettings``)."""
    spec = AGENT_SPECS.get(installed.agent)
    catalogs = pack_cases(spec, generate_cases(spec, settings.count, settings.seed))
    return fuzz_catalogs(installed, catalogs, settings, progress)


def fuzz_catalogs(
    installed: Installed,
    catalogs: Sequence[FuzzCatalog],
    settings: FuzzSettings,
    progress: Progress,
) -> AgentFuzz:
    """Capture each of ``catalogs`` on ``installed`` and compare; shrink and write what
    differs."""
    start = time.perf_counter()
    name = f"{installed.agent}@{installed.version}"
    skills = sum(c.skill_files for c in catalogs)
    progress(f"{name}: {len(catalogs)} captures, {skills} skills")
    try:
        release = _Release(installed, settings.timeout)
    except SkillbenchError as exc:
        return AgentFuzz(
            installed.agent,
            str(installed.version),
            installed.executable,
            0,
            0,
            (),
            (str(exc),),
            time.perf_counter() - start,
        )

    def one(catalog: FuzzCatalog) -> AgentFidelity | str:
        try:
            result: AgentFidelity | str = release.compare(catalog)
        except SkillbenchError as exc:
            result = f"{catalog.label}: {exc}"
        state = "error" if isinstance(result, str) else "DIFFERS"
        if isinstance(result, AgentFidelity) and result.identical:
            state = "identical"
        progress(f"{name}: {catalog.label} {state}")
        return result

    results = map_agent_turns(one, catalogs, settings.jobs, "fuzz")
    errors = tuple(r for r in results if isinstance(r, str))
    found = [
        (c, r)
        for c, r in zip(catalogs, results, strict=True)
        if isinstance(r, AgentFidelity) and not r.identical
    ]
    notes = tuple(
        n
        for r in results
        if isinstance(r, AgentFidelity)
        for n in r.notes
        if "verified" in n or "as its profile predicts" in n
    )
    differences = []
    for i, (catalog, fidelity) in enumerate(found):
        folder = settings.output / name / f"{i:02d}-{catalog.label}"
        if i >= settings.shrink_limit:
            write_reproducer(folder, catalog, fidelity, installed.executable, 0)
            differences.append(
                FuzzDifference(
                    catalog.label,
                    catalog.shapes,
                    fidelity.first_difference,
                    fidelity.lines,
                    None,
                    str(folder),
                )
            )
            continue
        progress(f"{name}: shrinking {catalog.label} ({catalog.skill_files} skills)")
        small, tries = shrink(
            catalog, release.differs_as(diff_kind(fidelity)), settings.shrink_tries
        )
        minimal = release.compare(small) if small is not catalog else fidelity
        if minimal.identical:
            small, minimal, tries = catalog, fidelity, 0
        write_reproducer(folder, small, minimal, installed.executable, tries)
        progress(
            f"{name}: {catalog.label} shrunk to {small.skill_files} skill(s) in {tries} captures"
        )
        differences.append(
            FuzzDifference(
                catalog.label,
                small.shapes,
                minimal.first_difference,
                minimal.lines,
                small.skill_files,
                str(folder),
            )
        )
    return AgentFuzz(
        installed.agent,
        str(installed.version),
        installed.executable,
        len(catalogs),
        skills,
        tuple(differences),
        errors,
        time.perf_counter() - start,
        notes,
    )
