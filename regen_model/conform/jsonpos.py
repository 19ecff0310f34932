"""Reading JSON files so that every error names the file, the line and the field.

Engine logs and conformance files are written by other people's programs, so the first thing a
user sees is often an error about their file. ``json.loads`` is fast but forgets where values
came from; a position-tracking parser is slow. We do both: parse with ``json`` and wrap values
in ``Node``s that remember their path; only when an error is raised is the text read again by
ruamel.yaml's parser (JSON is YAML, and the scenario loader reads its files with it), whose
events carry line and column, to turn the path into a position (``locate``).

``Node`` also understands the value encodings of the Informal Trace Format (ITF) of Apalache and
Quint (``#bigint``, ``#tup``, ``#set``, ``#map``; ``#unserializable``, a value its writer could
not write, reads as absent), so readers can accept ITF-encoded and plain JSON values alike.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    CollectionEndEvent,
    CollectionStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    NodeEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
)

from regen_model.limits import (
    MAX_INT_DIGITS,
    MAX_TRACE_BYTES,
    InputRejected,
    int_in_range,
    load_json,
    read_text,
    too_large_text,
)

PathKey = str | int
_BIGINT = re.compile(r"-?[0-9]+")


class FormatError(Exception):
    """A file that cannot be read: ``file:line:col: field: message`` (exit code 2)."""

    def __init__(self, file: str, line: int, col: int, field: str, message: str) -> None:
        super().__init__(f"{file}:{line}:{col}: {field}: {message}")
        self.file = file
        self.line = line
        self.col = col
        self.field = field
        self.message = message

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "col": self.col,
            "field": self.field,
            "message": self.message,
        }


class FieldError(Exception):
    """A value at ``node`` is wrong; turned into a ``FormatError`` with a line by the reader."""

    def __init__(self, node: Node, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message

    def located(self) -> FormatError:
        return self.node.doc.format_error(self.node, self.message)


@dataclass(eq=False)
class Doc:
    """The text a tree of ``Node``s came from (``None`` for values built in memory).

    ``origins`` is filled when the tree was rewritten before reading (a trace in another
    vocabulary, ``conform/itf_map.py``): it maps a path of the rewritten tree to the path and
    label of the value it came from in the file, so that errors still name the file's line
    and the file's field.
    """

    file: str
    text: str | None
    origins: dict[tuple[PathKey, ...], Origin] = field(default_factory=dict)

    def format_error(self, node: Node, message: str) -> FormatError:
        path, label = self.in_file(node.path, node.label)
        line, col = locate(self.text, path) if self.text is not None else (0, 0)
        return FormatError(self.file, line, col, label or "(top level)", message)

    def in_file(self, path: tuple[PathKey, ...], label: str) -> tuple[tuple[PathKey, ...], str]:
        """The path and label in the file of the value at ``path`` of the (rewritten) tree."""
        for n in range(len(path), 0, -1):
            origin = self.origins.get(path[:n])
            if origin is not None:
                rest = label.removeprefix(origin.label) if origin.label else label
                return (*origin.file_path, *path[n:]), origin.file_label + rest
        return path, label


@dataclass(frozen=True)
class Origin:
    """Where a value of a rewritten tree came from: its path and label in the file, and its
    own label in the rewritten tree (the part of a deeper label to replace)."""

    file_path: tuple[PathKey, ...]
    file_label: str
    label: str


class Node:
    """A JSON value with its path, for reading with precise errors.

    ``path`` is the raw path in the file (for ``locate``); ``label`` is the field name a user
    would say ("states[2].cards.troll.tapped"), which differs from the raw path inside ITF
    ``#map`` encodings.
    """

    __slots__ = ("doc", "label", "path", "value")

    def __init__(self, value: Any, path: tuple[PathKey, ...], label: str, doc: Doc) -> None:
        self.value = value
        self.path = path
        self.label = label
        self.doc = doc

    # --- navigation --------------------------------------------------------------------------

    def _child(self, key: PathKey, value: Any, label_key: str | None = None) -> Node:
        shown = label_key if label_key is not None else key
        if isinstance(shown, int):
            label = f"{self.label}[{shown}]"
        else:
            label = f"{self.label}.{shown}" if self.label else shown
        return Node(value, (*self.path, key), label, self.doc)

    def error(self, message: str) -> FieldError:
        return FieldError(self, message)

    def is_null(self) -> bool:
        return self.value is None

    def has(self, key: str) -> bool:
        return isinstance(self.value, dict) and key in self.value

    def get(self, key: str) -> Node | None:
        """The member ``key`` of an object, or ``None`` when absent, null, or an ITF
        ``#unserializable`` (a value its writer could not write: not observed)."""
        obj = self.obj_raw()
        if key not in obj or obj[key] is None or _unserializable(obj[key]):
            return None
        return self._child(key, obj[key])

    def req(self, key: str) -> Node:
        """The member ``key``; its absence is an error naming this object."""
        node = self.get(key)
        if node is None:
            raise self.error(f"missing required field {key!r}")
        return node

    def obj_raw(self) -> dict[str, Any]:
        if not isinstance(self.value, dict):
            raise self.error(f"expected an object, found {_kind(self.value)}")
        return self.value

    def keys(self) -> list[str]:
        return list(self.obj_raw())

    def check_keys(self, allowed: set[str] | frozenset[str], what: str) -> None:
        """Reject unknown members: a misspelt field must not silently become 'unobserved'."""
        for key in self.obj_raw():
            if key not in allowed and not key.startswith("#"):
                child = self._child(key, self.value[key])
                raise child.error(
                    f"unknown field {key!r} in {what} (known: {', '.join(sorted(allowed))})"
                )

    def items(self) -> Iterator[tuple[str, Node]]:
        """Members of an object, or entries of an ITF ``#map`` with string keys."""
        if isinstance(self.value, dict) and "#map" in self.value:
            pairs = self._child("#map", self.value["#map"])
            for i, pair in enumerate(pairs.list_raw()):
                entry = pairs._child(i, pair)
                if not isinstance(pair, list) or len(pair) != 2:
                    raise entry.error("a #map entry is a [key, value] pair")
                key = Node(pair[0], (*entry.path, 0), entry.label, self.doc).string()
                label = f"{self.label}.{key}" if self.label else key
                if not _unserializable(pair[1]):
                    yield key, Node(pair[1], (*entry.path, 1), label, self.doc)
            return
        for key, value in self.obj_raw().items():
            if key.startswith("#") or _unserializable(value):
                continue
            yield key, self._child(key, value)

    def list_raw(self) -> list[Any]:
        if not isinstance(self.value, list):
            raise self.error(f"expected a list, found {_kind(self.value)}")
        return self.value

    def elements(self) -> list[Node]:
        """Elements of a list, or of an ITF ``#tup`` / ``#set``."""
        if isinstance(self.value, dict):
            for tag in ("#tup", "#set"):
                if tag in self.value:
                    inner = self._child(tag, self.value[tag])
                    return [inner._child(i, v, str(i)) for i, v in enumerate(inner.list_raw())]
        return [self._child(i, v) for i, v in enumerate(self.list_raw())]

    # --- scalars -----------------------------------------------------------------------------

    def string(self) -> str:
        if not isinstance(self.value, str):
            raise self.error(f"expected a string, found {_kind(self.value)}")
        return self.value

    def integer(self) -> int:
        """An integer: a JSON number or an ITF ``{"#bigint": "123"}``."""
        v = self.value
        if isinstance(v, dict) and "#bigint" in v:
            text = v["#bigint"]
            if not isinstance(text, str) or not _BIGINT.fullmatch(text):
                raise self.error(f"bad #bigint {text!r} (a string of decimal digits)")
            if len(text.lstrip("-")) > MAX_INT_DIGITS or not int_in_range(int(text)):
                raise self.error(too_large_text(text))
            return int(text)
        if isinstance(v, bool) or not isinstance(v, int):
            raise self.error(f"expected an integer, found {_kind(v)}")
        return v

    def boolean(self) -> bool:
        if not isinstance(self.value, bool):
            raise self.error(f"expected true or false, found {_kind(self.value)}")
        return self.value

    def choice(self, allowed: tuple[str, ...] | list[str]) -> str:
        text = self.string()
        if text not in allowed:
            raise self.error(f"{text!r} is not one of {', '.join(allowed)}")
        return text


def _unserializable(value: Any) -> bool:
    return isinstance(value, dict) and "#unserializable" in value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int | float):
        return f"number {value}"
    if isinstance(value, str):
        return f"string {value!r}"
    if isinstance(value, list):
        return "a list"
    return "an object"


def parse_text(text: str, file: str) -> Node:
    """Parse JSON text within ``regen_model.limits``; a syntax error or a limit crossed
    becomes a ``FormatError`` at its line."""
    try:
        value = load_json(text)
    except json.JSONDecodeError as exc:
        raise FormatError(file, exc.lineno, exc.colno, "(syntax)", exc.msg) from None
    except InputRejected as exc:
        raise FormatError(file, exc.line or 0, exc.col or 0, "(limits)", exc.message) from None
    return Node(value, (), "", Doc(file, text))


def read_file(path: Path) -> Node:
    try:
        text = read_text(path, MAX_TRACE_BYTES)
    except InputRejected as exc:
        raise FormatError(str(path), 0, 0, "(file)", exc.message) from None
    except OSError as exc:
        raise FormatError(str(path), 0, 0, "(file)", exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise FormatError(str(path), 0, 0, "(file)", f"not UTF-8 text: {exc}") from None
    return parse_text(text, str(path))


def in_memory(value: Any, name: str = "<memory>") -> Node:
    """Wrap an already-decoded value (e.g. a JSON-lines message) for reading."""
    return Node(value, (), "", Doc(name, None))


# --- locating a path in the text ---------------------------------------------------------------


def locate(text: str, path: tuple[PathKey, ...]) -> tuple[int, int]:
    """Line and column (from 1) where the value at ``path`` starts; the deepest existing
    ancestor's position when the path does not exist (e.g. a missing field).

    JSON is YAML (1.2), so ruamel.yaml's parser reads the text and marks every value with its
    position, as it does for the scenario loader. Only the parser's event stream is walked
    (libyaml's C parser where ``ruamel.yaml.clib`` is installed, as the package requires on
    CPython), and only up to the wanted value: an error near the top of a large log is
    located without reading the rest. Only run on errors; ``(0, 0)`` if the text cannot be
    walked.
    """
    walk = _Walk(path)
    try:
        walk.document(iter(YAML(typ="safe").parse(text)))
    except _Found:
        pass
    except (YAMLError, StopIteration):  # valid JSON, so only on odd input
        pass
    return (0, 0) if walk.best is None else walk.best


class _Found(Exception):
    """The wanted value (or its deepest existing ancestor) has been reached."""


class _Walk:
    """Follows ``path`` through the parser's events, remembering the last position on it."""

    def __init__(self, path: tuple[PathKey, ...]) -> None:
        self.path = path
        self.best: tuple[int, int] | None = None

    def document(self, events: Iterator[Event]) -> None:
        for event in events:
            if isinstance(event, NodeEvent):
                self.value(event, events, 0)

    def value(self, event: Event, events: Iterator[Event], depth: int) -> None:
        """Read the value that ``event`` starts, whose path is ``self.path[:depth]``."""
        mark = event.start_mark
        self.best = (mark.line + 1, mark.column + 1)
        if depth == len(self.path):
            raise _Found
        want = self.path[depth]
        if isinstance(event, MappingStartEvent):
            while not isinstance(key := next(events), MappingEndEvent):
                child = next(events)
                if isinstance(key, ScalarEvent) and key.value == want:
                    self.value(child, events, depth + 1)
                _skip(child, events)
            raise _Found  # the wanted member is not there: this object is the closest
        if isinstance(event, SequenceStartEvent):
            index = 0
            while not isinstance(child := next(events), SequenceEndEvent):
                if index == want:
                    self.value(child, events, depth + 1)
                _skip(child, events)
                index += 1
            raise _Found
        raise _Found  # a scalar where the path goes on


def _skip(event: Event, events: Iterator[Event]) -> None:
    """Consume the rest of the value ``event`` starts."""
    if not isinstance(event, CollectionStartEvent):
        return
    depth = 1
    for e in events:
        if isinstance(e, CollectionStartEvent):
            depth += 1
        elif isinstance(e, CollectionEndEvent):
            depth -= 1
            if depth == 0:
                return
