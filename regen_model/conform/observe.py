"""The observable projection: what any engine can report about a game, and how to compare.

Two engines can only be compared on what both can see. The projection keeps, per card (by
scenario handle): zone, controller (player name), tapped, damage marked, +1/+1, -1/-1 and
shield counters, power and toughness (creatures only), attacking, blocking (is a blocking
creature), shields (the number of unused regeneration shields) and unregenerable ("can't be
regenerated" applies to it this turn, 701.19c); per player: life, poison, how many cards their
hand and library hold (``hand``, ``library``: counts, as the model keeps them, 402.1, 401.1; a
draw moves one from the library to the hand, 121.1) and the graveyard
(``Observation.graveyards``: its cards bottom to top, 404.2, in groups, see below); for the game:
turn, step, active player, the player holding priority (none while a turn-based choice is
awaited) and the number of objects on the stack; and the step's events as short tokens
(``EVENT_KINDS``). Off the battlefield a card shows only its zone:
engines disagree on what a card in a graveyard remembers, and the rules say nothing.

A graveyard is a sequence of groups, bottom to top, each group a set of entries (a card's
handle, or the name of an instant or sorcery spell card put there, 608.2n). The
specification's groups are the cards one event put there at the same time, whose order their
owner chooses (404.3); an engine's groups are the order it cannot vouch for: an engine that
keeps an order reports one entry per group, one that keeps none reports a single group. The
two agree when one bottom-to-top order fits both (``graveyards_agree``), so the order is
compared exactly where both engines give one. In JSON a graveyard is a list whose elements are
entries (a group of one) or lists of entries (a group), under ``players.P.graveyard``.

The comparison is one-sided: ``expected`` is the specification's full projection and
``observed`` is what the other engine reported. A field absent from ``observed`` is
*unobserved* and never assumed to have any value; a field present in ``observed`` but not
defined for that card in the projection (e.g. ``tapped`` in the graveyard) is not compared.
Events are compared as multisets (engines order simultaneous events differently), restricted
to the event kinds the observer says it reports (``event_kinds``; all kinds by default).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from regen_model.conform.jsonpos import Node, in_memory
from regen_model.model import derived
from regen_model.model.enums import Step, Zone
from regen_model.model.events import Event, EventKind
from regen_model.model.state import GameState

Value = str | int | bool | None
# A graveyard in the projection: groups bottom to top, each a set of entries (kept sorted).
Groups = tuple[tuple[str, ...], ...]

CARD_FIELDS: tuple[str, ...] = (
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
    "unregenerable",
)
PLAYER_FIELDS: tuple[str, ...] = ("life", "poison", "hand", "library", "graveyard")
# The player fields that are numbers (``Player``'s attributes of the same names); ``graveyard``
# is kept apart (``Observation.graveyards``).
PLAYER_INTS: tuple[str, ...] = ("life", "poison", "hand", "library")
GAME_FIELDS: tuple[str, ...] = ("turn", "step", "active", "priority", "stack")
_ZONES = tuple(z.value for z in Zone)
_STEPS = tuple(s.value for s in Step)
_CARD_TYPES: dict[str, tuple[type, ...]] = {
    "zone": (str,),
    "controller": (str,),
    "tapped": (bool,),
    "damage": (int,),
    "plus_counters": (int,),
    "minus_counters": (int,),
    "shield_counters": (int,),
    "power": (int,),
    "toughness": (int,),
    "attacking": (bool,),
    "blocking": (bool,),
    "shields": (int,),
    "unregenerable": (bool,),
}

# Event tokens: ``kind:subject[:detail]``. The kind is what ``event_kinds`` filters on.
EVENT_KINDS: dict[str, str] = {
    "regenerated": "regenerated:H - a regeneration shield or static regeneration replaced a destruction",
    "replaced": "replaced:H - umbra armor or a shield counter replaced a destruction",
    "destroyed": "destroyed:H - H was destroyed (went to the graveyard by destruction)",
    "damage": "damage:H:N - N damage dealt to permanent H (marked, or as -1/-1 counters)",
    "player-damage": "player-damage:P:N - N damage dealt to player P (life loss or poison)",
    "prevented": "prevented:H:N - N damage to H was prevented (a shield counter)",
    "shield-created": "shield-created:H - a regeneration shield was created for H",
    "tapped": "tapped:H - H became tapped",
    "regeneration-tap": (
        "regeneration-tap:H:P - regeneration tapped H, and player P performed the tap (its "
        "controller, 701.19a; an untapped permanent only)"
    ),
    "untapped": "untapped:H - H became untapped",
    "removed-from-combat": "removed-from-combat:H - H was removed from combat",
    "zone": "zone:H:Z - H moved to zone Z (a new object)",
    "control": "control:H:P - player P gained control of H",
    "lost": "lost:P - player P lost the game",
}


@dataclass(frozen=True)
class Observation:
    """What one engine reports after one step. Absent keys are unobserved.

    ``events`` is ``None`` when the engine does not report events at all; ``event_kinds`` is
    the set of kinds it reports (``None``: every kind in ``EVENT_KINDS``).
    """

    cards: dict[str, dict[str, Value]] = field(default_factory=dict)
    players: dict[str, dict[str, Value]] = field(default_factory=dict)
    events: tuple[str, ...] | None = None
    event_kinds: frozenset[str] | None = None
    game: dict[str, Value] = field(default_factory=dict)
    # Per player name, the graveyard (``Groups``); a player absent here: graveyard unobserved.
    # Kept apart from ``players`` (whose values are scalars); written as ``players.P.graveyard``.
    graveyards: dict[str, Groups] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"cards": self.cards, "players": self.players_json()}
        if self.game:
            out["game"] = self.game
        if self.events is not None:
            out["events"] = list(self.events)
        if self.event_kinds is not None:
            out["event_kinds"] = sorted(self.event_kinds)
        return out

    @classmethod
    def from_json(cls, data: Any, name: str = "<observation>") -> Observation:
        """Read an observation (plain JSON or ITF encodings); ``jsonpos.FieldError`` if bad."""
        return observation_from_node(in_memory(data, name))

    def players_json(self) -> dict[str, dict[str, Any]]:
        """``players`` with each observed graveyard as its ``graveyard`` member."""
        out: dict[str, dict[str, Any]] = {name: dict(rec) for name, rec in self.players.items()}
        for name, yard in self.graveyards.items():
            out.setdefault(name, {})["graveyard"] = groups_to_json(yard)
        return out

    def field_count(self) -> int:
        """How many values this observation reports (0 means it observes nothing)."""
        n = sum(len(v) for v in self.cards.values()) + sum(len(v) for v in self.players.values())
        return n + len(self.game) + len(self.graveyards) + (0 if self.events is None else 1)


def groups_to_json(yard: Groups) -> list[str | list[str]]:
    """A graveyard as JSON: a group of one as its entry, a larger group as a list."""
    return [g[0] if len(g) == 1 else list(g) for g in yard]


def make_groups(entries: Iterable[Iterable[str]]) -> Groups:
    """Canonical groups: each sorted (a group is a set), empty groups dropped."""
    return tuple(tuple(sorted(g)) for g in map(tuple, entries) if g)


def graveyards_agree(expected: Groups, observed: Groups) -> bool:
    """Whether one bottom-to-top order of the cards fits both groupings (404.2, 404.3).

    Walks both from the bottom: the next card must lie in the current group of each side, so
    the two current groups give up their common entries first. If both still have entries
    left after that, no card can come next, and no order fits.
    """
    want = [Counter(g) for g in expected]
    got = [Counter(g) for g in observed]
    i = j = 0
    while i < len(want) and j < len(got):
        common = want[i] & got[j]
        want[i] -= common
        got[j] -= common
        if want[i] and got[j]:
            return False
        i += not want[i]
        j += not got[j]
    return i == len(want) and j == len(got)


def observation_from_node(
    node: Node, event_kinds: frozenset[str] | None = None, *, top_level: bool = True
) -> Observation:
    """Read the ``cards``/``players``/``events`` members of ``node`` (an ITF state or an
    observation object). Unknown field names are errors: a typo must not become 'unobserved'."""
    cards: dict[str, dict[str, Value]] = {}
    players: dict[str, dict[str, Value]] = {}
    graveyards: dict[str, Groups] = {}
    if (c := node.get("cards")) is not None:
        for handle, rec in c.items():
            rec.check_keys(set(CARD_FIELDS), f"card {handle!r}")
            cards[handle] = {k: _scalar(v, _CARD_TYPES[k]) for k, v in rec.items()}
            if (z := rec.get("zone")) is not None:
                z.choice(_ZONES)  # a misspelt zone is bad input, not a divergence
    if (p := node.get("players")) is not None:
        for name, rec in p.items():
            rec.check_keys(set(PLAYER_FIELDS), f"player {name!r}")
            players[name] = {k: _scalar(v, (int,)) for k, v in rec.items() if k != "graveyard"}
            if (yard := rec.get("graveyard")) is not None:
                graveyards[name] = _groups(yard)
    events: tuple[str, ...] | None = None
    if (e := node.get("events")) is not None:
        events = tuple(x.string() for x in e.elements())
        for x in e.elements():
            kind = x.string().split(":", 1)[0]
            if kind not in EVENT_KINDS:
                raise x.error(f"unknown event kind {kind!r} (known: {', '.join(EVENT_KINDS)})")
    kinds = event_kinds
    if top_level and (k := node.get("event_kinds")) is not None:
        kinds = frozenset(x.choice(list(EVENT_KINDS)) for x in k.elements())
    game: dict[str, Value] = {}
    if (g := node.get("game")) is not None:
        g.check_keys(set(GAME_FIELDS), "game")
        for name, v in g.items():
            if name in ("turn", "stack"):
                game[name] = v.integer()
            elif name == "priority" and v.value in ("", None):
                game[name] = None  # nobody holds priority ("" in ITF, which has no null)
            elif name == "step":
                game[name] = v.choice(_STEPS)
            else:
                game[name] = v.string()
        if g.has("priority") and g.value["priority"] is None:
            game["priority"] = None
    return Observation(cards, players, events, kinds, game, graveyards)


def _groups(node: Node) -> Groups:
    """A graveyard: entries (strings, a group of one) or lists of them (a group; ITF: a
    ``#set`` or a list)."""
    out: list[tuple[str, ...]] = []
    for element in node.elements():
        if isinstance(element.value, str):
            out.append((element.value,))
        else:
            out.append(tuple(x.string() for x in element.elements()))
    return make_groups(out)


def _scalar(node: Node, allowed: tuple[type, ...]) -> Value:
    if node.value is None and type(None) in allowed:
        return None
    if int in allowed and not isinstance(node.value, bool):
        return node.integer()
    if bool in allowed:
        return node.boolean()
    return node.string()


# --- projection of our engine's state ---------------------------------------------------------

_UNDEFINED = object()  # a field that means nothing for this card (power of an Aura)
_PT = ("power", "toughness")
_FIELD_INDEX = {name: i for i, name in enumerate(CARD_FIELDS)}
_PT_INDEX = frozenset(_FIELD_INDEX[n] for n in _PT)


def card_rows(state: GameState) -> list[tuple[object, ...]]:
    """Every card's projected fields, in ``CARD_FIELDS`` order, indexed by slot.

    One pass for the Aura/Equipment bonuses (613.4c), one for the cards; a card off the
    battlefield has a row of its zone alone, and power/toughness of a non-creature are
    ``_UNDEFINED``. This is the one implementation of the projection: ``project`` turns rows
    into dicts, ``Matcher`` compares rows with an engine's observation without building any.
    Power and toughness are computed as ``model.derived.power``/``toughness`` do.
    """
    setup = state.setup
    templates = setup.templates
    names = setup.player_names
    bonus: dict[int, tuple[int, int]] = {}
    for c in state.cards:
        if c.attached_to is not None and c.zone is Zone.BATTLEFIELD:
            bp, bt = templates[c.slot].attach_bonus
            old = bonus.get(c.attached_to, (0, 0))
            bonus[c.attached_to] = (old[0] + bp, old[1] + bt)
    rows: list[tuple[object, ...]] = []
    for c in state.cards:
        if c.zone is not Zone.BATTLEFIELD:
            rows.append((c.zone.value,))
            continue
        if derived.is_creature(state, c):  # printed or animated (613.1d)
            bp, bt = bonus.get(c.slot, (0, 0))
            base_p, base_t = derived.base_pt(state, c)
            pw: object = base_p + c.plus - c.minus + c.power_eot + bp
            tg: object = base_t + c.plus - c.minus + c.toughness_eot + bt
        else:
            pw = tg = _UNDEFINED
        rows.append(
            (
                "battlefield",
                names[c.control if c.control_eot is None else c.control_eot],
                c.tapped,
                c.damage,
                c.plus,
                c.minus,
                c.shield_counters,
                pw,
                tg,
                c.attacking,
                c.blocking is not None,
                sum(1 for sh in c.shields if not sh.used),
                c.cant_regen,
            )
        )
    return rows


GAME_GETTERS: dict[str, Callable[[GameState], Value]] = {
    "turn": lambda s: s.turn,
    "step": lambda s: s.step.value,
    "active": lambda s: s.setup.player_names[s.active],
    "priority": lambda s: None if s.priority is None else s.setup.player_names[s.priority],
    "stack": lambda s: len(s.stack),
}


def _event_token(e: Event) -> str | None:
    k = e.kind
    s = e.subject
    if k is EventKind.REGENERATED:
        return f"regenerated:{s}"
    if k is EventKind.REPLACED:
        return f"replaced:{s}"
    if k is EventKind.DESTROYED:
        return f"destroyed:{s}"
    if k is EventKind.DAMAGE_DEALT:
        return f"damage:{s}:{e.get('amount')}"
    if k is EventKind.POISONED:
        return f"player-damage:{s}:{e.get('amount')}"
    if k is EventKind.LIFE_CHANGED and e.clause == "damage.player":
        amount = e.get("amount")
        assert isinstance(amount, int)
        return f"player-damage:{s}:{-amount}"
    if k is EventKind.DAMAGE_PREVENTED:
        return f"prevented:{s}:{e.get('amount')}"
    if k is EventKind.SHIELD_CREATED:
        return f"shield-created:{s}"
    if k is EventKind.BECAME_TAPPED:
        return f"tapped:{s}"  # the regeneration tap adds a second token (event_tokens)
    if k is EventKind.BECAME_UNTAPPED:
        return f"untapped:{s}"
    if k is EventKind.REMOVED_FROM_COMBAT:
        return f"removed-from-combat:{s}"
    if k is EventKind.ZONE_CHANGE:
        return f"zone:{s}:{e.get('to')}"
    if k is EventKind.CONTROL_CHANGED:
        return f"control:{s}:{e.get('to')}"
    if k is EventKind.PLAYER_LOST:
        return f"lost:{s}"
    return None


def event_tokens(events: Iterable[Event]) -> tuple[str, ...]:
    """The observable events of a step, in the order the engine emitted them."""
    out = []
    for e in events:
        token = _event_token(e)
        if token is not None:
            out.append(token)
        if e.kind is EventKind.BECAME_TAPPED and e.clause == "regen.apply.tap":
            out.append(f"regeneration-tap:{e.subject}:{e.get('by')}")
    return tuple(out)


def _row_dict(row: tuple[object, ...]) -> dict[str, Value]:
    return {
        name: value  # type: ignore[misc]
        for name, value in zip(CARD_FIELDS, row, strict=False)
        if value is not _UNDEFINED
    }


def project(state: GameState, events: Iterable[Event] = ()) -> Observation:
    """The full observable projection of one of our states and the events that led to it."""
    handles = state.setup.handles
    cards = {handles[slot]: _row_dict(row) for slot, row in enumerate(card_rows(state))}
    names = state.setup.player_names
    players: dict[str, dict[str, Value]] = {
        names[i]: {f: getattr(p, f) for f in PLAYER_INTS} for i, p in enumerate(state.players)
    }
    game = {name: get(state) for name, get in GAME_GETTERS.items()}
    yards = {names[i]: graveyard_groups(state, i) for i in range(len(state.players))}
    return Observation(cards, players, event_tokens(events), game=game, graveyards=yards)


def graveyard_groups(state: GameState, player: int) -> Groups:
    """Player ``player``'s graveyard in the projection: the model's groups (404.2, 404.3), a
    card as its handle and a spell card as its name (608.2n)."""
    handles = state.setup.handles
    return make_groups(
        (handles[x] if isinstance(x, int) else x for x in group)
        for group in state.players[player].graveyard
    )


# --- comparison ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FieldDiff:
    """One observed value that differs from the specification's."""

    path: str  # "cards.troll.tapped", "players.B.life", "events"
    expected: Any
    observed: Any

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "expected": self.expected, "observed": self.observed}

    def describe(self) -> str:
        if self.path == "events":  # expected = missing tokens, observed = unexpected tokens
            parts = []
            if self.expected:
                parts.append(f"missing {_show(self.expected)}")
            if self.observed:
                parts.append(f"unexpected {_show(self.observed)}")
            return "events: " + ", ".join(parts)
        return f"{self.path}: expected {_show(self.expected)}, observed {_show(self.observed)}"


def _show(v: Any) -> str:
    if isinstance(v, list | tuple):
        return "[" + ", ".join(str(x) for x in v) + "]"
    if v is None:
        return "null"
    if isinstance(v, bool):
        return str(v).lower()
    return str(v)


def _filtered(events: Iterable[str], kinds: frozenset[str] | None) -> list[str]:
    if kinds is None:
        return sorted(events)
    return sorted(e for e in events if e.split(":", 1)[0] in kinds)


def compare(expected: Observation, observed: Observation) -> list[FieldDiff]:
    """Field-by-field differences, only for fields present in ``observed``."""
    diffs: list[FieldDiff] = []
    for handle, rec in observed.cards.items():
        want = expected.cards.get(handle)
        if want is None:
            diffs.append(FieldDiff(f"cards.{handle}", "no such card", rec))
            continue
        for name, value in rec.items():
            if name in want and want[name] != value:
                diffs.append(FieldDiff(f"cards.{handle}.{name}", want[name], value))
            elif name in _PT and "power" not in want and want.get("zone") == "battlefield":
                # 208.3: a noncreature permanent has no power or toughness; one observed
                # where the model has none is a creature where the model has a noncreature
                diffs.append(FieldDiff(f"cards.{handle}.{name}", "none (not a creature)", value))
    for pname, prec in observed.players.items():
        pwant = expected.players.get(pname)
        if pwant is None:
            diffs.append(FieldDiff(f"players.{pname}", "no such player", prec))
            continue
        for name, value in prec.items():
            if pwant.get(name) != value:
                diffs.append(FieldDiff(f"players.{pname}.{name}", pwant.get(name), value))
    for pname, yard in observed.graveyards.items():
        want_yard = expected.graveyards.get(pname)
        if pname not in expected.players and pname not in observed.players:
            diffs.append(FieldDiff(f"players.{pname}", "no such player", groups_to_json(yard)))
        if want_yard is None:
            continue  # no such player, or a projection without graveyards
        if not graveyards_agree(want_yard, yard):
            diffs.append(
                FieldDiff(
                    f"players.{pname}.graveyard", groups_to_json(want_yard), groups_to_json(yard)
                )
            )
    for name, value in observed.game.items():
        if name in expected.game and expected.game[name] != value:
            diffs.append(FieldDiff(f"game.{name}", expected.game[name], value))
    if observed.events is not None and expected.events is not None:
        kinds = observed.event_kinds
        want_events = _filtered(expected.events, kinds)
        got_events = _filtered(observed.events, kinds)
        if want_events != got_events:
            missing = list((Counter(want_events) - Counter(got_events)).elements())
            extra = list((Counter(got_events) - Counter(want_events)).elements())
            diffs.append(FieldDiff("events", missing, extra))
    return diffs


def handles_ok(records: Mapping[str, object], known: tuple[str, ...]) -> bool:
    return all(h in known for h in records)


class Matcher:
    """``compare(project(state, events), observed) == []`` for many states, fast.

    The trace checker's hot path: the observation is compiled once against the scenario's
    handles (field names to row positions), and each state is checked by comparing its
    ``card_rows`` with the observed values, stopping at the first difference.
    """

    __slots__ = ("cards", "events", "game", "graveyards", "impossible", "kinds", "players")

    def __init__(self, observed: Observation, handles: tuple[str, ...], names: tuple[str, ...]):
        cards = observed.cards
        self.impossible = not handles_ok(cards, handles) or not all(
            handles_ok(x, names) for x in (observed.players, observed.graveyards)
        )
        index = _FIELD_INDEX.__getitem__
        self.cards = tuple(
            (handles.index(h), tuple(zip(map(index, rec), rec.values(), strict=True)))
            for h, rec in cards.items()
            if rec and h in handles
        )
        self.players = tuple(
            (names.index(p), tuple(rec.items()))
            for p, rec in observed.players.items()
            if p in names
        )
        self.graveyards = tuple(
            (names.index(p), yard) for p, yard in observed.graveyards.items() if p in names
        )
        self.game = tuple(observed.game.items())
        self.kinds = observed.event_kinds
        self.events = None if observed.events is None else _filtered(observed.events, self.kinds)

    def __call__(self, state: GameState, events: tuple[Event, ...]) -> bool:
        if self.impossible:
            return False
        if self.cards:
            rows = card_rows(state)
            for slot, fields in self.cards:
                row = rows[slot]
                n = len(row)
                for i, value in fields:
                    if i >= n:  # off the battlefield only the zone is defined
                        continue
                    # an undefined field matches anything, except power and toughness of a
                    # permanent: observed ones where the model has a noncreature (208.3)
                    defined = row[i] is not _UNDEFINED or i in _PT_INDEX
                    if row[i] != value and defined:
                        return False
        for index, prec in self.players:
            player = state.players[index]
            for name, value in prec:
                if getattr(player, name) != value:
                    return False
        for name, value in self.game:
            if GAME_GETTERS[name](state) != value:
                return False
        for index, yard in self.graveyards:
            if not graveyards_agree(graveyard_groups(state, index), yard):
                return False
        if self.events is not None:
            return _filtered(event_tokens(events), self.kinds) == self.events
        return True


def matches(state: GameState, events: tuple[Event, ...], observed: Observation) -> bool:
    """``compare(project(state, events), observed) == []``, computing only what is needed."""
    return Matcher(observed, state.setup.handles, state.setup.player_names)(state, events)
