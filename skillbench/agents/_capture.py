"""One offline turn of a shipped agent: what it sent, read back as skillbench's records.

The agent runs in a temporary HOME and project with the sources laid out where it looks for
them, its model endpoint a loopback ``Recorder``; nothing of the caller's environment (keys,
config, proxies) reaches it, nothing reaches the network, and nothing is left running.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple, TypeVar

from skillbench._errors import SkillbenchError
from skillbench._sanitize import printable
from skillbench.agents._driver import AGENTS, AgentDriver
from skillbench.agents._executable import (
    agent_version,
    find_executable,
    unverified_note,
    using_executable,
)
from skillbench.agents._install import install_notes
from skillbench.agents._recorder import Recorder, Responder
from skillbench.agents._request_template import REQUEST_MARK, TEMPLATE, make_template
from skillbench.agents._wire import Recorded
from skillbench.agents._workspace import Workspace
from skillbench.catalog import SourceSpec, parse_source_arg
from skillbench.listing import AgentSnapshot, save_snapshot
from skillbench.types import JsonObject, JsonValue

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_PROMPT = "hello"
DEFAULT_TIMEOUT = 180.0


@dataclass(frozen=True)
class Capture:
    """What one agent turn sent.

    Attributes:
        agent / version: the agent and the version its CLI reported.
        requests: every request it made, in order.
        request: the body of the user's turn (the one carrying the listing).
        listing: the listing block exactly as sent.
        tools: the tool definitions as sent.
        workspace: the HOME and project it ran in (its listing may name them).
        model / settings / env / usage / prompt: what the capture was asked to vary.
        output: what the CLI printed on stdout.
        snapshot: the agent's own text, from a second turn with no user skills (or None).
        notes: what installing the sources left out (links out of a skill folder, files over
            the size bound), one line each naming the path, and an agent release
            skillbench has not verified.
    """

    agent: str
    version: str
    requests: tuple[Recorded, ...]
    request: JsonObject
    listing: str
    tools: tuple[JsonObject, ...]
    workspace: Workspace
    model: str | None = None
    settings: JsonObject = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    usage: Mapping[str, int] = field(default_factory=dict)
    prompt: str = DEFAULT_PROMPT
    output: str = ""
    snapshot: AgentSnapshot | None = None
    notes: tuple[str, ...] = ()

    @property
    def home(self) -> Path:
        return self.workspace.home

    @property
    def project(self) -> Path:
        return self.workspace.project

    def save(self, directory: str | Path) -> Path:
        """Write the capture into ``directory``: request.json, requests/, listing.txt,
        tools.json, agent.json and stdout.txt (and snapshot.json when there is one)."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        _write(out / "request.json", json.dumps(self.request, indent=2, ensure_ascii=False))
        (out / "requests").mkdir(exist_ok=True)
        for i, recorded in enumerate(self.requests, 1):
            record = {"path": recorded.path, "body": recorded.body}
            _write(out / "requests" / f"{i:02d}.json", json.dumps(record, ensure_ascii=False))
        _write(out / "listing.txt", self.listing)
        _write(out / "tools.json", json.dumps(self.tools, indent=2, ensure_ascii=False))
        _write(out / "stdout.txt", self.output)
        _write(out / "agent.json", json.dumps(self.describe(), indent=2, ensure_ascii=False))
        if self.snapshot is not None:
            _write(out / "snapshot.json", self.snapshot.to_json())
        return out

    def describe(self) -> JsonObject:
        """The capture's settings (what ``agent.json`` holds)."""
        return {
            "agent": self.agent,
            "version": self.version,
            "model": self.model,
            "settings": dict(self.settings),
            "env": dict(self.env),
            "usage": dict(self.usage),
            "prompt": self.prompt,
            "home": str(self.home),
            "project": str(self.project),
            "requests": len(self.requests),
            "listing_chars": len(self.listing),
            "notes": list(self.notes),
        }


def _write(path: Path, text: str) -> None:
    path.write_text(text, encoding="utf-8")


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Inside the block, SIGTERM raises KeyboardInterrupt (in the main thread only), so the
    agent's process group is killed and temporary folders are removed as after Ctrl-C."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def temporary_folder(prefix: str) -> Iterator[Path]:
    """A temporary folder removed on the way out, whatever ends the block: a second Ctrl-C
    or SIGTERM arriving while it is removed waits until the removal is done."""
    path = Path(tempfile.mkdtemp(prefix=prefix)).resolve()
    try:
        yield path
    finally:
        interrupted = False
        for _ in range(3):
            try:
                shutil.rmtree(path, ignore_errors=True)
            except KeyboardInterrupt:
                interrupted = True
            if not os.path.lexists(path):
                break
        if interrupted:
            raise KeyboardInterrupt


@contextmanager
def _workspace(workdir: str | Path | None) -> Iterator[Workspace]:
    if workdir is not None:
        root = Path(workdir).resolve()
        root.mkdir(parents=True, exist_ok=True)
        yield _fresh(root)
        return
    with terminated_as_interrupt(), temporary_folder("skillbench-capture-") as tmp:
        yield _fresh(tmp)


def _fresh(root: Path) -> Workspace:
    workspace = Workspace(root / "home", root / "project")
    for path in workspace:
        if path.exists():
            shutil.rmtree(path)
        path.mkdir(parents=True)
    return workspace


_LIVE: set[subprocess.Popen[str]] = set()
_LIVE_LOCK = threading.Lock()


def kill_running_agents() -> int:
    """Kill every agent process group still running (after Ctrl-C); return how many."""
    with _LIVE_LOCK:
        live = list(_LIVE)
    for process in live:
        _kill(process)
    return len(live)


def start_agent(
    command: list[str], env: dict[str, str], cwd: Path, *, talk: bool = False
) -> subprocess.Popen[str]:
    """Start the agent in its own process group, known to the interrupt handler so that
    Ctrl-C or SIGTERM ends it; ``talk``: its stdin is a pipe (a warm agent's requests) and
    its stderr is dropped, else stdin is empty and stderr kept for errors."""
    try:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE if talk else subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL if talk else subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    except OSError as exc:
        raise SkillbenchError(f"{command[0]}: cannot start: {exc.strerror}") from None
    with _LIVE_LOCK:
        _LIVE.add(process)
    return process


def stop_agent(process: subprocess.Popen[str]) -> None:
    """End the agent and every child it started, and forget it."""
    _kill(process)
    with _LIVE_LOCK:
        _LIVE.discard(process)


class AgentOutput(NamedTuple):
    """What the agent printed in one turn."""

    stdout: str
    stderr: str


def _run(command: list[str], env: dict[str, str], cwd: Path, timeout: float) -> AgentOutput:
    """Run the agent in its own process group; on a timeout, kill the whole group."""
    process = start_agent(command, env, cwd)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        raise SkillbenchError(f"{command[0]} did not finish within {timeout:g} s") from None
    finally:
        stop_agent(process)
    if process.returncode != 0:
        detail = (err or out).strip().splitlines()[-3:]
        raise SkillbenchError(f"{command[0]} exited {process.returncode}: {' | '.join(detail)}")
    return AgentOutput(out, err)


def _kill(process: subprocess.Popen[str]) -> None:
    """End the agent and every child it started (nothing is left running)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.wait(timeout=10)


def map_agent_turns(work: Callable[[T], R], items: Sequence[T], workers: int, name: str) -> list[R]:
    """``work`` over ``items``, ``workers`` at a time, in order; when one fails or Ctrl-C
    comes, the rest are cancelled and every running agent is killed."""
    pool = ThreadPoolExecutor(max(1, workers), thread_name_prefix=name)
    try:
        return list(pool.map(work, items))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        kill_running_agents()
        raise
    finally:
        pool.shutdown(wait=True)


@dataclass(frozen=True)
class Turn:
    """What one turn of the agent is asked to vary."""

    model: str | None
    settings: JsonObject
    env: Mapping[str, str]
    usage: Mapping[str, int]
    prompt: str
    timeout: float
    responder: Responder | None
    args: tuple[str, ...] = ()
    """Extra CLI arguments for this turn (a session id to start or resume)."""


def run_turn(
    driver: AgentDriver,
    executable: str,
    sources: Sequence[SourceSpec],
    workspace: Workspace,
    turn: Turn,
) -> tuple[list[Recorded], AgentOutput]:
    """Lay out ``sources`` in ``workspace``, run one turn, return the requests and output."""
    extra = driver.lay_out(sources, workspace)
    driver.configure(workspace, turn.settings, turn.usage)
    with Recorder(turn.responder) as recorder:
        command = driver.command(executable, turn.prompt, turn.model, recorder.base_url)
        command += extra + list(turn.args)
        environment = {**driver.environment(workspace, recorder.base_url), **turn.env}
        output = _run(command, environment, workspace.project, turn.timeout)
        return list(recorder.requests), output


def capture_agent(
    agent: str, sources: Sequence[SourceSpec | str] = (), executable: str | None = None, **turn: Any
) -> Capture:
    """Run ``agent``'s CLI for one turn with ``sources`` installed and return what it sent
    (``turn``: the keyword arguments of ``capture_turn``). ``executable`` runs that CLI, for
    every turn of the capture, instead of the one ``find_executable`` finds (another
    installed release)."""
    with using_executable(agent, executable or find_executable(AGENTS.get(agent))):
        return capture_turn(agent, sources, **turn)


def capture_turn(
    agent: str,
    sources: Sequence[SourceSpec | str] = (),
    *,
    model: str | None = None,
    settings: Mapping[str, JsonValue] | None = None,
    env: Mapping[str, str] | None = None,
    usage: Mapping[str, int] | None = None,
    prompt: str = DEFAULT_PROMPT,
    workdir: str | Path | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    snapshot: bool = True,
    responder: Responder | None = None,
) -> Capture:
    """One turn of the agent's CLI (see ``capture_agent``).

    With ``snapshot`` a second turn with no user skills reads the agent's own text
    (built-in skills, framing, tools) into ``Capture.snapshot`` (not for an agent that sends
    no listing without skills). A release the profile was
    not verified against is noted (refused under ``--strict-agents``).
    """
    driver = AGENTS.get(agent)
    executable = find_executable(driver)
    version = agent_version(executable)
    unverified = unverified_note(agent, version)
    specs = [parse_source_arg(s) if isinstance(s, str) else s for s in sources]
    turn = Turn(
        model, dict(settings or {}), dict(env or {}), dict(usage or {}), prompt, timeout, responder
    )
    with _workspace(workdir) as workspace, install_notes() as notes:
        requests, output = run_turn(driver, executable, specs, workspace, turn)
        main = _main_request(driver, requests, output).body
        own = None
        if snapshot and driver.spec.wire.lists_none:
            with _workspace(None) as empty:
                bare_turn = Turn(model, turn.settings, turn.env, {}, REQUEST_MARK, timeout, None)
                bare, _ = run_turn(driver, executable, [], empty, bare_turn)
                body = driver.main_request(bare).body
                own = driver.snapshot(version, body, empty)
                template = make_template(body, driver.listing(body))
                own = replace(own, texts={**own.texts, TEMPLATE: template})
        return Capture(
            agent=agent,
            version=version,
            requests=tuple(requests),
            request=main,
            listing=driver.listing(main),
            tools=tuple(driver.tools(main)),
            workspace=workspace,
            model=model,
            settings=turn.settings,
            env=turn.env,
            usage=turn.usage,
            prompt=prompt,
            output=output.stdout,
            snapshot=own,
            notes=(*notes, *((unverified,) if unverified else ())),
        )


def _main_request(
    driver: AgentDriver, requests: Sequence[Recorded], output: AgentOutput
) -> Recorded:
    """The turn's request carrying the listing; without one, the error ends with the last
    line the agent printed (an agent that exits 0 after failing its turn says why there)."""
    try:
        return driver.main_request(requests)
    except SkillbenchError as exc:
        lines = f"{output.stdout}\n{output.stderr}".splitlines()
        last = next((line for line in reversed(lines) if line.strip()), "")
        if not last:
            raise
        raise SkillbenchError(f"{exc}; its output ends: {printable(last.strip())[:300]}") from None


def store_snapshot(capture: Capture, root: Path | None = None) -> Path | None:
    """Keep the capture's snapshot in the user's cache, where profiles find it."""
    return save_snapshot(capture.snapshot, root) if capture.snapshot is not None else None
