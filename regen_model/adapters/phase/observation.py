"""The observable projection (DESIGN.md section 5), its reading from our own states, and a diff.

An ``Observation`` holds only what an outside engine can report: per card handle, per player,
the turn position, and the events of one step. A field an engine cannot report is *absent*
(the key is missing), never filled in with a guess; ``diff`` compares only fields present on
both sides. Event kinds an engine could not report for a step are listed in
``unobserved_events`` so that a missing event is not mistaken for a divergence.

Projection rules, the same for every engine:

* A card that is not on the battlefield reports only its ``zone``: it is a new object with no
  controller, damage, counters or combat status (400.7, 108.4a).
* ``power``/``toughness`` are reported for creatures only.
* ``blocking`` is "is a blocking creature now" (a blocker removed from combat is not).
* ``shields`` counts unused regeneration shields; used ones are not observable elsewhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from regen_model.model.derived import controller, is_creature, power, toughness
from regen_model.model.events import Event, EventKind
from regen_model.model.state import GameState

CARD_FIELDS = (
    "zone",
    "controller",
    "tapped",
    "damage",
    "plus_counters",
    "minus_counters",
    "shield_counters",
    "power",
    "toughness",
    "attacking",
    "blocking",
    "shields",
)
PLAYER_FIELDS = ("life", "poison")
GAME_FIELDS = ("turn", "step", "active", "priority")

REGENERATED = "regenerated"
DESTROYED = "destroyed"
DAMAGE = "damage"
EVENT_KINDS = frozenset({REGENERATED, DESTROYED, DAMAGE})


@dataclass(frozen=True)
class Observation:
    """What one engine showed after one step.

    ``cards``: card handle -> field -> value. ``players``: player name -> field -> value.
    ``game``: turn, step (our ``Step`` spelling), active player and priority holder (index, or
    ``None`` while nobody holds priority). ``events``: ``"regenerated H"``, ``"destroyed H"``,
    ``"damage H N"`` in the order they happened.
    """

    cards: dict[str, dict[str, object]]
    players: dict[str, dict[str, object]]
    events: tuple[str, ...] = ()
    game: dict[str, object] = field(default_factory=dict)
    unobserved_events: frozenset[str] = frozenset()


def regenerated(handle: str) -> str:
    return f"{REGENERATED} {handle}"


def destroyed(handle: str) -> str:
    return f"{DESTROYED} {handle}"


def damaged(handle: str, amount: int) -> str:
    return f"{DAMAGE} {handle} {amount}"


def observe_reference(state: GameState, events: Iterable[Event] = ()) -> Observation:
    """The projection of one of our engine's states and the events of the step that led to it."""
    cards: dict[str, dict[str, object]] = {}
    for card in state.cards:
        handle = state.handle(card.slot)
        if not card.on_battlefield:
            cards[handle] = {"zone": card.zone.value}
            continue
        fields: dict[str, object] = {
            "zone": card.zone.value,
            "controller": controller(card),
            "tapped": card.tapped,
            "damage": card.damage,
            "plus_counters": card.plus,
            "minus_counters": card.minus,
            "shield_counters": card.shield_counters,
            "attacking": card.attacking,
            "blocking": card.blocking is not None,
            "shields": len(card.active_shields),
        }
        if is_creature(state, card):
            fields["power"] = power(state, card)
            fields["toughness"] = toughness(state, card)
        cards[handle] = fields
    players: dict[str, dict[str, object]] = {
        state.player_name(i): {"life": p.life, "poison": p.poison}
        for i, p in enumerate(state.players)
    }
    game: dict[str, object] = {
        "turn": state.turn,
        "step": state.step.value,
        "active": state.active,
        "priority": state.priority,
    }
    return Observation(cards, players, tuple(_reference_events(events)), game)


def _reference_events(events: Iterable[Event]) -> Iterable[str]:
    for e in events:
        if e.subject is None:
            continue
        if e.kind is EventKind.REGENERATED:
            yield regenerated(e.subject)
        elif e.kind is EventKind.DESTROYED:
            yield destroyed(e.subject)
        elif e.kind is EventKind.DAMAGE_DEALT:
            amount = e.get("amount")
            assert isinstance(amount, int)
            yield damaged(e.subject, amount)


def diff(expected: Observation, observed: Observation) -> list[str]:
    """Differences between two observations, one line each; fields absent on either side and
    event kinds either side could not observe are skipped."""
    out: list[str] = []
    out += _diff_table("card", expected.cards, observed.cards)
    out += _diff_table("player", expected.players, observed.players)
    out += _diff_table("game", {"": expected.game}, {"": observed.game})
    skip = expected.unobserved_events | observed.unobserved_events
    want = Counter(e for e in expected.events if e.split(" ", 1)[0] not in skip)
    got = Counter(e for e in observed.events if e.split(" ", 1)[0] not in skip)
    for event in sorted((want - got).elements()):
        out.append(f"event {event!r}: expected, not observed")
    for event in sorted((got - want).elements()):
        out.append(f"event {event!r}: observed, not expected")
    return out


def _diff_table(
    what: str,
    expected: Mapping[str, Mapping[str, object]],
    observed: Mapping[str, Mapping[str, object]],
) -> list[str]:
    out = []
    for key in sorted(expected.keys() & observed.keys()):
        want, got = expected[key], observed[key]
        for name in sorted(want.keys() & got.keys()):
            if want[name] != got[name]:
                label = f"{what} {key}.{name}" if key else f"{what}.{name}"
                out.append(f"{label}: expected {want[name]!r}, observed {got[name]!r}")
    return out
