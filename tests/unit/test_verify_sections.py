"""``verify``'s sections in worker processes: each gets the command's options, the results come
back in the order of the list, a section's parts' rows come in order, parts that share a key
share one workbench in one process, and a section's error reaches the caller."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from regen_model.verify import (
    RELATION_AT_TWO_SLOTS,
    SECTIONS,
    Part,
    Section,
    VerifyOptions,
    run_sections,
)

# Sections live in a module of their own so that a worker process can import them by name.
SECTIONS_MODULE = """
import os
from regen_model.invariants.spec import InvariantError
from regen_model.verdicts import Verdict
from regen_model.verify import Row

def echo(options, bench):
    files = ",".join(str(p) for p in options.invariant_files)
    return [Row(files, Verdict.PROVED, 0.0, message=str(os.getpid()))]

def count(options, bench):
    seen = bench.get("seen", list)
    seen.append(1)
    return [Row(str(len(seen)), Verdict.PROVED, 0.0, message=str(os.getpid()))]

def bad_file(options, bench):
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


@pytest.mark.parametrize("jobs", [1, 2])
def test_parts_sharing_a_key_share_one_workbench(module: str, jobs: int) -> None:
    """A part sees what an earlier part with the same key put on the workbench, in the same
    process; a part sharing no key starts from an empty one. The answer does not depend on
    how many processes run the parts."""
    count = f"{module}:count"
    sections = [
        Section("one", "one", "item", count, 1, shares="k"),
        Section("two", "two", "item", count, 1, shares="k", more=(Part(count, 5),)),
        Section("three", "three", "item", count, 3),
    ]
    got = {s.name: rows for s, rows, _ in run_sections(sections, jobs)}
    assert {name: [r.item for r in rows] for name, rows in got.items()} == {
        "one": ["1"],
        "two": ["2", "1"],
        "three": ["1"],
    }
    assert got["one"][0].message == got["two"][0].message  # the same process


def test_the_relation_shared_by_cover_and_the_queries_is_one_scope() -> None:
    """The cover section and the agreement section's relation queries share the relation
    under one key: it is only one relation if their scopes are the same."""
    from regen_model.checks.systems import COVER_SCOPE
    from regen_model.encoding.verify_section import QUERY_SCOPE

    assert COVER_SCOPE == QUERY_SCOPE
    sharing = {
        (s.name, p.runner.rpartition(":")[2])
        for s in SECTIONS
        for p in s.parts()
        if p.shares == RELATION_AT_TWO_SLOTS
    }
    assert sharing == {("agreement", "verify_relation_queries"), ("cover", "verify_cover")}
