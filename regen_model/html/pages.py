"""The ``--html`` page of each command, built from what the command computed.

``find``, ``explore``, ``check-trace`` and ``crosscheck`` show their run (the counterexample,
the specification's run that explains a log, the minimal case of a divergence) as a timeline
per permanent (``timeline.py``) and the clauses it cites against the whole catalog;
``verify`` shows its sections, the mutant x invariant matrix as a heat map and the clause
coverage of the cover check. Nothing here computes a verdict: the pages draw the results the
commands already have.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from regen_model.checks.bmc import Found
from regen_model.checks.find import FindResult
from regen_model.conform.case import Outcome, reference_run
from regen_model.conform.differential import CrosscheckReport, Finding
from regen_model.conform.itf import Trace
from regen_model.conform.start import describe
from regen_model.conform.trace_check import TraceReport
from regen_model.explore.bfs import ExploreResult
from regen_model.html.page import (
    Block,
    Facts,
    HeatCell,
    Heatmap,
    HeatRow,
    Page,
    RowsBlock,
    TimelineBlock,
    clause_coverage,
)
from regen_model.html.timeline import Divergence, from_run
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import Verdict
from regen_model.verify import Row, Section


def find_page(result: FindResult, meta: dict[str, Any], depth: int) -> Page:
    facts = Facts(
        "Query",
        (
            ("query", result.query.text),
            ("description", str(meta.get("description") or "-")),
            ("scope", str(meta.get("scope", "-"))),
            ("searched", f"runs of up to {depth} steps"),
            ("time", f"{result.seconds:.2f} s"),
        ),
    )
    blocks: list[Block] = [facts]
    if result.found is Found.FOUND and result.replayed is not None:
        r = result.replayed
        t = from_run(
            f"Shortest run: {result.depth} step(s), replayed on the engine",
            r.states,
            r.run.actions,
            r.events,
            summary="Each column is the state after the step above it; the cards are the "
            "solver's (their printed characteristics are listed in the trace's #meta.printed).",
        )
        blocks += [TimelineBlock(t), clause_coverage("Clauses cited by the run", set(t.clauses))]
        verdict = "FOUND"
    elif result.found is Found.UNKNOWN:
        verdict = "UNKNOWN"
        blocks.append(Facts("Result", (("unknown", f"the solver gave up ({result.reason})"),)))
    else:
        verdict = "NONE"
        blocks.append(Facts("Result", (("no run", f"of at most {depth} steps reaches it"),)))
    return Page(
        "find", f"find: {result.query.text}", verdict, str(meta.get("scope", "")), tuple(blocks)
    )


def explore_page(result: ExploreResult) -> Page:
    p = result.progress
    facts = Facts(
        "Exploration",
        (
            ("configuration", result.config.describe()),
            ("rules", result.config.rules.name),
            ("states", f"{p.states:,} ({result.starts} start(s))"),
            ("steps", f"{p.transitions:,} of {p.candidates:,} candidates"),
            ("depth", "whole space within the scope" if result.exhausted else f"<= {p.depth}"),
            ("invariants", str(len(result.invariants))),
            ("time", f"{result.seconds:.2f} s"),
            *((("note", result.reason),) if result.reason else ()),
        ),
    )
    blocks: list[Block] = [facts]
    cited: set[str] = set()
    for cex in result.violations.values():
        trace = cex.trace
        t = from_run(
            f"Counterexample to {cex.invariant} ({cex.length} step(s))",
            trace.states,
            [s.action for s in trace.steps],
            [s.events for s in trace.steps],
            errors=[s.error for s in trace.steps],
            summary=cex.message,
        )
        cited |= set(t.clauses)
        blocks.append(TimelineBlock(t))
    if result.violations:
        blocks.append(clause_coverage("Clauses cited by the counterexamples", cited))
    return Page(
        "explore",
        f"explore under {result.config.rules.name} rules",
        result.verdict.value,
        result.config.describe(),
        tuple(blocks),
    )


def trace_page(report: TraceReport, trace: Trace) -> Page:
    facts = Facts(
        "Trace",
        (
            ("file", report.file),
            ("source", str(trace.meta.get("source", "-"))),
            ("steps matched", f"{report.matched} of {report.steps}"),
            ("gaps filled", f"{report.gap_steps} step(s), widest frontier {report.max_frontier}"),
            ("resolver", report.resolver),
            *(
                (("loop", f"back to state {report.loop}, {report.laps} lap(s)"),)
                if report.loop is not None
                else ()
            ),
            *((("note", report.note),) if report.note else ()),
        ),
    )
    blocks: list[Block] = [facts]
    run = report.run
    if run is not None:
        observed = [trace.initial, *(s.observation for s in trace.steps)]
        states, actions, events = list(run.states), list(run.actions), list(run.events)
        extra: list[tuple[str, str]] = []
        divergence = None
        f = report.failure
        failing: set[str] = set()
        if f is not None:
            failing = set(f.clauses)
            logged = "(not logged)" if f.logged_action is None else _compact(f.logged_action)
            diffs = f.closest.diffs if f.closest is not None else ()
            taken = f.closest.step if f.closest is not None else None
            if f.step == 0:
                divergence = Divergence(0, diffs, "failed", f.reason)
            elif taken is not None and taken[0] == states[-1]:
                # The closest candidate, drawn as the step the log could not be matched at.
                states.append(taken[2])
                actions.append(taken[1])
                events.append(taken[3])
                note = f"{f.reason}; logged: {logged}; the closest candidate is drawn"
                divergence = Divergence(len(actions), diffs, "failed", note)
            else:
                extra.append((logged, "failed"))
                divergence = Divergence(len(actions) + 1, diffs, "failed", f.reason)
        t = from_run(
            "The specification's run that explains the log"
            + (f", up to step {f.step} where it fails" if f is not None and f.step > 0 else ""),
            states,
            actions,
            events,
            divergence=divergence,
            observed=observed,
            extra=extra,
            summary="The specification's states, step by step, with the log's gaps filled in. "
            "At a failing step, the closest candidate's values (expected) are shown against "
            "the log's (observed).",
        )
        cited = set(t.clauses) - failing
        blocks += [
            TimelineBlock(t),
            clause_coverage(
                "Clauses exercised by the run",
                cited,
                bad=failing,
                bad_label="involved in the step that fails",
            ),
        ]
    return Page(
        "check-trace", f"check-trace: {report.file}", report.verdict.value, "", tuple(blocks)
    )


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def crosscheck_page(report: CrosscheckReport, rules: Rules = CORRECT) -> Page:
    c = report.counts
    facts = Facts(
        "Crosscheck",
        (
            ("engine", f"{report.engine} {report.engine_version}"),
            ("seed", str(report.seed)),
            (
                "cases",
                f"{report.cases}: {c[Outcome.PASSED]} passed, {c[Outcome.DIVERGED]} "
                f"diverged, {c[Outcome.ENGINE_ERROR]} engine errors, {c[Outcome.SKIPPED]} skipped",
            ),
            ("compared", f"{report.steps_run} steps, {report.fields_compared} fields"),
            ("time", f"{report.elapsed:.1f} s"),
        ),
    )
    blocks: list[Block] = [facts]
    involved: set[str] = set()
    for i, finding in enumerate(report.findings, 1):
        blocks.append(TimelineBlock(_finding_timeline(i, finding, rules)))
        involved |= set(finding.divergence.clauses)
    if report.errors:
        blocks.append(RowsBlock("Engine errors", ("case", "error"), tuple(report.errors[:50])))
    blocks.append(
        clause_coverage(
            "Clauses involved in a divergence",
            set(),
            bad=involved,
            bad_label="cited by the specification at a divergent step",
            off_label="no divergence involves it",
        )
    )
    return Page(
        "crosscheck",
        f"crosscheck: {report.engine}",
        report.verdict.value,
        f"{len(report.findings)} kind(s) of divergence, each shrunk to a minimal case",
        tuple(blocks),
    )


def _finding_timeline(i: int, finding: Finding, rules: Rules) -> Any:
    run = reference_run(finding.minimal, rules)
    d = finding.divergence
    note = f"the engine rejected a legal action: {d.rejected}" if d.rejected else ""
    if d.accepted:
        note = f"the engine accepted an action the rules refuse: {d.accepted}"
    start = "; ".join(describe(finding.minimal.start))
    return from_run(
        f"Divergence {i}: {' '.join(finding.signature)} ({finding.occurrences} case(s), "
        f"shrunk from {finding.original_steps} to {finding.minimal_steps} actions)",
        run.states,
        run.actions,
        run.events,
        divergence=Divergence(d.step, d.diffs, "diverged", note),
        summary=f"Start: {start}. The specification's run; at the divergent step, the "
        "specification's values (expected) against the engine's (observed).",
    )


# --- verify ---------------------------------------------------------------------------------------


def verify_page(results: Sequence[tuple[Section, Sequence[Row], float]], verdict: Verdict) -> Page:
    overview = RowsBlock(
        "Sections",
        ("section", "verdict", "rows", "not passed", "time"),
        tuple(
            (
                section.title,
                _worst(rows),
                str(len(rows)),
                str(sum(1 for r in rows if r.verdict not in (Verdict.PASSED, Verdict.PROVED))),
                f"{seconds:.1f} s",
            )
            for section, rows, seconds in results
        ),
        verdict_column=1,
    )
    blocks: list[Block] = [overview]
    by_name = {section.name: rows for section, rows, _ in results}
    if "mutants" in by_name:
        blocks.append(mutant_heatmap(by_name["mutants"]))
    if "cover" in by_name:
        blocks.append(cover_coverage(by_name["cover"]))
    elif "examples" in by_name:
        cited = {
            c.strip()
            for r in by_name["examples"]
            for k, v in r.details
            if k == "clauses"
            for c in v.split(",")
        }
        blocks.append(
            clause_coverage(
                "Clauses the example scenarios are about",
                cited,
                on_label="listed by an example scenario",
                note="Run the cover section (verify --section cover) for the clauses the "
                "specification is shown to reach.",
            )
        )
    for section, rows, _ in results:
        blocks.append(
            RowsBlock(
                section.title,
                (section.item_label, "verdict", "detail", "message"),
                tuple(
                    (
                        r.item,
                        r.verdict.value,
                        "; ".join(f"{k} {v}" for k, v in r.details if v),
                        r.message,
                    )
                    for r in rows
                ),
                verdict_column=1,
            )
        )
    return Page("verify", "regen-model verify", verdict.value, "", tuple(blocks))


def _worst(rows: Sequence[Row]) -> str:
    from regen_model.verdicts import worst

    return worst([r.verdict for r in rows]).value if rows else "-"


def mutant_heatmap(rows: Sequence[Row]) -> Heatmap:
    """The mutants section's rows as a matrix: mutants down, invariants across."""
    mutants = [r for r in rows if "kills" in r.data]
    invariants = [
        r.item.removeprefix("invariant ") for r in rows if r.item.startswith("invariant ")
    ]
    heat_rows = []
    for r in mutants:
        kills: dict[str, tuple[int, str]] = r.data["kills"]
        cells = []
        for inv in invariants:
            kill = kills.get(inv)
            if kill is None:
                cells.append(HeatCell("none", "", f"{inv} holds under {r.item}"))
            else:
                length, how = kill
                cells.append(
                    HeatCell(
                        f"k{min(max(length, 1), 4)}", str(length), f"{r.item} breaks {inv}: {how}"
                    )
                )
        heat_rows.append(
            HeatRow(
                r.item.removeprefix("mutant "),
                r.verdict is not Verdict.FAILED,
                str(r.data.get("scenarios", 0)),
                tuple(cells),
            )
        )
    return Heatmap(
        "Rule mutants x invariants",
        tuple(invariants),
        tuple(heat_rows),
        note="Every mutant must be caught (by an invariant or a scenario), and every invariant "
        "must break under some mutant: a column with no cell is a proof that cannot fail.",
    )


def cover_coverage(rows: Sequence[Row]) -> Any:
    reached = {r.item for r in rows if r.verdict is Verdict.PROVED}
    vacuous = {r.item for r in rows if r.verdict is Verdict.VACUOUS}
    return clause_coverage(
        "Clause coverage (cover check)",
        reached,
        bad=vacuous,
        on_label="a run of the relation fires it",
        off_label="not a goal of the cover check, or unknown",
        bad_label="VACUOUS: never fires within the depth",
    )
