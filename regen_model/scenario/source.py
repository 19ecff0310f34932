"""Reading a scenario file while remembering where every value came from.

YAML and JSON files are both read with ruamel.yaml's round-trip loader (JSON is valid YAML
here), because its nodes remember their line numbers: every later error, from a schema
violation to an engine error three turns into the run, can then name the exact line. JSON files
are first parsed with the standard ``json`` module so that invalid JSON is reported as JSON, not
as an odd YAML message.

``plain`` turns the ruamel tree into ordinary dicts, lists and scalars for jsonschema and the
parsers; the tree itself is kept only for line lookups.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml.error import MarkedYAMLError, YAMLError
from ruamel.yaml.reader import ReaderError

from regen_model.limits import (
    MAX_SCENARIO_BYTES,
    InputRejected,
    bounded_yaml,
    int_in_range,
    load_json,
    read_text,
    too_large,
)
from regen_model.scenario.errors import ScenarioError

FieldPath = tuple[str | int, ...]
JSON_SUFFIXES = (".json",)


def field_name(path: FieldPath) -> str:
    """``("events", 3, "create-shield", "target")`` -> ``events[3].create-shield.target``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


@dataclass(frozen=True, eq=False)
class Source:
    """A loaded file: its name as given, the ruamel tree (for lines) and the plain data."""

    file: str
    tree: Any
    data: Any

    def line(self, path: FieldPath) -> int:
        """The 1-based line of the value at ``path``, or of its nearest existing ancestor."""
        return line_at(self.tree, path)

    def error(self, path: FieldPath, message: str) -> ScenarioError:
        return ScenarioError(self.file, self.line(path), field_name(path) or None, message)


def line_at(tree: Any, path: FieldPath) -> int:
    """The 1-based line of the value at ``path`` in a ruamel tree (or of its nearest existing
    ancestor)."""
    node = tree
    line = _node_line(node) or 1
    for part in path:
        key_line = _child_line(node, part)
        if key_line is None:
            return line
        line = key_line
        node = node[part]
    return line


def _node_line(node: Any) -> int | None:
    lc = getattr(node, "lc", None)
    if lc is None or lc.line is None:
        return None
    return int(lc.line) + 1


def _child_line(node: Any, part: str | int) -> int | None:
    """Line of ``node[part]``: a mapping's key line, or a sequence item's line."""
    lc = getattr(node, "lc", None)
    try:
        if isinstance(part, int):
            if not isinstance(node, Sequence) or isinstance(node, str) or part >= len(node):
                return None
            return int(lc.item(part)[0]) + 1 if lc is not None else None
        if not isinstance(node, Mapping) or part not in node:
            return None
        return int(lc.key(part)[0]) + 1 if lc is not None else None
    except (KeyError, IndexError, TypeError, AttributeError):
        return None


def read_source(path: Path, shown_as: str | None = None) -> Source:
    """Read ``path`` (YAML, or JSON by suffix); raise ``ScenarioError`` for any problem.

    The limits of ``regen_model.limits`` (file size, nesting, aliases, tags, integers) are
    checked before the text is composed into a tree, so a hostile file is refused quickly.
    """
    file = shown_as if shown_as is not None else str(path)
    try:
        text = read_text(path, MAX_SCENARIO_BYTES)
    except FileNotFoundError:
        raise ScenarioError(file, None, None, "no such file") from None
    except IsADirectoryError:
        raise ScenarioError(file, None, None, "is a directory, not a scenario file") from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(file, None, None, f"not UTF-8 text ({exc.reason})") from None
    except InputRejected as exc:
        raise ScenarioError(file, exc.line, None, exc.message) from None
    except OSError as exc:
        raise ScenarioError(file, None, None, f"cannot be read ({exc.strerror})") from None
    return parse_source(text, file, json_text=path.suffix.lower() in JSON_SUFFIXES)


def parse_source(text: str, file: str, *, json_text: bool = False) -> Source:
    """A scenario's text (YAML, or JSON when ``json_text``) as a ``Source``."""
    kind = "JSON" if json_text else "YAML"
    try:
        if json_text:
            load_json(text)
        tree = _parse_yaml(file, text, kind)
    except json.JSONDecodeError as exc:
        raise ScenarioError(file, exc.lineno, None, f"broken JSON: {exc.msg}") from None
    except InputRejected as exc:
        raise ScenarioError(file, exc.line, None, exc.message) from None
    if tree is None:
        raise ScenarioError(file, 1, None, "the file is empty")
    if not isinstance(tree, Mapping):
        raise ScenarioError(file, _node_line(tree) or 1, None, "a scenario is a mapping of fields")
    data = _plain(file, tree, tree, ())
    return Source(file=file, tree=tree, data=data)


def _parse_yaml(file: str, text: str, kind: str) -> Any:
    yaml, limits = bounded_yaml()
    try:
        return yaml.load(text)
    except TypeError:  # ruamel hashes a key that is itself a mapping inside a mapping
        raise ScenarioError(
            file, limits.line, None, f"broken {kind}: keys must be text, not lists or mappings"
        ) from None
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark is not None else None
        problem = exc.problem or exc.context or "cannot be parsed"
        if exc.context and exc.problem:
            context = exc.context
            start = exc.context_mark
            if start is not None and start.line + 1 != line:
                context += f" that starts on line {start.line + 1}"
            problem = f"{exc.problem} ({context})"
        problem = " ".join(problem.split())  # one line, even when it quotes a long value
        if len(problem) > 300:
            problem = problem[:297] + "..."
        raise ScenarioError(file, line, None, f"broken {kind}: {problem}") from None
    except ReaderError as exc:  # a character YAML does not allow, e.g. a control character
        line = text.count("\n", 0, exc.position) + 1
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1])
        raise ScenarioError(
            file, line, None, f"broken {kind}: the character U+{code:04X} is not allowed"
        ) from None
    except YAMLError as exc:
        raise ScenarioError(
            file, None, None, f"broken {kind}: {' '.join(str(exc).split())}"
        ) from None
    except InputRejected as exc:
        raise ScenarioError(file, exc.line, None, exc.message) from None
    except (RecursionError, ValueError) as exc:  # past the limits all the same: never a crash
        raise ScenarioError(file, None, None, f"broken {kind}: cannot be read ({exc})") from None


def _plain(file: str, root: Any, node: Any, path: FieldPath) -> Any:
    """A copy of the ruamel tree made of dict/list/str/int/float/bool/None only."""
    if isinstance(node, Mapping):
        out: dict[str, Any] = {}
        for key, value in node.items():
            if not isinstance(key, str):
                line = _child_line(node, key) or _node_line(node)
                raise ScenarioError(
                    file,
                    line,
                    field_name(path) or None,
                    f"keys must be text, got {key!r} (quote it)",
                )
            out[str(key)] = _plain(file, root, value, (*path, str(key)))
        return out
    if isinstance(node, list | tuple):
        return [_plain(file, root, v, (*path, i)) for i, v in enumerate(node)]
    if isinstance(node, bool) or node is None:
        return node
    if isinstance(node, int):
        if not int_in_range(node):
            raise ScenarioError(
                file, line_at(root, path), field_name(path) or None, too_large(int(node))
            )
        return int(node)
    if isinstance(node, float):
        return float(node)
    if isinstance(node, str):
        return str(node)
    if isinstance(node, datetime.date | datetime.datetime):
        return node.isoformat()
    return str(node)
