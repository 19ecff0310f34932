"""A run as a timeline: one row per permanent (and per player), one column per step.

Each cell shows what a reader of a counterexample looks for first: the zone, tapped, damage,
unused shields, counters, whether it is in combat, its controller. A cell whose fields changed
in that step is marked, and names the clause(s) behind the change: the clauses of the engine's
events about that permanent that touch those fields (``_FIELD_EVENTS``), else of every event
about it. A divergence (another engine, or a log) adds the expected and the observed values
to the cells and the step where they differ.

The timeline is built from a run of our engine (``from_run``: states, actions, events), so it
is the same picture for ``find``, ``explore``, ``check-trace`` (the specification's run that
explains the log) and ``crosscheck`` (the minimal case), and the values shown are the
observable projection (``conform.observe.project``), the vocabulary engines and logs share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from regen_model.checks.replay import describe_action
from regen_model.conform.observe import FieldDiff, Observation, Value, project
from regen_model.model.actions import Action
from regen_model.model.events import Event, EventKind
from regen_model.model.state import GameState

# The projected fields a cell shows, in order, and the events that change each.
_FIELD_EVENTS: dict[str, frozenset[EventKind]] = {
    "zone": frozenset({EventKind.ZONE_CHANGE, EventKind.DESTROYED}),
    "controller": frozenset({EventKind.CONTROL_CHANGED, EventKind.EFFECTS_ENDED}),
    "tapped": frozenset({EventKind.BECAME_TAPPED, EventKind.BECAME_UNTAPPED}),
    "damage": frozenset({EventKind.DAMAGE_DEALT, EventKind.DAMAGE_REMOVED, EventKind.CLEANUP}),
    "shields": frozenset(
        {
            EventKind.SHIELD_CREATED,
            EventKind.REGENERATED,
            EventKind.EFFECTS_ENDED,
            EventKind.CLEANUP,
        }
    ),
    "plus_counters": frozenset({EventKind.COUNTERS_PLACED, EventKind.COUNTERS_REMOVED}),
    "minus_counters": frozenset(
        {EventKind.COUNTERS_PLACED, EventKind.COUNTERS_REMOVED, EventKind.DAMAGE_DEALT}
    ),
    "shield_counters": frozenset(
        {EventKind.COUNTERS_PLACED, EventKind.COUNTERS_REMOVED, EventKind.REPLACED}
    ),
    "attacking": frozenset({EventKind.ATTACKERS_DECLARED, EventKind.REMOVED_FROM_COMBAT}),
    "blocking": frozenset({EventKind.BLOCKERS_DECLARED, EventKind.REMOVED_FROM_COMBAT}),
    "unregenerable": frozenset({EventKind.UNREGENERABLE, EventKind.EFFECTS_ENDED}),
    "power": frozenset({EventKind.PT_MODIFIED, EventKind.COUNTERS_PLACED}),
    "toughness": frozenset({EventKind.PT_MODIFIED, EventKind.COUNTERS_PLACED}),
}
SHOWN = tuple(_FIELD_EVENTS)


@dataclass(frozen=True)
class Cell:
    """One permanent (or player) after one step."""

    lines: tuple[tuple[str, str], ...]  # (field, text): ("tapped", "tapped"), ("damage", ...)
    changed: tuple[str, ...] = ()  # the fields this step changed
    clauses: tuple[str, ...] = ()  # the clauses behind the change
    diffs: tuple[FieldDiff, ...] = ()  # expected (specification) vs observed (engine, log)
    zone: str = ""  # for styling: battlefield, graveyard, exile, ...
    unobserved: tuple[str, ...] = ()  # fields the log did not report (check-trace)
    gone: tuple[tuple[str, str], ...] = ()  # lines of the step before that this step ended


@dataclass(frozen=True)
class Column:
    """One step: index 0 is the start."""

    index: int
    action: str
    clauses: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    status: str = "ok"  # ok | diverged | failed | crashed
    note: str = ""
    event_diff: FieldDiff | None = None


@dataclass(frozen=True)
class Row:
    label: str  # "troll"
    detail: str  # "Horned Troll (A)"
    cells: tuple[Cell, ...]
    kind: str = "permanent"  # or "player"


@dataclass(frozen=True)
class Timeline:
    title: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    summary: str = ""
    clauses: tuple[str, ...] = field(default=())  # every clause cited along the run
    partial: bool = False  # the cells mark what a log did not report

    @property
    def steps(self) -> int:
        return len(self.columns) - 1


@dataclass(frozen=True)
class Divergence:
    """Where another engine or a log differs from the specification's run."""

    step: int  # column index
    diffs: tuple[FieldDiff, ...] = ()
    status: str = "diverged"  # or "failed"
    note: str = ""


def from_run(
    title: str,
    states: Sequence[GameState],
    actions: Sequence[Action],
    events: Sequence[tuple[Event, ...]],
    *,
    errors: Sequence[str | None] = (),
    divergence: Divergence | None = None,
    observed: Sequence[Observation | None] = (),
    extra: Sequence[tuple[str, str]] = (),
    summary: str = "",
) -> Timeline:
    """The timeline of a run of our engine: ``states[0]`` is the start, ``actions[i]`` with
    ``events[i]`` leads to ``states[i + 1]``. ``extra`` adds columns after the run (a step
    the specification could not take: its label and status), ``observed[i]`` marks the fields
    a log reported at state ``i``."""
    setup = states[0].setup
    names = setup.player_names
    projections = [project(s) for s in states]
    columns = [Column(0, "start")]
    for i, (action, evs) in enumerate(zip(actions, events, strict=True), start=1):
        error = errors[i - 1] if i - 1 < len(errors) else None
        columns.append(
            Column(
                i,
                describe_action(action, names),
                _clauses(evs),
                tuple(e.describe() for e in evs if e.kind is not EventKind.PRIORITY),
                "crashed" if error else "ok",
                error or "",
            )
        )
    for j, (label, status) in enumerate(extra, start=len(columns)):
        columns.append(Column(j, label, status=status))
    if divergence is not None and divergence.step < len(columns):
        col = columns[divergence.step]
        event_diff = next((d for d in divergence.diffs if d.path == "events"), None)
        columns[divergence.step] = Column(
            col.index,
            col.action,
            col.clauses,
            col.events,
            divergence.status,
            divergence.note or col.note,
            event_diff,
        )
    rows: list[Row] = []
    for slot, handle in enumerate(setup.handles):
        template = setup.templates[slot]
        cells = []
        for i in range(len(columns)):
            k = min(i, len(projections) - 1)
            rec = projections[k].cards[handle]
            before = projections[k - 1].cards[handle] if 0 < i < len(projections) else None
            evs = events[i - 1] if 0 < i <= len(events) else ()
            diffs = _diffs_for(divergence, i, f"cards.{handle}")
            obs = observed[k] if k < len(observed) else None
            owner = names[setup.owners[slot]]
            cells.append(_cell(rec, before, handle, owner, evs, diffs, obs, i >= len(projections)))
        rows.append(Row(handle, f"{template.name} ({names[setup.owners[slot]]})", tuple(cells)))
    for p, name in enumerate(names):
        cells = []
        for i in range(len(columns)):
            k = min(i, len(projections) - 1)
            rec = projections[k].players[name]
            before = projections[k - 1].players[name] if 0 < i < len(projections) else None
            diffs = _diffs_for(divergence, i, f"players.{name}")
            lines = (("life", f"life {rec['life']}"),) + (
                (("poison", f"poison {rec['poison']}"),) if rec["poison"] else ()
            )
            changed = tuple(
                f for f in ("life", "poison") if before is not None and before[f] != rec[f]
            )
            evs = events[i - 1] if 0 < i <= len(events) else ()
            about = tuple(dict.fromkeys(e.clause for e in evs if e.subject == name))
            cells.append(Cell(lines, changed, about if changed else (), diffs))
        rows.append(Row(name, f"player {p + 1}", tuple(cells), kind="player"))
    cited = tuple(dict.fromkeys(c for col in columns for c in col.clauses))
    return Timeline(title, tuple(columns), tuple(rows), summary, cited, bool(observed))


def _clauses(events: Sequence[Event]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(e.clause for e in events))


def _diffs_for(divergence: Divergence | None, step: int, prefix: str) -> tuple[FieldDiff, ...]:
    if divergence is None or divergence.step != step:
        return ()
    return tuple(d for d in divergence.diffs if d.path == prefix or d.path.startswith(prefix + "."))


def _cell(
    rec: dict[str, Value],
    before: dict[str, Value] | None,
    handle: str,
    owner: str,
    events: Sequence[Event],
    diffs: tuple[FieldDiff, ...],
    observed: Observation | None,
    beyond: bool,
) -> Cell:
    """``beyond``: a column past the end of the run (the step it could not take), shown with
    the last state and the diffs only."""
    changed = (
        () if before is None or beyond else tuple(f for f in SHOWN if before.get(f) != rec.get(f))
    )
    about = [e for e in events if e.subject == handle]
    clauses: dict[str, None] = {}
    for f in changed:
        for e in about:
            if e.kind in _FIELD_EVENTS[f]:
                clauses.setdefault(e.clause, None)
    if changed and not clauses:
        clauses = dict.fromkeys(e.clause for e in about)
    unobserved: tuple[str, ...] = ()
    if observed is not None:
        seen = observed.cards.get(handle, {})
        unobserved = tuple(f for f in SHOWN if f in rec and f not in seen)
    lines = describe(rec, owner)
    shown = {name for name, _ in lines}
    gone: tuple[tuple[str, str], ...] = ()
    if before is not None and changed and rec.get("zone") == "battlefield":
        gone = tuple(
            (name, text)
            for name, text in describe(before, owner)
            if name in changed and name not in shown
        )
    return Cell(lines, changed, tuple(clauses), diffs, str(rec.get("zone", "")), unobserved, gone)


def describe(rec: dict[str, Value], owner: str = "") -> tuple[tuple[str, str], ...]:
    """A permanent's projected fields as short lines, each with the field it shows, leaving
    out those at their default (the controller too, while it is the ``owner``)."""
    zone = str(rec.get("zone", "?"))
    if zone != "battlefield":
        return (("zone", zone),)
    lines = [("zone", zone)]
    if "power" in rec:
        lines.append(("power", f"{rec['power']}/{rec['toughness']}"))
    if rec.get("controller") and rec["controller"] != owner:
        lines.append(("controller", f"controlled by {rec['controller']}"))
    if rec.get("tapped"):
        lines.append(("tapped", "tapped"))
    if rec.get("damage"):
        lines.append(("damage", f"damage {rec['damage']}"))
    n = rec.get("shields")
    if n:
        lines.append(("shields", f"{n} shield{'s' if n != 1 else ''}"))
    for key, label in (
        ("plus_counters", "+1/+1"),
        ("minus_counters", "-1/-1"),
        ("shield_counters", "shield counter"),
    ):
        if rec.get(key):
            lines.append((key, f"{rec[key]} {label}"))
    if rec.get("attacking"):
        lines.append(("attacking", "attacking"))
    if rec.get("blocking"):
        lines.append(("blocking", "blocking"))
    if rec.get("unregenerable"):
        lines.append(("unregenerable", "can't be regenerated"))
    return tuple(lines)
