"""Half-life strings: ``90m``, ``12h``, ``7d``, ``2w``, ``inf`` or a number of seconds."""

from __future__ import annotations

import math
import re
from datetime import timedelta

from skillbench._errors import SkillbenchError

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
_PATTERN = re.compile(r"^\s*(\d+(?:\.\d+)?|\.\d+)\s*([smhdw]?)\s*$", re.IGNORECASE)
_INFINITE = {"inf", "infinite", "infinity", "none", "never"}


def parse_duration(value: str | float | timedelta | None) -> timedelta | None:
    """A positive duration, or ``None`` for an infinite one (no decay).

    Accepts ``timedelta``, a number of seconds, or a string with unit ``s``, ``m``, ``h``,
    ``d``, ``w`` (bare numbers are seconds); ``inf`` (or ``None``) means infinite.

    Raises:
        SkillbenchError: for anything else, zero or negative durations included.
    """
    if value is None:
        return None
    if isinstance(value, timedelta):
        seconds = value.total_seconds()
    elif isinstance(value, bool):
        raise SkillbenchError(f"invalid duration {value!r}")
    elif isinstance(value, int | float):
        if math.isinf(value) and value > 0:
            return None
        seconds = float(value)
    elif isinstance(value, str):
        if value.strip().lower() in _INFINITE:
            return None
        match = _PATTERN.match(value)
        if not match:
            raise SkillbenchError(
                f"invalid duration {value!r}: use a number with unit s, m, h, d or w "
                "(e.g. 90m, 12h, 7d, 2w), a number of seconds, or inf"
            )
        seconds = float(match.group(1)) * _UNITS[(match.group(2) or "s").lower()]
    else:
        raise SkillbenchError(f"invalid duration {value!r}")
    if not seconds > 0 or math.isnan(seconds):
        raise SkillbenchError(f"invalid duration {value!r}: it must be positive")
    return timedelta(seconds=seconds)
