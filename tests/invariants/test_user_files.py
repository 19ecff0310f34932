"""Users add invariants in files under proofs/ without touching the package."""

from __future__ import annotations

from pathlib import Path

import pytest

from regen_model.invariants import Kind, builtin, load
from regen_model.invariants.loading import load_file, user_files
from regen_model.invariants.spec import InvariantError

from .helpers import card, shields, state, violations

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_example_loads_and_holds() -> None:
    catalog = load([ROOT / "proofs"])
    ids = [i.id for i in catalog]
    assert ids[: len(builtin())] == [i.id for i in builtin()]
    assert "example.used-shields-were-made" in ids
    assert "example.regeneration-removes-all-damage" in ids
    example = {i.id: i for i in catalog}["example.regeneration-removes-all-damage"]
    assert example.kind is Kind.STEP and example.origin.endswith("my_invariants.py")


def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(
        "from regen_model.invariants import all_cards, invariant, step_invariant\n" + body,
        encoding="utf-8",
    )
    return path


def test_a_user_invariant_is_a_monitor_too(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        "mine.py",
        (
            "@invariant('mine.never-tapped', 'nothing is ever tapped', ('regen.apply.tap',))\n"
            "def never_tapped():\n"
            "    return all_cards(lambda c: ~c.tapped)\n"
        ),
    )
    (mine,) = load_file(path)
    assert mine.id == "mine.never-tapped"
    from regen_model.engine import step
    from regen_model.invariants import check_step
    from regen_model.model.actions import Destroy

    s = state(card("troll", "Horned Troll", shields=shields(1)))
    r = step(s, Destroy(targets=("troll",)))
    assert [v.invariant for v in check_step(s, Destroy(targets=("troll",)), r, [mine])] == [
        "mine.never-tapped"
    ]
    assert violations(s, [Destroy(targets=("troll",))]) == set()


def test_duplicate_ids_and_unknown_clauses_are_errors(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "a.py",
        (
            "@invariant('inv.shield.used-once', 'again', ('regen.shield.apply',))\n"
            "def again():\n    return all_cards(lambda c: c.damage >= 0)\n"
        ),
    )
    with pytest.raises(InvariantError, match="defined twice"):
        load([tmp_path])
    (tmp_path / "a.py").unlink()
    _write(
        tmp_path,
        "b.py",
        (
            "@invariant('mine.x', 'cites nothing real', ('no.such.clause',))\n"
            "def x():\n    return all_cards(lambda c: c.damage >= 0)\n"
        ),
    )
    with pytest.raises(InvariantError, match="unknown clause"):
        load([tmp_path])


def test_files_are_found_in_folders_and_underscore_files_skipped(tmp_path: Path) -> None:
    _write(tmp_path, "_helpers.py", "")
    _write(tmp_path, "z.py", "")
    assert [p.name for p in user_files([tmp_path])] == ["z.py"]
    with pytest.raises(InvariantError, match="no such file"):
        user_files([tmp_path / "missing"])


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("def broken(:\n", r"bad\.py:1: syntax error"),
        ("import no_such_module_here\n", r"bad\.py:1: importing it raised ModuleNotFoundError"),
        (
            "x = 1\nraise RuntimeError('boom')\n",
            r"bad\.py:2: importing it raised RuntimeError: boom",
        ),
        ("import sys\nsys.exit(0)\n", r"bad\.py:2: the file called sys\.exit\(0\)"),
        (
            "from regen_model.invariants import invariant\n"
            "@invariant('mine.bad', 'returns a number', ('regen.apply.tap',))\n"
            "def bad():\n    return 3\n",
            r"bad\.py:2: mine\.bad: the function must return a boolean expression",
        ),
    ],
)
def test_a_file_that_does_not_import_is_an_error_naming_file_and_line(
    tmp_path: Path, body: str, expected: str
) -> None:
    path = tmp_path / "bad.py"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InvariantError, match=expected):
        load([path])


def test_an_import_that_never_ends_is_cut(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from regen_model.invariants import loading

    monkeypatch.setattr(loading, "IMPORT_TIMEOUT", 0.3)
    path = tmp_path / "loop.py"
    path.write_text("while True:\n    pass\n", encoding="utf-8")
    with pytest.raises(InvariantError, match=r"loop\.py: importing it took longer than 0\.3 s"):
        load([path])


def test_a_formula_nested_too_deep_is_refused(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "deep.py",
        (
            "@invariant('mine.deep', 'deep', ('regen.apply.tap',))\n"
            "def deep():\n"
            "    f = all_cards(lambda c: c.damage >= 0)\n"
            "    for _ in range(500):\n"
            "        f = ~f\n"
            "    return f\n"
        ),
    )
    with pytest.raises(InvariantError, match="nested more than 128 levels"):
        load([tmp_path])


def test_proofs_in_the_current_directory_are_not_imported_unless_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regen_model.invariants.loading import user_paths

    (tmp_path / "proofs").mkdir()
    (tmp_path / "proofs" / "evil.py").write_text("raise SystemExit('pwned')\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert user_paths(None) == []
    assert [i.id for i in load(user_paths(None))] == [i.id for i in builtin()]
    with pytest.raises(InvariantError, match=r"evil\.py:1: the file called sys\.exit"):
        load(user_paths([Path("proofs")]))
