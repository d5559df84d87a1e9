"""How a ``description`` can be written in front matter: the scalar forms of the YAML test
suite (plain, quoted, folded and literal blocks with their chomping and indentation
indicators), the characters that change a plain scalar's meaning, and broken YAML.

Each shape turns two phrases into the front matter line(s) of the field; what a YAML parser
makes of them is for the agents (and the tests) to say.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

YamlShape = Callable[[str, str], str]


def _plain(a: str, b: str) -> str:
    return f"description: {a} {b}\n"


def _single(a: str, b: str) -> str:
    return f"description: '{a} it''s {b}'\n"


def _double(a: str, b: str) -> str:
    return f'description: "{a}\\t\\"{b}\\"\\u00e9"\n'


def _block(indicator: str, trailing: str = "") -> YamlShape:
    def shape(a: str, b: str) -> str:
        return f"description: {indicator}\n  {a}\n  {b}\n{trailing}"

    return shape


def _folded_indent(a: str, b: str) -> str:
    return f"description: >2\n   {a}\n  {b}\n"


def _multiline_plain(a: str, b: str) -> str:
    return f"description: {a}\n  {b}\n  end\n"


def _colon_quoted(a: str, b: str) -> str:
    return f'description: "{a}: {b}"\n'


def _colon_plain(a: str, b: str) -> str:
    return f"description: {a}:{b} url http://x.test/{b}\n"


def _colon_space_plain(a: str, b: str) -> str:
    return f"description: {a}: {b}\n"


def _hash_comment(a: str, b: str) -> str:
    return f"description: {a} #{b}\n"


def _hash_inside(a: str, b: str) -> str:
    return f"description: {a}#{b} C# issue#1\n"


def _tab(a: str, b: str) -> str:
    return f"description: {a}\t{b}\n"


def _trailing_spaces(a: str, b: str) -> str:
    return f"description: {a} {b}   \n"


def _unicode(a: str, b: str) -> str:
    return f"description: {a} héllo 🚀 日本語 {b} ∑ \u200b\n"


def _empty(a: str, b: str) -> str:
    return "description:\n"


def _empty_quoted(a: str, b: str) -> str:
    return "description: ''\n"


def _missing(a: str, b: str) -> str:
    return ""


def _unclosed_quote(a: str, b: str) -> str:
    return f"description: '{a} {b}\n"


def _unclosed_flow(a: str, b: str) -> str:
    return f"description: [{a}, {b}\n"


def _bad_indent(a: str, b: str) -> str:
    return f"description: {a}\n {b}: x\n  - y\n"


def _list_value(a: str, b: str) -> str:
    return f"description:\n  - {a}\n  - {b}\n"


def _number(a: str, b: str) -> str:
    return "description: 12.50\n"


def _extra_keys(a: str, b: str) -> str:
    return f"description: {a} {b}\nlicense: MIT\nmetadata:\n  owner: {a}\nx-unknown: [1, 2]\n"


YAML_SHAPES: Mapping[str, YamlShape] = {
    "plain": _plain,
    "single-quoted": _single,
    "double-quoted": _double,
    "folded": _block(">"),
    "folded-strip": _block(">-"),
    "folded-keep": _block(">+", "\n"),
    "literal": _block("|"),
    "literal-strip": _block("|-"),
    "literal-keep": _block("|+", "\n"),
    "folded-indent": _folded_indent,
    "multiline-plain": _multiline_plain,
    "colon-quoted": _colon_quoted,
    "colon-plain": _colon_plain,
    "colon-space-plain": _colon_space_plain,
    "hash-comment": _hash_comment,
    "hash-inside": _hash_inside,
    "tab": _tab,
    "trailing-spaces": _trailing_spaces,
    "unicode": _unicode,
    "empty": _empty,
    "empty-quoted": _empty_quoted,
    "missing": _missing,
    "unclosed-quote": _unclosed_quote,
    "unclosed-flow": _unclosed_flow,
    "bad-indent": _bad_indent,
    "list-value": _list_value,
    "number": _number,
    "extra-keys": _extra_keys,
}
"""Every description shape, by name."""
