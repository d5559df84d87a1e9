"""Where the tokens of a recorded session go: each request split into the parts that cost.

Every text an agent sends is counted with the cost model's tokenizer and put into one part.
In the main conversation: the agent's own framing (``agent``: system prompt, tool
definitions, environment, reminders), the skill ``listing``, the ``conversation`` (the user's
messages and the model's answers), the skill's body as it entered the conversation
(``skill_body``) and the result of the skill call (``skill_result``: a launch notice inline,
the sub-agent's summary when forked). In a sub-agent's requests: the body it was handed
(``subagent_body``), its own prompt (``subagent_prompt``: system prompt, tools, environment,
its own listing) and what it did before answering (``subagent_work``).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from skillbench.agents import Role, Session, SessionRequest, objects
from skillbench.tokens import count_tokens
from skillbench.types import JsonObject, JsonValue

Part = Literal[
    "agent",
    "listing",
    "conversation",
    "skill_body",
    "skill_result",
    "subagent_prompt",
    "subagent_body",
    "subagent_work",
]
PARTS: tuple[Part, ...] = get_args(Part)


@dataclass(frozen=True)
class RequestTokens:
    """One request's tokens by part; ``reply`` is what the scripted model wrote back."""

    turn: int
    role: Role
    parts: Mapping[Part, int]
    reply: int

    @property
    def total(self) -> int:
        return sum(self.parts.values())

    def __getitem__(self, part: Part) -> int:
        return self.parts.get(part, 0)


@dataclass(frozen=True)
class Marks:
    """How to recognise the parts of a request.

    Attributes:
        listing: returns the listing block of a request body (``None``: it carries none).
        body_mark: a line of the skill's body that only the body contains.
        skill_tool: the tool whose call runs a skill.
        prompts: the user's messages of the session.
    """

    listing: Callable[[JsonObject], str | None]
    body_mark: str
    skill_tool: str
    prompts: frozenset[str]


def _texts(content: JsonValue) -> list[str]:
    if isinstance(content, str):
        return [content]
    return [str(b.get("text", "")) for b in objects(content) if b.get("type") == "text"]


def _pieces(body: JsonObject, role: Role, marks: Marks) -> Iterator[tuple[Part, str]]:
    """Every text of ``body`` with the part it belongs to."""
    sub = role == "subagent"
    framing: Part = "subagent_prompt" if sub else "agent"
    for text in _texts(body.get("system")):
        yield framing, text
    for tool in objects(body.get("tools")):
        yield framing, json.dumps(tool, ensure_ascii=False)
    listing = marks.listing(body)
    skill_calls: set[str] = set()
    for message in objects(body.get("messages")):
        spoken = message.get("role") == "assistant"
        content = message.get("content")
        wrapped: list[JsonObject] = [{"type": "text", "text": content}]
        blocks = wrapped if isinstance(content, str) else objects(content)
        for block in blocks:
            kind = block.get("type")
            if kind == "tool_use":
                if block.get("name") == marks.skill_tool:
                    skill_calls.add(str(block.get("id")))
                call = {"name": block.get("name"), "input": block.get("input")}
                yield ("subagent_work" if sub else "conversation"), json.dumps(call)
            elif kind == "tool_result":
                result = "\n".join(_texts(block.get("content")))
                ours = block.get("tool_use_id") in skill_calls
                yield (
                    ("subagent_work" if sub else "skill_result" if ours else "conversation"),
                    (result),
                )
            elif kind == "text":
                yield from _text_piece(str(block.get("text", "")), spoken, sub, listing, marks)


def _text_piece(
    text: str, spoken: bool, sub: bool, listing: str | None, marks: Marks
) -> Iterator[tuple[Part, str]]:
    """The parts of one text block; the listing is taken out first, so a body line quoted
    in a skill's description never turns the listing into the body."""
    framing: Part = "subagent_prompt" if sub else "agent"
    if spoken:
        yield ("subagent_work" if sub else "conversation"), text
        return
    if listing and listing in text:
        yield (framing if sub else "listing"), listing
        text = text.replace(listing, "", 1)
    if marks.body_mark and marks.body_mark in text:
        yield ("subagent_body" if sub else "skill_body"), text
    elif text.strip() in marks.prompts:
        yield ("subagent_work" if sub else "conversation"), text
    else:
        yield framing, text


def attribute_request(request: SessionRequest, marks: Marks, model: str) -> RequestTokens:
    """The tokens of one request by part, counted with ``model``'s tokenizer."""
    parts: Counter[Part] = Counter()
    for part, text in _pieces(request.recorded.body, request.role, marks):
        parts[part] += count_tokens(text, model)
    reply = request.reply
    written = reply.text if reply.tool is None else reply.raw_arguments
    return RequestTokens(request.turn, request.role, dict(parts), count_tokens(written, model))


def attribute_session(session: Session, marks: Marks, model: str) -> list[RequestTokens]:
    """Every request of ``session`` by part."""
    return [attribute_request(r, marks, model) for r in session.requests]


@dataclass(frozen=True)
class ModeCost:
    """What one way of running a skill cost in a session.

    Attributes:
        fixed: paid once: the sub-agent's requests and the summary it wrote (0 inline).
        carried: the skill's share of each main request from the call on (body and launch
            notice inline, the summary forked): one entry per remaining turn, the call's
            own turn first.
        subagent_prompt / subagent_body / subagent_work / summary_written: the parts of
            ``fixed``.
        body: the body's tokens as the agent injected it (in the main conversation inline,
            in the sub-agent's request forked).
    """

    fixed: int
    carried: tuple[int, ...]
    subagent_prompt: int
    subagent_body: int
    subagent_work: int
    summary_written: int
    body: int

    def total(self, remaining: int) -> int:
        """Tokens over ``remaining`` turns; past the measured ones each adds the last turn's."""
        seen = self.carried[:remaining]
        extra = (remaining - len(seen)) * (self.carried[-1] if self.carried else 0)
        return self.fixed + sum(seen) + extra


def mode_cost(tokens: Sequence[RequestTokens]) -> ModeCost:
    """The skill's cost in one session: sub-agent requests once, its share of each later
    main request (only requests that already carry the skill's result count)."""
    sub = [t for t in tokens if t.role == "subagent"]
    main = [t for t in tokens if t.role == "main" and t["skill_result"]]
    first = sub[0] if sub else None
    prompt = first["subagent_prompt"] if first else 0
    body = first["subagent_body"] if first else max((t["skill_body"] for t in main), default=0)
    written = sub[-1].reply if sub else 0
    fixed = sum(t.total for t in sub) + written
    return ModeCost(
        fixed=fixed,
        carried=tuple(t["skill_body"] + t["skill_result"] for t in main),
        subagent_prompt=prompt,
        subagent_body=body if sub else 0,
        subagent_work=fixed - prompt - (body if sub else 0) - written,
        summary_written=written,
        body=body,
    )


def measured_break_even(inline: ModeCost, fork: ModeCost, limit: int = 1000) -> int | None:
    """Fewest remaining turns at which the fork session used fewer tokens (``None``: never
    within ``limit``; past the measured turns each turn adds the last measured one)."""
    return next(
        (r for r in range(1, limit + 1) if fork.total(r) < inline.total(r)),
        None,
    )
