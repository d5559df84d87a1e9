"""Pi (``@mariozechner/pi-coding-agent``), verified by capture at 0.73.1.

``pi -p`` posts ``/v1/chat/completions`` (streamed) to a provider declared in
``~/.pi/agent/models.json`` (Pi reads its endpoint from no variable, so the file is written
once the loopback endpoint is up). The system message ends with three sentences, then
``<available_skills>`` with one indented ``<skill>`` element per skill, its location the
``SKILL.md``'s absolute path, then the date and working directory.

- Name, description and location are XML-escaped (``'`` as ``&apos;``); the description is
  the front matter value as read (line breaks kept); ``when_to_use`` is not read.
- Front matter as the ``yaml`` package reads it (reader ``yaml-package``): a skill whose
  description is missing, blank or not text is not loaded, nor a file opening with a
  byte-order mark; a name is listed as written (any length, ``/``, spaces, capitals), an
  empty or missing one is the folder's; ``disable-model-invocation`` is honoured.
- Order: load order (`loaded`): project skills, then user skills, each folder walked depth first in
  the order of its entries' names; no budget.
- Loading: ``.pi/skills`` and ``.agents/skills`` of the project, ``~/.pi/agent/skills`` and
  ``~/.agents/skills``; a folder holding a ``SKILL.md`` is a skill and is not entered
  further; the first skill of a name wins.
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

PROVIDER = "skillbench"
MODEL = "model"
_MODELS = {
    "providers": {
        PROVIDER: {
            "baseUrl": "$base_url/v1",
            "api": "openai-completions",
            "apiKey": "skillbench-capture",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": MODEL}],
        }
    }
}
"""One provider at the loopback endpoint declaring one model."""

INTRO = (
    "The following skills provide specialized instructions for specific tasks.\n"
    "Use the read tool to load a skill's file when the task matches its description.\n"
    "When a skill file references a relative path, resolve it against the skill directory "
    "(parent of SKILL.md / dirname of the path) and use that absolute path in tool commands."
)

PI = register_agent(
    AgentSpec(
        name="pi",
        title="Pi",
        package=Package("npm", "@mariozechner/pi-coding-agent", "pi"),
        releases=(Release("0.73.1", "byte-identical captures: a 2-skill catalog", pinned=True),),
        folders=(
            SkillFolder("project", ".pi/skills", install=True),
            SkillFolder("project", ".agents/skills"),
            SkillFolder("user", "~/.pi/agent/skills", install=True),
            SkillFolder("user", "~/.agents/skills"),
        ),
        loading=Precedence(
            "pi",
            ("project", "user"),
            False,
            "pi: the first skill of a name wins (project, then user)",
            paths="ignored",
            nested=False,
            names="listed",
            front_matter="yaml-package",
            byte_order_mark="refused",
        ),
        wire=Wire(
            "openai-chat",
            Locator("system", INTRO.split("\n")[0], "\n</available_skills>"),
            placement="system",
            lists_none=False,
        ),
        launch=Launch(
            argv=("$executable", "-p", "$prompt", "--provider", PROVIDER, "--model", MODEL),
            default_model=MODEL,
            fixed_model=True,
            env={"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1", "PI_TELEMETRY": "0"},
            endpoint_files={".pi/agent/models.json": json.dumps(_MODELS)},
        ),
        listing=ListingFormat(
            element=(
                "  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
                "    <location>{location}</location>\n  </skill>"
            ),
            wrapper=f"{INTRO}\n\n<available_skills>\n{{elements}}\n</available_skills>",
            escape="xml",
            location_escape="xml",
            order="loaded",
            builtins="first",
            never_lists=("bundled", "managed", "plugin", "extra"),
        ),
        live=Live(None),
        summary="every skill with a description, project then user, text as written; no budget",
    )
)
