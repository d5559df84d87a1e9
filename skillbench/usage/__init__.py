"""Usage history and its exponential decay, which drives the ``usage`` ordering."""

from skillbench.usage._duration import parse_duration
from skillbench.usage._ranked import RankedScores
from skillbench.usage._tracker import (
    DEFAULT_FLOOR,
    DEFAULT_HALF_LIFE,
    USAGE_MODELS,
    EventsRecord,
    LastUseRecord,
    UsageModel,
    UsageTracker,
    timestamp,
)

__all__ = [
    "DEFAULT_FLOOR",
    "DEFAULT_HALF_LIFE",
    "USAGE_MODELS",
    "EventsRecord",
    "LastUseRecord",
    "RankedScores",
    "UsageModel",
    "UsageTracker",
    "parse_duration",
    "timestamp",
]
