"""Labelled requests: loading, validation and the seeded timeline generator."""

from skillbench.dataset._request import LabelledRequest

__all__ = ["LabelledRequest"]
