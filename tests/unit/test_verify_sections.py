"""``verify``'s sections in worker processes: each gets the command's options, the results come
back in the order of the list, and a section's error reaches the caller."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from regen_model.verify import Section, VerifyOptions, run_sections

# Sections live in a module of their own so that a worker process can import them by name.
SECTIONS_MODULE = """
import os
from regen_model.invariants.spec import InvariantError
from regen_model.verdicts import Verdict
from regen_model.verify import Row

def echo(options):
    files = ",".join(str(p) for p in options.invariant_files)
    return [Row(files, Verdict.PROVED, 0.0, message=str(os.getpid()))]

def bad_file(options):
    raise InvariantError("user.py:3: no such field")
"""


@pytest.fixture
def module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    (tmp_path / "fake_sections.py").write_text(SECTIONS_MODULE)
    monkeypatch.syspath_prepend(str(tmp_path))  # a forked worker inherits it
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))  # a spawned one reads it
    return "fake_sections"


def _section(name: str, runner: str, weight: int = 1) -> Section:
    return Section(name, name, "item", runner, weight)


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_section_gets_the_options_in_order(module: str, jobs: int) -> None:
    sections = [_section(n, f"{module}:echo", w) for n, w in (("a", 1), ("b", 3), ("c", 2))]
    options = VerifyOptions((Path("mine.py"), Path("proofs")))
    got = list(run_sections(sections, jobs, options))
    assert [s.name for s, _, _ in got] == ["a", "b", "c"]
    assert all(rows[0].item == "mine.py,proofs" for _, rows, _ in got)
    pids = {rows[0].message for _, rows, _ in got}
    if jobs == 1:
        assert pids == {str(os.getpid())}
    else:
        assert str(os.getpid()) not in pids


def test_a_section_error_reaches_the_caller(module: str) -> None:
    from regen_model.invariants.spec import InvariantError

    sections = [_section("ok", f"{module}:echo"), _section("bad", f"{module}:bad_file")]
    with pytest.raises(InvariantError, match="no such field"):
        list(run_sections(sections, 2))
