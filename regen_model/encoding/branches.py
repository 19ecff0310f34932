"""Branch coverage of both views, measured while the agreement check runs.

Agreement on the states a search reaches says nothing about a branch of either view that no
check exercised: a change there goes unnoticed. So the agreement check measures, per view,
which branches its checks took:

* **relation**: every site of this package's rule modules where the relation branches
  (``SymWork.branch``, ``set_if``, ``require``, ``ops.ite`` and the helpers built on it:
  ``b2i``, ``count``, ``max_``, ``min_``, ``bump(..., when=...)``), found in the source by
  ``relation_sites``; a site is covered when both of its outcomes (true and false) were seen
  during the relation's folded evaluation (``probe.py``). A site whose condition is a
  literal is not a branch and is not listed.
* **engine**: every branch arc of ``regen_model/engine/`` as coverage.py defines it (an
  ``if``/``while``/``for``/``match`` line and each line it can continue at, ``exit`` for
  leaving the function), measured around the engine's ``step`` calls only (the candidate
  enumeration also calls engine helpers; those calls do not count). Lines marked
  ``# pragma: no cover`` are coverage.py's usual exclusions (code that guards a modelling
  error and no state reaches).

Each branch is attributed to the function it sits in and to the clause IDs that function
cites (for relation ``set_if``/``require`` sites, also the labels they were called with).
``coverage_rows`` gives the agreement section one row per view and module: PROVED when every
branch there was exercised, VACUOUS otherwise, naming the branches never taken.
"""

from __future__ import annotations

import ast
import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path

import coverage
from ruamel.yaml import YAML

from regen_model.clauses import catalog
from regen_model.encoding.probe import FALSE, TRUE, Probe, Site, recording
from regen_model.verdicts import Verdict
from regen_model.verify import Row

ENCODING_DIR = Path(__file__).parent
ENGINE_DIR = ENCODING_DIR.parent / "engine"
# Modules of the encoding that are machinery or checks, not rules: no branch sites there.
NOT_RULES = frozenset(
    {
        "ops.py",
        "work.py",
        "probe.py",
        "branches.py",
        "agreement.py",
        "bounded.py",
        "evaluate.py",
        "crosscheck.py",
        "compiled.py",
        "sampling.py",
        "queries.py",
        "verify_section.py",
        "relation.py",
        "system.py",
        "seeds.py",
        "paths.py",
        "driven.py",
    }
)
# Calls that branch on their first argument (names of ``ops``), and methods of ``SymWork``.
_BRANCHING_FUNCTIONS = frozenset({"ite", "b2i", "count", "max_", "min_"})
_BRANCHING_METHODS = frozenset({"branch", "set_if", "require"})


@dataclass(frozen=True)
class Branch:
    """One branch of one view: the code that branches (``text``: a relation call, or the
    engine line an arc leaves) and which way (``outcome``: ``true``/``false`` for the
    relation, the line the engine continues at or ``exit``). ``key`` names it without line
    numbers, so that ``UNREACHABLE`` survives edits elsewhere in the file."""

    view: str  # "engine" or "relation"
    module: str  # file name inside the view's package
    function: str  # qualified name of the enclosing function
    line: int
    text: str
    outcome: str
    clauses: tuple[str, ...]
    covered: bool
    unreachable: str = ""  # why no legal state takes it (``UNREACHABLE``)

    @property
    def key(self) -> str:
        return f"{self.view} {self.module} {self.function}: {self.text} -> {self.outcome}"

    def to_json(self) -> dict[str, object]:
        """Where it is and what it branches on (``agree --json``)."""
        return {
            "module": self.module,
            "function": self.function,
            "line": self.line,
            "code": self.text,
            "outcome": self.outcome,
            "clauses": list(self.clauses),
        }

    def describe(self) -> str:
        cited = f" [{', '.join(self.clauses[:3])}]" if self.clauses else ""
        text = self.text if len(self.text) <= 60 else self.text[:57] + "..."
        return f"{self.module}:{self.line} {self.function}: {text} -> {self.outcome}{cited}"


# --- code only a rule mutant runs ------------------------------------------------------------


def _needs_mutant(test: ast.expr, switches: frozenset[str] = frozenset()) -> int:
    """+1 when ``test`` can only be true with a rule mutant on (``w.mutant(M)``, a name in
    ``switches`` bound to one, or a conjunction with such a conjunct), -1 when it can only be
    false with one on (``not w.mutant(M)``, or a disjunction with such a disjunct), 0
    otherwise."""
    if isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute):
        return 1 if test.func.attr == "mutant" else 0
    if isinstance(test, ast.Name):
        return 1 if test.id in switches else 0
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return -_needs_mutant(test.operand, switches)
    if isinstance(test, ast.BoolOp):
        signs = {_needs_mutant(v, switches) for v in test.values}
        if isinstance(test.op, ast.And) and 1 in signs:
            return 1
        if isinstance(test.op, ast.Or) and -1 in signs:
            return -1
    return 0


def _lines(stmts: list[ast.stmt]) -> set[int]:
    return {n for st in stmts for n in range(st.lineno, (st.end_lineno or st.lineno) + 1)}


@dataclass(frozen=True)
class MutantCode:
    """Where a module's code runs only under a rule mutant: lines of blocks a mutant switch
    guards (and of functions only such code refers to), and the ``if`` lines whose true
    (+1) or false (-1) side needs a mutant."""

    lines: frozenset[int]
    tests: dict[int, tuple[int, int]]  # if line -> (sign, first line of its body)


def _mutant_code(trees: dict[str, ast.Module]) -> dict[str, MutantCode]:
    """``MutantCode`` per module of one view (functions are matched by name across the
    view's modules: a function is mutant-only when every reference to it is)."""
    gated: dict[str, set[int]] = {name: set() for name in trees}
    tests: dict[str, dict[int, tuple[int, int]]] = {name: {} for name in trees}
    for name, tree in trees.items():
        switches = frozenset(
            t.id
            for node in ast.walk(tree)
            if isinstance(node, ast.Assign) and _needs_mutant(node.value) == 1
            for t in node.targets
            if isinstance(t, ast.Name)
        )
        for node in ast.walk(tree):
            if isinstance(node, ast.If):
                sign = _needs_mutant(node.test, switches)
                if sign:
                    tests[name][node.lineno] = (sign, node.body[0].lineno)
                    gated[name] |= _lines(node.body if sign > 0 else node.orelse)
    defs = {(name, fn.name): fn for name, tree in trees.items() for _, fn in _functions(tree)}
    refs: dict[str, list[tuple[str, int]]] = {}
    for other, tree in trees.items():
        for n in ast.walk(tree):
            if isinstance(n, ast.Name):
                refs.setdefault(n.id, []).append((other, n.lineno))
            elif isinstance(n, ast.Attribute):
                refs.setdefault(n.attr, []).append((other, n.lineno))
    changed = True
    while changed:
        changed = False
        for (name, fname), fn in defs.items():
            if fn.lineno in gated[name]:
                continue
            found = refs.get(fname, [])
            if found and all(line in gated[other] for other, line in found):
                gated[name] |= set(range(fn.lineno, (fn.end_lineno or fn.lineno) + 1))
                changed = True
    return {name: MutantCode(frozenset(gated[name]), tests[name]) for name in trees}


def _trees(directory: Path, skip: frozenset[str] = frozenset()) -> dict[str, ast.Module]:
    return {
        p.name: ast.parse(p.read_text(), filename=str(p))
        for p in sorted(directory.glob("*.py"))
        if p.name not in skip and not p.name.startswith("_")
    }


# --- the relation's sites ----------------------------------------------------------------------


@dataclass(frozen=True)
class RelationSite:
    module: str
    line: int
    col: int
    function: str
    call: str  # "ite", "set_if", ...
    clauses: tuple[str, ...]  # cited by the enclosing function (or the call's own label)
    text: str  # the call's source, on one line

    @property
    def site(self) -> Site:
        return (self.module, self.line, self.col)


def _citations(tree: ast.Module, known: frozenset[str]) -> list[tuple[int, str]]:
    """(line, clause ID) of every string literal of ``tree`` that is a clause ID."""
    return sorted(
        (n.lineno, n.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in known
    )


def _cited(fn: ast.AST, citations: list[tuple[int, str]]) -> tuple[str, ...]:
    """The clause IDs cited between the first and last line of ``fn``."""
    first, last = getattr(fn, "lineno", 0), getattr(fn, "end_lineno", 0) or 0
    return tuple(dict.fromkeys(c for line, c in citations if first <= line <= last))


def _segment(lines: list[str], node: ast.expr) -> str:
    """The source of ``node`` on one line (``ast.get_source_segment`` re-splits the file)."""
    end = node.end_lineno or node.lineno
    parts = lines[node.lineno - 1 : end]
    if not parts:
        return ""
    parts[-1] = parts[-1][: node.end_col_offset]
    parts[0] = parts[0][node.col_offset :]
    return " ".join(" ".join(parts).split())


def _functions(tree: ast.Module) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """Every function with its qualified name (``outer.<locals>.inner`` as ``outer.inner``)."""

    def visit(
        node: ast.AST, prefix: str
    ) -> Iterator[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                name = f"{prefix}{child.name}"
                yield name, child
                yield from visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                yield from visit(child, f"{prefix}{child.name}.")
            else:
                yield from visit(child, prefix)

    yield from visit(tree, "")


def _is_literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, bool)


def _condition(call: ast.Call, name: str) -> ast.expr | None:
    """The argument a branching call branches on (None: it does not branch here)."""
    if name == "bump":
        for kw in call.keywords:
            if kw.arg == "when":
                return kw.value
        return call.args[3] if len(call.args) > 3 else None
    return call.args[0] if call.args else None


def _scope_label(node: ast.expr | None) -> bool:
    """A guard labelled ``scope:...`` (a literal or an f-string starting so)."""
    if isinstance(node, ast.JoinedStr) and node.values:
        node = node.values[0]
    return isinstance(node, ast.Constant) and str(node.value).startswith("scope:")


@cache
def relation_sites() -> tuple[RelationSite, ...]:
    """Every branching call in the encoding's rule modules that the correct rules can run
    (code only a rule mutant runs is left out), in file and line order."""
    known = frozenset(catalog().clauses)
    out: list[RelationSite] = []
    trees = _trees(ENCODING_DIR, NOT_RULES)
    lines = {name: (ENCODING_DIR / name).read_text().splitlines() for name in trees}
    mutant = _mutant_code(trees)
    for module, tree in trees.items():
        owner: dict[int, tuple[str, tuple[str, ...]]] = {}
        citations = _citations(tree, known)
        for qual, fn in _functions(tree):
            cited = _cited(fn, citations)
            for node in ast.walk(fn):
                if isinstance(node, ast.Call):
                    owner[id(node)] = (qual, cited)  # innermost function wins (visited last)
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) not in owner:
                continue
            func = node.func
            if isinstance(func, ast.Name) and func.id in _BRANCHING_FUNCTIONS:
                name = func.id
            elif isinstance(func, ast.Attribute) and func.attr in (*_BRANCHING_METHODS, "bump"):
                name = func.attr
            else:
                continue
            cond = _condition(node, name)
            if cond is None or _is_literal(cond) or node.lineno in mutant[module].lines:
                continue
            if name == "require" and _scope_label(node.args[1] if len(node.args) > 1 else None):
                continue  # the frame's bound, not a rule: outside it a check is out of scope
            qual, cited = owner[id(node)]
            own: tuple[str, ...] = ()
            if name in ("set_if", "require"):
                label = node.args[-1] if name == "set_if" else node.args[1:2]
                label_node = label[0] if isinstance(label, list) and label else label
                if isinstance(label_node, ast.Constant) and label_node.value in known:
                    own = (str(label_node.value),)
            out.append(
                RelationSite(
                    module,
                    node.lineno,
                    node.col_offset,
                    qual,
                    name,
                    own or cited,
                    _segment(lines[module], node) or name,
                )
            )
    return tuple(sorted(out, key=lambda s: (s.module, s.line, s.col)))


# --- recording during a walk -------------------------------------------------------------------

Arcs = dict[str, set[tuple[int, int]]]  # engine file name -> arcs taken


@dataclass
class Hits:
    """What one or many walks exercised (picklable, so workers can send it back)."""

    relation: dict[Site, int] = field(default_factory=dict)
    relation_clauses: dict[Site, set[str]] = field(default_factory=dict)
    engine: Arcs = field(default_factory=dict)

    def merge(self, other: Hits) -> None:
        probe = Probe.of(self.relation, self.relation_clauses)
        probe.merge(Probe.of(other.relation, other.relation_clauses))
        self.relation, self.relation_clauses = probe.export()
        for f, arcs in other.engine.items():
            self.engine.setdefault(f, set()).update(arcs)


class Recorder:
    """Measures both views: ``relation()`` and ``engine()`` wrap one evaluation of each."""

    def __init__(self) -> None:
        self.probe = Probe()
        self._cov = coverage.Coverage(
            data_file=None,
            branch=True,
            include=[str(ENGINE_DIR / "*.py")],
            config_file=False,
        )

    @contextmanager
    def relation(self) -> Iterator[None]:
        with recording(self.probe):
            yield

    @contextmanager
    def engine(self) -> Iterator[None]:
        self._cov.start()
        try:
            yield
        finally:
            self._cov.stop()

    def hits(self) -> Hits:
        data = self._cov.get_data()
        arcs = {Path(f).name: set(data.arcs(f) or ()) for f in data.measured_files()}
        relation, clauses = self.probe.export()
        return Hits(relation, clauses, arcs)


# --- the report --------------------------------------------------------------------------------


@dataclass(frozen=True)
class CoverageReport:
    """Every branch of both views, covered or not, with ``UNREACHABLE``'s reasons applied;
    ``stale``: entries of that list that name no branch."""

    branches: tuple[Branch, ...]
    stale: tuple[str, ...] = ()

    def of(self, view: str) -> list[Branch]:
        return [b for b in self.branches if b.view == view]

    def totals(self, view: str) -> tuple[int, int]:
        """(exercised, reachable) branches of ``view``."""
        mine = [b for b in self.of(view) if not b.unreachable]
        return sum(b.covered for b in mine), len(mine)

    @property
    def missed(self) -> list[Branch]:
        """Branches no check exercised that are not listed as unreachable."""
        return [b for b in self.branches if not b.covered and not b.unreachable]

    @property
    def contradicted(self) -> list[Branch]:
        """Branches listed as unreachable that a check exercised: the reason is wrong."""
        return [b for b in self.branches if b.covered and b.unreachable]

    @property
    def complete(self) -> bool:
        return not self.missed and not self.contradicted and not self.stale


@cache
def unreachable() -> dict[str, str]:
    """``unreachable.yaml``: branch key -> why no check can exercise it."""
    entries = YAML(typ="safe").load((ENCODING_DIR / "unreachable.yaml").read_text()) or []
    return {str(e["branch"]): " ".join(str(e["why"]).split()) for e in entries}


def relation_branches(hits: Hits) -> list[Branch]:
    out = []
    for s in relation_sites():
        bits = hits.relation.get(s.site, 0)
        labels = tuple(sorted(hits.relation_clauses.get(s.site, ())))
        clauses = tuple(dict.fromkeys((*s.clauses, *labels)))
        for bit, outcome in ((TRUE, "true"), (FALSE, "false")):
            out.append(
                Branch(
                    "relation",
                    s.module,
                    s.function,
                    s.line,
                    s.text,
                    outcome,
                    clauses,
                    bool(bits & bit),
                )
            )
    return out


@cache
def _engine_clauses() -> dict[tuple[str, str], tuple[str, ...]]:
    """(file name, qualified function name) -> clause IDs the function cites."""
    known = frozenset(catalog().clauses)
    out = {}
    for path in sorted(ENGINE_DIR.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        citations = _citations(tree, known)
        for qual, fn in _functions(tree):
            out[(path.name, qual)] = _cited(fn, citations)
    return out


def engine_branches(hits: Hits) -> list[Branch]:
    """Every branch arc of the engine (coverage.py's analysis), covered or not."""
    cov = coverage.Coverage(
        data_file=None, branch=True, include=[str(ENGINE_DIR / "*.py")], config_file=False
    )
    data = cov.get_data()
    data.add_arcs({str(ENGINE_DIR / f): sorted(a) for f, a in hits.engine.items()})
    with tempfile.TemporaryDirectory() as tmp:
        out_file = Path(tmp) / "engine.json"
        # every engine module, even one no check entered, so its branches count as missed
        cov.json_report(
            morfs=sorted(str(p) for p in ENGINE_DIR.glob("*.py")),
            outfile=str(out_file),
        )
        doc = json.loads(out_file.read_text())
    clauses = _engine_clauses()
    mutant = _mutant_code(_trees(ENGINE_DIR))
    out = []
    for path, info in sorted(doc["files"].items()):
        name = Path(path).name
        gated = mutant.get(name, MutantCode(frozenset(), {}))
        for qual, fn in info.get("functions", {}).items():
            for arcs, covered in ((fn["executed_branches"], True), (fn["missing_branches"], False)):
                for a, b in arcs:
                    if _mutant_arc(gated, a, b):
                        continue
                    lines = _source_lines(name)
                    out.append(
                        Branch(
                            "engine",
                            name,
                            qual or "<module>",
                            a,
                            lines[a - 1].strip(),
                            lines[b - 1].strip() if b > 0 else "exit",
                            clauses.get((name, qual), ()),
                            covered,
                        )
                    )
    return sorted(out, key=lambda b: (b.module, b.line, b.outcome))


@cache
def _source_lines(name: str) -> list[str]:
    return (ENGINE_DIR / name).read_text().splitlines()


def _mutant_arc(gated: MutantCode, a: int, b: int) -> bool:
    """The arc from line ``a`` to ``b`` is taken only with a rule mutant on."""
    if a in gated.lines:
        return True
    test = gated.tests.get(a)
    if test is None:
        return False
    sign, body = test
    return (b == body) == (sign > 0)


def coverage_report(hits: Hits) -> CoverageReport:
    reasons = unreachable()
    branches = [
        replace(b, unreachable=reasons.get(b.key, ""))
        for b in engine_branches(hits) + relation_branches(hits)
    ]
    known = {b.key for b in branches}
    return CoverageReport(tuple(branches), tuple(k for k in reasons if k not in known))


def coverage_rows(report: CoverageReport, seconds: float = 0.0) -> list[Row]:
    """One row per view and module: exercised/reachable branches and the clauses its
    functions cite; VACUOUS naming the branches never exercised, FAILED when a branch listed
    as unreachable was exercised (its reason is wrong) or the list names a branch that does
    not exist."""
    groups: dict[tuple[str, str], list[Branch]] = {}
    for b in report.branches:
        groups.setdefault((b.view, b.module), []).append(b)
    rows: list[Row] = []
    for (view, module), branches in sorted(groups.items()):
        reachable = [b for b in branches if not b.unreachable]
        missed = [b for b in reachable if not b.covered]
        wrong = [b for b in branches if b.covered and b.unreachable]
        cited = tuple(dict.fromkeys(c for b in branches for c in b.clauses))
        shown = ", ".join(cited[:5]) + (f", +{len(cited) - 5}" if len(cited) > 5 else "")
        verdict = Verdict.FAILED if wrong else Verdict.VACUOUS if missed else Verdict.PROVED
        message = ""
        if wrong:
            message = "listed as unreachable but exercised: " + _listing(wrong)
        elif missed:
            message = "never exercised: " + _listing(missed)
        skipped = len(branches) - len(reachable)
        rows.append(
            Row(
                item=f"{view} branches: {module}",
                verdict=verdict,
                seconds=seconds if not rows else 0.0,
                details=(
                    (
                        "branches",
                        f"{len(reachable) - len(missed)}/{len(reachable)}"
                        + (f" (+{skipped} unreachable)" if skipped else ""),
                    ),
                    ("clauses", shown or "-"),
                ),
                message=message,
            )
        )
    if report.stale:
        rows.append(
            Row(
                item="unreachable.yaml",
                verdict=Verdict.FAILED,
                seconds=0.0,
                message="names branches that do not exist: " + "; ".join(report.stale[:4]),
            )
        )
    return rows


def _listing(branches: list[Branch], limit: int = 6) -> str:
    more = f"; ... {len(branches) - limit} more" if len(branches) > limit else ""
    return "; ".join(b.describe() for b in branches[:limit]) + more
