"""opencode, verified by capture at 1.18.33.

``opencode run`` posts ``/v1/chat/completions`` (streamed) to an OpenAI-compatible provider
given in ``OPENCODE_CONFIG_CONTENT``: first a short title request, then the turn, whose
system prompt holds the ``<available_skills>`` block, one indented ``<skill>`` element per
skill with the ``SKILL.md``'s absolute path (``<built-in>`` for opencode's own skill). Its
default plugins, model list, updates and sharing are switched off and npm is told to stay
offline, so nothing leaves the machine.

- Name and description are listed as the front matter holds them: not escaped, line breaks
  kept; only the location is XML-escaped.
- Front matter as gray-matter and js-yaml read it (reader ``gray-matter``); a name and
  description must be strings (an empty one is listed empty); ``disable-model-invocation``
  is not read; hidden folders are read.
- Order: by name, a locale-aware comparison; no budget.
- Loading: ``~/.claude/skills`` and ``~/.agents/skills``, then ``.claude``/``.agents``
  folders from the working directory up to the worktree root, then config folders and
  ``skills.paths``; every ``SKILL.md`` under them. Of two skills of one name the one read
  last wins (files are read concurrently: the winner is not fixed, ``clash="racy"``).
- Sessions (``cost --measure``): ``--continue`` resumes the last conversation. The ``skill``
  tool returns the body in a ``<skill_content>`` block carried by every later request;
  ``context: fork`` is not read. A sub-agent runs through the ``task`` tool; its requests
  have the same system prompt but lack ``task`` and ``todowrite``; a title request
  declares no tools.
"""

import json

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    Delegate,
    Launch,
    ListingFormat,
    Live,
    Locator,
    Package,
    Release,
    Sessions,
    SkillFolder,
    Wire,
)
from skillbench.catalog import Precedence

PROVIDER = "skillbench"
MODEL = "model"
_CONFIG = {
    "provider": {
        PROVIDER: {
            "npm": "@ai-sdk/openai-compatible",
            "name": PROVIDER,
            "options": {"baseURL": "$base_url/v1", "apiKey": "skillbench-capture"},
            "models": {MODEL: {"name": MODEL}},
        }
    },
    "model": f"{PROVIDER}/{MODEL}",
    "small_model": f"{PROVIDER}/{MODEL}",
    "autoupdate": False,
    "share": "disabled",
}
"""A provider at the loopback endpoint declaring one model (opencode runs only declared
models; the name changes one sentence of the system prompt, not the listing)."""

OPENCODE = register_agent(
    AgentSpec(
        name="opencode",
        title="opencode",
        package=Package("npm", "opencode-ai", "opencode"),
        releases=(
            Release(
                "1.18.33",
                "byte-identical captures: four public catalogs, all together, a 2-skill catalog",
                pinned=True,
            ),
        ),
        folders=(
            SkillFolder("user", "~/.claude/skills"),
            SkillFolder("user", "~/.agents/skills", install=True),
            SkillFolder("user", "~/.config/opencode/skills"),
            SkillFolder("project", ".agents/skills", install=True),
            SkillFolder("project", ".claude/skills"),
            SkillFolder("project", ".opencode/skills"),
            SkillFolder("extra", "~/.claude/skills", install=True),
            SkillFolder("plugin", ".opencode/skills"),
        ),
        loading=Precedence(
            "opencode",
            ("bundled", "user", "project", "extra", "plugin", "managed"),
            True,
            "opencode: the skill read last wins (user, project, config folders, "
            "skills.paths); files are read concurrently, so a clash has no fixed winner",
            paths="ignored",
            reads_disable=False,
            names="listed",
            dedupe="exact_name_and_path",
            front_matter="gray-matter",
            folders="all",
            empty_fields="listed",
            required=("name", "description"),
            clash="racy",
        ),
        wire=Wire(
            "openai-chat",
            Locator("system", "<available_skills>", "\n</available_skills>"),
            placement="system",
        ),
        launch=Launch(
            argv=("$executable", "run", "--model", f"{PROVIDER}/{MODEL}", "$prompt"),
            default_model=MODEL,
            fixed_model=True,
            env={
                "OPENCODE_CONFIG_CONTENT": json.dumps(_CONFIG),
                "OPENCODE_DISABLE_MODELS_FETCH": "1",
                "OPENCODE_DISABLE_AUTOUPDATE": "1",
                "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
                "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
                "OPENCODE_DISABLE_SHARE": "1",
                "npm_config_offline": "true",
            },
            settings_file=".config/opencode/opencode.json",
        ),
        listing=ListingFormat(
            element=(
                "  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
                "    <location>{location}</location>\n  </skill>"
            ),
            wrapper="<available_skills>\n{elements}\n</available_skills>",
            location_escape="xml_numeric_apostrophe",
            order="name",
            builtins="sorted",
            builtin_location="<built-in>",
            never_lists=("bundled", "managed"),
        ),
        live=Live(
            "skill",
            "name",
            sessions=Sessions(
                first=(),
                resume=("--continue",),
                read_tool="read",
                read_argument="filePath",
                fork=Delegate(
                    "task",
                    {"description": "Run the skill", "prompt": "$task", "subagent_type": "general"},
                ),
                subagent_lacks="todowrite",
            ),
        ),
        summary="every skill with a description, sorted by name, text as written; no budget",
    )
)
