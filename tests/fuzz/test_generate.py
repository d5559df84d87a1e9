"""Generators: the same seed gives the same catalogs, every shape class is drawn, and each
YAML shape means what a YAML parser (PyYAML) independently makes of it."""

from __future__ import annotations

import pytest
import yaml

from skillbench.agentspec import AGENT_SPECS
from skillbench.fuzz import SHAPE_CLASSES, YAML_SHAPES, generate_cases, pack_cases, pack_limit

INVALID = object()
EXPECTED = {
    "plain": "one two",
    "single-quoted": "one it's two",
    "double-quoted": 'one\t"two"é',
    "folded": "one two\n",
    "folded-strip": "one two",
    "folded-keep": "one two\n\n",
    "literal": "one\ntwo\n",
    "literal-strip": "one\ntwo",
    "literal-keep": "one\ntwo\n\n",
    "folded-indent": " one\ntwo\n",
    "multiline-plain": "one two end",
    "colon-quoted": "one: two",
    "colon-plain": "one:two url http://x.test/two",
    "colon-space-plain": INVALID,
    "hash-comment": "one",
    "hash-inside": "one#two C# issue#1",
    "tab": INVALID,  # YAML 1.2 allows a tab inside a plain scalar; PyYAML refuses it
    "trailing-spaces": "one two",
    "unicode": "one héllo 🚀 日本語 two ∑ \u200b",
    "empty": None,
    "empty-quoted": "",
    "missing": None,
    "unclosed-quote": INVALID,
    "unclosed-flow": INVALID,
    "bad-indent": INVALID,
    "list-value": ["one", "two"],
    "number": 12.5,
    "extra-keys": "one two",
}


@pytest.mark.parametrize("shape", sorted(YAML_SHAPES))
def test_yaml_shape_parses_as_expected(shape: str) -> None:
    text = YAML_SHAPES[shape]("one", "two") + "name: x\n"
    expected = EXPECTED[shape]
    if expected is INVALID:
        with pytest.raises(yaml.YAMLError):
            yaml.safe_load(text)
        return
    data = yaml.safe_load(text)
    assert data.get("description") == expected
    assert data["name"] == "x"


def test_every_yaml_shape_has_an_expectation() -> None:
    assert set(EXPECTED) == set(YAML_SHAPES)


@pytest.mark.parametrize("agent", AGENT_SPECS.names())
def test_same_seed_same_catalogs(agent: str) -> None:
    spec = AGENT_SPECS.get(agent)
    assert generate_cases(spec, 80, 7) == generate_cases(spec, 80, 7)
    assert generate_cases(spec, 80, 7) != generate_cases(spec, 80, 8)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_shape_class_is_drawn(seed: int) -> None:
    spec = AGENT_SPECS.get("codex")
    cases = generate_cases(spec, len(SHAPE_CLASSES), seed)
    assert sorted(c.shape for c in cases) == sorted(SHAPE_CLASSES)
    assert all(c.units for c in cases if c.shape != "size:many")


def test_scopes_budget_and_usage_come_from_the_record() -> None:
    for agent in AGENT_SPECS.names():
        spec = AGENT_SPECS.get(agent)
        cases = generate_cases(spec, 400, 1)
        scopes = {u.scope for c in cases for u in c.units}
        assert scopes <= {f.scope for f in spec.folders if f.install}
        variables = {k for c in cases for k in c.env}
        assert variables <= {spec.launch.budget_variable}
        assert any(c.usage for c in cases) == spec.launch.keeps_usage


def test_size_cases_cross_the_extremes() -> None:
    spec = AGENT_SPECS.get("claude-code")
    sizes = [c for c in generate_cases(spec, 2000, 1) if c.alone]
    counts = [len(c.units) for c in sizes]
    longest = max(len(f.data) for c in sizes for u in c.units for f in u.files)
    assert min(counts) <= 3 and max(counts) >= 2000
    assert longest > 8000


def test_packs_keep_cases_apart() -> None:
    for agent in AGENT_SPECS.names():
        spec = AGENT_SPECS.get(agent)
        cases = generate_cases(spec, 150, 3)
        catalogs = pack_cases(spec, cases)
        packed = [c for c in catalogs if c.label.startswith("pack-")]
        assert len(packed) < len([c for c in cases if not c.alone]) / 5
        units = [u for c in packed for u in c.units]
        assert len(units) == sum(len(c.units) for c in cases if not c.alone)
        for pack in packed:
            if spec.launch.budget_variable and pack_limit(spec) is None:
                assert int(pack.env[spec.launch.budget_variable]) >= 10**6
            roots = [f.path for u in pack.units for f in u.files if f.path == "SKILL.md"]
            assert len(roots) <= 1
