"""The inline-versus-fork token model for one triggered skill (formulas in docs/cost.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from skillbench.catalog import ExecutionContext, Skill
from skillbench.cost._invocation import InvocationPath, process_invocation
from skillbench.cost._pricing import Pricing
from skillbench.tokens import DEFAULT_TOKEN_MODEL, count_tokens

Mode = Literal["inline", "fork"]

MODELLED = "modelled"
"""``CostModel.basis`` of the defaults (or of constants given by hand)."""


@dataclass(frozen=True, slots=True)
class CostModel:
    """Assumptions behind every cost figure.

    Attributes:
        model: tokenizer and price list (a key of litellm's cost map).
        fork_system_prompt_tokens: the sub-agent's own system prompt.
        fork_work_tokens: what the sub-agent spends beyond its prompt and summary, mostly
            re-reading what the main context already knew (files, repo layout). Work the task
            needs in either mode is left out of both sides.
        summary_tokens: the sub-agent's final answer returned to the main context (the reference
            pipeline cuts results to a 200-token summary). A measured size overrides it per
            decision.
        horizon: remaining turns to assume for every decision; ``None`` takes them from the
            requests' sessions.
        body_overhead_tokens: what the agent adds around a body it injects, beyond the
            reference ``<skill>`` wrapper counted in B (a base-directory line, a launch
            notice); negative when it adds less. Measured by a calibration, else 0.
        fork_system_prompt_by_agent: the sub-agent's system prompt per sub-agent type (a
            skill's ``agent`` field), where it differs from ``fork_system_prompt_tokens``;
            pairs, so the model stays hashable.
        fork_requests: the requests the sub-agent sends; each re-sends its prompt and task
            (P + Q). A calibration measures it (a tool call costs one more request).
        fork_body_requests: how many of them carry the body B.
        basis: what the fork constants rest on: ``modelled`` (defaults or given by hand) or
            ``measured on AGENT VERSION`` (a calibration, see ``skillbench cost --measure``).
    """

    model: str = DEFAULT_TOKEN_MODEL
    fork_system_prompt_tokens: int = 1000
    fork_work_tokens: int = 1000
    summary_tokens: int = 200
    horizon: int | None = None
    body_overhead_tokens: int = 0
    fork_system_prompt_by_agent: tuple[tuple[str, int], ...] = ()
    fork_requests: int = 1
    fork_body_requests: int = 1
    basis: str = MODELLED

    def __post_init__(self) -> None:
        for name in ("fork_system_prompt_tokens", "fork_work_tokens", "summary_tokens"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must be >= 0")
        if self.horizon is not None and self.horizon < 1:
            raise ValueError("horizon must be >= 1")

    def system_prompt_tokens(self, skill: Skill) -> int:
        """P for ``skill``: its sub-agent type's when known, else the general one."""
        by_agent = dict(self.fork_system_prompt_by_agent)
        return by_agent.get(skill.agent or "", self.fork_system_prompt_tokens)

    def decision(
        self,
        skill: Skill,
        *,
        remaining_turns: int,
        args: str | None = None,
        request: str = "",
        via: InvocationPath = "model",
        session_id: str | None = None,
        summary_tokens: int | None = None,
    ) -> DecisionCost:
        """Cost of triggering ``skill`` with ``remaining_turns`` turns left (current one included).

        A denied call costs its refusal message in the main context, whatever the mode.
        """
        invocation = process_invocation(skill, args=args, via=via, session_id=session_id)
        text = invocation.reason if invocation.denied else invocation.text
        body = count_tokens(text or "", self.model)
        return DecisionCost(
            body_tokens=body if invocation.denied else max(0, body + self.body_overhead_tokens),
            request_tokens=count_tokens(request, self.model),
            remaining_turns=remaining_turns,
            declared=skill.context,
            system_tokens=self.system_prompt_tokens(skill),
            work_tokens=self.fork_work_tokens,
            summary_tokens=self.summary_tokens if summary_tokens is None else summary_tokens,
            requests=self.fork_requests,
            body_requests=self.fork_body_requests,
            denied=invocation.denied,
            shell_injections=invocation.shell_injections,
        )


@dataclass(frozen=True, slots=True)
class DecisionCost:
    """Token counts of one triggered skill in both modes.

    ``body_tokens`` is the wrapped, expanded body (B), ``remaining_turns`` R counts the current
    turn; S = summary, P = system prompt, Q = request, W = work; the sub-agent sends
    ``requests`` (n) requests, ``body_requests`` (m) of them carrying B.
    """

    body_tokens: int
    request_tokens: int
    remaining_turns: int
    declared: ExecutionContext
    system_tokens: int
    work_tokens: int
    summary_tokens: int
    requests: int = 1
    body_requests: int = 1
    denied: bool = False
    shell_injections: tuple[str, ...] = ()

    @property
    def inline_tokens(self) -> int:
        """B × R: the body stays in the main context for every remaining turn."""
        return self.body_tokens * self.remaining_turns

    @property
    def fork_subagent_tokens(self) -> int:
        """n(P + Q) + mB + W + S: the sub-agent's prompt and task in each of its requests,
        the body in those that carry it, its work and the summary it writes."""
        if self.denied:
            return 0
        return (
            self.requests * (self.system_tokens + self.request_tokens)
            + self.body_requests * self.body_tokens
            + self.work_tokens
            + self.summary_tokens
        )

    @property
    def fork_main_tokens(self) -> int:
        """S × R: only the summary reaches the main context (the refusal, when denied)."""
        carried = self.body_tokens if self.denied else self.summary_tokens
        return carried * self.remaining_turns

    @property
    def fork_tokens(self) -> int:
        return self.fork_subagent_tokens + self.fork_main_tokens

    def tokens(self, mode: Mode) -> int:
        """All tokens of ``mode``."""
        return self.inline_tokens if mode == "inline" else self.fork_tokens

    def main_tokens(self, mode: Mode) -> int:
        """Main-context tokens of ``mode``."""
        return self.inline_tokens if mode == "inline" else self.fork_main_tokens

    @property
    def declared_tokens(self) -> int:
        return self.tokens(self.declared)

    def dollars(self, pricing: Pricing, mode: Mode, *, cache: bool = False) -> float:
        """Dollars of ``mode``; with ``cache`` carried tokens are cache reads after the first turn.

        The sub-agent's prompt and work are priced as uncached input, its summary once as output.
        """
        if mode == "inline" or self.denied:
            return pricing.carried(self.body_tokens, self.remaining_turns, cache=cache)
        subagent = self.fork_subagent_tokens - self.summary_tokens
        return (
            subagent * pricing.input
            + self.summary_tokens * pricing.output
            + pricing.carried(self.summary_tokens, self.remaining_turns, cache=cache)
        )


def break_even_turns(cost: DecisionCost) -> int | None:
    """Fewest remaining turns at which fork uses fewer tokens than inline; ``None``: never.

    Fork wins when R·B > F + S·R with F = n(P + Q) + mB + W + S, i.e. R > F / (B − S);
    a body no larger than the summary never pays for a sub-agent.
    """
    gain = cost.body_tokens - cost.summary_tokens
    if cost.denied or gain <= 0:
        return None
    return cost.fork_subagent_tokens // gain + 1


def recommend(cost: DecisionCost, horizon: int) -> Mode:
    """``fork`` when it is cheaper within ``horizon`` remaining turns, else ``inline``."""
    turns = break_even_turns(cost)
    return "fork" if turns is not None and turns <= horizon else "inline"
