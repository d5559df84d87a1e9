"""The run config's JSON Schema: current in docs, registry names as enums, configs valid."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from skillbench._plugins import REFERENCE_PATTERN
from skillbench.cli import main
from skillbench.listing import PROFILES
from skillbench.replay import config_schema
from skillbench.selectors import RETRIEVERS, SELECTORS


def test_docs_schema_is_current(repo_root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema", "config"]) == 0
    printed = json.loads(capsys.readouterr().out)
    committed = json.loads((repo_root / "docs" / "run-config.schema.json").read_text())
    assert printed == committed, (
        "regenerate: skillbench schema config > docs/run-config.schema.json"
    )


def test_registry_names_are_enums() -> None:
    schema = config_schema()
    name, with_options = schema["properties"]["profiles"]["items"]["anyOf"]
    assert name == with_options["properties"]["name"]
    (names, reference) = name["anyOf"]
    assert names["enum"] == PROFILES.names() and reference["pattern"] == REFERENCE_PATTERN
    selector = schema["$defs"]["SelectorConfig"]["properties"]["type"]
    assert selector["anyOf"] == [{"enum": SELECTORS.names()}, reference]
    method = schema["$defs"]["RetrieveConfig"]["properties"]["method"]
    assert method["enum"] == RETRIEVERS.names() == ["bm25", "embedding"]


def test_bundled_configs_are_valid_and_typos_are_not(repo_root: Path) -> None:
    validator = jsonschema.Draft202012Validator(config_schema())
    for path in sorted((repo_root / "configs").glob("*.yaml")):
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
        assert not list(validator.iter_errors(config)), path
    config = yaml.safe_load((repo_root / "configs" / "quickstart.yaml").read_text())
    assert list(validator.iter_errors({**config, "profiles": ["codbot"]}))
    assert list(validator.iter_errors({**config, "profiles": [{"name": "codbot"}]}))
    assert not list(validator.iter_errors({**config, "profiles": [{"name": "codex"}]}))
    plugin = {"profiles": ["mypkg.profiles:mine"], "selectors": [{"type": "mypkg:Mine"}]}
    assert not list(validator.iter_errors({**config, **plugin}))
    assert list(validator.iter_errors({**config, "orderings": ["alfa"]}))
    assert list(validator.iter_errors({**config, "budgets": [-1]}))


def test_retrieve_stages_are_checked(repo_root: Path) -> None:
    validator = jsonschema.Draft202012Validator(config_schema())
    config = yaml.safe_load((repo_root / "configs" / "retrieval.yaml").read_text())
    assert not list(validator.iter_errors(config))
    stage = config["selectors"][1]

    def with_stage(**retrieve: object) -> dict[str, object]:
        return {**config, "selectors": [{**stage, "retrieve": retrieve}]}

    assert not list(validator.iter_errors(with_stage(method="bm25", k=20)))
    assert not list(validator.iter_errors(with_stage(method="bm25")))  # k defaults to 10
    assert list(validator.iter_errors(with_stage(method="bm52", k=5)))
    assert list(validator.iter_errors(with_stage(method="bm25", k=0)))
    assert list(validator.iter_errors(with_stage(k=5)))
