"""Gemini CLI, verified by capture at 0.61.0.

With ``GOOGLE_GEMINI_BASE_URL`` and an API key it posts
``/v1beta/models/MODEL:streamGenerateContent?alt=sse``; the listing is the
``<available_skills>`` block of the system instruction, its built-in skills first, one
``<skill>`` element per skill with the absolute path of its ``SKILL.md``, nothing escaped,
no budget. An explicit ``-m`` model skips the router that would first ask a small model to
grade the request. In a headless turn the agent's policy withholds ``activate_skill`` (it
asks the user first), so the workspace gets a policy allowing that one tool: the listing is
the same either way, and with it a model can decide.

- Loading: built-ins, extensions, ``~/.gemini/skills``, ``~/.agents/skills``, then (in a
  trusted folder) ``.gemini/skills`` and ``.agents/skills``; a later skill of the same name
  replaces an earlier one in the earlier one's place. ``disable-model-invocation`` and
  ``paths`` are not read. Names have ``: \\ / < > * ? " |`` written as ``-``.
- Reading: the ``---`` block must open the file (a file opening with a byte-order mark is
  not loaded); a name or description written empty is listed empty.
- Order: scope by scope as loaded; within one folder, descending by the skill's folder name.
  With Node's default four worker threads neighbours sometimes swap on a busy machine, so a
  capture runs the CLI with one (``UV_THREADPOOL_SIZE=1``), which keeps the issued order.
"""

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

SKILL_TOOL = "activate_skill"
OPEN = "<available_skills>"
CLOSE = "</available_skills>"

GEMINI_CLI = register_agent(
    AgentSpec(
        name="gemini-cli",
        title="Gemini CLI",
        package=Package("npm", "@google/gemini-cli", "gemini"),
        releases=(
            Release(
                "0.61.0",
                "byte-identical captures: four public catalogs, all together, a 2-skill catalog",
                pinned=True,
            ),
        ),
        folders=(
            SkillFolder("user", "~/.gemini/skills", install=True),
            SkillFolder("user", "~/.agents/skills"),
            SkillFolder("project", ".gemini/skills", install=True),
            SkillFolder("project", ".agents/skills"),
        ),
        loading=Precedence(
            "gemini-cli",
            ("bundled", "plugin", "user", "project", "extra", "managed"),
            True,
            "gemini-cli: a later source replaces an earlier one (built-in, extension, user, "
            "workspace)",
            paths="ignored",
            reads_disable=False,
            depth=1,
            names="listed",
            walk="descending",
            front_matter="yaml-then-lines",
            empty_fields="listed",
            byte_order_mark="refused",
        ),
        wire=Wire("generate-content", Locator("system", OPEN, CLOSE), placement="system"),
        launch=Launch(
            argv=("$executable", "-p", "$prompt", "-m", "$model", "-o", "json"),
            default_model="gemini-3.1-pro-preview",
            env={
                "GOOGLE_GEMINI_BASE_URL": "$base_url",
                "GEMINI_API_KEY": "skillbench-capture",
                "GEMINI_CLI_TRUST_WORKSPACE": "true",
                "GEMINI_TELEMETRY_ENABLED": "false",
                "UV_THREADPOOL_SIZE": "1",
            },
            settings_file=".gemini/settings.json",
            settings={
                "security": {"auth": {"selectedType": "gemini-api-key"}},
                "general": {"enableAutoUpdate": False, "enableAutoUpdateNotification": False},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False},
            },
            files={
                ".gemini/policies/skillbench.toml": (
                    f'[[rule]]\ntoolName = "{SKILL_TOOL}"\ndecision = "allow"\npriority = 100\n'
                )
            },
        ),
        listing=ListingFormat(
            element=(
                "  <skill>\n    <name>{name}</name>\n    <description>{text}</description>\n"
                "    <location>{location}</location>\n  </skill>"
            ),
            wrapper=f"{OPEN}\n{{elements}}\n{CLOSE}",
            order="loaded",
            builtins="first",
            shadow="in_place",
            unsafe_name=':\\/<>*?"|',
        ),
        live=Live(SKILL_TOOL, "name"),
        summary="every skill in full as <skill> XML, built-ins first, no budget",
        ordering="usage",
    )
)
