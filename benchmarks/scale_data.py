"""A large, deterministic catalog and request set built from the real data in ``../shared/data``.

The real catalogs (SKILL.md folders) and the MetaTool tool list give a few hundred base
skills. Each base skill gets variants scoped to a team or domain ("… for the billing team"),
named ``<base>-<scope>``, until the catalog holds ``skills`` skills; requests come from the
MetaTool labelled requests (for the tools) and from the skills' own descriptions (for the
SKILL.md skills), each aimed at one variant by carrying that variant's scope, plus the
MetaTool negatives (no skill should trigger). Everything is seeded: the same arguments write
byte-identical files.

Used by ``scale_bench.py``; ``write_scale_data`` is the entry point.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from skillbench._sanitize import MAX_NAME_CHARS
from skillbench.catalog import load_catalog

SHARED = Path(
    os.environ.get("SKILLBENCH_SHARED_DATA")
    or Path(__file__).resolve().parents[2] / "shared" / "data"
)
"""The shared data folder (``SKILLBENCH_SHARED_DATA`` where the checkout is elsewhere)."""
SKILL_CATALOGS = ("anthropics-skills", "mattpocock", "superpowers", "wshobson-agents")
SCOPES = (
    "billing", "payments", "mobile", "web", "data", "ml", "infra", "security", "growth",
    "support", "sales", "finance", "legal", "hr", "design", "docs", "search", "ads",
    "identity", "storage", "network", "edge", "devices", "games", "media", "health",
    "travel", "retail", "logistics", "energy", "research", "education", "risk", "audit",
    "platform", "core", "api", "partner", "internal", "public", "emea", "apac", "americas",
    "staging", "sandbox", "legacy", "beta", "labs", "ops", "qa",
)  # fmt: skip
"""Team or domain scopes that tell variants apart; 50 scopes × 2 tiers per base skill."""
TIERS = ("", "pro")
SHARD = 1000
"""Skills per source folder: agents scan at most 2,000 directories per root."""
_NOT_NAME = re.compile(r"[^a-z0-9]+")


class BaseSkill(NamedTuple):
    """A real skill or tool: its Agent Skills name, description and what requests ask of it."""

    name: str
    description: str
    disabled: bool
    asks: tuple[str, ...]


class Variant(NamedTuple):
    """A catalog skill: a base skill itself (empty scope) or one of its scoped variants."""

    name: str
    description: str
    base: BaseSkill
    scope: str
    tier: str


@dataclass(frozen=True, slots=True)
class ScaleData:
    """What ``write_scale_data`` wrote: the catalog folder, the requests file and counts."""

    skill_dirs: list[Path]
    requests: Path
    skills: int
    positives: int
    negatives: int


def slug(name: str) -> str:
    """``MixerBox_Translate_AI`` → ``mixerbox-translate-ai``: an Agent Skills name."""
    return _NOT_NAME.sub("-", name.lower()).strip("-") or "skill"


def variant_name(base: str, scope: str, tier: str) -> str:
    """``<base>-<scope>[-<tier>]``, the base cut so the whole stays within the name limit."""
    suffix = "-".join(p for p in (scope, tier) if p)
    head = base[: MAX_NAME_CHARS - len(suffix) - 1].rstrip("-")
    return f"{head}-{suffix}"


def scoped(scope: str, tier: str) -> str:
    """The phrase a variant's description and its requests share."""
    return f"the {scope} team" + (" (pro plan)" if tier else "")


def base_skills(shared: Path = SHARED) -> list[BaseSkill]:
    """The real skills (SKILL.md catalogs, then MetaTool tools) with their request texts,
    deduplicated by name (first wins), in a fixed order."""
    out: dict[str, BaseSkill] = {}
    for folder in SKILL_CATALOGS:
        for s in load_catalog([str(shared / "catalogs" / folder)]).skills:
            ask = f"I need help with this: {s.description.split('. ')[0].rstrip('.')}."
            out.setdefault(
                slug(s.name),
                BaseSkill(slug(s.name), s.description, s.disable_model_invocation, (ask,)),
            )
    asks: dict[str, list[str]] = {}
    for record in _jsonl(shared / "metatool-dev" / "requests.jsonl"):
        if record["expected"]:
            asks.setdefault(record["expected"], []).append(record["text"].strip('"'))
    for tool in _jsonl(shared / "metatool-dev" / "tools.jsonl"):
        name = slug(tool["name"])
        if name not in out and asks.get(tool["name"]):
            out[name] = BaseSkill(name, tool["description"], False, tuple(asks[tool["name"]]))
    return list(out.values())


def negatives(shared: Path = SHARED) -> list[str]:
    """MetaTool requests that need no tool."""
    path = shared / "metatool-dev" / "requests.jsonl"
    return [r["text"].strip('"') for r in _jsonl(path) if not r["expected"]]


def catalog_entries(bases: Sequence[BaseSkill], n: int) -> list[Variant]:
    """``n`` skills: every base skill, then scoped variants round robin (scope-major, so
    every base gets its first variants before any gets more)."""
    out = [Variant(b.name, b.description, b, "", "") for b in bases]
    for scope, tier in ((s, t) for t in TIERS for s in SCOPES):
        for b in bases:
            if len(out) >= n:
                return out
            description = f"{b.description.rstrip('.')}, for {scoped(scope, tier)}."
            out.append(Variant(variant_name(b.name, scope, tier), description, b, scope, tier))
    if len(out) < n:
        raise ValueError(f"at most {len(out)} skills from {len(bases)} base skills")
    return out[:n]


def requests(
    entries: Sequence[Variant], no_skill: Sequence[str], n: int, seed: int
) -> Iterator[dict[str, object]]:
    """``n`` labelled requests: one in 20 a negative, the rest aimed at a random
    model-invocable skill, asked with one of its base's real request texts plus its scope."""
    rng = random.Random(f"scale-requests-{seed}")
    targets = [e for e in entries if not e.base.disabled]
    for i in range(n):
        if i % 20 == 19:
            yield {"id": f"sc-{i:06d}", "text": rng.choice(no_skill), "expected": []}
            continue
        target = rng.choice(targets)
        text = rng.choice(target.base.asks)
        if target.scope:
            text = f"{text} This is for {scoped(target.scope, target.tier)}."
        yield {"id": f"sc-{i:06d}", "text": text, "expected": [target.name]}


def write_scale_data(out: Path, *, skills: int, n_requests: int, seed: int = 0) -> ScaleData:
    """Write ``skills`` SKILL.md folders in shards of ``SHARD`` (``out/skills/NNN/<name>/``)
    and ``out/requests.jsonl``."""
    bases = base_skills()
    entries = catalog_entries(bases, skills)
    shards = [out / "skills" / f"{i // SHARD:03d}" for i in range(0, len(entries), SHARD)]
    for i, e in enumerate(entries):
        folder = shards[i // SHARD] / e.name
        folder.mkdir(parents=True, exist_ok=True)
        front = [f"name: {e.name}", f"description: {json.dumps(e.description)}"]
        if e.base.disabled:
            front.append("disable-model-invocation: true")
        (folder / "SKILL.md").write_text(
            "---\n" + "\n".join(front) + f"\n---\n\n# {e.name}\n", encoding="utf-8"
        )
    rows = list(requests(entries, negatives(), n_requests, seed))
    path = out / "requests.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    positives = sum(bool(r["expected"]) for r in rows)
    return ScaleData(shards, path, len(entries), positives, len(rows) - positives)


def _jsonl(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)
