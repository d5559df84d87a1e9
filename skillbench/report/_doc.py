"""A tiny document model rendered to Markdown and to self-contained HTML.

Reports and comparisons build one list of blocks; the two renderers keep the Markdown and HTML
outputs saying the same thing without duplicating the content logic.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from skillbench._sanitize import printable


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True)
class Para:
    """Text with inline ``code``, **bold** and *emphasis* spans."""

    text: str
    muted: bool = False


@dataclass(frozen=True)
class Bullets:
    items: Sequence[str]


@dataclass(frozen=True)
class Table:
    """Cells are preformatted strings; ``numeric`` columns align right."""

    header: Sequence[str]
    rows: Sequence[Sequence[str]]
    numeric: frozenset[int] = frozenset()
    collapsed: str | None = None
    """HTML only: fold the table under this summary line (long reference tables)."""
    muted: frozenset[int] = frozenset()
    """Rows shown greyed (figures not to be trusted); in Markdown in emphasis."""


@dataclass(frozen=True)
class Figure:
    """A plot, or why it was skipped (``png`` is None)."""

    name: str
    title: str
    png: bytes | None
    caption: str = ""
    values: Mapping[str, Any] = field(default_factory=dict)
    """The numbers drawn, by series label: what the image shows, checkable against tables."""


Block = Heading | Para | Bullets | Table | Figure


@dataclass
class Document:
    title: str
    blocks: list[Block] = field(default_factory=list)

    def add(self, *blocks: Block) -> None:
        self.blocks.extend(blocks)


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def to_markdown(doc: Document, image_dir: str | None = "plots") -> str:
    """Markdown; figures link to ``image_dir/<name>.png`` (None: captions only)."""
    out = [f"# {doc.title}", ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += ["#" * b.level + " " + b.text, ""]
        elif isinstance(b, Para):
            out += [f"*{b.text}*" if b.muted else b.text, ""]
        elif isinstance(b, Bullets):
            out += [f"- {item}" for item in b.items] + [""]
        elif isinstance(b, Table):
            out.append("| " + " | ".join(_md_cell(h) for h in b.header) + " |")
            aligns = ["---:" if i in b.numeric else "---" for i in range(len(b.header))]
            out.append("| " + " | ".join(aligns) + " |")
            out += [
                "| "
                + " | ".join(_md_cell(f"*{c}*" if i in b.muted and c else c) for c in row)
                + " |"
                for i, row in enumerate(b.rows)
            ]
            out.append("")
        elif isinstance(b, Figure):
            out += [f"**{b.title}**", ""]
            if b.png is not None and image_dir is not None:
                out += [f"![{b.title}]({image_dir}/{b.name}.png)", ""]
            if b.caption:
                out += [f"*{b.caption}*", ""]
    return "\n".join(out).rstrip() + "\n"


_MARKUP = re.compile(r"\*\*([^*]+)\*\*|`([^`]+)`")


def _plain(text: str) -> str:
    """``text`` without **bold** and `code` marks, every non-printable character escaped."""
    return printable(_MARKUP.sub(lambda m: m.group(1) or m.group(2), text))


def to_text(doc: Document) -> str:
    """Plain text for a terminal: headings underlined, tables in aligned columns (numeric
    ones right-aligned), figures by their title and caption."""
    out = [_plain(doc.title), "=" * len(_plain(doc.title)), ""]
    for b in doc.blocks:
        if isinstance(b, Heading):
            out += [_plain(b.text), "-" * len(_plain(b.text)), ""]
        elif isinstance(b, Para):
            out += [_plain(b.text), ""]
        elif isinstance(b, Bullets):
            out += [f"- {_plain(item)}" for item in b.items] + [""]
        elif isinstance(b, Table):
            cells = [[_plain(c) for c in row] for row in [b.header, *b.rows]]
            widths = [max(len(row[i]) for row in cells) for i in range(len(b.header))]
            out += [
                "  ".join(
                    c.rjust(w) if i in b.numeric else c.ljust(w)
                    for i, (c, w) in enumerate(zip(row, widths, strict=True))
                ).rstrip()
                for row in cells
            ] + [""]
        elif isinstance(b, Figure):
            out += [_plain(b.title)] + ([_plain(b.caption)] if b.caption else []) + [""]
    return "\n".join(out).rstrip() + "\n"


_INLINE = re.compile(
    r"`([^`]+)`"  # code
    r"|\*\*([^*]+)\*\*"  # bold
    r"|(\[[-+]?[\d.]+, [-+]?[\d.]+\])"  # an interval
    r"|(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])"  # emphasis
)


def _inline(text: str) -> str:
    """Escape, then turn `code`, **bold** and *emphasis* into tags."""
    parts, last = [], 0
    for m in _INLINE.finditer(text):
        parts.append(html.escape(text[last : m.start()]))
        if m.group(1) is not None:
            parts.append(f"<code>{html.escape(m.group(1))}</code>")
        elif m.group(2) is not None:
            parts.append(f"<strong>{html.escape(m.group(2))}</strong>")
        elif m.group(3) is not None:  # an interval: quieter than the value it qualifies
            parts.append(f'<span class="ci">{html.escape(m.group(3))}</span>')
        else:
            parts.append(f"<em>{html.escape(m.group(4))}</em>")
        last = m.end()
    parts.append(html.escape(text[last:]))
    return "".join(parts)


CSS = """
:root { --fg:#1f2328; --muted:#59636e; --line:#d1d9e0; --band:#f6f8fa; --accent:#0969da; }
* { box-sizing: border-box; }
body { font: 15px/1.55 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  color: var(--fg); max-width: 1180px; margin: 2rem auto; padding: 0 1.5rem; }
h1 { font-size: 1.7rem; border-bottom: 1px solid var(--line); padding-bottom: .4rem; }
h2 { font-size: 1.3rem; margin-top: 2.2rem; border-bottom: 1px solid var(--line);
  padding-bottom: .25rem; }
h3 { font-size: 1.08rem; margin-top: 1.6rem; }
p.muted, figcaption { color: var(--muted); font-size: .92rem; }
code { font: .88em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  background: var(--band); padding: .1em .3em; border-radius: 4px; }
.scroll { overflow-x: auto; margin: .8rem 0 1.2rem; }
table { border-collapse: collapse; font-size: .9rem; font-variant-numeric: tabular-nums; }
th, td { padding: .32rem .7rem; border-bottom: 1px solid var(--line); text-align: left;
  vertical-align: top; }
th { background: var(--band); position: sticky; top: 0; font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) { background: #fbfcfd; }
tbody tr:hover { background: #eef4fb; }
figure { margin: 1.2rem 0 2rem; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--line); border-radius: 6px; }
figure h3 { margin-bottom: .4rem; }
li { margin: .25rem 0; }
.ci { color: var(--muted); font-size: .92em; }
tr.muted td { color: var(--muted); opacity: .6; }
details summary { cursor: pointer; color: var(--accent); margin: .6rem 0; }
"""


def to_html(doc: Document) -> str:
    """One HTML file with inline CSS and base64 PNGs: no external references at all."""
    body: list[str] = [f"<h1>{html.escape(doc.title)}</h1>"]
    for b in doc.blocks:
        if isinstance(b, Heading):
            body.append(f"<h{b.level}>{_inline(b.text)}</h{b.level}>")
        elif isinstance(b, Para):
            muted = ' class="muted"' if b.muted else ""
            body.append(f"<p{muted}>{_inline(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append("<ul>" + "".join(f"<li>{_inline(i)}</li>" for i in b.items) + "</ul>")
        elif isinstance(b, Table):
            num = b.numeric

            def cls(i: int, num: frozenset[int] = num) -> str:
                return ' class="num"' if i in num else ""

            head = "".join(f"<th{cls(i)}>{html.escape(h)}</th>" for i, h in enumerate(b.header))
            rows = "".join(
                ('<tr class="muted">' if r in b.muted else "<tr>")
                + "".join(f"<td{cls(i)}>{_inline(c)}</td>" for i, c in enumerate(row))
                + "</tr>"
                for r, row in enumerate(b.rows)
            )
            table = (
                f'<div class="scroll"><table><thead><tr>{head}</tr></thead>'
                f"<tbody>{rows}</tbody></table></div>"
            )
            if b.collapsed:
                table = f"<details><summary>{_inline(b.collapsed)}</summary>{table}</details>"
            body.append(table)
        elif isinstance(b, Figure):
            parts = [f"<figure><h3>{html.escape(b.title)}</h3>"]
            if b.png is not None:
                data = base64.b64encode(b.png).decode("ascii")
                parts.append(
                    f'<img alt="{html.escape(b.title)}" src="data:image/png;base64,{data}">'
                )
            if b.caption:
                parts.append(f"<figcaption>{_inline(b.caption)}</figcaption>")
            body.append("".join(parts) + "</figure>")
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(doc.title)}</title><style>{CSS}</style></head>"
        "<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )
