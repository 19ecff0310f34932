"""Proof certificates: an inductive invariant as SMT-LIB obligations anyone can re-check.

Given a candidate invariant ``Inv`` (a formula over a frame ``x``: the catalog's state
invariants that are inductive together, or Spacer's answer), the property is proved when
these queries are unsatisfiable (ANCHORS R4):

* ``initiation``:  domain(x) /\\ init(x) /\\ not Inv(x)
* ``consecution``: domain(x) /\\ Inv(x) /\\ T(x, y) /\\ not Inv(y)
* ``safety``:      domain(x) /\\ Inv(x) /\\ not P(x)   (a step property: ... /\\ T /\\ not P(x, y))

For the rules' encoding the last two are split per action kind (``consecution.<kind>``,
``safety.<kind>``: the relation is the disjunction of the kinds, so the conjunction of the
pieces is the whole obligation), and each is stated on the pre-state and the action's
parameters alone: the relation of one kind is a *function* (its guard, and every successor
variable equal to a term over the pre-state and the parameters, ``relation.py``), so the
successor is substituted by those terms. That is the same query (a variable defined by an
equation is eliminated), a fraction of the size, and far easier for other solvers.

Each obligation is one self-contained SMT-LIB file (``(check-sat)`` included, the
constraints as one conjunction, so shared subterms are written once). They are re-checked by
z3's own executable (the ``z3`` program the z3-solver wheel installs, run as a separate
process on the text; the library in this process reading the text when there is no such
program) and by cvc5 when it is installed (``pip install regen-model[cvc5]``). A certificate
that does not re-check as ``unsat`` in every available solver is not a proof. Obligations are
shared between the certificates of one run (the catalog's properties have the same
strengthening), and each distinct text is checked once.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import z3

from regen_model.checks.property import Property
from regen_model.checks.system import StepEncoding, Tracked, TransitionSystem

Z3Ref = Any
OBLIGATIONS = ("initiation", "consecution", "safety")
# seconds one solver may spend on one obligation before its answer is "unknown"
RECHECK_SECONDS = 300


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
        """``{stem}.invariant.txt`` (the strengthening), ``{stem}.certificate.json`` (which
        obligation files prove ``stem`` and what each solver answered) and the obligations,
        ``{obligation}.{digest}.smt2``: certificates of one run share most obligations, and
        a file already there (same text, same name) is not written again."""
        folder.mkdir(parents=True, exist_ok=True)
        inv = folder / f"{stem}.invariant.txt"
        inv.write_text(self.invariant + "\n", encoding="utf-8")
        paths = [inv]
        files: dict[str, str] = {}
        for name, text in self.smt2.items():
            p = folder / f"{name}.{hashlib.sha256(text.encode()).hexdigest()[:12]}.smt2"
            if not p.exists():
                p.write_text(text, encoding="utf-8")
            files[name] = p.name
            paths.append(p)
        manifest = folder / f"{stem}.certificate.json"
        document = {"invariant": inv.name, "obligations": files, "checks": self.checks}
        manifest.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
        return [manifest, *paths]

    def to_json(self) -> dict[str, Any]:
        return {"invariant": self.invariant, "checks": self.checks}


def smt2(formulas: Sequence[Z3Ref]) -> str:
    """One query as SMT-LIB: the formulas as one conjunction, then ``(check-sat)``."""
    s = z3.Solver()
    s.add(z3.And(*formulas) if formulas else z3.BoolVal(True))
    text: str = s.to_smt2()
    return "(set-logic ALL)\n" + text


def _all(ts: list[Tracked]) -> list[Z3Ref]:
    return [t.formula for t in ts]


def _functional(step: StepEncoding, kind: str) -> tuple[list[Z3Ref], list[Any]] | None:
    """(guard, successor substitution) of one kind, when the system's relation is a
    function of the pre-state and the parameters (``RegenStep.functional``)."""
    functional = getattr(step, "functional", None)
    if functional is None:
        return None
    found: tuple[list[Z3Ref], list[Any]] = functional(kind)
    return found


def obligations(
    system: TransitionSystem,
    props: Sequence[Property],
    inv: Z3Ref,
    x: Any,
    y: Any,
    step: StepEncoding,
) -> dict[str, str]:
    """The obligations for ``inv`` (a formula over ``x``) and every property of ``props``,
    as SMT-LIB text (module docstring). Step properties share one safety obligation per
    action kind: their conjunction."""
    from regen_model.checks.chc import predicate_args

    inv_y = z3.substitute(inv, *zip(predicate_args(x), predicate_args(y), strict=True))
    dom_x = _all(system.domain(x))
    state = [p for p in props if p.state is not None]
    steps = [p for p in props if p.state is None]
    out = {"initiation": smt2([*dom_x, *_all(system.init(x)), z3.Not(inv)])}
    if state:
        out["safety"] = smt2([*dom_x, inv, z3.Not(z3.And(*[p.at_state(x) for p in state]))])
    kinds = list(system.action_kinds())
    split = all(_functional(step, k) is not None for k in kinds)
    if not split:
        trans, dom_y = _all(step.constraints()), _all(system.domain(y))
        out["consecution"] = smt2([*dom_x, inv, *trans, *dom_y, z3.Not(inv_y)])
        if steps:
            goal = z3.And(*[p.at_step(x, step, y) for p in steps])
            out["safety.step"] = smt2([*dom_x, inv, *trans, *dom_y, z3.Not(goal)])
        return out
    for k in kinds:
        found = _functional(step, k)
        assert found is not None
        guard, successor = found
        out[f"consecution.{k}"] = smt2(
            [*dom_x, inv, *guard, z3.substitute(z3.Not(inv_y), *successor)]
        )
        if steps:
            view = getattr(step, "for_kind")(k)  # noqa: B009 - one kind's outputs
            goal = z3.And(*[p.at_step(x, view, y) for p in steps])
            out[f"safety.{k}"] = smt2(
                [*dom_x, inv, *guard, z3.substitute(z3.Not(goal), *successor)]
            )
    return out


def z3_program() -> str | None:
    """The ``z3`` executable: the one installed next to this Python (the z3-solver wheel's),
    else one on the PATH."""
    beside = Path(sys.executable).parent / "z3"
    if beside.is_file():
        return str(beside)
    return shutil.which("z3")


def recheck_z3_program(text: str, program: str, seconds: int = RECHECK_SECONDS) -> str:
    """The answer of the z3 executable ``program`` to ``text``, in a separate process."""
    try:
        done = subprocess.run(
            [program, "-in", f"-T:{seconds}"],
            input=text,
            capture_output=True,
            text=True,
            timeout=seconds + 30,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return "unknown"
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    answer = lines[-1] if lines else ""
    return answer if answer in ("sat", "unsat") else "unknown"


def recheck_z3(text: str, rlimit: int = 50_000_000) -> str:
    """The answer of this process's z3 library to ``text`` (parsed afresh)."""
    s = z3.Solver()
    if rlimit:
        s.set("rlimit", rlimit)
    s.from_string(text)
    return str(s.check())


def cvc5_available() -> bool:
    return importlib.util.find_spec("cvc5") is not None


# cvc5 settings for these obligations: one query per solver (no incremental bookkeeping,
# which also lets it preprocess more), its own decision heuristic instead of justification,
# and no static learning; together they take the largest obligation from minutes to seconds.
CVC5_OPTIONS = {
    "incremental": "false",
    "decision": "internal",
    "static-learning": "false",
    "produce-models": "false",
}


def recheck_cvc5(text: str, seconds: int = RECHECK_SECONDS) -> str:
    import cvc5  # optional extra (regen-model[cvc5]); no type stubs

    tm = cvc5.TermManager()
    slv = cvc5.Solver(tm)
    for key, value in CVC5_OPTIONS.items():
        slv.setOption(key, value)
    slv.setOption("tlimit-per", str(seconds * 1000))
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


@dataclass
class Checker:
    """Re-checks obligation texts with every available solver, each distinct text once."""

    seconds: int = RECHECK_SECONDS
    _answers: dict[str, dict[str, str]] = field(default_factory=dict)

    def solvers(self) -> dict[str, Any]:
        program = z3_program()
        found: dict[str, Any] = {
            "z3": (lambda t: recheck_z3_program(t, program, self.seconds))
            if program is not None
            else recheck_z3
        }
        if cvc5_available():
            found["cvc5"] = lambda t: recheck_cvc5(t, self.seconds)
        return found

    def check(self, texts: dict[str, str]) -> dict[str, dict[str, str]]:
        """solver -> obligation -> answer."""
        out: dict[str, dict[str, str]] = {}
        for solver, run in self.solvers().items():
            per = out.setdefault(solver, {})
            for name, text in texts.items():
                key = hashlib.sha256(text.encode()).hexdigest()
                known = self._answers.setdefault(key, {})
                if solver not in known:
                    known[solver] = run(text)
                per[name] = known[solver]
        return out


def certify(
    system: TransitionSystem,
    prop: Property,
    inv: Z3Ref,
    x: Any,
    y: Any,
    step: StepEncoding,
    checker: Checker | None = None,
) -> Certificate:
    texts = obligations(system, [prop], inv, x, y, step)
    return Certificate(str(inv), texts, (checker or Checker()).check(texts))
