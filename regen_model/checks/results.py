"""Typed results of proof obligations, searches and cover checks.

One ``Result`` per obligation: which invariant, which method, which obligation (initiation,
consecution for one action kind, k-induction at depth k, ...), the verdict, the clause IDs the
proof used (the unsat core over tracked labels), the time, and what backs the verdict: a
trace for VIOLATED, the counterexample-to-induction states for CTI, the solver's reason for
UNKNOWN, a certificate for a CHC proof. ``summarize`` folds the obligations of one invariant
and method into the row the ``prove`` table shows.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from regen_model.clauses import catalog
from regen_model.verdicts import Verdict, worst


class Method(StrEnum):
    INDUCTION = "induction"  # initiation + consecution per action kind (relative to the catalog)
    KIND = "kind"  # k-induction
    CHC = "chc"  # Spacer: finds a strengthening invariant, exported as certificates
    ANY_N = "any-n"  # per-permanent abstraction, any number of permanents
    BMC = "bmc"  # bounded search for a violation
    COVER = "cover"


def clause_labels(core: Iterable[str]) -> tuple[str, ...]:
    """The clause IDs of a core, sorted.

    A core also names internal labels (``scope:...``, ``goal:...``, ``action``, ``frame``,
    ``init``, ...) and the invariants assumed (``inv:ID``, see ``hypotheses_used``); they are
    not clauses and are left out. A clause ID is one of the catalog
    (``regen_model.clauses.catalog()``: every label the encoding of the rules uses for a
    rule) or, for other transition systems such as the test systems, a dotted name without a
    colon (``toy.grant``)."""
    known = catalog()
    return tuple(sorted({c for c in core if c in known or ("." in c and ":" not in c)}))


def catalog_clauses(clauses: Iterable[str]) -> tuple[str, ...]:
    """Only the IDs of the clause catalog, sorted (what ``prove`` shows)."""
    known = catalog()
    return tuple(sorted({c for c in clauses if c in known}))


def overall(verdicts: Iterable[Verdict]) -> Verdict:
    """The verdict of a whole ``prove`` run: the worst verdict among the rows that apply.

    SKIPPED rows (a method that does not apply to an invariant, e.g. any-n for an invariant
    that is not about one permanent at a time) are "not applicable": they neither make a run
    fail nor stand for it. Only when nothing applied is the run SKIPPED."""
    found = list(verdicts)
    applicable = [v for v in found if v is not Verdict.SKIPPED]
    if applicable:
        return worst(applicable)
    return Verdict.SKIPPED if found else Verdict.PROVED


def hypotheses_used(core: Iterable[str]) -> tuple[str, ...]:
    """Invariants a consecution proof assumed in the pre-state and actually used."""
    return tuple(sorted({c[4:] for c in core if c.startswith("inv:")}))


@dataclass(frozen=True)
class Result:
    invariant: str
    method: Method
    obligation: str  # "initiation", "consecution", "k=2", "chc", "any-n consecution", ...
    verdict: Verdict
    action: str | None = None  # the action kind of a per-action obligation
    clauses: tuple[str, ...] = ()
    uses: tuple[str, ...] = ()  # other invariants the proof relied on
    seconds: float = 0.0
    reason: str = ""  # why UNKNOWN/CTI/VACUOUS, or a note
    depth: int | None = None  # trace length for VIOLATED, k for k-induction
    evidence: Any = field(default=None, compare=False, repr=False)  # Trace, CTI, Certificate
    superseded_by: str = ""  # a CTI that a later method (CHC) turned into a proof
    # The solver route that answered when it was not the direct one (``solver.Route``):
    # "preprocess" for a query the direct route gave up on and the retry decided.
    route: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "invariant": self.invariant,
            "method": self.method.value,
            "obligation": self.obligation,
            "action": self.action,
            "verdict": self.verdict.value,
            "clauses": list(self.clauses),
            "uses": list(self.uses),
            "seconds": round(self.seconds, 6),
        }
        if self.reason:
            out["reason"] = self.reason
        if self.depth is not None:
            out["depth"] = self.depth
        if self.superseded_by:
            out["superseded_by"] = self.superseded_by
        if self.route:
            out["route"] = self.route
        describe = getattr(self.evidence, "to_json", None)
        if describe is not None:
            out["evidence"] = describe()
        return out


@dataclass(frozen=True)
class Summary:
    """One row of the ``prove`` table: an invariant under one method."""

    invariant: str
    method: Method
    verdict: Verdict
    clauses: tuple[str, ...]
    seconds: float
    obligations: tuple[Result, ...]
    reason: str = ""

    @property
    def applicable(self) -> bool:
        """False for a SKIPPED row: the method does not apply to this invariant."""
        return self.verdict is not Verdict.SKIPPED

    def to_json(self) -> dict[str, Any]:
        return {
            "invariant": self.invariant,
            "method": self.method.value,
            "verdict": self.verdict.value,
            "applicable": self.applicable,
            "clauses": list(self.clauses),
            "seconds": round(self.seconds, 6),
            "reason": self.reason,
            "obligations": [r.to_json() for r in self.obligations],
        }


def summarize(results: Sequence[Result]) -> list[Summary]:
    """Group by (invariant, method), in first-seen order; the verdict is the worst one among
    the obligations not superseded by a later proof."""
    groups: dict[tuple[str, Method], list[Result]] = {}
    for r in results:
        groups.setdefault((r.invariant, r.method), []).append(r)
    rows = []
    for (inv, method), rs in groups.items():
        standing = [r for r in rs if not r.superseded_by] or rs
        verdict = worst(r.verdict for r in standing)
        clauses = tuple(sorted({c for r in rs for c in r.clauses}))
        reasons = [r.reason for r in standing if r.verdict is verdict and r.reason]
        superseded = sorted({r.superseded_by for r in rs if r.superseded_by})
        if superseded and not reasons:
            reasons = [f"not inductive alone; {superseded[0]}"]
        rows.append(
            Summary(
                inv,
                method,
                verdict,
                clauses,
                sum(r.seconds for r in rs),
                tuple(rs),
                reasons[0] if reasons else "",
            )
        )
    return rows


def brief_clauses(clauses: Sequence[str], first: Iterable[str] = (), limit: int = 3) -> str:
    """``18: regen.shield.apply, regen.shield.create, zone.new-object +15``: how many clauses,
    and up to ``limit`` of them, those in ``first`` (the clauses an invariant is about) first."""
    if not clauses:
        return "-"
    wanted = set(first)
    ordered = [c for c in clauses if c in wanted] + [c for c in clauses if c not in wanted]
    shown = ", ".join(ordered[:limit])
    more = len(ordered) - limit
    return f"{len(ordered)}: {shown}" + (f" +{more}" if more > 0 else "")


def grouped_clauses(clauses: Sequence[str]) -> list[str]:
    """Every clause, one line per family: ``combat: damage.assign, declare-attackers``."""
    families: dict[str, list[str]] = {}
    for c in sorted(clauses):
        family, _, rest = c.partition(".")
        families.setdefault(family, []).append(rest or family)
    return [f"{family}: {', '.join(rest)}" for family, rest in families.items()]
