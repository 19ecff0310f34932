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
from regen_model.model.events import Event
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
    "ActionRejected",
    "EngineAdapter",
    "EngineFactory",
    "EngineFailure",
    "ReferenceAdapter",
    "UnknownEngine",
    "Unsupported",
    "engine_factory",
    "engine_names",
    "jsonl_command",
    "parse_rules",
]
