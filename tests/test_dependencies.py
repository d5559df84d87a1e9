"""Every third-party package ``skillbench/`` imports is declared in pyproject.toml.

A package that only arrives through another one's dependencies (scipy through
sentence-transformers, once) breaks the day that one drops it.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import skillbench

ROOT = Path(skillbench.__file__).parent
PYPROJECT = ROOT.parent / "pyproject.toml"


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def imported_modules() -> dict[str, str]:
    """Top-level third-party module → the first ``file:line`` importing it."""
    found: dict[str, str] = {}
    for path in sorted(ROOT.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "skillbench":
                    found.setdefault(top, f"{path.relative_to(ROOT.parent)}:{node.lineno}")
    return found


def declared() -> set[str]:
    """Distribution names of the dependencies and of every extra but the test/dev ones."""
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    requirements = [*project["dependencies"]]
    for extra, listed in extras.items():
        if extra not in ("test", "dev"):
            requirements += listed
    return {_normal(re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0]) for r in requirements}


def test_every_imported_package_is_declared() -> None:
    distributions = packages_distributions()
    names = declared()
    missing = []
    for module, where in imported_modules().items():
        # A module not installed here (an optional extra) is named like its distribution.
        candidates = {_normal(d) for d in distributions.get(module, [module])}
        if not candidates & names:
            missing.append(f"{where}: imports {module} ({', '.join(sorted(candidates))})")
    assert missing == []


def test_the_scan_sees_the_imports() -> None:
    found = imported_modules()
    assert {"numpy", "pydantic", "yaml", "scipy", "ray"} <= set(found)
    assert not {"os", "json", "skillbench"} & set(found)
