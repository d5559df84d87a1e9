"""The package layers: each package imports only from packages on lower layers.

Type-checking-only imports (under ``if TYPE_CHECKING:``) are left out: they name types for
the checker and create no dependency at run time. Imports inside functions count.
"""

from __future__ import annotations

import ast
from pathlib import Path

import skillbench

LAYERS: list[set[str]] = [
    {"types", "_errors", "__init__"},
    {"_plugins"},
    {"_io", "_output", "_sanitize", "_registry"},
    {"_yaml"},
    {"tokens", "cache", "catalog", "usage"},
    {"listing", "dataset"},
    {"agents", "evalsets"},
    {"cost"},
    {"selectors"},
    {"metrics"},
    {"results"},
    {"replay"},
    {"report", "transcripts"},
    {"view", "authoring"},
    {"planner"},
    {"cli"},
    {"__main__"},
]
"""Lowest first. The shared vocabulary and the error types sit on the ground floor, the
safe file reading, the text sanitiser and the registry just above, then the YAML loader
(which reads through the safe reader); skill-cost arithmetic sits
below selectors because a model selector measures a forked invocation's cost itself."""

ROOT = Path(skillbench.__file__).parent
LAYER = {name: i for i, names in enumerate(LAYERS) for name in names}


def _package(module: str) -> str:
    """``skillbench.replay._engine`` → ``replay``; ``skillbench.types`` → ``types``."""
    parts = module.split(".")
    return parts[1].removesuffix(".py") if len(parts) > 1 else "__init__"


def _type_checking_lines(tree: ast.AST) -> set[int]:
    lines: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for child in node.body:
                lines.update(range(child.lineno, (child.end_lineno or child.lineno) + 1))
    return lines


def imports() -> list[tuple[str, str, str]]:
    """(importing package, imported package, file:line) for each run-time skillbench import."""
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT)
        source = rel.parts[0].removesuffix(".py")
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_lines(tree)
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
                if node.module == "skillbench":
                    names = [f"skillbench.{a.name}" for a in node.names if a.name in LAYER]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            for name in names:
                if name.startswith("skillbench.") and node.lineno not in skip:
                    out.append((source, _package(name), f"{rel}:{node.lineno}"))
    return out


def test_every_package_has_a_layer() -> None:
    packages = {
        p.name.removesuffix(".py")
        for p in ROOT.iterdir()
        if p.suffix == ".py" or (p / "__init__.py").exists()
    }
    assert packages <= set(LAYER), packages - set(LAYER)


def test_packages_import_only_lower_layers() -> None:
    wrong = [
        f"{where}: {source} (layer {LAYER[source]}) imports {target} (layer {LAYER[target]})"
        for source, target, where in imports()
        if source != target and LAYER[target] >= LAYER[source]
    ]
    assert wrong == []
