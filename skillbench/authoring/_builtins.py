"""Names an agent already owns: a skill with one of them is shadowed or confuses the model.

Each list is gathered from the agent's public documentation or source:

- Claude Code tools: the tools reference, https://code.claude.com/docs/en/tools-reference
  (names as used in permission rules).
- Claude Code commands: the built-in commands reference,
  https://code.claude.com/docs/en/slash-commands, plus its bundled prompt skills.
- Codex commands: the ``SlashCommand`` enum of ``codex-rs/tui/src/slash_command.rs`` in
  openai/codex (kebab-case serialisation).

They drift as the agents ship; a name missing here is a missed warning, never a false one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

CLAUDE_CODE_TOOLS = frozenset(
    {
        "Agent",
        "AskUserQuestion",
        "Bash",
        "CronCreate",
        "CronDelete",
        "CronList",
        "Edit",
        "EnterPlanMode",
        "EnterWorktree",
        "ExitPlanMode",
        "ExitWorktree",
        "Glob",
        "Grep",
        "ListMcpResourcesTool",
        "LSP",
        "MultiEdit",
        "NotebookEdit",
        "Read",
        "ReadMcpResourceTool",
        "Skill",
        "Task",
        "TaskCreate",
        "TaskGet",
        "TaskList",
        "TaskOutput",
        "TaskStop",
        "TaskUpdate",
        "TodoWrite",
        "ToolSearch",
        "WebFetch",
        "WebSearch",
        "Write",
    }
)

CLAUDE_CODE_COMMANDS = frozenset(
    {
        "add-dir",
        "agents",
        "batch",
        "branch",
        "btw",
        "bug",
        "clear",
        "compact",
        "config",
        "context",
        "cost",
        "debug",
        "diff",
        "doctor",
        "effort",
        "exit",
        "export",
        "fast",
        "feedback",
        "fork",
        "help",
        "hooks",
        "ide",
        "init",
        "install-github-app",
        "login",
        "logout",
        "loop",
        "mcp",
        "memory",
        "model",
        "output-style",
        "permissions",
        "plan",
        "plugin",
        "pr-comments",
        "privacy-settings",
        "release-notes",
        "rename",
        "resume",
        "review",
        "rewind",
        "sandbox",
        "security-review",
        "simplify",
        "status",
        "statusline",
        "terminal-setup",
        "theme",
        "todos",
        "upgrade",
        "usage",
        "vim",
    }
)

CODEX_COMMANDS = frozenset(
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


class Builtin(NamedTuple):
    """One agent-owned name a skill collides with."""

    agent: str
    kind: str
    name: str


_LISTS: Mapping[tuple[str, str], frozenset[str]] = {
    ("Claude Code", "tool"): CLAUDE_CODE_TOOLS,
    ("Claude Code", "command"): CLAUDE_CODE_COMMANDS,
    ("Codex", "command"): CODEX_COMMANDS,
}


def builtin_collisions(name: str) -> list[Builtin]:
    """Every built-in ``name`` collides with, compared case-insensitively (``_`` as ``-``)."""
    key = name.strip().lower().replace("_", "-")
    return [
        Builtin(agent, kind, owned)
        for (agent, kind), names in _LISTS.items()
        for owned in sorted(names)
        if owned.lower() == key
    ]
