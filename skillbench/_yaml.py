"""Safe, bounded YAML for every YAML input (run configs, request files, skill frontmatter).

Safe loading alone does not make YAML harmless: aliases let a few hundred bytes describe a
billion nodes (an "alias bomb"), which hangs or exhausts memory as soon as anything walks the
result, and deep nesting overflows the recursive composer. The loader here counts, while
composing, how many nodes each node stands for once aliases are expanded and how deep it
reaches, and stops at the first node past ``MAX_NODES`` or ``MAX_DEPTH`` with its file line.
Mappings from :func:`load_yaml` keep the line of every key, so later errors can point there.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable, Mapping
from datetime import date
from itertools import islice
from typing import Any, Literal, NamedTuple

import yaml
from yaml.composer import Composer, ComposerError
from yaml.constructor import SafeConstructor
from yaml.events import AliasEvent
from yaml.resolver import Resolver

from skillbench._errors import InputError, Location
from skillbench._io import read_text
from skillbench.types import JsonValue

MAX_NODES = 100_000
"""Expanded nodes (aliases counted at their full size) one document may describe."""

MAX_DEPTH = 64
"""Nesting levels, aliases followed; real configs and frontmatter use fewer than 10."""


class LineDict(dict[Any, Any]):
    """A dict from a YAML mapping: ``line`` is where it starts, ``lines[key]`` where each key is."""

    line: int | None
    lines: dict[Any, int]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.line = None
        self.lines = {}


class _Size:
    """Expanded node count and height of one composed node."""

    __slots__ = ("height", "nodes")

    def __init__(self, nodes: int, height: int) -> None:
        self.nodes = nodes
        self.height = height


class _BoundedComposer(Composer):
    """PyYAML's composer, refusing documents past ``MAX_NODES`` or ``MAX_DEPTH``."""

    peek_event: Callable[[], Any]  # supplied by the parser the loader mixes in

    def __init__(self) -> None:
        super().__init__()
        self._sizes: dict[int, _Size] = {}
        self._open = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.peek_event()
        mark: Any = event.start_mark
        if isinstance(event, AliasEvent):
            node = super().compose_node(parent, index)
            if id(node) not in self._sizes:
                raise ComposerError(
                    None,
                    None,
                    "alias refers to a node that contains it (recursive)",
                    mark,
                )
            return node
        self._open += 1
        if self._open > MAX_DEPTH:
            raise ComposerError(None, None, f"nested deeper than {MAX_DEPTH} levels", mark)
        node = super().compose_node(parent, index)
        self._open -= 1
        if node is not None:
            self._sizes[id(node)] = self._measure(node)
        return node

    def _measure(self, node: yaml.Node) -> _Size:
        children: list[yaml.Node] = []
        if isinstance(node, yaml.SequenceNode):
            children = node.value
        elif isinstance(node, yaml.MappingNode):
            children = [part for pair in node.value for part in pair]
        sizes = [self._sizes[id(child)] for child in children]
        size = _Size(1 + sum(s.nodes for s in sizes), 1 + max((s.height for s in sizes), default=0))
        if size.nodes > MAX_NODES:
            raise ComposerError(
                None,
                None,
                f"aliases expand to more than {MAX_NODES:,} nodes (an alias bomb?)",
                node.start_mark,
            )
        if size.height > MAX_DEPTH:
            raise ComposerError(
                None, None, f"aliases nest deeper than {MAX_DEPTH} levels", node.start_mark
            )
        return size


class PythonLoader(
    yaml.reader.Reader,
    yaml.scanner.Scanner,
    yaml.parser.Parser,
    _BoundedComposer,
    SafeConstructor,
    Resolver,
):
    """Safe loader, pure Python (what ``yaml.safe_load`` reads with: it refuses a tab inside
    a plain scalar, which libyaml accepts), with the bounded composer."""

    def __init__(self, stream: str) -> None:
        yaml.reader.Reader.__init__(self, stream)
        yaml.scanner.Scanner.__init__(self)
        yaml.parser.Parser.__init__(self)
        SafeConstructor.__init__(self)
        Resolver.__init__(self)
        _BoundedComposer.__init__(self)


_OPENERS = re.compile("[\r\n\x85\u2028\u2029{]|[-?:](?=[ \t\r\n\x85\u2028\u2029]|\\Z)")
"""What can open a nesting level: a line (any of YAML 1.1's line breaks), a flow mapping, a
block indicator (``[`` counts twice: a flow sequence and the single-pair mapping
``["a":b]`` inside it)."""


def within_bounds(text: str) -> bool:
    """Whether ``text`` cannot reach ``MAX_NODES`` or ``MAX_DEPTH`` whatever it holds: no
    alias or anchor, fewer characters than ``MAX_NODES``, and too few openers (``_OPENERS``)
    to nest ``MAX_DEPTH`` levels. Such a document needs no counting while it is composed."""
    if "*" in text or "&" in text or len(text) >= MAX_NODES:
        return False
    budget = MAX_DEPTH - 2 - 2 * text.count("[")
    return budget >= 0 and next(islice(_OPENERS.finditer(text), budget, None), None) is None


if yaml.__with_libyaml__:
    from yaml._yaml import CParser

    class BoundedLoader(_BoundedComposer, CParser, SafeConstructor, Resolver):  # type: ignore[misc]
        """Safe loader: libyaml's parser for speed, the bounded composer in Python (libyaml
        composes a document that is ``within_bounds``, about three times faster)."""

        def __init__(self, stream: str) -> None:
            CParser.__init__(self, stream)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)
            _BoundedComposer.__init__(self)
            self._bounded = within_bounds(stream)

        def get_single_node(self) -> Any:
            if self._bounded:
                return CParser.get_single_node(self)
            return super().get_single_node()

else:  # pragma: no cover - PyYAML built without libyaml
    BoundedLoader = PythonLoader  # type: ignore[misc,assignment]


class DuplicateKey(NamedTuple):
    """A mapping key given twice: the later value replaced the earlier one."""

    key: Any
    first_line: int
    line: int


class _LineLoader(BoundedLoader):
    duplicates: list[DuplicateKey] | None = None
    """Where repeated keys are noted (lines relative to the text); None: they are errors."""


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    data = LineDict()
    data.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, Hashable):
            raise yaml.constructor.ConstructorError(
                None, None, "a mapping key that is a list or mapping", key_node.start_mark
            )
        line = key_node.start_mark.line + 1
        if key in data.lines:
            # A repeated key would silently replace the first value: say so at its line.
            if loader.duplicates is None:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"duplicate key {key!r} (first given on line {data.lines[key]})",
                    key_node.start_mark,
                )
            loader.duplicates.append(DuplicateKey(key, data.lines[key], line))
        data[key] = loader.construct_object(value_node, deep=True)
        data.lines[key] = line
    return data


_LineLoader.add_constructor(  # type: ignore[type-var]
    yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping
)


class _TextLoader(_LineLoader):
    """Scalars stay the text they are written as (``12.50``, ``yes``, ``2024-01-02``, a
    scalar with a tag unknown here); only null is not text."""


def _written(loader: _TextLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return _construct_mapping(loader, node)  # type: ignore[arg-type]


for _tag in ("bool", "int", "float", "timestamp", "binary"):
    _TextLoader.add_constructor(f"tag:yaml.org,2002:{_tag}", _written)  # type: ignore[type-var]
_TextLoader.add_constructor(None, _written)  # type: ignore[type-var]

Scalars = Literal["typed", "text"]
"""``typed``: YAML 1.1's implicit types (``12.50`` is a float, ``yes`` true); ``text``: every
scalar but null is the string it is written as."""


def parse_yaml(
    text: str,
    name: str,
    *,
    first_line: int = 1,
    lines: bool = False,
    duplicates: list[DuplicateKey] | None = None,
    scalars: Scalars = "typed",
    pure: bool = False,
) -> Any:
    """Parse one YAML document from ``text`` (line ``first_line`` of file ``name``).

    Args:
        text: the document.
        name: the file, for errors.
        first_line: the file line ``text`` starts on (frontmatter starts on line 2).
        lines: return mappings as :class:`LineDict` with key lines; a repeated key is an
            error at its line.
        duplicates: return mappings as :class:`LineDict` and append each repeated key here
            (file lines; the later value is kept) instead of failing: for callers that
            report it as a warning of their own.
        scalars: how plain scalars are typed (see ``Scalars``; ``text`` returns mappings as
            :class:`LineDict`).
        pure: parse as ``yaml.safe_load`` does, with PyYAML's pure-Python parser (for a
            reader mirroring an agent that uses it); no key lines.

    Raises:
        InputError: invalid YAML, an alias bomb or too deep nesting, with the file line.
    """
    found: list[DuplicateKey] = []
    loader: BoundedLoader | PythonLoader
    if pure:
        loader = PythonLoader(text)
    elif lines or duplicates is not None or scalars == "text":
        loader = line_loader = (_TextLoader if scalars == "text" else _LineLoader)(text)
        if duplicates is not None:
            line_loader.duplicates = found
    else:
        loader = BoundedLoader(text)
    try:
        data = loader.get_single_data()
        if duplicates is not None:
            shift = first_line - 1
            duplicates.extend(
                DuplicateKey(d.key, d.first_line + shift, d.line + shift) for d in found
            )
        return data
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line + first_line if mark is not None else None
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise InputError(Location(name, line), f"invalid YAML: {problem}") from None
    finally:
        loader.dispose()


def well_formed(text: str) -> bool:
    """Whether ``text`` is one YAML document's syntax (within the bounds), whatever its
    values would be constructed as."""
    loader = BoundedLoader(text)
    try:
        loader.get_single_node()
    except yaml.YAMLError:
        return False
    finally:
        loader.dispose()
    return True


def load_yaml(path: str | os.PathLike[str]) -> Any:
    """Parse the YAML file ``path``; mappings come back as :class:`LineDict`.

    Raises:
        InputError: unreadable file (see ``skillbench._io``) or bad YAML, naming the line.
    """
    return parse_yaml(read_text(path).text, os.fspath(path), lines=True)


def as_json(value: Any) -> JsonValue:
    """YAML data as JSON data, so it can be written back: timestamps become ISO 8601 text and
    mapping keys text. Raises ``ValueError`` for what JSON cannot hold (binary, sets)."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, Mapping):
        return {str(k): as_json(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [as_json(v) for v in value]
    raise ValueError(f"a YAML {type(value).__name__} has no JSON form")
