"""The selector registry: config ``type`` → factory."""

from __future__ import annotations

from skillbench._plugins import factory_of
from skillbench._registry import Registry
from skillbench.selectors._types import SelectorFactory

SELECTORS: Registry[SelectorFactory] = Registry("selector", adopt=factory_of("params", "env"))
"""Every selector type a config may name; modules register their factory at import time."""
