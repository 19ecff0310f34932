"""A start with "this turn" destruction replacement effects, on phase.rs and python-mtg.

Disintegrate's "if it would die this turn, exile it instead" (614.6) and Pyramids' "remove all
damage instead" (614.1a) can now be written in a start (``conform/start.py``). Neither real
engine's adapter can put them in place at the start, so both declare the feature
``start-replacements`` lacking (and python-mtg both replacements as well): a case with them is
excluded with the lacked feature named, never run without the effect. Each adapter's
``supports`` refuses such a start too, for a caller that does not read ``lacks``. And
``crosscheck --case`` over the scenario that has them gives a verdict instead of exit 2.
"""

from __future__ import annotations

import json
from importlib.util import find_spec

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
SCENARIOS = "tests/scenarios"
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


def _bears(**fields: object) -> Start:
    """A's Grizzly Bears with one of the effects, and nothing else that any engine lacks."""
    bears = CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, **fields)  # type: ignore[arg-type]
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


@pytest.mark.parametrize(
    "fields", [{"exile_if_dies": True}, {"remove_damage": 1}], ids=["exile", "pyramids"]
)
@pytest.mark.parametrize(("engine", "module", "feature"), ENGINES)
def test_a_start_with_only_the_effect_is_refused_never_run_without_it(
    engine: str, module: str, feature: str, fields: dict[str, object]
) -> None:
    _installed(module)
    case = Case("bears", _bears(**fields), (A.Destroy(targets=("bears",)),))
    assert "start-replacements" in case_features(case)
    adapter = engine_factory(engine)()
    try:
        lacks = lacked_features(adapter)
        assert "start-replacements" in lacks
        found = outside(case, lacks)
        # python-mtg lacks the replacements themselves too, which sort first
        assert found in ("start-replacements", "exile-if-dies", "remove-damage-instead")
        state = case.start.build()
        refusal = adapter.supports(state, case.actions)
        assert refusal is not None and refusal.reason.startswith("start-replacements"), refusal
    finally:
        adapter.close()
    # the effect decides the outcome, so running without it would be a different case
    after = on_reference(case.start.build(), case.actions)[-1].cards["bears"]
    assert after["zone"] == ("exile" if "exile_if_dies" in fields else "battlefield")
