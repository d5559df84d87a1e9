"""Labelled requests: loading, validation and the seeded timeline generator."""

from skillbench.dataset._labels import LabelOverrides, apply_labels, load_labels
from skillbench.dataset._load import InputErrors, check_expected, load_requests
from skillbench.dataset._request import LabelledRequest
from skillbench.dataset._timeline import assign_timeline, request_topic

__all__ = [
    "InputErrors",
    "LabelOverrides",
    "LabelledRequest",
    "apply_labels",
    "assign_timeline",
    "check_expected",
    "load_labels",
    "load_requests",
    "request_topic",
]
