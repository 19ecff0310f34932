"""The test API for engine authors: strategies, the conformance test, the pytest plugin, and
the worked example of examples/pytest_plugin, which must catch its planted bug and print the
failing example as a short scenario file.

The pytest runs go to a subprocess in a copy of the example (so Hypothesis's example database
and pytest's cache stay out of the repository), seeded so that they are repeatable.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regen_model.conform.case import Case
from regen_model.conform.start import Start
from regen_model.engine import step
from regen_model.model.actions import Action
from regen_model.scenario import load_scenario
from regen_model.scenario.run import run_scenario
from regen_model.testing import action_sequences, scenarios, starts
from regen_model.verdicts import Verdict

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "pytest_plugin"
QUICK = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


def legal(start: Start, actions: tuple[Action, ...]) -> None:
    state = start.build()
    for action in actions:
        state = step(state, action).state  # raises EngineError if not legal


@QUICK
@given(st.data())
def test_action_sequences_are_legal_from_their_start(data: st.DataObject) -> None:
    start = data.draw(starts())
    legal(start, data.draw(action_sequences(start, max_steps=8)))


@QUICK
@given(scenarios(max_steps=8))
def test_scenarios_are_legal(case: Case) -> None:
    assert 1 <= len(case.start.cards) <= 5
    legal(case.start, case.actions)


def pytest_in(tmp_path: Path, *args: str, seed: int = 1) -> subprocess.CompletedProcess[str]:
    """Run pytest on a copy of the worked example (Hypothesis seeded: with seed 1 the planted
    bug is found in a few seconds; any seed finds it, some after a minute)."""
    work = tmp_path / "example"
    shutil.copytree(EXAMPLE, work, ignore=shutil.ignore_patterns(".hypothesis", "__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(work)}
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--hypothesis-seed=0",
            *args,
        ],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def _scenario_text(output: str) -> str:
    """The YAML the failure printed (pytest prefixes assertion lines with 'E   ')."""
    start = output.index("name: bug:")
    lines = []
    for line in output[start:].splitlines():
        line = re.sub(r"^E(   |$)", "", line)
        if line.startswith(("Failing test case", "Falsifying example")) or line.startswith("====="):
            break
        lines.append(line)
    return "\n".join(lines).strip() + "\n"


def check_printed_scenario(output: str, tmp_path: Path) -> None:
    """The failure is a short scenario that passes on the specification."""
    assert "CardSpec(" not in output and "CardTemplate(" not in output
    text = _scenario_text(output)
    assert 8 <= len(text.splitlines()) <= 30, text
    path = tmp_path / "found.yaml"
    path.write_text(text, encoding="utf-8")
    result = run_scenario(load_scenario(path))
    assert result.verdict is Verdict.PASSED  # the expect: block holds the specification's values


def test_the_worked_example_catches_its_planted_bug(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "test_my_engine.py")
    assert done.returncode == 1, done.stdout[-3000:]
    out = done.stdout
    assert "engine 'bug:RegenClearsMinusCounters' diverges from the specification" in out
    assert "minus_counters: expected 1, observed 0" in out
    check_printed_scenario(out, tmp_path)


def test_the_plugin_option_checks_an_engine_without_a_test_file(tmp_path: Path) -> None:
    """``--regen-engine`` adds the conformance test to any session, reported as the scenario
    alone (no traceback)."""
    bad = pytest_in(
        tmp_path,
        "--regen-engine",
        "python:my_engine:make_adapter",
        "--regen-examples",
        "1000",
        "-k",
        "conformance",
    )
    assert bad.returncode == 1, bad.stdout[-3000:]
    assert "regen-model conformance of python:my_engine:make_adapter" in bad.stdout
    assert "Traceback" not in bad.stdout and "engines.py" not in bad.stdout
    check_printed_scenario(bad.stdout, tmp_path)


def test_the_plugin_passes_the_reference_and_is_inert_without_the_option(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "test_plain.py").write_text("def test_plain():\n    assert True\n")
    for args, expected in (
        (("--regen-engine", "reference", "--regen-examples", "30"), "2 passed"),
        ((), "1 passed"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
            cwd=tmp_path / "plain",
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert done.returncode == 0 and expected in done.stdout, done.stdout[-2000:]
    loaded = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, regen_model.testing.plugin; print(sorted(sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert "hypothesis" not in loaded.stdout and "z3" not in loaded.stdout


def test_an_unknown_engine_is_a_usage_error(tmp_path: Path) -> None:
    done = pytest_in(tmp_path, "--regen-engine", "no-such-engine", "-k", "conformance")
    assert done.returncode != 0
    assert "unknown engine 'no-such-engine'" in done.stdout + done.stderr


def test_the_regen_engine_fixture_skips_without_an_engine(pytester_free: None = None) -> None:
    """Without --regen-engine, a test asking for the adapter is skipped, never failed."""
    from regen_model.testing import plugin

    class Config:
        def getoption(self, name: str) -> None:
            return None

        def getini(self, name: str) -> str:
            return ""

    assert plugin._engine(Config()) is None  # type: ignore[arg-type]
    with pytest.raises(pytest.skip.Exception):
        fixture = plugin.regen_engine.__wrapped__  # type: ignore[attr-defined]
        next(fixture(type("R", (), {"config": Config()})()))
