"""Mutation testing of both views against the fast checks: are differences caught?

    python benchmarks/mutation.py changes [NAME...]
    python benchmarks/mutation.py mutmut [--module engine/zones.py ...] [--every K] [--max-children 2]
    python benchmarks/mutation.py screen [--module engine/zones.py ...] [--every K [--offset I]] [-j 2]
        [--function engine/step.py:_cast ...] [--changed-since REV] [--results FILE]
    python benchmarks/mutation.py screen --catch-up --results mutation-catchup-NN.json
    python benchmarks/mutation.py recheck NAME... | --survivors | --unjudged [--screen FILE ...]
        [--check NODE ...] [-j 2]
    python benchmarks/mutation.py report
    python benchmarks/mutation.py triage [--screen FILE ...] [--results FILE]

The fast checks (``FAST_CHECKS``, also ``[tool.mutmut]`` in pyproject.toml): the seeded
agreement of engine and relation (``tests/encoding/test_branches.py``), every scenario, the
unit tests, the hypothesis properties of single rules and the determinism and loop-bound
queries, and each rule mutant agreeing in both views along the scenarios that kill it
(``tests/encoding/test_mutant_agreement.py``), and the scenarios the walk cannot hold replayed
in both views (``tests/encoding/test_scenario_agreement.py``) and the malformed Counterspell
casts both views refuse (``tests/encoding/test_counter_casts.py``), and the frames' and
parameters' domains and read-backs (``tests/encoding/test_domains.py``). A change survives
when all of them still pass.

* ``changes``: the hand-made changes of ``benchmarks/changes.py`` (issue 10's experiment),
  each applied in a fresh copy of the tree (``git archive HEAD`` plus the working tree's
  edits to tracked files), the fast checks run there with ``-x``. Writes
  ``benchmarks/results/changes.json``.
* ``mutmut``: mutmut 3 (the ``mutation`` extra) over the rule modules of ``engine/`` and
  ``encoding/`` listed in ``[tool.mutmut] only_mutate``, in a persistent copy of the tree
  (``--workdir``, default ``out/mutation``), under ``nice -n 10``. mutmut remembers results,
  so a run can be stopped and resumed, and ``--module`` and ``--every K`` (every K-th mutant
  of each function, by name) split the work. Nothing is written to the real tree. The
  agreement check runs in one process there (``REGEN_AGREEMENT_WORKERS=1``): mutmut learns
  which tests reach a function from the calls it sees in its own process, and a check run
  in worker processes would leave the relation's functions with no test but the queries.
* ``screen``: every mutmut mutant (or a ``--module``/``--every`` share; ``--every K --offset
  I`` the I-th of K slices, so K runs with I = 1 to K screen every mutant once) against the screen of
  ``benchmarks/mutation_screen.py``: the mutated tree loaded once in one process, mutants
  switched by mutmut's ``MUTANT_UNDER_TEST``, each run against only the scenario files and
  points of the seeded agreement walk that call its function, in milliseconds where pytest
  costs fifty seconds. Writes ``benchmarks/results/mutation-screen.json`` (the score per
  package, every survivor and timeout by name; ``--results`` another file under
  ``benchmarks/results``); what survives the screen is then rechecked against the whole
  fast-check list (``recheck --survivors``). ``--function MODULE:FUNCTION`` screens only the
  mutants of the functions named, ``--changed-since REV`` only the mutants that change a line
  ``git diff REV`` shows added or changed (the new code's mutants, every one of them).
  Each screen records ``tree``, the commit its mutants were made from. ``--catch-up``
  screens every mutant whose last screen no longer speaks of it: mutmut numbers a
  function's mutants by their places in it, so once the function changed since a screen's
  tree, that screen's verdict under a name may be about another change (``catch_up``,
  ``renumbered_since``: a function with the same syntax tree keeps its names; a changed one
  is run through mutmut's mutator at both commits and its mutants compared name by name);
  mutants no screen ran are taken too. Its results, ``mutation-catchup-NN.json``, come after every ``mutation-screen-*.json``
  where the screens are read.
* ``recheck``: named mutants' diffs (or the screen's survivors, ``--survivors``) applied to
  fresh copies of the tree and the fast checks run by this script instead of mutmut's runner
  (whose ``timeout`` verdicts a loaded machine makes unreliable), with the rule-mutant
  matrix's observability tests (``RECHECK_EXTRA``); a diff that no longer fits the tree is
  recorded as not applied. ``--check NODE`` (repeatable) runs those pytest nodes instead of
  the fast checks, to confirm a survivor list's ``killed_by`` that the list does not hold
  (they must pass on the unchanged tree first, or nothing runs); the row records them
  (``checks``). ``--unjudged`` sweeps every judged mutant of the screens
  (survivors, ``no checks``, ``not reached``) that no survivor list names and no recheck has
  run, against ``SWEEP_CHECKS`` (after the unchanged tree is shown to pass them): one a check
  kills needs no hand-made entry, ``triage`` counts it as ``rechecked``; what survives is
  left to the lists. ``-j N`` runs N mutants at a time. Writes
  ``benchmarks/results/mutation-recheck.json``, again after every mutant, so a sweep stopped
  halfway keeps what it ran.
* ``triage``: the screen's survivors (``mutation-screen.json``) against the hand-made lists
  ``benchmarks/mutation-survivors-<package>.yaml`` (``mutation_triage.py``: each survivor's
  kind, equivalent, text, label, switch, caught or gap, its reason and the check that kills
  it now):
  how many of each kind per package (text split into killed and alive by ``killed_by``),
  every survivor no list names, every text survivor no check reads yet, every listed name the
  screen no longer reports, and every mutant listed as killed that ``recheck`` found alive.
  A survivor no list names but a recheck row shows killed by a named check (``rechecked``;
  ``recheck_rows``: only while its name gives the change the row ran) is judged by that row,
  and a list entry counts only while its name gives the change it gave on the entry's
  ``tree`` (``entries_moved``); a survivor of a function gone from the source is left out.
  Exits 1 when any survivor is open (unlisted, text alive, or alive). Writes
  ``benchmarks/results/mutation-triage.json`` (or ``--results``). It reads the screens'
  results given by ``--screen`` (oldest first), by default ``mutation-screen.json`` and then
  every ``mutation-screen-*.json``, then every ``mutation-catchup-*.json``: their survivors
  are joined, a later screen's verdict on a mutant it ran again replacing an earlier one's
  (mutmut renumbers the mutants of a function that changed, so the later tree's names are
  the ones that hold), and a catch-up's ``gone`` dropped. Every screen's ``no checks`` and
  ``not reached`` mutants are set against the lists with its survivors
  (``JUDGED_UNSCREENED``).
* ``report``: the mutation score per package (killed / (mutants tested - equivalents)) from
  the work directory's results, every survivor listed, with the equivalents of
  ``benchmarks/mutation-equivalents.yaml`` (mutant name -> why it changes nothing) and the
  survivor lists' ``equivalent`` entries set apart. Writes ``benchmarks/results/mutation.json``.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
EQUIVALENTS = ROOT / "benchmarks" / "mutation-equivalents.yaml"
FAST_CHECKS = (
    "tests/encoding/test_branches.py::test_the_seeded_preset_agrees",
    "tests/test_scenarios.py",
    "tests/unit",
    "tests/props/test_props_rules.py",
    "tests/encoding/test_queries.py",
    "tests/encoding/test_relation_labels.py",
    "tests/encoding/test_mutant_agreement.py",
    # the scenarios the seeded walk cannot hold (inline cards, Counterspell with three objects
    # on the stack) replayed in both views: the walk's frames hold a stack of two, so the
    # renumbering of a countered spell's neighbours (701.6a) is met only here (3 s)
    "tests/encoding/test_scenario_agreement.py",
    # casts of "target spell" that break 601.2c, refused by both views (17 s)
    "tests/encoding/test_counter_casts.py",
    # the frames' and parameters' domains and read-backs, which only the symbolic build and
    # the solver-chosen states call, pinned value by value, and every scenario action read
    # back from its parameters (about 30 s)
    "tests/encoding/test_domains.py",
    # the symbolic build's terms equal the folded evaluation on a sample of points (5 s)
    "tests/encoding/test_crosscheck.py",
)
# What ``recheck`` runs besides: the rule-mutant matrix's tests that each rule mutant still
# changes something (a survivor that turns a rule mutant's switch off, kind ``switch`` in the
# survivor lists, is killed there; about a minute, so mutmut's own runs leave them out).
RECHECK_EXTRA = (
    "tests/mutants/test_mutant_catalog.py::test_every_mutant_is_observable",
    "tests/mutants/test_mutant_sites.py",
)
# What ``recheck --unjudged`` runs, in this order (``-x``: a killed mutant stops at its first
# failure): the checks that killed most of the screens' judged mutants first (the symbolic
# read-backs killed 177 of the sample's 234 "no checks" mutants, the labels and the seeded
# walk most of its survivors); about 100 s for a mutant that survives
# them all. A mutant whose removed line names a rule mutant (``Mutant.X``) gets X's two
# parametrised checks first (observable, and the same in both views), where a switch dies.
SWEEP_CHECKS = (
    "tests/encoding/test_domains.py",
    "tests/encoding/test_relation_labels.py",
    # the symbolic build's terms against the folded evaluation, point by point (5 s): a join
    # of the build's branches that loses a write is seen only here
    "tests/encoding/test_crosscheck.py",
    "tests/encoding/test_branches.py::test_the_seeded_preset_agrees",
    "tests/encoding/test_queries.py",
    "tests/encoding/test_driven.py",
    # (its hand-made changes are applied to the files ``git ls-files`` names, and the copy
    # a recheck runs in is no repository; the changes are issue 10's, not the mutant's)
    "--deselect=tests/encoding/test_driven.py::test_an_encoding_only_change_is_caught",
    "tests/encoding/test_mutant_agreement.py",
    "tests/encoding/test_scenario_agreement.py",
    "tests/encoding/test_counter_casts.py",
    "tests/mutants/test_mutant_sites.py",
    # the unit tests that judged the sample's survivors: refusals' fields and clauses
    "tests/unit/test_refusal_fields.py",
    "tests/unit/test_refusal_clauses.py",
    "tests/unit/test_engine_refusals.py",
    "tests/unit/test_event_shapes.py",
)
# A swept mutant's checks get this long (about three times what a survivor of all of them
# takes on an idle machine); one that runs past it (a loop the mutant made endless) is
# recorded as killed by the time limit, as the screen counts it.
SWEEP_TIMEOUT = 300.0
sys.path.insert(0, str(ROOT / "benchmarks"))

from changes import CHANGES, Change  # noqa: E402
from mutation_triage import COLUMNS, Entry, ListError, load_lists, triage  # noqa: E402


def copy_tree(dest: Path) -> None:
    """The repository's tracked files as they are in the working tree."""
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.split(b"\0")
    for name in files:
        if not name:
            continue
        src = ROOT / name.decode()
        if src.is_file():
            target = dest / name.decode()
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)


def run_checks(
    tree: Path,
    timeout: float = 900.0,
    extra: tuple[str, ...] = (),
    checks: tuple[str, ...] = FAST_CHECKS,
) -> tuple[bool, float, str]:
    """(all ``checks`` (the fast checks), and ``extra``, passed; seconds; the last lines of
    pytest's report) in ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONDONTWRITEBYTECODE="1")
    started = time.perf_counter()
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-x",
                "-q",
                "-p",
                "no:cacheprovider",
                *checks,
                *extra,
            ],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return False, time.perf_counter() - started, f"timeout: the checks ran past {timeout:.0f} s"
    tail = "\n".join(proc.stdout.strip().splitlines()[-3:])
    return proc.returncode == 0, time.perf_counter() - started, tail


def apply(change: Change, tree: Path) -> None:
    for edit in change.edits:
        path = tree / edit.path
        text = path.read_text()
        if text.count(edit.old) != 1:
            raise SystemExit(f"{change.name}: {edit.path} no longer holds {edit.old!r}")
        path.write_text(text.replace(edit.old, edit.new))


def _failed_test(tail: str) -> str:
    m = re.search(r"(?:FAILED|ERROR) (\S+)", tail)  # a fixture's error fails a check too
    return m.group(1) if m else tail.splitlines()[-1] if tail else ""


def cmd_changes(names: list[str], console: Console) -> None:
    chosen = [c for c in CHANGES if not names or c.name in names]
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="regen-changes-") as tmp:
        base = Path(tmp) / "base"
        copy_tree(base)
        ok, seconds, tail = run_checks(base)
        if not ok:
            raise SystemExit(f"the fast checks fail on the unchanged tree:\n{tail}")
        console.log(f"unchanged tree: fast checks pass ({seconds:.0f} s)")
        for change in chosen:
            tree = Path(tmp) / change.name
            shutil.copytree(base, tree)
            apply(change, tree)
            passed, seconds, tail = run_checks(tree)
            rows.append(
                {
                    "change": change.name,
                    "view": change.view,
                    "why": change.why,
                    "caught": not passed,
                    "by": "" if passed else _failed_test(tail),
                    "seconds": round(seconds, 1),
                }
            )
            console.log(
                f"{change.name}: {'caught' if not passed else 'SURVIVED'} ({seconds:.0f} s)"
            )
            shutil.rmtree(tree)
    table = Table(title="Hand-made changes against the fast checks", title_justify="left")
    for col in ("change", "view", "caught by", "s"):
        table.add_column(col)
    for r in rows:
        table.add_row(
            r["change"], r["view"], r["by"] or "[bold red]SURVIVED", f"{r['seconds']:.0f}"
        )
    console.print(table)
    caught = sum(r["caught"] for r in rows)
    console.print(f"{caught}/{len(rows)} changes caught")
    _write(
        "changes.json",
        {
            "format": "regen-model/bench-changes",
            "version": 1,
            "checks": FAST_CHECKS,
            "changes": rows,
        },
    )


# --- mutmut ------------------------------------------------------------------------------------


def _mutmut(workdir: Path, *args: str, check: bool = True) -> str:
    proc = subprocess.run(
        ["nice", "-n", "10", sys.executable, "-m", "mutmut", *args],
        cwd=workdir,
        capture_output=True,
        text=True,
        # the agreement check in mutmut's own process: it records which tests call a function
        # (and so which tests run for its mutants) only there, not in worker processes
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1", REGEN_AGREEMENT_WORKERS="1"),
    )
    if check and proc.returncode != 0:
        raise SystemExit(
            f"mutmut {' '.join(args)} failed:\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
        )
    return proc.stdout


def results(workdir: Path) -> dict[str, str]:
    """Mutant name -> status, for every mutant mutmut generated."""
    out = _mutmut(workdir, "results", "--all", "true")
    found = {}
    for line in out.splitlines():
        m = re.match(r"\s*([\w.]+__mutmut_\d+): (.+)$", line)
        if m:
            found[m.group(1)] = m.group(2).strip()
    return found


def cmd_mutmut(args: argparse.Namespace, console: Console) -> None:
    workdir: Path = args.workdir
    names = ensure_generated(workdir, console)
    chosen = [n for n in names if _in_modules(n, args.module) and _sampled(n, args.every)]
    status = results(workdir)
    todo = [n for n in chosen if status.get(n, "not checked") == "not checked"]
    console.log(f"{len(names)} mutants, {len(chosen)} chosen, {len(todo)} not yet run")
    for k in range(0, len(todo), args.batch):
        batch = todo[k : k + args.batch]
        _mutmut(workdir, "run", "--max-children", str(args.max_children), *batch, check=False)
        console.log(f"ran {min(k + args.batch, len(todo))}/{len(todo)}")


def _in_modules(name: str, modules: list[str]) -> bool:
    if not modules:
        return True
    dotted = [m.removesuffix(".py").replace("/", ".") for m in modules]
    return any(f"regen_model.{d}." in name for d in dotted)


def _in_functions(name: str, functions: list[str]) -> bool:
    """Whether ``name`` mutates one of ``functions`` (``MODULE:FUNCTION``, such as
    ``encoding/stack.py:counter_at`` or ``encoding/frame.py:Frame.fresh`` for a method); every
    mutant when none is given."""
    if not functions:
        return True
    return function_of(name) in {_mangled_function(f) for f in functions}


def _mangled_function(spec: str) -> str:
    """``encoding/frame.py:Frame.fresh`` -> mutmut's name of that function,
    ``regen_model.encoding.frame.x\u01c1Frame\u01c1fresh`` (``x_counter_at`` for a plain
    function)."""
    module, sep, function = spec.partition(":")
    if not sep or not function:
        raise SystemExit(f"--function {spec}: expected MODULE:FUNCTION, e.g. engine/step.py:_cast")
    dotted = module.removesuffix(".py").replace("/", ".")
    cls, dot, method = function.rpartition(".")
    mangled = f"x\u01c1{cls}\u01c1{method}" if dot else f"x_{function}"
    return f"regen_model.{dotted}.{mangled}"


def function_of(mutant: str) -> str:
    """``regen_model.encoding.stack.x_counter_at__mutmut_3`` -> the function it mutates."""
    return mutant.partition("__mutmut_")[0]


def _source_lines_changed(rev: str, module: str) -> set[int]:
    """The lines of ``regen_model/<module>`` (as it is in the working tree) added or changed
    since the commit ``rev`` (``git diff -U0``'s new-side hunks)."""
    diff = subprocess.run(
        ["git", "diff", "-U0", rev, "--", f"regen_model/{module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    lines: set[int] = set()
    for m in re.finditer(r"^@@ -\S+ \+(\d+)(?:,(\d+))? @@", diff, re.MULTILINE):
        start, count = int(m.group(1)), int(m.group(2) or "1")
        lines.update(range(start, start + count))
    return lines


def _defs(text: str) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every function of a module's source by name, methods as ``Class.method``."""
    found: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                found[prefix + child.name] = child
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")

    visit(ast.parse(text), "")
    return found


def changed_since(rev: str, workdir: Path, names: list[str]) -> list[str]:
    """The mutants of ``names`` that change a line changed since the commit ``rev``
    (``touching``, with the working tree's source and ``git diff``'s changed lines)."""

    def source(module: str) -> tuple[str, set[int]]:
        text = (ROOT / "regen_model" / module).read_text()
        return text, _source_lines_changed(rev, module)

    return touching(names, workdir / "mutants", source)


def _module_and_function(name: str) -> tuple[str, str]:
    """``regen_model.engine.step.x__cast__mutmut_3`` -> (``engine/step.py``, ``_cast``);
    a method's mutant gives ``Class.method``."""
    dotted, _, mangled = function_of(name).rpartition(".")
    module = dotted.removeprefix("regen_model.").replace(".", "/") + ".py"
    if mangled.startswith("x_"):
        return module, mangled.removeprefix("x_")
    return module, ".".join(mangled.split("\u01c1")[1:])


def _module_text(rev: str | None, module: str) -> str:
    """``regen_model/<module>`` at the commit ``rev`` (None: the working tree); empty when
    it is not there."""
    if rev is None:
        path = ROOT / "regen_model" / module
        return path.read_text() if path.is_file() else ""
    shown = subprocess.run(
        ["git", "show", f"{rev}:regen_model/{module}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    return shown.stdout if shown.returncode == 0 else ""


def _function_sources(text: str) -> dict[str, tuple[str, str]]:
    """Each function of a module's source by name (methods as ``Class.method``): its syntax
    tree dumped without positions (comments and layout do not count) and its source text,
    decorators included, a method's inside its class line."""
    lines = text.splitlines(keepends=True)
    out = {}
    for name, node in _defs(text).items():
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        body = "".join(lines[first - 1 : node.end_lineno])
        cls, dot, _ = name.rpartition(".")
        if dot:
            body = f"class {cls}:\n{body}"
        out[name] = (ast.dump(node), body)
    return out


def _mutants_of(mangled: str, source: str) -> dict[int, tuple[str, ...]]:
    """The mutants mutmut makes of one function (``mangled``: mutmut's name of it, such as
    ``x_tap``; ``source``: ``_function_sources``'s text), by number, each as its change:
    the lines it removes and adds with a line of context on each side, positions left out
    (mutmut 3's own mutator, ``mutate_file_contents``, as ``mutmut run`` uses it; it numbers
    a function's mutants independently of the rest of the module)."""
    import difflib

    from mutmut.mutation.file_mutation import mutate_file_contents

    # mutmut reads its settings (``[tool.mutmut]``: the lines it must not mutate) from the
    # working directory's pyproject.toml, once per process: this repository's
    with contextlib.chdir(Path(__file__).resolve().parent.parent):
        mutated = mutate_file_contents("function.py", source).code
    lines = mutated.splitlines()
    bodies: dict[str, list[str]] = {}
    for node in ast.walk(ast.parse(mutated)):
        if isinstance(node, ast.FunctionDef) and node.name.startswith(mangled + "__mutmut_"):
            own = lines[node.lineno - 1 : node.end_lineno]
            key = node.name.removeprefix(mangled + "__mutmut_")
            bodies[key] = [ln.replace(node.name, "F") for ln in own]
    original = bodies.pop("orig", [])
    out = {}
    for number, body in bodies.items():
        diff = difflib.unified_diff(original, body, n=1, lineterm="")
        out[int(number)] = tuple(ln for ln in diff if not ln.startswith(("---", "+++", "@@")))
    return out


# a function's mutants by its name and text (``_mutants_of``), kept across the trees a
# catch-up compares with: many trees share a function's text, and today's side is the same
MutantChanges = dict[tuple[str, str], dict[int, tuple[str, ...]]]


# each module's functions (``_function_sources``) by (commit or None for the working tree,
# module), read once for every name asked about in one command
Sources = dict[tuple[str | None, str], dict[str, tuple[str, str]]]


def _function_source(rev: str | None, name: str, sources: Sources) -> tuple[str, str] | None:
    """The function the mutant ``name`` mutates, at the commit ``rev`` (None: the working
    tree), as ``_function_sources`` gives it; None where it is not there."""
    module, function = _module_and_function(name)
    if (rev, module) not in sources:
        sources[(rev, module)] = _function_sources(_module_text(rev, module))
    return sources[(rev, module)].get(function)


def _change_in(name: str, source: str, changes: MutantChanges) -> tuple[str, ...] | None:
    """The change mutmut's mutant ``name`` makes to its function's text ``source``
    (``_mutants_of``, kept in ``changes``); None where it makes no mutant of that number."""
    function = _module_and_function(name)[1]
    if (function, source) not in changes:
        changes[(function, source)] = _mutants_of(function_of(name).rpartition(".")[2], source)
    return changes[(function, source)].get(int(name.rsplit("_", 1)[1]))


def change_of(diff: Sequence[str]) -> tuple[str, ...]:
    """The lines a mutant removes and adds, as ``mutmut show`` (a recheck row's ``diff``) or
    ``_mutants_of`` give them, made comparable: context and headers left out, each line
    stripped after its sign (mutmut prints a method one level out), and a ``def`` line's
    name made ``F`` (``_mutants_of`` names every body ``F``)."""
    out = []
    for line in diff:
        if line[:1] not in "+-" or line[:3] in ("+++", "---") or not line:
            continue
        body = re.sub(r"^def [^\s(]+\(", "def F(", line[1:].strip())
        out.append(line[0] + body)
    return tuple(out)


def today_changes(
    names: Sequence[str], changes: MutantChanges | None = None
) -> dict[str, tuple[str, ...] | None]:
    """Each of ``names``'s change as mutmut makes it of the working tree's source now
    (``change_of``), None where its function or number no longer exists: what a recheck
    row's ``diff`` must be to speak of today's mutant of that name."""
    changes = {} if changes is None else changes
    sources: Sources = {}
    out: dict[str, tuple[str, ...] | None] = {}
    for name in names:
        now = _function_source(None, name, sources)
        found = None if now is None else _change_in(name, now[1], changes)
        out[name] = None if found is None else change_of(found)
    return out


def renumbered_since(rev: str, names: list[str], changes: MutantChanges | None = None) -> set[str]:
    """The mutants of ``names`` that named another change (or none) on the tree at the
    commit ``rev``. mutmut numbers a function's mutants in the order of their places in it,
    so once a function changed, a name judged on the tree at ``rev`` may name another
    change now (a line added above a mutant shifts every number after it). In a function
    whose syntax tree is the same every name names the same change; in one that changed,
    the mutants mutmut makes of it then and now are compared name by name
    (``_mutants_of``; ``changes``: those already made, added to)."""
    sources: Sources = {}
    changes = {} if changes is None else changes
    out = set()
    for name in names:
        then = _function_source(rev, name, sources)
        now = _function_source(None, name, sources)
        if then is None or now is None:
            out.add(name)
            continue
        if then[0] == now[0]:
            continue
        before = _change_in(name, then[1], changes)
        if before is None or before != _change_in(name, now[1], changes):
            out.add(name)
    return out


def catch_up(
    names: list[str], files: list[str], log: Callable[[str], object] = print
) -> tuple[list[str], dict[str, int]]:
    """The mutants of ``names`` (today's) whose last screen among ``files`` (oldest first)
    does not speak of them any more: no screen ran them, or their name named another change
    on the tree their last screen ran on (``renumbered_since``; each screen's ``tree``). With
    how many each file hands over. A screen without a ``tree`` that is some mutant's last
    stops the command: nothing can say whether its verdicts still hold. ``log``: a line
    per screen compared (mutmut's mutator on each changed function takes minutes in all)."""
    last: dict[str, str] = {}
    trees: dict[str, str] = {}
    for file in files:
        screened = json.loads((RESULTS / file).read_text())
        trees[file] = screened.get("tree", "")
        ran = screened.get("screened")
        if ran is None:
            # the first sample kept no list: the mutants of its slice, by today's names (a
            # name it did not run, in a function changed since, is taken again below anyway)
            every, offset = screened.get("every") or 1, screened.get("offset") or 1
            ran = [n for n in names if _sampled(n, every, offset)]
        last.update(dict.fromkeys(ran, file))
    by_file: dict[str, list[str]] = {}
    for name in names:
        by_file.setdefault(last.get(name, ""), []).append(name)
    chosen = list(by_file.pop("", []))
    handed = {"(no screen)": len(chosen)} if chosen else {}
    missing = [f for f in by_file if not trees[f]]
    if missing:
        raise SystemExit(
            f"benchmarks/results/{missing[0]}: no 'tree' (the commit its mutants were made "
            f"from), and it is the last screen of {len(by_file[missing[0]])} mutants; add it"
        )
    changes: MutantChanges = {}
    for file in [f for f in files if f in by_file]:
        mine = by_file[file]
        again = renumbered_since(trees[file], mine, changes)
        chosen += [n for n in mine if n in again]
        log(f"{file}: {len(again)} of its {len(mine)} mutants name another change now")
        if again:
            handed[file] = len(again)
    return sorted(chosen), handed


def judged_gone(names: list[str], files: list[str]) -> list[str]:
    """The mutants the screens in ``files`` left to be judged (survivors, "no checks", "not
    reached") that are not among ``names``, today's: mutmut makes no mutant of that name any
    more (its function shrank or is gone), so a verdict on it judges nothing. A catch-up
    records them (``gone``), and ``screen_survivors`` drops them from then on."""
    today = set(names)
    out: set[str] = set()
    for file in files:
        screened = json.loads((RESULTS / file).read_text())
        for field in ("survivors", *JUDGED_UNSCREENED):
            out.update(n for n in screened.get(field, ()) if n not in today)
    return sorted(out)


def touching(
    names: list[str], tree: Path, source: Callable[[str], tuple[str, set[int]]]
) -> list[str]:
    """The mutants of ``names`` (in the mutated tree ``tree``) that change one of the lines
    ``source(module)`` names (``module`` such as ``engine/zones.py``; it gives the module's
    source text and the lines of it that count): each mutant's function compared line by line
    with its original (``..._mutmut_orig`` beside it in the mutated file). The original is the
    source function verbatim, so a line's offset from the ``def`` is the same in both."""
    import difflib

    modules: dict[str, tuple[set[int], dict[str, Any], list[str], dict[str, Any]]] = {}
    kept = []
    for name in names:
        module, source_name = _module_and_function(name)
        mangled = function_of(name).rpartition(".")[2]
        if module not in modules:
            text = (tree / "regen_model" / module).read_text(encoding="utf-8")
            original, changed_lines = source(module)
            modules[module] = (
                changed_lines,
                _defs(original),
                text.splitlines(),
                {
                    n.name: n
                    for n in ast.walk(ast.parse(text))
                    if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                },
            )
        changed, source_defs, mutated_text, mutated_defs = modules[module]
        defined = source_defs.get(source_name)
        orig = mutated_defs.get(f"{mangled}__mutmut_orig")
        mutant = mutated_defs.get(name.rpartition(".")[2])
        if defined is None or orig is None or mutant is None:
            continue
        # the lines after the ``def`` line (whose name differs in every mutant)
        matcher = difflib.SequenceMatcher(
            None,
            mutated_text[orig.lineno : orig.end_lineno],
            mutated_text[mutant.lineno : mutant.end_lineno],
            autojunk=False,
        )
        offsets = {
            1 + k
            for op, i1, i2, _j1, _j2 in matcher.get_opcodes()
            if op != "equal"
            for k in range(i1, max(i2, i1 + 1))
        }
        if {defined.lineno + k for k in offsets} & changed:
            kept.append(name)
    return kept


def _sampled(name: str, every: int, offset: int = 1) -> bool:
    """Whether mutant ``name`` is in slice ``offset`` (1 to ``every``) of ``every``: the
    mutants whose number is ``offset`` modulo ``every``. Slice 1 is the first sample; the
    ``every`` slices together are every mutant, each once."""
    return every <= 1 or int(name.rsplit("_", 1)[1]) % every == offset % every


# the commit a work directory's copy was made from (``ensure_generated``), which each screen
# records as its ``tree`` (``catch_up`` reads it)
TREE_FILE = "tree.json"


def current_tree() -> dict[str, Any]:
    """The commit checked out here, and whether ``regen_model`` differs from it (then a
    screen's ``tree`` is only close to the code it ran)."""
    head = subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    dirty = subprocess.run(
        ["git", "diff", "--quiet", "HEAD", "--", "regen_model"], cwd=ROOT, check=False
    ).returncode
    return {"commit": head, "dirty": dirty != 0}


def workdir_tree(workdir: Path) -> str:
    """The ``tree`` of a screen run in ``workdir``: the commit its copy was made from, marked
    ``-dirty`` when ``regen_model`` had edits then; empty for a directory made before this
    was recorded."""
    path = workdir / TREE_FILE
    if not path.is_file():
        return ""
    made = json.loads(path.read_text())
    return str(made["commit"]) + ("-dirty" if made.get("dirty") else "")


def ensure_generated(workdir: Path, console: Console) -> list[str]:
    """The mutants of ``workdir``, generating them first (a copy of the tree, mutmut run with
    a name that matches none: it generates every mutant, then stops)."""
    from mutation_screen import generated

    if not (workdir / "pyproject.toml").exists():
        workdir.mkdir(parents=True, exist_ok=True)
        copy_tree(workdir)
        (workdir / TREE_FILE).write_text(json.dumps(current_tree()) + "\n")
        console.log(f"copied the tree to {workdir}")
    names = generated(workdir) if (workdir / "mutants").exists() else []
    if not names:
        console.log("generating the mutants (mutmut, a few minutes)")
        _mutmut(workdir, "run", "no.such.mutant__mutmut_0", check=False)
        names = generated(workdir)
    if not names:
        raise SystemExit(f"mutmut generated no mutants in {workdir}")
    return names


def _package(name: str) -> str:
    return "engine" if ".engine." in name else "encoding"


def cmd_screen(args: argparse.Namespace, console: Console) -> None:
    workdir: Path = args.workdir.resolve()
    names = ensure_generated(workdir, console)
    handed: dict[str, int] = {}
    gone: list[str] = []
    if args.catch_up:
        chosen, handed = catch_up(names, screen_files([]), console.log)
        gone = judged_gone(names, screen_files([]))
    else:
        chosen = [
            n
            for n in names
            if _in_modules(n, args.module)
            and _in_functions(n, args.function)
            and _sampled(n, args.every, args.offset)
        ]
    console.log(f"{len(names)} mutants, {len(chosen)} chosen")
    if args.changed_since:
        chosen = changed_since(args.changed_since, workdir, chosen)
        console.log(f"{len(chosen)} of them change code changed since {args.changed_since}")
    if not chosen:
        raise SystemExit("no mutant is chosen: check --module, --function and --changed-since")
    listing = workdir / "screen-names.txt"
    listing.write_text("\n".join(chosen) + "\n")
    found = workdir / "screen-outcomes.json"
    started = time.perf_counter()
    proc = subprocess.run(
        [
            "nice",
            "-n",
            "10",
            sys.executable,
            str(ROOT / "benchmarks" / "mutation_screen.py"),
            str(workdir),
            str(args.jobs),
            str(args.limit),
            str(found),
            str(listing),
        ],
        cwd=workdir / "mutants",
        env=dict(os.environ, PYTHONPATH=str(workdir / "mutants"), PYTHONDONTWRITEBYTECODE="1"),
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"the screen failed (exit {proc.returncode}); see its lines above")
    done = json.loads(found.read_text())
    outcomes = done["outcomes"]
    packages: dict[str, Counter[str]] = {}
    for o in outcomes:
        tally = packages.setdefault(_package(o["mutant"]), Counter())
        tally["screened"] += 1
        tally[o["status"]] += 1
    table = Table(title="Mutation screen per package", title_justify="left")
    columns = ("screened", "killed", "timeout", "survived", "not reached", "no checks")
    for col in ("package", *columns, "score"):
        table.add_column(col, justify="left" if col == "package" else "right")
    summary = {}
    for package, t in sorted(packages.items()):
        tested = t["screened"] - t["no checks"] - t["not reached"]
        score = 100.0 * (t["killed"] + t["timeout"]) / tested if tested else 0.0
        summary[package] = {**{c: t[c] for c in columns}, "score_percent": round(score, 1)}
        table.add_row(package, *(str(t[c]) for c in columns), f"{score:.1f}%")
    console.print(table)
    left = [o for o in outcomes if o["status"] in ("survived", "not reached", "no checks")]
    console.print(
        f"{len(left)} survived, not reached or unchecked (by name in {args.results}); "
        "the score counts killed and timed out among those a check reached"
    )
    _write(
        args.results,
        {
            "format": "regen-model/bench-mutation-screen",
            "version": 1,
            "mutants_generated": len(names),
            "mutants_screened": len(chosen),
            "every": args.every,
            "offset": args.offset,
            "modules": args.module,
            "functions": args.function,
            "changed_since": args.changed_since,
            # the commit the mutants were made from (``catch_up`` compares functions with it)
            "tree": workdir_tree(workdir),
            # --catch-up: how many mutants each earlier screen handed over (its verdicts on
            # them no longer speak of this tree)
            "catch_up": handed,
            # --catch-up: the earlier screens' judged mutants that mutmut makes no more (their
            # function lost that number or is gone): ``screen_survivors`` drops them
            "gone": gone,
            # every mutant screened, by name: a later screen of a mutant supersedes an earlier
            # one's verdict on it (``triage`` with several ``--screen`` files)
            "screened": sorted(chosen),
            "checks": done["checks"],
            "scenario_checks": done["scenarios"],
            "build_seconds": done["build_seconds"],
            "seconds": round(time.perf_counter() - started, 1),
            "jobs": args.jobs,
            "limit_seconds": args.limit,
            "packages": summary,
            "survivors": sorted(o["mutant"] for o in outcomes if o["status"] == "survived"),
            "not_reached": sorted(o["mutant"] for o in outcomes if o["status"] == "not reached"),
            "no_checks": sorted(o["mutant"] for o in outcomes if o["status"] == "no checks"),
            "timeouts": sorted(o["mutant"] for o in outcomes if o["status"] == "timeout"),
            "median_ms_killed": _median_ms(outcomes, "killed"),
            "median_ms_survived": _median_ms(outcomes, "survived"),
        },
    )


def _median_ms(outcomes: list[dict[str, Any]], status: str) -> float | None:
    times = sorted(o["seconds"] for o in outcomes if o["status"] == status)
    return round(1000 * times[len(times) // 2], 1) if times else None


def cmd_recheck(args: argparse.Namespace, console: Console) -> None:
    """Each named mutant's diff (``mutmut show``) applied to a fresh copy of the tree and the
    fast checks run there by this script (no mutmut runner, no test selection, a generous
    timeout): what mutmut's verdict (often ``timeout`` on a loaded machine) really is.
    ``--unjudged`` sweeps every judged mutant of the screens that no list names and no
    recheck has run yet, against ``SWEEP_CHECKS``, ``-j`` at a time; a mutant one of them
    kills needs no hand-made entry (``triage`` counts it as ``rechecked``)."""
    names = list(args.names)
    if args.survivors:
        for screen_file in screen_files(args.screen):
            screened = json.loads((RESULTS / screen_file).read_text())
            names += [n for n in screened["survivors"] + screened["no_checks"] if n not in names]
    checks: tuple[str, ...] | None = tuple(args.check) or None
    if args.unjudged:
        names += [n for n in unjudged(screen_files(args.screen)) if n not in names]
        console.log(f"{len(names)} judged mutants no list names and no recheck ran")
    sweep = args.unjudged or args.sweep
    if sweep:
        checks = checks or SWEEP_CHECKS
    if not names:
        raise SystemExit("name the mutants to recheck, or give --survivors or --unjudged")
    record = _RecheckRecord([*FAST_CHECKS, *RECHECK_EXTRA])
    status = results(args.workdir)  # mutmut's own verdicts, kept beside ours in each row
    # a name typed (or pasted) that mutmut does not know would be recorded as a row "not
    # applied" under that name: refuse it before anything runs (a sweep's names come from the
    # screens, and one made on older mutants is still recorded as not applied, below)
    refused = unknown_names(args.names, status)
    if refused:
        raise SystemExit(refused)
    with tempfile.TemporaryDirectory(prefix="regen-recheck-") as tmp:
        base = Path(tmp) / "base"
        copy_tree(base)
        if checks:
            # a check that fails on the unchanged tree would "kill" every mutant (a --check
            # naming a test that fails without any mutant confirmed nothing)
            passed, seconds, tail = run_checks(base, checks=checks)
            if not passed:
                raise SystemExit(f"the checks fail on the unchanged tree:\n{tail}")
            console.log(f"unchanged tree: the checks pass ({seconds:.0f} s)")
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            futures = {
                pool.submit(
                    _recheck_one, args.workdir, name, Path(tmp), base, checks, sweep, status
                ): name
                for name in names
            }
            try:
                for done, future in enumerate(as_completed(futures), 1):
                    row = future.result()
                    written = record.add(row)
                    name = futures[future]
                    if not row["applied"]:
                        verdict = "[yellow]not applied[/]"
                    else:
                        verdict = "killed" if row["killed"] else "[bold]SURVIVED[/]"
                    if not written:  # only a survival is not written (kill_stands)
                        verdict += " here; its earlier kill by a test not run here stands"
                    console.log(
                        f"[{done}/{len(names)}] {name}: {verdict} ({row.get('seconds', 0)} s)"
                    )
            except BaseException:
                pool.shutdown(wait=True, cancel_futures=True)  # the queued mutants do not run
                raise


def unknown_names(names: list[str], status: dict[str, str]) -> str:
    """One line naming the first of ``names`` that mutmut generated no mutant of (``status``:
    ``results``), with how many more there are; empty when it knows them all."""
    unknown = [n for n in names if n not in status]
    if not unknown:
        return ""
    more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
    return (
        f"recheck: no mutant named {unknown[0]!r} in the work directory{more}; "
        "`python -m mutmut results --all true` there lists the names"
    )


def unjudged(files: list[str]) -> list[str]:
    """The judged mutants of the screens in ``files`` (survivors, "no checks", "not
    reached") that no survivor list names and that no recheck has run."""
    survivors, _ = screen_survivors(files)
    listed = {e.name for e in load_lists(ROOT / "benchmarks")}
    ran = {r["mutant"] for r in all_recheck_rows()}
    return [n for n in survivors if n not in listed and n not in ran]


def _covers(checks: list[str], node: str) -> bool:
    """Whether running ``checks`` (files, directories or test nodes) runs the test ``node``."""
    path = node.split("::", 1)[0]
    return any(
        node == c or node.startswith(c + "::") or path.startswith(c.rstrip("/") + "/")
        for c in checks
    )


def kill_stands(old: dict[str, Any], new: dict[str, Any], checks: list[str]) -> bool:
    """Whether ``old``, a row that shows its mutant killed by a named test, stays although
    ``new``, run since, shows it surviving: the new run did not run that test (other
    ``--check`` nodes, or a tree copied before the test was committed), so it says nothing
    against the kill. A kill by the time limit, or by a test the new run ran and passed, is
    replaced, and so is a kill of another change under the same name (mutmut renumbered
    the function's mutants since: the diffs differ). ``checks``: what the new run ran when
    its row names none."""
    by = str(old.get("by", ""))
    if not (old.get("applied") and old.get("killed")) or "::" not in by:
        return False
    if not new.get("applied") or new.get("killed"):
        return False
    if "diff" in old and "diff" in new and old["diff"] != new["diff"]:
        return False
    return not _covers(list(new.get("checks", checks)), by)


class _RecheckRecord:
    """``mutation-recheck.json``, written again after every mutant (a long sweep stopped
    halfway keeps what it ran): a mutant run again replaces its earlier row, unless that row
    shows it killed by a test the new run did not run (``kill_stands``). Each write reads
    the file afresh under a lock, so rechecks run side by side keep each other's rows."""

    def __init__(self, checks: list[str]) -> None:
        self._checks = checks
        self._lock = threading.Lock()

    def add(self, row: dict[str, Any]) -> bool:
        """Write ``row`` into the file; False when an earlier kill stands and the row is
        not written. When the file cannot be read (a merge conflict left in it), the row
        goes to ``mutation-recheck.unmerged.jsonl`` instead and the command stops with one
        line (``all_recheck_rows``): nothing that ran is lost."""
        RESULTS.mkdir(parents=True, exist_ok=True)
        with self._lock, open(RESULTS / ".mutation-recheck.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                rows = all_recheck_rows()
            except SystemExit:
                with open(RESULTS / "mutation-recheck.unmerged.jsonl", "a") as side:
                    side.write(json.dumps(row) + "\n")
                raise
            if any(kill_stands(r, row, self._checks) for r in rows if r["mutant"] == row["mutant"]):
                return False
            kept = [r for r in rows if r["mutant"] != row["mutant"]]
            _write(
                "mutation-recheck.json",
                {
                    "format": "regen-model/bench-mutation-recheck",
                    "version": 1,
                    "checks": self._checks,
                    "mutants": [*kept, row],
                },
            )
        return True


def _recheck_one(
    workdir: Path,
    name: str,
    tmp: Path,
    base: Path,
    checks: tuple[str, ...] | None,
    sweep: bool,
    status: dict[str, str],
) -> dict[str, Any]:
    """One mutant's diff applied to a copy of ``base`` and ``checks`` (or the fast checks
    and ``RECHECK_EXTRA``) run there: its row of ``mutation-recheck.json``. A sweep's
    checks run under ``SWEEP_TIMEOUT``."""
    diff = _mutmut(workdir, "show", name, check=False)
    diff = "\n".join(line for line in diff.splitlines() if not line.startswith("#"))
    if not diff.startswith("---"):
        # no mutant of that name in the work directory (a typo, or mutants made anew since):
        # nothing ran, and the rest of a sweep goes on
        return {"mutant": name, "applied": False, "diff": [], "why": "mutmut shows no diff"}
    removed = [ln for ln in diff.splitlines() if ln[:1] == "-" and ln[:3] != "---"]
    tree = tmp / f"tree-{name}"
    shutil.copytree(base, tree)
    try:
        patched = subprocess.run(
            ["patch", "-p0", "--quiet", "--fuzz=0", "--no-backup-if-mismatch", "-r", "-"],
            cwd=tree,
            input=diff + "\n",
            text=True,
            capture_output=True,
            check=False,
        )
        if patched.returncode != 0 and _replace_hunk(tree, diff):
            patched = subprocess.CompletedProcess(patched.args, 0)
        if patched.returncode != 0:
            # mutmut's tree is older than this one and the hunk no longer fits: nothing ran,
            # so the mutant is neither killed nor alive (regenerate the mutants)
            return {"mutant": name, "applied": False, "diff": diff.splitlines()}
        run: tuple[str, ...] | None = checks
        if checks == SWEEP_CHECKS:
            run = (*_switch_checks(removed), *SWEEP_CHECKS)
        if run and sweep:
            passed, seconds, tail = run_checks(tree, timeout=SWEEP_TIMEOUT, checks=run)
        elif run:
            passed, seconds, tail = run_checks(tree, checks=run)
        else:
            passed, seconds, tail = run_checks(tree, extra=RECHECK_EXTRA)
        return {
            "mutant": name,
            "mutmut": status.get(name, "?"),
            # the commit the work directory's mutants were made from: ``diff`` is the change
            # ``name`` gave there (``recheck_rows``)
            "tree": workdir_tree(workdir),
            "applied": True,
            # the checks run: the fast-check list (and RECHECK_EXTRA) unless --check named
            # others (an entry's killed_by outside the list, confirmed) or --unjudged swept
            **({"checks": list(run)} if run else {}),
            "killed": not passed,
            "by": "" if passed else _failed_test(tail),
            "summary": tail.splitlines()[-1] if tail else "",
            "seconds": round(seconds, 1),
            "diff": [
                ln for ln in diff.splitlines() if ln[:1] in "+-" and ln[:3] not in ("+++", "---")
            ],
        }
    finally:
        shutil.rmtree(tree, ignore_errors=True)


def _switch_checks(removed: list[str]) -> list[str]:
    """The two parametrised checks of each rule mutant a removed line names (``Mutant.X``):
    a mutant that turns X's switch off dies in them."""
    from regen_model.model.enums import Mutant

    found: list[str] = []
    for line in removed:
        for member in re.findall(r"Mutant\.([A-Z_]+)", line):
            value = Mutant[member].value if member in Mutant.__members__ else None
            if value is None:
                continue
            found += [
                f"tests/mutants/test_mutant_catalog.py::test_every_mutant_is_observable[{value}]",
                "tests/encoding/test_mutant_agreement.py::"
                f"test_each_rule_mutant_is_the_same_in_both_views[{value}]",
            ]
    return list(dict.fromkeys(found))


def _replace_hunk(tree: Path, diff: str) -> bool:
    """Apply mutmut's one-hunk diff by its text where ``patch`` refuses it: mutmut numbers a
    hunk from the function's first line and gives no context after a change on the
    function's last line, which ``patch`` then takes for the end of the file, and prints a
    method's lines one level out. The hunk's old lines must occur exactly once in the file;
    returns whether it was applied."""
    lines = diff.splitlines()
    target = next((ln[4:].strip() for ln in lines if ln.startswith("+++ ")), "")
    body = [ln for ln in lines if ln[:1] in (" ", "-", "+") and ln[:3] not in ("---", "+++")]
    if not target or sum(ln.startswith("@@") for ln in lines) != 1:
        return False
    path = tree / target
    if not path.is_file():
        return False
    text = path.read_text()
    # mutmut prints a method (``xǁClassǁmethod``) one level out, as a function: its lines are
    # looked up as printed, then one level in
    for indent in ("", "    "):
        old = "\n".join(_indented(ln[1:], indent) for ln in body if ln[:1] in (" ", "-")) + "\n"
        new = "\n".join(_indented(ln[1:], indent) for ln in body if ln[:1] in (" ", "+")) + "\n"
        if text.count(old) == 1:
            path.write_text(text.replace(old, new))
            return True
    return False


def _indented(line: str, indent: str) -> str:
    return indent + line if line.strip() else line


def cmd_report(args: argparse.Namespace, console: Console) -> None:
    found = results(args.workdir)
    equivalents = _equivalents()
    packages: dict[str, Counter[str]] = {}
    survivors: list[dict[str, str]] = []
    for name, status in sorted(found.items()):
        package = "engine" if ".engine." in name else "encoding"
        tally = packages.setdefault(package, Counter())
        tally["mutants"] += 1
        if status == "not checked":
            tally["not run"] += 1
            continue
        tally["tested"] += 1
        if status in ("killed", "timeout", "caught by type check"):
            tally["killed"] += 1
        elif name in equivalents:
            tally["equivalent"] += 1
        elif status == "survived":
            tally["survived"] += 1
            survivors.append({"mutant": name, "status": status})
        else:
            tally["other"] += 1
            survivors.append({"mutant": name, "status": status})
    table = Table(title="Mutation score per package (fast checks)", title_justify="left")
    for col in (
        "package",
        "mutants",
        "tested",
        "killed",
        "equivalent",
        "survived",
        "other",
        "score",
    ):
        table.add_column(col, justify="left" if col == "package" else "right")
    doc_packages = {}
    for package, t in sorted(packages.items()):
        denominator = t["tested"] - t["equivalent"]
        score = 100.0 * t["killed"] / denominator if denominator else 0.0
        doc_packages[package] = {**dict(t), "score_percent": round(score, 1)}
        table.add_row(
            package,
            *(
                str(t[c])
                for c in ("mutants", "tested", "killed", "equivalent", "survived", "other")
            ),
            f"{score:.1f}%",
        )
    console.print(table)
    for s in survivors:
        console.print(f"[bold red]survived[/] {s['mutant']} ({s['status']})")
    _write(
        "mutation.json",
        {
            "format": "regen-model/bench-mutation",
            "version": 1,
            "checks": FAST_CHECKS,
            "packages": doc_packages,
            "survivors": survivors,
            "equivalents": {k: v for k, v in equivalents.items() if k in found},
        },
    )


def screen_files(given: list[str]) -> list[str]:
    """The screens' results to read, oldest first: those given, or else the first sample
    (``mutation-screen.json``), then every later screen's ``mutation-screen-*.json`` by
    name, then the catch-ups' ``mutation-catchup-*.json`` (``screen --catch-up``), which
    screen again what the others screened on older trees."""
    if given:
        return given
    later = sorted(p.name for p in RESULTS.glob("mutation-screen-*.json"))
    caught_up = sorted(p.name for p in RESULTS.glob("mutation-catchup-*.json"))
    return ["mutation-screen.json", *later, *caught_up]


# Every screen's ``no checks`` mutants (of functions no concrete check calls: the symbolic
# build's, reading models back, the rule mutants' wrong versions) and ``not reached`` ones
# (lines only a rule mutant runs, which the screen, on the correct rules, never does, or only
# the symbolic build or a state the walk never has) are judged like its survivors, each in a
# survivor list with the check that kills it (docs/agreement.md): the screen passes over them,
# so only the list says whether a check catches them.
JUDGED_UNSCREENED = ("no_checks", "not_reached")


def screen_survivors(files: list[str]) -> tuple[list[str], list[int]]:
    """The survivors of the screens in ``files`` (under ``benchmarks/results``), oldest first,
    and each file's ``every``: a survivor of an earlier screen that a later screen ran again
    (its ``screened``) is left to the later one's verdict, made on the newer tree, and one a
    later catch-up found gone (its ``gone``: mutmut makes no such mutant any more) is
    dropped. Each screen's ``no checks`` and ``not reached`` mutants count as its survivors
    (``JUDGED_UNSCREENED``)."""
    survivors: dict[str, None] = {}
    every: list[int] = []
    for name in files:
        screened = json.loads((RESULTS / name).read_text())
        again = set(screened.get("screened", ()))
        for old in [s for s in survivors if s in again]:
            del survivors[old]
        survivors.update(dict.fromkeys(screened["survivors"]))
        for field in JUDGED_UNSCREENED:
            survivors.update(dict.fromkeys(screened.get(field, ())))
        for gone in screened.get("gone", ()):  # a catch-up's: no such mutant any more
            survivors.pop(gone, None)
        every.append(screened.get("every"))
    return sorted(survivors), every


def functions_gone(names: list[str]) -> list[str]:
    """The mutants of ``names`` whose function is not in the working tree's source any more
    (removed or renamed since their screen): no mutant of that name exists today, so there
    is nothing left to judge."""
    sources: Sources = {}
    return [name for name in names if _function_source(None, name, sources) is None]


def entries_moved(entries: list[Entry]) -> frozenset[str]:
    """The names of ``entries`` that give another change now than on their entry's ``tree``
    (``renumbered_since``, one call per tree): such an entry judged what is now another
    mutant, so ``triage`` does not take it. A function unchanged since the entry's tree costs
    a syntax tree compare; a changed one runs mutmut's mutator on both texts."""
    by_tree: dict[str, list[str]] = {}
    for entry in entries:
        by_tree.setdefault(entry.tree, []).append(entry.name)
    changes: MutantChanges = {}
    moved: set[str] = set()
    for tree, names in sorted(by_tree.items()):
        moved |= renumbered_since(tree, names, changes)
    return frozenset(moved)


def all_recheck_rows() -> list[dict[str, Any]]:
    """Every row of ``mutation-recheck.json`` (none when there is no file yet). A file that
    is not valid JSON (a merge conflict left in it) stops the command with one line."""
    path = RESULTS / "mutation-recheck.json"
    if not path.exists():
        return []
    try:
        rows: list[dict[str, Any]] = json.loads(path.read_text())["mutants"]
    except (ValueError, KeyError, TypeError) as exc:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        raise SystemExit(
            f"{shown}: not a recheck file ({type(exc).__name__}: {exc}); "
            "a merge conflict? mend it (rows by mutant, a killed row wins) and run again"
        ) from None
    return rows


def recheck_rows() -> list[dict[str, Any]]:
    """The rows of ``mutation-recheck.json`` that speak of today's mutants: a row's ``diff``
    is the change its name gave in the work directory it ran from (``tree``), and mutmut
    renumbers a changed function's mutants, so a row counts only while its name gives the
    same change now: by ``renumbered_since`` from the row's ``tree`` (a syntax tree compare
    for a function unchanged since), or, for a row whose tree is not known or had edits
    (``-dirty``), by its diff set against today's (``today_changes``). A row found to be of
    another change on the commit ``set_aside_at`` stays aside, without that, while its
    function is unchanged since."""
    rows = all_recheck_rows()
    changes: MutantChanges = {}
    by_tree: dict[str, list[str]] = {}
    for row in rows:
        tree = str(row.get("tree") or "")
        if not tree or tree.endswith("-dirty"):
            tree = str(row.get("set_aside_at") or "")
        if tree:
            by_tree.setdefault(tree, []).append(row["mutant"])
    moved: dict[str, set[str]] = {
        tree: renumbered_since(tree, names, changes) for tree, names in by_tree.items()
    }

    def known(row: dict[str, Any]) -> bool | None:
        """Whether the row speaks of today's mutant, if its tree says; None otherwise."""
        tree = str(row.get("tree") or "")
        if tree in moved and not tree.endswith("-dirty"):
            return row["mutant"] not in moved[tree]
        aside = str(row.get("set_aside_at") or "")
        if aside in moved and row["mutant"] not in moved[aside]:
            return False
        return None

    verdicts = [known(row) for row in rows]
    unknown = [row["mutant"] for row, v in zip(rows, verdicts, strict=True) if v is None]
    today = today_changes(unknown, changes)
    kept = []
    for row, verdict in zip(rows, verdicts, strict=True):
        if verdict is None:
            now = today.get(row["mutant"])
            verdict = now is not None and change_of(row.get("diff", ())) == now
        if verdict:
            kept.append(row)
    return kept


def killed_by_recheck() -> set[str]:
    """The mutants a current recheck row shows killed by a check it names: judged by the
    machine (``rechecked`` in the triage), with no hand-made entry needed."""
    return {
        r["mutant"] for r in recheck_rows() if r.get("applied") and r.get("killed") and r.get("by")
    }


def cmd_triage(args: argparse.Namespace, console: Console) -> int:
    survivors, every = screen_survivors(screen_files(args.screen))
    try:
        entries = load_lists(ROOT / "benchmarks")
    except ListError as problem:
        Console(stderr=True).print(f"triage: {problem}", style="bold red", markup=False)
        return 2
    gone = functions_gone(survivors)
    if gone:
        console.print(
            f"{len(gone)} survivor(s) of functions no longer in the source left out "
            f"(e.g. {gone[0]}): their mutants are gone with them"
        )
        survivors = [n for n in survivors if n not in set(gone)]
    found = set(survivors)
    moved = entries_moved([e for e in entries if e.name in found])
    result = triage(survivors, entries, recheck_rows(), moved)
    table = Table(title="Mutation screen survivors, classified", title_justify="left")
    columns = ("survived", *COLUMNS)
    for col in ("package", *columns):
        table.add_column(col, justify="left" if col == "package" else "right")
    for package, tally in sorted(result.counts.items()):
        table.add_row(package, *(str(tally[c]) for c in columns))
    console.print(table)
    for name in result.unlisted:
        if name in moved:
            console.print(
                f"[bold red]entry of another change[/] {name} (its entry judged the change "
                "this name gave on the entry's tree: write it anew for today's, `mutmut show`)"
            )
        else:
            console.print(f"[bold red]unlisted[/] {name}")
    for name in result.text_alive:
        console.print(f"[bold red]text alive[/] {name} (no check reads its words yet)")
    for name in result.alive:
        console.print(f"[bold red]alive[/] {name} (listed as killed; recheck found it alive)")
    for name in result.stale:
        console.print(f"[yellow]stale[/] {name} (listed, but no survivor of the screen)")
    console.print(
        f"{result.open} open survivor(s): "
        + ("none" if not result.open else "each must be killed by a new check or shown equivalent")
    )
    _write(
        args.results,
        {
            "format": "regen-model/bench-mutation-triage",
            "version": 1,
            "screens": screen_files(args.screen),
            "screen_every": every[0] if len(every) == 1 else every,
            "functions_gone": gone,
            **result.to_json(),
        },
    )
    return 1 if result.open else 0


def _equivalents() -> dict[str, str]:
    """Every mutant shown equivalent, with why: those of ``mutation-equivalents.yaml`` (found
    by mutmut's own runs) and the screen survivors' lists' ``equivalent`` entries."""
    found: dict[str, str] = {}
    if EQUIVALENTS.exists():
        entries = YAML(typ="safe").load(EQUIVALENTS.read_text()) or []
        found.update({str(e["mutant"]): " ".join(str(e["why"]).split()) for e in entries})
    found.update(
        {e.name: e.reason for e in load_lists(ROOT / "benchmarks") if e.kind == "equivalent"}
    )
    return found


def _write(name: str, document: dict[str, Any]) -> None:
    """``document`` as ``benchmarks/results/NAME`` (or the absolute path NAME), whole or not
    at all: written beside it and renamed, so a reader never sees half a file."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    document["load_average_at_end"] = round(os.getloadavg()[0], 2)
    path = RESULTS / name
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps(document, indent=2) + "\n")
    partial.replace(path)


def _offset(text: str) -> int:
    """``--offset``: a slice number, 1 or more (checked against ``--every`` in ``main``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {value}")
    return value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ch = sub.add_parser("changes", help="the hand-made changes of benchmarks/changes.py")
    ch.add_argument("names", nargs="*")
    mm = sub.add_parser("mutmut", help="run mutmut (resumable)")
    mm.add_argument("--workdir", type=Path, default=ROOT / "out" / "mutation")
    mm.add_argument("--module", action="append", default=[], help="e.g. engine/zones.py")
    mm.add_argument("--every", type=int, default=1, help="every K-th mutant of each function")
    mm.add_argument("--max-children", type=int, default=2)
    mm.add_argument("--batch", type=int, default=40)
    sc = sub.add_parser("screen", help="every mutant against the in-process screen")
    sc.add_argument("--workdir", type=Path, default=ROOT / "out" / "mutation")
    sc.add_argument("--module", action="append", default=[], help="e.g. engine/zones.py")
    sc.add_argument("--every", type=int, default=1, help="every K-th mutant of each function")
    sc.add_argument(
        "--offset",
        type=_offset,
        default=1,
        help="with --every K: the slice to screen, 1 to K (the mutants numbered OFFSET "
        "modulo K; default 1, the first sample)",
    )
    sc.add_argument("-j", "--jobs", type=int, default=2)
    sc.add_argument("--limit", type=float, default=60.0, help="seconds per mutant")
    sc.add_argument(
        "--function",
        action="append",
        default=[],
        help="only this function's mutants, e.g. encoding/stack.py:counter_at",
    )
    sc.add_argument(
        "--changed-since",
        metavar="REV",
        help="only the mutants whose change touches a line changed since the commit REV",
    )
    sc.add_argument(
        "--catch-up",
        action="store_true",
        help="every mutant whose last screen no longer speaks of it: its function changed "
        "since that screen's tree (mutmut renumbered its mutants), or no screen ran it; "
        "write it as --results mutation-catchup-NN.json",
    )
    sc.add_argument(
        "--results",
        default="mutation-screen.json",
        help="the file under benchmarks/results to write",
    )
    rc = sub.add_parser("recheck", help="apply named mutants and run the fast checks here")
    rc.add_argument("names", nargs="*")
    rc.add_argument("--survivors", action="store_true", help="the screen's survivors")
    rc.add_argument(
        "--unjudged",
        action="store_true",
        help="every judged mutant of the screens that no list names and no recheck ran, "
        "against SWEEP_CHECKS (a kill needs no hand-made entry)",
    )
    rc.add_argument(
        "--sweep",
        action="store_true",
        help="the mutants named against SWEEP_CHECKS, as --unjudged runs them",
    )
    rc.add_argument("-j", "--jobs", type=int, default=1, help="mutants checked at a time")
    rc.add_argument("--workdir", type=Path, default=ROOT / "out" / "mutation")
    rc.add_argument(
        "--check",
        action="append",
        default=[],
        help="run this pytest node instead of the fast checks (repeatable): confirms a "
        "survivor list's killed_by that is not in the fast-check list",
    )
    rc.add_argument(
        "--screen",
        action="append",
        default=[],
        help="with --survivors: the screen results to read (default: mutation-screen.json, "
        "then every mutation-screen-*.json and mutation-catchup-*.json)",
    )
    tr = sub.add_parser("triage", help="the screen's survivors against the classified lists")
    tr.add_argument(
        "--screen",
        action="append",
        default=[],
        help="a screen's results under benchmarks/results, oldest first (default: "
        "mutation-screen.json, then every mutation-screen-*.json and mutation-catchup-*.json); "
        "a later screen of a mutant supersedes an earlier one's",
    )
    tr.add_argument(
        "--results",
        default="mutation-triage.json",
        help="the file under benchmarks/results to write",
    )
    rp = sub.add_parser("report", help="scores and survivors from the work directory")
    rp.add_argument("--workdir", type=Path, default=ROOT / "out" / "mutation")
    args = parser.parse_args()
    if (
        args.command == "screen"
        and args.catch_up
        and (args.every != 1 or args.module or args.function or args.changed_since)
    ):
        parser.error(
            "--catch-up chooses its own mutants: give no --every, --module, "
            "--function or --changed-since with it"
        )
    if args.command == "screen" and args.offset > max(args.every, 1):
        parser.error(f"--offset {args.offset} is past --every {args.every}: give 1 to {args.every}")
    console = Console(width=None if sys.stdout.isatty() else 120)
    if args.command == "changes":
        cmd_changes(args.names, console)
    elif args.command == "mutmut":
        cmd_mutmut(args, console)
    elif args.command == "screen":
        cmd_screen(args, console)
    elif args.command == "recheck":
        cmd_recheck(args, console)
    elif args.command == "triage":
        raise SystemExit(cmd_triage(args, console))
    else:
        cmd_report(args, console)


if __name__ == "__main__":
    main()
