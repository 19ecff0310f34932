"""Every exchange with a JSON-lines engine is bounded: in time, in size, in what it leaves.

An engine under test is a program we do not control. Whatever it does (never read its
stdin, write without newlines, write bytes that are not UTF-8, close its stdout, fork, flood
its stderr, answer twice), the checker reports an engine error quickly, quotes the tail of
the engine's stderr, kills its whole process group and goes on.
"""

from __future__ import annotations

import os
import re
import sys
import time

import pytest

from regen_model.conform.adapter import EngineFailure
from regen_model.conform.case import Case, Outcome
from regen_model.conform.differential import crosscheck
from regen_model.conform.jsonl import MAX_REPLY_BYTES, STDERR_TAIL, JsonlAdapter
from regen_model.conform.start import Start
from regen_model.model import actions as A

from .helpers import ENGINES


def misbehaving(mode: str, nth: int = 1) -> list[str]:
    return [sys.executable, str(ENGINES / "misbehaving.py"), mode, str(nth)]


def _case(start: Start) -> Case:
    return Case("c", start, (A.Destroy(targets=("troll",)), A.Cleanup()))


def _failure(mode: str, start: Start, timeout: float = 20.0) -> tuple[str, float]:
    """The engine error of one case run on ``mode``, and how long it took."""
    started = time.perf_counter()
    report = crosscheck(lambda: JsonlAdapter(misbehaving(mode), timeout=timeout), [_case(start)])
    elapsed = time.perf_counter() - started
    assert report.counts[Outcome.ENGINE_ERROR] == 1, report.errors
    return report.errors[0][1], elapsed


@pytest.mark.parametrize(
    ("mode", "expected"),
    [
        ("bad-utf8", "reply to 'apply' is not UTF-8 text"),
        ("close-stdout", "closed its stdout during 'apply'"),
        ("flood", f"longer than {MAX_REPLY_BYTES} bytes"),
        # The second line is either seen waiting before the next request is sent, or (when
        # the request goes out first: the race is the engine's) read as that request's
        # reply, whose shape is then wrong. Both end the case at once.
        ("stray", "wrote a line nobody asked for before 'observe'|observe reply without"),
    ],
)
def test_a_misbehaviour_is_reported_at_once_with_the_stderr_tail(
    troll_and_bear: Start, mode: str, expected: str
) -> None:
    error, elapsed = _failure(mode, troll_and_bear)
    assert re.search(expected, error), error
    assert f"stderr: ...misbehaving: {mode}" in error
    assert elapsed < 15  # the timeout is 20 s: none of these waits for it


def test_an_engine_that_stops_reading_cannot_block_the_checker(troll_and_bear: Start) -> None:
    # A start request far larger than a pipe's buffer: writing it would block for ever.
    huge = Start(("A" * 300_000, "B"), troll_and_bear.cards)
    adapter = JsonlAdapter(misbehaving("no-read"), timeout=2.0)
    started = time.perf_counter()
    try:
        assert adapter.name  # hello is answered, then the engine stops reading
        with pytest.raises(EngineFailure, match="did not read the 'start' request within 2s"):
            adapter.start(huge.build())
    finally:
        adapter.close()
    assert time.perf_counter() - started < 15


def test_the_stderr_tail_is_bounded_and_kept_to_the_last_words(troll_and_bear: Start) -> None:
    error, _ = _failure("spam-stderr", troll_and_bear, timeout=2.0)
    assert "no reply to 'apply' within 2s" in error
    assert error.endswith("last words")
    assert len(error) < STDERR_TAIL + 200


@pytest.mark.skipif(os.name != "posix", reason="process groups are POSIX")
def test_the_children_of_a_forking_engine_are_killed_with_it(troll_and_bear: Start) -> None:
    error, _ = _failure("fork", troll_and_bear, timeout=2.0)
    found = re.search(r"child (\d+)", error)
    assert found, error
    child = int(found.group(1))
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _alive(child):
        time.sleep(0.05)
    assert not _alive(child)


def _alive(pid: int) -> bool:
    """Running (not merely a zombie waiting to be reaped)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: fall back to the signal probe
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def test_an_engine_name_is_one_printable_line() -> None:
    adapter = JsonlAdapter(misbehaving("markup-name"), timeout=20)
    try:
        assert adapter.name == "[bold red]evil[/bold red] [/nope] second line"
    finally:
        adapter.close()
