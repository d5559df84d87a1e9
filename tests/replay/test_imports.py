"""The replay package's module graph: no import cycle, and the run config read at its entries."""

from __future__ import annotations

import ast
from pathlib import Path

import skillbench.replay

PACKAGE = Path(skillbench.replay.__file__).parent

ENTRIES = {"_engine", "_plan", "_relabel"}
"""Modules whose public functions take a ``RunConfig`` and resolve it once."""


def _imports(path: Path) -> set[str]:
    """Sibling modules ``path`` imports anywhere: top level, in functions and for type
    checkers only (a cycle through those still ties the modules together)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.startswith("skillbench.replay."):
                found.add(node.module.split(".")[2])
            elif node.module == "skillbench.replay":
                found.update(a.name for a in node.names if (PACKAGE / f"{a.name}.py").exists())
    return found


def _graph() -> dict[str, set[str]]:
    return {p.stem: _imports(p) for p in PACKAGE.glob("_*.py") if p.stem != "__init__"}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of ``graph`` (empty when there is none), by depth-first search."""
    state: dict[str, str] = {}
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = "open"
        path.append(module)
        for dep in sorted(graph.get(module, ())):
            if state.get(dep) == "open":
                return [*path[path.index(dep) :], dep]
            if dep not in state and (found := visit(dep)):
                return found
        state[module] = "done"
        path.pop()
        return []

    for module in sorted(graph):
        if module not in state and (found := visit(module)):
            return found
    return []


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


def test_replay_modules_import_each_other_without_a_cycle() -> None:
    graph = _graph()
    assert {"_engine", "_prepare", "_local", "_ray", "_executor"} <= set(graph)
    assert _cycle(graph) == []


def test_the_ray_executor_imports_no_private_function() -> None:
    tree = ast.parse((PACKAGE / "_ray.py").read_text(encoding="utf-8"))
    private = [
        f"{node.module}.{a.name}"
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("skillbench")
        for a in node.names
        if a.name.startswith("_")
    ]
    assert private == []


def test_only_the_entry_points_and_the_resolver_read_the_run_config() -> None:
    texts = {p.stem: p.read_text(encoding="utf-8") for p in PACKAGE.glob("_*.py")}
    readers = {m for m, text in texts.items() if "RunConfig" in text or "load_config" in text}
    readers.discard("__init__")
    assert readers == {"_config", "_schema", "_experiment"} | ENTRIES
