"""Which skill a Codex turn invoked: Codex's own rules, applied to the recorded calls.

Explicit use (openai/codex ``codex-rs/core/src/skills/injection.rs``): the user writes
``$skill-name`` (name characters ``[A-Za-z0-9_-]``; ``$PATH``, ``$HOME`` and other common
environment variables are not mentions) or ``[$skill-name](path)``. Codex then injects the
skill's body as a user-role message ``<skill>\\n<name>NAME</name>\\n<path>…`` into the
rollout, which is the record this importer trusts; bare ``$name`` mentions count only for
names a given catalog holds.

Implicit use (``codex-rs/core/src/skills/invocation_utils.rs``): a ``shell_command``
(``command``) or ``exec_command`` (``cmd``) call whose command, split like a shell would,
either runs a script (runner ``python``, ``python3``, ``bash``, ``zsh``, ``sh``, ``node``,
``deno``, ``ruby``, ``perl`` or ``pwsh``, first non-option argument ending in ``.py``,
``.sh``, ``.js``, ``.ts``, ``.rb``, ``.pl`` or ``.ps1``) that lies under a skill's
``scripts/`` directory, or reads (``cat``, ``sed``, ``head``, ``tail``, ``less``, ``more``,
``bat``, ``awk``) a skill's ``SKILL.md``. Codex matches the paths of the skills it loaded;
the log does not list them, so here the skill is the directory holding ``scripts/`` or
``SKILL.md`` (mapped to its catalog name when a catalog is given). Relative paths are
taken from the call's ``workdir``, else the turn's ``cwd``, as Codex does. Older rollouts ran
commands through a ``shell`` tool with an argument list such as ``["bash", "-lc", "…"]``;
the script inside is read the same way.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Mapping
from pathlib import PurePosixPath, PureWindowsPath

RUNNERS = frozenset(
    {"python", "python3", "bash", "zsh", "sh", "node", "deno", "ruby", "perl", "pwsh"}
)
SCRIPT_EXTENSIONS = (".py", ".sh", ".js", ".ts", ".rb", ".pl", ".ps1")
READERS = frozenset({"cat", "sed", "head", "tail", "less", "more", "bat", "awk"})
COMMON_ENV_VARS = frozenset(
    {"PATH", "HOME", "USER", "SHELL", "PWD", "TMPDIR", "TEMP", "TMP", "LANG", "TERM"}
    | {"XDG_CONFIG_HOME"}
)
_MENTION = re.compile(r"\$([A-Za-z0-9_-]+)")
_INJECTED = re.compile(r"^\s*<skill>\s*<name>([^<]+)</name>")
_SHELLS = frozenset({"bash", "sh", "zsh"})


def mentions(text: str) -> list[str]:
    """``$name`` mentions in ``text`` (linked ones included), common env vars left out."""
    names = (m.group(1) for m in _MENTION.finditer(text))
    return list(dict.fromkeys(n for n in names if n.upper() not in COMMON_ENV_VARS))


def injected_skill(text: str) -> str | None:
    """The skill whose body this user-role message injects, if it is such a message."""
    found = _INJECTED.match(text)
    return found.group(1).strip() if found else None


def implicit_skill(
    command: str | list[str],
    by_dir: Mapping[str, str] | None = None,
    workdir: str | None = None,
) -> str | None:
    """The skill a shell command runs a script of or reads the ``SKILL.md`` of, if any.

    Args:
        command: the command line, or an argument list (``["bash", "-lc", "…"]``).
        by_dir: skill directory name → skill name, from a catalog; when given, only its
            skills are recognised.
        workdir: the directory the command ran in; relative paths are taken from it.
    """
    joined = command if isinstance(command, str) else " ".join(command)
    joined += f" {workdir or ''}"
    if "SKILL.md" not in joined and "scripts" not in joined:
        return None  # neither rule can match: skip the costly shell split
    tokens = _split(command) if isinstance(command, str) else [str(t) for t in command]
    tokens = _unwrap(tokens)
    if not tokens:
        return None
    program = _basename(tokens[0]).lower().removesuffix(".exe")
    directory = None
    if program in RUNNERS:
        directory = _script_dir(tokens[1:], workdir)
    if directory is None and program in READERS:
        directory = _doc_dir(tokens[1:], workdir)
    if directory is None:
        return None
    if by_dir is None:
        return directory
    return by_dir.get(directory)


def _split(command: str) -> list[str]:
    """Shell words of ``command``; without quotes or escapes that is a whitespace split."""
    if not any(c in command for c in "'\"\\"):
        return command.split()
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


def _unwrap(tokens: list[str]) -> list[str]:
    """The script of ``bash -lc SCRIPT`` (and ``sh -c``, ``zsh -c``), split; else ``tokens``."""
    if len(tokens) >= 3 and _basename(tokens[0]) in _SHELLS and tokens[1] in ("-c", "-lc"):
        return _split(tokens[2])
    return tokens


def _basename(token: str) -> str:
    return PureWindowsPath(token).name if "\\" in token else PurePosixPath(token).name


def _parts(token: str, workdir: str | None) -> tuple[str, ...]:
    """Path components of ``token``, from ``workdir`` when it is relative."""
    path = PureWindowsPath(token) if "\\" in token else PurePosixPath(token)
    if workdir and not path.is_absolute() and not token.startswith("~"):
        return _parts(workdir, None) + path.parts
    return path.parts


def _script_dir(args: list[str], workdir: str | None) -> str | None:
    script = next((a for a in args if a != "--" and not a.startswith("-")), None)
    if script is None or not script.lower().endswith(SCRIPT_EXTENSIONS):
        return None
    parts = _parts(script, workdir)[:-1]
    for i in range(len(parts) - 1, 0, -1):
        if parts[i] == "scripts":
            return parts[i - 1]
    return None


def _doc_dir(args: list[str], workdir: str | None) -> str | None:
    for arg in args:
        if arg.startswith("-"):
            continue
        parts = _parts(arg, workdir)
        if len(parts) >= 2 and parts[-1] == "SKILL.md":
            return parts[-2]
    return None
