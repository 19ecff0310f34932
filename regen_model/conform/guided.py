"""Coverage-guided random cases: each case is the most novel of a few candidates.

Uniform random walks hit the common situations again and again and miss combinations: a
regeneration in the first-strike damage step, a shield counter meeting a state-based
destruction, "can't be regenerated" on a land creature. The guided generator keeps a map of
*goals* reached so far and, for each case it emits, draws a few candidates and keeps the one
that reaches the most new goals (ties: the first). A case that reached something new joins the
pool that later candidates continue from (``generate.draw_case``'s corpus), as in
greybox fuzzing: the frontier of what has been reached is where new things are found.

Goals (``case_goals``), all read off the reference's run:

* ``C``: a clause of the catalog was cited;
* ``C@CONTEXT``: it was cited about a permanent in a context: ``shielded``, ``countered``,
  ``borrowed``, ``unregenerable``, ``again`` (as the clause witnesses, ``witness.py``),
  ``step:STEP`` (the step it happened in, read off the step-began events: passing priority in
  the end step runs the cleanup step too), ``kw:KEYWORD`` (the permanent had the keyword),
  ``type:TYPE`` (its card types, e.g. ``type:land+creature``), ``has:FIELD`` (a field of its
  state was set just before: damage, shield counters, a deathtouch record, attacking...),
  ``edition:E`` (the rule edition, for combat clauses);
* ``C1&C2``: two clauses (neither of them routine bookkeeping) cited in one case.

Half the fresh candidates are *focused* (``_focus``) on a card kind (keyword or custom card
types) x step x start field combination (``generate.Focus``), the less reached the likelier; a
focused candidate that makes its combination happen for the first time wins over the others
whatever their novelty (``_hit``): such a case brings few new goals, but they are the ones no
other draw gets to.

The contexts come from the model's enumerations (steps, keywords, card types, editions), so a
mechanic added to the model adds goals without code here. The map starts with the goals of the
corpus (the clause witnesses), so the search goes for what the witnesses do not already show.

Everything depends only on the seed and the options: candidate ``k`` of case ``i`` draws from
``random.Random(f"{seed}:{i}:{k}")``, and the goal map evolves the same way each time.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache
from itertools import combinations

from regen_model.conform.case import Case, legal_actions
from regen_model.conform.features import lacked_in, outside, transition_features
from regen_model.conform.generate import (
    CUSTOM_TYPES,
    LATE_CARDS,
    LATE_SPELLS,
    NOT_DRAWN_KEYWORDS,
    START_FIELDS,
    Focus,
    RandomChooser,
    chance,
    draw_actions,
    draw_case,
    draw_swarm,
    drawable,
    settle,
    with_state,
)
from regen_model.conform.start import Start
from regen_model.conform.witness import CONTEXTS, goals_of_trail, replayed
from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.derived import keywords, toughness
from regen_model.model.enums import COMBAT_STEPS, Attachment, CardType, Edition, Keyword, Step
from regen_model.model.events import EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

DEFAULT_CANDIDATES = 10
DEFAULT_CUSTOM = 20  # percent of the cards of a fresh start built by ``generate.custom_template``
# The fields of a permanent's state that make a context when set (``Card``'s own fields, so a
# field added to the model only needs adding here to count): the ones a start can set, and the
# ones only play sets.
CARD_STATE_FIELDS = (
    *(f for f in START_FIELDS if f != "lethal-damage"),
    "attacking",
    "blocking",
    "blocked",
    "attached_to",
)
# A continuation passes more than a fresh walk: it starts where something was under way (a
# combat, a spell on the stack) and the consequences come as the turn moves on.
MUTANT_PASSES = 8
# Draws of the candidate with a card random starts leave out (``generate.LATE_CARDS``) until
# its start has the card, or with such a spell (``generate.LATE_SPELLS``) until it casts it.
LATE_TRIES = 8
# How many of those cards and spells get a candidate of their own in each case, in turn (all of
# them when the engine has no more): the cost of a case stays that of a few candidates more
# however many cards random starts leave out.
LATE_PER_CASE = 3
# How many emitted cases each of them is owed: a candidate with one that fewer emitted cases
# had wins over the others, as a focused candidate's first hit does (``_hit``), when it reaches
# anything new. Without it, a card whose goals other candidates reach as well (a dies trigger's
# destruction, a sacrifice's zone change) is seldom the most novel, and stays all but undrawn.
LATE_QUOTA = 2
# The most cards a late candidate's libraries get (``generate.draw_case``'s ``library``): up to
# the three Thought Scour takes (a mill of two, then a draw, 701.17a, 121.1) and more, so its
# draw is not always from an empty library (121.4), which an engine may not show.
LATE_LIBRARY = 5
ROUTINE_PREFIXES = ("priority.", "turn.", "stack.", "sba.loop", "zone.new-object")


def _routine(clause: str) -> bool:
    return clause.startswith(ROUTINE_PREFIXES)


def _profile(state: GameState, slot: int, after_step: str) -> list[str]:
    """The contexts of an event about the permanent in ``slot`` (state before the step)."""
    card = state.cards[slot]
    template = state.setup.templates[slot]
    out = [f"step:{after_step}", f"type:{'+'.join(sorted(t.value for t in template.types))}"]
    if card.on_battlefield:
        out += [f"kw:{k.value}" for k in sorted(keywords(state, card))]
        out += [f"has:{f}" for f in CARD_STATE_FIELDS if getattr(card, f)]
        if template.is_creature and card.damage and card.damage >= toughness(state, card):
            out.append("has:lethal-damage")
    return out


# A combination a focused start aims at (``_focus``): the card's kind (``kw:K`` or ``type:T``),
# the step, and a field of its state set at the start ("" for none).
Combo = tuple[str, str, str]


def _run_goals(case: Case, rules: Rules = CORRECT) -> tuple[set[str], set[Combo]]:
    """The goals of ``case`` (``case_goals``) and the combinations its events show: for each
    event about a permanent, its kind x the step x each field of its state that a start can
    set (and "" for the pair alone)."""
    run = replayed(case, rules)  # once, for the goals and the combinations alike
    goals = set(goals_of_trail([(before, res.events) for before, res in run]))
    combos: set[Combo] = set()
    clauses: set[str] = set()
    for state, res in run:
        handles = state.setup.handles
        after = res.state
        # The step each event happened in: one action can run through several steps (passing
        # priority in the end step runs the cleanup and the next turn's beginning), and a
        # step-began event marks where the next ones happen.
        now = state.step
        profiles: dict[tuple[str, Step], list[str]] = {}
        for e in res.events:
            if e.kind is EventKind.STEP_BEGAN:
                now = Step(str(e.get("step")))
            clauses.add(e.clause)
            goals.add(f"{e.clause}@step:{now.value}")
            if e.subject is None or e.subject not in handles:
                continue
            key = (e.subject, now)
            if key not in profiles:
                profiles[key] = _profile(state, state.setup.slot_of(e.subject), now.value)
            contexts = profiles[key]
            goals.update(f"{e.clause}@{x}" for x in contexts)
            goals.update(f"{e.clause}@{x}+{y}" for x, y in combinations(contexts, 2))
            if now in COMBAT_STEPS:
                goals.add(f"{e.clause}@edition:{after.edition.value}")
            kinds = [x for x in contexts if x.startswith(("kw:", "type:"))]
            fields = ["", *(x[4:] for x in contexts if x[4:] in START_FIELDS)]
            combos.update((k, now.value, f) for k in kinds for f in fields)
    interesting = sorted(c for c in clauses if not _routine(c))
    goals.update(f"{a}&{b}" for a, b in combinations(interesting, 2))
    return goals, combos


def case_goals(case: Case, rules: Rules = CORRECT) -> set[str]:
    """Every goal the reference's run of ``case`` reaches (see the module docstring)."""
    return _run_goals(case, rules)[0]


def _mutant(
    c: RandomChooser,
    base: Case,
    name: str,
    origin: str,
    max_steps: int,
    lacks: frozenset[str],
) -> Case:
    """``base`` cut after a random number of its actions and continued by a fresh walk: the
    states in the middle of an interesting case (blockers declared, a shield made, damage
    marked) are where a different continuation finds something new."""
    actions = legal_actions(base)
    cut = c.integer(0, len(actions))
    state = base.start.build()
    for action in actions[:cut]:
        state = step(state, action).state
    walk = draw_actions(c, state, draw_swarm(c, passes=MUTANT_PASSES), max_steps, lacks=lacks)
    tail = settle(walk.state, lacks=lacks, chooser=c)
    return Case(
        name,
        base.start,
        (*actions[:cut], *walk.actions, *tail),
        f"{origin} from {base.name} after {cut}",
    )


class _Pool:
    """The cases later candidates continue from, each weighted by how rare its goals are
    (a goal reached by few cases so far counts for more), so that the rare situations get
    explored first, as a fuzzer spends its energy on the seeds that found rare paths."""

    def __init__(self) -> None:
        self.cases: list[Case] = []
        self.weights: list[float] = []
        self.counts: dict[str, int] = {}

    def count(self, goals: Iterable[str]) -> None:
        for g in goals:
            self.counts[g] = self.counts.get(g, 0) + 1

    def add(self, case: Case, goals: set[str]) -> None:
        """Add ``case``, weighted by the rarity of its goals now (kept: recomputing every
        weight for every pick would cost more than the staleness does)."""
        self.cases.append(case)
        self.weights.append(sum(1.0 / self.counts.get(g, 1) for g in goals))

    def pick(self, c: RandomChooser) -> Case:
        return c.rng.choices(self.cases, weights=self.weights)[0]


# The steps a focused start aims at, and the step it starts in to get there soon.
FOCUS_STEPS: dict[Step, Step] = {
    Step.FIRST_STRIKE_DAMAGE: Step.BEGIN_COMBAT,
    Step.COMBAT_DAMAGE: Step.BEGIN_COMBAT,
    Step.DECLARE_BLOCKERS: Step.BEGIN_COMBAT,
    Step.CLEANUP: Step.END,
    Step.MAIN1: Step.MAIN1,
}


@lru_cache(maxsize=16)
def _usable_fields(lacks: frozenset[str]) -> tuple[str, ...]:
    """The ``START_FIELDS`` a start may set for an engine that lacks ``lacks``: those whose
    start (one vanilla creature with the field set) uses no lacked feature. A field the engine
    cannot have would stay unreached, and so most likely, for ever."""
    chooser = RandomChooser(random.Random(0))
    bear = CardSpec("bear", PERMANENT_CARDS["Grizzly Bears"], 0)
    out = []
    for f in START_FIELDS:
        start = Start(("A", "B"), (with_state(chooser, bear, f),))
        if not lacked_in(transition_features((None, None, start.build(), ())), lacks):
            out.append(f)
    return tuple(out)


def _focus(
    c: RandomChooser, reached: dict[Combo, int], lacks: frozenset[str], custom: int
) -> Focus:
    """A kind x step x start-field combination, the less reached the likelier (``reached``: how
    many emitted cases had an event in that step about a permanent of that kind with that field
    set, ``_run_goals``), with an edition the engine can fight under. Rarely reached
    combinations stay likely until some case makes something of them, where a first touch
    would end a yes/no coverage goal."""
    editions = [e for e in Edition if f"combat:{e.value}" not in lacks] or list(Edition)
    kinds: list[tuple[str, Keyword | None, frozenset[CardType] | None]] = [
        (f"kw:{k.value}", k, None)
        for k in Keyword
        if k is not Keyword.UMBRA_ARMOR
        and k not in NOT_DRAWN_KEYWORDS
        and f"keyword:{k.value}" not in lacks
    ]
    if custom:
        kinds += [
            ("type:" + "+".join(sorted(t.value for t in types)), None, types)
            for types in CUSTOM_TYPES
        ]
    fields = ["", *_usable_fields(lacks)]
    combos = [(kind, s, f) for kind in kinds for s in FOCUS_STEPS for f in fields]
    weights = [1.0 / (1 + reached.get((kind[0], s.value, f), 0)) ** 2 for kind, s, f in combos]
    (_, keyword, types), aim, field = c.rng.choices(combos, weights=weights)[0]
    return Focus(keyword, c.pick(editions), FOCUS_STEPS[aim], types, field, aim)


def _hit(focus: Focus | None, combos: set[Combo], reached: dict[Combo, int]) -> bool:
    """``focus``'s combination happened in a case (``combos``) and no emitted case had it."""
    if focus is None or focus.aim is None:
        return False
    kind = (
        f"kw:{focus.keyword.value}"
        if focus.keyword is not None
        else "type:" + "+".join(sorted(t.value for t in focus.types or ()))
    )
    target = (kind, focus.aim.value, focus.state)
    return target in combos and not reached.get(target, 0)


def late_items(lacks: frozenset[str] = frozenset()) -> tuple[tuple[str, str], ...]:
    """The cards and spells random starts leave out that an engine lacking ``lacks`` has, as
    (``card`` or ``spell``, name): cards first, each list in its own order."""
    cards = (("card", x) for x in LATE_CARDS if f"card:{x}" not in lacks)
    spells = (("spell", x) for x in LATE_SPELLS if f"spell:{x}" not in lacks)
    return (*cards, *spells)


def late_turn(items: Sequence[tuple[str, str]], i: int) -> tuple[tuple[str, str], ...]:
    """The ``LATE_PER_CASE`` of ``items`` whose turn it is in case ``i`` (every one of them when
    there are no more): case ``i`` takes the window after case ``i - 1``'s, round the list, so
    each gets a candidate every ``len(items) / LATE_PER_CASE`` cases."""
    if len(items) <= LATE_PER_CASE:
        return tuple(items)
    return tuple(items[(i * LATE_PER_CASE + j) % len(items)] for j in range(LATE_PER_CASE))


def has_late(case: Case, item: tuple[str, str]) -> bool:
    """``case`` has ``item`` (``late_items``): the card in its start, or the spell cast."""
    kind, what = item
    if kind == "card":
        return any(x.template.name == what for x in case.start.cards)
    return any(isinstance(a, A.CastSpell) and a.name == what for a in case.actions)


def _attachment(name: str) -> bool:
    return PERMANENT_CARDS[name].attachment is not Attachment.NONE


def late_case(
    item: tuple[str, str],
    seed: int,
    i: int,
    max_steps: int,
    *,
    lacks: frozenset[str] = frozenset(),
    custom: int = 0,
) -> Case:
    """Case ``i``'s fresh candidate with ``item`` (``late_items``): a card on the board (an
    Aura attached, ``generate.draw_case``'s ``attach``) or a spell the walk casts (the only one
    it casts, as a clause witness of it does), drawn again until it is there (``LATE_TRIES``)
    from ``Random(f"{seed}:{i}:late:{name}")``, apart from the other candidates."""
    kind, what = item
    name, origin = f"random-{seed}-{i}", f"random:seed={seed}#{i} with {what}"
    chooser = RandomChooser(random.Random(f"{seed}:{i}:late:{what}"))
    cards = (what,) if kind == "card" and not _attachment(what) else ()
    attach = (what,) if kind == "card" and _attachment(what) else ()
    spells = (what,) if kind == "spell" else ()
    for _ in range(LATE_TRIES):
        case, _ = draw_case(
            chooser,
            name,
            origin,
            max_steps,
            lacks=lacks,
            custom=custom,
            cards=cards,
            attach=attach,
            spells=spells,
            library=LATE_LIBRARY,
        )
        if has_late(case, item):
            break
    return case


def guided_cases(
    n: int,
    seed: int,
    max_steps: int = 20,
    corpus: Sequence[Case] = (),
    *,
    lacks: frozenset[str] = frozenset(),
    candidates: int = DEFAULT_CANDIDATES,
    custom: int = DEFAULT_CUSTOM,
) -> Iterator[Case]:
    """``n`` cases, each the most novel of ``candidates`` draws (a generator: the first case is
    ready at once). A candidate is a fresh random case (``generate.draw_case``) or, half the
    time once there is a pool, a continuation of a pool case from the middle (``_mutant``).
    ``lacks``: features to stay out of (``features.py``); corpus cases that use one, or an
    effect kind random cases leave out (``generate.drawable``), are not continued. ``custom``: percentage of custom cards in fresh starts (0 when ``lacks`` has
    ``custom-cards``)."""
    if "custom-cards" in lacks:
        custom = 0
    pool = _Pool()
    seen: set[str] = set()
    corpus_goals: list[tuple[Case, set[str], set[Combo]]] = []
    for c in corpus:
        if outside(c, lacks) is None and drawable(c):
            goals, combos = _run_goals(c)
            pool.count(goals)
            seen |= goals
            corpus_goals.append((c, goals, combos))
    reached: dict[Combo, int] = {}
    for c, goals, combos in corpus_goals:
        pool.add(c, goals)
        for combo in combos:
            reached[combo] = reached.get(combo, 0) + 1
    late = late_items(lacks)
    owed = dict.fromkeys(late, LATE_QUOTA)  # emitted cases each late item is still owed
    for i in range(n):
        best: tuple[tuple[bool, int], Case, set[str], set[Combo]] | None = None
        name, origin = f"random-{seed}-{i}", f"random:seed={seed}#{i}"
        for k in range(max(1, candidates)):
            chooser = RandomChooser(random.Random(f"{seed}:{i}:{k}"))
            focus = None
            if pool.cases and chance(chooser, 50):
                case = _mutant(chooser, pool.pick(chooser), name, origin, max_steps, lacks)
            else:
                focus = _focus(chooser, reached, lacks, custom) if chance(chooser, 50) else None
                case, _ = draw_case(
                    chooser, name, origin, max_steps, lacks=lacks, custom=custom, focus=focus
                )
            goals, combos = _run_goals(case)
            # A focused case that made its combination happen for the first time wins over
            # mere novelty: its new goals are few (a context or two) but they are the ones
            # no other draw gets to, where a continuation adds many goals of common kinds.
            score = (_hit(focus, combos, reached), len(goals - seen))
            if best is None or score > best[0]:
                best = (score, case, goals, combos)
        for item in late_turn(late, i):
            # One more fresh candidate for each card or spell random starts leave out whose
            # turn it is (``late_turn``; ``late_case``: a Basilisk, Fecundity, Onulet on the
            # board, Kill Shot cast...), seeded apart from the others; emitted only when it is
            # more novel than each of them (a tie keeps theirs).
            # A candidate with an item still owed cases (``LATE_QUOTA``) that reaches
            # anything new wins as a focused first hit does.
            case = late_case(item, seed, i, max_steps, lacks=lacks, custom=custom)
            goals, combos = _run_goals(case)
            novelty = len(goals - seen)
            score = (owed[item] > 0 and novelty > 0 and has_late(case, item), novelty)
            if best is None or score > best[0]:
                best = (score, case, goals, combos)
        assert best is not None
        (_, novelty), case, goals, combos = best
        seen |= goals
        for combo in combos:
            reached[combo] = reached.get(combo, 0) + 1
        pool.count(goals)
        for item in late:
            if owed[item] and has_late(case, item):
                owed[item] -= 1
        if novelty:
            pool.add(case, goals)
        yield case


def goals_reached(cases: Iterable[Case]) -> set[str]:
    """The union of the goals of ``cases`` (for tests and benchmarks)."""
    out: set[str] = set()
    for c in cases:
        out |= case_goals(c)
    return out


__all__ = ["CONTEXTS", "DEFAULT_CANDIDATES", "case_goals", "goals_reached", "guided_cases"]
