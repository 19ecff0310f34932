"""Bounds on untrusted input, checked before anything else reads it.

Scenario files, engine logs, saved cases, queries and the replies of engines under test are
written by other people's programs. A parser left to itself will expand a 700-byte YAML alias
bomb into a billion nodes, recurse until Python's stack gives out on ``[[[[...]]]]``, convert
a 100,000-digit integer, or block forever opening a FIFO. Every reader of such input goes
through this module first, so that a hostile or broken file is one clear input error (exit
code 2, with the line where the limit was crossed) and never a hang, a crash or a verdict.

The limits are far above anything a real scenario, trace or query needs:

* ``MAX_DEPTH``: nesting of mappings and lists (a scenario is about 6 deep, a trace 8);
* ``MAX_INT``: integers fit in a signed 64-bit word (life, damage and counters are small);
* ``MAX_YAML_NODES``: nodes of a YAML document *after* expanding aliases;
* ``MAX_SCENARIO_BYTES`` / ``MAX_TRACE_BYTES``: the size of one file.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_DEPTH = 64
MAX_INT = 2**63 - 1
MAX_INT_DIGITS = len(str(MAX_INT))
MAX_YAML_NODES = 100_000
MAX_SCENARIO_BYTES = 1 << 20
MAX_TRACE_BYTES = 64 << 20

# The tags a YAML file may write explicitly: the core schema's own, which change nothing
# about what a value means to us. Anything else (``!!binary``, ``!!set``, ``!!omap``,
# ``!custom``) would become a junk string or a Python object, so it is refused.
_YAML_CORE = "tag:yaml.org,2002:"
ALLOWED_YAML_TAGS = frozenset(
    _YAML_CORE + t for t in ("str", "int", "float", "bool", "null", "seq", "map")
)
# A plain YAML scalar that an int constructor would read (decimal, 0x, 0o, 0b, with _).
_LONGEST_INT_TEXT = 200
_YAML_INT = re.compile(r"[-+]?(?:[0-9][0-9_]*|0x[0-9a-fA-F_]+|0o[0-7_]+|0b[01_]+)")


class InputRejected(ValueError):
    """Input that crosses a limit or cannot be read safely. ``line``/``col`` are 1-based
    (``None`` when the problem is the file as a whole)."""

    def __init__(self, message: str, line: int | None = None, col: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


def int_in_range(n: int) -> bool:
    return -MAX_INT - 1 <= n <= MAX_INT


def too_large(n: int) -> str:
    """The message for an integer outside ``int_in_range``."""
    if n.bit_length() < 10_000:  # Python refuses to print integers of over 4,300 digits
        return too_large_text(str(n))
    return too_large_text("9" * (n.bit_length() * 30103 // 100_000))  # about that many digits


def too_large_text(digits: str) -> str:
    """The message for an integer written ``digits`` (never printing thousands of digits)."""
    count = len(digits.lstrip("-+"))
    shown = f"the integer {digits}" if count <= 40 else f"a {count}-digit integer"
    return f"{shown} is too large (at most {MAX_INT})"


# --- files ----------------------------------------------------------------------------------


def read_text(path: Path, max_bytes: int) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes`` bytes.

    FIFOs, devices and sockets are refused before they are opened (opening a FIFO blocks until
    someone writes to it; ``/dev/zero`` never ends). ``OSError`` and ``UnicodeDecodeError``
    propagate for the caller to word.
    """
    info = path.stat()
    if stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
    if not stat.S_ISREG(info.st_mode):
        raise InputRejected("not a regular file (a FIFO, device or socket is not read)")
    if info.st_size > max_bytes:
        raise InputRejected(f"the file is {_size(info.st_size)}; at most {_size(max_bytes)}")
    with path.open("rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:  # it grew while we looked
        raise InputRejected(f"the file is over {_size(max_bytes)}")
    return data.decode("utf-8")


def _size(n: int) -> str:
    for unit, scale in (("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def regular_files(root: Path) -> Iterator[Path]:
    """Every regular file under the directory ``root``, sorted per directory.

    Symbolic links to directories are not followed (no loops, no walking out of ``root``);
    FIFOs, devices and sockets are skipped.
    """
    stack = [root]
    while stack:
        folder = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError:
            continue
        subdirs = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    subdirs.append(Path(entry.path))
                elif entry.is_file():  # follows a link to a file, as a user would expect
                    yield Path(entry.path)
            except OSError:
                continue
        stack.extend(reversed(subdirs))


# --- JSON -----------------------------------------------------------------------------------


def _json_constant(name: str) -> Any:
    raise _Constant(name)


class _Constant(Exception):
    pass


_DECODER = json.JSONDecoder(parse_constant=_json_constant)  # built once: loads(**kw) would not
_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_LEAF = re.compile(r"\[\]|\{\}")
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")
_LONG_RUN = "0" * MAX_INT_DIGITS  # an integer out of range has at least this many digits


def load_json(text: str) -> Any:
    """``json.loads`` within the limits: integers in range, no NaN/Infinity, bounded depth.

    Raises ``json.JSONDecodeError`` for a syntax error (as ``json.loads`` does) and
    ``InputRejected`` for a limit, with the line and column where it is crossed. The checks
    run on the text at C speed (regular expressions); the decoded value is walked only when
    the text leaves a doubt.
    """
    try:
        value = _DECODER.decode(text)
    except _Constant as exc:
        line, col = _position(text, text.find(str(exc)))
        raise InputRejected(f"{exc} is not a JSON number", line, col) from None
    except RecursionError:
        raise _too_deep(text) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # an integer of more digits than Python converts (4,300)
        digits = max(re.findall(r"\d+", text), key=len)
        line, col = _position(text, _first_number(text, digits))
        raise InputRejected(too_large_text(digits), line, col) from None
    # Both checks look at the raw text first: a number out of range needs a run of 19 digits;
    # nesting past 64 needs 65 opening brackets, and 64 passes that each remove the innermost
    # brackets leave nothing of a text nested 64 deep or less. Brackets or digits inside strings can only make these checks say "maybe";
    # the decoded value is then walked to be sure.
    if _LONG_RUN in text.translate(_DIGITS_AS_ZERO):
        for n in _integers(value):
            if not int_in_range(n):
                line, col = _position(text, _first_number(text, str(n)))
                raise InputRejected(too_large(n), line, col)
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return value
    brackets = _NOT_BRACKET.sub("", text)
    for _ in range(MAX_DEPTH):
        if not brackets:
            return value
        brackets = _LEAF.sub("", brackets)
    if brackets and _depth_over(value):
        raise _too_deep(text)
    return value


def _depth_over(value: Any) -> bool:
    """Whether a decoded JSON value nests more than ``MAX_DEPTH`` containers (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, depth = stack.pop()
        children = v.values() if isinstance(v, dict) else v if isinstance(v, list) else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((c, depth + 1) for c in children if isinstance(c, dict | list))
    return False


def _too_deep(text: str) -> InputRejected:
    line, col = _position(text, _deep_offset(text))
    return InputRejected(f"nested more than {MAX_DEPTH} levels deep", line, col)


def _integers(value: Any) -> Iterator[int]:
    """Every integer in a decoded JSON value (iterative)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, int) and not isinstance(v, bool):
            yield v


def _deep_offset(text: str) -> int:
    """Offset of the first bracket that opens level ``MAX_DEPTH + 1`` (strings skipped)."""
    depth = 0
    pos = 0
    for m in re.finditer(r'"|[\[\]{}]', text):
        if m.start() < pos:
            continue
        if m.group() == '"':
            s = _JSON_STRING.match(text, m.start())
            pos = s.end() if s else len(text)
            continue
        depth += 1 if m.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return m.start()
    return 0


def _first_number(text: str, digits: str) -> int:
    m = re.search(rf"(?<![\w.\"]){re.escape(digits)}(?![\w.])", text)
    return m.start() if m else 0


def _position(text: str, offset: int) -> tuple[int, int]:
    offset = max(0, offset)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


# --- YAML -----------------------------------------------------------------------------------


class YamlLimits:
    """The limits, checked on a YAML (or JSON) event stream one event at a time.

    Refuses nesting deeper than ``MAX_DEPTH``, more than ``max_nodes`` nodes once aliases are
    expanded (each alias counts the whole node it stands for: the billion-laughs file),
    explicit tags outside the core schema, and integers too long to convert cheaply. It sees
    each event as the composer takes it (``bounded_yaml``), so the first problem stops the
    parse: a hostile file costs little.
    """

    def __init__(self, max_nodes: int = MAX_YAML_NODES) -> None:
        self.max_nodes = max_nodes
        self.sizes: dict[str, int] = {}  # anchor -> expanded node count
        self.open: list[tuple[str | None, int]] = []  # open collections: (anchor, count before)
        self.expanded = 0  # nodes so far, each alias counted as the whole node it stands for
        self.line: int | None = None  # of the last event seen, to locate a later error

    def see(self, ev: Any) -> None:
        from ruamel.yaml.events import (
            AliasEvent,
            CollectionEndEvent,
            CollectionStartEvent,
            NodeEvent,
            ScalarEvent,
        )

        line = ev.start_mark.line + 1 if ev.start_mark is not None else None
        self.line = line
        if isinstance(ev, NodeEvent) and not isinstance(ev, AliasEvent):
            tag = getattr(ev, "tag", None)
            if tag is not None and str(tag) not in ALLOWED_YAML_TAGS:
                shown = str(tag).replace(_YAML_CORE, "!!")
                raise InputRejected(
                    f"the YAML tag {shown} is not allowed (write plain values: text, "
                    "numbers, true/false, lists and mappings)",
                    line,
                )
        if isinstance(ev, CollectionStartEvent):
            if len(self.open) >= MAX_DEPTH:
                raise InputRejected(f"nested more than {MAX_DEPTH} levels deep", line)
            self.open.append((ev.anchor, self.expanded))
            self.expanded += 1
        elif isinstance(ev, CollectionEndEvent):
            anchor, before = self.open.pop()
            if anchor is not None:
                self.sizes[anchor] = self.expanded - before
        elif isinstance(ev, AliasEvent):
            self.expanded += self.sizes.get(ev.anchor, 1)  # of an open node: ruamel refuses
        elif isinstance(ev, ScalarEvent):
            self.expanded += 1
            if ev.anchor is not None:
                self.sizes[ev.anchor] = 1
            # Only the cost of converting is bounded here; the range is the reader's check
            # (``int_in_range``), where the field is known.
            if (
                ev.style is None
                and len(ev.value) > _LONGEST_INT_TEXT
                and _YAML_INT.fullmatch(ev.value)
            ):
                raise InputRejected(too_large_text(ev.value), line)
        if self.expanded > self.max_nodes:
            raise InputRejected(
                f"more than {self.max_nodes} values (an alias counts every value of the node "
                "it repeats)",
                line,
            )


def bounded_yaml(max_nodes: int = MAX_YAML_NODES) -> tuple[Any, YamlLimits]:
    """A round-trip ``ruamel.yaml.YAML`` whose parser checks ``YamlLimits`` on every event
    the composer takes (the file is parsed once, and refused at the first limit crossed), and
    those limits (``line`` locates an error ruamel raises without a position)."""
    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    limits = YamlLimits(max_nodes)
    base: Any = yaml.Parser

    class BoundedParser(base):  # type: ignore[misc]
        def get_event(self) -> Any:
            event = super().get_event()
            if event is not None:
                limits.see(event)
            return event

    yaml.Parser = BoundedParser
    return yaml, limits
