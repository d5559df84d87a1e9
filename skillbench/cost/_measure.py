"""Inline versus fork measured on a shipped agent: one scripted session per skill and mode.

The skill is installed alone, once with ``context: fork`` and once without, and the same
conversation runs through the real CLI: the user asks for the skill, the scripted model calls
it, the agent runs it (its body joins the conversation, or a sub-agent gets it and answers
with a fixed summary), then the user sends ``follow_ups`` more turns, each answered with a
fixed short text. Every request is recorded and split into parts (``_attribute``), so the
figures are the agent's own overhead around a skill, not a model's behaviour.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from skillbench._errors import SkillbenchError
from skillbench.agents import (
    AGENTS,
    SESSION_AGENTS,
    Recorded,
    Reply,
    Role,
    Session,
    conversation,
    run_session,
)
from skillbench.catalog import ExecutionContext, Skill, SourceSpec
from skillbench.cost._attribute import Marks, ModeCost, attribute_session, mode_cost
from skillbench.cost._invocation import find_shell_injections, strip_frontmatter
from skillbench.types import JsonObject

SUMMARY = " ".join(
    f"Finding {i}: the step the skill asked for was done and its result checked against the "
    "request; nothing else needs the user's attention for this point."
    for i in range(1, 8)
)
"""The sub-agent's scripted answer: about 200 tokens, the summary size the model assumes."""
ANSWER = "Done."
"""The scripted answer to every other request."""
WORK_FILE = "src/inventory.py"
WORK_TEXT = "".join(
    f'def check_{i}(items):\n    """Count the items of kind {i}."""\n'
    f"    return sum(1 for item in items if item.kind == {i})\n\n"
    for i in range(1, 9)
)
"""The file a scripted sub-agent reads as its work: a small module of the project (about
200 tokens), the same for every skill, so the work does not grow with the skill."""
DEFAULT_ARGS = "src/"
"""What the user's request hands to a skill that takes arguments."""
_CONTEXT_LINE = re.compile(r"^context[ \t]*:.*\r?\n", re.M)
_HOOKS_LINE = re.compile(r"^hooks[ \t]*:", re.M)


@dataclass(frozen=True)
class SkillMeasurement:
    """One skill measured both ways on one agent."""

    skill: Skill
    agent: str
    version: str
    request: str
    args: str | None
    inline: ModeCost
    fork: ModeCost
    subagent_sees_request: bool
    fork_via: str = "context"


def request_text(skill: Skill, args: str | None) -> str:
    """The user's first message: it asks for the skill by name."""
    return f"Please use the {skill.name} skill" + (f" on {args}." if args else ".")


def follow_up_texts(count: int) -> list[str]:
    return [f"Follow-up question {i}: is there anything else?" for i in range(1, count + 1)]


def body_mark(skill: Skill) -> str:
    """The first line of the body long enough to be its own and free of anything expanded."""
    lines = [line.strip() for line in strip_frontmatter(skill.read_body()).splitlines()]
    usable = [line for line in lines if len(line) >= 8 and "$" not in line and "{" not in line]
    if not usable:
        raise SkillbenchError(f"{skill.path}: the body has no line to recognise it by")
    return usable[0]


def with_context(text: str, mode: ExecutionContext) -> str:
    """``SKILL.md`` text declaring ``mode``: any ``context:`` line removed, ``context: fork``
    added at the end of the frontmatter for a fork."""
    text = text.removeprefix("\ufeff")
    if not text.startswith("---"):
        raise SkillbenchError("SKILL.md has no frontmatter")
    head, sep, rest = text[3:].partition("\n---")
    if not sep:
        raise SkillbenchError("SKILL.md frontmatter is not closed")
    head = _CONTEXT_LINE.sub("", head.lstrip("\r\n") + "\n")
    if mode == "fork":
        head += "context: fork\n"
    return f"---\n{head.rstrip()}{sep}{rest}"


def install(skill: Skill, mode: ExecutionContext, root: Path) -> SourceSpec:
    """A copy of the skill's folder declaring ``mode``, as a source of the skill's own kind."""
    folder = Path(skill.path or "").parent
    target = root / mode / folder.name
    shutil.copytree(folder, target, symlinks=False, ignore_dangling_symlinks=True)
    file = target / Path(skill.path or "").name
    file.write_text(with_context(file.read_text(encoding="utf-8"), mode), encoding="utf-8")
    return SourceSpec(str(root / mode), skill.source)


def task_text(skill: Skill, args: str | None) -> str:
    """What the main conversation hands a sub-agent on an agent with no ``context: fork``."""
    return f"Use the {skill.name} skill" + (f" on {args}." if args else ".")


def script(
    agent: str,
    skill: Skill,
    args: str | None,
    work: str,
    mode: ExecutionContext = "fork",
) -> Callable[[Role, Recorded], Reply]:
    """The fixed model: the first request of the conversation calls the skill (forked on an
    agent with a sub-agent tool instead: hands the sub-agent the task, and the sub-agent
    calls the skill); a sub-agent reads the file ``work`` with the agent's own tool (real
    work, so the sub-agent's work term is measured), then answers with ``SUMMARY``; a
    request declaring no tools (the agent's aside: a title) and every other request get
    ``ANSWER``."""
    support = SESSION_AGENTS.get(agent)
    api = AGENTS.get(agent).wire.api
    delegated = mode == "fork" and support.delegate is not None
    steps = [support.skill_call(skill.name, args)] if delegated else []
    steps.append(support.read_call(work))

    def answer(role: Role, recorded: Recorded) -> Reply:
        blocks = conversation(api, recorded.body)
        if role == "subagent":
            done = sum(b.kind == "result" for b in blocks)
            return steps[done] if done < len(steps) else Reply(text=SUMMARY)
        if not recorded.body.get("tools") or any(b.role == "assistant" for b in blocks):
            return Reply(text=ANSWER)
        if delegated:
            return support.delegate_call(task_text(skill, args))
        return support.skill_call(skill.name, args)

    return answer


def unmeasurable(skill: Skill) -> str | None:
    """Why a scripted session cannot run ``skill`` (``None``: it can)."""
    if skill.disable_model_invocation:
        return "disable-model-invocation: the model cannot call it"
    if skill.paths:
        return (
            f"paths: {', '.join(skill.paths)}: the agent offers a conditional skill only once "
            "a matching file is touched, which a scripted session does not do"
        )
    if not skill.path:
        return "no SKILL.md file to install"
    injections = find_shell_injections(strip_frontmatter(skill.read_body()))
    if injections:
        return (
            f"the agent would run its shell injection !`{injections[0]}` on loading it; "
            "skillbench never runs a skill's commands"
        )
    try:
        head = Path(skill.path).read_text(encoding="utf-8").partition("\n---")[0]
    except (OSError, UnicodeDecodeError) as exc:
        return f"{skill.path}: cannot read: {exc}"
    if _HOOKS_LINE.search(head):
        return "it declares hooks, commands the agent would run; skillbench never runs them"
    return None


def measure_skill(
    agent: str,
    skill: Skill,
    *,
    follow_ups: int,
    model: str,
    timeout: float = 180.0,
) -> SkillMeasurement:
    """Run ``skill`` inline and forked on ``agent`` with ``follow_ups`` later turns."""
    reason = unmeasurable(skill)
    if reason is not None:
        raise SkillbenchError(f"{skill.name}: {reason}")
    args = DEFAULT_ARGS if skill.arguments or skill.argument_hint else None
    prompts = [request_text(skill, args), *follow_up_texts(follow_ups)]
    costs: dict[ExecutionContext, ModeCost] = {}
    delegated = SESSION_AGENTS.get(agent).delegate is not None
    sessions: dict[ExecutionContext, Session] = {}
    with tempfile.TemporaryDirectory(prefix="skillbench-measure-") as tmp:
        root = Path(tmp)
        for mode in ("inline", "fork"):
            declared: ExecutionContext = "fork" if mode == "fork" and not delegated else "inline"
            source = install(skill, declared, root / "skills" / mode)
            work = root / f"run-{mode}" / "project" / WORK_FILE
            work.parent.mkdir(parents=True)
            work.write_text(WORK_TEXT, encoding="utf-8")
            session = run_session(
                agent,
                [source],
                prompts,
                script(agent, skill, args, str(work), mode),
                root / f"run-{mode}",
                timeout=timeout,
            )
            costs[mode] = _mode(session, skill, mode, prompts, model)
            sessions[mode] = session
    fork = sessions["fork"]
    sees = any(
        prompts[0] in json.dumps(r.recorded.body, ensure_ascii=False)
        for r in fork.requests
        if r.role == "subagent"
    )
    support = SESSION_AGENTS.get(agent)
    via = support.delegate.tool if support.delegate else "context"
    return SkillMeasurement(
        skill, agent, fork.version, prompts[0], args, costs["inline"], costs["fork"], sees, via
    )


def _call_result(session: Session) -> str:
    """The start of the last tool result the main conversation got, for error messages."""
    api = AGENTS.get(session.agent).wire.api
    results = [
        block.text
        for request in session.requests
        if request.role == "main"
        for block in conversation(api, request.recorded.body)
        if block.kind == "result"
    ]
    return json.dumps(results[-1], ensure_ascii=False)[:160] if results else "nothing"


def _mode(
    session: Session, skill: Skill, mode: ExecutionContext, prompts: Sequence[str], model: str
) -> ModeCost:
    spec = AGENTS.get(session.agent)

    def listing(body: JsonObject) -> str | None:
        try:
            return spec.listing(body)
        except SkillbenchError:
            return None

    support = SESSION_AGENTS.get(session.agent)
    tools = {support.skill_tool} | ({support.delegate.tool} if support.delegate else set())
    marks = Marks(spec.wire.api, listing, body_mark(skill), frozenset(tools), frozenset(prompts))
    cost = mode_cost(attribute_session(session, marks, model))
    if not cost.carried:
        raise SkillbenchError(
            f"{session.agent} {session.version}: {skill.name} ({mode}) never returned a result "
            "of the skill call to the conversation"
        )
    if not cost.body:
        returned = _call_result(session)
        raise SkillbenchError(
            f"{session.agent} {session.version}: the body of {skill.name} ({mode}) never "
            f"reached the model; the skill call returned: {returned}{_ripgrep_hint(returned)}"
        )
    if mode == "fork" and not cost.fixed:
        raise SkillbenchError(
            f"{session.agent} {session.version}: {skill.name} declared context: fork but no "
            "sub-agent request was seen"
        )
    return cost


def _ripgrep_hint(returned: str) -> str:
    """Some agents list a skill's files with ripgrep and download it when `rg` is not on PATH,
    which an offline machine cannot do."""
    if "ripgrep" not in returned:
        return ""
    return " (put ripgrep's `rg` on PATH, e.g. `apt install ripgrep`: the agent cannot fetch it)"
