"""Positive controls: how a selector asks for a listed skill by name.

A control request names its skill the way a user of the agent would (``Live.explicit`` in
its record): ``$name`` where a mention is the agent's explicit form, otherwise in words. Not
a typed ``/name`` command: a non-interactive turn expands it itself, so the model never
decides and a control would test nothing of it. A
selector that takes controls implements ``Controllable``.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from skillbench.agentspec import ExplicitForm
from skillbench.listing import ListedSkill


def explicit_request(form: ExplicitForm, name: str) -> str:
    """The control request naming skill ``name`` in ``form``."""
    if form == "mention":
        return f"${name} Use this skill on the current project now."
    return f"Use the {name} skill to handle this task on the current project now."


@runtime_checkable
class Controllable(Protocol):
    """A model under test whose cells get positive controls."""

    def control_request(self, entry: ListedSkill) -> str | None:
        """The request naming ``entry``'s skill explicitly; None when this selector cannot
        put that skill in front of its model (a skill the agent is never given)."""
        ...
