"""The mutation screen (``benchmarks/mutation_screen.py``) reads mutmut's trees right: the
function a mutant mutates, and the lines of the original it changes, which decide whether a
check can reach it at all."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from mutation_screen import changed_lines, mangled  # noqa: E402

# The shape of a module mutmut 3 writes: a trampoline, the original as ``x_F__mutmut_orig``,
# and each mutant as ``x_F__mutmut_N``, for functions and (``xǁClassǁmethod``) methods.
MODULE = """\
def tap(w, slot):
    return _trampoline(w, slot)


def x_tap__mutmut_orig(w, slot):
    card = w.cards[slot]
    if w.mutant("create-taps"):
        card = card._replace(damage=0)
    w.cards[slot] = card._replace(tapped=True)


def x_tap__mutmut_1(w, slot):
    card = w.cards[slot]
    if w.mutant("create-taps"):
        card = card._replace(damage=1)
    w.cards[slot] = card._replace(tapped=True)


def x_tap__mutmut_2(w, slot):
    card = w.cards[slot]
    if w.mutant("create-taps"):
        card = card._replace(damage=0)
    w.cards[slot] = card._replace(tapped=False)


class Work:
    def xǁWorkǁname__mutmut_orig(self, slot):
        return self.names[slot]

    def xǁWorkǁname__mutmut_1(self, slot):
        return None


def x_emit__mutmut_orig(w, slot, clause="phasing.out"):
    w.emit(
        "phased",
        indirectly=True,
    )


def x_emit__mutmut_1(w, slot, clause="phasing.out"):
    w.emit(
        "phased",
        indirectly=None,
    )


def x_emit__mutmut_2(w, slot, clause="XXphasing.outXX"):
    w.emit(
        "phased",
        indirectly=True,
    )
"""


def test_a_mutant_names_the_function_it_mutates() -> None:
    assert mangled("regen_model.engine.zones.x_move_zone__mutmut_3") == (
        "regen_model.engine.zones.x_move_zone"
    )
    assert mangled("regen_model.engine.work.xǁWorkǁset__mutmut_12") == (
        "regen_model.engine.work.xǁWorkǁset"
    )


def test_the_changed_lines_are_the_originals_lines(tmp_path: Path) -> None:
    package = tmp_path / "regen_model" / "engine"
    package.mkdir(parents=True)
    (package / "tapping.py").write_text(MODULE, encoding="utf-8")
    names = [
        "regen_model.engine.tapping.x_tap__mutmut_1",
        "regen_model.engine.tapping.x_tap__mutmut_2",
        "regen_model.engine.tapping.xǁWorkǁname__mutmut_1",
        "regen_model.engine.tapping.x_emit__mutmut_1",
        "regen_model.engine.tapping.x_emit__mutmut_2",
    ]
    found = changed_lines(tmp_path, names)
    path = str((package / "tapping.py").resolve())
    # x_tap__mutmut_orig is on line 5: its body is lines 6-9, the rule-mutant branch line 8;
    # the method's original is on line 27, its one body line 28
    assert found[names[0]] == (path, frozenset({8}))
    assert found[names[1]] == (path, frozenset({9}))
    assert found[names[2]] == (path, frozenset({28}))
    # a change on a continuation line is the whole statement's (35-38: ``w.emit(`` to its
    # ``)``): line coverage reports it on whichever line its first instruction sits; a
    # change to the signature is no statement: left out
    assert found[names[3]] == (path, frozenset({35, 36, 37, 38}))
    assert names[4] not in found


# An ``if (`` whose condition is on the lines below: Python 3.11's line coverage reports the
# condition's lines, never the ``if (`` line (slice 2 of issue 10 took
# ``engine.attachments.can_attach``'s mutant of such a condition for "not reached").
CONDITION = """\
def x_attach__mutmut_orig(w, item, host):
    if (
        item == host
        or not w.cards[item].on_battlefield
    ):
        return False
    return True


def x_attach__mutmut_1(w, item, host):
    if (
        item == host and not w.cards[item].on_battlefield
    ):
        return False
    return True
"""


def test_a_changed_condition_is_reached_when_its_lines_run(tmp_path: Path) -> None:
    import coverage

    package = tmp_path / "regen_model" / "engine"
    package.mkdir(parents=True)
    module = package / "attaching.py"
    module.write_text(CONDITION, encoding="utf-8")
    name = "regen_model.engine.attaching.x_attach__mutmut_1"
    path, lines = changed_lines(tmp_path, [name])[name]
    assert lines == frozenset({2, 3, 4, 5})  # the ``if``'s header, not its body
    namespace: dict[str, object] = {}
    lines_run = coverage.Coverage(data_file=None, include=[path], config_file=False)
    lines_run.start()
    try:
        exec(compile(module.read_text(), path, "exec"), namespace)
        attach = namespace["x_attach__mutmut_orig"]
        assert callable(attach)
        attach(None, 1, 1)
    finally:
        lines_run.stop()
    ran = set(lines_run.get_data().lines(path) or ())
    assert lines & ran, (sorted(lines), sorted(ran))


# The source module of MODULE: what mutmut read (``tap`` and ``Work.name``).
SOURCE = """\
def tap(w, slot):
    card = w.cards[slot]
    if w.mutant("create-taps"):
        card = card._replace(damage=0)
    w.cards[slot] = card._replace(tapped=True)


class Work:
    def name(self, slot):
        return self.names[slot]
"""


def test_the_mutants_of_changed_lines_are_those_that_change_them(tmp_path: Path) -> None:
    """``mutation.py screen --changed-since``: a mutant is kept when a line it changes is one
    of the source's changed lines, matched by its offset from the function's ``def``."""
    from mutation import touching

    package = tmp_path / "regen_model" / "engine"
    package.mkdir(parents=True)
    (package / "tapping.py").write_text(MODULE, encoding="utf-8")
    names = [
        "regen_model.engine.tapping.x_tap__mutmut_1",  # the rule-mutant branch, source line 4
        "regen_model.engine.tapping.x_tap__mutmut_2",  # the tapped write, source line 5
        "regen_model.engine.tapping.xǁWorkǁname__mutmut_1",  # the method's body, line 10
    ]

    def source(changed: set[int]) -> object:
        return lambda module: (SOURCE, changed) if module == "engine/tapping.py" else None

    assert touching(names, tmp_path, source({5})) == [names[1]]  # type: ignore[arg-type]
    assert touching(names, tmp_path, source({4, 10})) == [names[0], names[2]]  # type: ignore[arg-type]
    assert touching(names, tmp_path, source({1, 2, 3})) == []  # type: ignore[arg-type]


def test_recheck_applies_a_methods_hunk_one_level_in(tmp_path: Path) -> None:
    """``mutation.py recheck``: mutmut prints a method's mutant (``xǁClassǁmethod``) one level
    out, numbered from the method's ``def``; where ``patch`` refuses that hunk, it is applied
    by its text one level in, and a hunk whose lines occur nowhere is not applied."""
    from mutation import _replace_hunk

    module = tmp_path / "regen_model" / "encoding" / "framing.py"
    module.parent.mkdir(parents=True)
    module.write_text(SOURCE, encoding="utf-8")
    diff = (
        "--- regen_model/encoding/framing.py\n"
        "+++ regen_model/encoding/framing.py\n"
        "@@ -1,2 +1,2 @@\n"
        " def name(self, slot):\n"
        "-    return self.names[slot]\n"
        "+    return None\n"
    )
    assert _replace_hunk(tmp_path, diff)
    assert "        return None\n" in module.read_text(encoding="utf-8")
    assert not _replace_hunk(tmp_path, diff)  # its old lines are no longer there


_GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]


def _repo_with_a_module(root: Path) -> str:
    """A git repository at ``root`` holding ``regen_model/engine/tapping.py`` (``SOURCE``),
    committed; the commit's name."""
    package = root / "regen_model" / "engine"
    package.mkdir(parents=True)
    (package / "tapping.py").write_text(SOURCE, encoding="utf-8")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run(["git", "add", "."], cwd=root, check=True)
    subprocess.run([*_GIT, "commit", "-qm", "one"], cwd=root, check=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, check=True
    )
    return head.stdout.strip()


def test_a_mutant_is_handed_over_when_its_name_names_another_change_now(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``screen --catch-up``: mutmut numbers a function's mutants by their places in it, so a
    line added at the top of ``tap`` renumbers every mutant of ``tap``, also those of lines
    that did not change; a line added at its end leaves the numbers before it naming the
    changes they named. A comment or a blank line changes nothing mutmut numbers, and
    ``Work.name``, untouched, keeps its names. A function that did not exist is new."""
    import mutation

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    commit = _repo_with_a_module(tmp_path)
    module = tmp_path / "regen_model" / "engine" / "tapping.py"
    tap = [f"regen_model.engine.tapping.x_tap__mutmut_{i}" for i in (1, 2)]
    name = "regen_model.engine.tapping.xǁWorkǁname__mutmut_1"
    new = "regen_model.engine.tapping.x_untap__mutmut_1"
    assert mutation.renumbered_since(commit, [*tap, name]) == set()
    module.write_text(SOURCE.replace("    card = w.cards", "    # a note\n\n    card = w.cards"))
    assert mutation.renumbered_since(commit, [*tap, name]) == set()
    end = "card._replace(tapped=True)\n"
    module.write_text(SOURCE.replace(end, end + "    w.seen = 1\n"))
    assert mutation.renumbered_since(commit, [*tap, name]) == set()
    module.write_text(SOURCE.replace("    card = w.cards", "    w.seen = 1\n    card = w.cards"))
    module.write_text(module.read_text() + "\n\ndef untap(w, slot):\n    w.tapped = False\n")
    assert mutation.renumbered_since(commit, [*tap, name, new]) == {*tap, new}


def test_a_catch_up_takes_what_the_last_screen_ran_on_another_function_or_none_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``catch_up`` goes by each mutant's last screen (files oldest first): a mutant the later
    screen ran on today's ``tap`` is left to it though the first screen ran it on an older
    one; a mutant whose last screen ran on the older ``tap`` is taken again, as is one no
    screen ran. A last screen without a ``tree`` stops the run with a line naming it."""
    import json

    import mutation

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    results = tmp_path / "results"
    results.mkdir()
    monkeypatch.setattr(mutation, "RESULTS", results)
    old = _repo_with_a_module(tmp_path)
    module = tmp_path / "regen_model" / "engine" / "tapping.py"
    module.write_text(SOURCE.replace("    card = w.cards", "    w.seen = 1\n    card = w.cards"))
    subprocess.run([*_GIT, "commit", "-qam", "two"], cwd=tmp_path, check=True)
    tap = [f"regen_model.engine.tapping.x_tap__mutmut_{i}" for i in (1, 2, 3)]
    name = "regen_model.engine.tapping.xǁWorkǁname__mutmut_1"

    def screen(file: str, tree: str, screened: list[str]) -> None:
        document = {"every": 1, "tree": tree, "screened": screened}
        (results / file).write_text(json.dumps(document))

    screen("a.json", old, [tap[0], tap[1], name])
    screen("b.json", "HEAD", [tap[1]])
    chosen, handed = mutation.catch_up([*tap, name], ["a.json", "b.json"])
    assert chosen == [tap[0], tap[2]]
    assert handed == {"(no screen)": 1, "a.json": 1}
    screen("b.json", "", [tap[1]])
    with pytest.raises(SystemExit, match=r"results/b.json: no 'tree'.*last screen of 1 mutants"):
        mutation.catch_up([*tap, name], ["a.json", "b.json"])


def test_an_entry_counts_only_for_the_change_its_tree_gave_that_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``triage`` takes a survivor list's entry only while its name gives the change it gave on
    the entry's ``tree`` (``entries_moved``): once a line added at the top of ``tap``
    renumbers its mutants, the entries written for ``tap``'s old mutants judge other changes
    and their survivors are open again (``Triage.moved``), while ``Work.name``'s entry, its
    method untouched, still counts. A survivor whose function is gone from the source is no
    mutant any more (``functions_gone``)."""
    import mutation
    from mutation_triage import Entry, triage

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    commit = _repo_with_a_module(tmp_path)
    module = tmp_path / "regen_model" / "engine" / "tapping.py"
    tap = "regen_model.engine.tapping.x_tap__mutmut_1"
    name = "regen_model.engine.tapping.xǁWorkǁname__mutmut_1"
    entries = [Entry(n, "f", "equivalent", "r", "", "x:1", commit) for n in (tap, name)]
    assert mutation.entries_moved(entries) == frozenset()
    assert triage([tap, name], entries, [], mutation.entries_moved(entries)).open == 0
    module.write_text(SOURCE.replace("    card = w.cards", "    w.seen = 1\n    card = w.cards"))
    moved = mutation.entries_moved(entries)
    assert moved == {tap}
    result = triage([tap, name], entries, [], moved)
    assert (result.unlisted, result.moved, result.open) == ([tap], [tap], 1)
    assert result.counts["engine"]["equivalent"] == 1
    assert result.to_json()["entry_of_another_change"] == [tap]
    # an entry written anew on today's tree counts again
    rewritten = [Entry(tap, "f", "equivalent", "r", "", "x:1", "HEAD"), entries[1]]
    subprocess.run([*_GIT, "commit", "-qam", "two"], cwd=tmp_path, check=True)
    assert mutation.entries_moved(rewritten) == frozenset()
    gone = "regen_model.engine.tapping.x_untap__mutmut_1"
    assert mutation.functions_gone([tap, name, gone]) == [gone]


def test_a_recheck_row_counts_only_for_the_change_it_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``recheck_rows``: a row's ``diff`` is the change its name gave in the work directory
    it ran from. A row with that directory's ``tree`` counts while the name gives the same
    change now; one without a tree counts while its diff is today's change (``change_of``
    compares past the indentation mutmut prints and the function's name). Once a line added
    at the top of ``tap`` renumbers its mutants, no row of ``tap`` counts, while a row of
    ``Work.name``, untouched, still does; a row set aside on a commit (``set_aside_at``)
    is compared again only once its function changed."""
    import json

    import mutation

    monkeypatch.setattr(mutation, "ROOT", tmp_path)
    results = tmp_path / "results"
    results.mkdir()
    monkeypatch.setattr(mutation, "RESULTS", results)
    commit = _repo_with_a_module(tmp_path)
    tap = "regen_model.engine.tapping.x_tap__mutmut_2"
    name = "regen_model.engine.tapping.xǁWorkǁname__mutmut_1"
    diff = ['-    if w.mutant("create-taps"):', "+    if w.mutant(None):"]
    killed = {"applied": True, "killed": True, "by": "t"}
    rows = [
        {"mutant": tap, "tree": commit, **killed, "diff": diff},
        {"mutant": tap, **killed, "diff": diff},
        {"mutant": tap, **killed, "diff": ["-    w.x = 1", "+    w.x = 2"]},
        {"mutant": name, "tree": commit, **killed, "diff": ["-        return 1"]},
    ]
    (results / "mutation-recheck.json").write_text(json.dumps({"mutants": rows}))
    assert mutation.today_changes([tap])[tap] == mutation.change_of(diff)
    assert mutation.recheck_rows() == [rows[0], rows[1], rows[3]]
    assert mutation.killed_by_recheck() == {tap, name}
    module = tmp_path / "regen_model" / "engine" / "tapping.py"
    # a row set aside on ``commit`` (its diff was another change then) stays aside while
    # ``tap`` is unchanged, and is compared again once it changed
    later = ["-    w.seen = 1", "+    w.seen = 2"]
    aside = {"mutant": tap, "set_aside_at": commit, **killed, "diff": later}
    (results / "mutation-recheck.json").write_text(json.dumps({"mutants": [*rows, aside]}))
    assert aside not in mutation.recheck_rows()
    module.write_text(SOURCE.replace("    card = w.cards", "    w.seen = 1\n    card = w.cards"))
    now = mutation.today_changes([tap])[tap]
    assert now is not None
    aside["diff"] = [line[0] + "    " + line[1:] for line in now]
    (results / "mutation-recheck.json").write_text(json.dumps({"mutants": [*rows, aside]}))
    assert mutation.recheck_rows() == [rows[3], aside]
    assert mutation.change_of(["-def tap(w, slot=0):", "+    def tap(w, slot=1):", " x"]) == (
        "-def F(w, slot=0):",
        "+def F(w, slot=1):",
    )


def test_a_catch_up_drops_the_judged_mutants_mutmut_makes_no_more(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A survivor of an earlier screen whose name mutmut no longer makes (its function lost
    that number or is gone) judges nothing: a catch-up lists it (``judged_gone``) and
    ``screen_survivors`` drops it from then on, while the other survivors stay."""
    import json

    import mutation

    results = tmp_path / "results"
    results.mkdir()
    monkeypatch.setattr(mutation, "RESULTS", results)
    old = "regen_model.engine.tapping.x_tap__mutmut_9"
    kept = "regen_model.engine.tapping.x_tap__mutmut_1"
    unchecked = "regen_model.engine.tapping.x_untap__mutmut_1"
    screen = {"every": 1, "survivors": [old, kept], "no_checks": [unchecked]}
    (results / "a.json").write_text(json.dumps(screen))
    today = [kept, "regen_model.engine.tapping.x_tap__mutmut_2"]
    gone = mutation.judged_gone(today, ["a.json"])
    assert gone == [old, unchecked]
    catch_up = {"every": 1, "survivors": [], "screened": [], "gone": gone}
    (results / "b.json").write_text(json.dumps(catch_up))
    assert mutation.screen_survivors(["a.json"])[0] == sorted([old, kept, unchecked])
    assert mutation.screen_survivors(["a.json", "b.json"])[0] == [kept]
