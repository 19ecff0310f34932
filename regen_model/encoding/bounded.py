"""Bounded agreement: every reachable state of a scope, every candidate action, both views.

A breadth-first search from the start boards of ``explore.starts``, with the candidate
actions of ``explore.actions.enumerate_actions`` and the explorer's state view (``view``,
``fits``, ``terminal``), so "reachable within the scope" means the same thing here as in the
explicit-state proofs. Unlike the explorer, every candidate is checked, accepted or not: the
relation's enabled actions in a state must be exactly the engine's (guard vs ``EngineError``).

States reached from different start boards never coincide (each board has its own
``Setup``), so each start is an independent search; starts are spread over worker processes.

``DEFAULT_AGREEMENT`` is the scope ``regen-model agree`` and ``verify`` run: see its
``describe()`` for what it covers.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from regen_model.encoding.agreement import AgreementResult, Status, check_agreement
from regen_model.encoding.branches import CoverageReport, Hits, Recorder, coverage_report
from regen_model.encoding.evaluate import Prepared, prepare
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.explore.actions import ActionFamily, enumerate_actions
from regen_model.explore.space import fits, terminal, view
from regen_model.explore.starts import StartSpec, start_states
from regen_model.model.actions import Action
from regen_model.model.enums import Edition, Step
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState
from regen_model.pools import forked_pool
from regen_model.verdicts import Verdict


@dataclass(frozen=True)
class Seed:
    """Where one search starts: a run of the engine from a legal start (``states[0]``),
    ``actions[i]`` leading from ``states[i]`` to ``states[i + 1]``. Every state of it is
    searched from, and each of its own steps is checked too (its action need not be a
    candidate the enumeration offers, e.g. a scripted damage division), and so is each of
    ``tried``: actions the engine must refuse for a reason no candidate gives (a creature
    declared twice, a negative amount), where the relation's guard must refuse them too."""

    name: str
    states: tuple[GameState, ...]
    actions: tuple[Action, ...] = ()
    tried: tuple[tuple[int, Action], ...] = ()  # (index into ``states``, an action checked there)


@dataclass(frozen=True)
class SeedSource:
    """Seed runs made by a function of ``regen_model.encoding.seeds`` (by name, so a search
    description stays a value): ``seeds.SOURCES[name](scope)``."""

    name: str
    text: str

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class AgreementRun:
    """One bounded search: start boards (or seed runs), which actions, how deep."""

    name: str
    start: StartSpec | SeedSource
    family: ActionFamily
    depth: int
    spells: tuple[str, ...] | None = ()
    prefilter: bool = True  # False: also every candidate the engine evidently refuses
    per_kind: int | None = None  # at most this many candidates of each kind per state

    def describe(self) -> str:
        spells = "all spells" if self.spells is None else ", ".join(self.spells) or "no spells"
        every = "" if self.prefilter else ", unfiltered"
        some = "" if self.per_kind is None else f", the first {self.per_kind} of each kind"
        return (
            f"{self.name}: {self.start.describe()}; {self.family.value} actions ({spells}"
            f"{every}{some}); depth {self.depth}"
        )

    def candidates(self, state: GameState, scope: Scope) -> Iterator[Action]:
        """The actions checked in ``state`` (in the enumeration's stable order)."""
        found = enumerate_actions(
            state, scope, family=self.family, spells=self.spells, prefilter=self.prefilter
        )
        if self.per_kind is None:
            yield from found
            return
        taken: Counter[str] = Counter()
        for action in found:
            if taken[action.kind] < self.per_kind:
                taken[action.kind] += 1
                yield action

    def seeds(self, scope: Scope) -> list[Seed]:
        if isinstance(self.start, StartSpec):
            return [Seed(f"start {k}", (s,)) for k, s in enumerate(start_states(self.start, scope))]
        from regen_model.encoding.seeds import SOURCES

        return SOURCES[self.start.name](scope)


@dataclass(frozen=True)
class AgreementScope:
    scope: Scope
    runs: tuple[AgreementRun, ...]

    def describe(self) -> str:
        return "; ".join(r.describe() for r in self.runs) + f"; frames: {self.scope.describe()}"


_EDITIONS = (Edition.PRE_M10, Edition.M10, Edition.FDN)
AGREEMENT_FRAME_SCOPE = Scope(
    cards=3, shields=2, stack=2, pending=2, targets=1, max_amount=2, max_power=6, max_toughness=6
)
# Cards with every destruction replacement the model knows: shields made by an ability
# (with and without a rider), static regeneration with "can't be regenerated", umbra armor,
# damage triggers, deathtouch, indestructible, +1/+1 riders.
_REPLACEMENT_CARDS = (
    "Horned Troll",
    "Eland Umbra",
    "Knight of the Holy Nimbus",
    "Matopi Golem",
    "Wall of Essence",
    "Darksteel Myr",
    "Typhoid Rats",
    "Skeleton Scavengers",
)

DEFAULT_AGREEMENT = AgreementScope(
    AGREEMENT_FRAME_SCOPE,
    (
        # Every effect action, once, on every two-permanent board of the replacement cards
        # (each creature with one unused shield): destruction, its replacements, 616.1.
        AgreementRun(
            "effects",
            StartSpec(_REPLACEMENT_CARDS, 2, shields=1),
            ActionFamily.EFFECTS,
            1,
        ),
        # Two effects in a row on a regenerating creature and its umbra-armor Aura.
        AgreementRun(
            "effects-twice",
            StartSpec(("Horned Troll", "Eland Umbra"), 2, shields=1, owners=(0,)),
            ActionFamily.EFFECTS,
            2,
        ),
        # Unfiltered candidates: the guards must refuse what the engine refuses.
        AgreementRun(
            "effects-unfiltered",
            StartSpec(("Horned Troll", "Eland Umbra", "Typhoid Rats"), 3, shields=1, owners=(1,)),
            ActionFamily.EFFECTS,
            1,
            prefilter=False,
        ),
        # Whole combats in each edition: declarations, M10 orders, damage divisions with
        # first strike, trample and deathtouch, damage on the stack (pre-M10).
        AgreementRun(
            "combat",
            StartSpec(
                ("Colossal Dreadmaw", "Typhoid Rats", "Youthful Knight"),
                3,
                editions=_EDITIONS,
                step=Step.BEGIN_COMBAT,
            ),
            ActionFamily.GAME,
            11,
        ),
        # Regeneration in combat: shields activated at any priority before damage.
        AgreementRun(
            "regen-combat",
            StartSpec(
                ("Horned Troll", "Grizzly Bears"), 3, editions=_EDITIONS, step=Step.BEGIN_COMBAT
            ),
            ActionFamily.GAME,
            10,
        ),
        # Casting and activating into the end step and cleanup: shields from spells and
        # abilities, Debt of Loyalty's control rider, counter riders, damage triggers.
        AgreementRun(
            "stack",
            StartSpec(("River Boa", "Skeleton Scavengers", "Wall of Essence"), 2, step=Step.END),
            ActionFamily.GAME,
            4,
            ("Lightning Bolt", "Terror", "Debt of Loyalty"),
        ),
        # Type changes (613.1d): a manland or a regenerating creature becoming and ceasing to
        # be a creature around shields, damage and destruction, two effects deep.
        AgreementRun(
            "type-changes",
            StartSpec(("Spawning Pool", "Horned Troll"), 1, shields=1, owners=(0,)),
            ActionFamily.EFFECTS,
            2,
        ),
        # A manland animated by its own ability, making a shield with the ability its
        # animation grants, attacking and blocked, and shot.
        AgreementRun(
            "manland",
            StartSpec(("Spawning Pool", "Grizzly Bears"), 2, step=Step.BEGIN_COMBAT, owners=(0,)),
            ActionFamily.GAME,
            7,
            ("Lightning Bolt",),
        ),
        # Unfiltered game actions: wrong players, wrong steps, illegal targets.
        AgreementRun(
            "game-unfiltered",
            StartSpec(
                ("Horned Troll", "Knight of the Holy Nimbus", "Colossal Dreadmaw"),
                2,
                step=Step.BEGIN_COMBAT,
            ),
            ActionFamily.GAME,
            3,
            ("Murder", "Regenerate"),
            prefilter=False,
        ),
    ),
)

# A few seconds: for tests and a first look (every action kind still occurs).
QUICK_AGREEMENT = AgreementScope(
    AGREEMENT_FRAME_SCOPE,
    (
        AgreementRun(
            "effects",
            StartSpec(
                ("Horned Troll", "Eland Umbra", "Knight of the Holy Nimbus"),
                2,
                shields=1,
                owners=(0,),
            ),
            ActionFamily.EFFECTS,
            1,
        ),
        AgreementRun(
            "combat",
            StartSpec(
                ("Colossal Dreadmaw", "Typhoid Rats"),
                3,
                editions=_EDITIONS,
                step=Step.BEGIN_COMBAT,
                owners=(0, 1),
            ),
            ActionFamily.GAME,
            11,
        ),
        AgreementRun(
            "stack",
            StartSpec(("River Boa", "Skeleton Scavengers"), 2, step=Step.END, owners=(0,)),
            ActionFamily.GAME,
            4,
            ("Lightning Bolt", "Debt of Loyalty"),
        ),
    ),
)

SCRIPTS = SeedSource("scripts", "the written seed runs (encoding/seeds.py)")
COVER_SCRIPTS = SeedSource("cover-scripts", "the cover check's scripted guide runs")
COVER_GUIDES = SeedSource("cover-guides", "the cover check's explorer guide runs")
COVER_WITNESSES = SeedSource(
    "cover-witnesses", "the cover check's witness of every clause branch (guide runs or BMC)"
)

# Every branch of both views, from seed runs rather than a big search (``seeds.py``): each
# state of each seed with the first candidate of each action kind, and of each game action
# kind unfiltered (wrong player, wrong step; the seeds' own steps and the actions they try
# are checked by every run).
SEEDED_RUNS = (
    AgreementRun("seeds", SCRIPTS, ActionFamily.ALL, 1, None, per_kind=1),
    AgreementRun("seeds-unfiltered", SCRIPTS, ActionFamily.GAME, 1, None, False, per_kind=1),
    AgreementRun("cover-scripts", COVER_SCRIPTS, ActionFamily.ALL, 1, None, per_kind=1),
)
SEEDED_AGREEMENT = AgreementScope(AGREEMENT_FRAME_SCOPE, SEEDED_RUNS)

# Everything: the breadth-first searches, the seeds, the cover check's explorer runs and its
# witnesses of every clause branch (found by the solver where no guide run shows one).
FULL_AGREEMENT = AgreementScope(
    AGREEMENT_FRAME_SCOPE,
    (
        *DEFAULT_AGREEMENT.runs,
        *SEEDED_RUNS,
        AgreementRun("cover-guides", COVER_GUIDES, ActionFamily.ALL, 1, None, per_kind=2),
        AgreementRun("cover-witnesses", COVER_WITNESSES, ActionFamily.ALL, 1, None, per_kind=2),
    ),
)

PRESETS: dict[str, AgreementScope] = {
    "seeded": SEEDED_AGREEMENT,
    "quick": QUICK_AGREEMENT,
    "bfs": DEFAULT_AGREEMENT,
    "full": FULL_AGREEMENT,
}


@dataclass(frozen=True)
class Disagreement:
    run: str
    depth: int
    state: GameState
    action: str
    result: AgreementResult


@dataclass
class Tally:
    """Counts of one or many searches."""

    states: int = 0
    checks: int = 0
    status: Counter[str] = field(default_factory=Counter)
    enabled: Counter[str] = field(default_factory=Counter)  # kind -> checks both views enabled
    disabled: Counter[str] = field(default_factory=Counter)  # kind -> checks both refused
    disagreements: list[Disagreement] = field(default_factory=list)
    diverging: list[Disagreement] = field(default_factory=list)
    max_depth: int = 0
    seconds: float = 0.0  # wall time spent in the searches (summed over worker processes)
    cpu_seconds: float = 0.0  # CPU time of the same
    hits: Hits | None = None  # branches of both views exercised (when measured)

    def add(self, other: Tally, keep: int = 20) -> None:
        if other.hits is not None:
            if self.hits is None:
                self.hits = Hits()
            self.hits.merge(other.hits)
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds
        self.states += other.states
        self.checks += other.checks
        self.status.update(other.status)
        self.enabled.update(other.enabled)
        self.disabled.update(other.disabled)
        self.disagreements += other.disagreements[: max(0, keep - len(self.disagreements))]
        self.diverging += other.diverging[: max(0, keep - len(self.diverging))]
        self.max_depth = max(self.max_depth, other.max_depth)


@dataclass(frozen=True)
class AgreementReport:
    config: AgreementScope
    rules: Rules  # the engine's rules (and the relation's, unless ``relation_rules`` differ)
    tally: Tally  # all runs together
    runs: dict[str, Tally]  # per run, in the config's order
    seconds: float
    workers: int
    relation_rules: Rules | None = None  # the relation's rules when they differ

    @property
    def rules_name(self) -> str:
        if self.relation_rules is None or self.relation_rules == self.rules:
            return self.rules.name
        return f"engine {self.rules.name}, relation {self.relation_rules.name}"

    @property
    def mutated(self) -> bool:
        return bool(self.rules.mutants or (self.relation_rules and self.relation_rules.mutants))

    @property
    def verdict(self) -> Verdict:
        return tally_verdict(self.tally, self.mutated)

    def run_verdict(self, name: str) -> Verdict:
        return tally_verdict(self.runs[name], self.mutated)

    @property
    def coverage(self) -> CoverageReport | None:
        """Branch coverage of both views (None when the searches were not measured)."""
        if self.tally.hits is None:
            return None
        return coverage_report(self.tally.hits)

    @property
    def median_check_us(self) -> float:
        """Wall time per check (all workers), in microseconds."""
        return 1e6 * self.seconds * self.workers / self.tally.checks if self.tally.checks else 0.0


def tally_verdict(t: Tally, mutated: bool) -> Verdict:
    """FAILED on a disagreement (or a non-ending 704.3 loop under the correct rules),
    VACUOUS when nothing was checked, else PROVED."""
    if t.status[Status.DISAGREE.value]:
        return Verdict.FAILED
    if t.status[Status.DIVERGES.value] and not mutated:
        return Verdict.FAILED  # the correct engine must always settle
    if not t.checks:
        return Verdict.VACUOUS
    return Verdict.PROVED


ProgressHook = Callable[[int, int], None]  # (tasks done, tasks)


@dataclass(frozen=True)
class Task:
    """One independent search: one seed of one run (sent to a worker process)."""

    run: AgreementRun
    seed: Seed
    scope: Scope
    rules: Rules
    relation_rules: Rules | None
    measure: bool  # record the branches both views take


# Searches a worker process takes at a time: they share one ``Recorder`` (starting a
# coverage measurement costs milliseconds, which one per seed made a visible share of the
# check), and enough chunks remain for the workers to balance their loads.
CHUNK = 16


def _search_chunk(chunk: Sequence[Task]) -> tuple[list[tuple[str, Tally]], Hits | None]:
    """``_search`` of each task, measured (when the tasks ask for it) by one recorder, whose
    hits are returned beside the tallies: only their union is reported."""
    recorder = Recorder() if any(task.measure for task in chunk) else None
    done = [_search(task, recorder) for task in chunk]
    return done, recorder.hits() if recorder is not None else None


def _search(task: Task, recorder: Recorder | None = None) -> tuple[str, Tally]:
    """The bounded search from one seed, checking every candidate (and the seed's steps).
    With ``recorder`` (for a measured task) its branches are recorded there; without one,
    a measured task records them in a recorder of its own, returned in its tally."""
    run, scope = task.run, task.scope
    started, cpu = time.perf_counter(), time.process_time()
    own = Recorder() if task.measure and recorder is None else None
    recorder = (recorder or own) if task.measure else None
    tally = Tally()
    seen: set[GameState] = set()
    frontier: list[GameState] = []
    for state in task.seed.states:
        if view(state) not in seen:
            seen.add(view(state))
            frontier.append(state)
    tally.states = len(frontier)

    def check(state: GameState, action: Action, prep: Prepared, depth: int) -> AgreementResult:
        result = check_agreement(
            state,
            action,
            task.rules,
            scope,
            prep,
            relation_rules=task.relation_rules,
            recorder=recorder,
        )
        tally.checks += 1
        tally.status[result.status.value] += 1
        if result.status is Status.AGREE:
            (tally.enabled if result.engine_enabled else tally.disabled)[result.kind] += 1
        elif result.status is not Status.OUT_OF_SCOPE:
            found = Disagreement(run.name, depth, state, repr(action), result)
            target = tally.disagreements if result.status is Status.DISAGREE else tally.diverging
            if len(target) < 20:
                target.append(found)
        return result

    steps = list(zip(task.seed.states, task.seed.actions, strict=False))
    steps += [(task.seed.states[i], action) for i, action in task.seed.tried]
    for state, action in steps:
        try:
            check(state, action, prepare(state, scope), 0)
        except OutOfScope:
            continue
    for depth in range(1, run.depth + 1):
        following: list[GameState] = []
        for state in frontier:
            try:
                prep = prepare(state, scope)
            except OutOfScope:
                continue
            for action in run.candidates(state, scope):
                succ = check(state, action, prep, depth).successor
                if succ is None:
                    continue
                key = view(succ)
                if key in seen:
                    continue
                seen.add(key)
                tally.states += 1
                tally.max_depth = depth
                if fits(succ, scope) and not terminal(succ):
                    following.append(succ)
        frontier = following
        if not frontier:
            break
    tally.seconds = time.perf_counter() - started
    tally.cpu_seconds = time.process_time() - cpu
    if own is not None:
        tally.hits = own.hits()
    return run.name, tally


def tasks(
    config: AgreementScope,
    rules: Rules,
    relation_rules: Rules | None = None,
    *,
    measure: bool = False,
) -> list[Task]:
    return [
        Task(run, seed, config.scope, rules, relation_rules, measure)
        for run in config.runs
        for seed in run.seeds(config.scope)
    ]


def bounded_agreement(
    config: AgreementScope,
    rules: Rules = CORRECT,
    *,
    relation_rules: Rules | None = None,
    workers: int | None = None,
    on_progress: ProgressHook | None = None,
    measure: bool = False,
) -> AgreementReport:
    """Run every search of ``config`` (in ``workers`` processes; default: one per CPU).
    ``rules`` apply to both views unless ``relation_rules`` is given (see
    ``check_agreement``). ``measure``: record the branches of both views the checks
    exercise (``AgreementReport.coverage``)."""
    started = time.perf_counter()
    todo = tasks(config, rules, relation_rules, measure=measure)
    n = workers if workers is not None else min(os.cpu_count() or 1, len(todo)) or 1
    total = Tally()
    per_run = {run.name: Tally() for run in config.runs}

    def record(done: int, name: str, tally: Tally) -> None:
        total.add(tally)
        per_run[name].add(tally)
        if on_progress is not None:
            on_progress(done, len(todo))

    chunks = [todo[k : k + CHUNK] for k in range(0, len(todo), CHUNK)]
    done = 0

    def record_chunk(results: list[tuple[str, Tally]], hits: Hits | None) -> None:
        nonlocal done
        if hits is not None:
            total.add(Tally(hits=hits))
        for name, tally in results:
            done += 1
            record(done, name, tally)

    if n <= 1:
        for chunk in chunks:
            record_chunk(*_search_chunk(chunk))
    else:
        with forked_pool(n) as pool:
            for results, hits in pool.imap_unordered(_search_chunk, chunks):
                record_chunk(results, hits)
    seconds = time.perf_counter() - started
    return AgreementReport(config, rules, total, per_run, seconds, n, relation_rules)


def kinds_checked(report: AgreementReport, kinds: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Per action kind: (checks where both views enabled it, checks where both refused)."""
    t = report.tally
    return {k: (t.enabled[k], t.disabled[k]) for k in kinds}
