"""Markdown tables of the record fields, generated from the models' field docstrings.

``docs/architecture.md`` holds each table between ``<!-- fields:Model -->`` and
``<!-- /fields -->``; :func:`update_field_tables` rewrites them, and a test checks the file
is current.
"""

from __future__ import annotations

import re
import types
import typing
from typing import Any

from pydantic import BaseModel

from skillbench.results._manifest import Manifest
from skillbench.results._summary import cell_model
from skillbench.types import ResultRow

MODELS: dict[str, type[BaseModel]] = {
    "ResultRow": ResultRow,
    "SummaryCell": cell_model(),
    "Manifest": Manifest,
}
_BLOCK = re.compile(r"(<!-- fields:(\w+) -->\n).*?(<!-- /fields -->)", re.S)


def _type(annotation: Any) -> str:
    """A short, JSON-flavoured type name (``int | null``, ``list[str]``)."""
    if annotation is type(None):
        return "null"
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return " \\| ".join(_type(a) for a in typing.get_args(annotation))
    if origin is typing.Literal:
        return "str"
    if origin is not None:
        args = ", ".join(_type(a) for a in typing.get_args(annotation))
        name = getattr(origin, "__name__", str(origin))
        return f"{name}[{args}]"
    return getattr(annotation, "__name__", str(annotation))


def field_table(model: type[BaseModel]) -> str:
    """``| field | type | meaning |`` rows for every field of ``model`` its file holds
    (fields excluded from dumps are not keys of the file), in order."""
    lines = ["| field | type | meaning |", "|---|---|---|"]
    for name, info in model.model_fields.items():
        if info.exclude:
            continue
        text = " ".join((info.description or "").split()).replace("|", "\\|")
        lines.append(f"| `{name}` | {_type(info.annotation)} | {text} |")
    return "\n".join(lines) + "\n"


def update_field_tables(markdown: str) -> str:
    """``markdown`` with every marked field table regenerated."""

    def table(match: re.Match[str]) -> str:
        return match.group(1) + field_table(MODELS[match.group(2)]) + match.group(3)

    return _BLOCK.sub(table, markdown)


if __name__ == "__main__":
    import sys
    from pathlib import Path

    doc = Path(sys.argv[1])
    doc.write_text(update_field_tables(doc.read_text(encoding="utf-8")), encoding="utf-8")
