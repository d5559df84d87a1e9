"""The ``local`` executor: every cell replayed in this process by the lockstep loop."""

from __future__ import annotations

from skillbench.replay._adaptive import RepeatGate
from skillbench.replay._cell import FactsCache
from skillbench.replay._executor import EXECUTORS, ReplayJob
from skillbench.replay._lockstep import Lockstep
from skillbench.replay._repeats import trigger_thresholds


@EXECUTORS.register("local")
class LocalExecutor:
    """Every cell in this process (see ``_lockstep``), each row written as it finishes."""

    def replay(self, job: ReplayJob) -> None:
        rule = job.experiment.adaptive
        if rule is not None:
            gate = RepeatGate(
                rule,
                job.experiment.grid.repeats,
                trigger_thresholds(job.experiment),
                job.grid.cells,
                job.rows,
            )
            for run in job.runs:
                run.gate = gate
        Lockstep(
            job.runs,
            job.grid.requests,
            FactsCache(job.experiment.token_model),
            job.annotators,
            job.record,
            keep_raw=job.experiment.keep_raw_answers,
        ).run()
