"""Deep Agents Code (PyPI ``deepagents-code``, command ``dcode``), verified by capture at
0.1.57 (the newest release that installs on Python 3.11).

``dcode -n PROMPT -M openai:MODEL --no-interpreter`` with ``OPENAI_BASE_URL`` at the endpoint
posts a streamed ``/v1/responses`` request (its code interpreter is left out: it times out
while the agent starts on a small machine). The system instructions hold a ``## Skills
System`` section: the folders it read, then ``**Available Skills:**`` and per skill ``-
**name**: description``, `` (License: …, Compatibility: …)`` where the front matter has them,
a line ``  -> Allowed tools: …`` where it lists tools, and ``  -> Read `PATH` for full
instructions`` with the ``SKILL.md``'s absolute path; its usage notes follow after a blank
line.

- Front matter as PyYAML's ``safe_load`` reads it, fields as Python's ``str()`` (reader
  ``yaml-str``): a skill needs a non-empty name and description, the description keeps its
  first 1,024 characters (a space there kept); names are listed as written (spec violations
  only warn); ``disable-model-invocation``, ``when_to_use`` and ``paths`` are not read.
- Loading: its built-in skills (files of the package, read at run time), then
  ``~/.deepagents/agent/skills``, ``~/.agents/skills``, and in a git repository the project's
  ``.deepagents/skills``, ``.agents/skills`` and ``.claude/skills``, each folder's
  sub-folders one level deep in the order of their paths as texts (``a-b/`` before
  ``a/``), hidden ones included, a linked
  folder followed but a linked ``SKILL.md`` not read. A later skill of a name replaces the
  earlier one in its place (``~/.claude/skills``, read between the project's ``.agents``
  and ``.claude`` folders, is not modelled).
- Order: load order, built-ins first; no budget.
"""

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    Detail,
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

HEADING = "**Available Skills:**"
COMPATIBILITY = "Compatibility: "
NEXT_SECTION = "\n\n**How to Use Skills"
"""The section after the listing: where the listing ends."""

DEEPAGENTS_CODE = register_agent(
    AgentSpec(
        name="deepagents-code",
        title="Deep Agents Code",
        package=Package("pypi", "deepagents-code", "dcode"),
        releases=(Release("0.1.57", "byte-identical captures: a 2-skill catalog", pinned=True),),
        folders=(
            SkillFolder("user", "~/.deepagents/agent/skills", install=True),
            SkillFolder("user", "~/.agents/skills"),
            SkillFolder("project", ".deepagents/skills", install=True),
            SkillFolder("project", ".agents/skills"),
            SkillFolder("project", ".claude/skills"),
        ),
        loading=Precedence(
            "deepagents-code",
            ("bundled", "user", "project"),
            True,
            "deepagents-code: a later skill of a name replaces the earlier one in its place "
            "(built-in, user, then project)",
            dedupe="exact_name_and_path",
            paths="ignored",
            names="listed",
            nested=False,
            depth=1,
            front_matter="yaml-str",
            text="format-kept",
            folders="all",
            links="directories",
            byte_order_mark="refused",
            reads_disable=False,
            walk="path_text",
        ),
        wire=Wire(
            "openai-responses",
            Locator("system", HEADING, NEXT_SECTION, keep_close=False),
            placement="system",
        ),
        launch=Launch(
            argv=("$executable", "-n", "$prompt", "$model_args", "--no-interpreter"),
            default_model="model",
            model_argv=("-M", "openai:$model"),
            env={
                "OPENAI_BASE_URL": "$base_url/v1",
                "OPENAI_API_KEY": "skillbench-capture",
                "LANGSMITH_TRACING": "false",
            },
            project_dirs=(".git",),
        ),
        listing=ListingFormat(
            element="- **{name}**: {text}\n  -> Read `{location}` for full instructions",
            wrapper=f"{HEADING}\n\n{{elements}}",
            order="loaded",
            builtins="first",
            shadow="in_place",
            never_lists=("managed", "extra", "plugin"),
            details=(
                Detail(" ({fields})", (("license", "License: "), ("compatibility", COMPATIBILITY))),
                Detail("\n  -> Allowed tools: {fields}", (("allowed-tools", ""),)),
            ),
        ),
        live=Live(None),
        summary="every skill with a name and description, built-ins first, then user and "
        "project folders in load order; no budget",
        ordering="alpha",
    )
)
