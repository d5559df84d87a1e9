"""Codex's fixed listing texts, copied verbatim from ``codex-rs/core-skills/src/render.rs``
(openai/codex commit 0899b7c4) and its tag constants in ``codex_protocol``."""

OPEN_TAG = "<skills_instructions>"
CLOSE_TAG = "</skills_instructions>"

INTRO_ABSOLUTE = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and file path so you can open the source for full instructions when using a specific skill."
)
INTRO_ALIASES = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)

_TRIGGER = (
    "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task "
    "clearly matches a skill's description shown above, you must use that skill for that turn. "
    "Multiple mentions mean use them all. Do not carry skills across turns unless re-mentioned.\n"
    "- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so "
    "briefly and continue with the best fallback.\n"
    "- How to use a skill (progressive disclosure):\n"
)
_REST = (
    "  3) If `SKILL.md` points to extra folders such as `references/`, load only the specific "
    "files needed for the request; don't bulk-load everything.\n"
    "  4) If `scripts/` exist, prefer running or patching them instead of retyping large code "
    "blocks.\n"
    "  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.\n"
    "- Coordination and sequencing:\n"
    "  - If multiple skills apply, choose the minimal set that covers the request and state the "
    "order you'll use them.\n"
    "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious "
    "skill, say why.\n"
    "- Context hygiene:\n"
    "  - Keep context small: summarize long sections instead of pasting them; only load extra "
    "files when needed.\n"
    "  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` "
    "unless you're blocked.\n"
    "  - When variants exist (frameworks, providers, domains), pick only the relevant reference "
    "file(s) and note that choice.\n"
    "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear "
    "instructions), state the issue, pick the next-best approach, and continue."
)

HOW_TO_USE_ABSOLUTE = (
    "- Discovery: The list above is the skills available in this session (name + description "
    "+ file path). Skill bodies live on disk at the listed paths.\n"
    + _TRIGGER
    + "  1) After deciding to use a skill, open its `SKILL.md`. Read only enough to follow the "
    "workflow.\n"
    "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them "
    "relative to the skill directory listed above first, and only consider other paths if "
    "needed.\n" + _REST
)
HOW_TO_USE_ALIASES = (
    "- Discovery: The list above is the skills available in this session (name + description "
    "+ short path). Skill bodies live on disk at the listed paths after expanding the matching "
    "alias from `### Skill roots`.\n"
    + _TRIGGER
    + "  1) After deciding to use a skill, expand the listed short `path` with the matching "
    "alias from `### Skill roots`, then open its `SKILL.md`. Read only enough to follow the "
    "workflow.\n"
    "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them "
    "relative to the directory containing that expanded `SKILL.md` first, and only consider "
    "other paths if needed.\n" + _REST
)

TRUNCATED_WARNING = (
    "Skill descriptions were shortened to fit the skills context budget. Codex can still see "
    "every skill, but some descriptions are shorter. Disable unused skills or plugins to leave "
    "more room for the rest."
)
TRUNCATED_WARNING_PERCENT = (
    "Skill descriptions were shortened to fit the 2% skills context budget. Codex can still see "
    "every skill, but some descriptions are shorter. Disable unused skills or plugins to leave "
    "more room for the rest."
)
REMOVED_PREFIX = "Exceeded skills context budget. All skill descriptions were removed and"
REMOVED_PREFIX_PERCENT = (
    "Exceeded skills context budget of 2%. All skill descriptions were removed and"
)
TRUNCATION_WARNING_THRESHOLD = 100
"""Average cut description characters per skill above which the shortening is reported."""
