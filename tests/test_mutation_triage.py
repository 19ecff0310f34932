"""The hand-made lists of the mutation screen's survivors (``benchmarks/mutation_triage.py``):
they load, each killing check they name exists, and the triage sets them against the screen's
results the way the benchmark's ``triage`` command reports them."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from mutation_triage import (  # noqa: E402
    COLUMNS,
    KINDS,
    Entry,
    ListError,
    load_list,
    load_lists,
    triage,
)

HEAD = "format: regen-model/mutation-survivors\nversion: 1\nsurvivors:\n"


def _write(tmp_path: Path, body: str, name: str = "mutation-survivors-engine.yaml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + body)
    return path


def test_the_checked_in_lists_load_and_name_checks_that_exist() -> None:
    entries = load_lists(ROOT / "benchmarks")
    assert entries, "no list of survivors is checked in"
    for entry in entries:
        if not entry.killed_by:
            continue
        node = entry.killed_by.split()[0]
        test_file = ROOT / node.split("::")[0]
        assert test_file.is_file(), f"{entry.source}: killed_by: no {test_file}"
        scenario = re.search(r"test_scenario_passes\[([^\]]+\.yaml)\]", node)
        if scenario:
            path = ROOT / "tests" / "scenarios" / scenario.group(1)
            assert path.is_file(), f"{entry.source}: killed_by: no scenario {path}"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            "  - {name: a, function: f, kind: gap, reason: r, tree: c}\n",
            "killed_by: required for kind gap",
        ),
        (
            "  - {name: a, function: f, kind: odd, reason: r, tree: c}\n",
            "kind: 'odd' is not one of",
        ),
        ("  - {name: a, kind: text, reason: r}\n", "function: missing"),
        ("  - {name: a, function: f, kind: text, reason: r}\n", "tree: missing"),
        (
            "  - {name: a, function: f, kind: text, reason: r, tree: c}\n"
            "  - {name: a, function: f, kind: text, reason: r, tree: c}\n",
            "name: a is listed already at",
        ),
    ],
)
def test_a_bad_entry_is_named_by_file_line_and_field(
    tmp_path: Path, body: str, message: str
) -> None:
    path = _write(tmp_path, body)
    with pytest.raises(ListError) as caught:
        load_list(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:"), text
    assert message in text


def test_a_list_of_another_format_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "mutation-survivors-engine.yaml"
    path.write_text("survivors: []\n")
    with pytest.raises(ListError, match="format"):
        load_list(path)


def _entry(name: str, kind: str, killed_by: str | None = None) -> Entry:
    if killed_by is None:
        killed_by = "" if kind in ("text", "equivalent") else "t"
    return Entry(name, "f", kind, "r", killed_by, "x:1")


def test_triage_counts_kinds_and_reports_what_is_open() -> None:
    engine = "regen_model.engine.zones.x_move_zone__mutmut_"
    encoding = "regen_model.encoding.zones.x_move_zone__mutmut_"
    survivors = [engine + "1", engine + "2", engine + "3", encoding + "1"]
    entries = [
        _entry(engine + "1", "equivalent"),
        _entry(engine + "2", "gap"),
        _entry(engine + "9", "text"),  # no longer a survivor: stale
    ]
    recheck = [
        {"mutant": engine + "2", "applied": True, "killed": False},  # listed killed, alive
        {"mutant": engine + "1", "applied": False},  # the diff no longer fits: nothing ran
    ]
    result = triage(survivors, entries, recheck)
    assert result.counts["engine"]["survived"] == 3
    assert result.counts["engine"]["equivalent"] == 1
    assert result.counts["engine"]["gap"] == 1
    assert result.unlisted == [engine + "3", encoding + "1"]
    assert result.stale == [engine + "9"]
    assert result.alive == [engine + "2"]
    assert result.open == 3
    assert triage(survivors[:2], entries[:2], []).open == 0


def test_a_text_survivor_is_open_until_a_check_reads_it() -> None:
    """Words a person reads are output: a text entry without killed_by stays open (and counts
    as text alive), one with killed_by is killed (text killed), and a recheck that finds a
    killed text mutant alive reports it like any killed kind."""
    name = "regen_model.engine.turn.x_end_step__mutmut_"
    survivors = [name + "1", name + "2"]
    entries = [
        _entry(name + "1", "text"),
        _entry(name + "2", "text", killed_by="tests/test_scenarios.py::x"),
    ]
    result = triage(survivors, entries, [])
    assert result.counts["engine"]["text alive"] == 1
    assert result.counts["engine"]["text killed"] == 1
    assert result.counts["engine"]["text"] == 0
    assert result.text_alive == [name + "1"]
    assert result.open == 1
    assert result.to_json()["text_alive"] == [name + "1"]
    assert triage(survivors[1:], entries[1:], []).open == 0
    rechecked = triage(survivors[1:], entries[1:], [{"mutant": name + "2", "killed": False}])
    assert rechecked.alive == [name + "2"]
    assert rechecked.open == 1


def test_a_survivor_a_recheck_killed_needs_no_entry() -> None:
    """An unlisted survivor that ``recheck`` applied and a named check killed is judged by
    that row (``rechecked``); a row that did not apply, found it alive, or names no check
    leaves it open."""
    name = "regen_model.encoding.sba.x_sba_pass__mutmut_"
    survivors = [name + str(k) for k in range(1, 5)]
    recheck = [
        {"mutant": name + "1", "applied": True, "killed": True, "by": "tests/unit/x.py::t"},
        {"mutant": name + "2", "applied": False},
        {"mutant": name + "3", "applied": True, "killed": False, "by": ""},
        {"mutant": name + "4", "applied": True, "killed": True, "by": ""},
    ]
    result = triage(survivors, [], recheck)
    assert result.counts["encoding"]["rechecked"] == 1
    assert result.unlisted == survivors[1:]
    assert result.open == 3


def test_a_recheck_file_left_conflicted_stops_the_run_and_keeps_the_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A merge left conflict markers in ``mutation-recheck.json`` while a sweep wrote to it:
    the sweep stops with one line naming the file, and the row it was writing is kept beside
    it (the file itself is left for the person to mend)."""
    import json

    import mutation

    monkeypatch.setattr(mutation, "RESULTS", tmp_path)
    conflicted = '<<<<<<< HEAD\n{"mutants": []}\n=======\n{"mutants": []}\n>>>>>>> x\n'
    (tmp_path / "mutation-recheck.json").write_text(conflicted)
    row = {"mutant": "regen_model.engine.sba.x_sba_pass__mutmut_1", "killed": True}
    with pytest.raises(SystemExit) as stopped:
        mutation._RecheckRecord(["tests/x.py"]).add(row)
    assert "mutation-recheck.json: not a recheck file" in str(stopped.value)
    kept = (tmp_path / "mutation-recheck.unmerged.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in kept] == [row]
    assert (tmp_path / "mutation-recheck.json").read_text() == conflicted
    with pytest.raises(SystemExit):
        mutation.recheck_rows()  # triage says the same, not a traceback


def test_a_kill_stands_against_a_later_run_that_did_not_run_its_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A recheck with other ``--check`` nodes, or one whose copy of the tree was made before
    the killing test was committed, does not run the test that killed a mutant: its
    survival leaves the earlier row. A run that ran that test and passed replaces it, and
    so does a survival after a kill by the time limit (no test failed)."""
    import json

    import mutation

    monkeypatch.setattr(mutation, "RESULTS", tmp_path)
    name = "regen_model.engine.sba.x_sba_pass__mutmut_1"
    killed = {"mutant": name, "applied": True, "killed": True, "by": "tests/a/t.py::test_x"}
    survived = {"mutant": name, "applied": True, "killed": False, "by": ""}

    def row_after(*rows: dict[str, object], checks: tuple[str, ...] = ("tests/b",)) -> object:
        (tmp_path / "mutation-recheck.json").unlink(missing_ok=True)
        for row in rows:
            mutation._RecheckRecord(list(checks)).add(row)
        document = json.loads((tmp_path / "mutation-recheck.json").read_text())
        (only,) = document["mutants"]
        return only

    assert row_after(killed, survived) == killed
    assert row_after(killed, {**survived, "checks": ["tests/b/u.py::test_y"]}) == killed
    for ran in ("tests/a", "tests/a/", "tests/a/t.py", "tests/a/t.py::test_x"):
        assert row_after(killed, {**survived, "checks": [ran]}) == {**survived, "checks": [ran]}
    assert row_after(killed, survived, checks=("tests/a",)) == survived
    timed_out = {**killed, "by": "timeout: the checks ran past 300 s"}
    assert row_after(timed_out, survived) == survived
    not_applied = {"mutant": name, "applied": False, "diff": []}
    assert row_after(killed, not_applied) == not_applied
    assert row_after(survived, killed) == killed
    # the name now names another change (mutmut renumbered the function): the old kill was
    # of that other change and says nothing about this one
    before, after = {**killed, "diff": ["-    x = 1"]}, {**survived, "diff": ["-    y = 2"]}
    assert row_after(before, after) == after
    assert row_after(before, {**after, "diff": before["diff"]}) == before


def test_a_sweep_runs_a_rule_mutants_own_checks_where_a_line_names_it() -> None:
    """``recheck --unjudged`` puts the observability and both-views checks of a rule mutant
    that a removed line names first, where a mutant turning its switch off dies."""
    import mutation

    checks = mutation._switch_checks(["-    if w.mutant(Mutant.NO_SBA_BEFORE_PRIORITY):"])
    assert len(checks) == 2
    assert all(c.endswith("[no-sba-before-priority]") for c in checks), checks
    assert mutation._switch_checks(["-    x = 1"]) == []


def test_every_column_of_the_table_is_a_kind_or_a_split_of_one() -> None:
    """The table's columns cover every kind: text split in two, the others as they are, and
    the two a machine judges (``rechecked``) or no one has (``unlisted``)."""
    assert set(COLUMNS) - {"text killed", "text alive", "unlisted", "rechecked"} == set(KINDS) - {
        "text"
    }


def test_every_unscreened_mutant_of_a_screen_is_judged() -> None:
    """Every screen's ``no checks`` mutants (functions only the symbolic build and the
    solver-chosen states call) and ``not reached`` ones (lines only a rule mutant runs) are
    judged like survivors: each is listed or killed by a current recheck row, and ``triage``
    counts them (``screen_survivors``). Both kinds occur in the screens checked in, so the
    check is not empty."""
    import json

    import mutation

    listed = {e.name for e in load_lists(ROOT / "benchmarks")} | mutation.killed_by_recheck()
    found = dict.fromkeys(mutation.JUDGED_UNSCREENED, 0)
    for screen in mutation.screen_files([]):
        document = json.loads((mutation.RESULTS / screen).read_text())
        for field in mutation.JUDGED_UNSCREENED:
            names = document.get(field, [])
            found[field] += len(names)
            assert sorted(set(names) - listed) == [], (screen, field)
            assert set(names) <= set(mutation.screen_survivors([screen])[0])
    assert all(found.values()), found


def test_the_slices_of_a_screen_take_every_mutant_once() -> None:
    """``screen --every K --offset I``: the K slices together are every mutant, each in one
    slice, and slice 1 is the first sample's (numbers 1, K + 1, 2K + 1, ...)."""
    import mutation

    names = [f"regen_model.engine.zones.x_move__mutmut_{i}" for i in range(1, 95)]
    for every in (1, 3, 20):
        slices = [
            [n for n in names if mutation._sampled(n, every, offset)]
            for offset in range(1, every + 1)
        ]
        assert sorted(n for s in slices for n in s) == sorted(names), every
    first = [int(n.rsplit("_", 1)[1]) for n in names if mutation._sampled(n, 20, 1)]
    assert first == [1, 21, 41, 61, 81]
    last = [int(n.rsplit("_", 1)[1]) for n in names if mutation._sampled(n, 20, 20)]
    assert last == [20, 40, 60, 80]


def test_mutmuts_test_selection_is_the_fast_check_list() -> None:
    """``[tool.mutmut]``'s test selection is what mutmut itself runs on a mutant; the screen
    and ``recheck`` run ``FAST_CHECKS``. A check added to one and not the other would make
    the two tools judge a mutant by different checks."""
    import tomllib

    from mutation import FAST_CHECKS

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mutmut"]
    assert config["pytest_add_cli_args_test_selection"] == list(FAST_CHECKS)


def test_every_check_a_recheck_names_is_a_file_of_the_tree() -> None:
    """A check list naming a test file that was removed or renamed makes pytest run nothing
    and fail, and ``recheck`` counts that as a kill of every mutant it runs (slice 14: the
    rider halves' tests, folded into test_mutant_sites.py, stayed in RECHECK_EXTRA and
    SWEEP_CHECKS, and a whole-list recheck reported two equivalent mutants killed by "no tests
    ran")."""
    from mutation import FAST_CHECKS, RECHECK_EXTRA, SWEEP_CHECKS

    for check in (*FAST_CHECKS, *RECHECK_EXTRA, *SWEEP_CHECKS):
        path = check.removeprefix("--deselect=").split("::")[0]
        assert (ROOT / path).exists(), check


def test_a_recheck_of_a_name_mutmut_does_not_know_is_refused() -> None:
    """A name that mutmut never generated (a typo, or a line pasted with the names) is
    refused before anything runs, instead of becoming a row "not applied" under that name."""
    import mutation

    known = {"regen_model.engine.sba.x_sba_pass__mutmut_1": "survived"}
    assert mutation.unknown_names(list(known), known) == ""
    line = mutation.unknown_names([*known, "'killed':", "True,"], known)
    assert "no mutant named \"'killed':\"" in line and "(and 1 more)" in line, line
