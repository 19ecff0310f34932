"""Progress of the long commands (``regen_model.cli.progress``): a heartbeat on stderr when it
is not a terminal, finished rows streamed, nothing with ``--quiet``, and stdout under ``--json``
still one JSON document."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import time

import pytest

from regen_model.cli.progress import HEARTBEAT_ENV, Progress

MAIN = "import sys; from regen_model.cli import main; sys.exit(main())"
QUERY = "exists c: c.by_shield >= 1"

LONG: dict[str, list[str]] = {
    "verify": ["verify", "-s", "examples"],
    "prove": ["prove", "-i", "inv.shield.used-once", "--method", "kind", "--k", "1"],
    "explore": ["explore", "-d", "2"],
    "find": ["find", QUERY, "-d", "3"],
    "agree": ["agree", "--preset", "quick", "-r", "effects", "--no-coverage", "-j", "1"],
    "mutants": ["mutants", "-m", "shield-not-consumed", "-j", "1"],
    "crosscheck": [
        "crosscheck",
        *("--engine", "reference", "--no-scenarios", "--no-witnesses", "--no-cover"),
        *("--random", "30", "--seed", "1"),
    ],
}


def _run(argv: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", MAIN, *argv],
        capture_output=True,
        text=True,
        env={**os.environ, HEARTBEAT_ENV: "0.05", **env},
        check=False,
        timeout=600,
    )


@pytest.mark.parametrize("command", sorted(LONG))
def test_a_heartbeat_on_piped_stderr_and_pure_json_on_stdout(command: str) -> None:
    result = _run([*LONG[command], "--json"])
    assert result.returncode in (0, 1), result.stderr
    document = json.loads(result.stdout)  # nothing but the document on stdout
    assert document["format"] == f"regen-model/{command}"
    beats = [
        line
        for line in result.stderr.splitlines()
        if re.fullmatch(rf"{command}: .+ \(\d+ (s|min \d\d s)\)", line)
    ]
    assert beats, result.stderr


def test_quiet_shows_no_progress() -> None:
    result = _run([*LONG["find"], "--quiet"])
    assert result.returncode == 0, result.stderr
    assert "find:" not in result.stderr
    assert "Shortest run" in result.stdout


def test_the_heartbeat_says_what_how_far_and_how_long(monkeypatch: pytest.MonkeyPatch) -> None:
    stream = io.StringIO()
    progress = Progress("verify", "examples", total=5, unit="sections", stream=stream)
    with progress:
        progress.note("examples: PASSED")
    monkeypatch.setenv(HEARTBEAT_ENV, "0.01")
    progress.update("proofs", done=2)
    with progress:  # the next block (section) beats again, the time counted from the start
        time.sleep(0.1)
    lines = stream.getvalue().splitlines()
    assert lines[0] == "verify: examples: PASSED"
    assert "verify: proofs, 2/5 sections done (0 s)" in lines[1:]


def test_quiet_progress_writes_nothing() -> None:
    stream = io.StringIO()
    with Progress("find", "searching", quiet=True, stream=stream) as progress:
        progress.note("a row")
        progress.update("more")
    assert stream.getvalue() == ""
