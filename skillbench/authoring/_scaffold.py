"""``init``: a first trigger set for a skill, for a person to edit before trusting it.

Offline, should-trigger queries are the skill's own tasks (the sentences of its description
and when_to_use) phrased as requests, and near-miss negatives are the same
for the siblings whose listing entries sit nearest to the skill's in the packaged MiniLM's
embedding space: requests close in topic that another skill owns. With a model, ``synth``
writes both (positives from the description, near-misses against the nearest rivals).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import zip_longest
from pathlib import Path
from typing import Any

import numpy as np

from skillbench.authoring._overlap import entry_document
from skillbench.catalog import Skill
from skillbench.evalsets import DraftQuery
from skillbench.selectors import STOPWORDS

TEMPLATES = ("Can you {}?", "I need to {}.", "Please {}.", "Help me {}.")
_LEAD = re.compile(
    r"^(use (this skill )?(when|for|to)( the user)?( wants| needs| asks)?( to)?|"
    r"this skill|steps?|when to use|how to)[\s:,-]*",
    re.I,
)
MIN_WORDS, MAX_WORDS = 3, 25


@dataclass(frozen=True)
class ScaffoldOptions:
    """How many queries of each label to draft, and from how many nearest siblings."""

    positives: int = 10
    negatives: int = 10
    rivals: int = 3


def _sentences(text: str) -> Iterator[str]:
    """Sentences of ``text``, wrapped lines joined first."""
    for paragraph in re.split(r"\n\s*\n", text):
        joined = " ".join(paragraph.split())
        yield from (s for s in re.split(r"(?<=[.!?;])\s+|\s+-\s+", joined) if s)


def _request(task: str, template: str) -> str | None:
    words = _LEAD.sub("", task.strip().rstrip(".!?;:")).split()
    if (
        not MIN_WORDS <= len(words) <= MAX_WORDS
        or "$" in task
        or not words[0][0].isalpha()
        or words[0].lower() in STOPWORDS
    ):
        return None
    phrase = " ".join(words)
    return template.format(phrase[0].lower() + phrase[1:])


def skill_requests(skill: Skill) -> list[str]:
    """Requests built from ``skill``'s description and when_to_use sentences, deduplicated: a
    scaffold for a person to rewrite, not a test set. (Body headings and list items were
    tried and dropped: they are instructions to the agent, "Checklist: API surface", not
    things a user asks.)"""
    found: dict[str, None] = {}
    for task in _sentences(skill.description):
        request = _request(task, TEMPLATES[len(found) % len(TEMPLATES)])
        if request is not None:
            found.setdefault(request, None)
    for situation in _sentences(skill.when_to_use or ""):
        request = _request(situation, "{}")
        if request is not None:
            found.setdefault(request[0].upper() + request[1:], None)
    return list(found)


def nearest_siblings(
    skill: Skill, siblings: Sequence[Skill], embed: Callable[[list[str]], Any], n: int
) -> list[Skill]:
    """The ``n`` siblings whose listing entries are nearest to ``skill``'s (cosine)."""
    others = [s for s in siblings if s.name != skill.name]
    if not others or n <= 0:
        return []
    vectors = np.asarray(embed([entry_document(s) for s in (skill, *others)]), dtype=np.float64)
    sims = vectors[1:] @ vectors[0]
    order = sorted(range(len(others)), key=lambda i: (-float(sims[i]), others[i].name))
    return [others[i] for i in order[:n]]


def offline_queries(
    skill: Skill, rivals: Sequence[Skill], options: ScaffoldOptions
) -> list[DraftQuery]:
    """Should-trigger queries from ``skill``, then near-misses taken in turn from each rival."""
    positives = [
        DraftQuery(text, True, f"from {skill.name}'s description")
        for text in skill_requests(skill)[: options.positives]
    ]
    per_rival = [[(r.name, text) for text in skill_requests(r)] for r in rivals]
    mixed = [pair for group in zip_longest(*per_rival) for pair in group if pair is not None]
    negatives = [
        DraftQuery(text, False, f"near miss: a task of sibling {name}")
        for name, text in mixed[: options.negatives]
    ]
    return positives + negatives


def synth_queries(
    skill: Skill, catalog: Sequence[Skill], synth_options: Any, embedder: Any
) -> tuple[list[DraftQuery], list[str]]:
    """The model's should-trigger and near-miss queries for ``skill`` (through ``synth``),
    and the errors of calls that failed."""
    from skillbench.transcripts import plan, synthesize

    jobs = [j for j in plan(catalog, synth_options, embedder) if j.skill.name == skill.name]
    result = synthesize(jobs, synth_options, embedder)
    queries = [
        DraftQuery(r.text, r.expected is not None, f"synth: {r.tag}") for r in result.requests
    ]
    problems = list(result.errors) + ([result.stopped] if result.stopped else [])
    return queries, problems


def scaffold_path(skill_dir: Path) -> Path:
    from skillbench.evalsets import EVALS_DIR, SCAFFOLD_FILE

    return skill_dir / EVALS_DIR / SCAFFOLD_FILE
