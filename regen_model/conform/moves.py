"""The choice space of a state: candidate actions and the values of their choice fields.

The engine is deterministic once every choice is an action field, so "what could have
happened here?" is answered by listing candidate actions and letting the engine reject the
illegal ones. Three users:

* the trace checker's enumeration resolver (``gaps.py``) fills in choices a log left out;
* the random scenario generator (``generate.py``) draws among the candidates;
* the clause-witness search (``witness.py``) walks through them.

Candidates may be illegal (the engine says so); they must include every legal action of the
kinds listed, so that enumeration is complete. Domains are kept small on purpose (one target
per destroy, damage amounts up to 4): they are for search, not for a full game tree.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, permutations, product
from typing import Any

from regen_model.engine import combat as cb
from regen_model.engine.work import Work
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS
from regen_model.model.derived import controller, givable, has, is_creature_on_battlefield
from regen_model.model.effects import TargetRule
from regen_model.model.enums import (
    Attachment,
    CounterKind,
    Decision,
    Keyword,
    Rider,
    StackKind,
)
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

MAX_COMBINATIONS = 256  # cap on enumerated subsets and assignments per field


def battlefield(state: GameState) -> list[str]:
    return [state.setup.handles[c.slot] for c in state.cards if c.on_battlefield]


def creatures(state: GameState) -> list[str]:
    return [
        state.setup.handles[c.slot] for c in state.cards if is_creature_on_battlefield(state, c)
    ]


def replacement_uses(state: GameState, handle: str) -> list[str]:
    """The answers (``ReplacementChoice.use``) that could pick a replacement effect for this
    permanent: each unused shield, static regeneration, each umbra armor Aura, a shield
    counter. Which of them apply to a given destruction is the engine's business."""
    slot = state.setup.slot_of(handle)
    card = state.cards[slot]
    uses = [f"shield#{i + 1}" for i in card.active_shields]
    if state.setup.templates[slot].static_regeneration:
        uses.append("static")
    for other in state.cards:
        if (
            other.on_battlefield
            and other.attached_to == slot
            and state.setup.templates[other.slot].attachment is Attachment.AURA
            and has(state, other, Keyword.UMBRA_ARMOR)
        ):
            uses.append(f"umbra:{state.setup.handles[other.slot]}")
    if card.shield_counters > 0:
        uses.append("shield-counter")
    return uses


def choice_sets(state: GameState) -> list[tuple[A.ReplacementChoice, ...]]:
    """Every combination of 616.1 answers for the permanents that could need one.

    Each answer is given for both players: the engine uses the answer of the player the rules
    designate (the controller, possibly after a control change in the same step), so the
    enumeration stays complete without knowing who that is.
    """
    per_permanent: list[list[tuple[A.ReplacementChoice, ...]]] = []
    for handle in battlefield(state):
        uses = replacement_uses(state, handle)
        if len(uses) < 2:
            continue
        per_permanent.append(
            [
                tuple(A.ReplacementChoice(handle, p, use) for p in range(len(state.players)))
                for use in uses
            ]
        )
    out: list[tuple[A.ReplacementChoice, ...]] = []
    for combo in product(*per_permanent):
        out.append(tuple(c for group in combo for c in group))
        if len(out) >= MAX_COMBINATIONS:
            break
    return out


# --- game actions ------------------------------------------------------------------------------


def _subsets(items: Sequence[str]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    for k in range(len(items) + 1):
        for combo in combinations(items, k):
            out.append(combo)
            if len(out) >= MAX_COMBINATIONS:
                return out
    return out


def attacker_candidates(state: GameState) -> list[str]:
    return [
        state.setup.handles[c.slot]
        for c in state.cards
        if is_creature_on_battlefield(state, c) and controller(c) == state.active and not c.tapped
    ]


def block_assignments(state: GameState) -> list[tuple[tuple[str, str], ...]]:
    blockers = [
        state.setup.handles[c.slot]
        for c in state.cards
        if is_creature_on_battlefield(state, c)
        and controller(c) == state.defending
        and not c.tapped
    ]
    attackers = [state.setup.handles[c.slot] for c in state.cards if c.attacking]
    # each blocker blocks nothing or one attacker; one that can block an additional creature
    # (509.1a) also two, in either order (its M10 damage assignment order)
    options: list[list[tuple[str, ...]]] = []
    for b in blockers:
        one: list[tuple[str, ...]] = [(), *[(a,) for a in attackers]]
        if state.setup.templates[state.setup.slot_of(b)].extra_block:
            one += [(a1, a2) for a1 in attackers for a2 in attackers if a1 != a2]
        options.append(one)
    out: list[tuple[tuple[str, str], ...]] = []
    for targets in product(*options):
        out.append(tuple((b, a) for b, ts in zip(blockers, targets, strict=True) for a in ts))
        if len(out) >= MAX_COMBINATIONS:
            break
    return out


def order_options(state: GameState) -> list[tuple[str, tuple[str, ...]]]:
    w = Work(state, CORRECT)
    out = []
    for a in cb.needs_order(w):
        for order in permutations(cb.current_blockers(w, a, ())):
            out.append((state.setup.handles[a], tuple(state.setup.handles[b] for b in order)))
    return out


def division_sets(state: GameState) -> list[tuple[A.Division, ...]]:
    """Every combination of legal damage divisions for the attackers that need a choice."""
    w = Work(state, CORRECT)
    per_attacker = []
    for a in cb.attackers_needing_choice(w, state.step):
        options = cb.legal_divisions(w, state.edition, a, state.combat.orders)
        per_attacker.append(
            [
                A.Division(
                    state.setup.handles[a],
                    tuple(
                        ("player" if r == cb.PLAYER else state.setup.handles[r], n) for r, n in d
                    ),
                )
                for d in options
            ]
        )
    out: list[tuple[A.Division, ...]] = []
    for combo in product(*per_attacker):
        out.append(tuple(combo))
        if len(out) >= MAX_COMBINATIONS:
            break
    return out


def spell_targets(state: GameState, name: str) -> list[tuple[A.TargetChoice, ...]]:
    rule = SPELLS[name].targets if name in SPELLS else TargetRule.ANY
    if rule is TargetRule.NONE:
        return [()]
    if rule is TargetRule.SPELL:  # "target spell" (Counterspell, 115.1): by stack position
        return [
            (A.TargetChoice(spell=j),)
            for j, obj in enumerate(state.stack)
            if obj.kind is StackKind.SPELL
        ]
    out: list[tuple[A.TargetChoice, ...]] = []
    if rule is not TargetRule.PLAYER:  # "target player" (Thought Scour) names no card (115.2)
        out += [(A.TargetChoice(card=h),) for h in creatures(state)]
    if rule in (TargetRule.ANY, TargetRule.PLAYER):
        out += [(A.TargetChoice(player=p),) for p in range(len(state.players))]
    return out


def game_moves(state: GameState) -> list[A.Action]:
    """Candidate game actions (the moves of a real turn) in this state."""
    d = state.decision
    if d is Decision.DECLARE_ATTACKERS:
        return [
            A.DeclareAttackers(player=state.active, attackers=s)
            for s in _subsets(attacker_candidates(state))
        ]
    if d is Decision.DECLARE_BLOCKERS:
        return [
            A.DeclareBlockers(player=state.defending, blocks=b) for b in block_assignments(state)
        ]
    if d is Decision.ORDER_BLOCKERS:
        return [
            A.OrderBlockers(player=state.active, attacker=a, order=o)
            for a, o in order_options(state)
        ]
    if d is Decision.ASSIGN_COMBAT_DAMAGE:
        return [
            A.AssignCombatDamage(player=state.active, divisions=s) for s in division_sets(state)
        ]
    p = state.priority
    if p is None:
        return []
    moves: list[A.Action] = [A.PassPriority(player=p)]
    for name, spell in SPELLS.items():
        for targets in spell_targets(state, name):
            moves.append(spell.cast(p, targets))
    for c in state.cards:
        if c.on_battlefield:
            # the printed abilities, then the one an attachment may give it (613.1f)
            count = len(state.setup.templates[c.slot].abilities) + (1 if givable(state) else 0)
            for i in range(count):
                moves.append(
                    A.ActivateAbility(player=p, source=state.setup.handles[c.slot], ability=i)
                )
    return moves


# --- effect actions ---------------------------------------------------------------------------


_KEYWORD_SETS: tuple[frozenset[Keyword], ...] = (
    frozenset(),
    frozenset({Keyword.DEATHTOUCH}),
    frozenset({Keyword.WITHER}),
    frozenset({Keyword.INFECT}),
)
_GRANTABLE = (Keyword.INDESTRUCTIBLE, Keyword.DEATHTOUCH, Keyword.TRAMPLE, Keyword.FIRST_STRIKE)


def _shields(state: GameState) -> list[A.Action]:
    out: list[A.Action] = []
    for h in creatures(state):
        other = 1 - controller(state.card(h))
        out.append(A.CreateShield(target=h))
        out.append(
            A.CreateShield(
                target=h, origin="Debt of Loyalty", rider=Rider.GAIN_CONTROL, creator=other
            )
        )
        out.append(A.CreateShield(target=h, origin="Matopi Golem", rider=Rider.MINUS_COUNTER))
    return out


def _damage(state: GameState) -> list[A.Action]:
    cre = creatures(state)
    out: list[A.Action] = []
    for h in cre:
        for amount in (1, 2, 3, 4):
            for kws in _KEYWORD_SETS:
                share = (A.DamageShare(amount, card=h),)
                out.append(A.DealDamage(source="effect", shares=share, keywords=kws))
        out.append(
            A.DealDamage(source="Incinerate", shares=(A.DamageShare(3, card=h),), cant_regen=True)
        )
    if len(cre) >= 2:
        shares = tuple(A.DamageShare(2, card=h) for h in cre)
        out.append(A.DealDamage(source="Pyroclasm", shares=shares))
    for p in range(len(state.players)):
        out.append(A.DealDamage(source="effect", shares=(A.DamageShare(3, player=p),)))
    if cre:
        out.append(A.DealDamage(source="effect", shares=(A.DamageShare(0, card=cre[0]),)))
    return out


def _destroy(state: GameState) -> list[A.Action]:
    cre = creatures(state)
    out: list[A.Action] = []
    for h in battlefield(state):
        out.append(A.Destroy(targets=(h,)))
        out.append(A.Destroy(targets=(h,), cant_be_regenerated=True))
    if len(cre) >= 2:
        out.append(A.Destroy(targets=tuple(cre[:2])))
        out.append(A.Destroy(targets=tuple(cre), cant_be_regenerated=True))
    return out


def _pt(state: GameState) -> list[A.Action]:
    return [
        A.ModifyPowerToughness(target=h, power=dp, toughness=dt)
        for h in creatures(state)
        for dp, dt in ((2, 2), (-2, -2), (0, -1))
    ]


def _keywords(state: GameState) -> list[A.Action]:
    out: list[A.Action] = []
    for h in creatures(state):
        out += [A.GrantKeyword(target=h, keyword=kw) for kw in _GRANTABLE]
        out.append(A.GrantKeyword(target=h, keyword=Keyword.INDESTRUCTIBLE, remove=True))
    return out


def _control(state: GameState) -> list[A.Action]:
    return [
        A.ChangeControl(target=h, player=p, until_end_of_turn=eot)
        for h in battlefield(state)
        for p in range(len(state.players))
        for eot in (False, True)
    ]


def _attachment_handles(state: GameState) -> list[str]:
    """The Auras and Equipment on the battlefield (what an attach effect can move, 701.3a)."""
    return [
        h
        for h in battlefield(state)
        if state.template(state.setup.slot_of(h)).attachment is not Attachment.NONE
    ]


def _attachments_field(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return _attachment_handles(state)


def _type_changes(state: GameState) -> list[A.Action]:
    """Stop being a creature, or become one (only what can: a printed creature or a manland)."""
    out: list[A.Action] = []
    for h in battlefield(state):
        t = state.template(state.setup.slot_of(h))
        out.append(A.ChangeType(target=h, creature=False))
        if t.is_creature or t.animation is not None:
            out.append(A.ChangeType(target=h, creature=True))
    return out


# Effect candidates by action kind, so that a generator can pick the kind first.
EFFECT_MOVES: dict[str, Callable[[GameState], list[A.Action]]] = {
    "check-sba": lambda s: [A.CheckStateBasedActions()],
    "cleanup": lambda s: [A.Cleanup()],
    "create-shield": _shields,
    "make-unregenerable": lambda s: [A.MakeUnregenerable(target=h) for h in creatures(s)],
    "deal-damage": _damage,
    "destroy": _destroy,
    "modify-pt": _pt,
    "grant-keyword": _keywords,
    "sacrifice": lambda s: [A.Sacrifice(target=h) for h in battlefield(s)],
    "exile": lambda s: [A.Exile(target=h) for h in battlefield(s)],
    "leave-and-return": lambda s: [A.LeaveAndReturn(target=h) for h in battlefield(s)],
    "change-control": _control,
    "add-counters": lambda s: [
        A.AddCounters(target=h, counter=k) for h in battlefield(s) for k in CounterKind
    ],
    "change-type": _type_changes,
    "attach": lambda s: [
        A.Attach(attachment=a, target=h) for a in _attachment_handles(s) for h in creatures(s)
    ],
}


def effect_moves(state: GameState) -> list[A.Action]:
    """Candidate effect actions ("an effect now does this") with small parameter domains."""
    return [m for make in EFFECT_MOVES.values() for m in make(state)]


# --- enumerating absent fields of a logged action (for the gap resolver) ------------------------

Domain = Callable[[GameState, dict[str, Any]], list[Any]]


def _players(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return list(range(len(state.players)))


def _target(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return battlefield(state)


def _spell_names(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return list(SPELLS)


def _sources(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return [
        state.setup.handles[c.slot]
        for c in state.cards
        if c.on_battlefield and state.setup.templates[c.slot].abilities
    ]


def _abilities(state: GameState, fields: dict[str, Any]) -> list[Any]:
    source = fields.get("source")
    if source not in state.setup.handles:
        return [0]
    return list(range(len(state.setup.templates[state.setup.slot_of(source)].abilities))) or [0]


def _attackers(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return _subsets(attacker_candidates(state))


def _blocks(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return block_assignments(state)


def _order_attacker(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return sorted({a for a, _ in order_options(state)})


def _order(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return [o for a, o in order_options(state) if a == fields.get("attacker")]


def _single_targets(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return [(h,) for h in battlefield(state)]


def _cast_targets(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return spell_targets(state, str(fields.get("name", "")))


def _divisions(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return division_sets(state)


def _choices(state: GameState, fields: dict[str, Any]) -> list[Any]:
    return choice_sets(state)


# Per action kind: the choice fields that may be absent from a log, in enumeration order (a
# later domain may depend on earlier values), and whether each is *lazy*. A lazy field's
# default ("no choice made") is tried first, and the domain is enumerated only when the engine
# rejects the action: for these fields the default is accepted exactly when no choice was
# needed, in which case every value gives the same successor, so nothing is lost.
EAGER, LAZY = False, True
_PLAYER = ("player", _players, EAGER)
_TARGET = ("target", _target, EAGER)
_CHOICES = ("choices", _choices, LAZY)

CHOICE_FIELDS: dict[str, tuple[tuple[str, Domain, bool], ...]] = {
    "pass": (_PLAYER,),
    "cast": (_PLAYER, ("name", _spell_names, EAGER), ("targets", _cast_targets, LAZY)),
    "activate": (_PLAYER, ("source", _sources, EAGER), ("ability", _abilities, EAGER)),
    "declare-attackers": (_PLAYER, ("attackers", _attackers, EAGER)),
    "declare-blockers": (_PLAYER, ("blocks", _blocks, EAGER)),
    "order-blockers": (
        _PLAYER,
        ("attacker", _order_attacker, EAGER),
        ("order", _order, EAGER),
    ),
    "assign-combat-damage": (_PLAYER, ("divisions", _divisions, LAZY)),
    "create-shield": (_TARGET,),
    "destroy": (("targets", _single_targets, EAGER),),
    "sacrifice": (_TARGET,),
    "exile": (_TARGET,),
    "leave-and-return": (_TARGET,),
    "change-control": (_TARGET, _PLAYER),
    "modify-pt": (_TARGET,),
    "add-counters": (_TARGET,),
    "grant-keyword": (_TARGET,),
    "change-type": (_TARGET,),
    "make-unregenerable": (_TARGET,),
    "attach": (("attachment", _attachments_field, EAGER), _TARGET),
}


def choice_fields(kind: str) -> tuple[tuple[str, Domain, bool], ...]:
    """The enumerable choice fields of an action kind (``choices`` for every kind)."""
    return (*CHOICE_FIELDS.get(kind, ()), _CHOICES)


def fill(
    state: GameState, fields: dict[str, Any], missing: Sequence[tuple[str, Domain]]
) -> Iterator[dict[str, Any]]:
    """Every completion of ``fields`` with values for the ``missing`` fields, in order."""
    if not missing:
        yield fields
        return
    (name, domain), rest = missing[0], missing[1:]
    for value in domain(state, fields):
        yield from fill(state, {**fields, name: value}, rest)


def unloggable_missing(cls: type[A.Action], fields: dict[str, Any]) -> list[str]:
    """Required fields that are absent and cannot be enumerated (a log must give them)."""
    enumerable = {name for name, _, _ in choice_fields(cls.kind)}
    if cls is A.CastSpell and "name" not in fields:
        enumerable.add("effect")  # comes with the enumerated built-in spell
    return [
        f.name
        for f in dataclasses.fields(cls)
        if f.name not in fields
        and f.name not in enumerable
        and f.default is dataclasses.MISSING
        and f.default_factory is dataclasses.MISSING
    ]
