"""Seeded catalogs: every shape class of front matter, names, layout, size and budget.

A case is one shape class drawn with ``random.Random`` seeded by the run's seed and the case's
index, so a seed always gives the same catalogs. What an agent supports (the scopes it
installs, its budget variable, whether it keeps a usage history) is read from its record.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from skillbench.agentspec import AgentSpec
from skillbench.catalog import SourceKind
from skillbench.fuzz._layouts import layout_case
from skillbench.fuzz._sizes import fuzz_scopes, size_case
from skillbench.fuzz._text import ODD, WORDS, make_unit, phrase, plain_description, skill_text
from skillbench.fuzz._types import FuzzCase, FuzzUnit
from skillbench.fuzz._yaml_shapes import YAML_SHAPES

FILE_SHAPES = ("crlf", "bom", "unclosed-front-matter", "no-front-matter", "xml-chars")
NAME_SHAPES = (
    "upper", "digits", "dots", "underscores", "colon", "space", "slash", "non-ascii",
    "long", "single-char", "mismatch", "dup-folders", "dup-scopes", "missing", "empty",
)  # fmt: skip
LAYOUT_SHAPES = (
    "depth", "root", "pack", "skills-subfolder", "symlink", "symlink-outside", "hidden",
    "lowercase-file", "non-skill-files", "flat-md",
)  # fmt: skip
SIZE_SHAPES = ("many", "long", "mixed")

SHAPE_CLASSES: tuple[str, ...] = (
    *(f"yaml:{s}" for s in YAML_SHAPES),
    *(f"file:{s}" for s in FILE_SHAPES),
    *(f"name:{s}" for s in NAME_SHAPES),
    *(f"layout:{s}" for s in LAYOUT_SHAPES),
    *(f"size:{s}" for s in SIZE_SHAPES),
)
"""Every shape class a case can draw, ``family:shape``."""

SOLO = {"name:single-char": "single-char", "layout:root": "root"}
"""Shapes two of which would interact in one capture (one-letter names collide, a skill at
the scope's root is every folder's parent): a pack holds one of each."""


def generate_cases(spec: AgentSpec, count: int, seed: int) -> list[FuzzCase]:
    """``count`` cases for ``spec``'s agent: every shape class in turn (a seeded shuffle), so
    a run of ``len(SHAPE_CLASSES)`` cases or more draws each one."""
    order = list(SHAPE_CLASSES)
    random.Random(seed).shuffle(order)
    return [
        generate_case(spec, i, order[i % len(order)], random.Random(f"{seed}:{i}"))
        for i in range(count)
    ]


def generate_case(spec: AgentSpec, index: int, shape: str, rng: random.Random) -> FuzzCase:
    """One case of ``shape`` (a ``SHAPE_CLASSES`` entry) drawn from ``rng``."""
    family, kind = shape.split(":", 1)
    scopes = fuzz_scopes(spec)
    scope = rng.choice(scopes)
    prefix = f"f{index:03d}"
    if family == "size":
        return size_case(spec, index, kind, rng)
    if family == "yaml":
        a, b = phrase(rng, rng.randint(1, 3), 0.2), phrase(rng, rng.randint(1, 3))
        text = skill_text(f"{prefix}-{kind}", YAML_SHAPES[kind](a, b), rng)
        units: tuple[FuzzUnit, ...] = (make_unit(scope, shape, f"{prefix}-{kind}", text),)
    elif family == "file":
        units = (_file_case(scope, shape, prefix, kind, rng),)
    elif family == "name":
        units = _name_case(scopes, scope, shape, prefix, kind, rng)
    else:
        units = layout_case(scope, shape, prefix, kind, rng)
    return FuzzCase(index, shape, units, solo=SOLO.get(shape))


def _file_case(
    scope: SourceKind, shape: str, prefix: str, kind: str, rng: random.Random
) -> FuzzUnit:
    name = f"{prefix}-{kind}"
    text = skill_text(name, plain_description(rng, 0.3), rng)
    if kind == "crlf":
        text = text.replace("\n", "\r\n")
    elif kind == "bom":
        text = "\ufeff" + text
    elif kind == "unclosed-front-matter":
        text = text.replace("---\n\n#", "\n#", 1)
    elif kind == "no-front-matter":
        text = f"# {name}\n\n{phrase(rng, 6)}\n"
    else:
        desc = f"description: {json.dumps(' '.join(ODD[:6]) + ' ' + phrase(rng, 2))}\n"
        text = skill_text(f"{name}-&<x>'\"", desc, rng)
    return make_unit(scope, shape, name, text)


def _name(prefix: str, kind: str, rng: random.Random) -> str:
    word = rng.choice(WORDS)
    return {
        "upper": f"{prefix}-{word.upper()}-Mixed",
        "digits": f"{prefix}-{rng.randint(0, 10**6)}-{word}2",
        "dots": f"{prefix}.{word}.v1.2",
        "underscores": f"{prefix}_{word}__x_",
        "colon": f"{prefix}:{word}:sub",
        "space": f"{prefix} {word}  two",
        "slash": f"{prefix}/{word}/x",
        "non-ascii": f"{prefix}-ünï-{word}-日本-🚀",
        "long": (f"{prefix}-" + "-".join(rng.choice(WORDS) for _ in range(40)))[
            : rng.randint(60, 200)
        ],
        "single-char": rng.choice("abcxyz"),
        "empty": "",
    }.get(kind, f"{prefix}-{word}")


def _name_case(
    scopes: Sequence[SourceKind],
    scope: SourceKind,
    shape: str,
    prefix: str,
    kind: str,
    rng: random.Random,
) -> tuple[FuzzUnit, ...]:
    name = _name(prefix, kind, rng)
    desc = plain_description(rng)
    if kind == "missing":
        return (make_unit(scope, shape, f"{prefix}-nameless", skill_text(None, desc, rng)),)
    if kind == "mismatch":
        return (
            make_unit(scope, shape, f"{prefix}-folder", skill_text(f"{prefix}-other", desc, rng)),
        )
    if kind == "dup-folders":
        second = skill_text(name, plain_description(rng), rng)
        return (
            make_unit(scope, shape, f"{prefix}-one", skill_text(name, desc, rng)),
            make_unit(scope, shape, f"{prefix}-two", second),
        )
    if kind == "dup-scopes":
        other = rng.choice([s for s in scopes if s != scope] or [scope])
        second = skill_text(name, plain_description(rng), rng)
        return (
            make_unit(scope, shape, f"{prefix}-{kind}", skill_text(name, desc, rng)),
            make_unit(other, shape, f"{prefix}-{kind}", second),
        )
    folder = f"{prefix}-{kind}"
    return (make_unit(scope, shape, folder, skill_text(name, desc, rng)),)
