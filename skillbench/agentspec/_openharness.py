"""OpenHarness (PyPI ``openharness-ai``, commands ``oh`` and ``openharness``), verified by
capture at 0.1.9.

``oh -p PROMPT --api-format openai --base-url URL --api-key KEY`` posts
``/v1/chat/completions`` (streamed) to an OpenAI-compatible endpoint; the endpoint comes
from the command line (``OPENHARNESS_BASE_URL`` is overridden by the built-in Anthropic
profile, which then calls api.anthropic.com). The system message holds a ``# Available
Skills`` section: a heading, one sentence on the ``skill`` tool, then ``- **folder**: text``
per skill, `` (name)`` after the folder where the front matter names the skill otherwise;
the next section (``# Delegation And Subagents``) follows after a blank line.

- The text is the front matter's ``description`` stripped; without one, the file's first
  line that is neither blank, a heading nor ``---``, front matter lines included (so often
  ``name: …``), cut to 200 characters, else ``Skill: {name}`` (``yaml-then-first-line``).
- ``disable-model-invocation`` (a YAML boolean or ``true``/``yes``/``on``/``1``) is honoured;
  ``paths`` and ``when_to_use`` are not read.
- Order: by folder name, code points (upper case first), the bundled skills sorted in; no
  budget.
- Loading: the bundled skills (files of the package, read at run time), then
  ``~/.openharness/skills/<folder>/SKILL.md`` one level deep, hidden folders included, in
  the order of the folders' names. 0.1.9 reads no project folder and neither
  ``~/.claude/skills`` nor ``~/.agents/skills`` (later documents list them). A skill answers
  to its folder's name and its own, and one loaded later takes those names: a skill whose
  names were all taken is not listed (``keys``).
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

HEADING = "# Available Skills"
INTRO = (
    "The following skills are available via the `skill` tool. When a user's request matches "
    'a skill, invoke it with `skill(name="<skill_name>")` to load detailed instructions before '
    "proceeding. User-invocable skills can also be run directly by the user as `/<skill-name>`."
)
NEXT_SECTION = "\n\n# Delegation And Subagents"
"""The section after the listing: where the listing ends."""

OPENHARNESS = register_agent(
    AgentSpec(
        name="openharness",
        title="OpenHarness",
        package=Package("pypi", "openharness-ai", "oh"),
        releases=(Release("0.1.9", "byte-identical captures: a 2-skill catalog", pinned=True),),
        folders=(SkillFolder("user", "~/.openharness/skills", install=True),),
        loading=Precedence(
            "openharness",
            ("bundled", "user", "project", "extra", "plugin"),
            True,
            "openharness: a skill loaded later takes the names it answers to (its folder's "
            "and its own): bundled, then user skills by folder name",
            dedupe="keys",
            paths="ignored",
            names="listed",
            nested=False,
            depth=1,
            front_matter="yaml-then-first-line",
            text="format-kept",
            folders="all",
        ),
        wire=Wire(
            "openai-chat",
            Locator("system", f"{HEADING}\n", NEXT_SECTION, keep_close=False),
            placement="system",
        ),
        launch=Launch(
            argv=(
                "$executable",
                "-p",
                "$prompt",
                "--api-format",
                "openai",
                "--base-url",
                "$base_url/v1",
                "--api-key",
                "skillbench-capture",
                "$model_args",
            ),
            default_model="model",
            model_argv=("--model", "$model"),
            settings_file=".openharness/settings.json",
        ),
        listing=ListingFormat(
            element="- **{name}**{alias}: {text}",
            wrapper=f"{HEADING}\n\n{INTRO}\n\n{{elements}}",
            text_from="stripped",
            order="code_points",
            builtins="sorted",
            location="none",
            shadow="keys",
            never_lists=("bundled", "managed", "extra", "plugin"),
            label="folder",
            alias=" ({name})",
        ),
        live=Live("skill", "name"),
        summary="every skill in full by folder name (code points), bundled ones sorted in; "
        "no budget",
        ordering="alpha",
    )
)
