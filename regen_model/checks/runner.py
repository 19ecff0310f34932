"""Running the invariant catalog through the proof methods: what ``prove`` and ``verify`` call.

Methods (``results.Method``):

* ``induction``: initiation and consecution per action kind, the catalog's state invariants
  proving each other (``induction.py``), CTIs checked for reachability by BMC; an invariant
  left at CTI is handed to Spacer, whose strengthening (if found and re-checked) supersedes
  the CTIs;
* ``kind``: k-induction per invariant (``kinduction.py``);
* ``chc``: Spacer per invariant, with re-checked certificates (``chc.py``);
* ``any-n``: the per-permanent invariants on the abstraction for any number of permanents
  (``anyn.py``).

The default is induction and any-n: the first proves the whole catalog at the bounded scope,
the second lifts the per-permanent invariants to every number of permanents.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from regen_model.checks import anyn, chc, induction, kinduction, parallel
from regen_model.checks.property import Property, from_invariant
from regen_model.checks.results import Method, Result
from regen_model.checks.solver import Budget
from regen_model.checks.system import TransitionSystem
from regen_model.checks.systems import PROOF_SCOPE
from regen_model.encoding.scope import Scope
from regen_model.invariants.spec import Invariant, Kind
from regen_model.verdicts import Verdict

DEFAULT_METHODS: tuple[Method, ...] = (Method.INDUCTION, Method.ANY_N)
ALL_METHODS: tuple[Method, ...] = (Method.INDUCTION, Method.KIND, Method.CHC, Method.ANY_N)

Progress = Callable[[str, int], None]  # (what is being done, how many units it is worth)


@dataclass(frozen=True)
class ProveOptions:
    methods: tuple[Method, ...] = DEFAULT_METHODS
    scope: Scope = PROOF_SCOPE
    budget: Budget = field(default_factory=Budget)
    max_k: int = 3
    bmc_depth: int = 4
    any_n_shields: int = 2
    jobs: int = 1  # worker processes for induction (``parallel.py``)


def _strengthen(
    system: TransitionSystem,
    props: Sequence[Property],
    options: ProveOptions,
    results: list[Result],
) -> list[Result]:
    """When plain induction leaves an invariant at CTI, ask Spacer for a strengthening; if it
    finds one (and its certificate re-checks), the CTIs are superseded by that proof."""
    stuck = {
        r.invariant for r in results if r.verdict is Verdict.CTI and r.method is Method.INDUCTION
    }
    if not stuck:
        return results
    proofs = {
        p.id: chc.prove(system, p, options.budget, bmc_depth=options.bmc_depth)
        for p in props
        if p.id in stuck
    }
    out = []
    for r in results:
        proof = proofs.get(r.invariant)
        if proof is not None and proof.verdict is Verdict.PROVED and r.verdict is Verdict.CTI:
            r = replace(r, superseded_by="proved by a CHC strengthening (certificate re-checked)")
        out.append(r)
    return out + [p for p in proofs.values() if p.verdict is Verdict.PROVED]


def units(invariants: Sequence[Invariant], options: ProveOptions) -> int:
    """How many progress units ``prove`` will report (one per invariant and method)."""
    return len(invariants) * len(options.methods)


def iter_prove(
    invariants: Sequence[Invariant],
    options: ProveOptions,
    system: Callable[[], TransitionSystem],
    *,
    support: Sequence[Invariant] = (),
    progress: Progress | None = None,
) -> Iterator[Result]:
    """The results of every method of ``options`` on every invariant, yielded as each is
    known (so a run stopped by Ctrl-C keeps those already proved; ``prove`` collects them).
    ``support`` are more invariants the induction may use as strengthening (typically the
    rest of the catalog). With ``options.jobs > 1`` the induction runs in worker processes
    and the any-n proofs run here meanwhile."""
    tick: Progress = progress or (lambda what, n: None)
    needs_system = any(m is not Method.ANY_N for m in options.methods)
    built = system() if needs_system else None
    props: list[Property] = [from_invariant(built, inv) for inv in invariants] if built else []
    early: list[Result] = []  # any-n, when it ran while the induction workers did

    def meanwhile() -> None:
        if Method.ANY_N in options.methods:
            early.extend(any_n())

    def any_n() -> list[Result]:
        tick("any-n: per-permanent abstraction", 0)
        found = anyn.prove(invariants, options.budget, options.any_n_shields)
        tick("any-n", len(invariants))
        return found

    for method in options.methods:
        if method is Method.INDUCTION:
            assert built is not None
            tick("induction: initiation and consecution", 0)
            helpers = [from_invariant(built, inv) for inv in support if inv.kind is Kind.STATE]
            proved = None
            if options.jobs > 1:
                proved = parallel.prove(
                    system, invariants, support, options.budget, options.jobs, meanwhile
                )
            if proved is None:
                proved = induction.prove(
                    built, props, options.budget, bmc_depth=options.bmc_depth, support=helpers
                )
            yield from _strengthen(built, props, options, proved)
            tick("induction", len(invariants))
        elif method is Method.KIND:
            assert built is not None
            for p in props:
                tick(f"k-induction: {p.id}", 0)
                yield kinduction.prove(built, p, options.max_k, options.budget)
                tick(f"k-induction: {p.id}", 1)
        elif method is Method.CHC:
            assert built is not None
            tick("chc: strengthening and certificates", 0)
            helpers = [from_invariant(built, inv) for inv in support if inv.kind is Kind.STATE]
            yield from chc.prove_catalog(
                built, props, options.budget, support=helpers, bmc_depth=options.bmc_depth
            )
            tick("chc", len(invariants))
        elif method is Method.ANY_N:
            yield from early or any_n()


def prove(
    invariants: Sequence[Invariant],
    options: ProveOptions,
    system: Callable[[], TransitionSystem],
    *,
    support: Sequence[Invariant] = (),
    progress: Progress | None = None,
) -> list[Result]:
    """Every result of ``iter_prove``, in order."""
    return list(iter_prove(invariants, options, system, support=support, progress=progress))
