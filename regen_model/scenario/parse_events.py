"""The ``events`` list: each item becomes the engine action(s) it stands for.

One function per action kind turns the item's arguments (already shape-checked by the schema)
into a *maker*: given the game state when the event comes up, it returns the actions to step.
Most makers ignore the state; the turn-based declarations use it to fill in the player the
rules name (the active player attacks and assigns damage, the defending player blocks) when the
file leaves it out. Names are resolved here, so a typo is reported at load time with its line.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from regen_model.model import actions as A
from regen_model.model.cards import AbilityKind, SpellTemplate
from regen_model.model.effects import TargetRule
from regen_model.model.enums import Attachment, CounterKind, Keyword, Rider, StackKind, Step
from regen_model.model.state import GameState
from regen_model.scenario.names import Names
from regen_model.scenario.parse_expect import parse_expect
from regen_model.scenario.parse_setup import spell_template
from regen_model.scenario.source import FieldPath
from regen_model.scenario.spec import PassUntil, ScenarioEvent

Maker = Callable[[GameState], tuple[A.Action, ...]]
Parser = Callable[[Names, Any, FieldPath], Maker]
EXTRA_KEYS = ("choices", "note", "expect")


def parse_events(names: Names, items: list[Any]) -> tuple[ScenarioEvent, ...]:
    return tuple(_event(names, i, item) for i, item in enumerate(items))


def _event(names: Names, index: int, item: Any) -> ScenarioEvent:
    path: FieldPath = ("events", index)
    line = names.source.line(path)
    if isinstance(item, str):  # a bare word: check-sba or cleanup
        item = {item: None}
    kind = next(k for k in item if k not in EXTRA_KEYS)
    args = item[kind]
    choices = tuple(
        _choice(names, c, (*path, "choices", j)) for j, c in enumerate(item.get("choices", ()))
    )
    expect = parse_expect(names, item.get("expect", {}), (*path, "expect"))
    until: PassUntil | None = None
    make: Maker | None = None
    if kind == "pass-until":
        raw = args if isinstance(args, Mapping) else {"step": args}
        until = PassUntil(Step(raw["step"]), raw.get("turn"))
    else:
        make = PARSERS[kind](names, args, (*path, kind))
    return ScenarioEvent(
        index=index,
        line=line,
        kind=kind,
        summary=summarize(kind, args),
        args=args,
        make=make,
        until=until,
        choices=choices,
        expect=expect,
        note=str(item.get("note", "")),
    )


def summarize(kind: str, args: Any) -> str:
    """A one-line reading of an event as written, for narration."""
    if args is None or args == {}:
        return kind
    return f"{kind} {_fmt(args)}"


def _fmt(value: Any, nested: bool = False) -> str:
    if isinstance(value, Mapping):
        inner = ", ".join(f"{k}: {_fmt(v, True)}" for k, v in value.items())
        return "{" + inner + "}" if nested else inner
    if isinstance(value, list):
        return "[" + ", ".join(_fmt(v, True) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _fixed(*actions: A.Action) -> Maker:
    return lambda _state: actions


def _choice(names: Names, raw: Mapping[str, Any], path: FieldPath) -> A.ReplacementChoice:
    return A.ReplacementChoice(
        permanent=names.handle(raw["permanent"], (*path, "permanent")),
        by=names.player(raw["by"], (*path, "by")),
        use=str(raw["use"]),
    )


def _target_of(names: Names, v: Any, path: FieldPath) -> str:
    if isinstance(v, str):
        return names.handle(v, path)
    return names.handle(v["target"], (*path, "target"))


def _handles(names: Names, v: Any, path: FieldPath) -> tuple[str, ...]:
    if isinstance(v, str):
        return (names.handle(v, path),)
    return tuple(names.handle(h, (*path, i)) for i, h in enumerate(v))


# --- effects ---------------------------------------------------------------------------------


def _create_shield(n: Names, v: Any, p: FieldPath) -> Maker:
    if isinstance(v, str):
        return _fixed(A.CreateShield(target=n.handle(v, p)))
    creator = n.player(v["creator"], (*p, "creator")) if "creator" in v else None
    return _fixed(
        A.CreateShield(
            target=n.handle(v["target"], (*p, "target")),
            origin=str(v.get("origin", "regeneration shield")),
            rider=Rider(v.get("rider", Rider.NONE.value)),
            creator=creator,
        )
    )


def _deal_damage(n: Names, v: Any, p: FieldPath) -> Maker:
    to = v["to"]
    if isinstance(to, str):
        if "amount" not in v:
            raise n.error(p, "missing required field 'amount' (or write to: {recipient: amount})")
        recipients = {to: int(v["amount"])}
        paths = {to: (*p, "to")}
    else:
        if "amount" in v:
            raise n.error((*p, "amount"), "to: already gives an amount per recipient; drop amount:")
        recipients = {k: int(a) for k, a in to.items()}
        paths = {k: (*p, "to", k) for k in to}
    shares = []
    for who, amount in recipients.items():
        card, player = n.card_or_player(who, paths[who])
        shares.append(A.DamageShare(amount=amount, card=card, player=player))
    controller = n.player(v["controller"], (*p, "controller")) if "controller" in v else None
    return _fixed(
        A.DealDamage(
            source=str(v["source"]),
            shares=tuple(shares),
            keywords=frozenset(Keyword(k) for k in v.get("keywords", ())),
            controller=controller,
            combat=bool(v.get("combat", False)),
            cant_regen=bool(v.get("cant-be-regenerated-this-turn", False)),
        )
    )


def _destroy(n: Names, v: Any, p: FieldPath) -> Maker:
    if isinstance(v, Mapping):
        return _fixed(
            A.Destroy(
                targets=_handles(n, v["targets"], (*p, "targets")),
                cant_be_regenerated=bool(v.get("cant-be-regenerated", False)),
            )
        )
    return _fixed(A.Destroy(targets=_handles(n, v, p)))


def _one_target(
    cls: type[A.Sacrifice | A.Exile | A.MakeUnregenerable],
) -> Parser:
    def parse(n: Names, v: Any, p: FieldPath) -> Maker:
        return _fixed(cls(target=_target_of(n, v, p)))

    return parse


def _leave_and_return(n: Names, v: Any, p: FieldPath) -> Maker:
    if isinstance(v, Mapping) and "controller" in v:
        controller = n.player(v["controller"], (*p, "controller"))
        return _fixed(A.LeaveAndReturn(target=_target_of(n, v, p), controller=controller))
    return _fixed(A.LeaveAndReturn(target=_target_of(n, v, p)))


def _change_control(n: Names, v: Any, p: FieldPath) -> Maker:
    return _fixed(
        A.ChangeControl(
            target=n.handle(v["target"], (*p, "target")),
            player=n.player(v["player"], (*p, "player")),
            until_end_of_turn=bool(v.get("until-end-of-turn", False)),
        )
    )


def _modify_pt(n: Names, v: Any, p: FieldPath) -> Maker:
    return _fixed(
        A.ModifyPowerToughness(
            target=n.handle(v["target"], (*p, "target")),
            power=int(v.get("power", 0)),
            toughness=int(v.get("toughness", 0)),
        )
    )


def _add_counters(n: Names, v: Any, p: FieldPath) -> Maker:
    return _fixed(
        A.AddCounters(
            target=n.handle(v["target"], (*p, "target")),
            counter=CounterKind(v["counter"]),
            amount=int(v.get("amount", 1)),
        )
    )


def _grant_keyword(n: Names, v: Any, p: FieldPath) -> Maker:
    return _fixed(
        A.GrantKeyword(
            target=n.handle(v["target"], (*p, "target")),
            keyword=Keyword(v["keyword"]),
            remove=bool(v.get("remove", False)),
        )
    )


def _change_type(n: Names, v: Any, p: FieldPath) -> Maker:
    return _fixed(
        A.ChangeType(
            target=n.handle(v["target"], (*p, "target")),
            creature=bool(v.get("creature", True)),
        )
    )


# --- game actions ----------------------------------------------------------------------------


def _pass(n: Names, v: Any, p: FieldPath) -> Maker:
    if isinstance(v, Mapping):
        # ``decline``: the answer "no" to a "may draw" or a "you may pay" this pass resolves
        # (608.2d); ``target``: the target of a reflexive trigger it puts on the stack (603.3d)
        target = v.get("target")
        return _fixed(
            A.PassPriority(
                player=n.player(v["player"], (*p, "player")),
                decline=bool(v.get("decline")),
                target=None if target is None else n.handle(target, (*p, "target")),
            )
        )
    if isinstance(v, str):
        return _fixed(A.PassPriority(player=n.player(v, p)))
    return _fixed(*(A.PassPriority(player=n.player(x, (*p, i))) for i, x in enumerate(v)))


def _cast(n: Names, v: Any, p: FieldPath) -> Maker:
    raw_spell = v["spell"]
    if isinstance(raw_spell, str):
        spell = n.spell(raw_spell, (*p, "spell"))
    else:
        spell = spell_template(n.source, str(raw_spell["name"]), raw_spell, (*p, "spell"))
    raw_targets = v.get("targets", [])
    if isinstance(raw_targets, str | int):
        raw_targets = [raw_targets]
        target_paths: list[FieldPath] = [(*p, "targets")]
    else:
        target_paths = [(*p, "targets", i) for i in range(len(raw_targets))]
    if spell.targets is TargetRule.SPELL:
        return _cast_at_spell(n, spell, v, raw_targets, target_paths, p)
    targets = tuple(
        _spell_target(n, spell, t, tp) for t, tp in zip(raw_targets, target_paths, strict=True)
    )
    if spell.targets is TargetRule.NONE and targets:
        raise n.error((*p, "targets"), f"{spell.name} has no targets")
    if spell.targets is not TargetRule.NONE and not targets:
        raise n.error(p, f"{spell.name} needs a target (targets:)")
    return _fixed(
        A.CastSpell(
            player=n.player(v["player"], (*p, "player")),
            name=spell.name,
            effect=spell.effect,
            targets=targets,
            sorcery=spell.sorcery,
            target_rule=spell.targets,
        )
    )


def _cast_at_spell(
    n: Names,
    spell: SpellTemplate,
    v: Any,
    raw_targets: list[Any],
    target_paths: list[FieldPath],
    p: FieldPath,
) -> Maker:
    """A cast whose one target is a spell on the stack (Counterspell's "target spell", 115.1),
    written as that spell's name or as its stack position (0 the bottom). A name must be a
    spell the scenario knows (checked as the file loads) and is found on the stack when the
    event comes up: the topmost spell of that name, the one cast last; none there is an
    error at the event's line. Whether the position holds a spell is the engine's to say
    (601.2c), like every other target's legality."""
    if len(raw_targets) != 1:
        raise n.error((*p, "targets"), f"{spell.name} has one target: a spell on the stack (115.1)")
    raw, path = raw_targets[0], target_paths[0]
    player = n.player(v["player"], (*p, "player"))
    if isinstance(raw, int) and not isinstance(raw, bool):
        if raw < 0:
            raise n.error(path, "a stack position is 0 (the bottom) or more")
        return _fixed(spell.cast(player, (A.TargetChoice(spell=raw),)))
    name = n.spell(str(raw), path).name

    def make(state: GameState) -> tuple[A.Action, ...]:
        on_stack = [
            j
            for j, obj in enumerate(state.stack)
            if obj.kind is StackKind.SPELL and obj.name == name
        ]
        if not on_stack:
            raise n.error(path, f"no spell named {name!r} is on the stack")
        return (spell.cast(player, (A.TargetChoice(spell=on_stack[-1]),)),)

    return make


def _spell_target(n: Names, spell: SpellTemplate, raw: str, path: FieldPath) -> A.TargetChoice:
    if isinstance(raw, int):
        raise n.error(path, f"{spell.name} targets no spell: name a permanent or a player")
    card, player = n.card_or_player(raw, path)
    if player is not None and spell.targets not in (TargetRule.ANY, TargetRule.PLAYER):
        raise n.error(path, f"{spell.name} can't target a player (its targets: {spell.targets})")
    if player is None and spell.targets is TargetRule.PLAYER:
        raise n.error(path, f"{spell.name} targets a player, not a card (115.2)")
    return A.TargetChoice(card=card, player=player)


GRANTED = "granted"


# The activated abilities that take a target (equip 702.6a, "Regenerate target creature").
_TARGETED_ABILITIES = frozenset(
    {AbilityKind.EQUIP, AbilityKind.REGENERATE_TARGET, AbilityKind.REMOVE_DAMAGE_TARGET}
)


def _activate(n: Names, v: Any, p: FieldPath) -> Maker:
    source = n.handle(v["source"], (*p, "source"))
    abilities = n.template(source).abilities
    raw = v.get("ability", 0)
    # "granted" (or the number after its printed ones): the ability an Aura or Equipment
    # attached to it gives it (613.1f); whether one is attached then is the engine's to say
    givable = any(t.grants_abilities for t in n.templates)
    if raw == GRANTED or (givable and raw == len(abilities)):
        return _fixed(
            A.ActivateAbility(
                player=n.player(v["player"], (*p, "player")),
                source=source,
                ability=len(abilities),
            )
        )
    if not abilities:
        raise n.error((*p, "source"), f"{source} has no activated abilities")
    if isinstance(raw, int):
        if raw >= len(abilities):
            raise n.error(
                (*p, "ability"),
                f"{source} has {len(abilities)} activated abilit"
                f"{'y' if len(abilities) == 1 else 'ies'}, numbered from 0",
            )
        index = raw
    else:
        kinds = [a.kind for a in abilities]
        if AbilityKind(raw) not in kinds:
            raise n.error(
                (*p, "ability"),
                f"{source} has no {raw} ability (it has: {', '.join(k.value for k in kinds)})",
            )
        index = kinds.index(AbilityKind(raw))
    target = None
    if "target" in v:
        target = n.handle(v["target"], (*p, "target"))
        if abilities[index].kind not in _TARGETED_ABILITIES:
            raise n.error(
                (*p, "target"), f"{source}'s {abilities[index].kind.value} ability has no target"
            )
    elif abilities[index].kind is AbilityKind.EQUIP:
        raise n.error((*p, "target"), "an equip ability needs a target: the creature to equip")
    elif abilities[index].kind is AbilityKind.REGENERATE_TARGET:
        raise n.error((*p, "target"), "a regenerate-target ability needs a target creature")
    elif abilities[index].kind is AbilityKind.REMOVE_DAMAGE_TARGET:
        raise n.error((*p, "target"), "a remove-damage-target ability needs a target land")
    sacrifice = None
    if "sacrifice" in v:
        # "Sacrifice a creature" (601.2h): whether the creature can pay is the engine's to say
        sacrifice = n.handle(v["sacrifice"], (*p, "sacrifice"))
        if not abilities[index].sacrifice_creature:
            raise n.error(
                (*p, "sacrifice"),
                f"{source}'s {abilities[index].kind.value} ability costs no creature to sacrifice",
            )
    elif abilities[index].sacrifice_creature:
        raise n.error(
            (*p, "sacrifice"),
            f"{source}'s ability costs a creature to sacrifice: name it under 'sacrifice'",
        )
    return _fixed(
        A.ActivateAbility(
            player=n.player(v["player"], (*p, "player")),
            source=source,
            ability=index,
            target=target,
            sacrifice=sacrifice,
        )
    )


def _attach(n: Names, v: Any, p: FieldPath) -> Maker:
    item = n.handle(v["attachment"], (*p, "attachment"))
    if n.template(item).attachment is Attachment.NONE:
        raise n.error((*p, "attachment"), f"{item} is neither an Aura nor an Equipment")
    return _fixed(A.Attach(attachment=item, target=n.handle(v["to"], (*p, "to"))))


def _player_or(
    n: Names, v: Mapping[str, Any], p: FieldPath, default: Callable[[GameState], int]
) -> Callable[[GameState], int]:
    """The player named in ``v``, or the one the rules designate in the current state."""
    if "player" in v:
        fixed = n.player(v["player"], (*p, "player"))
        return lambda _state: fixed
    return default


def _active(state: GameState) -> int:
    return state.active


def _defending(state: GameState) -> int:
    return state.defending


def _declare_attackers(n: Names, v: Any, p: FieldPath) -> Maker:
    if isinstance(v, list):
        v, lp = {"attackers": v}, p
    else:
        lp = (*p, "attackers")
    attackers = tuple(n.handle(h, (*lp, i)) for i, h in enumerate(v.get("attackers", ())))
    who = _player_or(n, v, p, _active)
    return lambda s: (A.DeclareAttackers(player=who(s), attackers=attackers),)


def _declare_blockers(n: Names, v: Any, p: FieldPath) -> Maker:
    # A blocker names its attacker, or a list of attackers for a creature that can block
    # an additional creature (509.1a); the list's order is its M10 damage assignment order.
    pairs: list[tuple[str, str]] = []
    for b, value in v.get("blocks", {}).items():
        bp: FieldPath = (*p, "blocks", b)
        blocker = n.handle(b, bp)
        if isinstance(value, list):
            pairs += [(blocker, n.handle(a, (*bp, k))) for k, a in enumerate(value)]
        else:
            pairs.append((blocker, n.handle(value, bp)))
    blocks = tuple(pairs)
    who = _player_or(n, v, p, _defending)
    return lambda s: (A.DeclareBlockers(player=who(s), blocks=blocks),)


def _order_blockers(n: Names, v: Any, p: FieldPath) -> Maker:
    attacker = n.handle(v["attacker"], (*p, "attacker"))
    order = tuple(n.handle(h, (*p, "order", i)) for i, h in enumerate(v["order"]))
    who = _player_or(n, v, p, _active)
    return lambda s: (A.OrderBlockers(player=who(s), attacker=attacker, order=order),)


def _assign_combat_damage(n: Names, v: Any, p: FieldPath) -> Maker:
    # Recipients: a blocker's handle, "player", or a player's name (checked to be the
    # defending player when the event comes up).
    planned: list[tuple[str, list[tuple[str, int | None, int, FieldPath]]]] = []
    for attacker, shares in v.get("divisions", {}).items():
        ap: FieldPath = (*p, "divisions", attacker)
        rows: list[tuple[str, int | None, int, FieldPath]] = []
        for recipient, amount in shares.items():
            rp: FieldPath = (*ap, recipient)
            if recipient == "player":
                rows.append(("player", None, int(amount), rp))
            elif recipient in n.players:
                rows.append(("player", n.players.index(recipient), int(amount), rp))
            else:
                rows.append((n.handle(recipient, rp), None, int(amount), rp))
        planned.append((n.handle(attacker, ap), rows))
    who = _player_or(n, v, p, _active)

    def make(state: GameState) -> tuple[A.Action, ...]:
        divisions = []
        for attacker, rows in planned:
            shares: list[tuple[str, int]] = []
            for recipient, player, amount, rp in rows:
                if player is not None and player != state.defending:
                    raise n.error(
                        rp,
                        f"{n.players[player]} is not the defending player; combat damage "
                        "can only go to blockers or to the defending player",
                    )
                shares.append((recipient, amount))
            divisions.append(A.Division(attacker=attacker, shares=tuple(shares)))
        return (A.AssignCombatDamage(player=who(state), divisions=tuple(divisions)),)

    return make


PARSERS: dict[str, Parser] = {
    "create-shield": _create_shield,
    "deal-damage": _deal_damage,
    "destroy": _destroy,
    "sacrifice": _one_target(A.Sacrifice),
    "exile": _one_target(A.Exile),
    "leave-and-return": _leave_and_return,
    "attach": _attach,
    "change-control": _change_control,
    "modify-pt": _modify_pt,
    "add-counters": _add_counters,
    "grant-keyword": _grant_keyword,
    "change-type": _change_type,
    "make-unregenerable": _one_target(A.MakeUnregenerable),
    "check-sba": lambda n, v, p: _fixed(A.CheckStateBasedActions()),
    "cleanup": lambda n, v, p: _fixed(A.Cleanup()),
    "pass": _pass,
    "cast": _cast,
    "activate": _activate,
    "declare-attackers": _declare_attackers,
    "declare-blockers": _declare_blockers,
    "order-blockers": _order_blockers,
    "assign-combat-damage": _assign_combat_damage,
}
