"""Agreement of the two views: the engine and the transition relation say the same thing.

For one concrete state and action, ``check_agreement``:

(a) the relation's guard holds exactly when the engine accepts the action (an
    ``EngineError`` means not enabled);
(b) when it is accepted, the engine's successor, through the abstraction function
    (``frame.values``), equals the relation's successor field by field, and the step outputs
    the engine's events give (``outputs.outputs_of``) equal the relation's;
(c) "no other successor for the same parameters" is not checked per state: it holds for
    every state at once, because every successor variable is a function of the predecessor
    and the parameters, and ``queries.determinism`` proves that once per action kind.

The relation is evaluated on concrete values (``evaluate.py``), not by a solver call, which
makes a check cost about as much as an engine step. A differing field is reported with the
clause that wrote it in the relation, so a disagreement reads as a rule: "``c0.tapped``:
engine True, relation False (written by ``regen.apply.tap``)".

Outcomes other than agreement: ``OUT_OF_SCOPE`` (the action cannot be written as parameters,
or the step passes through a state larger than the scope, e.g. a third shield: the relation
then fails a ``scope:...`` guard), ``DIVERGES`` (the engine's 704.3 loop does not end, which
only a mutant causes, and the relation's ``sba.loop`` obligation fails too) and
``DISAGREE``, which is a bug in one of the two views.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import TYPE_CHECKING

from regen_model.encoding import params as P
from regen_model.encoding.evaluate import Evaluation, Prepared, evaluate_params, prepare
from regen_model.encoding.frame import values
from regen_model.encoding.outputs import CARD_FIELDS, outputs_of
from regen_model.encoding.scope import DEFAULT_SCOPE, OutOfScope, Scope
from regen_model.encoding.work import FRAME, layout
from regen_model.engine import EngineError, StepResult, step
from regen_model.model.actions import Action
from regen_model.model.events import EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

if TYPE_CHECKING:
    from regen_model.encoding.branches import Recorder


class Status(StrEnum):
    AGREE = "agree"
    OUT_OF_SCOPE = "out-of-scope"
    DIVERGES = "diverges"
    DISAGREE = "disagree"


# What the engine reports about a card field: the event kinds whose clauses can have changed
# it (a field not listed here: every event about the card). Frame fields are matched by their
# last dotted component (``c0.sh1.used`` -> ``used``), step outputs by their name.
_FIELD_EVENTS: dict[str, frozenset[EventKind]] = {
    name: frozenset(kinds)
    for names, kinds in (
        (("tapped",), (EventKind.BECAME_TAPPED, EventKind.BECAME_UNTAPPED)),
        (("regen_taps", "other_taps"), (EventKind.BECAME_TAPPED,)),
        (("damage", "deathtouched"), (EventKind.DAMAGE_DEALT, EventKind.DAMAGE_REMOVED)),
        (("zone", "gen", "left", "returned"), (EventKind.ZONE_CHANGE, EventKind.DESTROYED)),
        (("destroyed",), (EventKind.DESTROYED,)),
        (("would_destroy",), (EventKind.WOULD_BE_DESTROYED,)),
        (("control", "control_eot"), (EventKind.CONTROL_CHANGED,)),
        (
            (
                "attacking",
                "blocked",
                "blocking",
                "blocking_also",
                "order_pos",
                "order_pos_also",
                "ordered",
                "first_striker",
            ),
            (
                EventKind.REMOVED_FROM_COMBAT,
                EventKind.ATTACKERS_DECLARED,
                EventKind.BLOCKERS_DECLARED,
                EventKind.BLOCKERS_ORDERED,
            ),
        ),
        (("attached_to",), (EventKind.UNATTACHED, EventKind.ZONE_CHANGE)),
        (
            ("present", "used", "rider", "creator", "shields_used"),
            (EventKind.SHIELD_CREATED, EventKind.REGENERATED, EventKind.CLEANUP),
        ),
        (("shields_made",), (EventKind.SHIELD_CREATED,)),
        (("regenerations", "static_regens"), (EventKind.REGENERATED,)),
        (("by_shield", "by_static"), (EventKind.REGENERATED,)),
        (("by_other",), (EventKind.REPLACED,)),
        (("destructions",), (EventKind.WOULD_BE_DESTROYED,)),
        (("cant_regen",), (EventKind.UNREGENERABLE, EventKind.CLEANUP)),
        (("exile_if_dies",), (EventKind.NOTE, EventKind.EFFECTS_ENDED, EventKind.ZONE_CHANGE)),
        (("gy_pos",), (EventKind.NOTE, EventKind.ZONE_CHANGE)),
        (("plus", "minus"), (EventKind.COUNTERS_PLACED, EventKind.COUNTERS_REMOVED)),
        (
            ("shield_counters",),
            (EventKind.COUNTERS_PLACED, EventKind.COUNTERS_REMOVED, EventKind.REPLACED),
        ),
        (("power_eot", "toughness_eot"), (EventKind.PT_MODIFIED, EventKind.EFFECTS_ENDED)),
        (("damage_triggers", "riders"), (EventKind.TRIGGERED, EventKind.CONTROL_CHANGED)),
    )
    for name in names
}
_SLOT = re.compile(r"^c(\d+)\.(?:.*\.)?([a-z_]+)$|^out\.([a-z_]+)\[(\d+)\]$")


@dataclass(frozen=True)
class FieldDiff:
    """One field on which the views differ. ``clause``: the relation's last writer of it
    (``frame``: the relation left it unchanged; ``outputs``: a step output). ``engine_clauses``:
    the clauses of the engine's events about the same card that can change such a field (empty
    when the engine reported none, e.g. because it left the field unchanged)."""

    field: str
    engine: int | bool | None
    relation: int | bool | None
    clause: str
    engine_clauses: tuple[str, ...] = ()

    def describe(self) -> str:
        by = f" ({', '.join(self.engine_clauses)})" if self.engine_clauses else ""
        return f"{self.field}: engine {self.engine}{by}, relation {self.relation} ({self.clause})"


@dataclass(frozen=True)
class AgreementResult:
    """The outcome of one check. ``engine_enabled``/``relation_enabled`` are None when that
    view was not asked (out of scope before it)."""

    status: Status
    kind: str
    engine_enabled: bool | None = None
    relation_enabled: bool | None = None
    reason: str = ""
    diffs: tuple[FieldDiff, ...] = ()
    guard: str | None = None  # the relation's first false guard
    engine_error: str | None = None
    engine_clause: str | None = None  # the clause of the engine's refusal (``EngineError``)
    successor: GameState | None = field(default=None, compare=False, repr=False)

    @property
    def agrees(self) -> bool:
        return self.status is Status.AGREE

    @property
    def clauses(self) -> tuple[str, ...]:
        """The clause IDs involved in a disagreement: the relation's writers of the differing
        fields, then the engine's clauses about them, then the relation's failed guard and the
        engine's refusal."""
        found = [d.clause for d in self.diffs if d.clause not in (FRAME, "outputs")]
        found += [c for d in self.diffs for c in d.engine_clauses]
        found += [c for c in (self.guard, self.engine_clause) if c]
        return tuple(dict.fromkeys(found))

    def describe(self) -> str:
        parts = [f"{self.status.value} ({self.kind})"]
        if self.reason:
            parts.append(self.reason)
        if self.engine_error:
            parts.append(f"engine: {self.engine_error}")
        if self.guard:
            parts.append(f"relation guard false: {self.guard}")
        parts += [d.describe() for d in self.diffs[:8]]
        if len(self.diffs) > 8:
            parts.append(f"... {len(self.diffs) - 8} more fields")
        return "; ".join(parts)


def check_agreement(
    state: GameState,
    action: Action,
    rules: Rules = CORRECT,
    scope: Scope = DEFAULT_SCOPE,
    prepared: Prepared | None = None,
    *,
    relation_rules: Rules | None = None,
    recorder: Recorder | None = None,
) -> AgreementResult:
    """Compare the engine and the relation on ``action`` in ``state`` (module docstring).
    ``prepared`` (``evaluate.prepare(state, scope)``) saves work when a state has many
    actions. ``rules`` apply to both views unless ``relation_rules`` is given: then ``rules``
    are the engine's and ``relation_rules`` the relation's (a mutant in one view only, to
    test that the check catches it). ``recorder`` measures which branches of each view the
    check exercises (``branches.py``)."""
    kind = action.kind
    try:
        prep = prepared if prepared is not None else prepare(state, scope)
        params = P.of_action(state, action, prep.scope)
    except OutOfScope as err:
        return AgreementResult(Status.OUT_OF_SCOPE, kind, reason=str(err))
    relation = rules if relation_rules is None else relation_rules
    if recorder is None:
        ev = evaluate_params(prep, params, kind, relation)
    else:
        with recorder.relation():
            ev = evaluate_params(prep, params, kind, relation)
    try:
        if recorder is None:
            result = step(state, action, rules)
        else:
            with recorder.engine():
                result = step(state, action, rules)
    except EngineError as err:
        if ev.enabled:
            return AgreementResult(
                Status.DISAGREE,
                kind,
                False,
                True,
                "the relation enables an action the engine refuses",
                engine_error=f"{type(err).__name__}: {err}",
                engine_clause=err.clause,
            )
        return AgreementResult(Status.AGREE, kind, False, False, guard=ev.failed)
    except Exception as crash:
        return _crashed(kind, ev, crash)
    return replace(_compare(prep, state, result, ev, kind), successor=result.state)


def _crashed(kind: str, ev: Evaluation, crash: Exception) -> AgreementResult:
    text = f"{type(crash).__name__}: {crash}"
    if ev.enabled and "sba.loop" in ev.obligations_failed:
        return AgreementResult(
            Status.DIVERGES,
            kind,
            None,
            True,
            "the 704.3 loop does not end in either view",
            engine_error=text,
        )
    if not ev.enabled and (ev.failed or "").startswith("scope:"):
        return AgreementResult(
            Status.OUT_OF_SCOPE, kind, None, False, guard=ev.failed, engine_error=text
        )
    return AgreementResult(
        Status.DISAGREE,
        kind,
        None,
        ev.enabled,
        "the engine crashed",
        guard=ev.failed,
        engine_error=text,
    )


def _compare(
    prep: Prepared, state: GameState, result: StepResult, ev: Evaluation, kind: str
) -> AgreementResult:
    if not ev.enabled:
        if (ev.failed or "").startswith("scope:"):
            return AgreementResult(
                Status.OUT_OF_SCOPE,
                kind,
                True,
                False,
                "the step passes through a state larger than the scope",
                guard=ev.failed,
            )
        return AgreementResult(
            Status.DISAGREE,
            kind,
            True,
            False,
            "the engine accepts an action the relation's guard refuses",
            guard=ev.failed,
        )
    try:
        post = values(layout(prep.scope).frame, result.state)
    except OutOfScope as err:
        return AgreementResult(Status.OUT_OF_SCOPE, kind, True, True, f"successor: {err}")
    diffs: list[FieldDiff] = []
    if post != ev.post:
        diffs += [
            FieldDiff(key, value, ev.post.get(key), ev.writers.get(key, FRAME))
            for key, value in post.items()
            if ev.post.get(key) != value
        ]
    engine_out = outputs_of(state, result.events, result.state)
    n = prep.scope.cards
    for name in CARD_FIELDS:
        got = tuple(engine_out.cards[name]) + (0,) * (n - len(engine_out.cards[name]))
        for slot, (a, b) in enumerate(zip(got, ev.outputs[name], strict=True)):
            if a != b:
                diffs.append(FieldDiff(f"out.{name}[{slot}]", a, b, "outputs"))
    diffs = [replace(d, engine_clauses=engine_clauses(d.field, state, result)) for d in diffs]
    if engine_out.priority_given != ev.priority_given:
        diffs.append(
            FieldDiff(
                "out.priority_given",
                engine_out.priority_given,
                ev.priority_given,
                "priority.receive",
            )
        )
    if engine_out.countered != ev.countered:
        diffs.append(
            FieldDiff("out.countered", engine_out.countered, ev.countered, "stack.counter")
        )
    if diffs:
        return AgreementResult(
            Status.DISAGREE, kind, True, True, "the successors differ", diffs=tuple(diffs)
        )
    if ev.obligations_failed:
        return AgreementResult(
            Status.DISAGREE,
            kind,
            True,
            True,
            "the relation's state-based-action bound was too small for a step the engine settled",
            guard=ev.obligations_failed[0],
        )
    return AgreementResult(Status.AGREE, kind, True, True)


def engine_clauses(key: str, state: GameState, result: StepResult) -> tuple[str, ...]:
    """The clauses of the engine's events that can have changed field ``key`` of a card
    (``_FIELD_EVENTS``); empty for fields that are not a card's."""
    m = _SLOT.match(key)
    if m is None:
        return ()
    slot, name = (int(m[1]), m[2]) if m[1] is not None else (int(m[4]), m[3])
    handles = state.setup.handles
    if slot >= len(handles):
        return ()
    kinds = _FIELD_EVENTS.get(name)
    found = [
        e.clause
        for e in result.events
        if e.subject == handles[slot] and (kinds is None or e.kind in kinds)
    ]
    return tuple(dict.fromkeys(found))
