"""The package layers: each package imports only from packages on lower layers.

Both kinds of import count: run-time ones (inside functions too) and type-checking-only
ones (under ``if TYPE_CHECKING:``). A typing import creates no dependency at run time, but a
record named by a floor below the one that defines it is a knot in the design all the same.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import NamedTuple

import skillbench

LAYERS: list[set[str]] = [
    {"_excerpt"},
    {"types", "_errors", "__init__"},
    {"_plugins"},
    {"_io", "_output", "_sanitize", "_registry"},
    {"_yaml"},
    {"tokens", "cache", "catalog", "usage"},
    {"agentspec"},
    {"listing", "dataset"},
    {"agents", "evalsets"},
    {"cost", "fuzz"},
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
"""Lowest first. The bound on what a decision keeps of a model's answer (standard library
only) lies beneath the ground floor, where the shared vocabulary and the error types sit; the
safe file reading, the text sanitiser and the registry just above, then the YAML loader
(which reads through the safe reader); the agents' records sit above the catalog whose
loading rules they hold and below the listings rendered from them; skill-cost arithmetic sits
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


class Import(NamedTuple):
    source: str
    """The importing package."""
    target: str
    """The imported package."""
    where: str
    """``file:line``."""
    typing: bool
    """Under ``if TYPE_CHECKING:`` (names types for the checker only)."""


def imports() -> list[Import]:
    """Every skillbench import between packages, run-time and typing-only."""
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
                if name.startswith("skillbench."):
                    typing = node.lineno in skip
                    out.append(Import(source, _package(name), f"{rel}:{node.lineno}", typing))
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
        f"{i.where}: {i.source} (layer {LAYER[i.source]}) imports {i.target} "
        f"(layer {LAYER[i.target]}){' for typing' if i.typing else ''}"
        for i in imports()
        if i.source != i.target and LAYER[i.target] >= LAYER[i.source]
    ]
    assert wrong == []


def test_both_kinds_of_import_are_counted() -> None:
    """The scan sees typing-only imports (the floors name records below them that way)."""
    found = imports()
    assert any(i.typing for i in found) and any(not i.typing for i in found)


def test_the_package_graph_with_typing_imports_has_no_cycle() -> None:
    """Independent of the layer table: a depth-first search over every import finds no
    package that reaches itself."""
    graph: dict[str, set[str]] = {}
    for i in imports():
        if i.source != i.target:
            graph.setdefault(i.source, set()).add(i.target)
    state: dict[str, int] = {}
    cycle: list[str] = []

    def visit(node: str, path: list[str]) -> bool:
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                cycle.extend([*path[path.index(nxt) :], nxt])
                return True
            if nxt not in state and visit(nxt, [*path, nxt]):
                return True
        state[node] = 2
        return False

    for start in sorted(graph):
        if start not in state and visit(start, [start]):
            break
    assert cycle == [], " → ".join(cycle)
