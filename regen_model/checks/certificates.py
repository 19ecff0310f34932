"""Proof certificates: an inductive invariant as three SMT-LIB obligations anyone can re-check.

Given a candidate invariant ``Inv`` (a formula over a frame ``x``; Spacer's answer), the
property is proved when three queries are unsatisfiable (ANCHORS R4):

* ``initiation``:  domain(x) /\\ init(x) /\\ not Inv(x)
* ``consecution``: domain(x) /\\ Inv(x) /\\ T(x, y) /\\ domain(y) /\\ not Inv(y)
* ``safety``:      domain(x) /\\ Inv(x) /\\ not P(x)   (a step property: ... /\\ T /\\ not P(x, y))

They are exported as self-contained SMT-LIB files (``(check-sat)`` included) and re-checked
by a fresh z3 parsing the text (not the in-memory terms), and by cvc5 when it is installed
(``pip install regen-model[cvc5]``). A certificate that does not re-check as ``unsat`` in
every available solver is not a proof.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from regen_model.checks.property import Property
from regen_model.checks.system import StepEncoding, Tracked, TransitionSystem

Z3Ref = Any
OBLIGATIONS = ("initiation", "consecution", "safety")


@dataclass(frozen=True)
class Certificate:
    invariant: str  # the strengthening invariant, printed
    smt2: dict[str, str]  # obligation -> SMT-LIB text
    checks: dict[str, dict[str, str]] = field(
        default_factory=dict
    )  # solver -> obligation -> answer

    @property
    def valid(self) -> bool:
        return bool(self.checks) and all(
            answer == "unsat" for per in self.checks.values() for answer in per.values()
        )

    @property
    def problem(self) -> str:
        for solver, per in self.checks.items():
            for ob, answer in per.items():
                if answer != "unsat":
                    return f"{solver} answers {answer} for {ob}"
        return "no solver checked it"

    def write(self, folder: Path, stem: str) -> list[Path]:
        folder.mkdir(parents=True, exist_ok=True)
        paths = []
        inv = folder / f"{stem}.invariant.txt"
        inv.write_text(self.invariant + "\n", encoding="utf-8")
        paths.append(inv)
        for name, text in self.smt2.items():
            p = folder / f"{stem}.{name}.smt2"
            p.write_text(text, encoding="utf-8")
            paths.append(p)
        return paths

    def to_json(self) -> dict[str, Any]:
        return {"invariant": self.invariant, "checks": self.checks}


def _smt2(formulas: list[Z3Ref]) -> str:
    s = z3.Solver()
    s.add(*formulas)
    text: str = s.to_smt2()
    return "(set-logic ALL)\n" + text


def _all(ts: list[Tracked]) -> list[Z3Ref]:
    return [t.formula for t in ts]


def obligations(
    system: TransitionSystem,
    prop: Property,
    inv: Z3Ref,
    x: Any,
    y: Any,
    step: StepEncoding,
) -> dict[str, str]:
    """The three obligations as SMT-LIB text (``inv`` is a formula over ``x``)."""
    from regen_model.checks.chc import predicate_args

    inv_y = z3.substitute(inv, *zip(predicate_args(x), predicate_args(y), strict=True))
    dom_x, dom_y, trans = _all(system.domain(x)), _all(system.domain(y)), _all(step.constraints())
    if prop.state is not None:
        safety = [*dom_x, inv, z3.Not(prop.at_state(x))]
    else:
        safety = [*dom_x, inv, *trans, *dom_y, z3.Not(prop.at_step(x, step, y))]
    return {
        "initiation": _smt2([*dom_x, *_all(system.init(x)), z3.Not(inv)]),
        "consecution": _smt2([*dom_x, inv, *trans, *dom_y, z3.Not(inv_y)]),
        "safety": _smt2(safety),
    }


def recheck_z3(text: str, rlimit: int = 50_000_000) -> str:
    s = z3.Solver()
    if rlimit:
        s.set("rlimit", rlimit)
    s.from_string(text)
    return str(s.check())


def cvc5_available() -> bool:
    return importlib.util.find_spec("cvc5") is not None


def recheck_cvc5(text: str) -> str:
    import cvc5  # optional extra (regen-model[cvc5]); no type stubs

    tm = cvc5.TermManager()
    slv = cvc5.Solver(tm)
    slv.setOption("produce-models", "false")
    sm = cvc5.SymbolManager(tm)
    parser = cvc5.InputParser(slv, sm)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "obligation")
    answer = "unknown"
    while True:
        cmd = parser.nextCommand()
        if cmd.isNull():
            break
        out = cmd.invoke(slv, sm)
        if out.strip() in ("sat", "unsat", "unknown"):
            answer = out.strip()
    return answer


def certify(
    system: TransitionSystem, prop: Property, inv: Z3Ref, x: Any, y: Any, step: StepEncoding
) -> Certificate:
    texts = obligations(system, prop, inv, x, y, step)
    checks = {"z3": {name: recheck_z3(t) for name, t in texts.items()}}
    if cvc5_available():
        checks["cvc5"] = {name: recheck_cvc5(t) for name, t in texts.items()}
    return Certificate(str(inv), texts, checks)
