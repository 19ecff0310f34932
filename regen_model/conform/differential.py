"""Differential runs: the reference engine and an engine under test, scenario by scenario.

``crosscheck`` runs every case on both engines (``case.run_case``), streams each result to
``results.jsonl`` the moment it is known (a crash of the checker or of the engine loses
nothing already computed), and keeps going whatever the engine does: a crash, hang or
garbage reply is recorded as an engine error and the engine is restarted for the next case.

Divergences are grouped by kind (``Divergence.signature``); the first case of each kind is
shrunk (``shrink.py``) with the predicate "still diverges on at least one of the same
fields", and the minimal case is written twice: ``NAME.itf.json`` (the specification's run;
``crosscheck --case`` replays it, ``check-trace`` accepts it) and ``NAME.observed.itf.json``
(what the engine reported; ``check-trace`` rejects it at the divergent step). The report
(``report.md``, ``report.json``) lists every finding with its clauses, the minimal scenario
and expected vs observed values.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any

from regen_model.conform.adapter import EngineAdapter, EngineFailure
from regen_model.conform.case import (
    Case,
    CaseResult,
    Divergence,
    Outcome,
    run_case,
    to_trace,
)
from regen_model.conform.codec import action_to_json
from regen_model.conform.itf import write_trace
from regen_model.conform.shrink import shrink
from regen_model.engine import EngineError, step
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import Verdict


@dataclass(frozen=True)
class Finding:
    """One kind of divergence, shrunk to a minimal case."""

    signature: tuple[str, ...]
    first_case: str
    occurrences: int
    original_steps: int
    minimal: Case
    divergence: Divergence
    shrink_calls: int
    files: tuple[str, ...] = ()

    @property
    def minimal_steps(self) -> int:
        return len(self.minimal.actions)

    def to_json(self) -> dict[str, Any]:
        players = self.minimal.start.players
        return {
            "signature": list(self.signature),
            "first_case": self.first_case,
            "occurrences": self.occurrences,
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
    errors: list[tuple[str, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    fields_compared: int = 0
    steps_run: int = 0
    elapsed: float = 0.0
    stopped_early: bool = False
    out_dir: str | None = None

    @property
    def cases(self) -> int:
        return sum(self.counts.values())

    @property
    def verdict(self) -> Verdict:
        if self.counts[Outcome.DIVERGED] or self.counts[Outcome.ENGINE_ERROR]:
            return Verdict.DIVERGED
        ran = self.counts[Outcome.PASSED]
        if ran == 0:
            return Verdict.SKIPPED if self.counts[Outcome.SKIPPED] else Verdict.VACUOUS
        if self.fields_compared == 0:
            return Verdict.VACUOUS  # the engine observed nothing: agreement shows nothing
        return Verdict.PASSED

    def to_json(self) -> dict[str, Any]:
        return {
            "engine": self.engine,
            "engine_version": self.engine_version,
            "seed": self.seed,
            "verdict": self.verdict.value,
            "cases": self.cases,
            "counts": {o.value: n for o, n in self.counts.items()},
            "steps_run": self.steps_run,
            "fields_compared": self.fields_compared,
            "elapsed_s": round(self.elapsed, 3),
            "stopped_early": self.stopped_early,
            "skipped": [{"case": c, "reason": r} for c, r in self.skipped],
            "engine_errors": [{"case": c, "error": e} for c, e in self.errors],
            "findings": [f.to_json() for f in self.findings],
        }


class EngineDead(Exception):
    """The engine cannot even be (re)started: nothing more can be run."""


class _Engine:
    """An adapter that is restarted after a failure."""

    def __init__(self, factory: Callable[[], EngineAdapter]) -> None:
        self.factory = factory
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

    def run(self, case: Case, rules: Rules, record: bool = False) -> CaseResult:
        """``run_case`` that turns any misbehaviour of the engine into an ENGINE_ERROR."""
        t0 = time.perf_counter()
        try:
            result = run_case(case, self.adapter, rules, record=record)
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
        "divergence": None if r.divergence is None else r.divergence.to_json(),
    }


def same_kind(original: Divergence) -> Callable[[Divergence | None], bool]:
    """ "Still the same divergence": one on at least one of the same fields."""
    fields = set(original.signature()[1:])

    def same(d: Divergence | None) -> bool:
        return d is not None and bool(fields & set(d.signature()[1:]))

    return same


def crosscheck(
    factory: Callable[[], EngineAdapter],
    cases: Iterable[Case],
    *,
    rules: Rules = CORRECT,
    out_dir: Path | None = None,
    seed: int | None = None,
    shrink_findings: bool = True,
    max_findings: int = 25,
    shrink_budget: int = 1500,
    stop_after: int | None = None,
    on_result: Callable[[CaseResult], None] | None = None,
) -> CrosscheckReport:
    """Run ``cases`` on the reference (under ``rules``) and the engine made by ``factory``."""
    t0 = time.perf_counter()
    try:
        engine = _Engine(factory)
        name, version = engine.adapter.name, engine.adapter.version
    except (EngineDead, EngineFailure) as exc:
        report = CrosscheckReport("?", "?", seed, stopped_early=True)
        report.errors.append(("(engine start)", str(exc)))
        report.counts[Outcome.ENGINE_ERROR] += 1
        if out_dir is not None:
            from regen_model.conform.report import write_reports

            write_reports(report, out_dir)
        return report
    report = CrosscheckReport(name, version, seed, out_dir=str(out_dir) if out_dir else None)
    stream: IO[str] | None = None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        stream = (out_dir / "results.jsonl").open("w", encoding="utf-8")
    kinds: dict[tuple[str, ...], list[CaseResult]] = {}
    try:
        for case in cases:
            try:
                result = engine.run(case, rules)
            except EngineDead as exc:
                report.stopped_early = True
                report.errors.append((case.name, f"engine cannot be restarted: {exc}"))
                report.counts[Outcome.ENGINE_ERROR] += 1
                break
            report.counts[result.outcome] += 1
            report.steps_run += result.steps_run
            report.fields_compared += result.fields_compared
            if result.outcome is Outcome.SKIPPED:
                report.skipped.append((case.name, result.reason))
            elif result.outcome is Outcome.ENGINE_ERROR:
                report.errors.append((case.name, result.reason))
            elif result.divergence is not None:
                kinds.setdefault(result.divergence.signature(), []).append(result)
            if stream is not None:
                stream.write(json.dumps(result_json(result)) + "\n")
                stream.flush()
            if on_result is not None:
                on_result(result)
            if stop_after is not None and sum(len(v) for v in kinds.values()) >= stop_after:
                report.stopped_early = True
                break
        for signature, results in list(kinds.items())[:max_findings]:
            finding = _finding(
                engine, signature, results, rules, shrink_findings, shrink_budget, out_dir
            )
            report.findings.append(finding)
            if stream is not None:
                stream.write(json.dumps({"finding": finding.to_json()}) + "\n")
                stream.flush()
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


def _finding(
    engine: _Engine,
    signature: tuple[str, ...],
    results: Sequence[CaseResult],
    rules: Rules,
    do_shrink: bool,
    budget: int,
    out_dir: Path | None,
) -> Finding:
    first = results[0]
    assert first.divergence is not None
    same = same_kind(first.divergence)
    case = _cut_after(first.case, first.divergence.step, rules)

    def still_diverges(c: Case) -> bool:
        r = engine.run(c, rules)
        return r.outcome is Outcome.DIVERGED and same(r.divergence)

    calls = 0
    if do_shrink:
        case, calls = shrink(case, still_diverges, budget)
    final = engine.run(case, rules, record=True)
    if final.divergence is None or final.outcome is not Outcome.DIVERGED:
        # Flaky engine: keep the original case and divergence.
        case, final = first.case, first
    divergence = final.divergence
    assert divergence is not None
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
        occurrences=len(results),
        original_steps=len(first.case.actions),
        minimal=case,
        divergence=divergence,
        shrink_calls=calls,
        files=tuple(files),
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
