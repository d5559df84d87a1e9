"""Plugin names for agents that namespace plugin skills as ``plugin-name:skill``.

A plugin is a folder holding ``.claude-plugin/plugin.json``; its ``name`` field names the
plugin. Only a real manifest namespaces a skill: a plain folder of skills given as a plugin
source keeps its bare names, so a catalog without manifests loads the same under every agent.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from skillbench.catalog._frontmatter import read_text
from skillbench.catalog._types import Diagnostic

MANIFEST = Path(".claude-plugin") / "plugin.json"
PLUGIN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")
"""What a plugin name may look like; anything else in a manifest is reported and not used."""


def _manifest_name(path: Path, diagnostics: list[Diagnostic]) -> str | None:
    text = read_text(path, diagnostics)
    if text is None:
        return None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        diagnostics.append(Diagnostic(str(path), exc.lineno, f"invalid JSON: {exc.msg}", "warning"))
        return None
    name = data.get("name") if isinstance(data, dict) else None
    if isinstance(name, str) and PLUGIN_NAME.match(name):
        return name
    diagnostics.append(
        Diagnostic(
            str(path),
            None,
            "plugin name missing or not of letters, digits, '.', '_', '-' (at most 64); "
            "the plugin folder's name is used",
            "warning",
            "name",
        )
    )
    folder = path.parent.parent.name
    return folder if PLUGIN_NAME.match(folder) else None


def plugin_name(skill_dir: Path, root: Path, diagnostics: list[Diagnostic]) -> str | None:
    """The name of the nearest plugin holding ``skill_dir`` (searched up to ``root``), if any."""
    here = skill_dir
    while True:
        manifest = here / MANIFEST
        if manifest.is_file():
            return _manifest_name(manifest, diagnostics)
        if here == root or here.parent == here or root not in here.parents:
            return None
        here = here.parent
