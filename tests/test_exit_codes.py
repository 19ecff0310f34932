"""The README's exit-code table, command by command, for the kinds of bad input we guard.

Exit 1 is only ever a verdict: bad input is 2 with one line, our own bug is 7 with one line
(and no traceback unless ``REGEN_MODEL_DEBUG`` asks), Ctrl-C is 130. Every case runs through
``regen_model.cli.main``, the console script's entry point, so the top-level handler is part
of what is tested.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from regen_model.cli import main
from regen_model.cli.errors import DEBUG_ENV

ROOT = Path(__file__).resolve().parents[1]
MISBEHAVING = ROOT / "tests" / "conform" / "engines" / "misbehaving.py"
SCENARIO = (ROOT / "regen_model" / "examples" / "new-object.yaml").read_text(encoding="utf-8")


def _files(tmp: Path) -> dict[str, Path]:
    """One file per kind of bad input."""
    files = {
        "deep.yaml": SCENARIO + "x: " + "[" * 3000 + "]" * 3000 + "\n",
        "bigint.yaml": SCENARIO.replace(
            "players: [A, B]", f"players: [{{name: A, life: {'9' * 5000}}}, B]"
        ),
        "deep.itf.json": '{"states": ' + "[" * 3000 + "]" * 3000 + "}",
        "bigint.itf.json": '{"states": [{"players": {"A": {"life": ' + "9" * 5000 + "}}}]}",
        "syntax.py": "def broken(:\n",
        "missing.py": "import no_such_module_at_all\n",
        "exits.py": "import sys\nsys.exit(0)\n",
    }
    out = {}
    for name, text in files.items():
        (tmp / name).write_text(text, encoding="utf-8")
        out[name] = tmp / name
    return out


CASES: list[tuple[str, list[str], int]] = [
    ("run: no such file", ["run", "{tmp}/missing.yaml"], 2),
    ("run: nested 3000 deep", ["run", "{tmp}/deep.yaml"], 2),
    ("run: 5000-digit integer", ["run", "{tmp}/bigint.yaml"], 2),
    ("run: unknown option", ["run", "--nope", "{tmp}/deep.yaml"], 2),
    ("check-trace: nested 3000 deep", ["check-trace", "{tmp}/deep.itf.json"], 2),
    ("check-trace: 5000-digit integer", ["check-trace", "{tmp}/bigint.itf.json"], 2),
    ("crosscheck: unknown engine", ["crosscheck", "--engine", "nope"], 2),
    ("crosscheck: unbalanced quote", ["crosscheck", "--engine", "jsonl:python 'x"], 2),
    ("crosscheck --isolate: unknown engine", ["crosscheck", "--engine", "nope", "--isolate"], 2),
    ("verify: markup in a section name", ["verify", "-s", "[/bold]"], 2),
    ("explore: markup in a spell name", ["explore", "--spell", "[/bold]"], 2),
    (
        "crosscheck --case: nested 3000 deep",
        [
            "crosscheck",
            "--engine",
            "reference",
            "--random",
            "0",
            "--no-scenarios",
            "--no-witnesses",
            "--no-cover",
            "--case",
            "{tmp}/deep.itf.json",
        ],
        2,
    ),
    ("find: query nested 1000 deep", ["find", "(" * 1000 + "true" + ")" * 1000], 2),
    ("find: 5000-digit number", ["find", "c.damage > " + "9" * 5000], 2),
    ("prove: syntax error", ["prove", "--invariants-from", "{tmp}/syntax.py"], 2),
    ("prove: missing import", ["prove", "--invariants-from", "{tmp}/missing.py"], 2),
    ("prove: sys.exit(0)", ["prove", "--invariants-from", "{tmp}/exits.py"], 2),
    ("verify: unknown section", ["verify", "-s", "nope"], 2),
    (
        "verify -s proofs: missing import",
        ["verify", "-s", "proofs", "--invariants-from", "{tmp}/missing.py"],
        2,
    ),
    (
        "verify in workers: missing import",
        [
            "verify",
            "-s",
            "proofs",
            "-s",
            "cover",
            "-j",
            "2",
            "--invariants-from",
            "{tmp}/missing.py",
        ],
        2,
    ),
    ("verify: no workers", ["verify", "--jobs", "0"], 2),
    ("export-vectors: folder not empty", ["export-vectors", "{tmp}"], 2),
    ("explore: negative depth", ["explore", "--depth", "-1"], 2),
]

# Out-of-range numbers: (argv, the option named, the allowed range shown).
RANGES: list[tuple[list[str], str, str]] = [
    (["prove", "--k", "0"], "--k", "1..32"),
    (["prove", "--rlimit", "-1"], "--rlimit", "0.."),
    (["prove", "--depth", "-1"], "--depth", "0..64"),
    (["find", "--depth", "-1", "true"], "--depth", "0..64"),
    (["explore", "--depth", "-1"], "--depth", "0..64"),
    (["explore", "--count", "1000"], "--count", "1..8"),
    (["explore", "--max-states", "0"], "--max-states", "1.."),
    (["check-trace", "--max-frontier", "0", "x.itf.json"], "--max-frontier", "1.."),
    (["crosscheck", "--engine", "reference", "--jobs", "0"], "--jobs", "1..256"),
    (["crosscheck", "--engine", "reference", "--timeout", "0"], "--timeout", "0.1..3600"),
    (["crosscheck", "--engine", "reference", "--random", "-1"], "--random", "0.."),
    (["agree", "--workers", "-1"], "--jobs", "1..256"),
    (["mutants", "--jobs", "0"], "--jobs", "1..256"),
]


@pytest.mark.parametrize(
    ("argv", "option", "allowed"), RANGES, ids=[" ".join(r[0]) for r in RANGES]
)
def test_an_out_of_range_number_is_exit_2_naming_the_option_and_range(
    capsys: pytest.CaptureFixture[str], argv: list[str], option: str, allowed: str
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert not out
    (line,) = err.strip().splitlines()
    assert option in line
    assert f"(allowed: {allowed}" in line


@pytest.mark.parametrize("command", ["prove", "find"])
def test_an_absurd_scope_is_exit_2_with_the_range(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    argv = [command, "--scope", "cards=1000", *(["true"] if command == "find" else [])]
    assert main(argv) == 2
    (line,) = capsys.readouterr().err.strip().splitlines()
    assert line == "scope cards=1000 is out of range (allowed: 1..8)"


@pytest.mark.parametrize(("argv", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_is_exit_2_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], expected: int
) -> None:
    _files(tmp_path)
    code = main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    out, err = capsys.readouterr()
    assert code == expected, out + err
    assert "Traceback" not in out + err
    assert "internal error" not in err
    assert err.strip(), "an input error says what is wrong"


def test_find_shows_the_run_then_fails_on_an_unwritable_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    query = "exists c: c.by_shield >= 1"
    code = main(["find", query, "--depth", "3", "--out", str(blocker / "run.itf.json"), "--json"])
    out, err = capsys.readouterr()
    assert code == 2
    assert json.loads(out)["found"] == "found"  # the run is printed all the same
    assert err.startswith(f"error: cannot write {blocker / 'run.itf.json'}")


def test_check_trace_of_a_trace_that_shows_nothing_is_vacuous(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    setup = {
        "players": ["A", "B"],
        "permanents": [{"handle": "troll", "card": "Horned Troll", "owner": "A"}],
    }
    trace = {"#meta": {"setup": setup}, "states": [{}, {}, {}]}
    path = tmp_path / "nothing.itf.json"
    path.write_text(json.dumps(trace), encoding="utf-8")
    assert main(["check-trace", str(path)]) == 5
    assert "nothing is shown" in capsys.readouterr().out


def test_an_engine_named_with_markup_is_printed_as_it_is(
    capsys: pytest.CaptureFixture[str],
) -> None:
    engine = f"jsonl:{sys.executable} {MISBEHAVING} markup-name"
    argv = ["crosscheck", "--engine", engine, "--no-scenarios", "--no-witnesses", "--no-cover"]
    code = main([*argv, "--random", "1", "--seed", "1"])
    out, err = capsys.readouterr()
    assert code == 0, out + err
    assert "[bold red]evil[/bold red] [/nope] second line" in " ".join(out.split())


def _boom(*args: object, **kwargs: object) -> None:
    raise RuntimeError("something inside broke")


def test_our_bug_is_exit_7_with_one_line_and_no_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from regen_model.cli import find as find_cli

    monkeypatch.setattr(find_cli, "parse", _boom)
    monkeypatch.delenv(DEBUG_ENV, raising=False)
    assert main(["find", "true"]) == 7
    err = capsys.readouterr().err
    assert err.startswith("regen-model: internal error during find: RuntimeError: something ")
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err
    monkeypatch.setenv(DEBUG_ENV, "1")
    assert main(["find", "true"]) == 7
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def test_ctrl_c_is_130(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from regen_model.cli import find as find_cli

    def interrupt(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(find_cli, "parse", interrupt)
    assert main(["find", "true"]) == 130
    assert "Traceback" not in capsys.readouterr().err
