"""Shrinking on a synthetic oracle: a difference caused by one line of one skill, or by two
skills together, shrinks to exactly that."""

from __future__ import annotations

from skillbench.fuzz import FuzzCatalog, FuzzFile, FuzzUnit, ddmin, shrink


def _catalog(n: int, bad: set[int]) -> FuzzCatalog:
    units = []
    for i in range(n):
        lines = [f"---\nname: s{i}\n", "description: fine and long enough to be cut down\n"]
        if i in bad:
            lines.insert(1, f"BAD{i} " + "x" * 300 + "\n")
        data = "".join([*lines, "---\nbody line one\nbody line two\n"]).encode()
        units.append(FuzzUnit("project", "test", (FuzzFile(f"s{i}/SKILL.md", data),)))
    return FuzzCatalog("synthetic", tuple(units), {"BUDGET": "5"}, {"s1": 3})


def _files(catalog: FuzzCatalog) -> bytes:
    return b"".join(f.data for u in catalog.units for f in u.files)


def test_one_culprit_shrinks_to_its_line() -> None:
    calls = []

    def oracle(c: FuzzCatalog) -> bool:
        calls.append(c)
        return b"BAD17" in _files(c)

    small, tries = shrink(_catalog(60, {17}), oracle, tries=200)
    assert len(small.units) == 1
    assert small.units[0].files[0].path == "s17/SKILL.md"
    assert small.units[0].files[0].data.startswith(b"BAD17")
    assert len(small.units[0].files[0].data) < 60
    assert small.env == {} and small.usage == {}
    assert tries == len(calls) <= 80


def test_two_skills_that_only_differ_together() -> None:
    def oracle(c: FuzzCatalog) -> bool:
        data = _files(c)
        return b"BAD3" in data and b"BAD41" in data

    small, _ = shrink(_catalog(50, {3, 41, 9}), oracle, tries=300)
    assert sorted(u.files[0].path for u in small.units) == ["s3/SKILL.md", "s41/SKILL.md"]


def test_the_try_budget_bounds_the_oracle_calls() -> None:
    calls = []

    def oracle(c: FuzzCatalog) -> bool:
        calls.append(c)
        return b"BAD5" in _files(c)

    shrink(_catalog(200, {5}), oracle, tries=7)
    assert len(calls) == 7


def test_a_difference_without_skills_shrinks_to_the_empty_catalog() -> None:
    small, tries = shrink(_catalog(30, {2}), lambda c: True, tries=50)
    assert small.units == () and tries == 1


def test_ddmin_is_one_minimal() -> None:
    assert ddmin(list(range(100)), lambda xs: 13 in xs and 77 in xs) == [13, 77]
    assert ddmin([1, 2, 3], lambda xs: True) in ([1], [2], [3])
