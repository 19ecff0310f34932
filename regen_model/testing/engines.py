"""An engine adapter turned into a Hypothesis test: random scenarios, shrunk on failure.

``conformance(ENGINE)`` returns a test function (for a test module of the engine's own suite)
and the pytest plugin (``plugin.py``) runs the same test for ``pytest --regen-engine ENGINE``.
Each example is a scenario of ``strategies.scenarios``; it runs on the reference engine and on
the engine side by side (``conform.case.run_case``, the cross-checker's comparison of the
observable projection after every action), and a divergence fails the example. Hypothesis
then shrinks it (fewer permanents, fewer and simpler actions) and the failure is reported as
the minimal scenario in the scenario format (``scenario.case_yaml``), not as the repr of the
dataclasses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from regen_model.conform.adapter import EngineAdapter, engine_factory
from regen_model.conform.case import Case, Divergence, Outcome, run_case
from regen_model.model.rules import CORRECT, Rules


class EngineDiverges(AssertionError):
    """The engine under test disagrees with the specification on a scenario.

    The message is made when the failure is shown, not when it is raised: Hypothesis raises
    it for every failing candidate while it shrinks, and shows only the last. Making it first
    shrinks the case once more with the cross-checker's shrinker (``conform/shrink.py``,
    which also drops permanents and resets fields, where Hypothesis shrinks the draws), then
    prints it as a scenario.
    """

    def __init__(
        self, adapter: EngineAdapter, case: Case, divergence: Divergence, rules: Rules
    ) -> None:
        super().__init__(divergence.summary())
        self.adapter = adapter
        self.case = case
        self.divergence = divergence
        self.rules = rules
        self._text: str | None = None

    def __str__(self) -> str:
        if self._text is None:
            case, divergence = minimal(self.adapter, self.case, self.divergence, self.rules)
            self._text = report(self.adapter.name, case, divergence, self.rules)
        return self._text


def minimal(
    adapter: EngineAdapter, case: Case, divergence: Divergence, rules: Rules, budget: int = 400
) -> tuple[Case, Divergence]:
    """The smallest case the cross-checker's shrinker finds that still diverges the same way."""
    from regen_model.conform.adapter import EngineFailure
    from regen_model.conform.differential import same_kind
    from regen_model.conform.shrink import shrink

    same = same_kind(divergence)
    found: dict[Case, Divergence] = {case: divergence}

    def still(c: Case) -> bool:
        try:
            r = run_case(c, adapter, rules)
        except EngineFailure:
            return False
        if r.outcome is Outcome.DIVERGED and same(r.divergence):
            assert r.divergence is not None
            found[c] = r.divergence
            return True
        return False

    smaller, _ = shrink(case, still, budget)
    if smaller not in found and not still(smaller):
        return case, divergence
    return smaller, found[smaller]


@dataclass(frozen=True)
class Example:
    """A drawn scenario, shown by Hypothesis in one line (the scenario itself is printed in
    full, as YAML, by the failure)."""

    case: Case

    def __repr__(self) -> str:
        start = self.case.start
        return (
            f"<scenario of {len(start.cards)} permanent(s) and {len(self.case.actions)} "
            "action(s); the failure shows it shrunk further, as a scenario file>"
        )

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """How Hypothesis's pretty printer shows it: the one line of ``__repr__``."""
        printer.text(repr(self))


def check_case(adapter: EngineAdapter, case: Case, rules: Rules = CORRECT) -> None:
    """Run ``case`` on the reference and on ``adapter``; raise ``EngineDiverges`` (with the
    minimal scenario as YAML) on a divergence. Skipped cases pass: the engine said it cannot
    express them."""
    __tracebackhide__ = True  # pytest: the failure is the scenario, not this frame's locals
    result = run_case(case, adapter, rules)
    if result.outcome is Outcome.DIVERGED and result.divergence is not None:
        raise EngineDiverges(adapter, case, result.divergence, rules)


def report(engine: str, case: Case, d: Divergence, rules: Rules = CORRECT) -> str:
    from regen_model.conform.report import cite
    from regen_model.testing.scenario import case_yaml

    where = "in its start state" if d.step == 0 else f"at action {d.step} ({d.action['kind']})"
    what = d.summary()
    text = case_yaml(
        case,
        d,
        name=f"{engine} diverges {where}",
        description=f"{what}. Found by regen_model.testing; the expect: block holds the "
        "specification's values.",
        rules=rules,
    )
    clauses = cite(d.clauses) or "-"
    return (
        f"engine {engine!r} diverges from the specification {where}: {what}\n"
        f"clauses: {clauses}\n"
        f"minimal scenario (regen-model run FILE plays the specification's side):\n\n{text}"
    )


def conformance(
    engine: str | Callable[[], EngineAdapter],
    *,
    max_examples: int = 200,
    max_steps: int = 12,
    rules: Rules = CORRECT,
) -> Callable[[], None]:
    """A test function checking ``engine`` (an engine name as for ``crosscheck --engine``,
    or a factory) on ``max_examples`` random scenarios of up to ``max_steps`` actions."""
    from hypothesis import HealthCheck, Phase, given, settings

    from regen_model.testing.strategies import scenarios

    factory = engine_factory(engine) if isinstance(engine, str) else engine
    adapters: list[EngineAdapter] = []

    def adapter() -> EngineAdapter:
        if not adapters:
            adapters.append(factory())
        return adapters[0]

    @settings(
        max_examples=max_examples,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        # No "explain" phase: the failure is explained by the scenario and its diff.
        phases=[Phase.explicit, Phase.reuse, Phase.generate, Phase.target, Phase.shrink],
    )
    @given(scenarios(max_steps).map(Example))
    def test_engine_conforms(scenario: Example) -> None:
        __tracebackhide__ = True
        check_case(adapter(), scenario.case, rules)

    return test_engine_conforms


__all__ = ["EngineDiverges", "Example", "check_case", "conformance"]
