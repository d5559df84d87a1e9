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

from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from skillbench.agents import Role, Session, SessionRequest, conversation
from skillbench.agentspec import ApiShape
from skillbench.tokens import count_tokens
from skillbench.types import JsonObject

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
        api: the API the agent speaks (how its requests hold calls and results).
        listing: returns the listing block of a request body (``None``: it carries none).
        body_mark: a line of the skill's body that only the body contains.
        skill_tools: the tools whose result carries a skill or its sub-agent's summary (the
            skill tool, and the tool a task is handed to a sub-agent with).
        prompts: the user's messages of the session.
    """

    api: ApiShape
    listing: Callable[[JsonObject], str | None]
    body_mark: str
    skill_tools: frozenset[str]
    prompts: frozenset[str]


def _pieces(body: JsonObject, role: Role, marks: Marks) -> Iterator[tuple[Part, str]]:
    """Every text of ``body`` with the part it belongs to."""
    sub = role == "subagent"
    work: Part = "subagent_work" if sub else "conversation"
    listing = marks.listing(body)
    for block in conversation(marks.api, body):
        if block.role == "tools":
            yield ("subagent_prompt" if sub else "agent"), block.text
        elif block.kind == "call":
            yield work, block.text
        elif block.kind == "result":
            yield _result_part(block.text, block.tool in marks.skill_tools, sub, marks), block.text
        else:
            spoken = block.role == "assistant"
            yield from _text_piece(block.text, spoken, sub, listing, marks)


def _result_part(text: str, ours: bool, sub: bool, marks: Marks) -> Part:
    """A tool result's part: the skill's body when a skill call returned it (inline, or to a
    sub-agent that called the skill itself), the launch notice or summary of a skill call,
    else work or conversation."""
    if ours and marks.body_mark and marks.body_mark in text:
        return "subagent_body" if sub else "skill_body"
    if sub:
        return "subagent_work"
    return "skill_result" if ours else "conversation"


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
    elif text.strip().strip('"') in marks.prompts:
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
        subagent_prompt: the sub-agent's first request without the body (its system prompt,
            tools, environment, listing and task), re-sent by each of its ``requests``.
        subagent_body: the body it was handed, carried by ``body_requests`` of its requests.
        subagent_work: the rest of ``fixed``: its tool calls and their results, its texts.
        summary_written: the summary it wrote.
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
    requests: int = 1
    body_requests: int = 1

    def total(self, remaining: int) -> int:
        """Tokens over ``remaining`` turns; past the measured ones each adds the last turn's."""
        seen = self.carried[:remaining]
        extra = (remaining - len(seen)) * (self.carried[-1] if self.carried else 0)
        return self.fixed + sum(seen) + extra


def mode_cost(tokens: Sequence[RequestTokens]) -> ModeCost:
    """The skill's cost in one session: sub-agent requests once, its share of each later
    main request (only requests that already carry the skill's result count)."""
    sub = [t for t in tokens if t.role == "subagent"]
    main = [t for t in tokens if t.role == "main" and (t["skill_result"] or t["skill_body"])]
    prompt = sub[0]["subagent_prompt"] if sub else 0
    with_body = [t["subagent_body"] for t in sub if t["subagent_body"]]
    body = with_body[0] if with_body else max((t["skill_body"] for t in main), default=0)
    written = sub[-1].reply if sub else 0
    fixed = sum(t.total for t in sub) + written
    return ModeCost(
        fixed=fixed,
        carried=tuple(t["skill_body"] + t["skill_result"] for t in main),
        subagent_prompt=prompt,
        subagent_body=body if sub else 0,
        subagent_work=fixed - len(sub) * prompt - len(with_body) * body - written,
        summary_written=written,
        body=body,
        requests=len(sub),
        body_requests=len(with_body),
    )


def measured_break_even(inline: ModeCost, fork: ModeCost, limit: int = 1000) -> int | None:
    """Fewest remaining turns at which the fork session used fewer tokens (``None``: never
    within ``limit``; past the measured turns each turn adds the last measured one)."""
    return next(
        (r for r in range(1, limit + 1) if fork.total(r) < inline.total(r)),
        None,
    )
