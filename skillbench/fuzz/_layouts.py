"""Layout shapes: nesting, packs, ``skills/`` sub-folders, links, hidden folders, lower-case
``skill.md``, files that are not skills."""

from __future__ import annotations

import random

from skillbench.catalog import SourceKind
from skillbench.fuzz._text import WORDS, make_unit, phrase, plain_description, skill_text
from skillbench.fuzz._types import FuzzFile, FuzzLink, FuzzUnit


def _skill(rng: random.Random, name: str) -> bytes:
    return skill_text(name, plain_description(rng), rng).encode("utf-8")


def layout_case(
    scope: SourceKind, shape: str, prefix: str, kind: str, rng: random.Random
) -> tuple[FuzzUnit, ...]:
    """The units of one layout shape ``kind``."""
    files: list[FuzzFile] = []
    links: list[FuzzLink] = []
    if kind == "depth":
        depth = rng.randint(0, 4)
        folder = "/".join([f"{prefix}-d{depth}", *(rng.choice(WORDS) for _ in range(depth))])
        files.append(FuzzFile(f"{folder}/SKILL.md", _skill(rng, f"{prefix}-deep")))
    elif kind == "root":
        files.append(FuzzFile("SKILL.md", _skill(rng, f"{prefix}-root")))
    elif kind in ("pack", "skills-subfolder"):
        if kind == "pack":
            files.append(FuzzFile(f"{prefix}-pack/SKILL.md", _skill(rng, f"{prefix}-pack")))
        for j in range(rng.randint(1, 3)):
            child = f"{prefix}-pack/skills/{prefix}-child{j}/SKILL.md"
            files.append(FuzzFile(child, _skill(rng, f"{prefix}-child{j}")))
    elif kind in ("symlink", "symlink-outside"):
        real = f"{prefix}-real" if kind == "symlink" else f"../store-{prefix}/{prefix}-real"
        files.append(FuzzFile(f"{real}/SKILL.md", _skill(rng, f"{prefix}-linked")))
        target = f"{prefix}-real" if kind == "symlink" else f"../store-{prefix}/{prefix}-real"
        links.append(FuzzLink(f"{prefix}-link", target))
    elif kind == "hidden":
        files.append(FuzzFile(f".{prefix}-hidden/SKILL.md", _skill(rng, f"{prefix}-hidden")))
        inner = f"{prefix}-vis/.inner/{prefix}-h/SKILL.md"
        files.append(FuzzFile(inner, _skill(rng, f"{prefix}-inner")))
        files.append(FuzzFile(f"{prefix}-vis/SKILL.md", _skill(rng, f"{prefix}-vis")))
    elif kind == "lowercase-file":
        text = skill_text(f"{prefix}-lower", plain_description(rng), rng)
        return (make_unit(scope, shape, f"{prefix}-lower", text, "skill.md"),)
    elif kind == "non-skill-files":
        folder = f"{prefix}-files"
        files += [
            FuzzFile(f"{folder}/SKILL.md", _skill(rng, f"{prefix}-files")),
            FuzzFile(f"{folder}/README.md", f"# {phrase(rng)}\n".encode()),
            FuzzFile(f"{folder}/extra.md", _skill(rng, f"{prefix}-extra")),
            FuzzFile(f"{folder}/data.bin", bytes(range(256))),
            FuzzFile(f"{prefix}-nonskill/README.md", _skill(rng, f"{prefix}-readme")),
        ]
    else:
        files.append(FuzzFile(f"{prefix}-flat.md", _skill(rng, f"{prefix}-flat")))
    return (FuzzUnit(scope, shape, tuple(files), tuple(links)),)
