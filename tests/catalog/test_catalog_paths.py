"""``paths`` activation against a working directory, with gitignore-style globs."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skillbench.catalog import any_match, clear_paths_cache, load_catalog, matches

WriteSkill = Callable[..., Path]


@pytest.mark.parametrize(
    ("patterns", "path", "expected"),
    [
        (["*.py"], "a/b/c.py", True),
        (["*.py"], "c.pyc", False),
        (["/*.py"], "a/c.py", False),
        (["/*.py"], "c.py", True),
        (["src/*.ts"], "src/a.ts", True),
        (["src/*.ts"], "src/x/a.ts", False),
        (["src/*.ts"], "lib/src/a.ts", False),
        (["src/**/*.ts"], "src/a.ts", True),
        (["src/**/*.ts"], "src/x/y/a.ts", True),
        (["**/*.ts"], "a.ts", True),
        (["docs/"], "docs/guide/intro.md", True),
        (["docs"], "a/docs/intro.md", True),
        (["src/**"], "src/a/b", True),
        (["Docker?ile"], "Dockerfile", True),
        (["*.[ch]"], "x/y.h", True),
        (["*.[!ch]"], "y.h", False),
        (["*.py", "!tests/**"], "tests/test_x.py", False),
        (["*.py", "!tests/**"], "src/x.py", True),
        (["a+b(c).md"], "a+b(c).md", True),
    ],
)
def test_glob_semantics(patterns: list[str], path: str, expected: bool) -> None:
    assert matches(patterns, path) is expected


def test_paths_skills_follow_the_working_directory(tmp_path: Path, write_skill: WriteSkill) -> None:
    skills, work = tmp_path / "skills", tmp_path / "work"
    write_skill(skills, "always", name="always")
    write_skill(skills, "py", name="py", paths="'**/*.py'")
    write_skill(skills, "ts", name="ts", paths="[src/**/*.ts, '*.tsx']")
    write_skill(skills, "off", name="off", paths="'*.py'", **{"disable-model-invocation": "true"})
    (work / "pkg" / ".venv").mkdir(parents=True)
    (work / "pkg" / "mod.py").write_text("")
    (work / "pkg" / ".venv" / "x.ts").write_text("")

    without = load_catalog([str(skills)])
    assert without.inactive == frozenset({"py", "ts", "off"})
    assert [s.name for s in without.active] == ["always"]

    catalog = load_catalog([str(skills)], cwd=work)
    assert catalog.cwd == str(work)
    assert catalog.inactive == frozenset({"ts"})
    status = {s.name: catalog.status(s) for s in catalog.skills}
    assert status == {"always": "active", "off": "disabled", "py": "active", "ts": "inactive"}

    (work / "src" / "ui").mkdir(parents=True)
    (work / "src" / "ui" / "a.ts").write_text("")
    assert "ts" in load_catalog([str(skills)], cwd=work).inactive, "file lists are cached per cwd"
    clear_paths_cache()
    assert load_catalog([str(skills)], cwd=work).inactive == frozenset()


_NAMES = st.sampled_from(["src", "docs", "a", "b.py", "c.ts", "x.md", "tests", "Dockerfile"])
_PATTERNS = st.sampled_from(
    ["*.py", "/*.py", "src/**", "**/*.ts", "docs/", "a", "tests/**", "!tests/**", "!*.md",
     "src/*.ts", "*.[ch]", "b.*", "**/a/**", "/docs/x.md", "Docker?ile", "!src/"]
)  # fmt: skip


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    files=st.lists(st.lists(_NAMES, min_size=1, max_size=4), min_size=1, max_size=12),
    patterns=st.lists(_PATTERNS, min_size=1, max_size=4),
)
def test_a_tree_matches_when_one_of_its_files_does(
    tmp_path_factory: pytest.TempPathFactory, files: list[list[str]], patterns: list[str]
) -> None:
    """The tree walk decides as the per-file rule does on every file of the tree."""
    work = tmp_path_factory.mktemp("work")
    written: list[str] = []
    for parts in files:
        path = work.joinpath(*parts)
        if any(p.is_file() for p in [path, *path.parents] if p != work) or path.is_dir():
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("")
        written.append("/".join(parts))
    expected = any(matches(patterns, rel) for rel in written)
    assert any_match(patterns, work) is expected
