"""``regen-model prove`` and ``find`` end to end, on the minimal system (monkeypatched in for
the encoding of the rules, so the commands' own behaviour is what is tested here)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.cli import find as find_cli
from regen_model.cli import prove as prove_cli
from regen_model.encoding.scope import Scope

from .mini import MiniSystem

_register_all()
RUNNER = CliRunner()


@pytest.fixture(autouse=True)
def mini(monkeypatch: pytest.MonkeyPatch) -> None:
    def system(scope: Scope | None = None, rules: Any = None) -> MiniSystem:
        return MiniSystem()

    monkeypatch.setattr(prove_cli, "regen_system", system)
    monkeypatch.setattr(find_cli, "regen_system", system)


def test_prove_json_and_exit_code() -> None:
    result = RUNNER.invoke(
        app,
        [
            "prove",
            "-i",
            "inv.shield.used-once",
            "-i",
            "inv.shield.made-this-turn",
            "--method",
            "induction",
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["format"] == "regen-model/prove" and doc["verdict"] == "PROVED"
    assert {r["invariant"] for r in doc["rows"]} == {
        "inv.shield.used-once",
        "inv.shield.made-this-turn",
    }
    assert all(r["clauses"] for r in doc["rows"])


def test_prove_table_and_unknown_exit_code() -> None:
    result = RUNNER.invoke(
        app, ["prove", "-i", "inv.shield.used-once", "--method", "induction", "--rlimit", "1"]
    )
    assert result.exit_code == 4, result.output  # UNKNOWN, never shown as proved
    assert "UNKNOWN" in result.output and "PROVED" not in result.output.split("prove:")[0]


def test_prove_bad_input() -> None:
    assert RUNNER.invoke(app, ["prove", "-i", "no.such"]).exit_code == 2
    assert RUNNER.invoke(app, ["prove", "--method", "magic"]).exit_code == 2
    assert RUNNER.invoke(app, ["prove", "--scope", "cards=x"]).exit_code == 2


def test_prove_loads_user_files(tmp_path: Path) -> None:
    (tmp_path / "mine.py").write_text(
        "from regen_model.invariants import all_cards, invariant\n"
        "@invariant('mine.no-negative-damage', 'damage is never negative', ('damage.mark',))\n"
        "def x():\n    return all_cards(lambda c: c.damage >= 0)\n",
        encoding="utf-8",
    )
    result = RUNNER.invoke(
        app,
        [
            "prove",
            "-i",
            "mine.no-negative-damage",
            "--method",
            "any-n",
            "--invariants-from",
            str(tmp_path),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rows"][0]["method"] == "any-n"


def test_find_writes_itf_and_exits_0(tmp_path: Path) -> None:
    out = tmp_path / "t.itf.json"
    result = RUNNER.invoke(
        app, ["find", "exists c: c.by_shield >= 1", "--depth", "3", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "regen.shield.apply" in result.output
    assert "used/by" in result.output  # a list of shields is text, not console markup
    itf = json.loads(out.read_text(encoding="utf-8"))
    assert len(itf["states"]) == 3 and itf["#meta"]["query"] == "exists c: c.by_shield >= 1"


def test_find_not_found_bad_query_and_examples() -> None:
    assert (
        RUNNER.invoke(app, ["find", "exists c: c.tapped and c.zone == exile", "-d", "2"]).exit_code
        == 1
    )
    bad = RUNNER.invoke(app, ["find", "exists c: c.zone == nowhere"])
    assert bad.exit_code == 2 and "'nowhere' is not a Zone" in bad.output
    assert RUNNER.invoke(app, ["find", "exists c: c.tapped and"]).exit_code == 2
    assert RUNNER.invoke(app, ["find", "--example", "no-such"]).exit_code == 2
    assert RUNNER.invoke(app, ["find"]).exit_code == 2
    listed = RUNNER.invoke(app, ["find", "--list-examples"])
    assert listed.exit_code == 0 and "survives-two-destructions" in listed.output
    doc = json.loads(
        RUNNER.invoke(app, ["find", "--example", "shield-left-after-regeneration", "--json"]).output
    )
    assert doc["found"] == "found" and doc["depth"] == 3


def test_find_disagreement_is_exit_7(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(
        find_cli, "regen_system", lambda scope=None, rules=None: MiniSystem(broken="no-consume")
    )
    result = RUNNER.invoke(app, ["find", "exists c: c.by_shield >= 1", "-d", "3", "--json"])
    assert result.exit_code == 7
    assert json.loads(result.stdout)["disagreement"]["field"].endswith(".shields")


USER_INVARIANTS = """
from regen_model.invariants import all_cards, invariant

@invariant("test.never-tapped", "no card is ever tapped (false)", ("regen.apply.tap",))
def never_tapped():
    return all_cards(lambda c: ~c.tapped)

@invariant(
    "test.used-le-made",
    "no more shields used than made (true, but not inductive alone)",
    ("regen.shield.apply", "regen.shield.create"),
)
def used_le_made():
    return all_cards(lambda c: c.by_shield <= c.shields_made)

@invariant("test.controlled", "every card is controlled by a player", ("control.change",))
def controlled():
    return all_cards(lambda c: c.controller >= 0)
"""


def _prove_json(tmp_path: Path, *args: str) -> tuple[int, dict[str, Any]]:
    (tmp_path / "tests_inv.py").write_text(USER_INVARIANTS, encoding="utf-8")
    result = RUNNER.invoke(
        app, ["prove", *args, "--invariants-from", str(tmp_path), "--json"], catch_exceptions=False
    )
    return result.exit_code, json.loads(result.stdout)


def test_prove_known_false_is_violated_at_its_shortest_depth(tmp_path: Path) -> None:
    code, doc = _prove_json(tmp_path, "-i", "test.never-tapped", "--method", "induction")
    assert code == 1 and doc["verdict"] == "VIOLATED"
    violated = [o for r in doc["rows"] for o in r["obligations"] if o["verdict"] == "VIOLATED"]
    assert {r["method"] for r in doc["rows"]} >= {"induction"}
    assert violated and {o["depth"] for o in violated} == {2}  # create-shield, then destroy


def test_prove_non_inductive_invariant_is_cti(tmp_path: Path) -> None:
    # Alone (k-induction with k = 1: no catalog invariants to lean on), a shield present in an
    # unreachable pre-state with no shield made lets a destruction break it: CTI, exit 3.
    code, doc = _prove_json(tmp_path, "-i", "test.used-le-made", "--method", "kind", "--k", "1")
    assert code == 3 and doc["verdict"] == "CTI"
    assert doc["rows"][0]["verdict"] == "CTI"


def test_not_applicable_rows_do_not_decide_the_verdict(tmp_path: Path) -> None:
    # test.controlled reads the controller, which the per-permanent abstraction does not
    # keep: any-n does not apply to it (SKIPPED).
    code, doc = _prove_json(tmp_path, "-i", "test.controlled")
    assert code == 0 and doc["verdict"] == "PROVED" and doc["exit_code"] == 0
    by_method = {r["method"]: r for r in doc["rows"]}
    assert by_method["induction"]["verdict"] == "PROVED"
    assert by_method["any-n"]["verdict"] == "SKIPPED" and not by_method["any-n"]["applicable"]
    table = RUNNER.invoke(
        app, ["prove", "-i", "test.controlled", "--invariants-from", str(tmp_path)]
    )
    assert table.exit_code == 0
    assert "prove: PROVED" in table.output and "1 not applicable" in table.output
    code, doc = _prove_json(tmp_path, "-i", "test.controlled", "--method", "any-n")
    assert doc["verdict"] == "SKIPPED"  # nothing applied


def test_prove_reports_only_catalog_clauses() -> None:
    from regen_model.clauses import catalog

    result = RUNNER.invoke(app, ["prove", "-i", "inv.shield.used-once", "--json"])
    doc = json.loads(result.stdout)
    cited = {c for r in doc["rows"] for o in r["obligations"] for c in o["clauses"]}
    cited |= {c for r in doc["rows"] for c in r["clauses"]}
    assert cited and all(c in catalog() for c in cited)
