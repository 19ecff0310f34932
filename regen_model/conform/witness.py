"""Clause witnesses: for every clause of the catalog, small cases whose runs cite it.

Cross-checking and conformance vectors must exercise every rule, not only the ones random
play happens to reach. A witness for clause C is a case on which the reference engine emits
an event labelled C. Rules have conditions, though ("this turn", "its controller chooses",
"never used up"), and a bug often hides in one of them, so the coverage goal is a little
finer than the clause: besides ``C`` itself, ``C@shielded`` (C happened to a permanent with an
unused shield), ``C@countered`` (to a permanent with a shield counter, the other replacement of
its destruction, 122.1c), ``C@borrowed`` (to a permanent controlled by a player other than its owner),
``C@unregenerable`` (to a permanent that can't be regenerated this turn) and ``C@again`` (C
happened to the same permanent earlier in the case). These contexts are generic, not chosen
per clause.

The search is a seeded random walk (``generate.py``); it stops once every clause has a
witness and no new goal has turned up for a while. Each witness is then shrunk
(``shrink.py``) with the predicate "the run still reaches this goal", which leaves the few
actions that make it happen, and extended by ``generate.settle`` so that consequences waiting
on the stack become visible. The search is deterministic for a seed, so the exported vectors
are stable from one run to the next.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from regen_model.clauses import catalog
from regen_model.conform.case import Case
from regen_model.conform.features import (
    COUNTED_FEATURES,
    COUNTER_FEATURES,
    LIBRARY_FEATURES,
    MULTI_BLOCK_FEATURES,
    PHASING_FEATURES,
    PREVENTION_FEATURES,
    TARGETING_FEATURES,
)
from regen_model.conform.generate import (
    NOT_DRAWN_SPELLS,
    RandomChooser,
    Walk,
    draw_case,
    settle,
)
from regen_model.conform.shrink import shrink
from regen_model.engine import EngineError, StepResult, step
from regen_model.model.derived import controller
from regen_model.model.events import Event
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

DEFAULT_BUDGET = 12000
DEFAULT_PATIENCE = 1500
DEFAULT_STEPS = 30
CONTEXTS = ("shielded", "countered", "borrowed", "unregenerable", "again")


# Clauses of mechanics random cases do not draw yet (``generate.EFFECT_KINDS`` leaves type
# changes out, ``generate.NOT_DRAWN_SPELLS`` the prevention and phasing spells), with the effect
# kinds, the spells and the cards that reach them: searched in later passes, so that the first
# pass, and the random cases continued from its witnesses, are what they were before.
def _spells_of(features: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(n for n in NOT_DRAWN_SPELLS if f"spell:{n}" in features))


_MULTI_BLOCK_CARDS = tuple(
    sorted(f.removeprefix("card:") for f in MULTI_BLOCK_FEATURES if f.startswith("card:"))
)


_ATTACH_CARDS = ("Bonesplitter", "Darksteel Plate", "Grizzly Bears", "Regeneration")


LATER: tuple[tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    ("type.", ("change-type",), (), ()),
    ("combat.block-additional", (), (), _MULTI_BLOCK_CARDS),
    ("combat.damage.multi-blocker", (), (), _MULTI_BLOCK_CARDS),
    ("combat.removal.multi-blocked", (), (), _MULTI_BLOCK_CARDS),
    ("prevent.", (), _spells_of(PREVENTION_FEATURES), ()),
    (
        "phasing.",
        (),
        (*_spells_of(PHASING_FEATURES), "Pyroclasm"),  # damage to each creature: phasing.absent
        tuple(sorted(f.removeprefix("card:") for f in PHASING_FEATURES if f.startswith("card:"))),
    ),
    # Auras and Equipment (issue 12 items 5-6): attach effects and type changes (704.5n), with
    # the cards that equip, grant or regenerate their host.
    *(
        (prefix, ("attach", "change-type"), (), _ATTACH_CARDS)
        for prefix in ("attach.", "sba.equipment")
    ),
    # An ability an Aura gives its creature (613.1f): a pass of its own (the last matching
    # prefix wins), so the walks of the other attach clauses are what they were.
    ("attach.granted-ability", ("attach",), (), ("Grizzly Bears", "Skeletal Grimace")),
    # Issue 13 item 4: "Regenerate target creature" on a permanent, and targets whose combat
    # or tap status a regeneration in response makes illegal (Kill Shot, Asphyxiate).
    ("stack.ability-target", (), (), ("Suture Spirit", "Grizzly Bears")),
    ("stack.target-status", (), _spells_of(TARGETING_FEATURES), ("Horned Troll", "Hill Giant")),
    # Issue 13 item 3: Niall Silvain's {T} cost,
    ("cost.", (), (), ("Niall Silvain", "Grizzly Bears")),
    # Counting what was destroyed (issue 13 item 7): Fumigate, and Disintegrate at a creature.
    ("destroy.counted", (), _spells_of(COUNTED_FEATURES), ()),
    ("cant-regen.damage-target", (), _spells_of(COUNTED_FEATURES), ()),
    # and a "Sacrifice this" cost (Vigilant Martyr's; a pass of its own, the last match wins)
    ("cost.sacrifice", (), (), ("Vigilant Martyr", "Grizzly Bears")),
    # and "Sacrifice a creature" (Dark Privilege's, on the Bears; a pass of its own too)
    ("cost.sacrifice-creature", (), (), ("Dark Privilege", "Grizzly Bears")),
    # Issue 13 item 5: "when this creature dies" (Onulet), with a creature beside it.
    ("trigger.dies", (), (), ("Onulet", "Grizzly Bears")),
    ("trigger.tapped", (), (), ("Soldevi Steam Beast", "Grizzly Bears")),
    # another permanent's "whenever a Merfolk you control becomes tapped"
    ("trigger.creature-tapped", (), (), ("Judge of Currents", "Merfolk Raiders")),
    # another permanent's "whenever a creature (you control / an attacking creature) dies"
    ("trigger.creature-dies", (), (), ("Zulaport Cutthroat", "Grizzly Bears")),
    ("trigger.attacking-dies", (), (), ("Kardur, Doomscourge", "Grizzly Bears")),
    # Issue 13 item 2: Fecundity's "that creature's controller may draw a card", and the
    # draws it makes (a start with a card that draws is given libraries, ``draw_start``)
    ("trigger.dies-draw", (), (), ("Fecundity", "Grizzly Bears")),
    ("draw.", (), (), ("Fecundity", "Grizzly Bears")),
    # and Thought Scour's mill (its walks' starts get libraries, ``draw_start``), and Soldevi
    # Sentry's rider, a draw named to the opponent of the shield's creator
    ("mill.", (), _spells_of(LIBRARY_FEATURES), ()),
    ("regen.rider.opponent-draws", (), (), ("Soldevi Sentry", "Grizzly Bears")),
    # Issue 13 item 1: Counterspell, with a spell to counter ("Regenerate target creature")
    # and a creature for it (701.6a)
    ("stack.counter", (), ("Regenerate", *_spells_of(COUNTER_FEATURES)), ("Horned Troll",)),
    # and a Basilisk's "destroy that creature at end of combat" (603.7), with a regenerator.
    ("trigger.eoc-destroy", (), (), ("Thicket Basilisk", "Drudge Skeletons")),
    # Issue 13 item 6: Disintegrate's "if it would die this turn, exile it instead".
    ("replace.exile-instead", (), _spells_of(COUNTED_FEATURES), ()),
    # and Pyramids' "remove all damage instead" at an animated Spawning Pool.
    ("replace.remove-damage", (), (), ("Spawning Pool", "Pyramids")),
    # Go-Shintai of Hidden Cruelty's end-step ability and its reflexive trigger (603.12), with
    # a creature of toughness 1 to target (one pass for the three clauses).
    *(
        (prefix, (), (), ("Go-Shintai of Hidden Cruelty", "Drudge Skeletons"))
        for prefix in ("trigger.end-step", "trigger.reflexive", "stack.trigger-target")
    ),
)


def goal_clause(goal: str) -> str:
    return goal.split("@", 1)[0]


# One step of a reference run: the state before it and the events it made.
Trail = Sequence[tuple[GameState, Sequence[Event]]]


def replayed(case: Case, rules: Rules = CORRECT) -> list[tuple[GameState, StepResult]]:
    """The reference run of ``case``: each step's state before it and its result (an action
    the engine refuses is left out, as a player's refused action changes nothing)."""
    state = case.start.build()
    out: list[tuple[GameState, StepResult]] = []
    for action in case.actions:
        try:
            res = step(state, action, rules)
        except EngineError:
            continue
        out.append((state, res))
        state = res.state
    return out


def reached_goals(case: Case, rules: Rules = CORRECT) -> dict[str, None]:
    """Goals (clauses and clause@context) the reference run of ``case`` reaches, in order."""
    return goals_of_trail([(before, res.events) for before, res in replayed(case, rules)])


def goals_of_trail(trail: Trail) -> dict[str, None]:
    """``reached_goals`` of a run already made (a walk records its steps as it draws them,
    ``generate.Walk.trail``, so the search does not run them again)."""
    out: dict[str, None] = {}
    seen: dict[str, set[str]] = {}
    for state, events in trail:
        handles = state.setup.handles
        now: list[tuple[str, str]] = []
        for e in events:
            out.setdefault(e.clause, None)
            if e.subject is None or e.subject not in handles:
                continue
            for context in _contexts(state, e.subject, e.clause, seen):
                out.setdefault(f"{e.clause}@{context}", None)
            now.append((e.subject, e.clause))
        for subject, clause in now:
            seen.setdefault(subject, set()).add(clause)
    return out


def _contexts(state: GameState, handle: str, clause: str, seen: dict[str, set[str]]) -> list[str]:
    slot = state.setup.slot_of(handle)
    card = state.cards[slot]
    out = []
    if card.on_battlefield and card.active_shields:
        out.append("shielded")
    if card.on_battlefield and card.shield_counters:
        out.append("countered")
    if card.on_battlefield and controller(card) != state.setup.owners[slot]:
        out.append("borrowed")
    if card.on_battlefield and card.cant_regen:
        out.append("unregenerable")
    if clause in seen.get(handle, ()):
        out.append("again")
    return out


@dataclass(frozen=True)
class WitnessSet:
    cases: tuple[tuple[str, Case], ...]  # (goal, witness): clauses in catalog order, then contexts
    missing: tuple[str, ...]  # catalog clauses with no witness within the budget
    walks: int
    seed: int


def search(
    required: Iterable[str],
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    patience: int = DEFAULT_PATIENCE,
    max_steps: int = DEFAULT_STEPS,
    progress: Callable[[int, int], None] | None = None,
    extra_effects: tuple[str, ...] = (),
    spells: tuple[str, ...] = (),
    cards: tuple[str, ...] = (),
) -> tuple[dict[str, Case], int]:
    """Random walks until each required clause is reached and ``patience`` walks in a row
    found no new goal (or the budget runs out). Returns the first witness of every goal.
    ``extra_effects``: effect kinds the walks use besides those a random case draws, and
    ``spells`` the only spells they cast (their walks are seeded apart, so the other walks stay
    as they were); ``cards``: built-in cards their starts may use besides the swarm's."""
    left = set(required)
    found: dict[str, Case] = {}
    walks = last_new = 0
    extra = (*extra_effects, *spells, *cards)
    tag = f"{seed}:" + "+".join(extra) + ":" if extra else f"{seed}:"
    for walks in range(1, budget + 1):
        rng = random.Random(f"{tag}{walks}")
        case, walk = draw_case(
            RandomChooser(rng),
            f"walk-{seed}-{walks}",
            f"walk:seed={seed}#{walks}",
            max_steps,
            extra_effects=extra_effects,
            spells=spells,
            cards=cards,
        )
        for goal in _walk_goals(case, walk):
            if goal not in found:
                found[goal] = case
                last_new = walks
        left -= found.keys()
        if progress is not None:
            progress(walks, budget)
        if not left and walks - last_new >= patience:
            break
    return found, walks


def _walk_goals(case: Case, walk: Walk) -> dict[str, None]:
    """``reached_goals(case)`` for a case ``draw_case`` drew with no corpus: the walk's own
    steps (recorded as it ran them, with the correct rules) and then the settling tail, which
    is all the case holds besides; replaying the whole case again was a third of the search.
    Only for cases drawn without a corpus (``search`` passes none): a case that continues a
    corpus case starts with that case's actions, which the walk did not record. The check
    below (the case begins with the walk's actions, else the case is replayed whole) is a
    cheap guard for that, not a proof of it."""
    n = len(walk.actions)
    if case.actions[:n] != tuple(walk.actions):
        return reached_goals(case)
    trail: list[tuple[GameState, Sequence[Event]]] = list(walk.trail)
    state = walk.state
    for action in case.actions[n:]:
        try:
            res = step(state, action)
        except EngineError:
            continue
        trail.append((state, res.events))
        state = res.state
    return goals_of_trail(trail)


def _order(goals: Iterable[str], ids: list[str]) -> list[str]:
    rank = {c: i for i, c in enumerate(ids)}
    return sorted(goals, key=lambda g: (rank.get(goal_clause(g), len(ids)), "@" in g, g))


@lru_cache(maxsize=4)
def clause_witnesses(
    seed: int = 0,
    budget: int = DEFAULT_BUDGET,
    patience: int = DEFAULT_PATIENCE,
    max_steps: int = DEFAULT_STEPS,
) -> WitnessSet:
    """Shrunk witnesses for every goal found (cached per process: it is deterministic)."""
    ids = list(catalog().clauses)
    later = {
        c: (kinds, spells, cards)
        for c in ids
        for prefix, kinds, spells, cards in LATER
        if c.startswith(prefix)
    }
    found, walks = search([c for c in ids if c not in later], seed, budget, patience, max_steps)
    for kinds, spells, cards in dict.fromkeys(later.values()):
        wanted = [c for c, k in later.items() if k == (kinds, spells, cards)]
        more, extra = search(
            wanted,
            seed,
            budget,
            patience // 10,
            max_steps,
            extra_effects=kinds,
            spells=spells,
            cards=cards,
        )
        found.update({g: c for g, c in more.items() if goal_clause(g) in wanted})
        walks += extra
    cases: list[tuple[str, Case]] = []
    for goal in _order((g for g in found if goal_clause(g) in catalog()), ids):

        def reaches(c: Case, goal: str = goal) -> bool:
            return goal in reached_goals(c)

        small, _ = shrink(found[goal], reaches, budget=400)
        end = small.start.build()
        for action in small.actions:
            end = step(end, action).state
        tail = tuple(settle(end))
        name = "witness-" + goal.replace(".", "-").replace("@", "-at-")
        clause = goal_clause(goal)
        cases.append(
            (
                goal,
                replace(
                    small,
                    actions=small.actions + tail,
                    name=name,
                    origin=f"witness:{goal}",
                    clauses=(clause,),
                ),
            )
        )
    missing = tuple(c for c in ids if c not in found)
    return WitnessSet(tuple(cases), missing, walks, seed)
