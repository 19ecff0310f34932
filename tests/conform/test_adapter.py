"""Finding engines by name (built-ins, entry points, python:), the worked Python example, and
phase.rs found through the entry point this package declares."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from regen_model.conform.adapter import (
    ENTRY_POINT_GROUP,
    EngineAdapter,
    ReferenceAdapter,
    UnknownEngine,
    engine_factory,
    engine_names,
)
from regen_model.conform.case import Case, Outcome
from regen_model.conform.differential import crosscheck
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.model.enums import Mutant
from regen_model.verdicts import Verdict

from .helpers import EXAMPLES

TOY = EXAMPLES / "python_adapter"


def test_reference_and_its_mutants_by_name() -> None:
    adapter = engine_factory("reference")()
    assert isinstance(adapter, ReferenceAdapter) and not adapter.rules.mutants
    mutant = engine_factory("reference:shield-not-consumed+create-taps")()
    assert isinstance(mutant, ReferenceAdapter)
    assert mutant.rules.mutants == {Mutant.SHIELD_NOT_CONSUMED, Mutant.CREATE_TAPS}
    assert mutant.name == "reference:create-taps+shield-not-consumed"
    assert isinstance(adapter, EngineAdapter)


def test_unknown_names_fail_before_any_run() -> None:
    with pytest.raises(UnknownEngine, match="unknown mutant 'sheild-not-consumed'"):
        engine_factory("reference:sheild-not-consumed")
    with pytest.raises(UnknownEngine, match="unknown engine 'nope'; known: reference, jsonl"):
        engine_factory("nope")
    with pytest.raises(UnknownEngine, match="jsonl needs a command"):
        engine_factory("jsonl")()
    with pytest.raises(UnknownEngine, match=r"cannot load no\.such\.module:make"):
        engine_factory("python:no.such.module:make")()


@pytest.fixture
def toy_on_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(TOY))


def test_python_module_factory(toy_on_path: None) -> None:
    adapter = engine_factory("python:toy_regen.adapter:make_adapter")()
    assert adapter.name == "toy-regen"


def test_entry_point_discovery(
    tmp_path: Path, toy_on_path: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An installed package declares the engine: simulated by a .dist-info on sys.path."""
    dist = tmp_path / "toy_regen-0.1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: toy-regen\nVersion: 0.1.0\n")
    (dist / "entry_points.txt").write_text(
        f"[{ENTRY_POINT_GROUP}]\ntoy-regen = toy_regen.adapter:make_adapter\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "toy-regen" in engine_names()
    adapter = engine_factory("toy-regen:some-arg")()
    assert adapter.name == "toy-regen"


def test_the_toy_engine_agrees_where_it_can_and_says_where_it_cannot(
    toy_on_path: None, troll_and_bear: Start
) -> None:
    from toy_regen.adapter import make_adapter  # type: ignore[import-not-found]

    supported = Case(
        "toy",
        troll_and_bear,
        (
            A.DealDamage(source="x", shares=(A.DamageShare(2, card="troll"),)),
            A.CheckStateBasedActions(),
            A.CreateShield(target="bear"),
            A.Destroy(targets=("bear", "troll")),
            A.Cleanup(),
        ),
    )
    unsupported = Case("combat", troll_and_bear, (A.PassPriority(player=0),))
    report = crosscheck(make_adapter, [supported, unsupported])
    assert report.counts[Outcome.PASSED] == 1
    assert report.skipped == [("combat", "action kind pass is not modelled")]
    assert report.verdict is Verdict.PASSED
    assert report.fields_compared > 20


def test_phase_is_an_entry_point_engine(troll_and_bear: Start) -> None:
    """phase.rs is declared in our pyproject.toml like any third-party engine."""
    assert "phase" in engine_names()
    pytest.importorskip("phase")
    from regen_model.conform.sources import default_scenario_paths, scenario_cases

    cases, _ = scenario_cases(default_scenario_paths())
    static = [c for c in cases if c.name == "scenario-static-regeneration"]
    report = crosscheck(engine_factory("phase"), static, shrink_findings=False)
    assert report.cases == 1
    assert report.engine == "phase.rs"
    assert report.fields_compared > 0 or report.counts[Outcome.SKIPPED] == 1


def test_the_example_package_declares_the_entry_point_it_documents(toy_on_path: None) -> None:
    """The example's pyproject is what users copy: its entry point must resolve."""
    import importlib

    data = tomllib.loads((TOY / "pyproject.toml").read_text(encoding="utf-8"))
    (name, value), *rest = data["project"]["entry-points"][ENTRY_POINT_GROUP].items()
    assert not rest and name == "toy-regen"
    module, _, attr = value.partition(":")
    factory = getattr(importlib.import_module(module), attr)
    assert isinstance(factory(None), EngineAdapter)
