"""Every data key the engine emits is a key of its event kind's shape (``EVENT_SHAPES``).

A scenario's event expectation may name only keys of the shape (a misspelt key would match
nothing, which under ``no-events`` passes in silence), so a key the engine emits but the shape
lacks is one no scenario can pin: its value could change and no check would see it. Read from
the engine's source, every ``w.emit(EventKind.X, ..., key=...)`` and ``w.trigger(...)`` call.
"""

from __future__ import annotations

import ast
from pathlib import Path

import regen_model.engine
from regen_model.model.events import EVENT_SHAPES, EventKind

ENGINE = Path(regen_model.engine.__file__).parent


def _emitted_keys() -> dict[tuple[EventKind, str], list[str]]:
    found: dict[tuple[EventKind, str], list[str]] = {}
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            if node.func.attr == "emit" and node.args and isinstance(node.args[0], ast.Attribute):
                kind = EventKind[node.args[0].attr]
            elif node.func.attr == "trigger":
                kind = EventKind.TRIGGERED
            else:
                continue
            for kw in node.keywords:
                if kw.arg is not None:
                    found.setdefault((kind, kw.arg), []).append(f"{path.name}:{node.lineno}")
    return found


def test_the_reader_sees_the_engines_emits() -> None:
    keys = _emitted_keys()
    assert (EventKind.NOTE, "summoning_sick") in keys
    assert (EventKind.TRIGGERED, "life") in keys


def test_every_emitted_key_is_in_its_kinds_shape() -> None:
    missing = {
        f"{kind.value}.{key}": where
        for (kind, key), where in _emitted_keys().items()
        if key not in EVENT_SHAPES[kind].data
    }
    assert not missing, f"keys the engine emits that EVENT_SHAPES lacks: {missing}"
