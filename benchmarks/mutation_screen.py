"""The mutation screen: every mutmut mutant of both views, in one process, in milliseconds.

Running the fast checks under pytest costs about fifty seconds a mutant, and mutmut makes some
23,000 mutants of ``engine/`` and ``encoding/``: far too many to run that way. mutmut 3 compiles
every mutant into the module beside the original, behind a trampoline that calls the one named
by the ``MUTANT_UNDER_TEST`` environment variable at each call. So one process can load the
mutated tree once and switch mutants by setting a variable, and run the checks that matter in
place:

* **the checks** (built once, with no mutant active): every scenario file (its expectations
  must hold; the engine alone), and every (state, action) point the seeded agreement walk of
  ``verify`` checks (``encoding.verify_section.VERIFY_PRESET``, the walk of
  ``tests/encoding/test_branches.py::test_the_seeded_preset_agrees``): under the mutant, the
  engine and the relation must still agree there (``check_agreement``: disagree, diverge,
  crash, or out of scope at a point the original code agrees at, is a kill; a label that
  names no clause crashes, ``encoding.work.check_label``). The points are those the walk reaches under the original code; the walk
  under a mutant starts from the same seeds and meets the same points until the mutant
  changes a successor, which is itself a disagreement at the point before.
* **which checks can see a mutant**: while the checks are built, the trampolines report each
  function they run (mutmut's ``stats`` mode, its hook replaced by a recorder here), so each
  check has the set of mutated functions it calls. A mutant is run only against the checks
  that call its function (any other check runs the original code throughout), in order,
  stopping at the first that fails.
* **whether the checks reach the change at all**: the build also measures which lines of each
  original function the checks run (coverage.py), and each mutant's changed lines are found by
  comparing its function with the original (``changed_lines``). A mutant no check reaches is
  ``not reached`` (not run: it cannot fail), told apart from a ``survived`` one, whose change
  ran and changed nothing the checks see. The code that only a rule mutant runs (the wrong
  version behind ``w.mutant(...)``) is never reached under the correct rules.
* **a time limit** per mutant (``--limit``): a mutant that loops is ``timeout``, reported
  apart (mutmut counts it as killed; so does the score here, and the list names them).

What the screen does not run: the unit tests, the hypothesis properties, the relation-label
test and the determinism and loop-bound queries (they build the symbolic relation, seconds per
mutant). So a mutant that only the symbolic build meets survives the screen; ``recheck``
applies each survivor's diff to a copy of the tree and runs the whole fast-check list, which is
the verdict that counts (``benchmarks/mutation.py``: ``screen``, then ``recheck --survivors``).
"""

from __future__ import annotations

import ast
import difflib
import json
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Any

ORIGINAL = ""  # MUTANT_UNDER_TEST with no mutant: every trampoline calls the original
ENV = "MUTANT_UNDER_TEST"


def mangled(mutant: str) -> str:
    """``regen_model.engine.zones.x_move_zone__mutmut_3`` -> the function it mutates,
    ``regen_model.engine.zones.x_move_zone`` (mutmut's own name for it)."""
    return mutant.partition("__mutmut_")[0]


def generated(workdir: Path) -> list[str]:
    """Every mutant mutmut generated in ``workdir`` (its ``.meta`` files), sorted."""
    names: list[str] = []
    for meta in sorted((workdir / "mutants").rglob("*.py.meta")):
        names += json.loads(meta.read_text()).get("exit_code_by_key", {})
    return sorted(names)


# --- the checks ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Check:
    """One check of the screen: a scenario file, or one point of the agreement walk."""

    what: str  # how a report names it
    scenario: Any = None  # a loaded Scenario
    state: Any = None  # a GameState and an Action of the walk
    action: Any = None


@dataclass
class Checks:
    """The checks, for each mutated function the indices of the checks that call it, and per
    file of the mutated tree the lines the checks ran."""

    checks: list[Check] = field(default_factory=list)
    callers: dict[str, list[int]] = field(default_factory=dict)
    lines: dict[str, set[int]] = field(default_factory=dict)
    seconds: float = 0.0


def _body(source: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """The lines of a function after its ``def`` line."""
    return source[node.lineno : node.end_lineno]


def _statement_lines(
    function: ast.FunctionDef | ast.AsyncFunctionDef, line: int
) -> frozenset[int] | None:
    """The lines of the innermost statement of ``function``'s body that spans ``line``, its
    header only for a compound statement (an ``if``'s condition, not its body), or None when
    no statement of the body spans it (the signature's lines). Line coverage reports a
    statement written over several lines on whichever of them its first instruction sits on:
    a call's first line, but the second for ``if (`` with the condition on the lines below
    (Python 3.11), so the statement ran when any of these lines did."""
    best: ast.stmt | None = None
    for node in ast.walk(function):
        if node is function or not isinstance(node, ast.stmt):
            continue
        end = node.end_lineno if node.end_lineno is not None else node.lineno
        if node.lineno <= line <= end and (best is None or node.lineno >= best.lineno):
            best = node
    if best is None:
        return None
    body = getattr(best, "body", None)
    if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
        last = max(best.lineno, body[0].lineno - 1)
    else:
        last = best.end_lineno if best.end_lineno is not None else best.lineno
    return frozenset(range(best.lineno, last + 1))


def changed_lines(tree: Path, mutants: Sequence[str]) -> dict[str, tuple[str, frozenset[int]]]:
    """Per mutant: the file of the mutated tree that holds it and the lines of the statements
    of the original function (``..._mutmut_orig``, beside it in that file) that the mutant
    changes (``_statement_lines``: a change is reached when any of them ran). A mutant whose
    change is outside the body's statements is left out."""
    by_file: dict[Path, list[str]] = {}
    for name in mutants:
        module = mangled(name).rpartition(".")[0]
        by_file.setdefault(tree / (module.replace(".", "/") + ".py"), []).append(name)
    out: dict[str, tuple[str, frozenset[int]]] = {}
    for path, names in by_file.items():
        text = path.read_text(encoding="utf-8")
        source = text.splitlines()
        defs = {
            node.name: node
            for node in ast.walk(ast.parse(text))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        }

        for name in names:
            function = name.rpartition(".")[2]
            orig = defs.get(function.partition("__mutmut_")[0] + "__mutmut_orig")
            mutant = defs.get(function)
            if orig is None or mutant is None:
                continue
            changed: set[int] = set()
            matcher = difflib.SequenceMatcher(
                None, _body(source, orig), _body(source, mutant), autojunk=False
            )
            for op, i1, i2, _j1, _j2 in matcher.get_opcodes():
                if op != "equal":  # orig body line k is file line orig.lineno + 1 + k
                    changed.update(range(orig.lineno + 1 + i1, orig.lineno + 1 + max(i2, i1 + 1)))
            spans = [_statement_lines(orig, line) for line in changed]
            if not spans or None in spans:  # a change outside the body's statements (a
                continue  # default value in the signature): the checks that call it decide
            out[name] = (str(path.resolve()), frozenset().union(*(s for s in spans if s)))
    return out


class _Calls:
    """The mutated functions a check calls, recorded by the trampolines' ``stats`` mode."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def hit(self, name: str, caller: str | None = None) -> None:
        self.seen.add(name)


def _swap(module: Any, name: str, value: Any) -> Any:
    """Put ``value`` in ``module`` as ``name`` (a hook of this script into code it runs);
    returns what was there."""
    old = getattr(module, name)
    setattr(module, name, value)
    return old


def build_checks(roots: Sequence[Path]) -> Checks:
    """The scenario files under ``roots`` and the points of the seeded agreement walk, each
    with the mutated functions it calls (run here under no mutant: every check must pass)."""
    import coverage
    from mutmut.mutation import trampoline

    from regen_model.encoding import bounded
    from regen_model.encoding.agreement import Status, check_agreement
    from regen_model.encoding.bounded import PRESETS
    from regen_model.encoding.verify_section import VERIFY_PRESET
    from regen_model.scenario import load_scenario, scenario_files

    started = time.perf_counter()
    out = Checks()
    calls = _Calls()
    _swap(trampoline, "record_trampoline_hit", calls.hit)  # the stats mode's hook, now ours
    seen_text: set[bytes] = set()
    scenarios: list[Check] = []
    for root in roots:
        for path in scenario_files([root]):
            text = path.read_bytes()
            if text in seen_text:  # the shipped examples are copies of test scenarios
                continue
            seen_text.add(text)
            shown = f"scenario {root.name}/{path.relative_to(root)}"
            scenarios.append(Check(shown, scenario=load_scenario(path, shown_as=shown)))
    points: list[Check] = []
    original = check_agreement

    def keep(state: Any, action: Any, *args: Any, **kwargs: Any) -> Any:
        result = original(state, action, *args, **kwargs)
        if result.status is not Status.OUT_OF_SCOPE:
            points.append(Check(f"agreement {action!r}", state=state, action=action))
        return result

    _swap(bounded, "check_agreement", keep)  # the walk's checks, recorded
    try:
        os.environ[ENV] = ORIGINAL
        report = bounded.bounded_agreement(PRESETS[VERIFY_PRESET], workers=1)
    finally:
        _swap(bounded, "check_agreement", original)
    if report.tally.disagreements or report.tally.diverging:
        raise SystemExit("the original tree's views disagree: fix that before screening")
    scope = PRESETS[VERIFY_PRESET].scope
    package = Path(bounded.__file__).resolve().parent.parent
    lines = coverage.Coverage(data_file=None, include=[str(package / "*")], config_file=False)
    os.environ[ENV] = "stats"
    lines.start()
    try:
        for check in [*scenarios, *points]:
            calls.seen = set()
            failure = run_check(check, scope, check_agreement, Status)
            if failure is not None:
                raise SystemExit(f"{check.what} fails on the original tree: {failure}")
            index = len(out.checks)
            out.checks.append(check)
            for name in calls.seen:
                out.callers.setdefault(name, []).append(index)
    finally:
        lines.stop()
        os.environ[ENV] = ORIGINAL
    data = lines.get_data()
    out.lines = {f: set(data.lines(f) or ()) for f in data.measured_files()}
    out.seconds = time.perf_counter() - started
    return out


def run_check(check: Check, scope: Any, check_agreement: Any, status: Any) -> str | None:
    """Why ``check`` fails under the active mutant (None: it passes)."""
    from regen_model.scenario import run_scenario
    from regen_model.verdicts import Verdict

    try:
        if check.scenario is not None:
            result = run_scenario(check.scenario)
            if result.verdict is Verdict.PASSED:
                return None
            first = result.failures[0] if result.failures else None
            return f"{first.what}: expected {first.expected}, got {first.actual}" if first else "?"
        agreed = check_agreement(check.state, check.action, scope=scope)
        # a point is kept only where the original code agrees (``build_checks``): a mutant
        # that puts it out of scope (a state or an action it can no longer write down, the
        # parameters' and frames' own mutants) has changed what the check sees, so it fails
        if agreed.status is status.AGREE:
            return None
        return f"{agreed.status.value}: {agreed.reason or agreed.summary()}"[:300]
    except _Timeout:
        raise
    except Exception as crash:  # a mutant that crashes the code is caught
        return f"crashed: {type(crash).__name__}: {crash}"[:300]


# --- running the mutants -------------------------------------------------------------------------


class _Timeout(BaseException):
    """The time limit of one mutant (a BaseException, so no ``except Exception`` in the
    code under test swallows it)."""


@contextmanager
def _limit(seconds: float) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class Outcome:
    mutant: str
    status: str  # killed, survived, timeout, not reached, no checks
    by: str  # the check that failed, and why
    checks_run: int
    seconds: float


_CHECKS: Checks | None = None  # set in the screening process before the workers fork
_CHANGED: dict[str, tuple[str, frozenset[int]]] = {}  # likewise: changed_lines of the mutants
_LIMIT = 60.0


def screen_one(mutant: str) -> Outcome:
    from regen_model.encoding.agreement import Status, check_agreement
    from regen_model.encoding.bounded import PRESETS
    from regen_model.encoding.verify_section import VERIFY_PRESET

    assert _CHECKS is not None
    scope = PRESETS[VERIFY_PRESET].scope
    indices = _CHECKS.callers.get(mangled(mutant), [])
    if not indices:
        return Outcome(mutant, "no checks", "", 0, 0.0)
    where = _CHANGED.get(mutant)
    if where is not None and where[1] and not where[1] & _CHECKS.lines.get(where[0], set()):
        lines = ", ".join(str(n) for n in sorted(where[1]))
        return Outcome(mutant, "not reached", f"line {lines} never runs in a check", 0, 0.0)
    started = time.perf_counter()
    run = 0
    os.environ[ENV] = mutant
    try:
        with _limit(_LIMIT):
            for k in indices:
                check = _CHECKS.checks[k]
                run += 1
                failure = run_check(check, scope, check_agreement, Status)
                if failure is not None:
                    seconds = time.perf_counter() - started
                    return Outcome(mutant, "killed", f"{check.what}: {failure}", run, seconds)
    except _Timeout:
        return Outcome(mutant, "timeout", f"over {_LIMIT:.0f} s", run, _LIMIT)
    finally:
        os.environ[ENV] = ORIGINAL
    return Outcome(mutant, "survived", "", run, time.perf_counter() - started)


def screen(
    mutants: Sequence[str],
    tree: Path,
    roots: Sequence[Path],
    jobs: int,
    limit: float,
    progress: Any,
) -> tuple[list[Outcome], Checks]:
    """Build the checks once, then screen ``mutants`` in ``jobs`` forked processes."""
    global _CHECKS, _CHANGED, _LIMIT
    _CHECKS = build_checks(roots)
    _CHANGED = changed_lines(tree, mutants)
    _LIMIT = limit
    progress(
        f"checks built in {_CHECKS.seconds:.0f} s: {len(_CHECKS.checks)} "
        f"({sum(c.scenario is not None for c in _CHECKS.checks)} scenarios), "
        f"{len(_CHECKS.callers)} mutated functions called; the changed lines of "
        f"{len(_CHANGED)} mutants found"
    )
    outcomes: list[Outcome] = []
    if jobs <= 1:
        stream: Iterator[Outcome] = map(screen_one, mutants)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(jobs)
        stream = pool.imap_unordered(screen_one, mutants, chunksize=4)
    try:
        started = time.perf_counter()
        for k, outcome in enumerate(stream, 1):
            outcomes.append(outcome)
            if k % 200 == 0 or k == len(mutants):
                killed = sum(o.status in ("killed", "timeout") for o in outcomes)
                progress(
                    f"{k}/{len(mutants)} screened, {killed} killed "
                    f"({time.perf_counter() - started:.0f} s)"
                )
    finally:
        if pool is not None:
            pool.terminate()
    return sorted(outcomes, key=lambda o: o.mutant), _CHECKS


def main(argv: Sequence[str]) -> None:
    """Child entry point: ``mutation_screen.py WORKDIR JOBS LIMIT OUT NAMES_FILE`` (one mutant
    name a line), run with the mutated tree first on ``sys.path`` (``benchmarks/mutation.py
    screen`` starts it)."""
    workdir, jobs, limit, out = Path(argv[0]), int(argv[1]), float(argv[2]), Path(argv[3])
    names = Path(argv[4]).read_text().split()
    import regen_model

    where = Path(regen_model.__file__).resolve()
    if (workdir / "mutants").resolve() not in where.parents:
        raise SystemExit(f"regen_model was imported from {where}, not the mutated tree")
    tree = workdir / "mutants"
    roots = [tree / "tests" / "scenarios", tree / "regen_model" / "examples"]

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    outcomes, checks = screen(
        names, tree.resolve(), [r for r in roots if r.is_dir()], jobs, limit, progress
    )
    out.write_text(
        json.dumps(
            {
                "checks": len(checks.checks),
                "scenarios": sum(c.scenario is not None for c in checks.checks),
                "build_seconds": round(checks.seconds, 1),
                "outcomes": [o.__dict__ for o in outcomes],
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1:])
