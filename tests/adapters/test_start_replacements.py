"""A start with "this turn" destruction replacement effects, on phase.rs and python-mtg.

Disintegrate's "if it would die this turn, exile it instead" (614.6) and Pyramids' "remove all
damage instead" (614.1a) can now be written in a start (``conform/start.py``).

* phase.rs has the exile replacement (its Disintegrate makes it): the adapter writes it into the
  start exactly as phase.rs makes it (``board.EXILE_TEMPLATE``), and such starts agree step by
  step. Pyramids' mode phase.rs does not parse, so a start with a Pyramids effect is excluded
  (``remove-damage-instead``) and refused by ``supports``.
* python-mtg has neither replacement: it declares ``start-replacements`` lacking (and both
  replacements), and its ``supports`` and ``resync`` refuse such a state.

A case with an effect an engine cannot set up is excluded with the lacked feature named, never
run without the effect, and ``crosscheck --case`` over the scenario that has both gives a
verdict instead of exit 2.
"""

from __future__ import annotations

import json
from importlib.util import find_spec
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.adapter import engine_factory, lacked_features
from regen_model.conform.case import Case
from regen_model.conform.features import case_features, outside
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS

from .phase_helpers import on_reference

_register_all()
RUN = CliRunner()
REPO = Path(__file__).resolve().parents[2]
SCENARIOS = str(REPO / "tests" / "scenarios")
THE_FILE = f"{SCENARIOS}/replace/start-with-exile-and-remove-damage.yaml"
PASSES_ON_BOTH = f"{SCENARIOS}/regen/shield-apply.yaml"  # a verdict needs a case that runs

# the engine, the module it needs, and the lacked feature each names for THE_FILE's case:
# python-mtg lacks Spawning Pool itself (its animation is not mapped), phase.rs Pyramids' mode
ENGINES = [
    pytest.param("phase", "phase", "remove-damage-instead", id="phase"),
    pytest.param("python-mtg", "mtg", "card:Spawning Pool", id="python-mtg"),
]


def _installed(module: str) -> None:
    if find_spec(module) is None:
        pytest.skip(f"{module} is not installed")


def _bears(*, exile_if_dies: bool = False, remove_damage: int = 0) -> Start:
    """A's Grizzly Bears with one of the effects, and nothing else that any engine lacks."""
    bears = CardSpec(
        "bears",
        PERMANENT_CARDS["Grizzly Bears"],
        0,
        exile_if_dies=exile_if_dies,
        remove_damage=remove_damage,
    )
    return Start(("A", "B"), (bears,))


@pytest.mark.parametrize(("engine", "module", "feature"), ENGINES)
def test_crosscheck_case_gives_a_verdict_and_names_the_lacked_feature(
    engine: str, module: str, feature: str
) -> None:
    _installed(module)
    result = RUN.invoke(
        app,
        [
            "crosscheck",
            "--engine",
            engine,
            "--case",
            THE_FILE,
            "--case",
            PASSES_ON_BOTH,
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--random",
            "0",
            "--seed",
            "0",
            "--json",
        ],
    )
    assert "not used" not in result.stderr, result.stderr
    assert result.exit_code == 0, result.stderr  # it was 2: "1 input(s) ... not used"
    report = json.loads(result.stdout)
    assert report["verdict"] == "PASSED"
    assert report["counts"]["passed"] == 1
    assert report["excluded_cases"] == [
        {"case": "scenario-start-with-exile-and-remove-damage", "feature": feature}
    ]


def test_python_mtg_over_every_scenario_gives_a_verdict() -> None:
    """The run the issue names, on the engine fast enough for a test (phase.rs takes minutes
    over every scenario file): every file is used, the one with the effects is excluded."""
    _installed("mtg")
    args = ["crosscheck", "--engine", "python-mtg", "--case", SCENARIOS, "--no-scenarios"]
    args += ["--no-witnesses", "--no-cover", "--random", "0", "--seed", "0", "--json"]
    args += ["--no-shrink"]
    result = RUN.invoke(app, args)
    assert "not used" not in result.stderr, result.stderr
    report = json.loads(result.stdout)
    assert result.exit_code == report["exit_code"] in (0, 6)  # agree, or diverged: a verdict
    assert report["verdict"] in ("PASSED", "DIVERGED")
    assert {
        "case": "scenario-start-with-exile-and-remove-damage",
        "feature": "card:Spawning Pool",
    } in report["excluded_cases"]


# (engine, module, fields of the start, the lacked feature the case is excluded for)
REFUSED = [
    pytest.param("phase", "phase", {"remove_damage": 1}, "remove-damage-instead", id="phase"),
    pytest.param("python-mtg", "mtg", {"exile_if_dies": True}, "exile-if-dies", id="mtg-exile"),
    pytest.param(
        "python-mtg", "mtg", {"remove_damage": 1}, "remove-damage-instead", id="mtg-pyramids"
    ),
]


@pytest.mark.parametrize(("engine", "module", "fields", "feature"), REFUSED)
def test_a_start_with_an_effect_the_engine_lacks_is_refused_never_run_without_it(
    engine: str, module: str, fields: dict[str, object], feature: str
) -> None:
    _installed(module)
    start = _bears(
        exile_if_dies=bool(fields.get("exile_if_dies")),
        remove_damage=int(fields.get("remove_damage", 0)),
    )
    case = Case("bears", start, (A.Destroy(targets=("bears",)),))
    assert "start-replacements" in case_features(case)
    adapter = engine_factory(engine)()
    try:
        assert outside(case, lacked_features(adapter)) == feature
        refusal = adapter.supports(case.start.build(), case.actions)
        assert refusal is not None, "supports would run the case without the effect"
        assert refusal.reason.startswith(("start-replacements", feature)), refusal
    finally:
        adapter.close()
    # the effect decides the outcome, so running without it would be a different case
    after = on_reference(case.start.build(), case.actions)[-1].cards["bears"]
    assert after["zone"] == ("exile" if "exile_if_dies" in fields else "battlefield")


def test_python_mtg_does_not_resync_to_a_state_with_the_effect() -> None:
    _installed("mtg")
    from regen_model.adapters.python_mtg import PythonMtgAdapter

    adapter = PythonMtgAdapter()
    try:
        plain = _bears().build()
        adapter.supports(plain, ())
        adapter.start(plain)
        assert adapter.resync(_bears(exile_if_dies=True).build()) is False
        assert adapter.resync(plain) is True
    finally:
        adapter.close()


def test_phase_writes_the_exile_replacement_as_phase_makes_it() -> None:
    """The replacement the adapter writes for a start's ``exile_if_dies`` is, in both of the
    object's lists, the one phase.rs puts on a creature when a spell with Magma Spray's "if
    that creature would die this turn, exile it instead" resolves (614.6)."""
    _installed("phase")
    from regen_model.adapters.phase import PhaseEngineAdapter
    from regen_model.adapters.phase.board import exile_definition
    from regen_model.model.effects import Effect, EffectKind

    giant = CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1)
    state = Start(("A", "B"), (giant,)).build()
    spray = Effect(EffectKind.DAMAGE, amount=1, exile_if_dies=True)
    actions = (
        A.CastSpell(player=0, name="Spray", effect=spray, targets=(A.TargetChoice(card="giant"),)),
        A.PassPriority(player=0),
        A.PassPriority(player=1),
    )
    adapter = PhaseEngineAdapter()
    assert adapter.supports(state, actions) is None
    adapter.start(state)
    for action in actions:
        adapter.apply(action)
    assert adapter._pg is not None
    made = adapter._pg.state()["objects"][str(adapter._ids["giant"])]
    written = [exile_definition(source_controller=0)]  # A cast the spell
    assert made["replacement_definitions"] == written
    assert made["base_replacement_definitions"] == written


def _exile_cases() -> list[Case]:
    """The pinned scenario, and a start in the end step whose effect ends at cleanup (514.2):
    a destruction in the next turn puts the Giant into the graveyard on both engines."""
    from regen_model.conform.sources import saved_cases
    from regen_model.engine import step
    from regen_model.model.enums import Step

    (pinned,) = saved_cases([REPO / "tests/adapters/cases/start-with-exile-if-dies.yaml"])
    giant = CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 1, exile_if_dies=True)
    start = Start(("A", "B"), (giant,), step=Step.END)
    state, actions = start.build(), []
    while state.step is not Step.UPKEEP:
        assert state.priority is not None
        actions.append(A.PassPriority(player=state.priority))
        state = step(state, actions[-1]).state
    actions.append(A.Destroy(targets=("giant",)))
    assert step(state, actions[-1]).state.card("giant").zone.value == "graveyard"
    return [pinned, Case("exile-effect-ends-at-cleanup", start, tuple(actions))]


def test_starts_with_the_exile_replacement_agree_on_phase() -> None:
    _installed("phase")
    from regen_model.adapters.phase import PhaseEngineAdapter
    from regen_model.adapters.phase.known import classifier, load_known
    from regen_model.conform.case import Outcome, run_case

    adapter = PhaseEngineAdapter()
    assert "start-replacements" not in lacked_features(adapter)
    for case in _exile_cases():
        assert outside(case, lacked_features(adapter)) is None
        assert adapter.supports(case.start.build(), case.actions) is None
        result = run_case(case, adapter, known=classifier(load_known()))
        assert result.outcome is Outcome.PASSED, (case.name, result.reason, result.divergence)
        assert result.steps_run == len(case.actions) and result.masked == 0
