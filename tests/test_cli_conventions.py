"""CLI conventions: ``--version``, a short flag means one thing in every command, and help
shows what to write (``N``, ``PATH``, ``NAME``...), never typer's Python types or enum dumps."""

from __future__ import annotations

import re

import pytest
import typer

from regen_model.cli import COMMAND_MODULES, _register_all, app, main
from regen_model.cli.options import name_metavars


def _commands() -> dict[str, typer.core.TyperCommand]:
    _register_all()
    group = typer.main.get_command(app)
    name_metavars(group)
    return dict(group.commands)  # type: ignore[attr-defined]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert re.fullmatch(r"regen-model \d+\.\d+\.\d+\S* \(z3 [\d.]+\)\n", capsys.readouterr().out)


def test_a_short_flag_means_one_thing_everywhere() -> None:
    meaning: dict[str, set[str]] = {}
    for command in _commands().values():
        for param in command.params:
            longs = [o for o in param.opts if o.startswith("--")]
            for short in (o for o in param.opts if re.fullmatch(r"-\w", o)):
                meaning.setdefault(short, set()).add(longs[0])
    assert meaning, "some command has a short flag"
    assert {s: m for s, m in meaning.items() if len(m) > 1} == {}


def test_pools_are_sized_by_jobs_everywhere() -> None:
    for name, command in _commands().items():
        for param in command.params:
            if "--workers" in param.opts or "--jobs" in param.opts:
                assert param.opts[:2] == ["--jobs", "-j"], name


@pytest.mark.parametrize("command", sorted({*COMMAND_MODULES, "check-trace", "crosscheck"}))
def test_help_shows_no_python_types(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    if command == "conform":
        command = "export-vectors"
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    for python_type in (
        "list[",
        "int range",
        "<str>",
        "<path>",
        "<int>",
        "<float",
        "Path]",
        "<bool>",
    ):
        assert python_type not in text, (command, python_type)
    assert "shield-not-consumed|" not in text  # no enum dump
