"""What a search under the correct rules computed, for searches under a mutant to reuse.

A mutant is a flag the rule code consults where it would act differently
(``model.enums.Mutant``). A step whose computation never consulted a mutant takes, under that
mutant, exactly the path it took under the correct rules: every branch it passes decides on
the state, the action or other flags. So its successor, and what the monitor found on it, are
the correct rules' (the explorer's candidate actions do not depend on the rules at all).

``Transitions`` records, during a search under the correct rules, each step's outcome and the
mutants the engine asked about while computing it (``Asked`` is the empty mutant set that
remembers the questions). A later search under a mutant (``explore(..., reuse=...)``) takes a
recorded outcome when the mutant is not among the step's questions (starting from the very
start states of the record: states compare their ``Setup`` by identity), and runs the engine and
the monitor only for the steps where the mutant may change something: the search is the
same, step for step, as one that ran everything (``tests/mutants/test_reuse.py`` compares).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from regen_model.explore.monitor import Finding
from regen_model.model.actions import Action
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.model.state import GameState


class Asked(frozenset[Mutant]):
    """No mutant at all, remembering which mutants the rule code asked about (``in``)."""

    questions: set[Mutant]

    def __new__(cls) -> Asked:
        made = super().__new__(cls)
        made.questions = set()
        return made

    def __contains__(self, m: object) -> bool:
        if isinstance(m, Mutant):
            self.questions.add(m)
        return False


@dataclass(frozen=True)
class Outcome:
    """One step as the correct rules computed it: the successor (None if the engine refused
    the action or crashed), the monitor's findings on the step, and the mutants asked about."""

    successor: GameState | None
    findings: tuple[Finding, ...]
    asked: frozenset[Mutant]


@dataclass(frozen=True)
class Recorded:
    """How the recorded search went, for a search under a mutant that turns out to be the
    same search: its bounds (a search of other bounds is not the same), its counters, and
    whether it ended cleanly (no finding, no budget or signal cut it short)."""

    depth: int
    max_states: int | None
    clean: bool
    exhausted: bool
    starts: int
    progress: Any  # ``bfs.Progress`` (a copy)


@dataclass
class Transitions:
    """The record of one search under the correct rules (see the module docstring)."""

    asked: Asked = field(default_factory=Asked)
    search: Any = None  # what the recorded search was: ``bfs.reuse_key`` of its config
    starts: tuple[GameState, ...] = ()  # the search's start states (states share a ``Setup``)
    actions: dict[GameState, tuple[Action, ...]] = field(default_factory=dict)
    steps: dict[tuple[GameState, Action], Outcome] = field(default_factory=dict)
    states: dict[GameState, tuple[Finding, ...]] = field(default_factory=dict)
    result: Recorded | None = None  # set when the recorded search has ended

    @property
    def rules(self) -> Rules:
        """The correct rules, asking ``asked`` whenever they consult a mutant."""
        return Rules(self.asked)

    def changeable(self, mutants: frozenset[Mutant]) -> list[tuple[GameState, Action, Outcome]]:
        """The recorded steps that asked about one of ``mutants`` (in the order taken): the
        only steps a search under them may take differently."""
        return [(s, a, o) for (s, a), o in self.steps.items() if o.asked & mutants]

    def questions(self) -> frozenset[Mutant]:
        """Every mutant asked about during the whole search."""
        out: set[Mutant] = set()
        for o in self.steps.values():
            out |= o.asked
        return frozenset(out)
