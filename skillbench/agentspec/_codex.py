"""OpenAI Codex, verified by capture at 0.169.0 and 0.171.0.

``codex exec`` posts ``/v1/responses`` (streamed) to a ``model_providers`` entry given on the
command line; the listing is the ``<skills_instructions>`` block of a developer message.
Codex writes its own system skills under ``$CODEX_HOME/skills/.system`` and lists them first.
Its budget stages are rules of its own (``skillbench.listing``); what changes between
releases is data: the default model and the model catalogue that sets the budget.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    CapRule,
    Launch,
    Live,
    Locator,
    Package,
    Release,
    SessionLogs,
    SkillFolder,
    Wire,
)
from skillbench.catalog import Precedence

PROVIDER = "skillbench"
KEY_VARIABLE = "SKILLBENCH_CAPTURE_KEY"


class ModelWindow(NamedTuple):
    """One model's context window and the most a configured window may raise it to."""

    window: int
    max_window: int


FALLBACK_WINDOW = ModelWindow(272_000, 872_000)
"""What Codex assumes for a model missing from its catalogue (captures of unknown names)."""


@dataclass(frozen=True)
class CodexRules:
    """The listing rules of one Codex release, read from its model catalogue.

    Attributes:
        default_model: the model a turn uses when none is given.
        models: the catalogue (model → windows).
        budget_percent: the share of the window the listing may take.
        max_description_chars: a longer description is cut to this many, ``...`` included.
    """

    default_model: str
    models: Mapping[str, ModelWindow]
    budget_percent: int = 2
    max_description_chars: int = 1024

    def window(self, model: str | None) -> ModelWindow:
        """The windows of ``model`` (None: the default model)."""
        return self.models.get(model or self.default_model, FALLBACK_WINDOW)


_STANDARD = ModelWindow(272_000, 872_000)
_LARGE = ModelWindow(500_000, 872_000)
_SHARED: Mapping[str, ModelWindow] = {
    "gpt-6-astra": _STANDARD,
    "gpt-6.1-terra": _LARGE,
    "gpt-6-sol": _STANDARD,
    "gpt-6-luna": _STANDARD,
    "gpt-5.6-sol": _STANDARD,
    "gpt-5.6-terra": _STANDARD,
    "gpt-5.6-luna": _STANDARD,
    "gpt-daybreak-blue-latest": _STANDARD,
    "gpt-daybreak-red-latest": ModelWindow(372_000, 372_000),
    "gpt-5.5": ModelWindow(272_000, 272_000),
    "codex-auto-review": _STANDARD,
}
"""The models both verified catalogues list with the same windows."""

_OVERRIDES = {
    "model_provider": PROVIDER,
    f"model_providers.{PROVIDER}.name": PROVIDER,
    f"model_providers.{PROVIDER}.base_url": "$base_url/v1",
    f"model_providers.{PROVIDER}.wire_api": "responses",
    f"model_providers.{PROVIDER}.env_key": KEY_VARIABLE,
}
"""The ``-c`` overrides that point a turn at the loopback endpoint (values as TOML)."""

_COMMANDS = frozenset(
    {
        "approvals",
        "compact",
        "diff",
        "exit",
        "experimental",
        "feedback",
        "init",
        "logout",
        "mcp",
        "mention",
        "model",
        "new",
        "output-style",
        "ps",
        "quit",
        "resume",
        "review",
        "rollout",
        "skills",
        "status",
        "test-approval",
    }
)
"""Its slash commands: the ``SlashCommand`` enum of its TUI, as it serialises them
(kebab-case)."""

CODEX = register_agent(
    AgentSpec(
        name="codex",
        title="Codex",
        package=Package("npm", "@openai/codex", "codex"),
        releases=(
            Release(
                "0.169.0",
                "byte-identical captures: four public catalogs, all together, devtools, "
                "windows of 100,000 and 1,000,000 tokens; agents check --fuzz 300, seeds 1-3",
                pinned=True,
                rules=CodexRules("gpt-6.1-sol", {**_SHARED, "gpt-6.1-sol": _STANDARD}),
            ),
            Release(
                "0.171.0",
                "byte-identical captures: four public catalogs, all together, devtools; "
                "default, known and unknown models; agents check --fuzz 300, seeds 1-3",
                rules=CodexRules(
                    "gpt-6.2-sol",
                    {
                        **_SHARED,
                        "gpt-6.2-sol": _LARGE,
                        "gpt-6.2-astra": _STANDARD,
                        "gpt-6.1-sol": _LARGE,
                    },
                ),
            ),
        ),
        folders=(
            SkillFolder("project", ".agents/skills", install=True),
            SkillFolder("user", "~/.agents/skills", install=True),
            SkillFolder("user", "~/.codex/skills"),
            SkillFolder("plugin", "~/.codex/skills", install=True),
            SkillFolder("extra", "~/.codex/skills", install=True),
            SkillFolder("bundled", "~/.codex/skills/.system"),
            SkillFolder("managed", "/etc/codex/skills"),
        ),
        loading=Precedence(
            "codex",
            ("project", "user", "plugin", "extra", "bundled", "managed"),
            False,
            "codex: one skill per real file, first scanned wins (repo, user, system, admin)",
            dedupe="path",
            paths="ignored",
            links="directories",
            strict_limits=True,
            names="single-line",
            text="format-kept",
            byte_order_mark="kept",
            front_matter="yaml-text-requoted",
            walk_depth=6,
            walk_dirs=2000,
        ),
        wire=Wire(
            "openai-responses",
            Locator("any", "<skills_instructions>", "</skills_instructions>"),
            placement="system",
        ),
        launch=Launch(
            argv=(
                "$executable",
                "exec",
                "--skip-git-repo-check",
                *(a for key, value in _OVERRIDES.items() for a in ("-c", f'{key}="{value}"')),
                "$model_args",
                "--",
                "$prompt",
            ),
            model_argv=("-m", "$model"),
            env={"CODEX_HOME": "$home/.codex", KEY_VARIABLE: "skillbench-capture"},
            settings_file=".codex/config.toml",
            settings_format="toml",
        ),
        listing=None,
        live=Live(None, explicit="mention", warm=True, mention_injects=True),
        summary="2% of the model's context window in tokens, descriptions shared, then names, "
        "then omitted",
        ordering="usage",
        own_rules=True,
        default=True,
        owned_names={"command": _COMMANDS},
        cap_rule=CapRule(
            "SB602",
            "codex-description-limit",
            "Codex cuts the description past 1,024 characters",
            """Codex 0.169.0 loads a SKILL.md whose description is longer than 1,024 characters
            but lists only its first 1,021 characters followed by "...": the rest never
            reaches the model.""",
            cuts="description",
        ),
        logs=SessionLogs("~/.codex/sessions", (".jsonl", ".jsonl.zst")),
    )
)
