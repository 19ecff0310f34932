"""Traces for people and for tools: a table of changed fields per step, and ITF JSON.

Both are made from a run *as the engine replayed it* (``replay.Replayed``), so what is shown
is what the rules do, with the clause IDs of the engine's events at each step.

ITF (the Informal Trace Format of Apalache and Quint, ADR-015) is written by the one codec of
``conform/itf.py`` (docs/itf.md), so ``check-trace`` reads back what ``find`` writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from regen_model.checks.replay import Replayed, Value, changes, describe_action, flatten
from regen_model.conform.itf import engine_trace
from regen_model.model.cards import CardTemplate
from regen_model.model.enums import Attachment, Rider
from regen_model.model.state import GameState


@dataclass(frozen=True)
class TraceRow:
    step: int
    action: str
    changed: tuple[tuple[str, Value, Value], ...]
    clauses: tuple[str, ...]


def rows(replayed: Replayed) -> list[TraceRow]:
    """Row 0 is the start: each card's printed characteristics (``c0.card``) and the fields
    not at their usual default; then one row per step with the fields it changed."""
    start = replayed.states[0]
    players = start.setup.player_names
    printed = [
        (f"{h}.card", None, describe_card(t))
        for h, t in zip(start.setup.handles, start.setup.templates, strict=True)
    ]
    out = [
        TraceRow(
            0,
            "start",
            (*printed, *((k, None, v) for k, v in _start_fields(replayed.states[0]))),
            (),
        )
    ]
    for i, action in enumerate(replayed.run.actions, start=1):
        out.append(
            TraceRow(
                i,
                describe_action(action, players),
                tuple(changes(replayed.states[i - 1], replayed.states[i])),
                replayed.clauses(i),
            )
        )
    return out


def describe_card(template: CardTemplate) -> str:
    """``creature 2/2, regenerate (gain-control rider), static regeneration``: the printed
    characteristics the model uses."""
    types = " ".join(sorted(t.value for t in template.types)) or "no type"
    parts = [f"{types} {template.power}/{template.toughness}" if template.is_creature else types]
    parts += sorted(k.value for k in template.keywords)
    if template.attachment is not Attachment.NONE:
        bonus = template.attach_bonus
        parts.append(f"{template.attachment.value} {bonus[0]:+d}/{bonus[1]:+d}")
    for ability in template.abilities:
        text = ability.kind.value
        if ability.rider is not Rider.NONE:
            text += f" ({ability.rider.value} rider)"
        if ability.opponent_only:
            text += " (opponents only)"
        parts.append(text)
    if template.static_regeneration:
        parts.append("static regeneration")
    if template.damage_trigger is not None:
        combat = "combat " if template.damage_trigger.combat_only else ""
        parts.append(f"when dealt {combat}damage: {template.damage_trigger.effect.value}")
    return ", ".join(parts)


_QUIET: tuple[Value, ...] = (None, False, 0, (), "none", "")


def compact(changed: Sequence[tuple[str, Value, Value]]) -> list[str]:
    """The changed fields of a trace row as display lines: a stack object or waiting trigger
    that appears is one line with its non-default fields (``pending[0] = {kind: trigger,
    ...}``), one that goes away is ``stack[0]: gone``; other fields are ``path: old -> new``
    (``path = value`` at the start)."""
    lines: list[str] = []
    objects: dict[str, tuple[str, list[str]]] = {}  # prefix -> (appeared/gone, fields)
    for path, before, after in changed:
        head, dot, rest = path.partition(".")
        if head.startswith(("stack[", "pending[")) and dot and (before is None or after is None):
            status = "appeared" if before is None else "gone"
            if head not in objects:
                objects[head] = (status, [])
                lines.append(head)  # placeholder, filled in below
            value = after if before is None else before
            if value not in _QUIET:
                name = "effect" if rest == "effect.kind" else rest.removeprefix("effect.")
                objects[head][1].append(f"{name}: {show_value(value)}")
            continue
        if before is None and after is not None and not path.endswith(".card"):
            lines.append(f"{path} = {show_value(after)}")
        elif path.endswith(".card"):
            lines.append(f"{path.removesuffix('.card')}: {after}")
        else:
            lines.append(f"{path}: {show_value(before)} -> {show_value(after)}")
    out = []
    for line in lines:
        if line in objects:
            status, fields = objects[line]
            out.append(
                f"{line} = {{{', '.join(fields)}}}" if status == "appeared" else f"{line}: gone"
            )
        else:
            out.append(line)
    return out


def show_value(value: Value) -> str:
    """A field value for people: lists in brackets, "none" as ``-``."""
    if isinstance(value, tuple):
        return "[" + ", ".join(show_value(v) for v in value) + "]"
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _start_fields(state: GameState) -> list[tuple[str, Value]]:
    """The start, without fields at their usual default (to keep the first row short)."""
    quiet = (None, False, 0, (), "none")
    keep = []
    for k, v in flatten(state).items():
        if k.startswith(("game.", "combat.")) and k not in (
            "game.step",
            "game.active",
            "game.priority",
            "game.edition",
        ):
            continue
        if k.endswith((".gen", ".control")) or (k.endswith(".life") and v == 20):
            continue
        if v in quiet:
            continue
        keep.append((k, v))
    return keep


def to_itf(replayed: Replayed, meta: dict[str, Any]) -> dict[str, Any]:
    """The replayed run as an ITF trace, written by the one codec (``conform.itf``);
    ``meta`` is merged into the top-level ``#meta``, with each card's printed
    characteristics under ``printed`` (a solver's cards have no Oracle name)."""
    setup = replayed.states[0].setup
    printed = {h: describe_card(t) for h, t in zip(setup.handles, setup.templates, strict=True)}
    return engine_trace(
        replayed.states,
        replayed.run.actions,
        replayed.events,
        source="regen-model find",
        meta={"printed": printed, **meta},
    )
