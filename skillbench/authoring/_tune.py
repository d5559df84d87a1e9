"""``tune``: hill-climb skill descriptions on a train split, judge them on a blinded test split.

Loop: replay the catalog on train; find the skills behind the most train errors; ask the
proposer for candidates for each; replay every candidate catalog on train (the config's
selectors, profiles, budgets and orderings: a longer description that pushes other skills
out of the budget, or that a profile cuts, scores what the listing really shows); keep the
best single change or the combination of every improving one; stop after N iterations or
when nothing improves. Only then are the base and the winner replayed on the test split.
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.authoring._proposers import ProposalRequest, Proposer, ProposerStopped, Rival
from skillbench.authoring._replay_link import ReplayedDecision, config_requests, replay_catalog
from skillbench.authoring._split import Split, stratified_split, write_requests
from skillbench.authoring._variant import CatalogCopy, Source, one_line
from skillbench.catalog import Catalog, Skill, SourceSpec, load_catalog
from skillbench.listing import make_renderer
from skillbench.replay import RunConfig
from skillbench.selectors import words
from skillbench.types import JsonObject

Progress = Callable[[str], None]


@dataclass(frozen=True)
class TuneOptions:
    """What to tune and how hard.

    Attributes:
        catalog: config catalog variant to tune (None: the first).
        skills: names allowed to change (empty: every skill of the catalog).
        iterations: most propose-evaluate rounds.
        focus: skills rewritten per round (those behind the most train errors).
        candidates: candidates asked per skill and round.
        test_fraction: share of each stratum held out as test.
        seed: split seed (None: the config's seed).
        max_concurrency: concurrent calls per endpoint of model selectors in replays.
        split: a train/test split to keep as given (an eval set's validation split stays
            blind); None draws a stratified split of the config's requests.
    """

    catalog: str | None = None
    skills: tuple[str, ...] = ()
    iterations: int = 3
    focus: int = 3
    candidates: int = 3
    test_fraction: float = 0.4
    seed: int | None = None
    max_concurrency: int = 8
    split: Split | None = None


@dataclass(frozen=True)
class Score:
    """A catalog replayed on one split: every decision, and the objective they give."""

    decisions: tuple[ReplayedDecision, ...]

    @property
    def accuracy(self) -> float:
        return sum(d.correct for d in self.decisions) / max(len(self.decisions), 1)

    @property
    def unwanted_invocations(self) -> int:
        return sum(d.unwanted for d in self.decisions)

    def key(self) -> tuple[float, int]:
        """Higher is better: accuracy, then fewer unwanted invocations."""
        return (round(self.accuracy, 12), -self.unwanted_invocations)


@dataclass(frozen=True)
class Attempt:
    """One evaluated candidate catalog: the changes over the base and its train score."""

    iteration: int
    changes: Mapping[str, str]
    accuracy: float
    unwanted_invocations: int
    accepted: bool = False


@dataclass
class TuneResult:
    """Everything ``tune`` decided, for the report."""

    config: RunConfig
    catalog: str
    skills: dict[str, Skill]
    split: Split
    changes: dict[str, str]
    base_train: Score
    tuned_train: Score
    base_test: Score | None = None
    tuned_test: Score | None = None
    attempts: list[Attempt] = field(default_factory=list)
    prompts: list[Path] = field(default_factory=list)
    stopped: str | None = None
    copy: CatalogCopy | None = None


def _catalog(config: RunConfig, variant: str) -> tuple[Catalog, list[Source]]:
    sources = [Source(config.resolve(s.path), s.source) for s in config.catalogs[variant]]
    specs = [SourceSpec(str(s.path), s.kind) for s in sources]  # type: ignore[arg-type]
    cwd = config.resolve(config.cwd) if config.cwd else None
    return load_catalog(specs, profile=config.profiles[0], cwd=cwd), sources


def _split(config: RunConfig, options: TuneOptions) -> Split:
    if options.split is not None:
        return options.split
    seed = config.seed if options.seed is None else options.seed
    return stratified_split(config_requests(config), test_fraction=options.test_fraction, seed=seed)


def max_description_chars(skill: Skill, profiles: Sequence[str]) -> int:
    """The longest description no profile of ``profiles`` cuts, found with the renderers
    themselves (binary search on the entry status)."""
    renderers = [make_renderer(p) for p in profiles]
    low, high = 0, 4096
    while low < high:
        mid = (low + high + 1) // 2
        probe = skill.with_description("x" * mid)
        if all(r.entry(probe, 0).status == "full" for r in renderers):
            low = mid
        else:
            high = mid - 1
    return low


def worst_skills(
    decisions: Sequence[ReplayedDecision], tunable: set[str], focus: int
) -> list[tuple[str, int]]:
    """The ``focus`` tunable skills behind the most wrong decisions (expected or chosen),
    counting only decisions whose listing showed the expected skill: a description cannot
    lose a request whose skill was never offered, nor should its rival be rewritten for it."""
    blame: Counter[str] = Counter()
    for d in decisions:
        if d.correct or not d.shown:
            continue
        for name in {*d.expected, *([d.chosen] if d.chosen else [])}:
            if name in tunable:
                blame[name] += 1
    return sorted(blame.items(), key=lambda kv: (-kv[1], kv[0]))[:focus]


def proposal_request(
    skill: Skill,
    decisions: Sequence[ReplayedDecision],
    texts: Mapping[str, str],
    skills: Mapping[str, Skill],
    max_chars: int,
    n: int,
    document_frequency: Mapping[str, int],
) -> ProposalRequest:
    """What the proposer sees for ``skill``: its train confusions and train request texts
    (decisions whose expected skill was shown)."""
    lost: Counter[str] = Counter()
    took: Counter[str] = Counter()
    missed: dict[str, None] = {}
    taken: dict[str, None] = {}
    for d in decisions:
        if d.correct or not d.shown:
            continue
        if skill.name in d.expected:
            missed[texts[d.request_id]] = None
            if d.chosen and d.chosen in skills:
                lost[d.chosen] += 1
        elif d.chosen == skill.name:
            taken[texts[d.request_id]] = None
            for e in d.expected[:1]:
                if e in skills:
                    took[e] += 1
    rivals = sorted(set(lost) | set(took), key=lambda r: (-(lost[r] + took[r]), r))
    return ProposalRequest(
        skill,
        tuple(Rival(r, skills[r].description, lost[r], took[r]) for r in rivals[:5]),
        tuple(missed),
        tuple(taken),
        max_chars,
        n,
        document_frequency,
        len(skills),
    )


class _Evaluator:
    """Replays candidate catalogs from one working copy; each run directory is removed once
    read, except those named ``keep``."""

    def __init__(
        self,
        config: RunConfig,
        copy: CatalogCopy,
        skills: dict[str, Skill],
        work: Path,
        max_concurrency: int,
    ) -> None:
        self.config, self.copy, self.skills, self.work = config, copy, skills, work
        self.max_concurrency = max_concurrency
        self.runs = 0

    def score(self, changes: Mapping[str, str], requests: Path, keep: str | None = None) -> Score:
        self.copy.apply(changes, self.skills)
        self.runs += 1
        run_dir = self.work / (keep or f"run-{self.runs:04d}")
        decisions = replay_catalog(
            self.config, self.copy.source_pairs(), requests, run_dir, self.max_concurrency
        )
        if keep is None:
            shutil.rmtree(run_dir, ignore_errors=True)
        return Score(tuple(decisions))


def _save_prompt(out: Path, iteration: int, skill: str, payload: JsonObject) -> Path:
    path = out / "prompts" / f"{iteration:02d}-{skill.replace('/', '_').replace(':', '_')}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


class _Loop:
    """One tune session: the state the rounds share."""

    def __init__(
        self,
        config: RunConfig,
        proposer: Proposer,
        out: Path,
        options: TuneOptions,
        say: Progress,
    ) -> None:
        self.config, self.proposer, self.out, self.options, self.say = (
            config,
            proposer,
            out,
            options,
            say,
        )
        variant = options.catalog or next(iter(config.catalogs))
        if variant not in config.catalogs:
            raise SkillbenchError(
                f"config has no catalog {variant!r}; it has: {', '.join(config.catalogs)}"
            )
        catalog, sources = _catalog(config, variant)
        self.skills = {s.name: s for s in catalog.skills}
        unknown = [s for s in options.skills if s not in self.skills]
        if unknown:
            raise SkillbenchError(f"--skills: not in catalog {variant!r}: {', '.join(unknown)}")
        self.tunable = set(options.skills) or {s.name for s in catalog.model_invocable}
        split = _split(config, options)
        out.mkdir(parents=True, exist_ok=True)
        self.train_file = write_requests(split.train, out / "train.jsonl")
        self.test_file = write_requests(split.test, out / "test.jsonl")
        self.texts = {r.id: r.text for r in split.train}
        self.df = Counter(
            w
            for s in self.skills.values()
            for w in set(words(f"{s.name} {s.description} {s.read_body()}"))
        )
        copy = CatalogCopy(sources, out / "catalog")
        self.evaluator = _Evaluator(
            config, copy, self.skills, out / "runs", options.max_concurrency
        )
        base = self.evaluator.score({}, self.train_file)
        say(f"base catalog: train accuracy {base.accuracy:.4f} ({len(split.train)} requests)")
        self.result = TuneResult(config, variant, self.skills, split, {}, base, base, copy=copy)

    def _current(self) -> dict[str, Skill]:
        changes = self.result.changes
        return {
            n: s.with_description(changes.get(n, s.description)) for n, s in self.skills.items()
        }

    def _candidates(self, iteration: int, current: Score) -> dict[str, tuple[str, Score]]:
        """Per skill in focus, its best candidate that beats ``current`` on train."""
        winners: dict[str, tuple[str, Score]] = {}
        skills = self._current()
        focus = worst_skills(current.decisions, self.tunable, self.options.focus)
        for name, errors in focus:
            request = proposal_request(
                skills[name],
                current.decisions,
                self.texts,
                skills,
                max_description_chars(skills[name], self.config.profiles),
                self.options.candidates,
                self.df,
            )
            proposal = self.proposer.propose(request)
            payload: JsonObject = {
                **proposal.prompt,
                "answer": proposal.answer,
                "candidates": list(proposal.candidates),
            }
            self.result.prompts.append(_save_prompt(self.out, iteration, name, payload))
            for text in proposal.candidates:
                changes = {**self.result.changes, name: one_line(text)}
                score = self.evaluator.score(changes, self.train_file)
                self.result.attempts.append(
                    Attempt(iteration, changes, score.accuracy, score.unwanted_invocations)
                )
                self.say(
                    f"  iteration {iteration}: {name} ({errors} train errors): candidate "
                    f"scores {score.accuracy:.4f}"
                )
                best = winners.get(name)
                if score.key() > current.key() and (best is None or score.key() > best[1].key()):
                    winners[name] = (one_line(text), score)
        return winners

    def _keep(self, iteration: int, winners: dict[str, tuple[str, Score]]) -> Score:
        """Keep the best single change, or every improving one together when that is better."""
        name = max(winners, key=lambda n: (winners[n][1].key(), n))
        changes, best = {**self.result.changes, name: winners[name][0]}, winners[name][1]
        if len(winners) > 1:
            combined = {**self.result.changes, **{n: t for n, (t, _) in winners.items()}}
            score = self.evaluator.score(combined, self.train_file)
            self.result.attempts.append(
                Attempt(iteration, combined, score.accuracy, score.unwanted_invocations)
            )
            if score.key() > best.key():
                changes, best = combined, score
        self.result.attempts.append(
            Attempt(iteration, changes, best.accuracy, best.unwanted_invocations, accepted=True)
        )
        self.result.changes = changes
        self.say(
            f"iteration {iteration}: kept changes to {', '.join(sorted(changes))}; "
            f"train accuracy {best.accuracy:.4f}"
        )
        return best

    def run(self) -> TuneResult:
        result, current = self.result, self.result.base_train
        for iteration in range(1, self.options.iterations + 1):
            try:
                winners = self._candidates(iteration, current)
            except ProposerStopped as stop:
                result.stopped, winners = str(stop), {}
            if not winners:
                self.say(f"iteration {iteration}: no candidate improves on train; stopping")
                break
            current = self._keep(iteration, winners)
        result.tuned_train = current
        result.base_test = self.evaluator.score({}, self.test_file, keep="base-test")
        result.tuned_test = self.evaluator.score(result.changes, self.test_file, keep="tuned-test")
        assert result.copy is not None
        result.copy.apply(result.changes, self.skills)
        return result


def tune(
    config: RunConfig,
    proposer: Proposer,
    out: Path,
    options: TuneOptions = TuneOptions(),
    progress: Progress | None = None,
) -> TuneResult:
    """Tune ``config``'s catalog with ``proposer``; the split, prompts, variant and test runs
    go under ``out``.

    The test split is replayed only after the last round, for the base and the winner.

    Raises:
        SkillbenchError: unknown catalog or skill names, a replay that failed, or a proposer
            call that failed (a spend-cap stop is not an error: ``TuneResult.stopped``).
    """
    return _Loop(config, proposer, out, options, progress or (lambda _m: None)).run()


class TunePlan(NamedTuple):
    """The most ``tune`` may do: replays, decisions and proposer calls (``--dry-run``)."""

    catalog: str
    skills: int
    tunable: int
    train: int
    test: int
    cells: int
    max_replays: int
    max_decisions: int
    max_proposer_calls: int


def tune_plan(config: RunConfig, options: TuneOptions = TuneOptions()) -> TunePlan:
    """What ``tune`` would do, without replaying or proposing anything (``--dry-run``).

    Bounds: one base replay, per round ``focus × candidates`` candidate replays plus one of
    the combination, then two test replays; one proposer call per skill in focus per round.
    """
    variant = options.catalog or next(iter(config.catalogs))
    if variant not in config.catalogs:
        raise SkillbenchError(
            f"config has no catalog {variant!r}; it has: {', '.join(config.catalogs)}"
        )
    catalog, _ = _catalog(config, variant)
    split = _split(config, options)
    cells = (
        len(config.profiles)
        * len(config.budgets)
        * len(config.orderings)
        * len(config.half_lives)
        * len(config.selectors)
        * config.repeats
    )
    per_round = options.focus * options.candidates + 1
    replays = 1 + options.iterations * per_round + 2
    return TunePlan(
        catalog=variant,
        skills=len(catalog.skills),
        tunable=len(options.skills) or len(catalog.model_invocable),
        train=len(split.train),
        test=len(split.test),
        cells=cells,
        max_replays=replays,
        max_decisions=cells * (len(split.train) * (replays - 2) + 2 * len(split.test)),
        max_proposer_calls=options.iterations * options.focus,
    )
