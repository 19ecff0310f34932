"""Reading the framework's observable projection (``conform.observe.Observation``) from phase.rs.

Every field comes from one ``game.state()`` call (a few milliseconds; the state is a large
dict). The paths are in the field-mapping table of docs/phase-adapter.md. What phase.rs cannot
tell us is left out rather than derived, because the framework compares only what is reported:
for example, phase.rs calls the first-strike and the regular combat damage step both
``CombatDamage``, so the ``step`` of such a combat is not reported.

Event kinds reported: ``regenerated``, ``destroyed``, ``damage`` and ``player-damage``
(``EVENT_KINDS``). A step whose damage the adapter wrote by a state edit (phase.rs then emits no
damage event) reports its observation without the damage kinds, so their absence is not taken
for a divergence.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from regen_model.adapters.phase.board import MINUS, PHASE_TO_STEP, PLUS, SHIELD
from regen_model.adapters.phase.carddata import LIBRARY_CARD
from regen_model.adapters.phase.game import Json
from regen_model.conform.observe import Groups, Observation, Value, make_groups
from regen_model.model.state import MILLED

REGENERATED, DESTROYED, DAMAGE, PLAYER_DAMAGE = (
    "regenerated",
    "destroyed",
    "damage",
    "player-damage",
)
EVENT_KINDS = frozenset({REGENERATED, DESTROYED, DAMAGE, PLAYER_DAMAGE})
DAMAGE_KINDS = frozenset({DAMAGE, PLAYER_DAMAGE})
_ZONES = {"Battlefield": "battlefield", "Graveyard": "graveyard", "Exile": "exile"}


def read_observation(
    st: Json,
    ids: Mapping[str, int],
    player_names: Sequence[str],
    raw_events: Iterable[Json],
    unobserved_kinds: frozenset[str] = frozenset(),
    spells: Mapping[int, str] | None = None,
    *,
    stack_left_out: int = 0,
) -> Observation:
    """The projection of phase.rs state ``st`` (``game.state()["state"]``) and the events of the
    step; ``unobserved_kinds`` are event kinds phase.rs could not report for this step.
    ``spells``: the spell cards our casts put on the stack, by object id, with the model's name
    (``Translator.spells``); without it the graveyards are not reported. ``stack_left_out``:
    objects on the stack the model does not have (``Translator.inert_on_stack``)."""
    combat = st.get("combat") or {}
    attackers = {int(a["object_id"]) for a in combat.get("attackers") or ()}
    blockers = {int(k) for k in (combat.get("blocker_to_attacker") or {})}
    cards: dict[str, dict[str, Value]] = {}
    for handle, oid in ids.items():
        obj = st["objects"][str(oid)]
        zone = obj["zone"]
        if zone != "Battlefield":
            # A new object (400.7): only the zone is compared. Hand, Library or Stack cannot
            # happen in the model; they are shown as they are, so they surface as a divergence.
            cards[handle] = {"zone": _ZONES.get(zone, str(zone).lower())}
            continue
        counters = obj.get("counters") or {}
        fields: dict[str, Value] = {
            "zone": "battlefield",
            "controller": player_names[int(obj["controller"])],
            "tapped": bool(obj["tapped"]),
            "damage": int(obj["damage_marked"]),
            "plus_counters": int(counters.get(PLUS, 0)),
            "minus_counters": int(counters.get(MINUS, 0)),
            "shield_counters": int(counters.get(SHIELD, 0)),
            "attacking": oid in attackers,
            "blocking": oid in blockers,
            "shields": unused_shields(obj),
        }
        if "Creature" in obj["card_types"]["core_types"]:
            fields["power"] = int(obj["power"])
            fields["toughness"] = int(obj["toughness"])
        cards[handle] = fields
    players: dict[str, dict[str, Value]] = {
        name: {
            "life": int(p["life"]),
            "poison": int(p["poison_counters"]),
            "hand": model_card_count(st, p["hand"]),
            "library": model_card_count(st, p["library"]),
        }
        for name, p in zip(player_names, st["players"], strict=True)
    }
    handles = {oid: h for h, oid in ids.items()}
    events = tuple(map_events(raw_events, handles, player_names))
    return Observation(
        cards,
        players,
        events,
        EVENT_KINDS - unobserved_kinds,
        read_game(st, player_names, stack_left_out),
        {} if spells is None else read_graveyards(st, handles, spells, player_names),
    )


def read_graveyards(
    st: Json, handles: Mapping[int, str], spells: Mapping[int, str], player_names: Sequence[str]
) -> dict[str, Groups]:
    """Each player's graveyard, bottom to top, one entry per group: phase.rs keeps a
    graveyard as an ordered list of object ids (``players[i].graveyard``, bottom first), so it
    vouches for the order (404.2). Our cards show as their handles, our casts' spell cards as
    the model's spell names (608.2n), one of the model's library cards
    (``carddata.LIBRARY_CARD``) as the model's milled card (``state.MILLED``: a mill is what
    puts one there, 701.17a, and the model's library cards have no names); the adapter's own
    cards are left out (library filler, also when a mill takes it from below the model's
    cards, 701.17b: the model's library held no more; harness spells standing for effects,
    copies stocked for casts not made), since the model has none of them."""
    out: dict[str, Groups] = {}
    for name, player in zip(player_names, st["players"], strict=True):
        entries = []
        for oid in player.get("graveyard") or ():
            entry = handles.get(int(oid)) or spells.get(int(oid))
            if entry is None and st["objects"][str(oid)]["name"] == LIBRARY_CARD.name:
                entry = MILLED
            if entry is not None:
                entries.append((str(entry),))
        out[name] = make_groups(entries)
    return out


def model_card_count(st: Json, zone: Iterable[object]) -> int:
    """How many of the model's library cards (``carddata.LIBRARY_CARD``) a hand or library
    (object ids) holds: the model keeps a hand and a library as counts (121.1), and the
    adapter's own cards there (library filler, the stock of spells to cast, a filler card
    drawn in a draw step, which the model does not make, 504.1) are left out as the
    graveyards leave them out."""
    return sum(1 for oid in zone if st["objects"][str(oid)]["name"] == LIBRARY_CARD.name)


def unused_shields(obj: Json) -> int:
    """Regeneration shields not used yet (a used one stays, marked ``is_consumed``)."""
    return sum(
        1
        for r in obj.get("replacement_definitions") or ()
        if r.get("shield_kind") == "Regeneration" and not r.get("is_consumed")
    )


def read_game(st: Json, player_names: Sequence[str], stack_left_out: int = 0) -> dict[str, Value]:
    """Turn, step, active player, priority holder and stack size, where phase.rs says them
    unambiguously (no step during a first-strike combat's damage, see the module docstring);
    the size without the ``stack_left_out`` objects the model does not have."""
    game: dict[str, Value] = {
        "turn": int(st["turn_number"]),
        "active": player_names[int(st["active_player"])],
        "stack": len(st.get("stack") or ()) - stack_left_out,
    }
    waiting = st.get("waiting_for") or {}
    holder = st.get("priority_player")
    game["priority"] = (
        player_names[int(holder)]
        if waiting.get("type") == "Priority" and holder is not None
        else None
    )
    step = PHASE_TO_STEP.get(st["phase"])
    combat = st.get("combat") or {}
    first_strike = st["phase"] == "CombatDamage" and combat.get("first_strike_participants")
    if step is not None and not first_strike:
        game["step"] = step.value
    return game


def map_events(
    raw: Iterable[Json], handles: Mapping[int, str], player_names: Sequence[str]
) -> Iterable[str]:
    """phase.rs events about our cards and players, as the framework's tokens.

    ``Regenerated`` is the only sign of regeneration: phase.rs also emits
    ``ReplacementApplied`` when a can't-be-regenerated destruction goes through.
    """
    for event in raw:
        kind, data = event.get("type"), event.get("data") or {}
        if kind == "Regenerated" and data.get("object_id") in handles:
            yield f"{REGENERATED}:{handles[data['object_id']]}"
        elif kind == "CreatureDestroyed" and data.get("object_id") in handles:
            yield f"{DESTROYED}:{handles[data['object_id']]}"
        elif kind == "DamageDealt" and data.get("amount"):
            target = data.get("target") or {}
            obj, seat = target.get("Object"), target.get("Player")
            if isinstance(obj, int) and obj in handles:
                yield f"{DAMAGE}:{handles[obj]}:{int(data['amount'])}"
            elif isinstance(seat, int) and 0 <= seat < len(player_names):
                yield f"{PLAYER_DAMAGE}:{player_names[seat]}:{int(data['amount'])}"
