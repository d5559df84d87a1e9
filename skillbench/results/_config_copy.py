"""What reading a run takes from its ``config.yaml``, as a typed record.

The run config itself is validated when a run is made; its copy in a run folder is read back
where that model may not apply (a selector of a plugin not installed here), so readers take
only the fields they need, and a copy that lacks them reads as one that names none.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, ValidationError

from skillbench.types import JsonObject

MODEL_TYPES = frozenset({"litellm", "agent"})
"""Selector types that ask a real model, per call and for money (a model behind litellm, or
a shipped agent CLI): the cells that get positive controls, spend and live progress."""


class SelectorEntry(BaseModel):
    """One selector of the config copy: its registry type and the name its cells carry."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    type: str
    name: str | None = None

    @property
    def label(self) -> str:
        """The selector name in the cells (the type unless the config renames it)."""
        return self.name or self.type


class ConfigFacts(BaseModel):
    """The fields of a run's config copy that reports and replays of a run read."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    requests: str | None = None
    selectors: list[SelectorEntry] = []

    @classmethod
    def of(cls, config: JsonObject) -> ConfigFacts:
        """The facts of ``config``; a copy without them (hand-made, or empty) names none."""
        try:
            return cls.model_validate(config)
        except ValidationError:
            return cls()
