"""The adapter protocol: how the cross-checker drives an engine, whatever it is written in.

An adapter sets up a start state, applies actions one at a time and reports what it sees as
an ``Observation`` (``observe.py``). Three outcomes of ``apply`` are distinguished, because the
checker treats them differently:

* it returns: the engine accepted the action (then ``observe`` tells what happened);
* ``ActionRejected``: the engine says the action is illegal now (a well-behaved answer, a
  divergence only if the specification accepted the action);
* ``EngineFailure``: the engine crashed, hung or answered nonsense. The checker records it,
  restarts the adapter and goes on with the next scenario;
* ``StepUnsupported``: the engine cannot express this step after all; the case is skipped.

Three optional members let an engine that does not share the specification's structure follow
it anyway (docs/crosscheck.md, "Engines that work differently"):

* ``lacks``: the features of the documented vocabulary (``features.py``) the engine does not
  have; the generator builds no case that uses them, and fixed cases that do are left out
  (counted apart from skipped ones);
* ``apply_step(action, spec)``: called instead of ``apply`` when present, with a ``SpecStep``:
  what the step did at the specification's level (``resolved:Terror``,
  ``step-began:combat-damage``, ``sba-check``, ...) and the projection the specification reached.
  An engine that resolves a spell the moment it is cast holds the cast until the specification
  says it resolved; one without a separate state-based-action check applies damage when the
  specification checks. The adapter learns *what* happened, never the rules that made it happen;
* ``resync(state)``: set the engine to the specification's ``state`` in the middle of a case
  (``True`` if it could). A run with a known-divergence list continues past a known divergence
  this way (``case.run_case``); an engine that cannot resync has the rest of the case masked.

Engines are found by name (``engine_factory``):

* ``reference`` is our engine; ``reference:MUTANT[+MUTANT...]`` runs it under deliberately
  wrong rules (``model.enums.Mutant``), which is how the cross-checker's power is measured;
* ``jsonl:COMMAND`` runs COMMAND as a subprocess speaking the JSON-lines protocol
  (``jsonl.py``, docs/crosscheck.md);
* ``python:MODULE:FACTORY`` imports a factory from a module on ``sys.path``;
* any other NAME or NAME:ARG is looked up in the entry point group ``regen_model.engines``:
  a package declares ``[project.entry-points."regen_model.engines"] NAME = "pkg.mod:factory"``
  and the factory is called with ARG (or ``None``). This package declares ``phase`` (phase.rs,
  PyPI ``phase-python``, through ``regen_model.adapters.phase``) that way, like any third-party
  engine, so the plugin route is the one exercised by our own first real engine.
"""

from __future__ import annotations

import importlib
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from typing import Protocol, runtime_checkable

from regen_model.conform.observe import Observation, project
from regen_model.engine import EngineError, step
from regen_model.model.actions import Action
from regen_model.model.enums import Mutant
from regen_model.model.events import Event, EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

ENTRY_POINT_GROUP = "regen_model.engines"


@dataclass(frozen=True)
class Unsupported:
    """Why an engine cannot run a scenario (it is then skipped and counted, not failed).

    ``action``: the index of the first action the engine cannot express, or ``None`` when the
    start state is the problem (or the engine does not say). Kept apart from ``reason`` so that
    skipped scenarios group by reason in the report.
    """

    reason: str
    action: int | None = None

    def __str__(self) -> str:
        where = "start state" if self.action is None else f"action {self.action}"
        return f"{where}: {self.reason}"


class ActionRejected(Exception):
    """The engine refuses the action as illegal. ``clause``: the rule it cites, if any."""

    def __init__(self, message: str, clause: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.clause = clause


class EngineFailure(Exception):
    """The engine misbehaved: crashed, timed out, or replied with something unreadable."""


class StepUnsupported(Exception):
    """Found during a run: this step has no faithful equivalent in the engine. The case is
    counted as skipped (like an ``Unsupported`` start), not as a divergence."""


class UnknownEngine(ValueError):
    """No engine of that name (the message lists the known ones)."""


@runtime_checkable
class EngineAdapter(Protocol):
    """What the cross-checker needs from an engine. See the module docstring for errors."""

    @property
    def name(self) -> str: ...

    @property
    def version(self) -> str: ...

    def supports(self, state: GameState, actions: Sequence[Action]) -> Unsupported | None:
        """``None`` if the engine can run this start and these actions."""
        ...

    def start(self, state: GameState) -> None:
        """Set up a new game in ``state`` (discarding any previous one)."""
        ...

    def apply(self, action: Action) -> None: ...

    def observe(self) -> Observation:
        """What the engine shows now; ``events`` are those of the last ``apply``."""
        ...

    def close(self) -> None: ...


EngineFactory = Callable[[str | None], EngineAdapter]


# The events that describe the structure of a step (the stack, priority, the turn), as opposed to
# what happened to the game's objects. They make up ``SpecStep.did``, in the order they happened.
STRUCTURE_EVENTS: dict[EventKind, str] = {
    EventKind.SPELL_CAST: "cast",
    EventKind.ABILITY_ACTIVATED: "activated",
    EventKind.PUT_ON_STACK: "put-on-stack",
    EventKind.TRIGGERED: "triggered",
    EventKind.RESOLVED: "resolved",
    EventKind.FIZZLED: "fizzled",
    EventKind.COUNTERED: "countered",
    EventKind.PASSED: "passed",
    EventKind.PRIORITY: "priority",
    EventKind.SBA_CHECK: "sba-check",
    EventKind.CLEANUP: "cleanup",
    EventKind.STEP_BEGAN: "step-began",
    EventKind.TURN_BEGAN: "turn-began",
    EventKind.ATTACKERS_DECLARED: "attackers-declared",
    EventKind.BLOCKERS_DECLARED: "blockers-declared",
    EventKind.COMBAT_DAMAGE_ASSIGNED: "combat-damage",
}


def structure_token(e: Event) -> str | None:
    """``resolved:Terror``, ``step-began:combat-damage``, ``turn-began:2``, ``sba-check``..."""
    name = STRUCTURE_EVENTS.get(e.kind)
    if name is None:
        return None
    if e.kind is EventKind.STEP_BEGAN:
        return f"{name}:{e.get('step')}"
    if e.kind is EventKind.TURN_BEGAN:
        return f"{name}:{e.get('turn') if e.get('turn') is not None else e.subject}"
    return name if e.subject is None else f"{name}:{e.subject}"


@dataclass(frozen=True)
class SpecStep:
    """What one step did at the specification's level, for adapters that follow it
    (``apply_step``). ``did``: the structure tokens of the step in order (``STRUCTURE_EVENTS``);
    ``after``: the specification's projection after the step; ``state``: the specification's
    state itself (Python adapters only; the JSON-lines protocol sends ``did`` and ``after``)."""

    did: tuple[str, ...]
    after: Observation
    state: GameState

    @classmethod
    def of(cls, state: GameState, events: Sequence[Event]) -> SpecStep:
        did = tuple(t for e in events if (t := structure_token(e)) is not None)
        return cls(did, project(state, events), state)

    def has(self, kind: str) -> bool:
        return any(t == kind or t.startswith(kind + ":") for t in self.did)

    def subjects(self, kind: str) -> list[str]:
        """The subjects of the tokens of one kind, in order (``resolved`` -> spell names)."""
        prefix = kind + ":"
        return [t[len(prefix) :] for t in self.did if t.startswith(prefix)]

    def to_json(self) -> dict[str, object]:
        return {"did": list(self.did), "after": self.after.to_json()}


def lacked_features(adapter: object) -> frozenset[str]:
    """The features an adapter declares it lacks (``lacks``; none when it says nothing)."""
    lacks = getattr(adapter, "lacks", None)
    return frozenset(str(f) for f in lacks) if lacks else frozenset()


def apply_step(adapter: EngineAdapter, action: Action, spec: SpecStep) -> None:
    """``adapter.apply_step(action, spec)`` if the adapter follows the specification's steps,
    else ``adapter.apply(action)``."""
    follow = getattr(adapter, "apply_step", None)
    if follow is None:
        adapter.apply(action)
    else:
        follow(action, spec)


def resync(adapter: EngineAdapter, state: GameState) -> bool:
    """Set the engine to the specification's ``state``; ``False`` if the adapter cannot."""
    method = getattr(adapter, "resync", None)
    if method is None:
        return False
    return bool(method(state))


def package_version() -> str:
    try:
        return metadata.version("regen-model")
    except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        return "0+unknown"


class ReferenceAdapter:
    """Our engine behind the adapter protocol, under correct or mutant rules."""

    def __init__(self, rules: Rules = CORRECT) -> None:
        self.rules = rules
        self._state: GameState | None = None
        self._events: tuple[Event, ...] = ()

    @property
    def name(self) -> str:
        return "reference" if not self.rules.mutants else f"reference:{self.rules.name}"

    @property
    def version(self) -> str:
        return package_version()

    def supports(self, state: GameState, actions: Sequence[Action]) -> Unsupported | None:
        return None

    def start(self, state: GameState) -> None:
        self._state = state
        self._events = ()

    def resync(self, state: GameState) -> bool:
        self._state = state
        self._events = ()
        return True

    @property
    def state(self) -> GameState:
        if self._state is None:
            raise EngineFailure("apply or observe before start")
        return self._state

    def apply(self, action: Action) -> None:
        try:
            self._state, self._events = step(self.state, action, self.rules)
        except EngineError as exc:
            raise ActionRejected(exc.message, exc.clause) from None

    def observe(self) -> Observation:
        return project(self.state, self._events)

    def close(self) -> None:
        self._state = None


def parse_rules(text: str | None) -> Rules:
    """``None``/``""``/``correct`` for the correct rules, else mutant names joined by ``+``."""
    if not text or text == "correct":
        return CORRECT
    known = {m.value: m for m in Mutant}
    mutants = set()
    for part in text.split("+"):
        if part not in known:
            raise UnknownEngine(f"unknown mutant {part!r}; known: {', '.join(sorted(known))}")
        mutants.add(known[part])
    return Rules(frozenset(mutants))


def _reference(arg: str | None) -> EngineAdapter:
    return ReferenceAdapter(parse_rules(arg))


def jsonl_command(arg: str | None) -> list[str]:
    """The command of ``jsonl:COMMAND``, split as a shell would (``UnknownEngine`` if it
    cannot be)."""
    try:
        command = shlex.split(arg or "")
    except ValueError as exc:
        raise UnknownEngine(f"cannot split the jsonl command {arg!r}: {exc}") from None
    if not command:
        raise UnknownEngine("jsonl needs a command: --engine 'jsonl:python my_engine.py'")
    return command


def _jsonl(arg: str | None) -> EngineAdapter:
    from regen_model.conform.jsonl import JsonlAdapter

    return JsonlAdapter(jsonl_command(arg))


def _python(arg: str | None) -> EngineAdapter:
    if not arg or ":" not in arg:
        raise UnknownEngine("python needs MODULE:FACTORY, e.g. --engine python:my_pkg.adapter:make")
    module_name, _, attr = arg.rpartition(":")
    try:
        module = importlib.import_module(module_name)
        factory = getattr(module, attr)
    except (ImportError, AttributeError) as exc:
        raise UnknownEngine(f"cannot load {arg}: {exc}") from None
    adapter = factory()
    return _checked(adapter, arg)


BUILTIN: dict[str, EngineFactory] = {
    "reference": _reference,
    "jsonl": _jsonl,
    "python": _python,
}


def _checked(adapter: object, origin: str) -> EngineAdapter:
    if not isinstance(adapter, EngineAdapter):
        raise UnknownEngine(f"{origin} did not return an EngineAdapter (got {type(adapter)!r})")
    return adapter


def entry_point_engines() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def engine_names() -> list[str]:
    """Every engine name: the built-ins, then those declared by installed packages."""
    return [*BUILTIN, *sorted(entry_point_engines())]


def engine_factory(spec: str) -> Callable[[], EngineAdapter]:
    """A zero-argument factory for the engine named ``spec`` (``NAME`` or ``NAME:ARG``).

    The factory is called again to restart an engine after a failure, so it must give a
    fresh adapter each time. The name is checked now, so a typo fails before any run.
    """
    name, _, arg = spec.partition(":")
    arg_or_none = arg or None
    if name in BUILTIN:
        make = BUILTIN[name]
        if name == "reference":
            parse_rules(arg_or_none)  # validate now
        if name == "jsonl":
            jsonl_command(arg_or_none)
        return lambda: make(arg_or_none)
    eps = entry_point_engines()
    if name not in eps:
        raise UnknownEngine(
            f"unknown engine {name!r}; known: {', '.join(engine_names())} "
            f"(packages add engines under the entry point group {ENTRY_POINT_GROUP!r})"
        )
    ep = eps[name]

    def make_from_entry_point() -> EngineAdapter:
        try:
            factory = ep.load()
        except Exception as exc:
            raise UnknownEngine(f"cannot load entry point {ep.value}: {exc}") from None
        return _checked(factory(arg_or_none), f"entry point {name} ({ep.value})")

    return make_from_entry_point


__all__ = [
    "ENTRY_POINT_GROUP",
    "STRUCTURE_EVENTS",
    "ActionRejected",
    "EngineAdapter",
    "EngineFactory",
    "EngineFailure",
    "ReferenceAdapter",
    "SpecStep",
    "UnknownEngine",
    "Unsupported",
    "apply_step",
    "engine_factory",
    "engine_names",
    "jsonl_command",
    "lacked_features",
    "parse_rules",
    "resync",
]
