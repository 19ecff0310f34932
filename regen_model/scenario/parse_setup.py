"""The setup part of a scenario: players, the turn, permanents and spells -> a start state.

The schema has already checked shapes and vocabularies; this module checks what a schema
cannot: that names refer to something, that a built-in card exists, and that the state makes
sense for the zone the card is in (only a permanent on the battlefield can have damage, shields
or an attachment: anything else would be a state the rules never produce).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import (
    COST_KINDS,
    PERMANENT_CARDS,
    SPELLS,
    AbilityKind,
    ActivatedAbility,
    Animation,
    CardTemplate,
    DamageTrigger,
    SpellTemplate,
    TriggerEffect,
)
from regen_model.model.effects import Effect, EffectKind, TargetRule, default_target_rule
from regen_model.model.enums import (
    Attachment,
    CardType,
    Color,
    CounterKind,
    DiesWatch,
    Edition,
    Keyword,
    Rider,
    Step,
    Zone,
)
from regen_model.model.state import MILLED, GameState, Player, Shield
from regen_model.scenario.names import Names, suggest
from regen_model.scenario.schema import expect_keys
from regen_model.scenario.source import FieldPath, Source

# Fields describing the printed card (inline cards only) and its state at the start.
CARD_FIELDS = (
    "name",
    "types",
    "power",
    "toughness",
    "keywords",
    "static-regeneration",
    "extra-block",
    "abilities",
    "damage-trigger",
    "dies-life",
    "tapped-opponent-life",
    "dies-drain",
    "dies-draw",
    "end-step-reflexive",
    "shrine",
    "merfolk",
    "tapped-watch-life",
    "enters-with-plus-counters",
    "destroys-combatants",
    "wall",
    "attachment",
    "attach-bonus",
    "grants",
    "grants-abilities",
    "colors",
    "text",
    "animation",
)
BATTLEFIELD_ONLY = (
    "tapped",
    "damage",
    "counters",
    "attached-to",
    "shields",
    "cant-be-regenerated",
    "granted-keywords",
    "deathtouched",
    "summoning-sick",
    "animated",
    "not-a-creature",
    "prevent-next",
    "prevent-all",
    "exile-if-dies",
    "remove-damage-instead",
    "phased-out",
)

# Which spell fields mean something for which effect (anything else is a mistake).
EFFECT_FIELDS: dict[EffectKind, frozenset[str]] = {
    EffectKind.DAMAGE: frozenset(
        {
            "amount",
            "keywords",
            "cant-be-regenerated",
            "target-cant-be-regenerated",
            "exile-if-dies",
        }
    ),
    EffectKind.DAMAGE_EACH_CREATURE: frozenset({"amount", "keywords", "cant-be-regenerated"}),
    EffectKind.DESTROY: frozenset({"cant-be-regenerated"}),
    EffectKind.DESTROY_ALL_CREATURES: frozenset({"cant-be-regenerated", "life-for-each-destroyed"}),
    EffectKind.REGENERATE: frozenset({"rider"}),
    EffectKind.PUMP: frozenset({"power", "toughness"}),
    EffectKind.UNREGENERABLE: frozenset(),
    EffectKind.COUNTERS: frozenset({"counter", "amount"}),
    EffectKind.FLICKER: frozenset({"under-your-control"}),
    EffectKind.GAIN_CONTROL: frozenset({"until-end-of-turn", "untap", "keywords"}),
    EffectKind.PREVENT: frozenset({"amount"}),
    EffectKind.PREVENT_ALL: frozenset(),
    EffectKind.PHASE_OUT: frozenset(),
    EffectKind.MILL: frozenset({"amount", "draw"}),
    EffectKind.COUNTER_SPELL: frozenset(),
}
SPELL_COMMON_FIELDS = frozenset({"name", "effect", "targets", "sorcery", "text"})


def parse_players(data: list[Any]) -> tuple[tuple[str, ...], tuple[Player, ...]]:
    names: list[str] = []
    players: list[Player] = []
    for raw in data:
        if isinstance(raw, str):
            names.append(raw)
            players.append(Player())
        else:
            names.append(str(raw["name"]))
            players.append(
                Player(
                    life=int(raw.get("life", 20)),
                    poison=int(raw.get("poison", 0)),
                    hand=int(raw.get("hand", 0)),
                    library=int(raw.get("library", 0)),
                )
            )
    return tuple(names), tuple(players)


def check_player_names(source: Source, names: tuple[str, ...]) -> None:
    if len(set(names)) != len(names):
        raise source.error(("players", 1), f"two players are both called {names[0]!r}")


def parse_spells(source: Source, data: Mapping[str, Any]) -> dict[str, SpellTemplate]:
    spells = dict(SPELLS)
    for name, raw in data.items():
        path: FieldPath = ("spells", name)
        if name in SPELLS:
            raise source.error(path, f"{name!r} is a built-in spell; give this one another name")
        if "name" in raw and raw["name"] != name:
            raise source.error(
                (*path, "name"), "a spell listed under spells is named by its key; drop name:"
            )
        spells[name] = spell_template(source, name, raw, path)
    return spells


def spell_template(
    source: Source, name: str, raw: Mapping[str, Any], path: FieldPath
) -> SpellTemplate:
    if name == MILLED:
        # a graveyard entry of a milled card (``state.MILLED``): a spell can't share the word
        raise source.error(
            path, f"{MILLED!r} names a milled card in a graveyard; pick another name"
        )
    kind = EffectKind(raw["effect"])
    allowed = EFFECT_FIELDS[kind] | SPELL_COMMON_FIELDS
    for key in raw:
        if key not in allowed:
            raise source.error((*path, key), f"{key!r} means nothing for a {kind.value} effect")
    effect = Effect(
        kind,
        amount=int(raw.get("amount", 1 if kind is EffectKind.COUNTERS else 0))
        if kind is not EffectKind.DESTROY_ALL_CREATURES
        else int(raw.get("life-for-each-destroyed", 0)),
        power=int(raw.get("power", 0)),
        toughness=int(raw.get("toughness", 0)),
        keywords=frozenset(Keyword(k) for k in raw.get("keywords", ())),
        cant_regen=bool(raw.get("cant-be-regenerated", False)),
        cant_regen_target=bool(raw.get("target-cant-be-regenerated", False)),
        exile_if_dies=bool(raw.get("exile-if-dies", False)),
        rider=Rider(raw.get("rider", Rider.NONE.value)),
        counter=CounterKind(raw.get("counter", CounterKind.PLUS.value)),
        until_end_of_turn=bool(raw.get("until-end-of-turn", False)),
        untap=bool(raw.get("untap", False)),
        under_you=bool(raw.get("under-your-control", False)),
        draw=int(raw.get("draw", 0)),
    )
    targets = TargetRule(raw.get("targets", default_target_rule(kind).value))
    if kind is EffectKind.MILL and targets is not TargetRule.PLAYER:
        # 701.17a: a player mills (the model's mill is "target player mills N cards")
        raise source.error((*path, "targets"), "a mill targets a player: targets: player")
    if kind is EffectKind.DAMAGE and targets is TargetRule.LAND:
        # 120.1a: only a battle, a creature or a planeswalker is dealt damage (and a player,
        # 120.3); "target land" names no such object. The engine and the relation refuse the
        # cast too (``engine.step._targets``); here the error names the file, line and field
        raise source.error(
            (*path, "targets"),
            "damage is dealt only to creatures, planeswalkers, battles and players (120.1a): "
            "a damage effect can't have targets: land",
        )
    if (kind is EffectKind.COUNTER_SPELL) != (targets is TargetRule.SPELL):
        # 701.6a, 115.1: "counter target spell" targets a spell, and only it does
        raise source.error(
            (*path, "targets"), "a counter-spell effect, and only it, targets: spell"
        )
    if kind is EffectKind.MILL and effect.amount < 0:
        raise source.error((*path, "amount"), "a mill's amount is a number of cards, 0 or more")
    return SpellTemplate(
        name=name,
        effect=effect,
        targets=targets,
        sorcery=bool(raw.get("sorcery", False)),
        text=str(raw.get("text", "")),
    )


def card_template(source: Source, handle: str, raw: Mapping[str, Any]) -> CardTemplate:
    path: FieldPath = ("permanents", handle)
    if "card" in raw:
        for key in CARD_FIELDS:
            if key in raw:
                raise source.error(
                    (*path, key),
                    f"{raw['card']!r} is a built-in card, so its printed characteristics are "
                    "fixed; leave out card: to define an inline card instead",
                )
        name = str(raw["card"])
        if name not in PERMANENT_CARDS:
            raise source.error(
                (*path, "card"),
                f"{name!r} is not a built-in card{suggest(name, list(PERMANENT_CARDS))}",
            )
        return PERMANENT_CARDS[name]
    if "types" not in raw:
        raise source.error(
            path, "give either card: (a built-in card by name) or types: (an inline card)"
        )
    bonus = raw.get("attach-bonus", {})
    trigger = raw.get("damage-trigger")
    types = frozenset(CardType(t) for t in raw["types"])
    _check_subtypes(source, path, raw, types)
    watch, drain, draw = _dies_watch(source, path, raw)
    return CardTemplate(
        name=str(raw.get("name", handle)),
        types=types,
        power=int(raw.get("power", 0)),
        toughness=int(raw.get("toughness", 0)),
        keywords=frozenset(Keyword(k) for k in raw.get("keywords", ())),
        attachment=Attachment(raw.get("attachment", Attachment.NONE.value)),
        static_regeneration=bool(raw.get("static-regeneration", False)),
        extra_block=bool(raw.get("extra-block", False)),
        abilities=tuple(
            _ability(source, (*path, "abilities", k), a)
            for k, a in enumerate(raw.get("abilities", ()))
        ),
        damage_trigger=None
        if trigger is None
        else DamageTrigger(
            TriggerEffect(trigger["effect"]), combat_only=bool(trigger.get("combat-only", False))
        ),
        attach_bonus=(int(bonus.get("power", 0)), int(bonus.get("toughness", 0))),
        dies_life=int(raw.get("dies-life", 0)),
        tapped_opponent_life=int(raw.get("tapped-opponent-life", 0)),
        destroys_combatants=bool(raw.get("destroys-combatants", False)),
        wall=bool(raw.get("wall", False)),
        dies_watch=watch,
        dies_drain=drain,
        dies_draw=draw,
        shrine=bool(raw.get("shrine", False)),
        end_step_reflexive=bool(raw.get("end-step-reflexive", False)),
        merfolk=bool(raw.get("merfolk", False)),
        tapped_watch_life=int(raw.get("tapped-watch-life", 0)),
        enters_plus=int(raw.get("enters-with-plus-counters", 0)),
        grants=_grants(source, path, raw),
        grants_abilities=_grants_abilities(source, path, raw),
        text=str(raw.get("text", "")),
        colors=frozenset(Color(c) for c in raw.get("colors", ())),
        animation=_animation(raw.get("animation")),
    )


def _check_subtypes(
    source: Source, path: FieldPath, raw: Mapping[str, Any], types: frozenset[CardType]
) -> None:
    """A subtype goes with its card type (205.3d): Shrine is an enchantment type (205.3h),
    Merfolk a creature type (205.3m; the model has no kindred cards)."""
    if raw.get("shrine", False) and CardType.ENCHANTMENT not in types:
        raise source.error(
            (*path, "shrine"), "Shrine is an enchantment type (205.3h): give types: [enchantment]"
        )
    if raw.get("merfolk", False) and CardType.CREATURE not in types:
        raise source.error(
            (*path, "merfolk"), "Merfolk is a creature type (205.3m): give types: [creature]"
        )


def _dies_watch(
    source: Source, path: FieldPath, raw: Mapping[str, Any]
) -> tuple[DiesWatch, int, int]:
    """The "whenever a creature dies" watch and its one effect: ``dies-drain`` (each opponent
    loses N life, you gain N) or ``dies-draw`` (that creature's controller may draw N cards,
    Fecundity); a watcher of the model has one of the two (``CardTemplate.dies_draw``)."""
    if "dies-drain" in raw and "dies-draw" in raw:
        raise source.error(
            (*path, "dies-draw"),
            "a 'whenever a creature dies' ability has one effect: give dies-drain or dies-draw",
        )
    if "dies-draw" in raw:
        spec = raw["dies-draw"]
        return DiesWatch(spec["watch"]), 0, int(spec["cards"])
    spec = raw.get("dies-drain", {})
    return DiesWatch(spec.get("watch", DiesWatch.NONE.value)), int(spec.get("life", 0)), 0


def _grants(source: Source, path: FieldPath, raw: Mapping[str, Any]) -> frozenset[Keyword]:
    """An inline Aura's or Equipment's granted keywords; only an attachment grants any."""
    grants = frozenset(Keyword(k) for k in raw.get("grants", ()))
    if grants and raw.get("attachment", Attachment.NONE.value) == Attachment.NONE.value:
        raise source.error(
            (*path, "grants"), "only an Aura or Equipment grants keywords (give attachment:)"
        )
    return grants


def _grants_abilities(
    source: Source, path: FieldPath, raw: Mapping[str, Any]
) -> tuple[ActivatedAbility, ...]:
    """An inline Aura's or Equipment's abilities it gives its host ("enchanted creature has
    '{B}: Regenerate this creature'", 613.1f); only an attachment gives any."""
    given = tuple(
        _ability(source, (*path, "grants-abilities", k), a)
        for k, a in enumerate(raw.get("grants-abilities", ()))
    )
    if given and raw.get("attachment", Attachment.NONE.value) == Attachment.NONE.value:
        raise source.error(
            (*path, "grants-abilities"),
            "only an Aura or Equipment gives its creature abilities (give attachment:)",
        )
    for k, a in enumerate(given):
        if a.kind is not AbilityKind.REGENERATE_SELF or a.opponent_only or a.granted:
            raise source.error(
                (*path, "grants-abilities", k),
                "an Aura or Equipment gives only regenerate-self (a rider allowed): "
                '"{cost}: Regenerate this creature"',
            )
    return given


def _animation(raw: Any) -> Animation | None:
    """An inline card's own animation: what it becomes (613.1d, 613.4b)."""
    if raw is None:
        return None
    return Animation(
        int(raw["power"]),
        int(raw["toughness"]),
        frozenset(Color(c) for c in raw.get("colors", ())),
    )


def _ability(source: Source, path: FieldPath, raw: Any) -> ActivatedAbility:
    """An activated ability as written in ``abilities`` (a word, or a mapping with its rider,
    who may activate it and its ``cost``)."""
    if isinstance(raw, str):
        return ActivatedAbility(AbilityKind(raw))
    kind = AbilityKind(raw["kind"])
    cost = [str(c) for c in raw.get("cost", ())]
    for part in cost:
        kinds = COST_KINDS[part]
        if kind not in kinds:
            raise source.error(
                (*path, "cost"),
                f"a {part} cost is run only on {' or '.join(k.value for k in kinds)}, "
                f"not on {kind.value}",
            )
    if "sacrifice-self" in cost and "sacrifice-creature" in cost:
        raise source.error(
            (*path, "cost"),
            "sacrifice-self and sacrifice-creature together are not run: give one of them",
        )
    return ActivatedAbility(
        kind,
        rider=Rider(raw.get("rider", Rider.NONE.value)),
        opponent_only=bool(raw.get("opponent-only", False)),
        granted=bool(raw.get("granted", False)),
        tap_cost="tap" in cost,
        sacrifice_cost="sacrifice-self" in cost,
        sacrifice_creature="sacrifice-creature" in cost,
    )


def reserved_handles() -> frozenset[str]:
    """Words a handle may not be: they mean something else in ``expect``, in divisions and
    in a graveyard (``MILLED``, a milled card)."""
    return frozenset({*expect_keys(), "player", MILLED})


def check_handles(source: Source, handles: tuple[str, ...], players: tuple[str, ...]) -> None:
    reserved = reserved_handles()
    for handle in handles:
        path: FieldPath = ("permanents", handle)
        if handle in reserved:
            raise source.error(
                path, f"{handle!r} is a reserved word in expectations; pick another handle"
            )
        if handle in players:
            raise source.error(
                path,
                f"{handle!r} is also a player's name; permanents and players need different names",
            )


def card_specs(names: Names, data: Mapping[str, Any]) -> list[CardSpec]:
    return [_card_spec(names, handle, raw) for handle, raw in data.items()]


def _card_spec(names: Names, handle: str, raw: Mapping[str, Any]) -> CardSpec:
    path: FieldPath = ("permanents", handle)
    template = names.template(handle)
    if "owner" not in raw and "controller" not in raw:
        raise names.error(path, "say who owns or controls it (owner: or controller:)")
    # Each defaults to the other; an error points at the field actually written.
    owner_key = "owner" if "owner" in raw else "controller"
    controller_key = "controller" if "controller" in raw else "owner"
    owner = names.player(raw[owner_key], (*path, owner_key))
    controller = names.player(raw[controller_key], (*path, controller_key))
    zone = Zone(raw.get("zone", Zone.BATTLEFIELD.value))
    if zone is not Zone.BATTLEFIELD:
        for key in BATTLEFIELD_ONLY:
            if key in raw:
                raise names.error(
                    (*path, key),
                    f"{handle} is in the {zone.value}; only a permanent on the battlefield can "
                    f"have {key.replace('-', ' ')}",
                )
        if controller != owner:
            raise names.error(
                (*path, "controller"),
                f"{handle} is in the {zone.value}: a card there is controlled by nobody",
            )
    can_be_creature = template.is_creature or template.animation is not None
    if raw.get("damage", 0) and not can_be_creature:
        raise names.error((*path, "damage"), f"{handle} is not a creature and can't have damage")
    if raw.get("animated", False) and template.animation is None:
        raise names.error(
            (*path, "animated"), f"{handle} has no animation of its own (it is not a manland)"
        )
    counters = raw.get("counters", {})
    attached = raw.get("attached-to")
    if attached is not None:
        attached = names.handle(attached, (*path, "attached-to"))
        if template.attachment is Attachment.NONE:
            raise names.error(
                (*path, "attached-to"), f"{handle} is neither an Aura nor an Equipment"
            )
        if attached == handle:
            raise names.error((*path, "attached-to"), f"{handle} can't be attached to itself")
        host = names.source.data["permanents"][attached]
        host_kind = names.template(attached).attachment
        if host_kind is not Attachment.NONE:
            # Our Auras enchant creatures (303.4) and Equipment equips creatures (301.5c): one
            # attached to another Aura or Equipment (or a cycle of them) is no legal board.
            raise names.error(
                (*path, "attached-to"),
                f"{attached} is an {host_kind.value.capitalize()}: an Aura or Equipment "
                "attaches to a creature, not to another Aura or Equipment (303.4, 301.5c)",
            )
        if host.get("zone", Zone.BATTLEFIELD.value) != Zone.BATTLEFIELD.value:
            raise names.error((*path, "attached-to"), f"{attached} is not on the battlefield")
    shields = tuple(
        _shield(names, s, controller, (*path, "shields", i))
        for i, s in enumerate(raw.get("shields", ()))
    )
    return CardSpec(
        handle=handle,
        template=template,
        owner=owner,
        controller=controller,
        zone=zone,
        tapped=bool(raw.get("tapped", False)),
        damage=int(raw.get("damage", 0)),
        plus=int(counters[CounterKind.PLUS.value]) if CounterKind.PLUS.value in counters else None,
        minus=int(counters.get(CounterKind.MINUS.value, 0)),
        shield_counters=int(counters.get(CounterKind.SHIELD.value, 0)),
        attached_to=attached,
        shields=shields,
        cant_regen=bool(raw.get("cant-be-regenerated", False)),
        deathtouched=bool(raw.get("deathtouched", False)),
        granted=frozenset(Keyword(k) for k in raw.get("granted-keywords", ())),
        sick=bool(raw.get("summoning-sick", False)),
        animated=bool(raw.get("animated", False)),
        noncreature=bool(raw.get("not-a-creature", False)),
        prevent_next=int(raw.get("prevent-next", 0)),
        prevent_all=bool(raw.get("prevent-all", False)),
        exile_if_dies=bool(raw.get("exile-if-dies", False)),
        remove_damage=int(raw.get("remove-damage-instead", 0)),
        phased_out=bool(raw.get("phased-out", False)),
    )


def _shield(names: Names, raw: Any, controller: int, path: FieldPath) -> Shield:
    if isinstance(raw, str):
        return Shield(origin=raw, creator=controller, rider=Rider.NONE)
    creator = controller
    if "creator" in raw:
        creator = names.player(raw["creator"], (*path, "creator"))
    return Shield(
        origin=str(raw["origin"]),
        creator=creator,
        rider=Rider(raw.get("rider", Rider.NONE.value)),
    )


def start_state(
    names: Names, data: Mapping[str, Any], players: tuple[Player, ...], edition: Edition
) -> GameState:
    turn = data.get("turn", {})
    path: FieldPath = ("turn",)
    active = names.player(turn.get("active", names.players[0]), (*path, "active"))
    priority = names.player(turn.get("priority", names.players[active]), (*path, "priority"))
    state = make_state(
        names.players,
        card_specs(names, data.get("permanents", {})),
        edition=edition,
        turn=int(turn.get("number", 1)),
        active=active,
        step=Step(turn.get("step", Step.MAIN1.value)),
        priority=priority,
    )
    # the graveyards are the board's (cards set up there), the rest is the players' entries
    return state._replace(
        players=tuple(
            p._replace(graveyard=b.graveyard) for p, b in zip(players, state.players, strict=True)
        )
    )
