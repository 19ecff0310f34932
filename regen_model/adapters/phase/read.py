"""Reading the observable projection back from a phase.rs game state.

Every field comes from one ``game.state()`` call (a few milliseconds; the state is a large
dict). The paths are documented in docs/phase-adapter.md. What phase.rs cannot tell us is left
out rather than derived: for example, while the first-strike and the regular combat damage step
are both called ``CombatDamage`` in phase.rs, the ``step`` of such a combat is not reported.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from regen_model.adapters.phase.board import MINUS, PHASE_TO_STEP, PLUS, SHIELD
from regen_model.adapters.phase.game import Json
from regen_model.adapters.phase.observation import Observation, damaged, destroyed, regenerated

_ZONES = {"Battlefield": "battlefield", "Graveyard": "graveyard", "Exile": "exile"}


def read_observation(
    st: Json,
    ids: Mapping[str, int],
    player_names: Sequence[str],
    raw_events: Iterable[Json],
    unobserved_events: frozenset[str] = frozenset(),
) -> Observation:
    """The projection of phase.rs state ``st`` (``game.state()["state"]``)."""
    combat = st.get("combat") or {}
    attackers = {int(a["object_id"]) for a in combat.get("attackers") or ()}
    blockers = {int(k) for k in (combat.get("blocker_to_attacker") or {})}
    cards: dict[str, dict[str, object]] = {}
    for handle, oid in ids.items():
        obj = st["objects"][str(oid)]
        zone = obj["zone"]
        if zone != "Battlefield":
            # Hand, Library or Stack cannot happen in the model; show them as they are.
            cards[handle] = {"zone": _ZONES.get(zone, zone.lower())}
            continue
        counters = obj.get("counters") or {}
        fields: dict[str, object] = {
            "zone": "battlefield",
            "controller": obj["controller"],
            "tapped": obj["tapped"],
            "damage": obj["damage_marked"],
            "plus_counters": counters.get(PLUS, 0),
            "minus_counters": counters.get(MINUS, 0),
            "shield_counters": counters.get(SHIELD, 0),
            "attacking": oid in attackers,
            "blocking": oid in blockers,
            "shields": unused_shields(obj),
        }
        if "Creature" in obj["card_types"]["core_types"]:
            fields["power"] = obj["power"]
            fields["toughness"] = obj["toughness"]
        cards[handle] = fields
    players = {
        name: {"life": p["life"], "poison": p["poison_counters"]}
        for name, p in zip(player_names, st["players"], strict=True)
    }
    return Observation(
        cards,
        players,
        tuple(map_events(raw_events, {oid: h for h, oid in ids.items()})),
        read_game(st),
        unobserved_events,
    )


def unused_shields(obj: Json) -> int:
    return sum(
        1
        for r in obj.get("replacement_definitions") or ()
        if r.get("shield_kind") == "Regeneration" and not r.get("is_consumed")
    )


def read_game(st: Json) -> dict[str, object]:
    """Turn, step, active player and priority holder, where phase.rs says them unambiguously."""
    game: dict[str, object] = {"turn": st["turn_number"], "active": st["active_player"]}
    waiting = st.get("waiting_for") or {}
    game["priority"] = st["priority_player"] if waiting.get("type") == "Priority" else None
    step = PHASE_TO_STEP.get(st["phase"])
    combat = st.get("combat") or {}
    first_strike = st["phase"] == "CombatDamage" and combat.get("first_strike_participants")
    if step is not None and not first_strike:
        game["step"] = step.value
    return game


def map_events(raw: Iterable[Json], handles: Mapping[int, str]) -> Iterable[str]:
    """phase.rs events about our cards, in our spelling.

    ``Regenerated`` is the only sign of regeneration: phase.rs also emits
    ``ReplacementApplied`` when a can't-be-regenerated destruction goes through.
    """
    for event in raw:
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "Regenerated" and data.get("object_id") in handles:
            yield regenerated(handles[data["object_id"]])
        elif kind == "CreatureDestroyed" and data.get("object_id") in handles:
            yield destroyed(handles[data["object_id"]])
        elif kind == "DamageDealt":
            target = (data.get("target") or {}).get("Object")
            if isinstance(target, int) and target in handles and data.get("amount"):
                yield damaged(handles[target], int(data["amount"]))
