"""TEMPORARY (report branch only, reverted before merging the spine): read a row field from
a dict row or a typed row."""

from collections.abc import Mapping
from typing import Any


def _f(row: Any, name: str, default: Any = None) -> Any:
    if isinstance(row, Mapping):
        return row.get(name, default)
    return getattr(row, name, default)
