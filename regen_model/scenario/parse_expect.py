"""``expect:`` mappings -> probes (see ``spec.Probe``).

Keys of an ``expect`` mapping are either reserved words (``players``, ``step``, ``events``,
``error``, ...) or permanent handles. Each field written becomes one probe, so a failure names
exactly the field that differed (``troll.tapped: expected true, got false``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from regen_model.model.derived import (
    blocks_now,
    controller,
    is_creature,
    keywords,
    power,
    toughness,
)
from regen_model.model.enums import CounterKind, Keyword, Step, Zone
from regen_model.model.events import EVENT_SHAPES, Event, EventKind, Subject
from regen_model.model.state import Card
from regen_model.scenario import clause_info
from regen_model.scenario.names import Names, suggest
from regen_model.scenario.source import FieldPath
from regen_model.scenario.spec import ErrorExpect, Expect, Probe, View

EVENT_KINDS = tuple(k.value for k in EventKind)
MATCHER_KEYS = ("clause", "times")


def show(value: object) -> str:
    """A value written the way a scenario file writes it."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(show(v) for v in value) + "]"
    return str(value)


def _eq(expected: object, actual: object) -> bool:
    """Equal, without letting true == 1 or 1 == 1.0 slip through."""
    return type(expected) is type(actual) and expected == actual


def parse_expect(names: Names, raw: Mapping[str, Any], path: FieldPath) -> Expect:
    probes: list[Probe] = []
    error: ErrorExpect | None = None
    for key, value in raw.items():
        kp: FieldPath = (*path, key)
        if key == "players":
            for pname, fields in value.items():
                probes.extend(_player(names, pname, fields, (*kp, pname)))
        elif key == "events" or key == "no-events":
            for i, m in enumerate(value):
                probes.append(_events(names, m, (*kp, i), negate=key == "no-events"))
        elif key == "error":
            error = _error(names, value, kp)
        elif key in GLOBAL_PROBES:
            probes.append(GLOBAL_PROBES[key](names, value, kp))
        else:
            handle = names.handle(key, kp)
            for field, expected in value.items():
                probes.append(_permanent(names, handle, field, expected, (*kp, field)))
    return Expect(tuple(probes), error)


def _probe(
    names: Names,
    what: str,
    path: FieldPath,
    expected: object,
    read: Callable[[View], object],
    holds: Callable[[object, object], bool] = _eq,
) -> Probe:
    return Probe(what, names.source.line(path), expected, read, holds, show)


# --- permanents ------------------------------------------------------------------------------


def _permanent(names: Names, handle: str, field: str, expected: Any, path: FieldPath) -> Probe:
    slot = names.handles.index(handle)
    what = f"{handle}.{field}"

    def card(view: View) -> Card:
        return view.state.cards[slot]

    if field == "counters":
        kinds = {CounterKind(k): int(n) for k, n in expected.items()}

        def read_counters(view: View) -> object:
            c = card(view)
            have = {
                CounterKind.PLUS: c.plus,
                CounterKind.MINUS: c.minus,
                CounterKind.SHIELD: c.shield_counters,
            }
            return {k.value: have[k] for k in kinds}

        return _probe(names, what, path, {k.value: n for k, n in kinds.items()}, read_counters)
    if field in ("controller", "owner"):
        names.player(expected, path)

        def read_player(view: View) -> object:
            c = card(view)
            index = controller(c) if field == "controller" else view.state.setup.owners[slot]
            return view.state.player_name(index)

        return _probe(names, what, path, expected, read_player)
    if field == "shields":
        if isinstance(expected, int):
            return _probe(names, what, path, expected, lambda v: len(card(v).active_shields))
        origins = sorted(str(o) for o in expected)
        return _probe(
            names,
            what,
            path,
            origins,
            lambda v: sorted(card(v).shields[i].origin for i in card(v).active_shields),
            lambda e, a: e == a,
        )
    if field == "blocking":
        if isinstance(expected, bool):
            return _probe(names, what, path, expected, lambda v: card(v).blocking is not None)
        names.handle(expected, path)
        return _probe(
            names,
            what,
            path,
            expected,
            lambda v: None if card(v).blocking is None else v.state.handle(card(v).blocking or 0),
        )
    if field == "blocks-now":
        for k, h in enumerate(expected):
            names.handle(h, (*path, k))
        return _probe(
            names,
            what,
            path,
            sorted(expected),
            lambda v: sorted(v.state.handle(a) for a in blocks_now(v.state, card(v).slot)),
        )
    if field == "attached-to":
        if expected is not None:
            names.handle(expected, path)
        return _probe(
            names,
            what,
            path,
            expected,
            lambda v: (
                None if card(v).attached_to is None else v.state.handle(card(v).attached_to or 0)
            ),
        )
    if field == "keywords":
        return _probe(
            names,
            what,
            path,
            sorted(str(k) for k in expected),
            lambda v: sorted(k.value for k in keywords(v.state, card(v))),
            lambda e, a: e == a,
        )
    if field == "same-object":
        return _probe(
            names,
            what,
            path,
            expected,
            lambda v: card(v).gen == v.start.cards[slot].gen,
        )
    readers: dict[str, Callable[[View], object]] = {
        "zone": lambda v: card(v).zone.value,
        "tapped": lambda v: card(v).tapped,
        "damage": lambda v: card(v).damage,
        "power": lambda v: power(v.state, card(v)),
        "toughness": lambda v: toughness(v.state, card(v)),
        "in-combat": lambda v: card(v).in_combat,
        "attacking": lambda v: card(v).attacking,
        "blocked": lambda v: card(v).blocked,
        "cant-be-regenerated": lambda v: card(v).cant_regen,
        "exile-if-dies": lambda v: card(v).exile_if_dies,
        "remove-damage-instead": lambda v: card(v).remove_damage,
        "destroy-at-end-of-combat": lambda v: card(v).eoc_destroy,
        "prevent-next": lambda v: card(v).prevent_next,
        "prevent-all": lambda v: card(v).prevent_all,
        "phased-out": lambda v: card(v).phased_out is not None,
        "summoning-sick": lambda v: card(v).sick,
        "creature": lambda v: is_creature(v.state, card(v)),
    }
    return _probe(names, what, path, expected, readers[field])


# --- players and the game --------------------------------------------------------------------


def _player(names: Names, pname: str, fields: Mapping[str, Any], path: FieldPath) -> list[Probe]:
    index = names.player(pname, path)
    readers: dict[str, Callable[[View], object]] = {
        "life": lambda v: v.state.players[index].life,
        "poison": lambda v: v.state.players[index].poison,
        "lost": lambda v: v.state.players[index].lost,
        "hand": lambda v: v.state.players[index].hand,
        "library": lambda v: v.state.players[index].library,
    }
    return [
        _graveyard(names, index, pname, expected, (*path, field))
        if field == "graveyard"
        else _probe(names, f"{pname}.{field}", (*path, field), expected, readers[field])
        for field, expected in fields.items()
    ]


def _graveyard(names: Names, index: int, pname: str, value: Any, path: FieldPath) -> Probe:
    """A player's graveyard, bottom to top (404.2): each entry a card's handle, a spell's
    name or ``milled`` (a card milled from their library, ``state.MILLED``: it has no name in
    the model), or a list of them: cards put there at the same time, whose order their owner
    chose (404.3), compared as a set, as one mill's cards are. The whole graveyard must match,
    group by group."""
    expected = [sorted(str(x) for x in e) if isinstance(e, list) else [str(e)] for e in value]

    def read(view: View) -> object:
        state = view.state
        return [
            sorted(state.handle(x) if isinstance(x, int) else x for x in group)
            for group in state.players[index].graveyard
        ]

    def show_yard(groups: object) -> str:
        assert isinstance(groups, list)
        return "[" + ", ".join(g[0] if len(g) == 1 else show(g) for g in groups) + "]"

    return Probe(f"{pname}.graveyard", names.source.line(path), expected, read, _eq, show_yard)


def _player_name(names: Names, value: Any, path: FieldPath) -> str:
    names.player(value, path)
    return str(value)


def _global(
    read: Callable[[View], object], check: Callable[[Names, Any, FieldPath], object] | None = None
) -> Callable[[Names, Any, FieldPath], Probe]:
    def make(names: Names, value: Any, path: FieldPath) -> Probe:
        expected = check(names, value, path) if check else value
        return _probe(names, str(path[-1]), path, expected, read)

    return make


def _priority(names: Names, value: Any, path: FieldPath) -> object:
    return "none" if value == "none" else _player_name(names, value, path)


@dataclass(frozen=True)
class StackEntry:
    """A stack object as an expectation sees it: its name, and its source's handle if any."""

    name: str
    source: str | None

    def matches(self, text: str) -> bool:
        return text in (self.name, self.source)

    def __str__(self) -> str:
        return self.name


def _stack(names: Names, value: Any, path: FieldPath) -> Probe:
    """The stack, top first; an entry matches an object's name or its source's handle."""
    expected = [str(x) for x in value]

    def read(view: View) -> object:
        state = view.state
        return [
            StackEntry(o.name, None if o.source is None else state.handle(o.source))
            for o in reversed(state.stack)
        ]

    def holds(e: object, a: object) -> bool:
        assert isinstance(e, list) and isinstance(a, list)
        return len(e) == len(a) and all(x.matches(t) for t, x in zip(e, a, strict=True))

    return _probe(names, "stack", path, expected, read, holds)


GLOBAL_PROBES: dict[str, Callable[[Names, Any, FieldPath], Probe]] = {
    "step": _global(lambda v: v.state.step.value),
    "turn": _global(lambda v: v.state.turn),
    "active": _global(lambda v: v.state.player_name(v.state.active), _player_name),
    "priority": _global(
        lambda v: "none" if v.state.priority is None else v.state.player_name(v.state.priority),
        _priority,
    ),
    "decision": _global(lambda v: v.state.decision.value),
    "stack": _stack,
}


# --- events ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Matcher:
    kind: str
    subject: str | None
    clause: str | None
    data: tuple[tuple[str, object], ...]
    times: int | None

    def matches(self, e: Event) -> bool:
        if e.kind.value != self.kind:
            return False
        if self.subject is not None and e.subject != self.subject:
            return False
        if self.clause is not None and e.clause != self.clause:
            return False
        have = dict(e.data)
        return all(
            k in have and (_eq(v, have[k]) or (isinstance(v, str) and str(have[k]) == v))
            for k, v in self.data
        )

    def describe(self) -> str:
        text = self.kind + (f" {self.subject}" if self.subject else "")
        extra = [f"clause={self.clause}"] if self.clause else []
        extra += [f"{k}={show(v)}" for k, v in self.data]
        return text + (f" ({', '.join(extra)})" if extra else "")


@dataclass(frozen=True)
class Seen:
    """How many events matched, with the events of that kind for a readable failure."""

    count: int
    same_kind: tuple[str, ...]
    list_same_kind: bool = True

    def __str__(self) -> str:
        text = {0: "never", 1: "once"}.get(self.count, f"{self.count} times")
        if self.list_same_kind and self.same_kind and self.count == 0:
            text += "; seen: " + "; ".join(self.same_kind[:4])
            if len(self.same_kind) > 4:
                text += f"; ... ({len(self.same_kind)} in all)"
        return text


def _matcher(names: Names, raw: Any, path: FieldPath) -> Matcher:
    if isinstance(raw, str):
        return Matcher(raw, None, None, (), None)
    kinds = [k for k in raw if k in EVENT_KINDS]
    if len(kinds) > 1:
        # a data key spelt like an event kind (the spell-to-graveyard note's ``countered``):
        # the kind is the one key whose events carry every other such key as data
        kinds = [
            k
            for k in kinds
            if all(o == k or o.replace("-", "_") in EVENT_SHAPES[EventKind(k)].data for o in kinds)
        ] or kinds
    if len(kinds) != 1:
        others = [k for k in raw if k not in MATCHER_KEYS]
        hint = suggest(others[0], EVENT_KINDS) if others and not kinds else ""
        raise names.error(
            path,
            f"name exactly one event kind{hint}, found {len(kinds)} "
            f"({', '.join(kinds) or ', '.join(others) or 'none'}); kinds: {', '.join(EVENT_KINDS)}",
        )
    kind = kinds[0]
    shape = EVENT_SHAPES[EventKind(kind)]
    subject = raw[kind]
    if subject is not None:
        _check_subject(names, kind, shape.subject, subject, (*path, kind))
    clause = raw.get("clause")
    if clause is not None and clause_info.is_known(clause) is False:
        raise names.error((*path, "clause"), f"{clause!r} is not a clause of the catalog")
    data = []
    for k, v in raw.items():
        if k in MATCHER_KEYS or k == kind:
            continue
        key = k.replace("-", "_")
        if key not in shape.data:
            fields = sorted(f.replace("_", "-") for f in shape.data)
            raise names.error(
                (*path, k),
                f"a {kind} event has no field {k!r}{suggest(k, [*fields, *MATCHER_KEYS])} "
                f"(its fields: {', '.join([*fields, *MATCHER_KEYS])})",
            )
        choices = _VALUE_CHOICES.get((kind, key))
        if choices is not None and v is not None and str(v) not in choices:
            raise names.error(
                (*path, k),
                f"{show(v)!r} is not a value of {k}{suggest(str(v), choices)} "
                f"(values: {', '.join(choices)})",
            )
        data.append((key, v))
    return Matcher(
        kind, None if subject is None else str(subject), clause, tuple(data), raw.get("times")
    )


# Data whose values are a closed vocabulary: a misspelt value would match nothing, which under
# ``no-events`` passes in silence.
_ZONES = tuple(z.value for z in Zone)
_VALUE_CHOICES: dict[tuple[str, str], tuple[str, ...]] = {
    ("zone-change", "origin"): _ZONES,
    ("zone-change", "to"): _ZONES,
    ("step-began", "step"): tuple(st.value for st in Step),
    ("counters-placed", "counter"): tuple(c.value for c in CounterKind),
    # the pairs of +1/+1 and -1/-1 counters a state-based action removes (704.5q) are named
    # together (engine/sba.py, clause sba.counters)
    ("counters-removed", "counter"): (*(c.value for c in CounterKind), "+1/+1 and -1/-1"),
    ("keyword-changed", "keyword"): tuple(kw.value for kw in Keyword),
}


# Names the engine gives stack objects other than spells (engine/turn.py, step.py, effects.py,
# destruction.py): combat damage under the pre-M10 rules, "HANDLE: ability", "damage trigger
# of HANDLE", "rider of ORIGIN", "end-of-combat destruction of HANDLE" (a Basilisk's delayed
# trigger, engine/triggers.py), "end-step trigger of HANDLE" and "reflexive trigger of HANDLE"
# (Go-Shintai of Hidden Cruelty's, engine/triggers.py and effects.py).
_STACK_PREFIXES = (
    "rider of ",
    "damage trigger of ",
    "end-of-combat destruction of ",
    "end-step trigger of ",
    "reflexive trigger of ",
)


def _check_subject(names: Names, kind: str, subject: Subject, value: Any, path: FieldPath) -> None:
    """The subject of a matcher must name something the event can be about."""
    if not isinstance(value, str):
        raise names.error(path, f"the subject of a {kind} event is a name, got {show(value)}")
    if subject is Subject.CARD or subject is Subject.CARD_OR_NONE:
        names.handle(value, path)
    elif subject is Subject.PLAYER:
        names.player(value, path)
    elif subject is Subject.CARD_OR_PLAYER:
        names.card_or_player(value, path)
    elif subject is Subject.NONE:
        raise names.error(path, f"a {kind} event is about the game as a whole: write {kind}: null")
    elif not _stack_name(names, value):
        spells = sorted(names.spells)
        raise names.error(
            path,
            f"{value!r} is not a stack object of this scenario{suggest(value, spells)}: a "
            "spell's name, 'combat damage', 'HANDLE: ABILITY', 'damage trigger of HANDLE', "
            "'end-of-combat destruction of HANDLE', 'end-step trigger of HANDLE', "
            "'reflexive trigger of HANDLE' or 'rider of ORIGIN'",
        )


def _stack_name(names: Names, value: str) -> bool:
    if value in names.spells or value == "combat damage":
        return True
    if value.startswith(_STACK_PREFIXES[0]):
        return True
    for prefix in _STACK_PREFIXES[1:]:
        if value.startswith(prefix):
            return value.removeprefix(prefix) in names.handles
    handle, sep, _ = value.partition(": ")
    return bool(sep) and handle in names.handles


def _events(names: Names, raw: Any, path: FieldPath, *, negate: bool) -> Probe:
    m = _matcher(names, raw, path)
    if negate:
        expected = "never"
    elif m.times is None:
        expected = "at least once"
    else:
        expected = {0: "never", 1: "once"}.get(m.times, f"{m.times} times")

    def read(view: View) -> object:
        same = tuple(e.describe() for e in view.events if e.kind.value == m.kind)
        return Seen(sum(1 for e in view.events if m.matches(e)), same, not negate)

    def holds(_expected: object, actual: object) -> bool:
        assert isinstance(actual, Seen)
        if negate:
            return actual.count == 0
        return actual.count >= 1 if m.times is None else actual.count == m.times

    what = ("no event " if negate else "event ") + m.describe()
    return Probe(what, names.source.line(path), expected, read, holds, str)


def _error(names: Names, raw: Any, path: FieldPath) -> ErrorExpect:
    line = names.source.line(path)
    if isinstance(raw, str):
        return ErrorExpect(line, message=raw)
    clause = raw.get("clause")
    if clause is not None and clause_info.is_known(clause) is False:
        raise names.error((*path, "clause"), f"{clause!r} is not a clause of the catalog")
    return ErrorExpect(
        line,
        error_class=str(raw.get("class", "EngineError")),
        message=raw.get("message"),
        clause=clause,
        field=raw.get("field"),
    )
