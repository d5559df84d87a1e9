"""The temporary HOME and project an agent runs in, and the little it inherits."""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple


class Workspace(NamedTuple):
    """The temporary HOME and project an agent runs in."""

    home: Path
    project: Path


def base_environment() -> dict[str, str]:
    """PATH and locale from the caller; nothing else (no keys, no proxies, no agent config)."""
    keep = ("PATH", "LANG", "LC_ALL", "TZ", "SYSTEMROOT")
    return {k: os.environ[k] for k in keep if k in os.environ}
