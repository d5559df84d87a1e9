"""The self-contained viewer page: inline CSS, inline script, data as embedded JSON.

The data is untrusted (skill names and descriptions come from skill files, responses from
models), so it is never parsed as HTML: it sits in a ``<script type="application/json">``
element with every ``<``, ``>`` and ``&`` escaped as a JSON unicode escape (no ``</script>``
can end the element early), and the script inserts every string with ``textContent``.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from skillbench._output import write_atomic
from skillbench.view._data import build_payload
from skillbench.view._source import read_run_data

_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
}


def embed_json(data: Any) -> str:
    """``data`` as JSON that is inert inside a script element: no markup character survives."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _asset(name: str) -> str:
    return resources.files("skillbench.view").joinpath(name).read_text(encoding="utf-8")


def render_page(payload: Any, title: str) -> str:
    """The page's HTML for ``payload`` (see ``build_payload``)."""
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        # No network, no inline event handlers: the page only runs its own script.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{html.escape(title)}</title><style>{_asset('viewer.css')}</style></head>"
        f'<body><div id="app"><h1>{html.escape(title)}</h1>'
        '<p class="muted" id="loading">Loading decisions…</p></div>\n'
        f'<script type="application/json" id="skillbench-data">{embed_json(payload)}</script>\n'
        f"<script>{_asset('viewer.js')}</script>\n</body></html>\n"
    )


def write_view(runs: Sequence[str | Path], output: str | Path) -> Path:
    """Write the viewer page for one run (or two, compared) to ``output``; returns the path."""
    data = [read_run_data(path) for path in runs]
    title = "skillbench view: " + " vs ".join(d.name for d in data)
    out = Path(output)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, render_page(build_payload(data), title))
    return out
