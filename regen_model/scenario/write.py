"""Writing a start and a list of actions as a scenario file (docs/scenarios.md).

The inverse of the loader, for people: a failing example found by Hypothesis, a shrunk
divergence or a counterexample reads best as the scenario someone would have written by hand,
a dozen lines of YAML that ``regen-model run`` plays and a test suite can keep, rather than the
repr of the dataclasses. ``scenario_document`` builds the document (events in the scenario
vocabulary, ``choices`` where a 616.1 answer was given, ``expect`` where the caller wants a
field checked); ``scenario_yaml`` prints it. A start or action the format cannot say (a card
whose printed characteristics have no scenario field) raises ``NotWritable``.

The loader reads back what this writes: ``tests/test_scenario_write.py`` loads the text of
random cases and checks that it builds the same start and steps the same actions.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.scalarstring import FoldedScalarString

from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, ActivatedAbility, CardTemplate
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.enums import Attachment, CounterKind, Edition, Rider, Step, Zone
from regen_model.model.state import GameState


class NotWritable(ValueError):
    """The scenario format has no way to say this start or action."""


def scenario_document(
    name: str,
    description: str,
    players: Sequence[str],
    cards: Sequence[CardSpec],
    actions: Sequence[A.Action],
    *,
    edition: Edition = Edition.FDN,
    turn: int = 1,
    active: int = 0,
    step: Step = Step.MAIN1,
    priority: int | None = 0,
    life: Sequence[int] = (20, 20),
    library: Sequence[int] = (0, 0),
    expect: Mapping[int, Mapping[str, Any]] | None = None,
    clauses: Sequence[str] = (),
) -> dict[str, Any]:
    """The scenario as a mapping, in the file's key order. ``expect[i]`` is the expectation
    written under the ``i``-th action (from 0)."""
    doc: dict[str, Any] = {"name": name, "description": _folded(description)}
    if edition is not Edition.FDN:
        doc["edition"] = edition.value
    if clauses:
        doc["clauses"] = _flow(list(clauses))
    doc["players"] = _flow([_player(n, life[i], library[i]) for i, n in enumerate(players)])
    position: dict[str, Any] = {}
    if turn != 1:
        position["number"] = turn
    if active != 0:
        position["active"] = players[active]
    if step is not Step.MAIN1:
        position["step"] = step.value
    if priority != active:
        if priority is None:
            raise NotWritable("a start where nobody holds priority")
        position["priority"] = players[priority]
    if position:
        doc["turn"] = _flow(position)
    doc["permanents"] = {c.handle: _flow(_permanent(c, players)) for c in cards}
    events = []
    for i, action in enumerate(actions):
        event = _event(action, players)
        if expect and i in expect:
            event["expect"] = {k: _flow(dict(v)) for k, v in expect[i].items()}
        events.append(event)
    doc["events"] = events
    return doc


def _player(name: str, life: int, library: int) -> Any:
    """A player of the setup: a bare name at 20 life with an empty library (121.1)."""
    if life == 20 and not library:
        return name
    out: dict[str, Any] = {"name": name}
    if life != 20:
        out["life"] = life
    if library:
        out["library"] = library
    return _flow(out)


def graveyard_expect(state: GameState, player: int) -> list[Any]:
    """A player's graveyard as a scenario expectation (``players: {A: {graveyard: ...}}``),
    bottom to top: a card's handle or a spell's name, and a list for cards put there at the
    same time (404.3), so an expectation written from a run reads back as the same probe."""
    out: list[Any] = []
    for group in state.players[player].graveyard:
        names = [state.handle(x) if isinstance(x, int) else x for x in group]
        out.append(names[0] if len(names) == 1 else _flow(sorted(names)))
    return out


def scenario_yaml(doc: Mapping[str, Any]) -> str:
    """The document as YAML: one line per permanent, event and expectation."""
    yaml = YAML(typ="rt")
    yaml.width = 4096  # a permanent, an event, an expectation: one line each, never broken
    yaml.indent(mapping=2, sequence=4, offset=2)
    out = io.StringIO()
    yaml.dump(_commented(doc), out)
    return out.getvalue()


def _folded(text: str, width: int = 92) -> Any:
    """Long text as a folded block (``description: >``), wrapped as people write it."""
    text = " ".join(text.split())
    folded = FoldedScalarString(text + "\n")
    folds, start = [], 0
    while len(text) - start > width:
        cut = text.rfind(" ", start, start + width)
        if cut <= start:
            break
        folds.append(cut)
        start = cut + 1
    folded.fold_pos = folds
    return folded


def _flow(value: Any) -> Any:
    """A mapping or list written on one line (``{card: Horned Troll, owner: A}``)."""
    if isinstance(value, dict):
        m = CommentedMap(value)
        m.fa.set_flow_style()
        return m
    if isinstance(value, list):
        s = CommentedSeq(value)
        s.fa.set_flow_style()
        return s
    return value


def _commented(value: Any) -> Any:
    if isinstance(value, CommentedMap | CommentedSeq):
        return value
    if isinstance(value, dict):
        return CommentedMap({k: _commented(v) for k, v in value.items()})
    if isinstance(value, list):
        return CommentedSeq([_commented(v) for v in value])
    return value


# --- permanents -----------------------------------------------------------------------------------


def _permanent(c: CardSpec, players: Sequence[str]) -> dict[str, Any]:
    out: dict[str, Any] = _card(c.template)
    out["owner"] = players[c.owner]
    if c.controller is not None and c.controller != c.owner:
        out["controller"] = players[c.controller]
    if c.zone is not Zone.BATTLEFIELD:
        out["zone"] = c.zone.value
    if c.tapped:
        out["tapped"] = True
    if c.damage:
        out["damage"] = c.damage
    counters = {
        k.value: n
        for k, n in (
            (CounterKind.PLUS, c.plus),
            (CounterKind.MINUS, c.minus),
            (CounterKind.SHIELD, c.shield_counters),
        )
        if n
    }
    if not c.plus and c.zone is Zone.BATTLEFIELD and c.template.enters_plus:
        counters = {CounterKind.PLUS.value: 0, **counters}  # not the ones it enters with
    if counters:
        out["counters"] = _flow(counters)
    if c.attached_to is not None:
        out["attached-to"] = c.attached_to
    if c.shields:
        creator = c.owner if c.controller is None else c.controller
        out["shields"] = _flow([_shield(s, creator, players) for s in c.shields])
    if c.cant_regen:
        out["cant-be-regenerated"] = True
    if c.granted:
        out["granted-keywords"] = _flow(sorted(k.value for k in c.granted))
    if c.deathtouched:
        out["deathtouched"] = True
    if c.sick:
        out["summoning-sick"] = True
    if c.animated:
        out["animated"] = True
    if c.noncreature:
        out["not-a-creature"] = True
    if c.prevent_next:
        out["prevent-next"] = c.prevent_next
    if c.prevent_all:
        out["prevent-all"] = True
    if c.exile_if_dies:
        out["exile-if-dies"] = True
    if c.remove_damage:
        out["remove-damage-instead"] = c.remove_damage
    if c.phased_out:
        out["phased-out"] = True
    return out


def _shield(s: Any, creator: int, players: Sequence[str]) -> Any:
    if s.used:
        raise NotWritable("a used shield at the start")
    if s.rider is Rider.NONE and s.creator == creator:
        return s.origin
    out: dict[str, Any] = {"origin": s.origin}
    if s.rider is not Rider.NONE:
        out["rider"] = s.rider.value
    if s.creator != creator:
        out["creator"] = players[s.creator]
    return _flow(out)


def _card(t: CardTemplate) -> dict[str, Any]:
    """A built-in card by name, or an inline definition of its printed characteristics."""
    if PERMANENT_CARDS.get(t.name) == t:
        return {"card": t.name}
    out: dict[str, Any] = {"name": t.name, "types": _flow(sorted(x.value for x in t.types))}
    if t.is_creature:
        out["power"], out["toughness"] = t.power, t.toughness
    if t.keywords:
        out["keywords"] = _flow(sorted(k.value for k in t.keywords))
    if t.static_regeneration:
        out["static-regeneration"] = True
    if t.extra_block:
        out["extra-block"] = True
    if t.abilities:
        out["abilities"] = _abilities(t.abilities)
    if t.damage_trigger is not None:
        trigger: dict[str, Any] = {"effect": t.damage_trigger.effect.value}
        if t.damage_trigger.combat_only:
            trigger["combat-only"] = True
        out["damage-trigger"] = _flow(trigger)
    if t.dies_life:
        out["dies-life"] = t.dies_life
    if t.tapped_opponent_life:
        out["tapped-opponent-life"] = t.tapped_opponent_life
    if t.dies_drain:
        out["dies-drain"] = _flow({"watch": t.dies_watch.value, "life": t.dies_drain})
    if t.dies_draw:
        out["dies-draw"] = _flow({"watch": t.dies_watch.value, "cards": t.dies_draw})
    if t.end_step_reflexive:
        out["end-step-reflexive"] = True
    if t.shrine:
        out["shrine"] = True
    if t.merfolk:
        out["merfolk"] = True
    if t.tapped_watch_life:
        out["tapped-watch-life"] = t.tapped_watch_life
    if t.enters_plus:
        out["enters-with-plus-counters"] = t.enters_plus
    if t.destroys_combatants:
        out["destroys-combatants"] = True
    if t.wall:
        out["wall"] = True
    if t.animation is not None:
        out["animation"] = _flow(
            {
                "power": t.animation.power,
                "toughness": t.animation.toughness,
                **(
                    {"colors": _flow(sorted(c.value for c in t.animation.colors))}
                    if t.animation.colors
                    else {}
                ),
            }
        )
    if t.attachment is not Attachment.NONE:
        out["attachment"] = t.attachment.value
        out["attach-bonus"] = _flow({"power": t.attach_bonus[0], "toughness": t.attach_bonus[1]})
    if t.grants:
        out["grants"] = _flow(sorted(k.value for k in t.grants))
    if t.grants_abilities:
        out["grants-abilities"] = _abilities(t.grants_abilities)
    return out


def _abilities(abilities: Sequence[ActivatedAbility]) -> Any:
    return _flow([_ability(a) for a in abilities])


def _ability(a: ActivatedAbility) -> Any:
    """An ability as a word, or as a mapping when it has a rider, an activation restriction,
    an animation condition or a cost (``cards.COST_KINDS``)."""
    cost = list(a.costs)
    if a.rider is Rider.NONE and not a.opponent_only and not a.granted and not cost:
        return a.kind.value
    return _flow(
        {
            "kind": a.kind.value,
            **({"rider": a.rider.value} if a.rider is not Rider.NONE else {}),
            **({"opponent-only": True} if a.opponent_only else {}),
            **({"granted": True} if a.granted else {}),
            **({"cost": _flow(cost)} if cost else {}),
        }
    )


# --- events -----------------------------------------------------------------------------------------


def _event(action: A.Action, players: Sequence[str]) -> dict[str, Any]:
    kind, args = _args(action, players)
    event: dict[str, Any] = {kind: args}
    if action.choices:
        event["choices"] = _flow(
            [
                _flow({"permanent": c.permanent, "by": players[c.by], "use": c.use})
                for c in action.choices
            ]
        )
    return event


def _args(action: A.Action, players: Sequence[str]) -> tuple[str, Any]:
    """The event kind and its arguments (the inverse of ``parse_events.PARSERS``)."""
    p = players
    if isinstance(action, A.CreateShield):
        if (
            action.origin == "regeneration shield"
            and action.rider is Rider.NONE
            and action.creator is None
        ):
            return "create-shield", action.target
        out: dict[str, Any] = {"target": action.target, "origin": action.origin}
        if action.rider is not Rider.NONE:
            out["rider"] = action.rider.value
        if action.creator is not None:
            out["creator"] = p[action.creator]
        return "create-shield", _flow(out)
    if isinstance(action, A.DealDamage):
        return "deal-damage", _flow(_damage(action, p))
    if isinstance(action, A.Destroy):
        targets = _flow(list(action.targets))
        if action.cant_be_regenerated:
            return "destroy", _flow({"targets": targets, "cant-be-regenerated": True})
        return "destroy", targets
    for cls in (A.Sacrifice, A.Exile, A.LeaveAndReturn, A.MakeUnregenerable):
        if isinstance(action, cls):
            return action.kind, action.target
    if isinstance(action, A.ChangeControl):
        out = {"target": action.target, "player": p[action.player]}
        if action.until_end_of_turn:
            out["until-end-of-turn"] = True
        return "change-control", _flow(out)
    if isinstance(action, A.ModifyPowerToughness):
        return "modify-pt", _flow(
            {"target": action.target, "power": action.power, "toughness": action.toughness}
        )
    if isinstance(action, A.AddCounters):
        return "add-counters", _flow(
            {"target": action.target, "counter": action.counter.value, "amount": action.amount}
        )
    if isinstance(action, A.GrantKeyword):
        out = {"target": action.target, "keyword": action.keyword.value}
        if action.remove:
            out["remove"] = True
        return "grant-keyword", _flow(out)
    if isinstance(action, A.ChangeType):
        return "change-type", _flow({"target": action.target, "creature": action.creature})
    if isinstance(action, A.CheckStateBasedActions | A.Cleanup):
        return action.kind, None
    if isinstance(action, A.PassPriority):
        if action.decline or action.target is not None:
            out = {"player": p[action.player]}
            if action.decline:
                out["decline"] = True
            if action.target is not None:
                out["target"] = action.target
            return "pass", _flow(out)
        return "pass", p[action.player]
    if isinstance(action, A.CastSpell):
        return "cast", _flow(_cast(action, p))
    if isinstance(action, A.ActivateAbility):
        out = {"player": p[action.player], "source": action.source}
        if action.ability:
            out["ability"] = action.ability
        if action.target is not None:
            out["target"] = action.target
        if action.sacrifice is not None:
            out["sacrifice"] = action.sacrifice
        return "activate", _flow(out)
    if isinstance(action, A.Attach):
        return "attach", _flow({"attachment": action.attachment, "to": action.target})
    if isinstance(action, A.DeclareAttackers):
        return "declare-attackers", _flow(
            {"player": p[action.player], "attackers": _flow(list(action.attackers))}
        )
    if isinstance(action, A.DeclareBlockers):
        return "declare-blockers", _flow(
            {"player": p[action.player], "blocks": _flow(_blocks(action.blocks))}
        )
    if isinstance(action, A.OrderBlockers):
        return "order-blockers", _flow(
            {
                "player": p[action.player],
                "attacker": action.attacker,
                "order": _flow(list(action.order)),
            }
        )
    if isinstance(action, A.AssignCombatDamage):
        divisions = {d.attacker: _flow(dict(d.shares)) for d in action.divisions}
        return "assign-combat-damage", _flow(
            {"player": p[action.player], "divisions": _flow(divisions)}
        )
    raise NotWritable(f"no scenario event for {action.kind!r}")  # pragma: no cover


def _damage(action: A.DealDamage, p: Sequence[str]) -> dict[str, Any]:
    names = [s.card if s.card is not None else p[s.player or 0] for s in action.shares]
    if len(set(names)) != len(names):
        raise NotWritable("damage dealt twice to one recipient in one event")
    out: dict[str, Any] = {"source": action.source}
    if len(names) == 1:
        out["to"], out["amount"] = names[0], action.shares[0].amount
    else:
        out["to"] = _flow({n: s.amount for n, s in zip(names, action.shares, strict=True)})
    if action.keywords:
        out["keywords"] = _flow(sorted(k.value for k in action.keywords))
    if action.controller is not None:
        out["controller"] = p[action.controller]
    if action.combat:
        out["combat"] = True
    if action.cant_regen:
        out["cant-be-regenerated-this-turn"] = True
    return out


def _cast(action: A.CastSpell, p: Sequence[str]) -> dict[str, Any]:
    builtin = SPELLS.get(action.name)
    out: dict[str, Any] = {"player": p[action.player]}
    if (
        builtin is not None
        and builtin.effect == action.effect
        and builtin.sorcery == action.sorcery
    ):
        out["spell"] = action.name
    else:
        out["spell"] = _flow(
            _spell(action.name, action.effect, action.sorcery, bool(action.targets))
        )
    if action.targets:
        out["targets"] = _flow([_target(t, p) for t in action.targets])
    return out


def _target(t: A.TargetChoice, p: Sequence[str]) -> str | int:
    """A cast's target as the file writes it: a handle, a player's name, or the stack
    position of a spell (an integer, 0 the bottom)."""
    if t.spell is not None:
        return t.spell
    return t.card if t.card is not None else p[t.player or 0]


def _spell(name: str, e: Effect, sorcery: bool, targeted: bool) -> dict[str, Any]:
    """An inline spell: its effect and the fields that mean something for it."""
    if name in SPELLS:
        raise NotWritable(f"a spell named {name!r} that is not the built-in one")
    out: dict[str, Any] = {"name": name, "effect": e.kind.value}
    k = e.kind
    if k in (
        EffectKind.DAMAGE,
        EffectKind.DAMAGE_EACH_CREATURE,
        EffectKind.COUNTERS,
        EffectKind.PREVENT,
        EffectKind.MILL,
    ):
        out["amount"] = e.amount
    if k is EffectKind.MILL and e.draw:
        out["draw"] = e.draw  # Thought Scour's "Draw a card." after the mill
    if k is EffectKind.PUMP:
        out["power"], out["toughness"] = e.power, e.toughness
    if e.keywords:
        out["keywords"] = _flow(sorted(x.value for x in e.keywords))
    if e.cant_regen:
        out["cant-be-regenerated"] = True
    if e.cant_regen_target:
        out["target-cant-be-regenerated"] = True
    if e.exile_if_dies:
        out["exile-if-dies"] = True
    if k is EffectKind.DESTROY_ALL_CREATURES and e.amount:
        out["life-for-each-destroyed"] = e.amount
    if e.rider is not Rider.NONE:
        out["rider"] = e.rider.value
    if k is EffectKind.COUNTERS:
        out["counter"] = e.counter.value
    if e.until_end_of_turn:
        out["until-end-of-turn"] = True
    if sorcery:
        out["sorcery"] = True
    if targeted and k in (EffectKind.DAMAGE_EACH_CREATURE, EffectKind.DESTROY_ALL_CREATURES):
        raise NotWritable("a targeted board-wide spell")
    return out


def _blocks(pairs: tuple[tuple[str, str], ...]) -> dict[str, Any]:
    """Blocker to attacker, or to the list of its two attackers for a creature that can block
    an additional creature (509.1a)."""
    out: dict[str, Any] = {}
    for b, a in pairs:
        if b in out:
            first = out[b]
            out[b] = _flow([*(first if isinstance(first, list) else [first]), a])
        else:
            out[b] = a
    return out
