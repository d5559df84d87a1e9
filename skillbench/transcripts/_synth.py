"""``synth``: labelled requests written by a model from the skills themselves.

For each skill the model writes positives (normal, boundary, abnormal) from its name and
description, and near-miss negatives from the skill and its nearest rivals by embedding
similarity (the same MiniLM embedder the selectors use): requests that share the topic but
that no listed skill should take. Near-identical requests are then dropped (cosine
similarity at or above ``dedupe``) and the rest written to a review file a person edits
before use. Calls go through the litellm selector's client, so the response cache,
retries, spend cap and redaction are the ones ``run`` uses.
"""

from __future__ import annotations

import asyncio
import csv
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from skillbench.cache import ResponseCache, cache_key
from skillbench.catalog import Skill
from skillbench.selectors import DEFAULT_MODEL, Embedder
from skillbench.selectors._litellm._client import RetryPolicy, call_model, runtime, secrets
from skillbench.selectors._litellm._spend import (
    EST_COMPLETION_TOKENS,
    Spend,
    estimate_cost,
    prompt_tokens,
)
from skillbench.transcripts._synth_prompts import (
    Generated,
    Tag,
    near_miss_prompt,
    parse_answer,
    positive_prompt,
)
from skillbench.types import JsonObject


@dataclass(frozen=True)
class SynthOptions:
    """Model, amounts and limits of a synthesis.

    Attributes:
        model: litellm model name.
        cache_dir: root of skillbench's cache (responses and embeddings).
        api_base / api_key_env: endpoint and the variable holding its key.
        per_kind: positives per kind (normal, boundary, abnormal) and skill.
        near_misses: near-miss negatives per skill.
        rivals: nearest rivals shown in each near-miss prompt.
        dedupe: cosine similarity at or above which a request is a near-duplicate.
        params: sampling params (temperature, seed …) sent with every call.
        max_cost_usd: spend cap; calls stop once it is reached.
    """

    model: str
    cache_dir: Path
    api_base: str | None = None
    api_key_env: str | None = None
    per_kind: int = 2
    near_misses: int = 3
    rivals: int = 2
    dedupe: float = 0.92
    params: JsonObject = field(default_factory=lambda: {"temperature": 0.7, "seed": 0})
    max_cost_usd: float | None = None
    max_attempts: int = 5
    backoff_s: float = 1.0
    timeout: float = 60.0
    max_concurrency: int = 8
    cache: bool = True
    embedding_model: str = DEFAULT_MODEL


class Job(NamedTuple):
    """One call: the skill it is about, its kind and its messages."""

    skill: Skill
    near_miss: bool
    messages: list[dict[str, str]]
    key: str


class SynthRequest(NamedTuple):
    id: str
    text: str
    expected: str | None
    tag: Tag
    skill: str


class Dropped(NamedTuple):
    request: SynthRequest
    duplicate_of: str
    similarity: float


@dataclass
class SynthResult:
    """What a synthesis produced; ``errors`` and ``stopped`` make it a failed one."""

    requests: list[SynthRequest] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    stopped: str | None = None
    spend: Spend = field(default_factory=Spend)
    cached: int = 0


def plan(skills: Sequence[Skill], options: SynthOptions, embedder: Embedder) -> list[Job]:
    """Every call, in catalog order: each skill's positives, then its near-misses."""
    vectors = embedder.embed([f"{s.name}: {s.description}" for s in skills])
    sims = vectors @ vectors.T if len(skills) else np.zeros((0, 0))
    jobs = []
    for i, skill in enumerate(skills):
        order = sorted((j for j in range(len(skills)) if j != i), key=lambda j: (-sims[i, j], j))
        rivals = [skills[j] for j in order[: options.rivals]]
        for near_miss, messages in (
            (False, positive_prompt(skill, options.per_kind)),
            (True, near_miss_prompt(skill, rivals, options.near_misses)),
        ):
            key = cache_key(
                model=options.model,
                api_base=options.api_base,
                messages=messages,
                tools=None,
                tool_choice=None,
                params=options.params,
                repeat=0,
            )
            jobs.append(Job(skill, near_miss, messages, key))
    return jobs


class SynthEstimate(NamedTuple):
    """What ``--dry-run`` prints before any call is made."""

    calls: int
    cached: int
    to_send: int
    prompt_tokens: int
    estimated_cost_usd: float | None


def estimate(jobs: Sequence[Job], options: SynthOptions) -> SynthEstimate:
    """What ``--dry-run`` prints: calls, how many the cache already answers, and cost."""
    cache = ResponseCache(options.cache_dir) if options.cache else None
    needed = [j for j in jobs if cache is None or j.key not in cache]
    tokens = sum(
        prompt_tokens(options.model, "\n".join(m["content"] for m in j.messages)) for j in needed
    )
    completion = EST_COMPLETION_TOKENS * 10 * len(needed)
    return SynthEstimate(
        calls=len(jobs),
        cached=len(jobs) - len(needed),
        to_send=len(needed),
        prompt_tokens=tokens,
        estimated_cost_usd=estimate_cost(options.model, tokens, completion),
    )


def synthesize(jobs: Sequence[Job], options: SynthOptions, embedder: Embedder) -> SynthResult:
    """Ask for every job, read the answers, number, label and dedupe the requests."""
    result = SynthResult()
    answers = runtime().run(_ask_all(jobs, options, result))
    generated: list[SynthRequest] = []
    counters: dict[tuple[str, str], int] = {}
    for job, (answered, content) in zip(jobs, answers, strict=True):
        if not answered:
            continue
        try:
            found = parse_answer(content, job.near_miss)
        except ValueError as exc:
            kind = "near-miss" if job.near_miss else "positive"
            result.errors.append(f"{job.skill.name} ({kind}): {exc}")
            continue
        for item in found:
            generated.append(_numbered(job.skill.name, item, counters))
    result.requests, result.dropped = dedupe(generated, embedder, options.dedupe)
    return result


def _numbered(skill: str, item: Generated, counters: dict[tuple[str, str], int]) -> SynthRequest:
    n = counters.get((skill, item.tag), 0) + 1
    counters[(skill, item.tag)] = n
    expected = None if item.tag == "near-miss" else skill
    return SynthRequest(f"{skill}-{item.tag}-{n}", item.text, expected, item.tag, skill)


def dedupe(
    requests: Sequence[SynthRequest], embedder: Embedder, threshold: float
) -> tuple[list[SynthRequest], list[Dropped]]:
    """Keep each request unless an earlier kept one is at least ``threshold`` similar."""
    if not requests:
        return [], []
    vectors = embedder.embed([r.text for r in requests])
    kept: list[int] = []
    dropped: list[Dropped] = []
    for i, request in enumerate(requests):
        if kept:
            sims = vectors[kept] @ vectors[i]
            best = int(np.argmax(sims))
            if float(sims[best]) >= threshold:
                twin = requests[kept[best]].id
                dropped.append(Dropped(request, twin, round(float(sims[best]), 4)))
                continue
        kept.append(i)
    return [requests[i] for i in kept], dropped


async def _ask_all(
    jobs: Sequence[Job], options: SynthOptions, result: SynthResult
) -> list[tuple[bool, Any]]:
    """``(answered, message content)`` per job; a failed or stopped call is not answered."""
    cache = ResponseCache(options.cache_dir) if options.cache else None
    semaphore = runtime().semaphore(options.api_base or options.model, options.max_concurrency)
    policy = RetryPolicy(options.max_attempts, options.backoff_s, options.timeout)
    hidden = secrets(options.api_key_env)

    def may_send() -> bool:
        cap = options.max_cost_usd
        if result.stopped is None and cap is not None and result.spend.cost_usd >= cap:
            result.stopped = f"max_cost_usd {cap} reached after ${result.spend.cost_usd:.4f}"
        return result.stopped is None

    async def ask(job: Job) -> tuple[bool, Any]:
        entry = cache.get(job.key) if cache is not None else None
        if entry is not None:
            result.cached += 1
            return True, _content(entry["response"])
        request: dict[str, Any] = {"model": options.model, "messages": job.messages}
        request.update(options.params)
        if options.api_base:
            request["api_base"] = options.api_base
        if options.api_key_env:
            request["api_key"] = os.environ.get(options.api_key_env)
        fetched = await call_model(request, semaphore, policy, hidden, may_send)
        if fetched.stopped:
            return False, None
        if fetched.response is None:
            result.errors.append(f"{job.skill.name}: {fetched.error}")
            return False, None
        result.spend.add(fetched.usage, fetched.cost_usd)
        if cache is not None:
            stored: dict[str, Any] = {
                "model": options.model,
                "created": time.time(),
                "response": fetched.response,
                "usage": fetched.usage,
                "cost_usd": fetched.cost_usd,
            }
            await asyncio.to_thread(cache.put, job.key, stored)
        return True, _content(fetched.response)

    return list(await asyncio.gather(*(ask(j) for j in jobs)))


def _content(response: Any) -> Any:
    try:
        return response["choices"][0]["message"]["content"]
    except (KeyError, IndexError, TypeError):
        return None


REVIEW_FILE = "review.csv"
DROPPED_FILE = "dropped.csv"


def write_review(result: SynthResult, out_dir: str | Path) -> Path:
    """``review.csv`` (loadable by ``run`` as it is) and ``dropped.csv`` in ``out_dir``.

    The review file has skillbench's CSV request columns (``expected`` empty: nothing
    should trigger) plus ``skill``, the skill the request was written from; a person
    deletes or relabels rows before using it.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with (out / REVIEW_FILE).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "text", "expected", "tags", "skill"])
        for r in result.requests:
            writer.writerow([r.id, r.text, r.expected or "", r.tag, r.skill])
    with (out / DROPPED_FILE).open("w", encoding="utf-8", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "text", "duplicate_of", "similarity"])
        for d in result.dropped:
            writer.writerow([d.request.id, d.request.text, d.duplicate_of, d.similarity])
    return out / REVIEW_FILE
