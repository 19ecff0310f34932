"""The hand-made changes of ``benchmarks/changes.py`` still apply: each edit's text occurs
exactly once in its file, so ``benchmarks/mutation.py changes`` tests what it says."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from changes import CHANGES, Change  # noqa: E402


@pytest.mark.parametrize("change", CHANGES, ids=[c.name for c in CHANGES])
def test_each_change_applies_once(change: Change) -> None:
    assert change.view in ("engine", "encoding", "both")
    for edit in change.edits:
        text = (ROOT / edit.path).read_text()
        assert text.count(edit.old) == 1, f"{edit.path}: {edit.old!r}"
        assert edit.new != edit.old


def test_the_eleven_survivors_of_issue_10_are_listed() -> None:
    views = [c.view for c in CHANGES[:11]]
    assert views.count("encoding") == 5 and views.count("engine") == 4
    assert views.count("both") == 2
