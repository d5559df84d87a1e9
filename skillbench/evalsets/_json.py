"""JSON with the line of every object, so a bad item of an eval set names its line.

The standard decoder keeps no positions. Its pure-Python scanner calls the decoder's
``parse_object`` for each ``{``, and that hook sees the offset where the object starts: a
decoder whose hook wraps the stock one turns every object into a :class:`LineDict` holding
its first line. The file is parsed once by ``skillbench._io.loads_json`` first, so syntax
errors and over-deep nesting get the project's usual messages.
"""

from __future__ import annotations

import bisect
import json
from json.decoder import JSONObject  # type: ignore[attr-defined]
from json.scanner import py_make_scanner  # type: ignore[attr-defined]
from typing import Any

from skillbench._io import loads_json
from skillbench._yaml import LineDict


def loads_json_lines(text: str, name: str) -> Any:
    """Parse the JSON document ``text`` (file ``name``); objects come back as ``LineDict``
    with ``line`` set to the line of their ``{``.

    Raises:
        InputError: invalid JSON (with its line) or nesting deeper than the project allows.
    """
    loads_json(text, name)
    newlines = [i for i, char in enumerate(text) if char == "\n"]
    decoder = json.JSONDecoder()

    def parse_object(s_and_end: tuple[str, int], *args: Any) -> tuple[LineDict, int]:
        start = s_and_end[1] - 1
        pairs, end = JSONObject(s_and_end, *args[:3], lambda p: p, *args[4:])
        record = LineDict()
        record.update(pairs)
        record.line = bisect.bisect_left(newlines, start) + 1
        return record, end

    decoder.parse_object = parse_object  # type: ignore[attr-defined]
    decoder.scan_once = py_make_scanner(decoder)  # type: ignore[attr-defined]
    return decoder.decode(text)
