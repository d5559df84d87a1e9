"""What changes between Codex releases, as data: the default model and the model catalogue.

Codex budgets its skills listing at 2% of the context window of the model a turn uses. The
window comes from the catalogue of models compiled into each release (``context_window``,
and ``max_context_window``, the most a configured ``model_context_window`` counts); a model
the catalogue does not know gets ``FALLBACK``. Each catalogue below was read from the
release's own model list and checked by capture (``docs/profiles/codex.md``). A release
whose rules are unchanged is one more line in ``RELEASES``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple


class ModelWindow(NamedTuple):
    """One model's context window and the most a configured window may raise it to."""

    window: int
    max_window: int


FALLBACK = ModelWindow(272_000, 872_000)
"""What Codex assumes for a model missing from its catalogue (captures of unknown names)."""


@dataclass(frozen=True)
class CodexRules:
    """The listing rules of one Codex release.

    Attributes:
        default_model: the model a turn uses when none is given.
        models: the release's model catalogue (model → windows).
        budget_percent: the share of the window the listing may take.
        max_description_chars: a longer description is cut to this many, ``...`` included.
    """

    default_model: str
    models: Mapping[str, ModelWindow]
    budget_percent: int = 2
    max_description_chars: int = 1024

    def window(self, model: str | None) -> ModelWindow:
        """The windows of ``model`` (None: the default model)."""
        return self.models.get(model or self.default_model, FALLBACK)


_STANDARD = ModelWindow(272_000, 872_000)
_LARGE = ModelWindow(500_000, 872_000)
_SHARED: Mapping[str, ModelWindow] = {
    "gpt-6-astra": _STANDARD,
    "gpt-6.1-terra": _LARGE,
    "gpt-6-sol": _STANDARD,
    "gpt-6-luna": _STANDARD,
    "gpt-5.6-sol": _STANDARD,
    "gpt-5.6-terra": _STANDARD,
    "gpt-5.6-luna": _STANDARD,
    "gpt-daybreak-blue-latest": _STANDARD,
    "gpt-daybreak-red-latest": ModelWindow(372_000, 372_000),
    "gpt-5.5": ModelWindow(272_000, 272_000),
    "codex-auto-review": _STANDARD,
}
"""The models both verified catalogues list with the same windows."""

RULES_0_169 = CodexRules("gpt-6.1-sol", {**_SHARED, "gpt-6.1-sol": _STANDARD})
RULES_0_171 = CodexRules(
    "gpt-6.2-sol",
    {**_SHARED, "gpt-6.2-sol": _LARGE, "gpt-6.2-astra": _STANDARD, "gpt-6.1-sol": _LARGE},
)
"""0.171.0 made gpt-6.2-sol (500,000 tokens) the default and raised gpt-6.1-sol to 500,000:
the same skills get a 10,000-token listing instead of 5,440."""


class CodexRelease(NamedTuple):
    """A verified release: its version, its rules and how it was verified."""

    version: str
    rules: CodexRules
    verified: str


RELEASES: tuple[CodexRelease, ...] = (
    CodexRelease(
        "0.169.0",
        RULES_0_169,
        "byte-identical captures: four public catalogs, all together, devtools, "
        "windows of 100,000 and 1,000,000 tokens",
    ),
    CodexRelease(
        "0.171.0",
        RULES_0_171,
        "byte-identical captures: four public catalogs, all together, devtools; "
        "default, known and unknown models",
    ),
)
"""Verified releases, oldest first."""
