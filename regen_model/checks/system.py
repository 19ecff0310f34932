"""The contract between the Z3 encoding and the proof engine.

The proof engine (initiation/consecution, k-induction, CHC, BMC, cover) is written against
this protocol only, so it can be tested on a ten-line toy system and then run on the real
encoding of the rules. The encoding (``regen_model.encoding``) implements it.

Vocabulary:

* a *frame* is one symbolic copy of the game state (Z3 constants suffixed with a tag);
* a *step* is the symbolic transition between two frames: its action parameters, the
  constraints of each action kind (each labelled with a clause ID), and step outputs
  (events) that step properties talk about;
* every constraint is a ``Tracked``: a label plus a formula, so that unsat cores and
  counterexamples speak in clause IDs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol


class Tracked(NamedTuple):
    """A constraint with the label it is tracked under (a clause ID, or e.g. ``scope:...``)."""

    label: str
    formula: Any  # z3.BoolRef (z3 ships no type stubs)


@dataclass(frozen=True)
class Slice:
    """One case of an action kind's relation, indexed for cone-of-influence queries (offered
    by a step as ``slices(kind)``, optionally; ``checks.induction`` explains the use).

    ``condition`` is the case as a formula over the predecessor; ``guards`` are the case's
    pins, the parameter domains, the action and the guard; ``effects`` the conjuncts that
    define each successor variable, by the variable's name; ``outputs`` the equation that
    defines each output constant, by its name. Every successor variable and output constant
    is a function of the predecessor and the parameters, so leaving out the definitions of
    those a formula does not mention only drops constraints on constants it ignores."""

    condition: Any
    guards: tuple[Tracked, ...]
    effects: Mapping[str, tuple[Tracked, ...]]
    outputs: Mapping[str, Tracked]


class StepEncoding(Protocol):
    """One symbolic transition ``pre -> post``."""

    @property
    def pre(self) -> Any: ...

    @property
    def post(self) -> Any: ...

    @property
    def kind(self) -> Any:
        """Z3 term naming the action kind taken (compare with ``system.kind_value``)."""

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        """The transition relation restricted to one action kind, or all kinds (a
        disjunction selected by ``kind``) when ``kind`` is None. Includes the guard (the
        action is legal in ``pre``) and the effect (``post`` is its successor)."""


class TransitionSystem(Protocol):
    """A bounded-scope symbolic model of the rules."""

    @property
    def name(self) -> str: ...

    def action_kinds(self) -> Sequence[str]:
        """Names of the action kinds, as in ``regen_model.model.actions`` (``kind``)."""

    def kind_value(self, kind: str) -> Any:
        """The Z3 value that ``StepEncoding.kind`` takes for this action kind."""

    def frame(self, tag: str) -> Any:
        """A fresh symbolic state with constants suffixed by ``tag``."""

    def domain(self, frame: Any) -> list[Tracked]:
        """Range constraints of the bounded scope for one frame (types, bounds)."""

    def init(self, frame: Any) -> list[Tracked]:
        """Constraints describing the legal starting states."""

    def step(self, pre: Any, post: Any, tag: str) -> StepEncoding:
        """The symbolic transition from ``pre`` to ``post`` with fresh parameters."""

    def decode(self, model: Any, frames: Sequence[Any], steps: Sequence[StepEncoding]) -> Any:
        """A concrete run (states and actions) read off a model, to replay on the engine."""
