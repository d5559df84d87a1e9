"""Kilo Code CLI, an opencode fork, verified by capture at 7.7.7.

``kilo run`` sends what ``opencode run`` sends: ``/v1/chat/completions`` (streamed) to the
OpenAI-compatible provider given in ``KILO_CONFIG_CONTENT``, the system prompt holding the
same ``<available_skills>`` block. The record is opencode's with Kilo's package, executable,
environment (``KILO_*`` in place of ``OPENCODE_*``) and config folder, and a project skill
reached through a link out of its skills folder is not loaded (Kilo parses project files
with a scope check); its sessions (``cost --measure``) are opencode's too, measured at
7.7.7: ``task`` sub-agents lack ``todowrite``, each request re-sending a prompt of about
10,000 tokens. 7.8.1 is not installable: its native package
``@kilocode/cli-linux-x64@7.8.1`` is missing from npm.
"""

import dataclasses
import json

from skillbench.agentspec._opencode import _CONFIG, MODEL, OPENCODE, PROVIDER
from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import Launch, Package, Release, SkillFolder

KILO_CODE = register_agent(
    dataclasses.replace(
        OPENCODE,
        name="kilo-code",
        title="Kilo Code CLI",
        package=Package("npm", "@kilocode/cli", "kilo"),
        releases=(
            Release(
                "7.7.7",
                "byte-identical captures: four public catalogs, all together, a 2-skill catalog",
                pinned=True,
            ),
        ),
        folders=(
            *OPENCODE.folders[:2],
            SkillFolder("user", "~/.config/kilo/skills"),
            *OPENCODE.folders[3:5],
            SkillFolder("project", ".kilo/skills"),
            OPENCODE.folders[6],
            SkillFolder("plugin", ".kilo/skills"),
        ),
        loading=dataclasses.replace(
            OPENCODE.loading,
            name="kilo-code",
            contained=("project",),
            summary="kilo-code: the skill read last wins (user, project, config folders, "
            "skills.paths); files are read concurrently, so a clash has no fixed winner",
        ),
        launch=Launch(
            argv=("$executable", "run", "--model", f"{PROVIDER}/{MODEL}", "$prompt"),
            default_model=MODEL,
            fixed_model=True,
            env={
                "KILO_CONFIG_CONTENT": json.dumps(_CONFIG),
                "KILO_DISABLE_MODELS_FETCH": "1",
                "KILO_DISABLE_AUTOUPDATE": "1",
                "KILO_DISABLE_DEFAULT_PLUGINS": "1",
                "KILO_DISABLE_LSP_DOWNLOAD": "1",
                "KILO_DISABLE_SHARE": "1",
                "KILO_DISABLE_SESSION_INGEST": "1",
                "KILO_DISABLE_CODEBASE_INDEXING": "1",
                "KILO_TELEMETRY_LEVEL": "off",
                "npm_config_offline": "true",
            },
            settings_file=".config/kilo/kilo.json",
        ),
    )
)
