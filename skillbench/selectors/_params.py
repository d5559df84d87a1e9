"""Validating selector params: unknown keys and bad values fail with the nearest valid key."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Literal

from skillbench._errors import SkillbenchError, suggest

Converter = Callable[[Any], Any]
"""Turns a raw config value into the typed value, raising ``ValueError`` with a reason."""


def check_params(
    kind: str, params: Mapping[str, Any], spec: Mapping[str, tuple[Converter, Any]]
) -> dict[str, Any]:
    """Typed params for selector ``kind``: ``spec`` maps each key to (converter, default).

    Raises:
        SkillbenchError: on an unknown key (naming the nearest valid one) or a bad value.
    """
    for key in params:
        if key not in spec:
            valid = ", ".join(sorted(spec)) or "none"
            raise SkillbenchError(
                f"selector {kind!r}: unknown parameter {key!r}{suggest(key, spec)}; "
                f"valid parameters: {valid}"
            )
    out: dict[str, Any] = {}
    for key, (convert, default) in spec.items():
        if key not in params:
            out[key] = default
            continue
        try:
            out[key] = convert(params[key])
        except (TypeError, ValueError) as e:
            raise SkillbenchError(
                f"selector {kind!r}: parameter {key!r}={params[key]!r}: {e}"
            ) from None
    return out


def threshold_param(value: Any) -> float | Literal["auto"]:
    """A similarity/score threshold, or ``auto`` to fit it on the train split."""
    if isinstance(value, str) and value.strip().lower() == "auto":
        return "auto"
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError("expected a number or 'auto'")
    return float(value)


def probability_param(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError("expected a number between 0 and 1")
    return float(value)


def positive_int_param(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError("expected a positive integer")
    return value


def str_param(value: Any) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError("expected a non-empty string")
    return value.strip()
