"""Tables that survive pipes and narrow terminals (``regen_model.cli.tables``).

Every clause and invariant ID a command prints at a wide width is printed whole, as often, at
40, 60 and 80 columns (``COLUMNS``, honoured when piped), never split across lines or cut with
"..."; ``--format plain`` has no box drawing and no colour; ``--format tsv`` is a header row and
tab-separated rows per table, tables separated by one empty line, nothing else on stdout.
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from rich.table import Table
from rich.text import Text

from regen_model.clauses import catalog
from regen_model.cli import main
from regen_model.cli.tables import TableFormat, output_console
from regen_model.invariants import load

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "regen_model" / "examples" / "new-object.yaml"
IDS = sorted({*catalog().clauses, *(inv.id for inv in load(()))}, key=len, reverse=True)
MAIN = "import sys; from regen_model.cli import main; sys.exit(main())"
BOX = re.compile("[\u2500-\u257f]")  # box drawing

COMMANDS: dict[str, list[str]] = {
    "check-trace": ["check-trace", "{tmp}/bad.itf.json"],
    "explore": ["explore", "-d", "2", "-m", "shield-not-consumed"],
    "mutants": ["mutants", "--list"],
    "run": ["run", str(EXAMPLE)],
    "verify": ["verify", "-s", "examples"],
}


# the failing trace and its tables (seconds of runs) are made once: one worker runs them all
pytestmark = pytest.mark.xdist_group("table-output")


@pytest.fixture(scope="module")
def tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A trace that fails at its last step (the closest candidate's diff table, the clauses)."""
    folder = tmp_path_factory.mktemp("tables")
    run = folder / "run.itf.json"
    assert main(["find", "exists c: c.by_shield >= 1", "-d", "3", "--out-itf", str(run)]) == 0
    trace = json.loads(run.read_text(encoding="utf-8"))
    card = trace["states"][-1]["cards"]["#map"][0][1]
    card["tapped"] = not card["tapped"]
    (folder / "bad.itf.json").write_text(json.dumps(trace), encoding="utf-8")
    return folder


def _output(
    argv: list[str],
    columns: int,
    tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    main([a.replace("{tmp}", str(tmp)) for a in argv])
    return capsys.readouterr().out


def _ids(text: str) -> Counter[str]:
    """How often each ID occurs whole (the longest first, so no ID counts inside another)."""
    found: Counter[str] = Counter()
    for ident in IDS:
        pattern = re.compile(rf"(?<![\w.-]){re.escape(ident)}(?![\w-])")
        found[ident] = len(pattern.findall(text))
        text = pattern.sub(" ", text)
    return +found


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_every_id_stays_whole_at_any_width(
    command: str,
    tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    wide = _ids(_output(COMMANDS[command], 1000, tmp, capsys, monkeypatch))
    assert wide, f"{command} prints some ID"
    for columns in (40, 60, 80):
        text = _output(COMMANDS[command], columns, tmp, capsys, monkeypatch)
        assert _ids(text) == wide, (command, columns)
        assert "\u2026" not in text and "..." not in text, (command, columns)


@pytest.mark.parametrize("command", ["check-trace", "explore", "mutants", "run"])
def test_plain_has_no_boxes_and_tsv_parses(
    command: str,
    tmp: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = _output([*COMMANDS[command], "--format", "plain"], 60, tmp, capsys, monkeypatch)
    assert not BOX.search(plain) and "\x1b[" not in plain
    tsv = _output([*COMMANDS[command], "--format", "tsv"], 60, tmp, capsys, monkeypatch)
    blocks = [b for b in tsv.split("\n\n") if b.strip()]
    assert blocks, command
    for block in blocks:
        rows = list(csv.reader(block.splitlines(), delimiter="\t", quoting=csv.QUOTE_NONE))
        assert len(rows) >= 2 or not rows[0][0], (command, block)
        assert {len(r) for r in rows} == {len(rows[0])}, (command, block)
    # Titles and verdict lines go to stderr: the tables' IDs stay, whole.
    wide = _ids(_output(COMMANDS[command], 1000, tmp, capsys, monkeypatch))
    assert set(_ids(tsv)) <= set(wide)
    assert _ids(tsv) or command == "check-trace"


def test_find_keeps_every_id_of_its_run_whole(tmp: Path) -> None:
    """``find``'s table (the solver may pick another shortest run each time: one result, printed
    at every width)."""
    from regen_model.checks.find import find
    from regen_model.checks.solver import Budget
    from regen_model.checks.systems import parse_scope, regen_system
    from regen_model.cli.find import trace_table
    from regen_model.invariants.query import parse

    result = find(regen_system(parse_scope(None)), parse("exists c: c.by_shield >= 1"), 3, Budget())
    texts = {}
    for columns in (40, 60, 80, 1000):
        console = output_console(width=columns, record=True, file=io.StringIO())
        console.print(trace_table(result))
        texts[columns] = console.export_text()
    assert _ids(texts[1000])
    assert all(_ids(t) == _ids(texts[1000]) for t in texts.values())


def test_a_table_wider_than_the_terminal_keeps_its_words() -> None:
    table = Table(title="Counterexample to regen.shield.one-per-destruction")
    table.add_column("action", ratio=2, overflow="fold")
    table.add_column("clauses", no_wrap=True)
    table.add_row(Text("cast Terror targeting Grizzly Bears"), "regen.apply.remove-from-combat")
    console = output_console(TableFormat.RICH, width=30, record=True, file=io.StringIO())
    console.print(table)
    text = console.export_text()
    assert "regen.shield.one-per-destruction" in text
    assert "regen.apply.remove-from-combat" in text
    assert max(len(line) for line in text.splitlines()) > 30


def test_piped_output_honours_columns(tmp: Path) -> None:
    """A real pipe: ``regen-model check-trace ... | cat`` with COLUMNS=40 lays the tables out
    for 40 columns and keeps every ID whole: the same IDs, as often, as at 1000 columns."""

    def piped(columns: int) -> str:
        result = subprocess.run(
            [sys.executable, "-c", MAIN, "check-trace", str(tmp / "bad.itf.json")],
            capture_output=True,
            text=True,
            env={**os.environ, "COLUMNS": str(columns)},
            check=False,
        )
        assert result.returncode == 1, result.stderr
        return result.stdout

    narrow, wide = piped(40), piped(1000)
    assert min(len(line) for line in narrow.splitlines() if line.startswith("╭")) < 80
    assert _ids(wide)
    assert _ids(narrow) == _ids(wide)
