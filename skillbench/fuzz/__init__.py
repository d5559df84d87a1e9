"""Differential testing against the shipped agent CLIs (``skillbench agents check --fuzz``).

Seeded generators draw catalogs of every shape (front matter, names, layout, size and
budget), packing puts many in one agent start-up, each capture is compared byte for byte
with the profile of the captured release, and every difference is shrunk by delta
debugging to a minimal catalog written as a reproducer folder.
"""

from skillbench.fuzz._check import FuzzSettings, fuzz_catalogs, fuzz_release
from skillbench.fuzz._generate import SHAPE_CLASSES, generate_case, generate_cases
from skillbench.fuzz._pack import pack_cases, pack_limit
from skillbench.fuzz._report import AgentFuzz, FuzzDifference
from skillbench.fuzz._reproducer import fidelity_command, write_reproducer
from skillbench.fuzz._shrink import Shrunk, ddmin, shrink
from skillbench.fuzz._types import FuzzCase, FuzzCatalog, FuzzFile, FuzzLink, FuzzUnit
from skillbench.fuzz._yaml_shapes import YAML_SHAPES

__all__ = [
    "SHAPE_CLASSES",
    "YAML_SHAPES",
    "AgentFuzz",
    "FuzzCase",
    "FuzzCatalog",
    "FuzzDifference",
    "FuzzFile",
    "FuzzLink",
    "FuzzSettings",
    "FuzzUnit",
    "Shrunk",
    "ddmin",
    "fidelity_command",
    "fuzz_catalogs",
    "fuzz_release",
    "generate_case",
    "generate_cases",
    "pack_cases",
    "pack_limit",
    "shrink",
    "write_reproducer",
]
