"""Differential runs: the reference engine and an engine under test, scenario by scenario.

``crosscheck`` runs every case on both engines (``case.run_case``), streams each result to
``results.jsonl`` the moment it is known (a crash of the checker or of the engine loses
nothing already computed), and keeps going whatever the engine does: a crash, hang or
garbage reply is recorded as an engine error and the engine is restarted for the next case.

One finding per root cause: every divergent case is shrunk (``shrink.py``; in parallel worker
processes with ``workers`` > 1, within a per-case call budget and an overall time budget) with
the predicate "still diverges on at least one of the same fields or events", and the cases are
grouped by the *shrunk* case's signature (``root_signature``: the clause the reference cites at
the first differing step, the differing field names and the differing event kinds). Different
cases of one bug shrink to the same minimal case, so they land in one finding however they
first showed; two bugs met in one kind of step stay apart. Each finding has its count and the
names of its cases, and every divergent case of ``results.jsonl`` is in exactly one finding (a
case the budget left unshrunk is grouped by its own signature, and says so).

The smallest case of each finding is written twice: ``NAME.itf.json`` (the specification's run;
``crosscheck --case`` replays it, ``check-trace`` accepts it) and ``NAME.observed.itf.json``
(what the engine reported; ``check-trace`` rejects it at the divergent step). The report
(``report.md``, ``report.json``) lists every finding with its clauses, the minimal scenario
and expected vs observed values.

Cases outside the features the engine declares it lacks (``features.py``) are not run; they are
counted as *excluded*, apart from the cases the adapter skips. With a known-divergence
classifier (``known.py``), known divergences do not end a case (``case.run_case``); the report
counts them per entry.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from regen_model.conform.adapter import EngineAdapter, EngineFailure, lacked_features
from regen_model.conform.case import (
    Case,
    CaseResult,
    Divergence,
    KnownClassifier,
    Outcome,
    run_case,
    to_trace,
)
from regen_model.conform.codec import action_to_json
from regen_model.conform.features import outside
from regen_model.conform.itf import write_trace
from regen_model.conform.known import KnownDivergence, classifier
from regen_model.conform.shrink import shrink
from regen_model.engine import EngineError, step
from regen_model.interrupts import exit_code as interrupt_exit_code
from regen_model.interrupts import signal_name
from regen_model.jsondoc import envelope
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import EXIT_CODES, EXIT_INTERNAL_ERROR, Verdict

ROUTINE_CLAUSES = frozenset(
    {"priority.pass", "priority.receive", "turn.steps", "sba.loop", "stack.cast", "stack.resolve"}
)


def root_signature(d: Divergence) -> tuple[str, ...]:
    """What identifies a root cause: the first clause the reference cites at the divergent step
    that is not routine bookkeeping (priority, steps, the stack), the names of the differing
    fields (without card handles) and the kinds of the missing (-) and unexpected (+) events."""
    clause = next((c for c in d.clauses if c not in ROUTINE_CLAUSES), None)
    if clause is None:
        clause = d.clauses[0] if d.clauses else "start"
    if d.rejected:
        return (clause, "rejected")
    if d.accepted:  # the clause is the refusal's: the rule the engine does not enforce
        return (clause, "accepted")
    fields = sorted({x.path.rsplit(".", 1)[-1] for x in d.diffs if x.path != "events"})
    events: set[str] = set()
    for x in d.diffs:
        if x.path == "events":
            events |= {"-" + str(t).split(":", 1)[0] for t in x.expected}
            events |= {"+" + str(t).split(":", 1)[0] for t in x.observed}
    return (clause, *fields, *sorted(events))


def _tokens(d: Divergence) -> set[str]:
    """The differing fields and event kinds of ``d`` (what a shrunk case must keep one of)."""
    return set(root_signature(d)[1:])


def same_kind(original: Divergence) -> Callable[[Divergence | None], bool]:
    """ "Still the same divergence": one on at least one of the same fields or event kinds
    (the shrinking predicate of the cross-checker and of ``regen_model.testing``)."""
    wanted = _tokens(original)
    return lambda d: d is not None and bool(wanted & _tokens(d))


@dataclass(frozen=True)
class Finding:
    """One root cause: every divergent case whose shrunk case has this signature."""

    signature: tuple[str, ...]
    first_case: str
    occurrences: int
    original_steps: int
    minimal: Case
    divergence: Divergence
    shrink_calls: int
    files: tuple[str, ...] = ()
    cases: tuple[str, ...] = ()
    unshrunk: int = 0  # cases the budget left unshrunk (grouped by their own signature)

    @property
    def minimal_steps(self) -> int:
        return len(self.minimal.actions)

    def to_json(self) -> dict[str, Any]:
        players = self.minimal.start.players
        return {
            "signature": list(self.signature),
            "first_case": self.first_case,
            "occurrences": self.occurrences,
            "cases": list(self.cases),
            "unshrunk": self.unshrunk,
            "original_steps": self.original_steps,
            "minimal_steps": self.minimal_steps,
            "minimal": {
                "start": self.minimal.start.to_json(),
                "actions": [action_to_json(a, players) for a in self.minimal.actions],
            },
            "divergence": self.divergence.to_json(),
            "shrink_calls": self.shrink_calls,
            "files": list(self.files),
        }


@dataclass
class CrosscheckReport:
    engine: str
    engine_version: str
    seed: int | None
    counts: dict[Outcome, int] = field(default_factory=lambda: dict.fromkeys(Outcome, 0))
    skipped: list[tuple[str, str]] = field(default_factory=list)
    excluded: list[tuple[str, str]] = field(default_factory=list)  # (case, lacked feature)
    errors: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    known: dict[str, int] = field(default_factory=dict)  # entry ID -> cases passing over it
    masked_steps: int = 0
    fields_compared: int = 0
    steps_run: int = 0
    probe_refusals: bool = False  # the actions the rules refuse were sent (``case.run_case``)
    refusals_probed: int = 0  # of those, the ones the engine refused too
    elapsed: float = 0.0
    first_compared_s: float | None = None  # from the call to the first case compared
    stopped_early: bool = False
    out_dir: str | None = None
    # "SIGINT"/"SIGTERM" when the run was stopped: the cases compared so far, no findings
    # (shrinking needs the engine; every divergent case is in results.jsonl)
    interrupted: str = ""

    @property
    def cases(self) -> int:
        return sum(self.counts.values())

    @property
    def skip_rate(self) -> float:
        """Skipped cases among those run (excluded ones were never run)."""
        return self.counts[Outcome.SKIPPED] / self.cases if self.cases else 0.0

    @property
    def verdict(self) -> Verdict:
        if self.counts[Outcome.DIVERGED] or self.counts[Outcome.ENGINE_ERROR]:
            return Verdict.DIVERGED
        ran = self.counts[Outcome.PASSED] + self.counts[Outcome.KNOWN]
        if ran == 0:
            return Verdict.SKIPPED if self.counts[Outcome.SKIPPED] else Verdict.VACUOUS
        if self.fields_compared == 0:
            return Verdict.VACUOUS  # the engine observed nothing: agreement shows nothing
        return Verdict.PASSED

    @property
    def exit_code(self) -> int:
        """The signal's code when stopped (130, 143); else divergences first (the engine is
        wrong, 6), then failures (it crashed or hung, 7), then the verdict's."""
        if self.interrupted:
            return interrupt_exit_code(self.interrupted)
        if self.counts[Outcome.DIVERGED]:
            return EXIT_CODES[Verdict.DIVERGED]
        if self.errors:
            return EXIT_INTERNAL_ERROR
        return EXIT_CODES[self.verdict]

    def to_json(self) -> dict[str, Any]:
        return {
            **envelope("crosscheck", self.verdict, self.exit_code, interrupted=self.interrupted),
            "engine": self.engine,
            "engine_version": self.engine_version,
            "seed": self.seed,
            "cases": self.cases,
            "counts": {o.value: n for o, n in self.counts.items()},
            "skip_rate": round(self.skip_rate, 4),
            "excluded": len(self.excluded),
            "steps_run": self.steps_run,
            "fields_compared": self.fields_compared,
            "known": dict(sorted(self.known.items())),
            "masked_steps": self.masked_steps,
            "probe_refusals": self.probe_refusals,
            "refusals_probed": self.refusals_probed,
            "elapsed_s": round(self.elapsed, 3),
            "first_compared_s": None
            if self.first_compared_s is None
            else round(self.first_compared_s, 3),
            "stopped_early": self.stopped_early,
            "skipped": [{"case": c, "reason": r} for c, r in self.skipped],
            "excluded_cases": [{"case": c, "feature": f} for c, f in self.excluded],
            "engine_errors": [{"case": c, "error": e} for c, e in self.errors],
            "findings": [f.to_json() for f in self.findings],
        }


class EngineDead(Exception):
    """The engine cannot even be (re)started: nothing more can be run."""


class _Engine:
    """An adapter that is restarted after a failure. ``probe_refusals``: every case it runs
    sends the actions the rules refuse too (``case.run_case``), shrinking's runs included."""

    def __init__(self, factory: Callable[[], EngineAdapter], probe_refusals: bool = False) -> None:
        self.factory = factory
        self.probe_refusals = probe_refusals
        self.adapter = self._make()

    def _make(self) -> EngineAdapter:
        try:
            adapter = self.factory()
            _ = adapter.name  # a subprocess engine starts (and says hello) here
        except Exception as exc:
            raise EngineDead(f"{type(exc).__name__}: {exc}") from None
        return adapter

    def restart(self) -> None:
        with contextlib.suppress(Exception):  # a broken engine may fail to close too
            self.adapter.close()
        self.adapter = self._make()

    def run(
        self,
        case: Case,
        rules: Rules,
        record: bool = False,
        known: KnownClassifier | None = None,
    ) -> CaseResult:
        """``run_case`` that turns any misbehaviour of the engine into an ENGINE_ERROR."""
        t0 = time.perf_counter()
        try:
            result = run_case(
                case,
                self.adapter,
                rules,
                record=record,
                known=known,
                probe_refusals=self.probe_refusals,
            )
        except EngineFailure as exc:
            self.restart()
            return CaseResult(
                case, Outcome.ENGINE_ERROR, reason=str(exc), elapsed=time.perf_counter() - t0
            )
        except Exception as exc:  # an adapter bug must not take the checker down
            self.restart()
            reason = f"adapter raised {type(exc).__name__}: {exc}"
            return CaseResult(
                case, Outcome.ENGINE_ERROR, reason=reason, elapsed=time.perf_counter() - t0
            )
        return result


def result_json(r: CaseResult) -> dict[str, Any]:
    return {
        "case": r.case.name,
        "origin": r.case.origin,
        "outcome": r.outcome.value,
        "verdict": r.verdict.value,
        "steps": r.steps_run,
        "skipped_actions": r.skipped_actions,
        "fields_compared": r.fields_compared,
        "reason": r.reason,
        "elapsed_s": round(r.elapsed, 6),
        "known": [{"step": step_no, "ids": list(ids)} for step_no, ids in r.known],
        "masked_steps": r.masked,
        "refusals_probed": r.probed,
        "divergence": None if r.divergence is None else r.divergence.to_json(),
    }


@dataclass(frozen=True)
class ShrinkJob:
    """One divergent case to shrink (picklable: it goes to a worker process)."""

    case: Case
    divergence: Divergence
    budget: int
    deadline: float | None  # time.monotonic() of the parent; workers share the clock
    lacks: frozenset[str] = frozenset()  # a smaller case must stay inside the engine's features


@dataclass(frozen=True)
class Shrunk:
    case: Case  # the smallest case that still diverges (the original if none did)
    divergence: Divergence
    calls: int
    shrunk: bool  # False: the budget ran out before anything, or the engine was flaky


def shrink_case(
    engine: _Engine, job: ShrinkJob, rules: Rules, known: KnownClassifier | None
) -> Shrunk:
    """Shrink one case with the predicate "still diverges on one of the same fields or events"
    (loose on purpose: two cases of one bug that first showed differently meet in the same
    minimal case, which then names the root cause)."""
    same = same_kind(job.divergence)
    case = _cut_after(job.case, job.divergence.step, rules)

    def still_diverges(c: Case) -> bool:
        if job.lacks and outside(c, job.lacks) is not None:
            return False
        r = engine.run(c, rules, known=known)
        return r.outcome is Outcome.DIVERGED and same(r.divergence)

    small, calls = shrink(case, still_diverges, job.budget, job.deadline)
    final = engine.run(small, rules, known=known)
    if final.outcome is not Outcome.DIVERGED or final.divergence is None:
        return Shrunk(job.case, job.divergence, calls, False)
    return Shrunk(small, final.divergence, calls, calls > 0)


# --- parallel shrinking: one engine per worker process ------------------------------------------

_WORKER: dict[str, Any] = {}  # per worker process: its engine, rules and classifier


def _worker_init(
    spec: str, rules: Rules, known: tuple[KnownDivergence, ...], probe_refusals: bool
) -> None:
    from regen_model.conform.adapter import engine_factory

    _WORKER["engine"] = _Engine(engine_factory(spec), probe_refusals)
    _WORKER["rules"] = rules
    _WORKER["known"] = classifier(known) if known else None


def _worker_shrink(job: ShrinkJob) -> Shrunk:
    return shrink_case(_WORKER["engine"], job, _WORKER["rules"], _WORKER["known"])


def shrink_all(
    jobs: Sequence[ShrinkJob],
    engine: _Engine,
    rules: Rules,
    known: tuple[KnownDivergence, ...],
    *,
    workers: int = 1,
    engine_spec: str | None = None,
) -> list[Shrunk]:
    """Shrink every job, in ``workers`` processes when the engine can be rebuilt from its name
    (``engine_spec``), else one after the other with ``engine``."""
    if workers > 1 and engine_spec is not None and len(jobs) > 1:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        context = multiprocessing.get_context("spawn")  # no fork of a process holding an engine
        with ProcessPoolExecutor(
            max_workers=workers,
            mp_context=context,
            initializer=_worker_init,
            initargs=(engine_spec, rules, known, engine.probe_refusals),
        ) as pool:
            return list(pool.map(_worker_shrink, jobs))
    explain = classifier(known) if known else None
    return [shrink_case(engine, job, rules, explain) for job in jobs]


def crosscheck(
    factory: Callable[[], EngineAdapter],
    cases: Iterable[Case],
    *,
    rules: Rules = CORRECT,
    out_dir: Path | None = None,
    seed: int | None = None,
    shrink_findings: bool = True,
    shrink_budget: int = 400,
    shrink_seconds: float | None = 300.0,
    workers: int = 1,
    engine_spec: str | None = None,
    known: Sequence[KnownDivergence] = (),
    lacks: frozenset[str] | None = None,
    stop_after: int | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
    probe_refusals: bool = False,
) -> CrosscheckReport:
    """Run ``cases`` on the reference (under ``rules``) and the engine made by ``factory``.

    ``cases`` is consumed lazily (a generator starts comparing at once). ``shrink_budget``:
    predicate calls per divergent case; ``shrink_seconds``: for all the shrinking (``None``: no
    limit). ``workers`` > 1 with ``engine_spec`` (the ``--engine`` name) shrinks in parallel.
    ``known``: a known-divergence list (``known.py``); ``lacks``: the features to leave out
    (default: what the adapter declares); ``probe_refusals``: send the actions the rules
    refuse too, which the engine must refuse (``case.run_case``)."""
    t0 = time.perf_counter()
    try:
        engine = _Engine(factory, probe_refusals)
        name, version = engine.adapter.name, engine.adapter.version
    except (EngineDead, EngineFailure) as exc:
        report = CrosscheckReport("?", "?", seed, stopped_early=True)
        report.probe_refusals = probe_refusals
        report.errors.append(("(engine start)", str(exc)))
        report.counts[Outcome.ENGINE_ERROR] += 1
        if out_dir is not None:
            from regen_model.conform.report import write_reports

            write_reports(report, out_dir)
        return report
    report = CrosscheckReport(name, version, seed, out_dir=str(out_dir) if out_dir else None)
    if lacks is None:
        lacks = lacked_features(engine.adapter)
    known = tuple(known)
    report.probe_refusals = probe_refusals
    explain = classifier(known) if known else None
    stream: IO[str] | None = None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        stream = (out_dir / "results.jsonl").open("w", encoding="utf-8")
    divergent: list[CaseResult] = []
    try:
        for case in cases:
            feature = outside(case, lacks)
            if feature is not None:
                report.excluded.append((case.name, feature))
                if stream is not None:
                    line = {"case": case.name, "origin": case.origin, "outcome": "excluded"}
                    stream.write(json.dumps({**line, "feature": feature}) + "\n")
                continue
            try:
                result = engine.run(case, rules, known=explain)
            except EngineDead as exc:
                report.stopped_early = True
                report.errors.append((case.name, f"engine cannot be restarted: {exc}"))
                report.counts[Outcome.ENGINE_ERROR] += 1
                break
            if report.first_compared_s is None and result.outcome is not Outcome.SKIPPED:
                report.first_compared_s = time.perf_counter() - t0
            report.counts[result.outcome] += 1
            report.steps_run += result.steps_run
            report.fields_compared += result.fields_compared
            report.masked_steps += result.masked
            report.refusals_probed += result.probed
            for entry in dict.fromkeys(i for _, ids in result.known for i in ids):
                report.known[entry] = report.known.get(entry, 0) + 1
            if result.outcome is Outcome.SKIPPED:
                report.skipped.append((case.name, result.reason))
            elif result.outcome is Outcome.ENGINE_ERROR:
                report.errors.append((case.name, result.reason))
            elif result.divergence is not None:
                divergent.append(result)
            if stream is not None:
                stream.write(json.dumps(result_json(result)) + "\n")
                stream.flush()
            if on_result is not None:
                on_result(result)
            if stop_after is not None and len(divergent) >= stop_after:
                report.stopped_early = True
                break
        report.findings = _findings(
            engine,
            divergent,
            rules,
            known,
            shrink=shrink_findings,
            budget=shrink_budget,
            seconds=shrink_seconds,
            workers=workers,
            engine_spec=engine_spec,
            out_dir=out_dir,
            lacks=lacks,
        )
        if stream is not None:
            for finding in report.findings:
                stream.write(json.dumps({"finding": finding.to_json()}) + "\n")
            stream.flush()
    except KeyboardInterrupt as stop:  # SIGINT/SIGTERM: keep the cases compared so far
        report.interrupted = signal_name(stop)
        report.stopped_early = True
    finally:
        if stream is not None:
            stream.close()
        with contextlib.suppress(Exception):
            engine.adapter.close()
    report.elapsed = time.perf_counter() - t0
    if out_dir is not None:
        from regen_model.conform.report import write_reports

        write_reports(report, out_dir)
    return report


def _findings(
    engine: _Engine,
    divergent: Sequence[CaseResult],
    rules: Rules,
    known: tuple[KnownDivergence, ...],
    *,
    shrink: bool,
    budget: int,
    seconds: float | None,
    workers: int,
    engine_spec: str | None,
    out_dir: Path | None,
    lacks: frozenset[str] = frozenset(),
) -> list[Finding]:
    """Shrink every divergent case and group them by the shrunk case's signature."""
    deadline = None if seconds is None else time.monotonic() + seconds
    jobs = [
        ShrinkJob(r.case, r.divergence, budget if shrink else 0, deadline, lacks)
        for r in divergent
        if r.divergence is not None
    ]
    shrunk = shrink_all(jobs, engine, rules, known, workers=workers, engine_spec=engine_spec)
    groups: dict[tuple[str, ...], list[tuple[CaseResult, Shrunk]]] = {}
    for r, s in zip(divergent, shrunk, strict=True):
        groups.setdefault(root_signature(s.divergence), []).append((r, s))
    findings = []
    explain = classifier(known) if known else None
    for signature, members in sorted(groups.items(), key=lambda g: -len(g[1])):
        first, _ = members[0]
        smallest = min(members, key=lambda m: (len(m[1].case.actions), len(m[1].case.start.cards)))
        findings.append(
            _finding(engine, signature, first, smallest[1], members, rules, explain, out_dir)
        )
    return findings


def _finding(
    engine: _Engine,
    signature: tuple[str, ...],
    first: CaseResult,
    best: Shrunk,
    members: Sequence[tuple[CaseResult, Shrunk]],
    rules: Rules,
    known: KnownClassifier | None,
    out_dir: Path | None,
) -> Finding:
    case, divergence = best.case, best.divergence
    final = engine.run(case, rules, record=True, known=known)
    if final.divergence is not None and final.outcome is Outcome.DIVERGED:
        divergence = final.divergence
    name = f"{engine.adapter.name.replace(':', '-').replace('/', '-')}-{'-'.join(signature)}"
    name = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in name)[:80]
    case = replace(case, name=name, origin=f"shrunk from {first.case.name} ({first.case.origin})")
    files: list[str] = []
    if out_dir is not None:
        meta = {"divergence": divergence.to_json(), "engine": engine.adapter.name}
        expected_path = out_dir / "cases" / f"{name}.itf.json"
        write_trace(expected_path, to_trace(case, rules, extra_meta=meta))
        files.append(str(expected_path))
        if final.observed:
            observed_path = out_dir / "cases" / f"{name}.observed.itf.json"
            write_trace(
                observed_path,
                to_trace(
                    case, rules, observed=final.observed, extra_meta={"engine": engine.adapter.name}
                ),
            )
            files.append(str(observed_path))
    return Finding(
        signature=signature,
        first_case=first.case.name,
        occurrences=len(members),
        original_steps=len(first.case.actions),
        minimal=case,
        divergence=divergence,
        shrink_calls=sum(s.calls for _, s in members),
        files=tuple(files),
        cases=tuple(r.case.name for r, _ in members),
        unshrunk=sum(1 for _, s in members if not s.shrunk),
    )


def _cut_after(case: Case, step_no: int, rules: Rules) -> Case:
    """Drop the actions after the ``step_no``-th one the reference ran (they cannot matter)."""
    if step_no <= 0:
        return replace(case, actions=())
    state = case.start.build()
    run = 0
    for i, action in enumerate(case.actions):
        try:
            state = step(state, action, rules).state
        except EngineError:
            continue
        run += 1
        if run >= step_no:
            return replace(case, actions=case.actions[: i + 1])
    return case
