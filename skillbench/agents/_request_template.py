"""The agent's own request as a template: everything it sends, the listing and the user's
message left as holes, so a replay can send a model exactly that shape per request.

A capture's bare turn asks with a marker word as its message; its request, with the listing
block and that word cut out, is kept in the agent snapshot (``texts["request_template"]``).
"""

from __future__ import annotations

import json

from skillbench._errors import SkillbenchError
from skillbench.listing import AgentSnapshot
from skillbench.types import JsonObject

TEMPLATE = "request_template"
REQUEST_MARK = "SKILLBENCH_REQUEST_MARKER"
"""The bare turn's message: one word that occurs nowhere else in a request."""
LISTING_MARK = "SKILLBENCH_LISTING_MARKER"
_KEPT = ("system", "messages", "tools", "instructions", "input", "systemInstruction", "contents")
"""What the model is asked; transport, session and sampling fields are left out."""


def _escaped(text: str) -> str:
    """``text`` as it stands inside a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def make_template(body: JsonObject, listing: str) -> str:
    """The request ``body`` with ``listing`` and the marker message turned into holes."""
    kept = {k: body[k] for k in _KEPT if k in body}
    text = json.dumps(kept, ensure_ascii=False, sort_keys=True)
    if _escaped(listing) not in text or REQUEST_MARK not in text:
        raise SkillbenchError("the agent's request does not hold its listing and message")
    return text.replace(_escaped(listing), LISTING_MARK)


def fill_template(snapshot: AgentSnapshot, listing: str, request: str) -> JsonObject:
    """The agent's request with ``listing`` and the user's ``request`` in their places."""
    template = snapshot.texts.get(TEMPLATE)
    if not template:
        raise SkillbenchError(
            f"the {snapshot.agent} {snapshot.version} snapshot holds no request template: "
            f"run `skillbench capture {snapshot.agent}` again"
        )
    text = template.replace(LISTING_MARK, _escaped(listing))
    return dict(json.loads(text.replace(REQUEST_MARK, _escaped(request))))
