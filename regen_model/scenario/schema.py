"""Validating a scenario against the published JSON Schema, with one readable message.

jsonschema reports what failed in schema terms ("is not valid under any of the given schemas",
"Additional properties are not allowed"). Users need the field and a fix, so ``validate`` turns
the first error in file order into a ``ScenarioError`` naming the line and the field path, and
rewrites the common cases: an unknown field (with a did-you-mean), a value outside a list of
choices, a wrong type, an event that names no action or two.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError

from regen_model.scenario.source import FieldPath, Source

SCHEMA_FILE = "scenario.schema.json"


@cache
def schema() -> dict[str, Any]:
    """The published schema (``regen_model/scenario/scenario.schema.json``)."""
    text = resources.files("regen_model.scenario").joinpath(SCHEMA_FILE).read_text("utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _validator() -> Draft202012Validator:
    return Draft202012Validator(schema())


def action_kinds() -> tuple[str, ...]:
    """The action keys an event may use, in schema order."""
    props = schema()["$defs"]["event"]["oneOf"][1]["properties"]
    return tuple(k for k in props if k not in ("choices", "note", "expect"))


def expect_keys() -> tuple[str, ...]:
    """Reserved keys of an ``expect`` mapping (every other key is a permanent handle)."""
    return tuple(schema()["$defs"]["expect"]["properties"])


def validate(source: Source) -> None:
    """Raise a ``ScenarioError`` for the first schema violation in file order."""
    errors = list(_validator().iter_errors(source.data))
    if not errors:
        return
    explained = [_explain(e) for e in errors]
    explained.sort(key=lambda pm: (source.line(pm[0]), -len(pm[0])))
    path, message = explained[0]
    raise source.error(*(_unknown_expect_key(source, path) or (path, message)))


def _unknown_expect_key(source: Source, path: FieldPath) -> tuple[FieldPath, str] | None:
    """An ``expect`` key that is neither reserved nor a handle explains any error below it
    better than the schema can (the schema takes unknown keys for handles)."""
    permanents = source.data.get("permanents")
    handles = list(permanents) if isinstance(permanents, Mapping) else []
    for i in range(len(path) - 1):
        key = path[i + 1]
        if path[i] == "expect" and isinstance(key, str):
            if key in expect_keys() or key in handles:
                return None
            known = [*expect_keys(), *handles]
            return path[: i + 2], (
                f"{key!r} is neither a permanent of this scenario nor an expectation key"
                f"{_did_you_mean(key, known)} (permanents: {', '.join(handles) or 'none'}; "
                f"keys: {', '.join(expect_keys())})"
            )
    return None


def _explain(error: ValidationError) -> tuple[FieldPath, str]:
    """(path, message) for one error, descending into oneOf/anyOf alternatives."""
    path: FieldPath = tuple(error.absolute_path)
    v = error.validator
    instance = error.instance
    if v in ("oneOf", "anyOf"):
        return _explain_alternatives(error, path)
    if v in ("additionalProperties", "unevaluatedProperties") and isinstance(instance, Mapping):
        allowed = sorted(_allowed_keys(error.schema))
        extra = sorted(k for k in instance if k not in allowed)
        if extra and allowed:
            key = extra[0]
            return (*path, key), f"unknown field {key!r}{_did_you_mean(key, allowed)}" + (
                f" (allowed: {', '.join(allowed)})"
            )
        if extra:
            return (*path, extra[0]), "no fields are allowed here"
    if v == "required":
        missing = str(error.validator_value[0]) if error.validator_value else "?"
        for name in error.validator_value:
            if isinstance(instance, Mapping) and name not in instance:
                missing = str(name)
                break
        return path, f"missing required field {missing!r}"
    if v == "enum":
        choices = [str(c) for c in error.validator_value]
        return path, (
            f"{instance!r} is not one of: {', '.join(choices)}"
            + _did_you_mean(str(instance), choices)
        )
    if v == "type":
        wanted = error.validator_value
        names = wanted if isinstance(wanted, list) else [wanted]
        return path, f"expected {_or(_type_word(n) for n in names)}, got {_describe(instance)}"
    if v in ("minItems", "maxItems") and path == ("players",):
        return path, "the model plays two-player games: list exactly two players"
    if v == "minimum":
        return path, f"{instance!r} is below the minimum {error.validator_value}"
    if v == "propertyNames":
        return path, f"{error.instance!r}: {error.message}"
    if v == "pattern" and path and path[-1] == "use":
        return path, (
            f"{instance!r} is not a replacement choice: use shield, shield:ORIGIN, shield#N, "
            "static, umbra:HANDLE, shield-counter or remove-damage"
        )
    return path, error.message


def _explain_alternatives(error: ValidationError, path: FieldPath) -> tuple[FieldPath, str]:
    instance = error.instance
    if _is_event_item(path) and isinstance(instance, Mapping):
        problem = _event_action_problem(instance)
        if problem:
            return path, problem
    context = list(error.context or ())
    # A failure right at this value's top in type/enum/const means "not this shape".
    wrong_shape = [
        c for c in context if not c.relative_path and c.validator in ("type", "enum", "const")
    ]
    other = [c for c in context if c not in wrong_shape]
    if other:
        best = max(other, key=lambda c: len(c.absolute_path))
        return _explain(best)
    if not wrong_shape:
        return path, error.message
    words: list[str] = []
    for c in wrong_shape:
        vv = c.validator_value
        if c.validator == "type":
            words.extend(_type_word(t) for t in (vv if isinstance(vv, list) else [vv]))
        elif c.validator == "enum":
            words.append("one of " + ", ".join(str(x) for x in vv))
        else:
            words.append(repr(vv))
    return path, f"expected {_or(words)}, got {_describe(instance)}"


def _is_event_item(path: FieldPath) -> bool:
    return len(path) == 2 and path[0] == "events" and isinstance(path[1], int)


def _event_action_problem(item: Mapping[str, Any]) -> str | None:
    """What is wrong with the action keys of an event mapping, if anything."""
    kinds = action_kinds()
    found = [k for k in item if k in kinds]
    if len(found) > 1:
        return (
            f"an event names one action, this one names {len(found)} "
            f"({', '.join(found)}); write them as separate events"
        )
    if found:
        return None
    unknown = [k for k in item if k not in ("choices", "note", "expect")]
    if unknown:
        return (
            f"unknown action {unknown[0]!r}{_did_you_mean(unknown[0], list(kinds))}; "
            f"an event is one of: {', '.join(kinds)}"
        )
    return f"the event names no action; an event is one of: {', '.join(kinds)}"


def _allowed_keys(schema_node: Mapping[str, Any]) -> set[str]:
    keys = set(schema_node.get("properties", {}))
    for sub in schema_node.get("allOf", ()):
        if isinstance(sub, Mapping) and "$ref" in sub:
            keys |= set(_resolve(sub["$ref"]).get("properties", {}))
    return keys


def _resolve(ref: str) -> Mapping[str, Any]:
    node: Any = schema()
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node  # type: ignore[no-any-return]


def _did_you_mean(word: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _type_word(name: str) -> str:
    return {
        "string": "text",
        "integer": "a whole number",
        "number": "a number",
        "boolean": "true or false",
        "null": "nothing (null)",
        "object": "a mapping",
        "array": "a list",
    }.get(name, name)


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"{str(value).lower()}"
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, int | float):
        return f"the number {value}"
    return f"the text {value!r}"


def _or(words: Iterable[str]) -> str:
    items = list(dict.fromkeys(words))
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]
