"""Cline CLI (``cline``), verified by capture at 3.0.65.

``cline --json PROMPT`` posts ``/v1/chat/completions`` (streamed) to the OpenAI-compatible
provider of ``~/.cline/data/settings/providers.json`` (its base URL is read from no
variable or flag, so the file is written once the loopback endpoint is up). The listing is
not in the prompt: the description of its ``skills`` tool ends ``Available skills: a, b.``,
names only, and leaves the sentence out when no skill is enabled.

- Folders: ``.clinerules/skills``, ``.cline/skills`` and ``.agents/skills`` of the project,
  then ``~/.cline/skills`` and ``~/.agents/skills``; in each, a ``SKILL.md`` in a folder
  one level down (or in the folder itself), read in the order the file system lists the
  folder (unsorted).
- A skill file is the block between ``---`` lines read as YAML, then a body that must not
  be empty; a non-string ``name`` or ``description``, a non-boolean ``disabled`` or
  ``enabled``, or YAML that fails keeps it out. The name is the front matter's, else the
  folder's; ``disabled: true`` or ``enabled: false`` keeps it out of the listing;
  ``disable-model-invocation`` is not read.
- Names are one skill per lower-cased name: the one read last wins, in the place of the
  first (a user skill replaces a project skill of its name where that one was).
- A prompt without white space is taken for a subcommand and refused; the prompt is given
  with a trailing space, which Cline trims before sending it.
- ``CLINE_SESSION_BACKEND_MODE=local`` keeps the turn in one process (by default it
  starts a hub daemon that outlives the turn).
"""

import json

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    Launch,
    ListingFormat,
    Live,
    Locator,
    Package,
    Release,
    SkillFolder,
    Wire,
)
from skillbench.catalog import Precedence

PROVIDER = "openai-compatible"
MODEL = "model"
_PROVIDERS = {
    "version": 1,
    "lastUsedProvider": PROVIDER,
    "modes": {},
    "providers": {
        PROVIDER: {
            "settings": {
                "provider": PROVIDER,
                "apiKey": "skillbench-capture",
                "model": MODEL,
                "baseUrl": "$base_url/v1",
            },
            "updatedAt": "2026-01-01T00:00:00.000Z",
            "tokenSource": "manual",
        }
    },
}
"""The provider ``cline auth -p openai -b URL -m model`` writes, at the loopback endpoint."""

CLINE = register_agent(
    AgentSpec(
        name="cline",
        title="Cline CLI",
        package=Package("npm", "cline", "cline"),
        releases=(
            Release(
                "3.0.65",
                "byte-identical captures: four public catalogs, all together, a 2-skill "
                "catalog; --fuzz 300 --seed 1 finds no difference",
                pinned=True,
            ),
        ),
        folders=(
            SkillFolder("project", ".clinerules/skills"),
            SkillFolder("project", ".cline/skills", install=True),
            SkillFolder("project", ".agents/skills"),
            SkillFolder("user", "~/.cline/skills", install=True),
            SkillFolder("user", "~/.agents/skills"),
        ),
        loading=Precedence(
            "cline",
            ("project", "user"),
            True,
            "cline: the skill read last wins, in the first one's place (project, then user)",
            dedupe="lowercase_name_and_path",
            paths="ignored",
            names="listed",
            nested=False,
            depth=1,
            front_matter="yaml-typed",
            folders="all",
            walk="directory",
        ),
        wire=Wire(
            "openai-chat",
            Locator("tools", "Available skills: ", ""),
            placement="system",
            lists_none=False,
        ),
        launch=Launch(
            argv=("$executable", "--json", "-P", PROVIDER, "-m", MODEL, "$prompt "),
            default_model=MODEL,
            fixed_model=True,
            env={
                "CLINE_SESSION_BACKEND_MODE": "local",
                "CLINE_NO_AUTO_UPDATE": "1",
                "CLINE_TELEMETRY_DISABLED": "1",
                "CLINE_DISABLE_CLINE_PASS_NOTICE": "1",
                "NO_UPDATE_NOTIFIER": "1",
            },
            settings_file=".cline/data/settings/global-settings.json",
            settings={"telemetryOptOut": True},
            endpoint_files={".cline/data/settings/providers.json": json.dumps(_PROVIDERS)},
        ),
        listing=ListingFormat(
            element="{name}",
            wrapper="Available skills: {elements}.",
            separator=", ",
            order="loaded",
            builtins="first",
            never_lists=("bundled", "managed", "plugin", "extra"),
        ),
        live=Live("skills", "skill"),
        summary="names only, in its skill tool's description, folder by folder as read; no budget",
    )
)
