"""GitHub Copilot CLI, verified by capture at 1.0.102 (closed source: everything here was
learnt by capture).

In bring-your-own-key mode (``COPILOT_PROVIDER_BASE_URL``, ``COPILOT_PROVIDER_TYPE=anthropic``,
``COPILOT_MODEL``, ``COPILOT_OFFLINE=true``) it posts ``/v1/messages`` (streamed) with no
GitHub sign-in; the listing is the ``<available_skills>`` block of its system prompt, one
``<skill>`` element per skill with its XML-escaped name and description and its scope
(``project``, ``user``, ``builtin``), and a model loads a skill with its ``skill`` tool.

- Order: project skills by name (every project folder together), then user skills folder by
  folder (``~/.copilot/skills``, then ``~/.agents/skills``), each by name, then the
  built-in skills (one a user's skill names is left out).
- Budget: 15,000 characters, each element counting its length and a newline; from the first
  element that does not fit, every remaining skill is named on one line; that line,
  prefix included, takes names while it stays within 5,000 characters, then ends
  ``... and N more``.
- Text: as YAML parses the front matter without its last line break, nothing stripped (a
  block scalar keeps its final line breaks unless it ends the front matter).
- A description over 1,024 characters keeps the skill from loading at all; so do no front
  matter, and a ``name`` or ``description`` that is not a string (``12.50``, ``true``, a
  list, null). A missing description is three text lines of the body; a blank one is listed
  as written. A ``SKILL.md`` in another skill's folder is not a skill.
- Names: whitespace runs become ``-``; then 1-64 ASCII letters, digits, ``.``, ``_``, ``:``
  and ``-``, starting with a letter or digit, or the skill is not loaded.
- ``disable-model-invocation`` is read (such skills are left out); ``paths`` is not.
- Of the documented user folders, ``~/.claude/skills`` was not read.
"""

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    Launch,
    ListingFormat,
    Live,
    Locator,
    Overflow,
    Package,
    Release,
    SkillFolder,
    Wire,
)
from skillbench.catalog import Precedence

MODEL = "claude-sonnet-4.5"

COPILOT_CLI = register_agent(
    AgentSpec(
        name="copilot-cli",
        title="GitHub Copilot CLI",
        package=Package("npm", "@github/copilot", "copilot"),
        releases=(
            Release(
                "1.0.102",
                "byte-identical captures: four catalogs, all together, the 15,000 budget edge",
                pinned=True,
            ),
        ),
        folders=(
            SkillFolder("project", ".github/skills", install=True),
            SkillFolder("project", ".claude/skills"),
            SkillFolder("project", ".agents/skills"),
            SkillFolder("user", "~/.copilot/skills", install=True),
            SkillFolder("user", "~/.agents/skills"),
        ),
        loading=Precedence(
            "copilot-cli",
            ("project", "extra", "user", "managed", "plugin", "bundled"),
            False,
            "copilot-cli: first found wins (project, user, built-in)",
            paths="ignored",
            names="ascii-words",
            dedupe="exact_name_and_path",
            front_matter="yaml-unterminated-strict",
            nested=False,
        ),
        wire=Wire(
            "anthropic-messages",
            Locator("system", "<available_skills>", "</available_skills>"),
            placement="system",
        ),
        launch=Launch(
            argv=("$executable", "-p", "$prompt", "--model", "$model"),
            default_model=MODEL,
            env={
                "COPILOT_PROVIDER_BASE_URL": "$base_url",
                "COPILOT_PROVIDER_TYPE": "anthropic",
                "COPILOT_PROVIDER_API_KEY": "skillbench-capture",
                "COPILOT_MODEL": MODEL,
                "COPILOT_OFFLINE": "true",
            },
        ),
        listing=ListingFormat(
            element=(
                "<skill>\n  <name>{name}</name>\n  <description>{text}</description>\n"
                "  <location>{location}</location>\n</skill>"
            ),
            wrapper="<available_skills>\n{elements}\n</available_skills>",
            escape="xml",
            text_from="raw",
            order="scope_then_name",
            builtins="last",
            shadow="skip",
            location="scope",
            locations={
                "project": "project",
                "user": "user",
                "bundled": "builtin",
                "plugin": "plugin",
                "extra": "project",
                "managed": "user",
            },
            builtin_location="builtin",
            overflow=Overflow(
                15_000,
                "Additional skills available (invoke by name): ",
                names_cap=5_000,
                names_more="... and {count} more",
            ),
            max_description=1024,
        ),
        live=Live("skill", "skill"),
        summary="<skill> XML by scope and name; past 15,000 characters names only",
        ordering="usage",
    )
)
