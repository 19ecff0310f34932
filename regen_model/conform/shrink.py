"""Shrinking a case to a minimal one that still shows the same thing.

A divergence found after 20 random actions on five permanents is hard to read; the same
divergence after three actions on one permanent explains itself. ``shrink`` is delta
debugging (Zeller's ddmin) over the action list, after folding the longest possible prefix
of actions into the start state (``_rebase``), followed by passes that drop permanents,
reset each permanent's fields to their defaults, simplify the remaining actions and the
start (life, edition), repeated until nothing more can go. The predicate decides what
"still shows" means: a divergence of the same kind (``differential.py``) or a clause still
cited by the reference (``witness.py``).

Removing an action can make a later one illegal; the runner then skips it, and each pass
ends by dropping the actions the reference skips. Every candidate is a whole new case
(cases are immutable), and the number of predicate calls is bounded by ``budget``.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace

from regen_model.conform.case import Case, legal_actions
from regen_model.conform.start import NotExpressible, Start
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.enums import Edition

Predicate = Callable[[Case], bool]


class _Budget(Exception):
    pass


class Shrinker:
    def __init__(self, fails: Predicate, budget: int = 1500, deadline: float | None = None) -> None:
        self.fails = fails
        self.budget = budget
        self.deadline = deadline
        self.calls = 0

    def test(self, case: Case) -> bool:
        if self.calls >= self.budget:
            raise _Budget
        if self.deadline is not None and time.monotonic() > self.deadline:
            raise _Budget
        self.calls += 1
        return self.fails(case)

    def shrink(self, case: Case) -> Case:
        current = case
        try:
            legal = replace(case, actions=legal_actions(case))
            if legal.actions != case.actions and self.test(legal):
                current = legal
            while True:
                before = _size(current)
                current = self._rebase(current)
                current = self._actions(current)
                current = self._cards(current)
                current = self._card_fields(current)
                current = self._simplify_actions(current)
                current = self._start(current)
                legal = replace(current, actions=legal_actions(current))
                if legal.actions != current.actions and self.test(legal):
                    current = legal
                if _size(current) >= before:
                    break
        except _Budget:
            pass
        return current

    # --- passes ----------------------------------------------------------------------------------

    def _actions(self, case: Case) -> Case:
        """ddmin: remove chunks of actions, halving the chunk size when nothing goes."""
        actions = list(case.actions)
        n = 2
        while len(actions) >= 1:
            chunk = max(1, len(actions) // n)
            removed = False
            for i in range(0, len(actions), chunk):
                candidate = actions[:i] + actions[i + chunk :]
                if self.test(replace(case, actions=tuple(candidate))):
                    actions = candidate
                    n = max(n - 1, 2)
                    removed = True
                    break
            if not removed:
                if chunk == 1:
                    break
                n = min(len(actions), n * 2)
        return replace(case, actions=tuple(actions))

    def _rebase(self, case: Case) -> Case:
        """Fold a prefix of actions into the start: seventeen passes to reach the cleanup
        step become a start in the cleanup step's predecessor. Only states at rest (empty
        stack, no combat under way) can be a start; the longest foldable prefix that keeps
        the failure wins."""
        states = []
        state = case.start.build()
        for action in case.actions:
            with contextlib.suppress(EngineError):  # skipped, as the runner skips it
                state = step(state, action).state
            states.append(state)
        for k in range(len(case.actions) - 1, 0, -1):
            try:
                start = Start.from_state(states[k - 1])
            except NotExpressible:
                continue
            candidate = replace(case, start=start, actions=case.actions[k:])
            if self.test(candidate):
                return candidate
        return case

    def _cards(self, case: Case) -> Case:
        for handle in list(case.start.handles):
            candidate = replace(case, start=case.start.without(handle))
            if self.test(candidate):
                case = candidate
        return case

    def _card_fields(self, case: Case) -> Case:
        for i in range(len(case.start.cards)):
            for simpler in _simpler_cards(case.start.cards[i]):
                cards = list(case.start.cards)
                cards[i] = simpler
                candidate = replace(case, start=replace(case.start, cards=tuple(cards)))
                if self.test(candidate):
                    case = candidate
        return case

    def _simplify_actions(self, case: Case) -> Case:
        for i in range(len(case.actions)):
            for simpler in _simpler_actions(case.actions[i]):
                actions = list(case.actions)
                actions[i] = simpler
                candidate = replace(case, actions=tuple(actions))
                if self.test(candidate):
                    case = candidate
                    break
        return case

    def _start(self, case: Case) -> Case:
        simpler: tuple[Callable[[Start], Start], ...] = (
            lambda s: replace(s, life=(20, 20)),
            lambda s: replace(s, edition=Edition.FDN),
        )
        for simplify in simpler:
            start = simplify(case.start)
            if start != case.start and self.test(replace(case, start=start)):
                case = replace(case, start=start)
        return case


def _simpler_cards(c: CardSpec) -> Iterator[CardSpec]:
    """Each field back to its default, one at a time (only those that differ)."""
    defaults = CardSpec(c.handle, c.template, c.owner)
    for name in (
        "controller",
        "tapped",
        "damage",
        "plus",
        "minus",
        "shield_counters",
        "cant_regen",
        "deathtouched",
        "sick",
        "granted",
        "attached_to",
        "exile_if_dies",
        "remove_damage",
    ):
        if getattr(c, name) != getattr(defaults, name):
            yield replace(c, **{name: getattr(defaults, name)})
    for k in range(len(c.shields)):
        yield replace(c, shields=c.shields[:k] + c.shields[k + 1 :])


def _simpler_actions(a: A.Action) -> Iterator[A.Action]:
    if a.choices:
        yield replace(a, choices=())
    if isinstance(a, A.DealDamage):
        if a.keywords:
            yield replace(a, keywords=frozenset())
        if len(a.shares) > 1:
            for share in a.shares:
                yield replace(a, shares=(share,))
        for k, share in enumerate(a.shares):
            if share.amount > 1:
                shares = list(a.shares)
                shares[k] = replace(share, amount=share.amount - 1)
                yield replace(a, shares=tuple(shares))
        if a.cant_regen:
            yield replace(a, cant_regen=False)
    if isinstance(a, A.Destroy) and len(a.targets) > 1:
        for k in range(len(a.targets)):  # one target fewer (a board wipe may need two)
            yield replace(a, targets=a.targets[:k] + a.targets[k + 1 :])


def _size(case: Case) -> tuple[int, int, int]:
    """Smaller is simpler: actions, then permanents, then non-default fields."""
    fields = sum(sum(1 for _ in _simpler_cards(c)) for c in case.start.cards) + sum(
        1 for _ in (x for a in case.actions for x in _simpler_actions(a))
    )
    return (len(case.actions), len(case.start.cards), fields)


def shrink(
    case: Case, fails: Predicate, budget: int = 1500, deadline: float | None = None
) -> tuple[Case, int]:
    """The smallest case found that still ``fails``, and the number of predicate calls; both
    ``budget`` (calls) and ``deadline`` (``time.monotonic()``) bound the work."""
    s = Shrinker(fails, budget, deadline)
    return s.shrink(case), s.calls
