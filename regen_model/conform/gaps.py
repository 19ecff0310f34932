"""Filling the gaps of a log: which actions could have been taken where the log is silent.

An engine's log rarely records every choice: which of two shields a player picked (616.1),
how an attacker divided its damage, sometimes the action itself. The trace checker asks a
``GapResolver`` for the *attempts* at one step: candidate actions consistent with what was
logged, each run through the engine (which is deterministic once the choices are fixed). The
checker keeps every successor that matches the next observation, like TLC's trace validation
filling in unobserved variables.

``EnumerationResolver`` lists the choice space explicitly (``moves.py``):

* a logged action with all its choice fields runs once (the fast path of fully observed
  traces);
* an absent choice field is enumerated over its domain (targets among the permanents, the
  attackers' subsets, blocks, orders, legal damage divisions, 616.1 answers); *lazy* fields
  (``choices``, ``divisions``, a spell's ``targets``) are enumerated only if the engine
  rejects the action without them;
* a missing action is any game action of the state (``moves.game_moves``), or any effect
  action within the small parameter domains of ``moves.effect_moves`` (damage up to 4, one
  or all creatures destroyed, ...): a log that leaves out an effect outside those domains
  needs a solving resolver.

``solve.SolvingResolver`` solves for the choices on the Z3 encoding instead of listing them
(it receives the next observation), and ``solve.AutoResolver`` asks it only where
enumeration explains nothing. Anything implementing ``GapResolver`` can be passed to
``check_trace``.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any, NamedTuple, Protocol

from regen_model.conform.codec import default_of
from regen_model.conform.itf import LoggedAction
from regen_model.conform.moves import (
    Domain,
    choice_fields,
    choice_sets,
    effect_moves,
    fill,
    game_moves,
)
from regen_model.conform.observe import Observation
from regen_model.engine import EngineError, MissingChoice, StepResult, step
from regen_model.model import actions as A
from regen_model.model.cards import SPELLS
from regen_model.model.rules import Rules
from regen_model.model.state import GameState


class Attempt(NamedTuple):
    """One candidate action and what the engine made of it (a result or an error)."""

    action: A.Action
    result: StepResult | None
    error: EngineError | None


class GapResolver(Protocol):
    """Proposes the attempts at one trace step. ``observation`` is the logged state after the
    step: an enumerating resolver may ignore it, a solving one uses it to prune."""

    @property
    def name(self) -> str: ...

    def attempts(
        self,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]: ...


@dataclass(frozen=True)
class _Plan:
    """How to complete one logged action: fields to enumerate now and lazily."""

    eager: tuple[tuple[str, Domain], ...]
    lazy: tuple[tuple[str, Domain], ...]
    complete: A.Action | None  # the action itself when nothing needs enumerating


def spell_fields(cls: type[A.Action], fields: dict[str, Any]) -> dict[str, Any]:
    """A cast whose spell name was enumerated gets the built-in spell's effect."""
    if cls is A.CastSpell and "effect" not in fields and fields.get("name") in SPELLS:
        spell = SPELLS[fields["name"]]
        return {**fields, "effect": spell.effect, "sorcery": fields.get("sorcery", spell.sorcery)}
    return fields


def run_attempt(state: GameState, action: A.Action, rules: Rules) -> Attempt:
    """One candidate through the engine: its result, or the engine's refusal."""
    try:
        return Attempt(action, step(state, action, rules), None)
    except EngineError as exc:
        return Attempt(action, None, exc)


class EnumerationResolver:
    """Enumerates the choice space (see the module docstring). Stateless apart from a cache
    of plans per logged action."""

    name = "enumeration"

    def __init__(self) -> None:
        self._plans: dict[int, tuple[LoggedAction, _Plan]] = {}

    def _plan(self, logged: LoggedAction) -> _Plan:
        cached = self._plans.get(id(logged))
        if cached is not None and cached[0] is logged:
            return cached[1]
        eager: list[tuple[str, Domain]] = []
        lazy: list[tuple[str, Domain]] = []
        for name, domain, is_lazy in choice_fields(logged.kind):
            if name not in logged.fields:
                (lazy if is_lazy else eager).append((name, domain))
        complete = None
        if not eager:
            complete = logged.cls(**_with_defaults(logged.cls, logged.fields, tuple(lazy)))
        plan = _Plan(tuple(eager), tuple(lazy), complete)
        self._plans[id(logged)] = (logged, plan)
        return plan

    def attempts(
        self,
        state: GameState,
        logged: LoggedAction | None,
        observation: Observation,
        rules: Rules,
    ) -> Iterator[Attempt]:
        if logged is None:
            for action in (*game_moves(state), *effect_moves(state)):
                yield from self._with_choices(state, action, rules)
            return
        plan = self._plan(logged)
        if plan.complete is not None:
            first = run_attempt(state, plan.complete, rules)
            if first.error is None or not plan.lazy:
                yield first
                return
            yield from self._lazy(state, logged.cls, dict(logged.fields), plan.lazy, rules)
            return
        for fields in fill(state, dict(logged.fields), plan.eager):
            fields = spell_fields(logged.cls, fields)
            try:
                action = logged.cls(**_with_defaults(logged.cls, fields, plan.lazy))
            except TypeError:  # pragma: no cover - unloggable_missing rejected this at load
                continue
            first = run_attempt(state, action, rules)
            if first.error is None or not plan.lazy:
                yield first
                continue
            yield from self._lazy(state, logged.cls, fields, plan.lazy, rules)

    def _lazy(
        self,
        state: GameState,
        cls: type[A.Action],
        fields: dict[str, Any],
        lazy: tuple[tuple[str, Domain], ...],
        rules: Rules,
    ) -> Iterator[Attempt]:
        for filled in fill(state, fields, lazy):
            yield run_attempt(state, cls(**spell_fields(cls, filled)), rules)

    def _with_choices(self, state: GameState, action: A.Action, rules: Rules) -> Iterator[Attempt]:
        first = run_attempt(state, action, rules)
        if not isinstance(first.error, MissingChoice):
            yield first
            return
        for choices in choice_sets(state):
            yield run_attempt(state, replace(action, choices=choices), rules)


def _with_defaults(
    cls: type[A.Action], fields: dict[str, Any], lazy: tuple[tuple[str, Domain], ...]
) -> dict[str, Any]:
    out = dict(fields)
    for name, _ in lazy:
        if name not in out:
            out[name] = default_of(cls, name)
    return out
