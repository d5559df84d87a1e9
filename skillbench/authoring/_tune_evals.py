"""``tune`` on skill authors' trigger eval sets: the run config ``eval`` would replay, and
the sets' own validation split (skill-creator's) as the blind test split.

A should-not query is scored by tune as a negative of the whole catalog (any skill firing on
it is an error), stricter than ``eval``'s per-skill rule: rewriting one description must not
push its queries onto another skill either.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

from skillbench._errors import SkillbenchError
from skillbench.authoring._eval import EvalOptions, eval_config
from skillbench.authoring._eval_targets import find_targets, resolve_skills, with_sets
from skillbench.authoring._split import Split, write_requests
from skillbench.evalsets import validation_split
from skillbench.replay import RunConfig

REQUESTS_FILE = "eval-set-requests.jsonl"


class TuneInputs(NamedTuple):
    """A config to tune, the split to keep (None: tune draws its own) and the skills with
    sets (the ones tune may rewrite by default)."""

    config: RunConfig
    split: Split | None
    skills: tuple[str, ...]


def is_eval_input(path: str) -> bool:
    """Whether ``tune``'s input names skills with eval sets rather than a run config."""
    return Path(path).is_dir() or Path(path).suffix.lower() == ".json"


def eval_set_inputs(paths: list[str], out: Path, options: EvalOptions) -> TuneInputs:
    """The config and split for tuning the skills of ``paths`` on their trigger sets.

    Queries of the sets' validation splits form the test split; a set too small to split
    (fewer than two queries of a label) goes to train whole.

    Raises:
        SkillbenchError: no set has a validation split, or the skills sit in more than one
            catalog.
    """
    loaded = with_sets(resolve_skills(find_targets(paths), options.profile)).loaded
    catalogs = {item.target.sources for item in loaded}
    if len(catalogs) != 1:
        raise SkillbenchError("tune: give skills of one catalog (one folder of skills)")
    train, test = [], []
    for item in loaded:
        requests = {r.id: r for r in item.trigger_set.requests()}
        split = validation_split(item.trigger_set.queries, options.holdout)
        held = {item.trigger_set.request_id(q) for q in split.validation} if split else set()
        train += [r for rid, r in requests.items() if rid not in held]
        test += [r for rid, r in requests.items() if rid in held]
    if not test:
        raise SkillbenchError(
            "tune: no trigger set has a validation split (each needs two queries or more of "
            "both labels)"
        )
    out.mkdir(parents=True, exist_ok=True)
    requests_file = write_requests([*train, *test], out / REQUESTS_FILE)
    config = eval_config(next(iter(catalogs)), requests_file, options, name="eval-sets")
    names = tuple(item.skill.name for item in loaded)
    return TuneInputs(config, Split(tuple(train), tuple(test)), names)
