"""``skillbench view``: an interactive, self-contained page of every decision in a run."""

from skillbench.view._data import build_payload
from skillbench.view._page import embed_json, render_page, write_view
from skillbench.view._source import RunData, read_run_data

__all__ = ["RunData", "build_payload", "embed_json", "read_run_data", "render_page", "write_view"]
