"""Writing JSON that people can read and diff: small values on one line, big ones broken up.

``json.dumps(indent=...)`` puts every scalar on its own line, which turns a 20-step trace into
thousands of lines; no indentation makes one unreadable line. ``dumps`` keeps any value whose
compact form fits in ``width`` characters, and any object of scalars (a card's fields), on one
line and breaks the others.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def dumps(value: Any, width: int = 100) -> str:
    return _fmt(value, 0, width) + "\n"


def _fmt(value: Any, indent: int, width: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if len(flat) + indent <= width or not isinstance(value, dict | list) or _flat_record(value):
        return flat
    pad = " " * (indent + 1)
    if isinstance(value, dict):
        items = [
            f"{pad}{json.dumps(k, ensure_ascii=False)}: {_fmt(v, indent + 1, width).lstrip()}"
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"
    items = [pad + _fmt(v, indent + 1, width).lstrip() for v in value]
    return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"


def _flat_record(value: dict[str, Any] | list[Any]) -> bool:
    """An object of scalars (a card's fields), or an ITF ``#map`` entry holding one, reads
    best on one line, however long."""
    if isinstance(value, dict):
        return all(not isinstance(v, dict | list) for v in value.values())
    return len(value) == 2 and isinstance(value[0], str) and _scalar_or_flat(value[1])


def _scalar_or_flat(value: Any) -> bool:
    return not isinstance(value, dict | list) or (isinstance(value, dict) and _flat_record(value))


def write(path: Path, value: Any) -> None:
    """Write ``value`` to ``path`` (parent directories are created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(value), encoding="utf-8")
