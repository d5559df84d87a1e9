"""The prompt an agent of each profile would send: where the listing goes and which tools exist.

codebot and agents placing the listing as a ``reminder`` keep the system prompt stable (it is
prompt-cached) and put the listing in a per-turn ``<system-reminder>`` before the user's
message (the reference pipeline's ``BuildReminders``); most other agents put it in the system
prompt. An agent with no skill tool (``Live.skill_tool`` None) lists each skill's
``SKILL.md`` path and a trigger is the model reading that file; where a ``$name`` mention
injects (``Live.mention_injects``), the agent adds the named skill's file as a user message
itself.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from skillbench._errors import SkillbenchError
from skillbench.catalog import Skill
from skillbench.listing import PROFILES, Trigger, resolve_snapshot
from skillbench.selectors._types import Query

DEFAULT_SYSTEM_PROMPT = (
    "You are an interactive coding agent working in the user's repository. Use the available "
    "tools to help with software engineering tasks; answer directly when no tool is needed."
)

SKILL_TOOL_DESCRIPTION = (
    "Execute a skill within the main conversation.\n\n"
    "When users ask you to perform tasks, check whether any of the available skills listed "
    "for this conversation matches. Skills provide specialized capabilities and domain "
    "knowledge.\n\n"
    "When a matching skill exists, this is a BLOCKING REQUIREMENT: invoke this tool BEFORE "
    "generating any other response about the task.\n\n"
    "IMPORTANT: Only use this tool for skills listed as available. Never guess or invent a "
    "skill name that is not listed, and do not use it for built-in CLI commands."
)
"""Seed 000's ``SkillTool.Description()``: invoke before answering; never guess a name."""

SKILL_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "Skill",
        "description": SKILL_TOOL_DESCRIPTION,
        "parameters": {
            "type": "object",
            "properties": {
                "skill": {"type": "string", "description": "The skill name, exactly as listed."},
                "args": {"type": "string", "description": "Optional arguments for the skill."},
            },
            "required": ["skill"],
        },
    },
}

READ_FILE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": "read_file",
        "description": "Read a file from the local filesystem and return its contents.",
        "parameters": {
            "type": "object",
            "properties": {"path": {"type": "string", "description": "Path of the file."}},
            "required": ["path"],
        },
    },
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """One chat request: messages, tools and how a trigger shows up in the answer."""

    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    trigger: Trigger
    tool_choice: str = "auto"


def reminder(listing_text: str) -> str:
    """The listing as a ``<system-reminder>`` block; listings that carry the wrapper keep it."""
    if listing_text.lstrip().startswith("<system-reminder>"):
        return listing_text
    return f"<system-reminder>\n{listing_text}\n</system-reminder>"


MENTION = re.compile(r"\$([A-Za-z0-9_:-]+)")
"""A ``$name`` mention: the name runs over ASCII letters, digits, ``_``, ``-`` and ``:``."""


def injected_skills(query: Query) -> list[str]:
    """The ``<skill>`` messages an agent whose mentions inject adds after the request: one
    per skill named by a ``$name`` mention that names exactly one listed or budget-dropped
    skill, in listing order, each with the path the listing gives and the whole
    ``SKILL.md``."""
    named = set(MENTION.findall(query.request.text))
    if not named:
        return []
    known = [e for e in query.listing.entries if e.status != "hidden"]
    counts = Counter(e.name for e in known)
    return [
        f"<skill>\n<name>{e.name}</name>\n<path>{e.path or e.skill.path}</path>\n"
        f"{_skill_file(e.skill)}\n</skill>"
        for e in known
        if e.name in named and counts[e.name] == 1
    ]


def _skill_file(skill: Skill) -> str:
    """The skill's ``SKILL.md`` as on disk (its body when the file cannot be read)."""
    if skill.path:
        try:
            return Path(skill.path).read_text(encoding="utf-8")
        except OSError:
            pass
    return skill.read_body()


PromptStyle = Literal["skillbench", "agent"]
"""``skillbench``: skillbench's own system prompt and Skill tool, the listing placed where the
agent places it; ``agent``: the agent's own request as captured (its system prompt, tools and
framing, from the agent snapshot), only the listing and the user's message changed."""


def agent_prompt(query: Query) -> Prompt:
    """The verified agent's own request for this query, translated to chat as litellm
    translates it (Anthropic Messages, OpenAI Responses, … as the agent's ``Wire.api``)."""
    from skillbench.agents import fill_template, responses_tools

    profile = PROFILES.get(query.listing.profile)
    if profile.agent_version is None:
        raise SkillbenchError(
            f"prompt: agent needs a profile verified against a shipped agent, not {profile.name!r}"
        )
    snapshot = resolve_snapshot("auto", profile.agent, profile.agent_version)
    if snapshot is None:
        raise SkillbenchError(
            f"prompt: agent needs the snapshot of {profile.agent} {profile.agent_version}: "
            f"run `skillbench capture {profile.agent}` with that version installed once"
        )
    body = fill_template(snapshot, query.listing.text, query.request.text)
    if "input" in body:
        from litellm.responses.litellm_completion_transformation.transformation import (
            LiteLLMCompletionResponsesConfig as Responses,
        )

        tools, items = responses_tools(body)
        messages = Responses.transform_responses_api_input_to_messages(items, {})  # type: ignore[arg-type]
        chat_tools, _ = Responses.transform_responses_api_tools_to_chat_completion_tools(tools)
        return Prompt(_plain(messages), _plain(chat_tools), profile.trigger)
    from litellm.llms.anthropic.messages.adapters.transformation import (
        LiteLLMAnthropicMessagesAdapter,
    )

    request, _ = LiteLLMAnthropicMessagesAdapter().translate_anthropic_to_openai(
        {"model": "agent", "max_tokens": 1, **body}  # type: ignore[typeddict-item]
    )
    return Prompt(_plain(request["messages"]), _plain(request.get("tools") or []), profile.trigger)


def _plain(value: Any) -> Any:
    """litellm's typed records as plain JSON data (what the cache key and the call take)."""
    return json.loads(json.dumps(value, default=lambda o: getattr(o, "model_dump", dict)(o)))


def build_prompt(
    query: Query, system_prompt: str = DEFAULT_SYSTEM_PROMPT, style: PromptStyle = "skillbench"
) -> Prompt:
    """The messages and tools an agent of ``query.listing.profile`` sends for this request."""
    if style == "agent":
        return agent_prompt(query)
    listing = query.listing.text
    text = query.request.text
    profile = PROFILES.get(query.listing.profile)
    if profile.placement == "reminder":
        user = f"{reminder(listing)}\n{text}" if listing else text
        system = system_prompt
    elif profile.placement == "system_message":
        user, system = text, system_prompt
    else:
        user = text
        system = f"{system_prompt}\n\n{listing}" if listing else system_prompt
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    if profile.placement == "system_message" and listing:
        messages.append({"role": "system", "content": listing})
    if profile.mention == "inject_skill":
        messages += [{"role": "user", "content": text} for text in injected_skills(query)]
    if profile.trigger == "file_read":
        return Prompt(messages, [READ_FILE_TOOL], "file_read")
    return Prompt(messages, [SKILL_TOOL], "skill_tool")
