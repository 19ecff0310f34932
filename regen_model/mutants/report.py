"""The mutant matrix as a table, as JSON, and as rows of ``regen-model verify``."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from regen_model.explore.bfs import ENGINE_TOTAL
from regen_model.model.enums import Mutant
from regen_model.mutants.catalog import MUTANT_INFO
from regen_model.mutants.matrix import Kill, Matrix, Route, RulesResult
from regen_model.verdicts import EXIT_CODES, Verdict
from regen_model.verify import Row

FORMAT = "regen-model/mutants"
_LETTER = {Route.EXPLORE: "E", Route.PROOF: "P"}


def cell(kill: Kill | None) -> str:
    """``E2``: killed by an explicit-state counterexample of 2 steps; ``P3``: by a proof's."""
    return "" if kill is None else f"{_LETTER[kill.route]}{kill.length}"


def matrix_table(m: Matrix) -> Group:
    """Mutants down, invariants across (numbered, with a legend), then scenario kills."""
    columns = [*m.invariants, ENGINE_TOTAL]
    table = Table(
        title=f"Mutant x invariant ({', '.join(m.routes)}; battery: {', '.join(m.battery)})",
        title_justify="left",
    )
    table.add_column("mutant")
    for n in range(1, len(columns) + 1):
        table.add_column(str(n), justify="center")
    table.add_column("scenarios", justify="right")
    table.add_column("verdict")
    for r in (m.baseline, *m.rows):
        cells = [cell(r.kill(c)) for c in columns]
        baseline = r is m.baseline
        if baseline:
            verdict = Text("VIOLATED", "bold red") if r.kills else Text("PROVED", "bold green")
        else:
            verdict = Text("killed", "green") if r.killed else Text("SURVIVES", "bold red")
        table.add_row(
            Text(r.rules + (" (baseline)" if baseline else "")),
            *cells,
            "-" if baseline else str(len(r.scenarios)),
            verdict,
        )
    legend = Table.grid(padding=(0, 2))
    legend.add_column(justify="right")
    legend.add_column()
    legend.add_column()
    for n, name in enumerate(columns, start=1):
        killers = m.killers(name)
        note = f"{len(killers)} mutant(s)" if killers else Text("NOT KILLED", "bold red")
        legend.add_row(str(n), Text(name), note)
    key = Text(
        "E<n>: shortest explicit-state counterexample of n steps; P<n>: proof engine's "
        "counterexample of n steps; scenarios: scenario files that fail under the mutant."
    )
    return Group(table, legend, key, _summary_line(m))


def _summary_line(m: Matrix) -> Text:
    v = m.verdict
    line = Text(f"mutants: {v.value}", "bold green" if v is Verdict.PASSED else "bold red")
    line.append(
        f"  ({len(m.rows)} mutants, {len(m.rows) - len(m.surviving_mutants)} killed; "
        f"{len(m.invariants) - len(m.unkilled_invariants)}/{len(m.invariants)} invariants "
        f"killed; {m.seconds:.1f} s)"
    )
    if m.surviving_mutants:
        line.append(f"\nsurviving mutants: {', '.join(m.surviving_mutants)}", "red")
    if m.unkilled_invariants:
        line.append(f"\ninvariants no mutant breaks: {', '.join(m.unkilled_invariants)}", "red")
    if m.baseline.kills:
        broken = ", ".join(k.invariant for k in m.baseline.kills)
        line.append(f"\nthe correct rules violate: {broken}", "red")
    return line


def _kill_json(k: Kill) -> dict[str, Any]:
    return {
        "invariant": k.invariant,
        "route": k.route.value,
        "length": k.length,
        "where": k.where,
        "actions": list(k.actions),
    }


def _row_json(r: RulesResult) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rules": r.rules,
        "killed": r.killed,
        "kills": [_kill_json(k) for k in r.kills],
        "scenarios": [{"file": s.file, "reason": s.reason} for s in r.scenarios],
        "states": r.states,
        "seconds": round(r.seconds, 6),
    }
    if r.rules in {m.value for m in Mutant}:
        info = MUTANT_INFO[Mutant(r.rules)]
        out["wrong"] = info.wrong
        out["clauses"] = list(info.clauses)
    return out


def matrix_json(m: Matrix) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": 1,
        "verdict": m.verdict.value,
        "exit_code": EXIT_CODES[m.verdict],
        "routes": list(m.routes),
        "battery": list(m.battery),
        "invariants": list(m.invariants),
        "baseline": _row_json(m.baseline),
        "mutants": [_row_json(r) for r in m.rows],
        "surviving_mutants": m.surviving_mutants,
        "unkilled_invariants": m.unkilled_invariants,
        "excluded_scenarios": [{"file": s.file, "reason": s.reason} for s in m.excluded_scenarios],
        "seconds": round(m.seconds, 6),
    }


def verify_rows(m: Matrix) -> list[Row]:
    """Rows of the ``mutants`` section of ``verify``: the baseline, each mutant, and each
    invariant (killed by whom)."""
    rows = [
        Row(
            "correct rules (battery)",
            Verdict.VIOLATED if m.baseline.kills else Verdict.PROVED,
            m.baseline.seconds,
            (("killed by", ""), ("states", str(m.baseline.states))),
            "; ".join(f"{k.invariant}: {k.describe()}" for k in m.baseline.kills),
        )
    ]
    for r in m.rows:
        best = min(r.kills, key=lambda k: k.length, default=None)
        by = f"{best.invariant} {best.describe()}" if best else ""
        if r.scenarios:
            by += ("; " if by else "") + f"{len(r.scenarios)} scenario(s)"
        rows.append(
            Row(
                f"mutant {r.rules}",
                Verdict.PASSED if r.killed else Verdict.FAILED,
                r.seconds,
                (("killed by", by), ("states", str(r.states))),
                "" if r.killed else "no invariant and no scenario catches this mutant",
                data={
                    "kills": {k.invariant: (k.length, k.describe()) for k in r.kills},
                    "scenarios": len(r.scenarios),
                },
            )
        )
    for inv in m.invariants:
        killers = m.killers(inv)
        shortest = min(killers, key=lambda mk: mk[1].length, default=None)
        by = f"{len(killers)} mutant(s)"
        if shortest is not None:
            by += f", shortest: {shortest[0]} {shortest[1].describe()}"
        rows.append(
            Row(
                f"invariant {inv}",
                Verdict.PASSED if killers else Verdict.FAILED,
                0.0,
                (("killed by", by), ("states", "")),
                "" if killers else "no mutant breaks this invariant: the proof cannot fail",
            )
        )
    return rows
