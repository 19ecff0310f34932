"""Fuzz inputs: mutations of real seeds, each labelled with what a correct reader must do.

Four formats, one generator each (``GENERATORS``), driven by a ``random.Random`` so that the
same seed gives the same inputs (hypothesis draws the seeds in the tests; the benchmark counts
them up):

* ``scenario``: the shipped examples and the scenario tree, as YAML and as JSON;
* ``trace``: ITF traces of those scenarios' runs (what ``check-trace`` reads);
* ``query``: the example ``find`` queries and queries drawn from the grammar;
* ``jsonl``: the replies of a JSON-lines engine, one of them replaced.

A mutation is either *known bad* (``must_reject``: a misspelt key, a name that refers to
nothing, an integer past 64 bits, a YAML tag, nesting past the limit, an alias bomb, an Aura
on an Aura, a truncated or non-UTF-8 file...; a reader that accepts it is a silent accept) or
*random* (bytes, lines or values changed at random; any verdict or input error is fine, a
crash or a hang never is).
"""

from __future__ import annotations

import base64
import copy
import json
import random
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from regen_model.invariants.query import EXAMPLES
from regen_model.model.events import EVENT_SHAPES, EventKind, Subject

ROOT = Path(__file__).resolve().parents[2]
SCENARIO_DIRS = (ROOT / "regen_model" / "examples", ROOT / "tests" / "scenarios")
MAX_INT = 2**63 - 1

JsonPath = tuple[str | int, ...]


class Format(StrEnum):
    SCENARIO = "scenario"
    TRACE = "trace"
    QUERY = "query"
    JSONL = "jsonl"


@dataclass(frozen=True)
class FuzzInput:
    """One input. ``data``: the file's bytes, the query's text, or an engine reply line;
    ``op``/``nth`` (jsonl): the reply to the ``nth`` request of that kind is ``data``."""

    fmt: Format
    mutation: str
    data: bytes
    suffix: str = ""
    must_reject: bool = False
    op: str = ""
    nth: int = 0

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", errors="replace")


# --- generic helpers -------------------------------------------------------------------------------


def typo(rng: random.Random, word: str, avoid: set[str] | frozenset[str]) -> str:
    """A misspelling of ``word`` that is not in ``avoid``."""
    letters = string.ascii_lowercase
    for _ in range(50):
        i = rng.randrange(len(word) + 1)
        edit = rng.randrange(4)
        if edit == 0:
            out = word[:i] + rng.choice(letters) + word[i:]
        elif edit == 1 and len(word) > 1:
            out = word[: max(0, i - 1)] + word[i:]
        elif edit == 2 and 0 < i < len(word):
            out = word[: i - 1] + word[i] + word[i - 1] + word[i + 1 :]
        else:
            out = word + rng.choice(letters)
        if out and out not in avoid and out != word:
            return out
    return word + "zz"


def random_scalar(rng: random.Random) -> Any:
    return rng.choice(
        [
            0,
            1,
            -1,
            2,
            20,
            True,
            False,
            None,
            "",
            "x",
            "troll",
            "A",
            "B",
            1.5,
            "battlefield",
            "graveyard",
            "Death Ward",
            "FDN",
            "main1",
            "ü" * 3,
            "\x00",
            "[/bold]",  # Rich markup: printed as text, never interpreted
            "[red]x[/red]",
        ]
    )


def random_value(rng: random.Random) -> Any:
    kind = rng.randrange(6)
    if kind == 0:
        return []
    if kind == 1:
        return {}
    if kind == 2:
        return [random_scalar(rng)]
    if kind == 3:
        return {rng.choice(["x", "troll", "zone", "tapped"]): random_scalar(rng)}
    return random_scalar(rng)


def node_paths(data: Any, path: JsonPath = ()) -> Iterator[JsonPath]:
    """Every path in a JSON-like value, the root first."""
    yield path
    if isinstance(data, dict):
        for k, v in data.items():
            yield from node_paths(v, (*path, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from node_paths(v, (*path, i))


def at(data: Any, path: JsonPath) -> Any:
    for p in path:
        data = data[p]
    return data


def put(data: Any, path: JsonPath, value: Any) -> Any:
    """A copy of ``data`` with the value at ``path`` replaced."""
    if not path:
        return value
    out = copy.deepcopy(data)
    at(out, path[:-1])[path[-1]] = value
    return out


def rename_key(data: Any, path: JsonPath, new: str) -> Any:
    """A copy with the last key of ``path`` renamed (its place in the mapping kept)."""
    out = copy.deepcopy(data)
    parent = at(out, path[:-1])
    items = [(new if k == path[-1] else k, v) for k, v in parent.items()]
    parent.clear()
    parent.update(items)
    return out


def nested(depth: int) -> Any:
    value: Any = 0
    for _ in range(depth):
        value = [value]
    return value


def edit_text(rng: random.Random, text: bytes) -> tuple[bytes, str]:
    """A random edit of bytes: characters, lines, truncation or bytes that are not UTF-8."""
    kind = rng.randrange(7)
    if kind == 0 and text:  # a few characters changed
        out = bytearray(text)
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(out))
            out[i : i + 1] = rng.choice(
                [b"", b" ", b":", b"-", b"[", b"{", b"}", b"'", b"\n", b"#"]
            )
        return bytes(out), "chars"
    lines = text.split(b"\n")
    if kind == 1 and len(lines) > 1:
        i = rng.randrange(len(lines))
        del lines[i]
        return b"\n".join(lines), "delete-line"
    if kind == 2 and len(lines) > 1:
        i = rng.randrange(len(lines))
        lines.insert(rng.randrange(len(lines)), lines[i])
        return b"\n".join(lines), "duplicate-line"
    if kind == 3 and len(lines) > 1:
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
        return b"\n".join(lines), "swap-lines"
    if kind == 4 and lines:
        i = rng.randrange(len(lines))
        lines[i] = b" " * rng.randint(1, 4) + lines[i]
        return b"\n".join(lines), "indent"
    if kind == 5 and text:
        i = rng.randrange(len(text))
        return text[:i] + bytes([rng.randrange(128, 256)]) + text[i:], "not-utf8"
    return text[: rng.randrange(len(text) + 1)], "truncate"


def alias_bomb(levels: int = 9) -> str:
    lines = ["bomb0: &b0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, levels):
        lines.append(f"bomb{i}: &b{i} [{', '.join([f'*b{i - 1}'] * 9)}]")
    return "\n".join(lines) + "\n"


def _pick(rng: random.Random, options: list[Any]) -> Any:
    return options[rng.randrange(len(options))] if options else None


# --- scenarios -------------------------------------------------------------------------------------


def _yaml_dump(data: Any) -> str:
    import io

    yaml = YAML(typ="safe")
    yaml.default_flow_style = False
    yaml.width = 200
    out = io.StringIO()
    yaml.dump(data, out)
    return out.getvalue()


@cache
def scenario_seeds() -> tuple[tuple[str, str, Any], ...]:
    """(file name, text, plain data) of every scenario file that loads."""
    out = []
    for folder in SCENARIO_DIRS:
        for path in sorted(folder.rglob("*")):
            if path.suffix not in (".yaml", ".yml", ".json") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            data = YAML(typ="safe").load(text)
            if isinstance(data, dict):
                out.append((path.name, text, data))
    return tuple(out)


@cache
def _schema_keys() -> dict[str, frozenset[str]]:
    from regen_model.scenario.schema import schema

    defs = schema()["$defs"]
    return {
        "top": frozenset(schema()["properties"]),
        "permanent": frozenset(defs["permanent"]["properties"]),
        "turn": frozenset(defs["turnSetup"]["properties"]),
    }


def _handles(data: dict[str, Any]) -> list[str]:
    perms = data.get("permanents")
    return list(perms) if isinstance(perms, dict) else []


def _players(data: dict[str, Any]) -> list[str]:
    return [p if isinstance(p, str) else p.get("name", "") for p in data.get("players", [])]


def _matchers(data: Any) -> list[JsonPath]:
    """Paths of the mapping-shaped event matchers under every ``events:``/``no-events:``."""
    found = []
    for path in node_paths(data):
        if (
            len(path) >= 2
            and path[-2] in ("events", "no-events")
            and isinstance(path[-1], int)
            and "expect" in path
            and isinstance(at(data, path), dict)
        ):
            found.append(path)
    return found


_KINDS = frozenset(k.value for k in EventKind)


def _scenario_bad(rng: random.Random, data: dict[str, Any]) -> tuple[Any, str] | None:
    """A known-bad change of a scenario's data, or ``None`` if the chosen one does not apply."""
    keys = _schema_keys()
    choice = rng.randrange(9)
    if choice == 0:
        key = rng.choice(list(data))
        return rename_key(data, (key,), typo(rng, key, keys["top"])), "typo:top-level-key"
    if choice == 1 and _handles(data):
        h = rng.choice(_handles(data))
        fields = list(data["permanents"][h]) if isinstance(data["permanents"][h], dict) else []
        if fields:
            key = rng.choice(fields)
            new = typo(rng, key, keys["permanent"])
            return rename_key(data, ("permanents", h, key), new), "typo:permanent-field"
    if choice == 2 and (ms := _matchers(data)):
        path = rng.choice(ms)
        m = at(data, path)
        kinds = [k for k in m if k in _KINDS]
        if len(kinds) == 1:
            shape = EVENT_SHAPES[EventKind(kinds[0])]
            allowed = {*shape.data, *(d.replace("_", "-") for d in shape.data)}
            word = typo(rng, rng.choice([*shape.data, "origin", "shield"]), allowed | _KINDS)
            word = word if word not in ("clause", "times") else word + "x"
            out = copy.deepcopy(data)
            at(out, path)[word] = rng.choice([None, 1, "x", True])
            return out, "matcher:unknown-key"
    if choice == 3 and (ms := _matchers(data)):
        path = rng.choice(ms)
        m = at(data, path)
        kinds = [k for k in m if k in _KINDS]
        if len(kinds) == 1 and EVENT_SHAPES[EventKind(kinds[0])].subject is Subject.CARD:
            names = {*_handles(data), *_players(data)}
            bad = typo(rng, str(m[kinds[0]] or "troll"), names)
            return put(data, (*path, kinds[0]), bad), "matcher:unknown-subject"
    if choice == 4:
        ints = [p for p in node_paths(data) if type(at(data, p)) is int]
        if ints:
            big = rng.choice([MAX_INT + 1, -MAX_INT - 2, 10**30, -(10**25)])
            return put(data, rng.choice(ints), big), "int:past-64-bits"
    if choice == 5:
        key = rng.choice(["players", "permanents", "events", "name", "description", "turn"])
        wrong = {
            "players": ["x", 5, {}, None],
            "permanents": [5, "x", [], None],
            "events": [5, "x", {}, None],
            "name": [5, [], {}, None, ""],
            "description": [5, [], None, ""],
            "turn": [5, "x", []],
        }[key]
        return {**data, key: rng.choice(wrong)}, f"type:{key}"
    if choice == 6 and _handles(data):
        h = rng.choice(_handles(data))
        perm = data["permanents"][h]
        if isinstance(perm, dict) and perm.get("controller", perm.get("owner")) is not None:
            field = "controller" if "controller" in perm else "owner"
            bad = typo(rng, str(perm[field]), {*_players(data), *_handles(data)})
            return put(data, ("permanents", h, field), bad), "name:unknown-player"
    if choice == 7:
        auras = [
            h
            for h, p in (data.get("permanents") or {}).items()
            if isinstance(p, dict)
            and p.get("card") in ("Holy Strength", "Eland Umbra", "Snake Umbra", "Bonesplitter")
        ]
        players = _players(data)
        if auras and players:
            out = copy.deepcopy(data)
            spec = {"card": "Holy Strength", "controller": players[0], "attached-to": auras[0]}
            out["permanents"]["zz-aura"] = spec
            return out, "attach:aura-on-aura"
    if choice == 8:  # the nesting is written into the text (a dumper would recurse)
        values = [p for p in node_paths(data) if p]
        return put(data, rng.choice(values), DEEP), "deep:value"
    return None


DEEP = "__deep_value__"


def _nested_text(rng: random.Random) -> str:
    depth = rng.choice([65, 200, 3000])
    return "[" * depth + "0" + "]" * depth


_TAGS = ["!!binary aGVsbG8=", "!!set {a, b}", "!custom x", "!!python/object:os.system x"]


def _scenario_bad_text(rng: random.Random, text: str) -> tuple[str, str] | None:
    """Known-bad changes made in the text (things a data structure cannot say)."""
    choice = rng.randrange(5)
    lines = text.splitlines()
    if choice == 0:
        plain = [i for i, line in enumerate(lines) if line.startswith(("name:", "description:"))]
        if plain:
            i = rng.choice(plain)
            key = lines[i].split(":")[0]
            lines[i] = f"{key}: {rng.choice(_TAGS)}"
            return "\n".join(lines) + "\n", "yaml:tag"
    if choice == 1:
        return text + alias_bomb(rng.choice([7, 9, 12])), "yaml:alias-bomb"
    if choice == 2:
        depth = rng.choice([65, 1000, 20000])
        return text + "deep: " + "[" * depth + "]" * depth + "\n", "yaml:deep-flow"
    if choice == 3 and "\nplayers:" in text:
        big = f"\nx: {'9' * rng.choice([30, 4300, 10000])}\nplayers:"
        return text.replace("\nplayers:", big, 1), "yaml:huge-integer"
    if choice == 4:
        top = [i for i, line in enumerate(lines) if line.startswith(("name:", "players:"))]
        if top:
            i = rng.choice(top)
            lines.insert(i + 1, lines[i])
            return "\n".join(lines) + "\n", "yaml:duplicate-key"
    return None


def scenario_input(rng: random.Random) -> FuzzInput:
    _, text, data = _pick(rng, list(scenario_seeds()))
    as_json = rng.random() < 0.25
    suffix = ".json" if as_json else ".yaml"

    def dump(d: Any) -> str:
        return json.dumps(d, indent=1) if as_json else _yaml_dump(d)

    roll = rng.random()
    if roll < 0.35:
        for _ in range(20):
            bad = _scenario_bad(rng, data)
            if bad is not None:
                body = dump(bad[0])
                if DEEP in body:
                    body = body.replace(f'"{DEEP}"', DEEP).replace(DEEP, _nested_text(rng))
                return FuzzInput(Format.SCENARIO, bad[1], body.encode(), suffix, must_reject=True)
    if roll < 0.5 and not as_json:
        for _ in range(20):
            bad_text = _scenario_bad_text(rng, text)
            if bad_text is not None:
                return FuzzInput(
                    Format.SCENARIO, bad_text[1], bad_text[0].encode(), ".yaml", must_reject=True
                )
    if roll < 0.75:
        source = (json.dumps(data, indent=1) if as_json else text).encode()
        edited, how = edit_text(rng, source)
        return FuzzInput(Format.SCENARIO, f"text:{how}", edited, suffix)
    paths = [p for p in node_paths(data) if p]
    path = rng.choice(paths)
    if rng.random() < 0.3 and isinstance(path[-1], str):
        out = copy.deepcopy(data)
        del at(out, path[:-1])[path[-1]]
        return FuzzInput(Format.SCENARIO, "value:delete", dump(out).encode(), suffix)
    return FuzzInput(
        Format.SCENARIO, "value:replace", dump(put(data, path, random_value(rng))).encode(), suffix
    )


# --- traces ----------------------------------------------------------------------------------------


@cache
def trace_seeds() -> tuple[dict[str, Any], ...]:
    """ITF traces of the shipped examples' runs, fully observed."""
    from regen_model.conform.case import to_trace
    from regen_model.conform.sources import scenario_cases

    cases, _ = scenario_cases([SCENARIO_DIRS[0]])
    return tuple(to_trace(c) for c in cases if c.actions)


def _card_records(data: dict[str, Any]) -> list[JsonPath]:
    out: list[JsonPath] = []
    for i, state in enumerate(data["states"]):
        for j, pair in enumerate(state.get("cards", {}).get("#map", [])):
            if isinstance(pair[1], dict) and pair[1]:
                out.append(("states", i, "cards", "#map", j, 1))
    return out


_CARD_FIELDS = frozenset(
    [
        "zone",
        "controller",
        "tapped",
        "damage",
        "plus_counters",
        "minus_counters",
        "shield_counters",
        "power",
        "toughness",
        "attacking",
        "blocking",
        "shields",
        "unregenerable",
        "attached_to",
        "in_combat",
        "blocked",
    ]
)


def _trace_bad(rng: random.Random, data: dict[str, Any]) -> tuple[Any, str] | None:
    choice = rng.randrange(8)
    records = _card_records(data)
    if choice == 0 and records:
        path = rng.choice(records)
        key = rng.choice(list(at(data, path)))
        return rename_key(data, (*path, key), typo(rng, key, _CARD_FIELDS)), "typo:card-field"
    if choice == 1 and records:
        path = rng.choice(records)
        rec = at(data, path)
        bools = [k for k, v in rec.items() if isinstance(v, bool)]
        if bools:
            return put(data, (*path, rng.choice(bools)), rng.choice(["yes", 5, [], {}])), (
                "type:card-field"
            )
    if choice == 2:
        ints = [p for p in node_paths(data) if type(at(data, p)) is int and "#meta" not in p]
        if ints:
            big = rng.choice([MAX_INT + 1, 10**30, {"#bigint": str(10**40)}])
            return put(data, rng.choice(ints), big), "int:past-64-bits"
    if choice == 3 and len(data["states"]) > 1:
        i = rng.randrange(1, len(data["states"]))
        meta = data["states"][i].get("#meta", {})
        if "action" in meta:
            path = ("states", i, "#meta", "action", "kind")
            return put(data, path, typo(rng, str(meta["action"]["kind"]), set())), (
                "typo:action-kind"
            )
    if choice == 4:
        i = rng.randrange(len(data["states"]))
        return put(data, ("states", i, "#meta", "index"), i + rng.choice([1, 7])), "index:wrong"
    if choice == 5:
        i = rng.randrange(len(data["states"]))
        state = data["states"][i]
        var = rng.choice([k for k in state if k != "#meta"] or ["cards"])
        out = copy.deepcopy(data)
        out["states"][i][typo(rng, var, {"cards", "players", "game", "events"})] = {}
        return out, "typo:state-variable"
    if choice == 6 and records:
        path = rng.choice(records)
        handle_path = (*path[:-1], 0)
        return put(data, handle_path, typo(rng, at(data, handle_path), set())), "name:unknown-card"
    if choice == 7:
        return put(data, ("#meta", "deep"), nested(rng.choice([65, 500, 5000]))), "deep:meta"
    return None


def _dump_trace(data: Any) -> str:
    import sys

    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 20_000))
        return json.dumps(data, indent=1)
    finally:
        sys.setrecursionlimit(limit)


def trace_input(rng: random.Random) -> FuzzInput:
    data = _pick(rng, list(trace_seeds()))
    text = json.dumps(data, indent=1)
    roll = rng.random()
    if roll < 0.35:
        for _ in range(20):
            bad = _trace_bad(rng, data)
            if bad is not None:
                body = _dump_trace(bad[0]).encode()
                return FuzzInput(Format.TRACE, bad[1], body, ".itf.json", must_reject=True)
    if roll < 0.45:
        choice = rng.randrange(4)
        raw = text.encode()
        if choice == 0:
            cut = rng.randrange(len(raw.rstrip()) - 1)
            return FuzzInput(Format.TRACE, "json:truncated", raw[:cut], ".itf.json", True)
        if choice == 1:
            i = rng.randrange(len(raw))
            return FuzzInput(
                Format.TRACE, "json:not-utf8", raw[:i] + b"\xff" + raw[i:], ".itf.json", True
            )
        if choice == 2:
            constant = text.replace(
                '"life": 20', f'"life": {rng.choice(["NaN", "Infinity", "-Infinity"])}', 1
            )
            if constant != text:
                body = constant.encode()
                return FuzzInput(Format.TRACE, "json:constant", body, ".itf.json", True)
        big = text.replace('"life": 20', f'"life": {"9" * rng.choice([30, 5000, 100000])}', 1)
        if big != text:
            return FuzzInput(Format.TRACE, "json:huge-integer", big.encode(), ".itf.json", True)
    if roll < 0.7:
        edited, how = edit_text(rng, text.encode())
        return FuzzInput(Format.TRACE, f"text:{how}", edited, ".itf.json")
    paths = [p for p in node_paths(data) if p]
    path = rng.choice(paths)
    if rng.random() < 0.3 and isinstance(path[-1], str):
        out = copy.deepcopy(data)
        del at(out, path[:-1])[path[-1]]
        return FuzzInput(Format.TRACE, "value:delete", json.dumps(out).encode(), ".itf.json")
    body = json.dumps(put(data, path, random_value(rng))).encode()
    return FuzzInput(Format.TRACE, "value:replace", body, ".itf.json")


# --- queries ---------------------------------------------------------------------------------------

_CARD_INTS = ["damage", "toughness", "power", "shields", "unused_shields", "destructions", "plus"]
_CARD_BOOLS = ["tapped", "creature", "on_battlefield", "in_combat", "cant_regen", "attacking"]
_OUTPUTS = ["regenerations", "damage", "shields_made", "regen_taps"]


def random_query(rng: random.Random, depth: int = 0) -> str:
    """A query drawn from the grammar (``invariants/query.py``), well formed by construction."""

    def num() -> str:
        r = rng.randrange(4)
        if r == 0:
            return str(rng.randrange(4))
        if r == 1:
            return f"c.{rng.choice(_CARD_INTS)}"
        if r == 2:
            return f"{rng.choice(_OUTPUTS)}[c]"
        return f"{num()} {rng.choice('+-')} {rng.randrange(3)}"

    def cond(d: int) -> str:
        r = rng.randrange(8 if d < 4 else 3)
        if r == 0:
            return f"c.{rng.choice(_CARD_BOOLS)}"
        if r == 1:
            return f"{num()} {rng.choice(['==', '!=', '<', '<=', '>', '>='])} {num()}"
        if r == 2:
            return rng.choice(["c.zone == battlefield", "step == cleanup", "action == destroy"])
        if r == 3:
            return f"not {cond(d + 1)}"
        if r == 4:
            return f"({cond(d + 1)} and {cond(d + 1)})"
        if r == 5:
            return f"({cond(d + 1)} or {cond(d + 1)})"
        if r == 6:
            return f"({cond(d + 1)} implies {cond(d + 1)})"
        return f"count(d: d.{rng.choice(_CARD_BOOLS)}) {rng.choice(['>', '=='])} {rng.randrange(3)}"

    body = cond(depth)
    return ("step: " if rng.random() < 0.3 else "") + (
        f"exists c: {body}" if rng.random() < 0.5 else body
    )


def _query_words() -> frozenset[str]:
    from regen_model.invariants import vocabulary as V

    return frozenset(
        {
            *V.CARD_INTS,
            *V.CARD_BOOLS,
            *V.STATIC_INTS,
            *V.STATIC_BOOLS,
            *("shields", "unused_shields", "pre", "post", "out", "total"),
        }
    )


_QUERY_CARD_WORDS = _query_words()


def _query_bad(rng: random.Random, text: str) -> tuple[str, str]:
    choice = rng.randrange(7)
    if choice == 0 and "c." in text:
        i = text.index("c.") + 2
        end = i
        while end < len(text) and (text[end].isalnum() or text[end] == "_"):
            end += 1
        field = text[i:end]
        return text[:i] + typo(rng, field or "tapped", _QUERY_CARD_WORDS) + text[end:], (
            "typo:card-field"
        )
    if choice == 1:
        return text + ")", "paren:unbalanced"
    if choice == 2:
        depth = rng.choice([65, 1000, 5000])
        return "(" * depth + text + ")" * depth, "deep:parens"
    if choice == 3:
        return f"c.damage > {'9' * rng.choice([10, 30, 5000])}", "int:huge"
    if choice == 4:
        return f"step: action == {typo(rng, 'destroy', {'destroy', 'sacrifice', 'exile'})}", (
            "typo:action-kind"
        )
    if choice == 5:
        return " and ".join(["c.tapped"] * 3000), "long:query"
    return text + rng.choice([" $", " @", " ;", " and", " =="]), "token:junk"


def query_input(rng: random.Random) -> FuzzInput:
    seeds = [e.query for e in EXAMPLES]
    text = rng.choice(seeds) if rng.random() < 0.3 else random_query(rng)
    roll = rng.random()
    if roll < 0.35:
        bad, how = _query_bad(rng, text)
        return FuzzInput(Format.QUERY, how, bad.encode(), must_reject=True)
    if roll < 0.75:
        tokens = text.split(" ")
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(tokens))
            op = rng.randrange(3)
            if op == 0 and len(tokens) > 1:
                del tokens[i]
            elif op == 1:
                tokens.insert(
                    i, rng.choice(["(", ")", "and", "not", "c.", "1", ":", "exists", "x"])
                )
            else:
                tokens[i], tokens[-1] = tokens[-1], tokens[i]
        return FuzzInput(Format.QUERY, "tokens", " ".join(tokens).encode())
    return FuzzInput(Format.QUERY, "grammar", text.encode())


# --- JSON-lines replies ------------------------------------------------------------------------------


JSONL_OPS = ("hello", "start", "observe", "apply")


def jsonl_input(rng: random.Random) -> FuzzInput:
    """A reply to one request of the fuzz engine's game, replaced (``engine.py``)."""
    op = rng.choice(JSONL_OPS)
    nth = 0 if op in ("hello", "start") else rng.randrange(2)
    canned = canned_replies()
    reply = [r for o, r in canned if o == op][nth]
    roll = rng.random()
    if roll < 0.5:
        choice = rng.randrange(10)
        bad: bytes
        how: str
        if choice == 0:
            bad, how = b"panic: index out of range [3] with length 2\n", "not-json"
        elif choice == 1:
            raw = json.dumps(reply).encode()
            bad, how = raw[: rng.randrange(1, len(raw) - 1)] + b"\n", "truncated"
        elif choice == 2:
            bad, how = json.dumps(rng.choice([[], 5, "ok", None])).encode() + b"\n", "not-object"
        elif choice == 3:
            bad = json.dumps({**reply, "ok": rng.choice(["true", 1, None])}).encode() + b"\n"
            how = "ok-not-bool"
        elif choice == 4:
            bad, how = b'{"ok": true, "x": "\xff\xfe"}\n', "not-utf8"
        elif choice == 5:
            bad, how = json.dumps(reply).encode(), "no-newline-then-exit"
        elif choice == 6:
            depth = rng.choice([65, 5000])
            bad = b'{"ok": true, "x": ' + b"[" * depth + b"]" * depth + b"}\n"
            how = "deep"
        elif choice == 7:
            bad, how = b'{"ok": true, "n": ' + b"9" * 5000 + b"}\n", "huge-integer"
        elif choice == 8:
            line = json.dumps(reply).encode() + b"\n"
            bad, how = line + line, "two-lines"
        else:
            bad, how = b'{"ok": NaN}\n', "nan"
        if op == "observe" and rng.random() < 0.3:
            obs = copy.deepcopy(reply)
            cards = obs["observation"]["cards"]
            if cards:
                handle = rng.choice(list(cards))
                cards[handle][rng.choice(["tapped", "zone", "damage"])] = rng.choice(
                    [[], {}, "yes", -1.5]
                )
                bad, how = json.dumps(obs).encode() + b"\n", "observation:wrong-type"
        return FuzzInput(Format.JSONL, how, bad, must_reject=True, op=op, nth=nth)
    paths = [p for p in node_paths(reply) if p]
    out = put(reply, rng.choice(paths), random_value(rng)) if paths else reply
    return FuzzInput(
        Format.JSONL, "value:replace", json.dumps(out).encode() + b"\n", op=op, nth=nth
    )


@cache
def canned_replies() -> tuple[tuple[str, Any], ...]:
    """The reference engine's replies to the fuzz game (``jsonl_case``), request by request."""
    from regen_model.conform.adapter import ReferenceAdapter
    from regen_model.conform.codec import Players, action_to_json
    from regen_model.conform.serve import handle

    case = jsonl_case()
    adapter = ReferenceAdapter()
    players = [Players()]
    out: list[tuple[str, Any]] = []
    requests: list[dict[str, Any]] = [
        {"op": "hello"},
        {"op": "start", "state": case.start.to_json()},
        {"op": "observe"},
    ]
    p = Players(case.start.players)
    for action in case.actions:
        requests += [{"op": "apply", "action": action_to_json(action, p)}, {"op": "observe"}]
    for request in requests:
        out.append((request["op"], handle(adapter, request, players)))
    out[0][1].pop("supports", None)  # no "supports" round trip: one request fewer
    return tuple(out)


def jsonl_case() -> Any:
    from regen_model.conform.case import Case
    from regen_model.conform.start import Start
    from regen_model.model import actions as A
    from regen_model.model.build import CardSpec
    from regen_model.model.cards import PERMANENT_CARDS
    from regen_model.model.enums import Rider
    from regen_model.model.state import Shield

    troll = CardSpec(
        "troll",
        PERMANENT_CARDS["Horned Troll"],
        0,
        shields=(Shield("Death Ward", 0, Rider.NONE),),
    )
    bear = CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 1)
    start = Start(("A", "B"), (troll, bear))
    return Case("fuzz", start, (A.Destroy(targets=("troll",)), A.Sacrifice(target="bear")))


def engine_script(inp: FuzzInput) -> str:
    """The JSON the fuzz engine (``engine.py``) reads: canned replies and the one replaced."""
    return json.dumps(
        {
            "replies": [[op, json.dumps(r)] for op, r in canned_replies()],
            "op": inp.op,
            "nth": inp.nth,
            "payload": base64.b64encode(inp.data).decode(),
        }
    )


GENERATORS: dict[Format, Callable[[random.Random], FuzzInput]] = {
    Format.SCENARIO: scenario_input,
    Format.TRACE: trace_input,
    Format.QUERY: query_input,
    Format.JSONL: jsonl_input,
}
