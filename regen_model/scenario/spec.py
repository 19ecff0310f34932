"""A loaded scenario as typed values: its start state, its events and its expectations.

Loading resolves every name once (handles, players, cards, spells), so running a scenario can
only fail for reasons the rules decide. Two things are left to run time because they depend on
the game as it is then: the player who owes a turn-based choice when the file leaves it out
(``ScenarioEvent.make`` receives the current state), and ``pass-until``, whose passes depend on who
holds priority along the way.

An expectation is a list of ``Probe``s: each reads one actual value from the game (or from the
events seen) and compares it with what the file says. Keeping probes as small closures makes
a new kind of expectation one function in ``parse_expect.py`` and nothing else.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from regen_model.model.actions import Action, ReplacementChoice
from regen_model.model.enums import Edition, Step
from regen_model.model.events import Event
from regen_model.model.state import GameState
from regen_model.scenario.source import Source


@dataclass(frozen=True)
class View:
    """What a probe may look at: the state now, the events seen, and the start state."""

    state: GameState
    events: tuple[Event, ...]
    start: GameState


@dataclass(frozen=True)
class Probe:
    """One expectation: ``what`` (e.g. ``troll.tapped``) must read as ``expected``.

    ``read`` extracts the actual value, ``holds`` compares, ``show`` prints a value the way
    the file would write it.
    """

    what: str
    line: int
    expected: object
    read: Callable[[View], object]
    holds: Callable[[object, object], bool]
    show: Callable[[object], str]


@dataclass(frozen=True)
class ErrorExpect:
    """The event must be refused by the engine with this error class (``EngineError`` matches
    every engine error), a message containing ``message``, the given clause if any, and the
    given field if any: the action's field the refusal is about (``EngineError.field``), which
    the runner names when the refusal was not expected, so a wrong one points a user at the
    wrong line of their scenario."""

    line: int
    error_class: str = "EngineError"
    message: str | None = None
    clause: str | None = None
    field: str | None = None

    def describe(self) -> str:
        parts = [self.error_class]
        if self.message:
            parts.append(f"containing {self.message!r}")
        if self.clause:
            parts.append(f"[{self.clause}]")
        if self.field:
            parts.append(f"(field {self.field})")
        return " ".join(parts)


@dataclass(frozen=True)
class Expect:
    probes: tuple[Probe, ...] = ()
    error: ErrorExpect | None = None

    @property
    def empty(self) -> bool:
        return not self.probes and self.error is None


@dataclass(frozen=True)
class PassUntil:
    """The ``pass-until`` macro: pass priority until the game is in ``step`` (of ``turn``)."""

    step: Step
    turn: int | None = None


@dataclass(frozen=True)
class ScenarioEvent:
    """One item of the file's ``events``. Exactly one of ``make`` and ``until`` is set."""

    index: int
    line: int
    kind: str
    summary: str
    args: object  # the arguments as written (plain data), for JSON output
    make: Callable[[GameState], tuple[Action, ...]] | None
    until: PassUntil | None
    choices: tuple[ReplacementChoice, ...] = ()
    expect: Expect = field(default_factory=Expect)
    note: str = ""


@dataclass(frozen=True, eq=False)
class Scenario:
    file: str
    name: str
    description: str
    edition: Edition
    clauses: tuple[str, ...]
    start: GameState
    events: tuple[ScenarioEvent, ...]
    expect: Expect
    expect_line: int
    source: Source
