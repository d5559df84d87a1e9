"""Turning a triggered skill into the text an agent would inject (``ProcessInvocation``).

Pure functions over a :class:`~skillbench.catalog.Skill`: nothing here reads or writes files and
nothing in a skill body is ever run. Shell injections (``!`cmd```) are found and reported, never
executed; they stay in the text exactly as written, so their tokens are counted like any other.
"""

from __future__ import annotations

import posixpath
import re
import shlex
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from skillbench.agentspec import AGENT_SPECS
from skillbench.catalog import ExecutionContext, Skill, SourceKind

InvocationPath = Literal["model", "user"]
"""``model``: the Skill tool (``SourceModel``); ``user``: a ``/name`` slash command."""

PRIVILEGED_SOURCES: frozenset[SourceKind] = frozenset({"bundled", "managed", "project", "user"})
"""Sources whose skills may change the session (``allowed-tools``, ``model``, ``effort``).

The reference pipeline clears these fields for skills that do not come from a privileged
source so that plugins cannot raise their own permissions or switch models; bundled, project
and user skills are the machine owner's own. ``managed`` (administrator-installed) is
trusted like them. ``plugin`` and ``extra`` (directories handed in at run time,
provenance unknown) are not.
"""

_FRONTMATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)^---[ \t]*\r?$\n?", re.S | re.M)
_YAML_KEY = re.compile(r"^[A-Za-z_][\w-]*\s*:")
_SKILL_DIR_VAR = re.compile(r"\$\{(?:[A-Z][A-Z0-9]*_)*SKILL_DIR\}")
_SESSION_VAR = re.compile(r"\$\{(?:[A-Z][A-Z0-9]*_)*SESSION_ID\}")
# `!` right after a backtick or a word is prose (`` `!` `` as code, "hello!`x`"), not an injection.
_SHELL_INJECTION = re.compile(r"(?<![`\w])!`([^`\n]+)`")


@dataclass(frozen=True, slots=True)
class Invocation:
    """What an agent injects when a skill is triggered.

    Attributes:
        skill: the skill's name.
        via: which path triggered it.
        mode: ``inline`` (text joins the main conversation) or ``fork`` (text goes to a sub-agent).
        text: the expanded prompt: ``<skill name="…">…</skill>`` on the model path, the rendered
            slash-command prompt on the user path; empty when denied.
        denied: the gate refused the call; ``reason`` is what the agent answers instead.
        reason: the refusal message, ``None`` when not denied.
        shell_injections: commands written as ``!`cmd``` in the body, in order; never executed.
        allowed_tools / model / effort / agent: the session changes the skill asks for, cleared
            when its source is not in :data:`PRIVILEGED_SOURCES`.
    """

    skill: str
    via: InvocationPath
    mode: ExecutionContext
    text: str
    denied: bool = False
    reason: str | None = None
    shell_injections: tuple[str, ...] = ()
    allowed_tools: tuple[str, ...] = ()
    model: str | None = None
    effort: str | None = None
    agent: str | None = None


def strip_frontmatter(text: str) -> str:
    """``text`` without a leading YAML frontmatter block; bodies already stripped pass unchanged.

    A leading ``---`` counts as frontmatter only when the block's first line looks like a YAML
    key, so a body that opens with a Markdown rule is left alone.
    """
    match = _FRONTMATTER.match(text)
    if match is None:
        return text
    first = next((line for line in match.group(1).splitlines() if line.strip()), "")
    return text[match.end() :].lstrip("\r\n") if _YAML_KEY.match(first) else text


def find_shell_injections(text: str) -> tuple[str, ...]:
    """The commands of every ``!`cmd``` in ``text``, in order (found, never executed)."""
    return tuple(m.group(1) for m in _SHELL_INJECTION.finditer(text))


def skill_homes() -> Mapping[SourceKind, str]:
    """Where each source kind keeps its skills on a user's machine: the folders of the first
    agent whose record has them (``AgentSpec.skill_homes``)."""
    return next(s.skill_homes for s in AGENT_SPECS.values() if s.skill_homes)


def skill_dir_of(skill: Skill) -> str:
    """The skill's home directory as the agent would expand it on a user's machine.

    A loaded skill lives under its source kind's folder in ``skill_homes()`` at the same place
    it has inside its source, so the expansion (and so every token count that includes it)
    is the same in any checkout. A skill without a source-relative path falls back to the
    folder holding its file, and to ``""`` when it has no path at all.
    """
    if skill.rel_path is not None:
        inner = posixpath.dirname(skill.rel_path)
        home = skill_homes()[skill.source]
        return f"{home}/{inner}" if inner else home
    return str(Path(skill.path).parent) if skill.path else ""


def split_args(args: str | None) -> list[str]:
    """Positional arguments as a shell would split them (plain whitespace split on bad quoting)."""
    if not args:
        return []
    try:
        return shlex.split(args)
    except ValueError:
        return args.split()


def process_invocation(
    skill: Skill,
    *,
    args: str | None,
    via: InvocationPath,
    skill_dir: str | Path | None = None,
    session_id: str | None = None,
) -> Invocation:
    """Expand ``skill`` as the agent would when it is triggered ``via`` the model or the user.

    Args:
        skill: the triggered skill; its body may still carry frontmatter.
        args: the argument string passed with the call (``None``: none).
        via: ``model`` (Skill tool) or ``user`` (a slash command).
        skill_dir: value of ``${…SKILL_DIR}``; defaults to the folder of ``skill.path``.
        session_id: value of ``${…SESSION_ID}``; left unexpanded when ``None``.
    """
    home = skill_dir_of(skill) if skill_dir is None else str(skill_dir)
    privileged = skill.source in PRIVILEGED_SOURCES
    base = Invocation(
        skill=skill.name,
        via=via,
        mode=skill.context,
        text="",
        allowed_tools=skill.allowed_tools if privileged else (),
        model=skill.model if privileged else None,
        effort=skill.effort if privileged else None,
        agent=skill.agent,
    )
    reason = _denial(skill, via)
    if reason is not None:
        return replace(base, denied=True, reason=reason)
    body = _expand_vars(strip_frontmatter(skill.read_body()), home, session_id)
    injections = find_shell_injections(body)
    if via == "model":
        text = wrap_prompt(skill.name, expand_args(body, args, skill.arguments))
    else:
        text = render_user_prompt(body, args, home)
    return replace(base, text=text, shell_injections=injections)


def expand_args(body: str, args: str | None, names: tuple[str, ...] = ()) -> str:
    """Model-path argument expansion: ``$ARGUMENTS``/``${ARGUMENTS}``, ``$1``…``$9``, ``$name``.

    One pass, so an argument containing ``$1`` is inserted verbatim, never expanded again.
    Named arguments map to positions in the order the skill's ``arguments`` declares them;
    missing positions expand to an empty string.
    """
    positional = split_args(args)
    values = {name: positional[i] if i < len(positional) else "" for i, name in enumerate(names)}
    alternatives = [r"(?P<all>\$\{ARGUMENTS\}|\$ARGUMENTS\b)", r"\$(?P<pos>[1-9])(?!\d)"]
    if values:
        named = "|".join(re.escape(n) for n in sorted(values, key=len, reverse=True))
        alternatives.append(rf"\$(?P<name>{named})(?![\w-])")
    pattern = re.compile("|".join(alternatives))

    def substitute(match: re.Match[str]) -> str:
        if match.group("all"):
            return args or ""
        if match.group("pos"):
            index = int(match.group("pos")) - 1
            return positional[index] if index < len(positional) else ""
        return values[match.group("name")]

    return pattern.sub(substitute, body)


def render_user_prompt(body: str, args: str | None, skill_dir: str) -> str:
    """User-path rendering (a slash command): base-directory prefix, ``${ARGUMENTS}``, arguments."""
    prompt = f"Base directory for this skill: {skill_dir}\n\n{body}"
    if "${ARGUMENTS}" in prompt:
        return prompt.replace("${ARGUMENTS}", args or "")
    return f"{prompt}\n\nArguments: {args}" if args else prompt


def wrap_prompt(name: str, text: str) -> str:
    """The reference ``WrapPrompt``: the expanded body inside ``<skill name="…">…</skill>``."""
    return f'<skill name="{name.replace(chr(34), "&quot;")}">\n{text.strip()}\n</skill>'


def _denial(skill: Skill, via: InvocationPath) -> str | None:
    if via == "model" and skill.disable_model_invocation:
        return (
            f"Skill {skill.name!r} has disable-model-invocation set: "
            f"only the user can run it, as /{skill.name}."
        )
    if via == "user" and not skill.user_invocable:
        return f"Skill {skill.name!r} is not user-invocable: /{skill.name} is not a command."
    return None


def _expand_vars(body: str, skill_dir: str, session_id: str | None) -> str:
    body = _SKILL_DIR_VAR.sub(lambda _: skill_dir, body)
    if session_id is not None:
        body = _SESSION_VAR.sub(lambda _: session_id, body)
    return body
