"""Setting up a python-mtg game from one of our states, and reading its state back.

python-mtg keeps a game as a dict of relations (sets of tuples: ``on_battlefield``,
``printed_control``, ``tapped``, ``counter``...) that its Datalog rules derive from, and builds
real cards from its Oracle corpus (``bridge_to_engine.make_state``). The adapter builds the
board through that same call, so every card is python-mtg's own reading of the Oracle text,
then writes the state the model's start has on top (tapped, counters, a shield, "can't be
regenerated", life, the turn position). Nothing of our rules goes in: a field python-mtg has
no relation for is declared lacking (``adapter.LACKS``) instead.

Field mapping (docs/python-mtg-report.md has the same table):

| projection | python-mtg |
|---|---|
| ``zone`` | ``on_battlefield`` / ``graveyard`` / ``exile`` |
| ``controller`` | the derived ``controls`` relation |
| ``tapped`` | ``tapped`` |
| ``damage`` | not observed: python-mtg marks no damage (lethality is decided as it is dealt) |
| ``plus_counters``, ``minus_counters`` | ``counter`` rows ``(id, "p1p1"/"m1m1", n)`` |
| ``power``, ``toughness`` | the derived ``power`` and ``eff_toughness`` |
| ``attacking``, ``blocking`` | ``attacks`` rows ``(attacker, player)``, ``blocks`` rows ``(blocker, attacker)`` |
| ``shields`` | 1 if in ``_regen_shield`` (one shield at most: a set of ids), else 0 |
| ``unregenerable`` | in ``cant_be_regenerated`` |
| players' ``life`` | ``life`` |
| players' ``hand``, ``library`` | not observed: the one draw the model makes is Fecundity's (121.1), whose trigger python-mtg is declared to lack (``LACKS``: triggers, ``DIES_FEATURES``), so inside its features the model's sizes stay the start's and a read would compare nothing that can differ; and its own draw step draws (504.1, which the model leaves out) from the ``LIBRARY`` cards the adapter gives each player so that nobody decks |
| players' ``graveyard`` | not observed: ``graveyard`` is one set of ids for both players (no owner, no order, 404.2), and ``resync`` writes only our cards' zones into it, so the spell cards there (608.2n) would not survive a resync |
| ``game.active`` | ``active_player`` |
| events, priority, stack, step | not observed (python-mtg has no priority or stack; its step is moved by the adapter) |
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from regen_model.conform.observe import Observation, Value
from regen_model.model.derived import controller
from regen_model.model.enums import CounterKind, Keyword, Step, Zone
from regen_model.model.state import Card, GameState

PmState = dict[str, Any]

# Our steps and python-mtg's (it has no separate first-strike damage step).
STEP_NAMES: dict[Step, str] = {
    Step.UNTAP: "untap",
    Step.UPKEEP: "upkeep",
    Step.DRAW: "draw",
    Step.MAIN1: "precombat_main",
    Step.BEGIN_COMBAT: "beginning_of_combat",
    Step.DECLARE_ATTACKERS: "declare_attackers",
    Step.DECLARE_BLOCKERS: "declare_blockers",
    Step.FIRST_STRIKE_DAMAGE: "combat_damage",
    Step.COMBAT_DAMAGE: "combat_damage",
    Step.END_COMBAT: "end_of_combat",
    Step.MAIN2: "postcombat_main",
    Step.END: "end",
    Step.CLEANUP: "cleanup",
}
STEP_ORDER = list(dict.fromkeys(STEP_NAMES.values()))
COUNTERS = {CounterKind.PLUS: "p1p1", CounterKind.MINUS: "m1m1"}
KEYWORDS = {k: k.value.replace("-", "_") for k in Keyword}
LIBRARY = 60  # cards per library: python-mtg's draw step draws, and an empty library loses
MANA = 99  # mana available to each player: costs are not what is checked here


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """python-mtg narrates every step on stdout; the adapter keeps the output for errors."""
    with contextlib.redirect_stdout(io.StringIO()):
        yield


@dataclass
class Board:
    """A python-mtg state with the ids of our cards (handle -> python-mtg id) and the spells
    held in reserve for casting (``(player, spell name)`` -> ids not yet used)."""

    state: PmState
    ids: dict[str, str]
    reserve: dict[tuple[str, str], list[str]]


def build(state: GameState, spells: Sequence[tuple[int, str]]) -> Board:
    """python-mtg's game for our ``state``; ``spells``: (player, spell name) it will cast."""
    from mtg import bridge_to_engine
    from mtg._text import slug

    from regen_model.adapters.python_mtg.corpus import warm

    warm()  # our cards' records from the disk cache, not python-mtg's five-second parse
    names = state.setup.player_names
    boards: dict[str, dict[str, Any]] = {p: {"battlefield": [], "hand": []} for p in names}
    order: list[tuple[str, str]] = []  # (kind, key) in placement order, to recover the ids
    for card in state.cards:
        who = names[state.setup.owners[card.slot]]
        boards[who]["battlefield"].append(state.setup.templates[card.slot].name)
    for p in names:
        for card in state.cards:
            if names[state.setup.owners[card.slot]] == p:
                order.append(("card", state.setup.handles[card.slot]))
        for seat, spell in spells:
            if names[seat] == p:
                boards[p]["hand"].append(spell)
                order.append(("spell", f"{p}\t{spell}"))
        boards[p]["library"] = 0
        boards[p]["mana"] = MANA
    with quiet():
        pm = bridge_to_engine.make_state(boards, life=20)
    ids: dict[str, str] = {}
    reserve: dict[tuple[str, str], list[str]] = {}
    n = 0
    for p in names:  # make_state places battlefield cards, then the hand, player by player
        mine = [k for k in order if k[0] == "card" and _owner(state, k[1]) == p]
        held = [k for k in order if k[0] == "spell" and k[1].split("\t")[0] == p]
        for _, handle in mine:
            template = state.setup.templates[state.setup.slot_of(handle)]
            ids[handle] = f"{slug(template.name)}_{n}"
            n += 1
        for _, key in held:
            who, spell = key.split("\t")
            reserve.setdefault((who, spell), []).append(f"{slug(spell)}_{n}")
            n += 1
    # Held spells wait outside every zone (python-mtg's players would otherwise cast them on
    # their own, in its automatic response windows); one goes to its caster's hand to be cast.
    pm["in_hand"] = set()
    for p in names:
        pm["in_library"] = pm.get("in_library", set()) | {
            (p, f"{p}_lib{i}") for i in range(LIBRARY)
        }
    board = Board(pm, ids, reserve)
    write_state(board, state)
    return board


def _owner(state: GameState, handle: str) -> str:
    return state.setup.player_names[state.setup.owners[state.setup.slot_of(handle)]]


def write_state(board: Board, state: GameState, *, position: bool = True) -> None:
    """Put our ``state``'s fields into python-mtg's relations (the board already has the cards:
    ``build``, or a resync to the specification's state in the middle of a case). Without
    ``position`` the turn position is left alone: in a resync python-mtg's driver stays where
    the adapter moved it (after a declaration it is already past the declaring step)."""
    pm, ids = board.state, board.ids
    names = state.setup.player_names
    if position:
        pm["current_step"] = {(STEP_NAMES[state.step],)}
        pm["active_player"] = {(names[state.active],)}
        pm["_turn"] = state.turn - 1
    pm["life"] = {(names[i], p.life) for i, p in enumerate(state.players)}
    for rel in ("on_battlefield", "graveyard", "exile", "tapped", "counter", "attacks", "blocks"):
        pm[rel] = {row for row in pm.get(rel, set()) if not _mentions(row, ids.values())}
    _clear_effects(pm, ids.values())
    pm["_regen_shield"] = set()
    pm["cant_be_regenerated"] = set()
    pm["printed_control"] = {
        row for row in pm.get("printed_control", set()) if row[1] not in ids.values()
    }
    for card in state.cards:
        handle = state.setup.handles[card.slot]
        tid = ids[handle]
        pm["printed_control"].add((names[controller(card)], tid))
        zone = {Zone.BATTLEFIELD: "on_battlefield", Zone.GRAVEYARD: "graveyard"}.get(
            card.zone, "exile"
        )
        pm[zone].add((tid,))
        if not card.on_battlefield:
            continue
        if card.tapped:
            pm["tapped"].add((tid,))
        for kind, n in ((CounterKind.PLUS, card.plus), (CounterKind.MINUS, card.minus)):
            if n:
                pm["counter"].add((tid, COUNTERS[kind], n))
        if card.active_shields:
            pm["_regen_shield"].add((tid,))
        if card.cant_regen:
            pm["cant_be_regenerated"].add((tid,))
        if card.attacking:
            pm["attacks"].add((tid, names[state.defending]))
        if card.blocking is not None:
            pm["blocks"].add((tid, ids[state.setup.handles[card.blocking]]))
        _write_effects(pm, tid, card)


# python-mtg's until-end-of-turn effects on a card, rows ``(effect id, card id, value)``: what
# a resync rewrites from our state (``_clear_effects``, ``_write_effects``)
EFFECTS = ("eff_grant_keyword", "eff_remove_keyword", "eff_mod_power", "eff_mod_toughness")


def _clear_effects(pm: PmState, ids: Iterable[str]) -> None:
    """Drop every effect row naming one of our cards (and its end-of-turn mark). Our state says
    which effects a card has now: after a zone change (a flicker, 400.7) it is a new object the
    old one's effects no longer touch, and a resync must not leave python-mtg's rows for the
    old one in place (a granted indestructible would outlive the flicker)."""
    known = set(ids)
    gone: set[str] = set()
    for rel in EFFECTS:
        rows = pm.get(rel, set())
        gone.update(row[0] for row in rows if row[1] in known)
        pm[rel] = {row for row in rows if row[1] not in known}
    pm["until_eot"] = {row for row in pm.get("until_eot", set()) if row[0] not in gone}


def _write_effects(pm: PmState, tid: str, card: Card) -> None:
    """The until-end-of-turn effects our ``card`` has, as python-mtg's rows: each granted and
    each removed keyword, and the P/T change as one +X/+Y (611.2)."""
    rows: list[tuple[str, str, tuple[str, str, object]]] = []
    for kw in sorted(card.kw_granted):
        eid = f"setup__kw__{KEYWORDS[kw]}__{tid}"
        rows.append((eid, "eff_grant_keyword", (eid, tid, KEYWORDS[kw])))
    for kw in sorted(card.kw_removed):
        eid = f"setup__nokw__{KEYWORDS[kw]}__{tid}"
        rows.append((eid, "eff_remove_keyword", (eid, tid, KEYWORDS[kw])))
    if card.power_eot or card.toughness_eot:
        eid = f"setup__pt__{tid}"
        rows.append((eid, "eff_mod_power", (eid, tid, card.power_eot)))
        rows.append((eid, "eff_mod_toughness", (eid, tid, card.toughness_eot)))
    for eid, rel, row in rows:
        pm.setdefault(rel, set()).add(row)
        pm.setdefault("until_eot", set()).add((eid,))


def _mentions(row: tuple[object, ...], ids: Any) -> bool:
    known = set(ids)
    return any(isinstance(x, str) and x in known for x in row)


def read(board: Board, state: GameState) -> Observation:
    """What python-mtg shows, in the projection's terms (the table in the module docstring)."""
    from mtg import driver

    pm, ids = board.state, board.ids
    names = state.setup.player_names
    with quiet():
        out = driver.run(pm, ["controls", "power", "eff_toughness", "creature"])
    controls = {c: p for (p, c) in out["controls"]}
    powers = {c: int(v) for (c, v) in out["power"]}
    tough = {c: int(v) for (c, v) in out["eff_toughness"]}
    creatures = {c for (c,) in out["creature"]}
    counters: dict[tuple[str, str], int] = {(o, k): int(n) for (o, k, n) in pm.get("counter", ())}
    attacking = {row[0] for row in pm.get("attacks", ())}
    blocking = {row[0] for row in pm.get("blocks", ())}
    cards: dict[str, dict[str, Value]] = {}
    for handle, tid in ids.items():
        zone = _zone(pm, tid)
        rec: dict[str, Value] = {"zone": zone}
        if zone == "battlefield":
            rec["controller"] = controls.get(tid)
            rec["tapped"] = (tid,) in pm.get("tapped", ())
            rec["plus_counters"] = counters.get((tid, "p1p1"), 0)
            rec["minus_counters"] = counters.get((tid, "m1m1"), 0)
            if tid in creatures:
                rec["power"] = powers.get(tid)
                rec["toughness"] = tough.get(tid)
            rec["attacking"] = tid in attacking
            rec["blocking"] = tid in blocking
            rec["shields"] = 1 if (tid,) in pm.get("_regen_shield", ()) else 0
            rec["unregenerable"] = (tid,) in pm.get("cant_be_regenerated", ())
        cards[handle] = rec
    players: dict[str, dict[str, Value]] = {
        p: {"life": int(v)} for (p, v) in pm.get("life", ()) if p in names
    }
    active = next(iter(pm["active_player"]))[0]
    return Observation(cards, players, None, None, {"active": active})


def _zone(pm: PmState, tid: str) -> str:
    if (tid,) in pm.get("on_battlefield", ()):
        return "battlefield"
    if (tid,) in pm.get("graveyard", ()):
        return "graveyard"
    return "exile"


def step_of(pm: PmState) -> str:
    return str(next(iter(pm["current_step"]))[0])


def position(pm: PmState) -> tuple[int, int]:
    """(turn, step index): where python-mtg's game is, to advance it to a later step."""
    return (int(pm.get("_turn", 0)), STEP_ORDER.index(step_of(pm)))


Advance = Callable[[PmState], None]
