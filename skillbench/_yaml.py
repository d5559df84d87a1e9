"""YAML loading that keeps the line of every mapping key, so errors can point at the file.

Shared by every YAML input (run configs, request files)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from skillbench._errors import InputError, Location


class LineDict(dict[Any, Any]):
    """A dict from a YAML mapping: ``line`` is where it starts, ``lines[key]`` where each key is."""

    line: int | None
    lines: dict[Any, int]

    def __init__(self) -> None:
        super().__init__()
        self.line = None
        self.lines = {}


class _LineLoader(yaml.SafeLoader):
    pass


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    data = LineDict()
    data.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        data[key] = loader.construct_object(value_node, deep=True)
        data.lines[key] = key_node.start_mark.line + 1
    return data


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(path: Path) -> Any:
    """Parse ``path``; mappings come back as :class:`LineDict`. Syntax errors name the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(Location(str(path)), f"cannot read: {exc}") from None
    try:
        return yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc)
        raise InputError(Location(str(path), line), f"invalid YAML: {problem}") from None
