"""Renaming card slots in concrete frame values, printed cards and action parameters.

The proofs rely on card slots being interchangeable (``checks.symmetry``): renaming the slots
of a state and of an action's parameters renames the relation's successor and outputs. This
module states what "renaming" means for each piece of the encoding's layout, so that the
claim can be tested by evaluating the relation (``tests/checks/test_symmetry.py``):

* a field *of* card ``i`` (``c{i}.damage``, ``c{i}.sh0.used``, the printed ``c{i}.power``, a
  616.1 answer ``choice{i}.*``, a damage share ``share{i}``, a blocker's attacker
  ``blocks{i}``, ``blocks_also{i}``, an attacker's division ``div{i}.*``, pre-M10 hits ``hit.{i}.{j}``) moves to
  card ``pi(i)``;
* a field that *holds* a card slot (``attached_to``, ``blocking``, a target, a source, a
  destroy or attack list, a division's recipient, the Aura of an umbra-armor answer) holds
  ``pi(value)``; ``NONE`` and the defending player (the recipient after the last card) stay.

A new field that refers to a card must be added here, or the test fails for it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import astuple
from typing import Any

from regen_model.encoding import params as P
from regen_model.encoding.frame import CardStatics, CardVars, Frame, StackVars
from regen_model.encoding.scope import Scope
from regen_model.encoding.work import layout

Concrete = dict[str, int | bool]
Perm = Sequence[int]  # pi[i] is the new slot of card i


def _card_names(c: CardVars) -> list[str]:
    return [str(v) for v in c.vars()]


def _static_names(st: CardStatics) -> list[str]:
    """Every printed field of a card slot, in a fixed order (all of them move with the card:
    a field added to ``CardStatics`` is renamed without being listed here)."""
    return _flat(astuple(st))


def _stack_moves(obj: StackVars, n: int, pi: Perm) -> Iterator[tuple[str, str]]:
    """(old key, new key) for the fields of a stack object that belong to a card."""
    for s in range(n):
        for r in range(n + 1):
            yield obj.hits[s][r], obj.hits[pi[s]][pi[r] if r < n else n]
        for k, name in enumerate(obj.hit_keywords[s]):
            yield name, obj.hit_keywords[pi[s]][k]
        yield obj.hit_gen[s], obj.hit_gen[pi[s]]


def stack_object_keys(scope: Scope) -> list[list[str]]:
    """The frame keys of each stack object and waiting trigger, one list per object."""
    f: Frame = layout(scope).frame
    return [_flat(astuple(obj)) for obj in (*f.stack, *f.pending)]


def _flat(value: Any) -> list[str]:
    if isinstance(value, tuple):
        return [k for v in value for k in _flat(v)]
    return [str(value)]


def _stack_slots(obj: StackVars) -> list[str]:
    return [*obj.target_card, obj.source]


def frame_moves(scope: Scope, pi: Perm) -> tuple[dict[str, str], set[str]]:
    """Where each frame key goes under ``pi`` (keys not listed stay), and which keys hold a
    card slot (their values are renamed too)."""
    f: Frame = layout(scope).frame
    n = scope.cards
    moves: dict[str, str] = {}
    for i, c in enumerate(f.cards):
        moves.update(zip(_card_names(c), _card_names(f.cards[pi[i]]), strict=True))
    for obj in (*f.stack, *f.pending):
        moves.update(_stack_moves(obj, n, pi))
    slot_keys = (
        {str(c.attached_to) for c in f.cards}
        | {str(c.blocking) for c in f.cards}
        | {str(c.blocking_also) for c in f.cards}
    )
    slot_keys |= {str(s.via) for c in f.cards for s in c.shields}  # the attachment that made it
    for obj in (*f.stack, *f.pending):
        slot_keys |= set(_stack_slots(obj))
    return moves, slot_keys


def statics_moves(scope: Scope, pi: Perm) -> dict[str, str]:
    cards = layout(scope).statics.cards
    out: dict[str, str] = {}
    for i, st in enumerate(cards):
        out.update(zip(_static_names(st), _static_names(cards[pi[i]]), strict=True))
    return out


def params_moves(scope: Scope, pi: Perm) -> tuple[dict[str, str], set[str]]:
    """As ``frame_moves`` for the action parameters (``params.names``)."""
    p = P.names(scope)
    n = scope.cards
    moves: dict[str, str] = {}
    for i in range(n):
        j = pi[i]
        moves[p.share[i]] = p.share[j]
        moves[p.share_amount[i]] = p.share_amount[j]
        moves[p.blocks[i]] = p.blocks[j]
        moves[p.blocks_also[i]] = p.blocks_also[j]
        moves[p.div[i]] = p.div[j]
        moves.update(zip(p.div_to[i], p.div_to[j], strict=True))
        moves.update(zip(p.div_amount[i], p.div_amount[j], strict=True))
        moves.update(zip(p.choice_use[i], p.choice_use[j], strict=True))
        moves.update(zip(p.choice_slot[i], p.choice_slot[j], strict=True))
        for q in range(len(p.choice_mask[i])):
            moves.update(zip(p.choice_mask[i][q], p.choice_mask[j][q], strict=True))
    slot_keys = {p.target, p.source, *p.seq, *p.blocks, *p.blocks_also, *p.tgt_card}
    slot_keys |= {k for row in p.div_to for k in row}
    return moves, slot_keys


def _rename_value(value: int | bool, pi: Perm) -> int | bool:
    if type(value) is int and 0 <= value < len(pi):
        return pi[value]
    return value


def rename(values: Concrete, moves: dict[str, str], slot_keys: set[str], pi: Perm) -> Concrete:
    """``values`` with every key moved by ``moves`` and every slot-holding value renamed."""
    out: Concrete = {}
    for key, value in values.items():
        new = _rename_value(value, pi) if key in slot_keys else value
        out[moves.get(key, key)] = new
    return out


def rename_params(values: Concrete, scope: Scope, pi: Perm) -> Concrete:
    """Parameters under ``pi``; the Aura of a 616.1 answer is renamed only where the answer
    names one (elsewhere the field keeps its canonical 0)."""
    moves, slot_keys = params_moves(scope, pi)
    p = P.names(scope)
    umbra = {
        p.choice_slot[i][q]
        for i in range(scope.cards)
        for q in range(len(p.choice_slot[i]))
        if values[p.choice_use[i][q]] == int(P.Use.UMBRA)
    }
    return rename(values, moves, slot_keys | umbra, pi)


def rename_outputs(outputs: dict[str, tuple[int, ...]], pi: Perm) -> dict[str, tuple[int, ...]]:
    out: dict[str, tuple[int, ...]] = {}
    for name, per_card in outputs.items():
        moved: list[Any] = [0] * len(per_card)
        for i, v in enumerate(per_card):
            moved[pi[i]] = v
        out[name] = tuple(moved)
    return out
