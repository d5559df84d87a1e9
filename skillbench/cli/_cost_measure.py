"""``skillbench cost --measure AGENT``: measured inline and fork tokens beside the model's."""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict
from typing import TYPE_CHECKING, NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.cli._common import EXIT_OK
from skillbench.types import JsonObject

if TYPE_CHECKING:
    from skillbench.cost import CostModel, ForkCalibration, SkillCostCheck


class MeasureReport(NamedTuple):
    """What ``cost --measure`` prints: the calibration beside the model it corrects, each
    skill's comparison, the model's misses and the skills left out."""

    tokenizer: str
    model: CostModel
    calibration: ForkCalibration
    calibration_path: str
    skills: list[SkillCostCheck]
    misses: list[str]
    skipped: dict[str, str]

    def to_json(self) -> JsonObject:
        """The ``--format json`` document."""
        model = self.model
        return {
            "agent": self.calibration.agent,
            "version": self.calibration.version,
            "tokenizer": self.tokenizer,
            "modelled": {
                "fork_system_prompt_tokens": model.fork_system_prompt_tokens,
                "fork_work_tokens": model.fork_work_tokens,
                "summary_tokens": model.summary_tokens,
            },
            "calibration": asdict(self.calibration),
            "calibration_path": self.calibration_path,
            "skills": [asdict(s) for s in self.skills],
            "misses": list(self.misses),
            "skipped": dict(self.skipped),
        }


def run_measure(args: argparse.Namespace) -> int:
    from skillbench.agents import AGENTS, find_executable
    from skillbench.catalog import load_catalog
    from skillbench.cli._cost import fork_overrides
    from skillbench.cost import (
        CostModel,
        calibrate,
        compare,
        measure_skill,
        misses,
        save_calibration,
        unmeasurable,
    )

    catalog = load_catalog(args.sources, profile=args.profile, cwd=args.cwd)
    skills = list(catalog.skills)
    skipped: dict[str, str] = {}
    if args.skill:
        by_name = {s.name: s for s in skills}
        unknown = [n for n in args.skill if n not in by_name]
        if unknown:
            raise SkillbenchError(f"--skill {', '.join(unknown)}: not in the catalog")
        skills = [by_name[n] for n in dict.fromkeys(args.skill)]
        for skill in skills:
            reason = unmeasurable(skill)
            if reason is not None:
                raise SkillbenchError(f"--skill {skill.name}: {reason}")
    else:
        skipped = {s.name: r for s in skills if (r := unmeasurable(s)) is not None}
        skills = [s for s in skills if s.name not in skipped]
        for name, reason in skipped.items():
            print(f"skipped {name}: {reason}", file=sys.stderr)
    if not skills:
        raise SkillbenchError("no skill to measure")
    find_executable(AGENTS.get(args.measure))
    model = CostModel(model=args.model, **fork_overrides(args))
    measured = []
    for number, skill in enumerate(skills, 1):
        start = time.monotonic()
        measured.append(
            measure_skill(args.measure, skill, follow_ups=max(args.follow_ups), model=args.model)
        )
        took = time.monotonic() - start
        print(f"[{number}/{len(skills)}] {skill.name}: {took:.0f} s", file=sys.stderr, flush=True)
    calibration = calibrate(measured, args.model)
    path = save_calibration(calibration)
    report = MeasureReport(
        args.model,
        model,
        calibration,
        str(path),
        [compare(m, model, calibration, args.follow_ups) for m in measured],
        misses(measured, model),
        skipped,
    )
    print(json.dumps(report.to_json(), indent=2) if args.format == "json" else measure_text(report))
    return EXIT_OK


def _turns(value: int | None) -> str:
    return "never" if value is None else str(value)


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]


def _via(fork: str) -> str:
    """How the fork side ran, in words."""
    if fork == "context":
        return "the skill declares context: fork"
    return f"no context: fork; the {fork} tool hands the task to a sub-agent, which calls the skill"


def measure_text(report: MeasureReport) -> str:
    """Totals per skill and horizon, the break-evens, the misses and the calibration."""
    cal, modelled = report.calibration, report.model
    by_agent = ", ".join(f"{k} {v}" for k, v in cal.fork_system_prompt_by_agent.items())
    by_agent = f"({by_agent})" if by_agent else ""
    lines = [
        f"{cal.agent} {cal.version}, tokens counted with {report.tokenizer}: "
        f"each skill run inline and forked, then {cal.follow_ups} follow-up turns; "
        "totals cover the call's own turn and T follow-ups",
        f"modelled: P {modelled.fork_system_prompt_tokens}, W "
        f"{modelled.fork_work_tokens}, S {modelled.summary_tokens}; calibrated: P "
        f"{cal.fork_system_prompt_tokens} {by_agent}, W {cal.fork_work_tokens}, S "
        f"{cal.summary_tokens}, body {cal.body_overhead_tokens:+d} over <skill>; the "
        f"sub-agent sends n {cal.fork_requests} requests, m {cal.fork_body_requests} with the "
        f"body ({_via(cal.fork)})",
        "",
    ]
    rows: list[tuple[str, ...]] = [
        (
            "SKILL",
            "DECLARED",
            "T",
            "INLINE measured",
            "modelled",
            "calibrated",
            "FORK measured",
            "modelled",
            "calibrated",
        )
    ]
    for s in report.skills:
        for i, horizon in enumerate(s.horizons):
            rows.append(
                (
                    s.name if i == 0 else "",
                    s.declared if i == 0 else "",
                    str(horizon),
                    str(s.inline_measured[i]),
                    str(s.inline_modelled[i]),
                    str(s.inline_calibrated[i]),
                    str(s.fork_measured[i]),
                    str(s.fork_modelled[i]),
                    str(s.fork_calibrated[i]),
                )
            )
    lines += _table(rows)
    lines += ["", "break-even: remaining turns (the call's included) from which fork is cheaper"]
    even: list[tuple[str, ...]] = [
        ("SKILL", "BODY", "MEASURED", "MODELLED", "CALIBRATED", "CALIBRATED, B MEASURED")
    ]
    even += [
        (
            s.name,
            f"{s.body_measured} measured, {s.body_modelled} modelled",
            _turns(s.break_even_measured),
            _turns(s.break_even_modelled),
            _turns(s.break_even_calibrated),
            _turns(s.break_even_given_body),
        )
        for s in report.skills
    ]
    lines += _table(even)
    lines += ["", "what the model got wrong:"] + [f"  - {m}" for m in report.misses]
    lines += [f"skipped {name}: {reason}" for name, reason in report.skipped.items()]
    lines += ["", f"calibration written to {report.calibration_path}"]
    return "\n".join(lines)
