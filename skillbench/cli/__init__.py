"""The ``skillbench`` command line."""

from skillbench.cli._main import main

__all__ = ["main"]
