"""SIGINT and SIGTERM during a long command: the report of what was computed so far, marked
incomplete (tables, ``--json``, ``--out``), exit 130 / 143, no traceback, no worker left.

The signal is sent for real to a ``regen-model`` process once it has printed its first line
(so its handlers are installed and work is under way); ``prove`` is stopped in-process by a
result stream that raises ``Interrupted`` after its first result.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from regen_model.cli import main
from regen_model.interrupts import Interrupted

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


def _stopped(
    argv: list[str], signum: int, after_line: str, wait: float = 2.0
) -> tuple[int, str, str]:
    """Run ``regen-model ARGV`` in its own process group; once a line containing
    ``after_line`` appeared on stdout or stderr (and ``wait`` more seconds passed), send
    ``signum``; return the exit code and both outputs, and check no process of the group is
    left."""
    command = [
        sys.executable,
        "-c",
        "import sys; from regen_model.cli import main; sys.exit(main())",
    ]
    env = {**os.environ, "COLUMNS": "200"}
    proc = subprocess.Popen(
        [*command, *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if "--json" not in argv else subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    assert proc.stdout is not None
    seen: list[str] = []
    stream = proc.stdout if "--json" not in argv else proc.stderr
    assert stream is not None
    for line in stream:
        seen.append(line)
        if after_line in line:
            break
    time.sleep(wait)
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=120)
    if "--json" in argv:
        out, err = out, "".join(seen) + err
    else:
        out, err = "".join(seen) + out, ""
    time.sleep(0.5)
    with pytest.raises(ProcessLookupError):  # the workers went with it
        os.killpg(proc.pid, 0)
    return proc.returncode, out, err


def test_sigint_during_explore_prints_what_was_seen(tmp_path: Path) -> None:
    argv = ["explore", "--count", "2", "--depth", "8", "--family", "all", "--continue"]
    code, out, _ = _stopped([*argv, "--html", str(tmp_path / "x.html")], signal.SIGINT, "checking")
    assert code == 130, out
    assert "Traceback" not in out
    assert "explore: INCOMPLETE (interrupted by SIGINT;" in " ".join(out.split())
    assert "UNKNOWN" in out
    assert "(incomplete)" in (tmp_path / "x.html").read_text(encoding="utf-8")


def test_sigterm_during_crosscheck_keeps_the_compared_cases(tmp_path: Path) -> None:
    argv = ["crosscheck", "--engine", "reference", "--seed", "1", "--random", "100000"]
    argv += ["--no-cover", "--workers", "2", "--out", str(tmp_path), "--json"]
    code, out, err = _stopped(argv, signal.SIGTERM, "crosscheck of reference", wait=4.0)
    assert code == 143, err
    assert "Traceback" not in err
    doc = json.loads(out)
    assert doc["incomplete"] is True and doc["interrupted_by"] == "SIGTERM"
    assert doc["exit_code"] == 143 and doc["cases"] > 0
    written = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert written["incomplete"] is True and written["cases"] == doc["cases"]
    assert "**Incomplete**: interrupted by SIGTERM" in (tmp_path / "report.md").read_text()


@pytest.mark.slow
def test_sigterm_during_verify_reports_the_sections_done_and_stops_the_pool() -> None:
    argv = ["verify", "-s", "examples", "-s", "mutants", "-s", "proofs"]
    code, out, _ = _stopped(argv, signal.SIGTERM, "Example scenarios", wait=3.0)
    assert code == 143, out
    assert "Traceback" not in out
    flat = " ".join(out.split())
    assert "verify: INCOMPLETE (interrupted by SIGTERM; 1 of 3 section(s) done;" in flat
    assert "not run: mutants, proofs" in flat


def test_an_interrupted_prove_reports_the_results_known(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from regen_model.checks import runner
    from regen_model.cli import prove as prove_cli

    real = runner.iter_prove

    def first_then_stop(*args: Any, **kwargs: Any) -> Iterator[Any]:
        stream = real(*args, **kwargs)
        yield next(stream)
        raise Interrupted(signal.SIGTERM)

    monkeypatch.setattr(prove_cli, "iter_prove", first_then_stop)
    assert main(["prove", "--method", "kind", "--k", "1", "--json"]) == 143
    doc = json.loads(capsys.readouterr().out)
    assert doc["incomplete"] is True and doc["interrupted_by"] == "SIGTERM"
    assert doc["exit_code"] == 143
    assert len(doc["rows"]) == 1
    # the one row done is proved, but the run is not: the rest is unknown
    assert doc["rows"][0]["verdict"] == "PROVED" and doc["verdict"] == "UNKNOWN"
