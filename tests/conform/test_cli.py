"""The three commands as a user runs them: exit codes, files written, seeds printed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.start import Start
from regen_model.conform.stream import CaseStream, StreamOptions
from regen_model.model import actions as A

from .helpers import card_fields, trace_of, write

_register_all()
RUN = CliRunner()


def test_check_trace_exit_codes(tmp_path: Path, troll_and_bear: Start) -> None:
    data = trace_of(troll_and_bear, A.Destroy(targets=("troll",)))
    good = write(tmp_path, data, "good.itf.json")
    result = RUN.invoke(app, ["check-trace", str(good)])
    assert result.exit_code == 0, result.output
    assert "PASSED" in result.output
    card_fields(data, 1, "troll")["tapped"] = False
    bad = write(tmp_path, data, "bad.itf.json")
    result = RUN.invoke(app, ["check-trace", str(bad)])
    assert result.exit_code == 1
    assert "first unmatched step: 1" in result.output
    assert "cards.troll.tapped" in result.output
    report = json.loads(RUN.invoke(app, ["check-trace", str(bad), "--json"]).stdout)
    assert report["verdict"] == "FAILED" and report["failure"]["step"] == 1
    empty = write(tmp_path, trace_of(troll_and_bear), "empty.itf.json")
    assert RUN.invoke(app, ["check-trace", str(empty)]).exit_code == 5


def test_crosscheck_of_a_mutant_writes_a_reproducible_report(tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [
        "crosscheck",
        "--engine",
        "reference:regen-does-not-tap",
        "--seed",
        "5",
        "--random",
        "20",
        "--no-scenarios",
        "--no-cover",
        "--out",
        str(out),
    ]
    result = RUN.invoke(app, args)
    assert result.exit_code == 6, result.output
    assert "seed 5 (repeat with --seed 5)" in result.output
    report = json.loads((out / "report.json").read_text())
    assert report["verdict"] == "DIVERGED" and report["seed"] == 5
    finding = report["findings"][0]
    assert finding["minimal_steps"] <= 3
    assert "regen.apply.tap" in finding["divergence"]["clauses"]
    assert "regen.apply.tap" in (out / "report.md").read_text()
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == report["cases"] + len(report["findings"])
    # The shrunk case replays (and check-trace accepts the spec's run, rejects the engine's).
    expected, observed = finding["files"]
    again = RUN.invoke(
        app,
        [
            "crosscheck",
            "--engine",
            "reference:regen-does-not-tap",
            "--random",
            "0",
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--case",
            expected,
            "--seed",
            "1",
        ],
    )
    assert again.exit_code == 6
    assert RUN.invoke(app, ["check-trace", expected]).exit_code == 0
    assert RUN.invoke(app, ["check-trace", observed]).exit_code == 1


def test_crosscheck_of_the_reference_agrees(tmp_path: Path) -> None:
    args = ["crosscheck", "--engine", "reference", "--seed", "2", "--random", "30"]
    result = RUN.invoke(app, [*args, "--no-cover", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["verdict"] == "PASSED" and report["counts"]["diverged"] == 0
    assert report["fields_compared"] > 1000


def test_cover_witnesses_alone_catch_a_mutant(tmp_path: Path) -> None:
    """The Z3 cover check's witnesses (one shortest run per clause branch of the relation)
    are enough to expose an engine that does not tap when it regenerates."""
    args = ["crosscheck", "--engine", "reference:regen-does-not-tap", "--random", "0"]
    args += ["--no-scenarios", "--no-witnesses", "--cover", "--seed", "1", "--json"]
    result = RUN.invoke(app, args)
    assert result.exit_code == 6, result.output
    report = json.loads(result.stdout)
    assert report["cases"] >= 40
    assert any("regen.apply.tap" in f["divergence"]["clauses"] for f in report["findings"])


def test_crosscheck_rejects_an_unknown_engine() -> None:
    result = RUN.invoke(app, ["crosscheck", "--engine", "nope"])
    assert result.exit_code == 2
    assert "unknown engine 'nope'" in result.output


def test_export_vectors_command(tmp_path: Path) -> None:
    result = RUN.invoke(app, ["export-vectors", str(tmp_path / "v"), "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["missing"] == [] and summary["vectors"] > 66
    assert (tmp_path / "v" / "README.md").exists()


class _Captured(Exception):
    """Raised by the stand-in crosscheck once it has seen the command's case stream."""


@pytest.mark.parametrize(
    "options",
    [
        StreamOptions(seed=2026, random_cases=150, scenarios=False, cover=False),
        StreamOptions(seed=7),
        StreamOptions(seed=3, random_cases=0, witnesses=False, max_steps=9, candidates=2),
    ],
    ids=["ci", "defaults", "other"],
)
def test_a_stream_command_compares_the_same_cases(
    options: StreamOptions, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``StreamOptions.command`` (the REPRODUCE line of the CI crosschecks) parsed by the
    real command gives back the same options, defaults included, so it compares the cases
    the test compared (the cases are a function of the options: test_generate.py)."""
    import shlex

    from regen_model.conform import differential

    seen: list[StreamOptions] = []

    def capture(factory: object, source: CaseStream, **_: object) -> None:
        seen.append(source.options)
        raise _Captured

    monkeypatch.setattr(differential, "crosscheck", capture)
    words = shlex.split(options.command("reference"))
    assert words[:2] == ["regen-model", "crosscheck"]
    result = RUN.invoke(app, words[1:])
    assert isinstance(result.exception, _Captured), result.output
    assert seen == [options]
