"""A sample of the bounded agreement's points, evaluated on the Z3 terms themselves.

The bounded check evaluates the relation by folding (``evaluate.py``). ``z3_sample_check``
takes the first points of each search of an agreement scope, a few per action kind, and
compares the folded evaluation with the compiled Z3 terms (``crosscheck.py``) of a
``RegenSystem`` with symbolic printed cards, i.e. the very relation the proofs use.
"""

from __future__ import annotations

from collections import Counter

from regen_model.encoding.bounded import AgreementScope
from regen_model.encoding.crosscheck import Z3Evaluator, cross_check
from regen_model.encoding.evaluate import Prepared, prepare
from regen_model.encoding.scope import OutOfScope
from regen_model.encoding.system import RegenSystem
from regen_model.engine import EngineError, step
from regen_model.explore.space import fits, terminal, view
from regen_model.model.actions import Action
from regen_model.model.rules import Rules


def sample_points(
    config: AgreementScope, per_run: int, per_kind: int = 4
) -> list[tuple[Prepared, Action]]:
    """Up to ``per_run`` points of each search, at most ``per_kind`` of each action kind,
    in breadth-first order, no deeper than the search goes."""
    scope = config.scope
    out: list[tuple[Prepared, Action]] = []
    for run in config.runs:
        taken: Counter[str] = Counter()
        count = 0
        frontier = [s for seed in run.seeds(scope) for s in seed.states]
        seen = {view(s) for s in frontier}
        for _ in range(run.depth):
            if not frontier or count >= per_run:
                break
            following = []
            for state in frontier:
                try:
                    prep = prepare(state, scope)
                except OutOfScope:
                    continue
                for action in run.candidates(state, scope):
                    if count < per_run and taken[action.kind] < per_kind:
                        taken[action.kind] += 1
                        count += 1
                        out.append((prep, action))
                    try:
                        succ = step(state, action).state
                    except EngineError:
                        continue
                    if view(succ) not in seen and fits(succ, scope) and not terminal(succ):
                        seen.add(view(succ))
                        following.append(succ)
                if count >= per_run:
                    break
            frontier = following
    return out


def z3_sample_check(config: AgreementScope, rules: Rules, per_run: int) -> list[str]:
    """Every point of the sample where Z3's terms and the folded evaluation differ."""
    evaluator = Z3Evaluator(RegenSystem(config.scope, rules))
    problems = []
    for prep, action in sample_points(config, per_run):
        try:
            found = cross_check(evaluator, prep, action)
        except OutOfScope:
            continue
        problems += [f"{action!r}: {p}" for p in found]
    return problems
