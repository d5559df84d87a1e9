"""A toy third-party plugin package, written out and pip-installed by the tests.

``skillbench_toy`` registers, when its entry point loads it, a selector ``toy/first`` (invoke
the first listed skill), a profile ``toy-names`` (``- name`` lines under a character budget)
and a metric ``toy/invoke_rate``; it also holds parts that are only reachable by
``module:object`` names: ``skillbench_toy.selectors:LastShown`` (invoke the last listed skill,
the class itself being the factory), ``skillbench_toy.profiles:BARE`` (bare ``name`` lines,
never registered) and ``skillbench_toy.metrics:ABSTAIN_RATE`` (a metric never registered, so no
summary column). ``skillbench_broken`` raises on import.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PYPROJECT = """\
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1"

[project.entry-points."skillbench.plugins"]
{entry_point}

[tool.setuptools]
packages = ["{name}"]
"""

SELECTORS = '''\
from skillbench.selectors import SELECTORS, Decision


def _pick(names, index):
    return Decision("invoke", names[index]) if names else Decision("abstain")


class FirstShown:
    name = "toy/first"

    def select(self, queries):
        return [_pick(q.listing.shown_names, 0) for q in queries]


@SELECTORS.register("toy/first")
def first_shown(params, env):
    return FirstShown()


class LastShown:
    """Reachable as skillbench_toy.selectors:LastShown only; the class is the factory."""

    name = "toy/last"

    def __init__(self, params, env):
        self.params = params

    def select(self, queries):
        return [_pick(q.listing.shown_names, -1) for q in queries]
'''

PROFILES = '''\
from dataclasses import dataclass

from skillbench.catalog import Precedence
from skillbench.listing import Entry, Layout, Profile, register_profile


@dataclass(frozen=True)
class NamesRenderer:
    """One ``prefix + name`` line per skill; stops at the first line over the budget, which
    counts the lines and the newlines between them."""

    prefix: str = "- "
    default_budget: int | None = 100
    name: str = "toy-names"
    budgeted: bool = True
    uses_scores: bool = False
    layout_uses_scores: bool = False
    stops_early: bool = True

    @property
    def rules(self):
        return {"dropped": "budget reached"}

    def hidden(self, skill):
        return None

    def shown_path(self, skill):
        return None

    def entry(self, skill, index):
        return Entry(skill, index, self.prefix + skill.name, "full", "")

    def layout(self, ordered, budget, scores):
        limit = budget if budget is not None else float("inf")
        texts, shown = [], []
        for e in ordered:
            used = sum(map(len, texts)) + len(texts)
            if used + len(e.text) > limit:
                break
            texts.append(e.text)
            shown.append(e.placed)
        return Layout("\\n".join(texts), sum(map(len, texts)) + max(len(texts) - 1, 0), shown)


def _names(budget=100):
    return NamesRenderer("- ", budget, "toy-names")


def _bare(budget=100):
    return NamesRenderer("", budget, "toy-bare")


RULES = Precedence("toy-names", ("project",), True, "toy: a later source wins")
NAMES = register_profile(
    Profile("toy-names", RULES, _names, "system", "skill_tool", "names under a budget")
)
BARE = Profile(
    "toy-bare", RULES, _bare, "system", "skill_tool", "bare names under a budget"
)
'''

METRICS = """\
from skillbench.metrics import INVOKED, METRICS, Metric, completed, rate, wilson_json
from skillbench.results import ResultRow


def _invoked(row: ResultRow) -> bool:
    return row.outcome in INVOKED


def _invoke_rate(rows):
    counted = [r for r in rows if completed(r)]
    hits = sum(1 for r in counted if _invoked(r))
    return rate(hits, len(counted)), wilson_json(hits, len(counted))


INVOKE_RATE = METRICS.register("toy/invoke_rate")(
    Metric(
        "toy/invoke_rate",
        "decisions that invoked any skill / completed decisions",
        False,
        "wilson",
        completed,
        _invoked,
        _invoke_rate,
    )
)
def _abstain_rate(rows):
    counted = [r for r in rows if completed(r)]
    hits = sum(1 for r in counted if not _invoked(r))
    return rate(hits, len(counted)), wilson_json(hits, len(counted))


# Never registered: reachable as skillbench_toy.metrics:ABSTAIN_RATE only.
ABSTAIN_RATE = Metric(
    "toy/abstain_rate",
    "decisions that invoked no skill / completed decisions",
    False,
    "wilson",
    completed,
    lambda row: not _invoked(row),
    _abstain_rate,
)
NOT_A_METRIC = 42
"""

TOY_INIT = "from skillbench_toy import metrics, profiles, selectors  # noqa: F401\n"


def write_package(root: Path, name: str, entry_point: str, files: dict[str, str]) -> Path:
    """A source tree for package ``name`` under ``root``; returns its folder."""
    project = root / name
    (project / name).mkdir(parents=True)
    (project / "pyproject.toml").write_text(
        PYPROJECT.format(name=name, entry_point=entry_point), encoding="utf-8"
    )
    for filename, text in files.items():
        (project / name / filename).write_text(text, encoding="utf-8")
    return project


def pip_install(project: Path, site: Path) -> None:
    """Install ``project`` into ``site`` offline: no dependencies, no build isolation."""
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            "--target",
            str(site),
            str(project),
        ],
        check=True,
        capture_output=True,
    )


def build_toy(root: Path) -> Path:
    """The working toy plugin, installed into ``root/site``; returns the site folder."""
    project = write_package(
        root,
        "skillbench_toy",
        'toy = "skillbench_toy"',
        {
            "__init__.py": TOY_INIT,
            "selectors.py": SELECTORS,
            "profiles.py": PROFILES,
            "metrics.py": METRICS,
        },
    )
    site = root / "site"
    pip_install(project, site)
    return site


def build_broken(root: Path) -> Path:
    """A plugin whose module raises on import, installed into ``root/broken-site``."""
    project = write_package(
        root,
        "skillbench_broken",
        'broken = "skillbench_broken"',
        {"__init__.py": 'raise RuntimeError("the broken plugin refuses to load")\n'},
    )
    site = root / "broken-site"
    pip_install(project, site)
    return site
