"""Claude Code, verified by capture at 2.1.328 and 2.1.332 (their listing rules are the same).

It posts ``/v1/messages?beta=true`` (streamed) to ``ANTHROPIC_BASE_URL``; the listing is a
section of a system-role message (for older models such as claude-sonnet-4-6, a
``<system-reminder>`` in the user's turn), opened by a fixed header and followed by the
user's skills, then the agent's built-in ones. Its budget stages, entry names and the
section's place are rules of its own (``skillbench.listing`` and ``skillbench.agents``).
"""

from skillbench.agentspec._registry import register_agent
from skillbench.agentspec._types import (
    AgentSpec,
    CapRule,
    Launch,
    Live,
    Package,
    Release,
    SessionLogs,
    Sessions,
    SkillFolder,
    Wire,
)
from skillbench.catalog import Precedence

_TOOLS = frozenset(
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
"""Its tools, as its tools reference names them (and permission rules use them)."""

_COMMANDS = frozenset(
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
"""Its built-in commands (the commands reference) and bundled prompt skills."""

CLAUDE_CODE = register_agent(
    AgentSpec(
        name="claude-code",
        title="Claude Code",
        package=Package("npm", "@anthropic-ai/claude-code", "claude"),
        releases=(
            Release(
                "2.1.328",
                "byte-identical captures: four public catalogs, budgets, usage, scopes",
                pinned=True,
            ),
            Release(
                "2.1.332", "byte-identical captures: four public catalogs, all together, devtools"
            ),
        ),
        folders=(
            SkillFolder("user", "~/.claude/skills", install=True),
            SkillFolder("project", ".claude/skills", install=True),
        ),
        loading=Precedence(
            "claude-code",
            ("managed", "user", "project", "extra", "bundled", "plugin"),
            False,
            "claude-code: first found wins (managed, user, project, additional dirs, bundled)",
            dedupe="folder_and_path",
            paths="touched",
            paths_ignored_for=("plugin",),
            namespace_plugins=True,
            names="listed",
            front_matter="yaml-requoted-indicators",
            nested=False,
            depth=1,
        ),
        wire=Wire("anthropic-messages", None, placement="system_message"),
        launch=Launch(
            argv=("$executable", "-p", "$prompt", "--output-format", "json", "$model_args"),
            model_argv=("--model", "$model"),
            env={
                "ANTHROPIC_BASE_URL": "$base_url",
                "ANTHROPIC_API_KEY": "skillbench-capture",
                "DISABLE_TELEMETRY": "1",
                "DISABLE_AUTOUPDATER": "1",
                "DISABLE_ERROR_REPORTING": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
            },
            settings_file=".claude/settings.json",
            budget_variable="SLASH_COMMAND_TOOL_CHAR_BUDGET",
            keeps_usage=True,
        ),
        listing=None,
        live=Live(
            "Skill",
            "skill",
            warm=True,
            rereads_usage=True,
            sessions=Sessions(
                first=("--session-id", "$session_id"),
                resume=("--resume", "$session_id"),
                read_tool="Read",
                read_argument="file_path",
                fork="context",
                settings={"permissions": {"allow": ["Skill", "Read"]}},
                args_argument="args",
                subagent_text="cc_is_subagent=true",
            ),
        ),
        summary="1% of the context window; every name stays, least-used descriptions dropped",
        ordering="claude-code",
        own_rules=True,
        uncapped={"entry_cap": 10**9},
        own_installs={"plugin": "--plugin-dir", "extra": "--add-dir"},
        default=True,
        owned_names={"tool": _TOOLS, "command": _COMMANDS},
        cap_rule=CapRule(
            "SB601",
            "claude-code-entry-cap",
            "Claude Code cuts the entry past 1,536 characters",
            """Claude Code joins ``description`` and ``when_to_use`` with " - " and caps the
            result at 1,536 characters per entry; whatever is past the cap never reaches the
            model.""",
            cuts="entry",
        ),
        variables=frozenset(
            {"CLAUDE_SKILL_DIR", "CLAUDE_SESSION_ID", "CLAUDE_PLUGIN_ROOT", "CLAUDE_PROJECT_DIR"}
        ),
        skill_homes={
            "user": "~/.claude/skills",
            "project": ".claude/skills",
            "plugin": "~/.claude/plugins",
            "extra": "~/.claude/extra-skills",
            "managed": "/etc/claude-code/.claude/skills",
            "bundled": "~/.claude/bundled-skills",
        },
        logs=SessionLogs("~/.claude/projects", (".jsonl",), keeps_listings=True),
    )
)
