"""Codex's fixed listing framing (the ``<skills_instructions>`` block of its developer
message), as Codex 0.169.0 formats it. Only the format lives here: the system skills it
lists are read from an agent snapshot at run time."""

OPEN_TAG = "<skills_instructions>"
CLOSE_TAG = "</skills_instructions>"

INTRO_ALIASES = (
    "A skill is a set of local instructions to follow that is stored in a `SKILL.md` file. "
    "Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table."
)
"""The opening sentence when paths are shortened with a ``### Skill roots`` table (what
every captured request carried)."""

INTRO_LOCATORS = (
    "A skill is a set of instructions provided through a `SKILL.md` source. Below is the list "
    "of skills that can be used. Each entry includes a name, description, and source locator. "
    "`file` locators are on the host filesystem, `executor package` locators are owned by "
    "their execution environment, `cloud package` locators are opaque package identifiers, "
    "and `custom resource` locators use their provider's access mechanism."
)
"""The opening sentence of the variant with absolute paths. Codex sends it only when the
aliased variant is not better; its length also sets what the roots table costs."""

REMOVED_PREFIX = "Exceeded skills context budget. All skill descriptions were removed and"

TRUNCATED_SUFFIX = "..."
"""What a description cut at the per-entry cap ends with."""
