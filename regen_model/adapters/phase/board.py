"""Putting one of our start states onto a phase.rs board.

phase.rs has no "create this board" call; a game starts from two decks and opening hands. The
quickest faithful route (found by our colleague's experiments, NOTES.md section 2) is: start a
game whose decks hold exactly the cards we need, keep both hands, switch on debug mode, then move
each card where it belongs with ``Debug`` actions, and finish with one state edit for what no
Debug action sets (marked damage, deathtouch marks, regeneration and prevention shields,
phasing, the turn number and priority). Cards the actions will cast wait in their owner's library (the "stock"), where they
affect nothing; library filler keeps both players from drawing from an empty library. The
model's library cards (a count per player, 121.1) are Islands on top of each library.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import phase

from regen_model.adapters.phase.carddata import FILLER, FILLER_COUNT, LIBRARY_CARD
from regen_model.adapters.phase.errors import AdapterError
from regen_model.adapters.phase.game import Json, PhaseGame
from regen_model.model.derived import controller
from regen_model.model.enums import Step, Zone
from regen_model.model.state import Card, GameState

SEED = 1

# Steps a scenario may start in: those with priority and no combat in progress.
STEP_TO_PHASE: dict[Step, str] = {
    Step.UPKEEP: "Upkeep",
    Step.DRAW: "Draw",
    Step.MAIN1: "PreCombatMain",
    Step.BEGIN_COMBAT: "BeginCombat",
    Step.END_COMBAT: "EndCombat",
    Step.MAIN2: "PostCombatMain",
    Step.END: "End",
}
PHASE_TO_STEP: dict[str, Step] = {
    "Untap": Step.UNTAP,
    "Upkeep": Step.UPKEEP,
    "Draw": Step.DRAW,
    "PreCombatMain": Step.MAIN1,
    "BeginCombat": Step.BEGIN_COMBAT,
    "DeclareAttackers": Step.DECLARE_ATTACKERS,
    "DeclareBlockers": Step.DECLARE_BLOCKERS,
    "CombatDamage": Step.COMBAT_DAMAGE,
    "EndCombat": Step.END_COMBAT,
    "PostCombatMain": Step.MAIN2,
    "End": Step.END,
    "Cleanup": Step.CLEANUP,
}
ZONE_TO_PHASE: dict[Zone, str] = {
    Zone.BATTLEFIELD: "Battlefield",
    Zone.GRAVEYARD: "Graveyard",
    Zone.EXILE: "Exile",
}

# Counter spellings on phase.rs objects. "shield" must be lower case: Debug ModifyCounters also
# accepts "Shield", but that makes a generic counter of the same printed name which phase.rs's
# damage and destruction code does not recognise (until the state is saved and reloaded).
PLUS, MINUS, SHIELD = "P1P1", "M1M1", "shield"

# A regeneration shield exactly as phase.rs writes it when "Regenerate target creature."
# resolves (test_phase_cards checks this against phase.rs's own output). A used shield stays in
# the list with "is_consumed": true until cleanup.
SHIELD_TEMPLATE: Json = {
    "event": "Destroy",
    "execute": None,
    "mode": {"type": "Mandatory"},
    "valid_card": {"type": "SelfRef"},
    "description": "Regenerate",
    "condition": None,
    "shield_kind": "Regeneration",
    "expiry": {"type": "EndOfTurn"},
    "origin": "Resolution",
}

# A prevention shield as phase.rs writes it (615.7, 615.1); ``shield_kind`` is filled in.
PREVENTION_TEMPLATE: Json = {
    "condition": None,
    "description": "Prevent damage",
    "event": "DamageDone",
    "execute": None,
    "expiry": {"type": "EndOfTurn"},
    "mode": {"type": "Mandatory"},
    "origin": "Resolution",
    "valid_card": {"type": "SelfRef"},
}

# "If it would die this turn, exile it instead" (614.6, 700.4) as phase.rs writes it on its
# target when Disintegrate (or Magma Spray) resolves: a replacement of the object's move to
# the graveyard by a move from the battlefield to exile, until end of turn, in both of its lists
# (tests/adapters/test_start_replacements.py checks this against phase.rs's own output);
# ``source_controller`` is filled in.
EXILE_TEMPLATE: Json = {
    "condition": None,
    "consume_on_apply": True,
    "description": None,
    "destination_zone": "Graveyard",
    "event": "Moved",
    "execute": {
        "condition": None,
        "cost": None,
        "description": None,
        "duration": None,
        "effect": {
            "destination": "Exile",
            "enter_tapped": False,
            "enter_transformed": False,
            "enters_attacking": False,
            "origin": "Battlefield",
            "owner_library": False,
            "target": {"type": "SelfRef"},
            "type": "ChangeZone",
        },
        "forward_result": False,
        "kind": "Spell",
        "optional": False,
        "optional_targeting": False,
        "sub_ability": None,
        "target_prompt": None,
    },
    "expiry": {"type": "EndOfTurn"},
    "mode": {"type": "Mandatory"},
    "valid_card": {"type": "SelfRef"},
}

Stock = Counter[tuple[int, str]]  # (owner seat, card name) -> copies waiting in the library


def build_board(
    engine: phase.Engine, state: GameState, stock: Stock, deadline: float | None
) -> tuple[PhaseGame, dict[str, int]]:
    """A phase.rs game showing ``state``; returns it and the object id of each card handle."""
    setup = state.setup
    decks: list[list[str]] = [[], []]
    for slot, template in enumerate(setup.templates):
        decks[setup.owners[slot]].append(template.name)
    for (seat, name), copies in sorted(stock.items()):
        decks[seat].extend([name] * copies)
    for seat, deck in enumerate(decks):
        deck.extend([LIBRARY_CARD.name] * state.players[seat].library)
        deck.extend([FILLER.name] * FILLER_COUNT)
    game = engine.new_game(player=decks[0], opponent=decks[1], seed=SEED, first_player=state.active)
    pg = PhaseGame(engine, game, deadline)
    for seat in (0, 1):
        pg.apply(seat, {"type": "MulliganDecision", "data": {"choice": {"type": "Keep"}}})
    pg.edit(lambda st: st.__setitem__("debug_mode", True))

    free: dict[tuple[int, str], list[int]] = {}
    for key, obj in sorted(pg.state()["objects"].items(), key=lambda kv: int(kv[0])):
        if obj["zone"] == "Hand":
            pg.debug("MoveToZone", object_id=int(key), to_zone="Library")
        free.setdefault((obj["owner"], obj["name"]), []).append(int(key))

    ids: dict[str, int] = {}
    for slot, card in enumerate(state.cards):
        handle, owner, name = setup.handles[slot], setup.owners[slot], setup.templates[slot].name
        pool = free.get((owner, name))
        if not pool:
            raise AdapterError(f"phase.rs did not create {name!r} for player {owner}")
        oid = ids[handle] = pool.pop(0)
        pg.debug("MoveToZone", object_id=oid, to_zone=ZONE_TO_PHASE[card.zone])
        if not card.in_battlefield_zone:  # a phased-out permanent is set up too (702.26d)
            continue
        if controller(card) != owner:
            pg.debug("SetController", object_id=oid, controller=controller(card))
        if card.tapped:
            pg.debug("SetTapped", object_id=oid, tapped=True)
        for kind, amount in (
            (PLUS, card.plus),
            (MINUS, card.minus),
            (SHIELD, card.shield_counters),
        ):
            if amount:
                pg.debug("ModifyCounters", object_id=oid, counter_type=kind, delta=amount)
        pg.debug("SetSummoningSickness", object_id=oid, sick=card.sick)
    for slot, card in enumerate(state.cards):
        if card.in_battlefield_zone and card.attached_to is not None:
            host = ids[setup.handles[card.attached_to]]
            attachment = ids[setup.handles[slot]]
            pg.debug("Attach", object_id=attachment, target={"type": "Object", "data": host})
    for seat, player in enumerate(state.players):
        if player.life != 20:
            pg.debug("SetLife", player_id=seat, life=player.life)
        if player.poison:
            pg.debug(
                "ModifyPlayerCounters", player_id=seat, counter_kind="Poison", delta=player.poison
            )
    pg.debug("SetPhase", phase=STEP_TO_PHASE[state.step], active_player=state.active)
    pg.edit(lambda st: _finish(st, state, ids))
    return pg, ids


def _finish(st: Json, state: GameState, ids: dict[str, int]) -> None:
    """What no Debug action sets: damage, deathtouch marks, shields, prevention effects,
    Disintegrate's exile replacement, phasing, turn number, priority, and the model's library
    cards on top of each library."""
    for slot, card in enumerate(state.cards):
        if not card.in_battlefield_zone:
            continue
        obj = st["objects"][str(ids[state.handle(slot)])]
        obj["damage_marked"] = card.damage
        obj["dealt_deathtouch_damage"] = card.deathtouched
        obj["replacement_definitions"] = list(obj["replacement_definitions"]) + [
            shield_definition(used=s.used) for s in card.shields
        ]
        if card.prevent_all:  # 615.1: "prevent all damage that would be dealt to it this turn"
            obj["replacement_definitions"].append(prevention_definition(None))
        if card.prevent_next:  # 615.7: what is left of "prevent the next N damage" shields
            obj["replacement_definitions"].append(prevention_definition(card.prevent_next))
        if card.exile_if_dies:  # 614.6: Disintegrate's effect, made earlier this turn
            # The start does not say who cast the spell that made it; the opponent of the
            # permanent's controller (Disintegrate's usual caster) is written. It decides
            # nothing here: the exile is mandatory and moves the permanent itself.
            exile = exile_definition(source_controller=1 - controller(card))
            for key in ("base_replacement_definitions", "replacement_definitions"):
                obj[key] = [*obj.get(key, []), exile]
        if card.phased_out is not None:
            obj["phase_status"] = phase_status(state, card)
    for player in st["players"]:
        player["library"] = library_on_top(st, player["library"])
    st["turn_number"] = state.turn
    if state.priority is not None and state.priority != state.active:
        # Supported only as "the active player has passed" (see support.py).
        set_priority(st, state.priority, [state.active])


def library_on_top(st: Json, library: list[Any]) -> list[Any]:
    """``library`` (object ids, the top first, as phase.rs lists it) with the model's library
    cards (``LIBRARY_CARD``) on top, the rest in its order below: a draw (121.1) takes one of
    them while there are any, as it takes one of the model's."""
    ours = [x for x in library if st["objects"][str(x)]["name"] == LIBRARY_CARD.name]
    return ours + [x for x in library if x not in ours]


def shield_definition(*, used: bool = False) -> Json:
    shield = dict(SHIELD_TEMPLATE)
    if used:
        shield["is_consumed"] = True
    return shield


def prevention_definition(amount: int | None) -> Json:
    """A prevention shield exactly as phase.rs writes it when Mending Hands (``amount``) or
    Shielded Passage (``None``: all damage) resolves (test_phase_cards checks this)."""
    shield = dict(PREVENTION_TEMPLATE)
    shield["shield_kind"] = {
        "Prevention": {"amount": "All" if amount is None else {"Next": amount}}
    }
    return shield


def exile_definition(*, source_controller: int) -> Json:
    """Disintegrate's "if it would die this turn, exile it instead" on its target, exactly as
    phase.rs writes it when the spell resolves (614.6; tests/adapters/test_start_replacements.py
    checks this)."""
    exile = dict(EXILE_TEMPLATE)
    exile["source_controller"] = source_controller
    return exile


def phase_status(state: GameState, card: Card) -> Json:
    """phase.rs's phasing status of a phased-out permanent (702.26b): an Aura or Equipment
    whose host phased out with it phased out indirectly (702.26g)."""
    host = None if card.attached_to is None else state.cards[card.attached_to]
    indirect = host is not None and host.phased_out is not None
    return {"status": "PhasedOut", "cause": "Indirectly" if indirect else "Directly"}


def set_priority(st: Json, seat: int, passes: list[int]) -> None:
    """Give ``seat`` priority with ``passes`` (the players who passed in succession)."""
    st["priority_player"] = seat
    st["priority_passes"] = list(passes)
    st["priority_pass_count"] = len(passes)
    st["waiting_for"] = {"type": "Priority", "data": {"player": seat}}


def priority_of(st: Json) -> tuple[int, list[int]]:
    passes: list[Any] = st["priority_passes"]
    return int(st["priority_player"]), [int(p) for p in passes]
