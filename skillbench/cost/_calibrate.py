"""The cost model's fork constants calibrated from measured sessions, per agent and version.

A calibration lives next to the agent's snapshot in the user's cache
(``<cache>/agents/AGENT/VERSION/fork-cost.json``), never in the repository: it is read from
the installed agent. ``skillbench cost`` and the run's cost annotations use it for a profile
verified against that agent version and say so; without one they use the modelled defaults.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from statistics import mean

from skillbench._errors import InputError, Location, SkillbenchError
from skillbench._output import write_atomic
from skillbench.catalog import ExecutionContext
from skillbench.cost._attribute import measured_break_even
from skillbench.cost._measure import SkillMeasurement
from skillbench.cost._model import CostModel, DecisionCost, break_even_turns
from skillbench.listing import PROFILES, snapshot_path

CALIBRATION_FILE = "fork-cost.json"
FORK_CONSTANTS = ("fork_system_prompt_tokens", "fork_work_tokens", "summary_tokens")
"""The ``CostModel`` fields a calibration sets; one given by hand turns calibration off."""


@dataclass(frozen=True)
class ForkCalibration:
    """Fork constants measured on one agent version (means over the measured skills).

    Attributes:
        fork_system_prompt_tokens: the sub-agent's first request without the skill body,
            for a skill that names no sub-agent type (all skills when none does so).
        fork_system_prompt_by_agent: the same per sub-agent type a skill names (``agent``).
        body_overhead_tokens: the body as carried inline minus the model's B (``<skill>``
            wrapped), on average.
        fork_work_tokens: the sub-agent's tokens beyond its prompt and task in each request,
            the body in each request carrying it, and its summary: its tool calls and their
            results.
        summary_tokens: the skill call's result carried by each later main request.
        fork_requests / fork_body_requests: the sub-agent's requests, and those carrying the
            body (the most seen over the measured skills).
        fork: how the fork side ran: ``context`` (the skill declared ``context: fork``) or
            the tool a task was handed to a sub-agent with.
        tokenizer: the model whose tokenizer counted them.
        skills: the skills measured.
    """

    agent: str
    version: str
    tokenizer: str
    fork_system_prompt_tokens: int
    fork_system_prompt_by_agent: dict[str, int]
    body_overhead_tokens: int
    fork_work_tokens: int
    summary_tokens: int
    skills: tuple[str, ...]
    follow_ups: int
    fork_requests: int = 1
    fork_body_requests: int = 1
    fork: str = "context"

    @property
    def basis(self) -> str:
        """What a cost figure resting on this calibration says it rests on."""
        return f"measured on {self.agent} {self.version}"

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, origin: str) -> ForkCalibration:
        try:
            data = json.loads(text)
            return cls(**{**data, "skills": tuple(data["skills"])})
        except (ValueError, KeyError, TypeError) as exc:
            raise InputError(Location(origin), f"not a fork-cost calibration: {exc}") from None


def calibrate(measurements: Sequence[SkillMeasurement], tokenizer: str) -> ForkCalibration:
    """The constants that make the model reproduce ``measurements`` on average."""
    plain = CostModel(model=tokenizer)
    if not measurements:
        raise SkillbenchError("nothing measured to calibrate from")
    first = measurements[0]
    forks = [m.fork for m in measurements]
    prompts: dict[str, list[int]] = defaultdict(list)
    for m in measurements:
        kind = (m.skill.agent or "") if m.fork_via == "context" else ""  # a delegate's is fixed
        prompts[kind].append(m.fork.subagent_prompt - _request(plain, m))
    general = prompts.get("") or [v for values in prompts.values() for v in values]
    requests = max(f.requests for f in forks)
    body_requests = max(f.body_requests for f in forks)
    return ForkCalibration(
        agent=first.agent,
        version=first.version,
        tokenizer=tokenizer,
        fork_system_prompt_tokens=round(mean(general)),
        fork_system_prompt_by_agent={k: round(mean(v)) for k, v in sorted(prompts.items()) if k},
        body_overhead_tokens=round(
            mean(m.inline.carried[0] - _body(plain, m) for m in measurements)
        ),
        fork_work_tokens=max(
            0, round(mean(_work(m, requests, body_requests) for m in measurements))
        ),
        summary_tokens=round(mean(c for f in forks for c in f.carried)),
        skills=tuple(m.skill.name for m in measurements),
        follow_ups=len(first.fork.carried) - 1,
        fork_requests=requests,
        fork_body_requests=body_requests,
        fork=first.fork_via,
    )


def _request(model: CostModel, measured: SkillMeasurement) -> int:
    """The model's Q for the measured call: its prompt P is measured with Q in it."""
    return model.decision(
        measured.skill, remaining_turns=1, request=measured.request
    ).request_tokens


def _work(measured: SkillMeasurement, requests: int, body_requests: int) -> int:
    """W of one measured skill: the sub-agent's tokens the other terms leave, its prompt,
    body and summary counted as the calibrated model counts them (the body as carried
    inline, the summary as carried back)."""
    fork = measured.fork
    return (
        fork.fixed
        - requests * fork.subagent_prompt
        - body_requests * measured.inline.carried[0]
        - round(mean(fork.carried))
    )


def _body(model: CostModel, measured: SkillMeasurement) -> int:
    """The model's B for the measured call (same arguments)."""
    return model.decision(measured.skill, remaining_turns=1, args=measured.args).body_tokens


def calibration_path(agent: str, version: str, root: Path | None = None) -> Path:
    return snapshot_path(agent, version, root).parent / CALIBRATION_FILE


def save_calibration(calibration: ForkCalibration, root: Path | None = None) -> Path:
    """Write ``calibration`` into the agent version's cache folder (atomically)."""
    path = calibration_path(calibration.agent, calibration.version, root)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, calibration.to_json())
    return path


def load_calibration(agent: str, version: str, root: Path | None = None) -> ForkCalibration | None:
    """The stored calibration of ``agent`` ``version`` (``None``: never measured)."""
    path = calibration_path(agent, version, root)
    if not path.is_file():
        return None
    return ForkCalibration.from_json(path.read_text(encoding="utf-8"), str(path))


def calibrated(model: CostModel, calibration: ForkCalibration | None) -> CostModel:
    """``model`` with the measured fork constants (unchanged without a calibration)."""
    if calibration is None:
        return model
    return replace(
        model,
        fork_system_prompt_tokens=calibration.fork_system_prompt_tokens,
        fork_system_prompt_by_agent=tuple(calibration.fork_system_prompt_by_agent.items()),
        body_overhead_tokens=calibration.body_overhead_tokens,
        fork_work_tokens=calibration.fork_work_tokens,
        summary_tokens=calibration.summary_tokens,
        fork_requests=calibration.fork_requests,
        fork_body_requests=calibration.fork_body_requests,
        basis=calibration.basis,
    )


@dataclass(frozen=True)
class SkillCostCheck:
    """One skill: measured totals over each horizon beside the model's, and the break-evens.

    ``horizons`` count follow-up turns; each total covers the call's own turn too.
    ``*_modelled`` use the model as given, ``*_calibrated`` the calibrated constants;
    ``break_even_given_body`` the calibrated constants with the skill's body as the agent
    carried it (B measured, not modelled): it tests the fork constants alone, since a few
    tokens of B move a break-even far when B is barely larger than the summary.
    """

    name: str
    declared: ExecutionContext
    body_measured: int
    body_modelled: int
    horizons: tuple[int, ...]
    inline_measured: tuple[int, ...]
    inline_modelled: tuple[int, ...]
    fork_measured: tuple[int, ...]
    fork_modelled: tuple[int, ...]
    inline_calibrated: tuple[int, ...]
    fork_calibrated: tuple[int, ...]
    break_even_measured: int | None
    break_even_modelled: int | None
    break_even_calibrated: int | None
    break_even_given_body: int | None


def compare(
    measured: SkillMeasurement,
    model: CostModel,
    calibration: ForkCalibration,
    horizons: Sequence[int],
) -> SkillCostCheck:
    """Measured versus modelled for one skill at each horizon of follow-up turns."""
    tuned = calibrated(model, calibration)

    def decision(cost_model: CostModel, follow_ups: int) -> DecisionCost:
        return cost_model.decision(
            measured.skill,
            remaining_turns=follow_ups + 1,
            args=measured.args,
            request=measured.request,
        )

    plain = [decision(model, h) for h in horizons]
    tuned_costs = [decision(tuned, h) for h in horizons]
    return SkillCostCheck(
        name=measured.skill.name,
        declared=measured.skill.context,
        body_measured=measured.inline.carried[0],
        body_modelled=plain[0].body_tokens,
        horizons=tuple(horizons),
        inline_measured=tuple(measured.inline.total(h + 1) for h in horizons),
        inline_modelled=tuple(c.inline_tokens for c in plain),
        fork_measured=tuple(measured.fork.total(h + 1) for h in horizons),
        fork_modelled=tuple(c.fork_tokens for c in plain),
        inline_calibrated=tuple(c.inline_tokens for c in tuned_costs),
        fork_calibrated=tuple(c.fork_tokens for c in tuned_costs),
        break_even_measured=measured_break_even(measured.inline, measured.fork),
        break_even_modelled=break_even_turns(decision(model, 0)),
        break_even_calibrated=break_even_turns(decision(tuned, 0)),
        break_even_given_body=break_even_turns(
            replace(decision(tuned, 0), body_tokens=measured.inline.carried[0])
        ),
    )


def misses(measurements: Sequence[SkillMeasurement], model: CostModel) -> list[str]:
    """What the model's constants got wrong, in words, from the measurements' means."""
    forks = [m.fork for m in measurements]
    body_in = mean(m.inline.carried[0] for m in measurements)
    body_model = mean(_body(model, m) for m in measurements)
    prompt = mean(f.subagent_prompt for f in forks)
    types: dict[str, list[int]] = defaultdict(list)
    for m in measurements:
        types[m.skill.agent or "no agent:"].append(m.fork.subagent_prompt)
    by_type = ", ".join(f"{k} {mean(v):.0f}" for k, v in sorted(types.items()))
    work = mean(f.subagent_work for f in forks)
    summary = mean(c for f in forks for c in f.carried)
    request = mean(
        model.decision(m.skill, remaining_turns=1, request=m.request).request_tokens
        for m in measurements
    )
    seen = sum(m.subagent_sees_request for m in measurements)
    return [
        f"sub-agent prompt P: modelled {model.fork_system_prompt_tokens}, measured "
        f"{prompt:.0f} on average ({by_type}): its system prompt, tool definitions, "
        "environment and own skill listing",
        f"sub-agent work W: modelled {model.fork_work_tokens}, measured {work:.0f} beyond its "
        "prompt and body in each request (its tool calls and their results; each call also "
        "re-sends the prompt, counted in n)",
        f"summary carried S: modelled {model.summary_tokens}, measured {summary:.0f} per turn "
        "(the sub-agent's answer inside the agent's completion notice)",
        f"body B per turn: modelled {body_model:.0f} (wrapped in <skill>), measured "
        f"{body_in:.0f} (the agent's base-directory line and launch notice instead)",
        f"request Q: modelled {request:.0f} in the sub-agent's prompt; the user's request "
        f"reached the sub-agent in {seen} of {len(measurements)} measured skills",
    ]


def profile_calibration(profile: str, model: CostModel, root: Path | None = None) -> CostModel:
    """``model`` calibrated for ``profile``'s verified agent version when it was measured."""
    resolved = PROFILES.get(profile)
    if resolved.agent_version is None:
        return model
    return calibrated(model, load_calibration(resolved.agent, resolved.agent_version, root))
