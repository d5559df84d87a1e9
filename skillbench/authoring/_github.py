"""GitHub Actions workflow commands (annotations), escaped as the runner parses them.

The runner splits a command at ``::`` and its properties at ``,`` and ``=``; a message runs
to the end of the line. So data escapes ``%``, CR and LF, and property values also ``:`` and
``,``, or a path or title holding them would break the command or inject another one.
"""

from __future__ import annotations

from typing import Literal

from skillbench._sanitize import printable

AnnotationLevel = Literal["error", "warning", "notice"]


def escape_data(text: str) -> str:
    """GitHub's escaping of a message; anything else a terminal would act on (escape
    sequences, other line breaks) is shown escaped."""
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def workflow_command(
    level: AnnotationLevel,
    message: str,
    *,
    file: str | None = None,
    line: int | None = None,
    title: str | None = None,
) -> str:
    """``::level file=…,line=…,title=…::message``, every part escaped."""
    props = [f"file={escape_property(file)}"] if file else []
    props += [f"line={line}"] if file and line is not None else []
    props += [f"title={escape_property(title)}"] if title else []
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{escape_data(message)}"
