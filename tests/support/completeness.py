"""What every agent must have besides its record, checked from the repository's files.

An agent is one record (``skillbench.agentspec``) plus, where the record cannot say
everything, rules of its own. Everything else a user meets is derived from the record or
written once per agent: this module names what is missing, so a new agent's checklist
(docs/agents.md, "Adding an agent") is a test.
"""

from __future__ import annotations

import re
from pathlib import Path

from skillbench.agents import AGENTS, OWN_DRIVERS, OWN_PARSERS, WARM_PROTOCOLS
from skillbench.agentspec import AgentSpec
from skillbench.listing import OWN_RENDERERS, PROFILES, agent_folders

REPO = Path(__file__).resolve().parents[2]


def missing_pieces(spec: AgentSpec, repo: Path = REPO) -> list[str]:
    """Everything ``spec``'s agent lacks, one line each (empty: complete)."""
    name = spec.name
    missing = []
    if name not in AGENTS:
        missing.append(f"{name}: no capture driver")
    if spec.own_rules and name not in OWN_DRIVERS:
        missing.append(f"{name}: its record says it has rules of its own, but no driver")
    if spec.listing is None and name not in OWN_RENDERERS:
        missing.append(f"{name}: no listing format and no renderer of its own")
    if spec.listing is None and name not in OWN_PARSERS:
        missing.append(f"{name}: no listing format and no listing parser of its own")
    if spec.live.warm and name not in WARM_PROTOCOLS:
        missing.append(f"{name}: its record says it runs warm, but no warm protocol")
    for release in spec.releases:
        profile = f"{name}@{release.version}"
        if profile not in PROFILES:
            missing.append(f"{name}: no profile {profile}")
    folders = agent_folders().get(name, {})
    if not any(folders.values()):
        missing.append(f"{name}: no project or user skills folder for portability checks")
    missing += _docs(spec, repo)
    return missing


def _docs(spec: AgentSpec, repo: Path) -> list[str]:
    name = spec.name
    missing = []
    page = repo / "docs" / "profiles" / f"{name}.md"
    if not page.is_file():
        missing.append(f"{name}: no docs page docs/profiles/{name}.md")
    else:
        text = page.read_text(encoding="utf-8")
        missing += [
            f"{name}: docs/profiles/{name}.md does not name release {r.version}"
            for r in spec.releases
            if r.version not in text
        ]
    row = re.compile(rf"^\|.*\(docs/profiles/{re.escape(name)}\.md\)", re.MULTILINE)
    if not row.search(_text(repo / "README.md")):
        missing.append(f"{name}: no row in the README's table of agents")
    if spec.title not in _text(repo / "docs" / "agents.md"):
        missing.append(f"{name}: docs/agents.md does not name {spec.title}")
    return missing


def _text(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""
