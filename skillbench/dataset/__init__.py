"""Labelled requests: loading, validation and the seeded timeline generator."""

from skillbench.dataset._load import InputErrors, check_expected, load_requests
from skillbench.dataset._request import LabelledRequest
from skillbench.dataset._timeline import assign_timeline, request_topic

__all__ = [
    "InputErrors",
    "LabelledRequest",
    "assign_timeline",
    "check_expected",
    "load_requests",
    "request_topic",
]
