"""The per-permanent abstraction: what one step can do to one permanent, whatever else exists.

The invariants of the catalog are proved for any number of permanents on this abstraction
(``anyn.py``). It keeps, for one permanent x, the fields the invariants read and the step
outputs about x; a few game fields once for all permanents (the *global record*, below);
everything else, and every other permanent, is *havocked*: it appears only as free inputs of
the rules that can touch x.

What it keeps (a *local record*): zone, incarnation ``gen``, tapped, damage, the deathtouch
record, "can't be regenerated this turn", +1/+1, -1/-1 and shield counters, current toughness,
current indestructible and creature type, in combat, blocked, the slot x is attached to and
whether that is a creature on the battlefield (``host_ok``), whether it is phased out (702.26b:
then it is in the battlefield zone but not "on the battlefield" for any rule but cleanup and
the untap step's phasing), the ghost counters (shields made,
destructions, and how each destruction was replaced), and ``scope.shields`` shield slots
(present, used, rider). Printed and never changing: x's slot, creature, Aura, static
regeneration, printed toughness and indestructible, damage trigger, its own animation, the
+1/+1 counters it enters with. Not kept: controller, summoning sickness, power, blocking
partners, the objects on the stack, players' life, hands and libraries (counts of the player,
not of any permanent; 704.5b's record of a draw from an empty library reaches the record only
through the global ``player_sba``, below), the graveyards (x's place in its owner's,
``gy_pos``: no invariant reads it, and it depends on every other card put there).

How one step acts on x: the engine's order, as a chain of *events* on x (each a relation
between two records plus output increments):

1. an **effect phase** decided by the action kind: nothing, or one of make-a-shield, damage,
   one or two destructions ``D`` (two: an Aura with umbra armor destroyed for its host after
   being destroyed itself and regenerated), leave (sacrifice, exile), flicker, control change,
   toughness change, counters, keyword change, "can't be regenerated", phasing out, cleanup
   effects then maybe the untap step (its phasing, 502.1, then untap), untap, end of combat,
   attacking, blocking, paying a {T} cost or being sacrificed to pay a cost (activate). (A
   control change may also untap x and give it keywords: Act of Treason.) A pass may resolve
   any spell or ability or start the next step, so it offers all of them: a Basilisk's
   delayed "destroy it at end of combat" (603.7, 511.2) is one of them, a destruction of x
   as its trigger resolves; the record keeps no such trigger, since it only waits (declaring
   blockers and a regeneration leave it, a new object drops it, none of them touching a
   field of the record). Another permanent's "whenever a creature (you control / an
   attacking creature) dies" (Zulaport Cutthroat, Kardur) needs nothing either, although it
   relates two permanents: the dying one's death is its leaving (a new object, here already),
   the watcher's record is not touched (its trigger only waits, counted by the global
   record's free number of abilities that triggered), and the drain changes players' life,
   which no record keeps; Fecundity's "that creature's controller may draw a card" likewise
   (its draw changes a hand and a library, which no record keeps), and so do a mill (701.17a:
   a library and a graveyard's count of groups, the players') and the draw of Thought Scour.
   Counterspell (701.6a) needs nothing either: countering removes a spell from the stack and
   puts it into its owner's graveyard (a count of groups, the players', and the stack, which
   no record keeps), and none of the countered spell's effect happens, so for x the pass that
   resolves a Counterspell is the effect phase "nothing", which a pass already offers (a
   countered Regenerate is a shield of x not made, a countered Wrath of God a destruction of x
   not done); the spell it counters can touch x only by resolving, which it then never does.
   Soldevi Sentry's "when it regenerates this way, that player may draw a card" is a rider
   shield of x like Matopi Golem's: its use is one of x's riders (the ``riders`` output), and
   what its trigger does is a draw, a player's. Go-Shintai of Hidden Cruelty's end-step
   ability and the reflexive trigger its payment makes (603.12) need nothing either: the
   first only waits and, resolving, touches no permanent; the second's target is chosen as it
   goes on the stack (603.3d), which changes no field of the record, and its resolution is a
   destruction of x, which a pass already offers; that it may be removed for want of a legal
   target is the global record's (``removed``, 603.3d). A status target (Kill Shot's "target
   attacking creature", Asphyxiate's "target untapped creature", re-checked as the spell
   resolves, 608.2b) needs nothing either: the check reads x's ``in_combat`` and ``tapped``,
   both kept, yet it only decides between a destruction of x and nothing, and the pass that
   resolves the spell offers both whatever x's status (whether x is among the targets is
   already a free input). Soldevi Steam Beast's "whenever this creature becomes tapped"
   (603.2e) needs nothing either: every way x goes from untapped to tapped is already an
   event here (attacking, a {T} cost, a regeneration; ``other_taps`` and ``regen_taps``
   count them), the trigger only waits (one of the global record's free number of triggered
   abilities), and its effect is an opponent's life, which no record keeps. Judge of
   Currents' "whenever a Merfolk you control becomes tapped, you may gain 1 life" (603.2e)
   relates two permanents and needs nothing either: the tapped one's record changes only as
   every tap already changes it, the watcher's record is not touched (its trigger only
   waits, one of the global record's free number of abilities that triggered), and the life
   it may gain is a player's, which no record keeps; the answer to its "may" (608.2d, the
   pass's ``decline``) changes that life only, so it needs nothing either.
2. for the kinds that end by giving priority (pass, cast, activate, declarations, damage
   assignment, and the SBA check itself), a **state-based-action phase** of two events, each
   nothing, a removal (toughness 0 or less, an Aura), a destruction ``D`` (lethal damage,
   deathtouch, or umbra armor for its host) or counter annihilation; the deathtouch record
   may be cleared. If x is a creature with toughness 0 or less, the first event removes it
   (704.5f is checked before 704.5g/h, which need toughness above 0).

``D`` is 701.8 with its replacements, for x: nothing happens if x is gone or indestructible
(702.12b); otherwise it counts a destruction and exactly one applicable effect replaces it:
an unused shield or static regeneration unless "can't be regenerated" covers it (the rider
is a free input; this-turn comes from x), umbra armor (free input: an Aura of x has it;
then x's damage is removed and its toughness may change, the Aura being gone), a shield
counter, a Pyramids effect (free input: it removes x's damage only); if none applies, x is
destroyed (a new object in the graveyard, or in exile when
"if it would die this turn, exile it instead" applies to it: a free input, 614.6).

Why it is sound for any number of permanents: every way another permanent influences x in
the engine goes through a free input here (whether x is among the targets or the recipients,
how much damage, the rider, whether an umbra Aura protects x, toughness bonuses from
attachments, whether x's controller is the active player at untap). So the projection of any
engine step onto x, for any number of permanents, is a chain of these events. The game
around the permanents has its own step (``global_step``) and three links tie them: the cleanup
actions happen to every permanent at once, priority is given only when no permanent has a
state-based action pending (``Link``), and an attachment stays on its host unless one of them
left (``attachment_link``, stated for every two permanents). ``tests/checks/test_anyn.py``
checks all of it on engine runs and scenarios (every step, every card, the game and every
pair of cards, with a solver choosing the free inputs), and a violation of that test is a
hole in this abstraction, not in the rules. The abstraction is for the correct rules only:
mutants are checked on the bounded encoding, and a mutant's run that breaks an invariant
proved here must leave the abstraction (tested).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.encoding.outputs import CARD_FIELDS as OUTPUT_FIELDS
from regen_model.encoding.outputs import StepOutputs
from regen_model.model import derived
from regen_model.model.cards import TriggerEffect
from regen_model.model.enums import Attachment, Keyword, Rider, Step, Zone, ordinal
from regen_model.model.events import Event as EngineEvent
from regen_model.model.events import EventKind
from regen_model.model.state import GameState

Z3Ref = Any

BF = ordinal(Zone.BATTLEFIELD)
GY = ordinal(Zone.GRAVEYARD)
EX = ordinal(Zone.EXILE)
GAIN_CONTROL = ordinal(Rider.GAIN_CONTROL)
# the riders that trigger when their shield is used (regen.rider.trigger, Matopi Golem and
# Skeleton Scavengers; regen.rider.opponent-draws, Soldevi Sentry)
TRIGGERED_RIDERS = (
    ordinal(Rider.MINUS_COUNTER),
    ordinal(Rider.PLUS_COUNTER),
    ordinal(Rider.OPPONENT_MAY_DRAW),
)
MAX_RIDER = len(Rider) - 1

INTS = (
    "zone",
    "gen",
    "damage",
    "plus",
    "minus",
    "shield_counters",
    "toughness",
    "shields_made",
    "destructions",
    "by_shield",
    "by_static",
    "by_other",
    "attached_to",  # the slot of the permanent it is attached to, or -1 (attached to nothing)
)
BOOLS = (
    "tapped",
    "deathtouched",
    "cant_regen",
    "indestructible",
    "in_combat",
    "blocked",
    "creature",  # a creature now (613.1d: type changes until end of turn)
    "host_ok",  # attached to a creature on the battlefield (what keeps an Aura legal)
    "phased_out",  # 702.26b: on the battlefield, treated as though it does not exist
    "equipment",  # printed: it is an Equipment (never changes; 704.5n, ``attachment_link``)
)
GHOST = ("shields_made", "destructions", "by_shield", "by_static", "by_other")
STATIC_INTS = ("trigger", "printed_toughness", "enters_plus", "slot")
STATIC_BOOLS = ("printed_creature", "static_regen", "printed_indestructible", "animates", "aura")
# ``equipment`` is kept in the record (not among the statics, which the pair link reads for
# the host only): whether x is an Equipment (704.5n unattaches it, 301.5c).

SBA_KINDS = frozenset(
    {
        "check-sba",
        "pass",
        "cast",
        "activate",
        "declare-attackers",
        "declare-blockers",
        "order-blockers",
        "assign-combat-damage",
    }
)


def record_fields(shields: int) -> tuple[list[str], list[str]]:
    """Integer and boolean field names of a local record with ``shields`` shield slots."""
    ints = [*INTS, *(f"rider{j}" for j in range(shields))]
    bools = [
        *BOOLS,
        *(f"present{j}" for j in range(shields)),
        *(f"used{j}" for j in range(shields)),
    ]
    return ints, bools


@dataclass(frozen=True)
class Rec:
    """One permanent's local record at one point of a step: field name -> Z3 term."""

    v: dict[str, Z3Ref]
    shields: int

    def __getitem__(self, name: str) -> Z3Ref:
        return self.v[name]

    def on_bf(self) -> Z3Ref:
        """On the battlefield and phased in: what the game sees (``Card.on_battlefield``)."""
        return z3.And(self.v["zone"] == BF, z3.Not(self.v["phased_out"]))

    def in_zone(self) -> Z3Ref:
        """In the battlefield zone, phased in or out (cleanup and the untap step see it)."""
        return self.v["zone"] == BF


Fresh = Callable[[str, Any], Z3Ref]  # (name, sort) -> a free input / intermediate term


def _prefixed(fresh: Fresh, prefix: str) -> Fresh:
    """``fresh`` with names under ``prefix`` (each event and record gets its own inputs)."""

    def named(name: str, sort: Any) -> Z3Ref:
        return fresh(f"{prefix}.{name}", sort)

    return named


@dataclass(frozen=True)
class Statics:
    v: dict[str, Z3Ref]

    def __getitem__(self, name: str) -> Z3Ref:
        return self.v[name]


def make_record(shields: int, term: Callable[[str, Any], Z3Ref]) -> Rec:
    ints, bools = record_fields(shields)
    v = {n: term(n, z3.IntSort()) for n in ints}
    v.update({n: term(n, z3.BoolSort()) for n in bools})
    return Rec(v, shields)


def make_statics(term: Callable[[str, Any], Z3Ref]) -> Statics:
    v = {n: term(n, z3.IntSort()) for n in STATIC_INTS}
    v.update({n: term(n, z3.BoolSort()) for n in STATIC_BOOLS})
    return Statics(v)


def make_outputs(term: Callable[[str, Any], Z3Ref]) -> dict[str, Z3Ref]:
    return {n: term(n, z3.IntSort()) for n in OUTPUT_FIELDS}


def pending(r: Rec, st: Statics) -> Z3Ref:
    """A state-based action would be performed on x now (704.5f-h, m, q; exactly the
    per-card part of ``model.derived.sba_pending``)."""
    cob = z3.And(r["creature"], r.on_bf())
    t = r["toughness"]
    return z3.Or(
        z3.And(cob, t <= 0),
        z3.And(cob, r["damage"] > 0, t > 0, r["damage"] >= t, z3.Not(r["indestructible"])),
        z3.And(r["deathtouched"], cob, t > 0, z3.Not(r["indestructible"])),
        z3.And(r.on_bf(), st["aura"], z3.Not(r["host_ok"])),
        z3.And(r.on_bf(), r["equipment"], r["attached_to"] >= 0, z3.Not(r["host_ok"])),  # 704.5n
        z3.And(r.on_bf(), r["plus"] > 0, r["minus"] > 0),
    )


# --- the game around the permanents --------------------------------------------------------
#
# A few game fields are kept once for all permanents (the *global record*): the step and the
# turn, the sizes of the stack and of the waiting triggers, and whether 704.5a/c would make a
# player lose. A step relates them by ``global_step`` and ties every permanent's events to
# them where the rules do (``Link``); one permanent's attachments are tied to another
# permanent's step by ``attachment_link``.

GLOBAL_INTS = ("step", "turn", "stack_size", "pending_size")
# 704.5a/b/c: some player who has not lost would lose now (0 life, a draw from an empty
# library since the last check, 10 poison): free but for the loop and the start, so any hand
# and library sizes are covered without keeping them
GLOBAL_BOOLS = ("player_sba",)
# Step outputs about the whole game: priority given at the end; objects put on the stack by
# casting or activating (or pre-M10 combat damage); objects taken off it by resolving;
# abilities that triggered (put among the waiting triggers), and how many of them are damage
# triggers (the total over every permanent of its ``damage_triggers`` output); abilities
# removed as they would go on the stack, for want of a legal target (603.3d: a reflexive
# trigger, which chooses its target only then); spells countered by the resolving object
# (701.6a: Counterspell takes its target off the stack with it).
GLOBAL_OUTPUT_INTS = (
    "pushed",
    "resolved",
    "triggered",
    "damage_triggers_total",
    "removed",
    "countered",
)
# Per-permanent step outputs whose total over every permanent the global record keeps.
TOTALS = {"damage_triggers": "damage_triggers_total"}
CLEANUP_STEP = ordinal(Step.CLEANUP)


def make_global(term: Callable[[str, Any], Z3Ref]) -> dict[str, Z3Ref]:
    v = {n: term(n, z3.IntSort()) for n in GLOBAL_INTS}
    v.update({n: term(n, z3.BoolSort()) for n in GLOBAL_BOOLS})
    return v


def make_global_outputs(term: Callable[[str, Any], Z3Ref]) -> dict[str, Z3Ref]:
    v = {n: term(n, z3.IntSort()) for n in GLOBAL_OUTPUT_INTS}
    v["priority_given"] = term("priority_given", z3.BoolSort())
    return v


def global_domain(g: dict[str, Z3Ref]) -> list[Z3Ref]:
    return [
        g["turn"] >= 1,
        g["step"] >= 0,
        g["step"] < len(Step),
        g["stack_size"] >= 0,
        g["pending_size"] >= 0,
    ]


def global_init(g: dict[str, Z3Ref]) -> list[Z3Ref]:
    """A legal start (as ``encoding.system.legal_start``): turn 1, nothing on the stack or
    waiting, no player about to lose."""
    return [
        g["turn"] == 1,
        g["stack_size"] == 0,
        g["pending_size"] == 0,
        z3.Not(g["player_sba"]),
    ]


def cleaned(kind: str, g0: dict[str, Z3Ref], g1: dict[str, Z3Ref]) -> Z3Ref:
    """The step performs the cleanup step's actions (514.2) on every permanent: a cleanup
    action, or a pass that begins a cleanup step or a new turn (``inv.cleanup.ends-this-turn``
    reads the same condition)."""
    if kind == "cleanup":
        return z3.BoolVal(True)
    return z3.Or(
        z3.And(g1["step"] == CLEANUP_STEP, g0["step"] != CLEANUP_STEP),
        g1["turn"] != g0["turn"],
    )


PUSHING_KINDS = frozenset({"cast", "activate", "assign-combat-damage", "pass"})


def global_step(
    kind: str, g0: dict[str, Z3Ref], g1: dict[str, Z3Ref], gout: dict[str, Z3Ref]
) -> list[Part]:
    """The game around the permanents in one step of ``kind``:

    * only passing priority ends a step (500.2) or a turn;
    * only the kinds that end by running the state-based-action loop give priority, and the
      loop ends only when no action is pending (704.3): no player is about to lose then (the
      permanents' part is in ``step``, through ``Link``);
    * the stack and the waiting triggers together change only by the abilities that
      triggered (603.2), the one object casting, activating or pre-M10 combat damage puts on
      the stack, and the one object a pass may resolve (608.2: the top one, so only from a
      stack that holds one); a trigger moving from waiting onto the stack changes neither
      total, and nothing else removes one (603.2, 614.8: a triggered ability stays when its
      source regenerates or leaves) but 603.3d: a trigger
      that chooses its target only as it goes on the stack (a reflexive trigger, 603.12) is
      removed when none is legal; such a trigger triggered in the same step (it is made by
      the resolution of its parent, and the waiting triggers go on the stack before the step
      ends), and it is not a damage trigger; and 701.6a: the object a pass resolves may be a
      counter, which takes the one spell it counters off the stack too (the step output
      ``countered``, which the invariants read as ``countered()``: at most the one object
      resolved; that the stack then held two, 115.1, no invariant needs, so it is left out);
    * every damage trigger is an ability that triggered."""
    parts: list[Part] = []
    if kind != "pass":
        parts.append(("turn.steps", z3.And(g1["step"] == g0["step"], g1["turn"] == g0["turn"])))
    given = gout["priority_given"]
    if kind in SBA_KINDS:
        parts.append(("sba.loop", z3.Implies(given, z3.Not(g1["player_sba"]))))
    else:
        parts.append(("priority.receive", z3.Not(given)))
    pushed, resolved = gout["pushed"], gout["resolved"]
    parts += [
        (
            "stack.triggers",
            g1["stack_size"] + g1["pending_size"]
            == g0["stack_size"]
            + g0["pending_size"]
            + gout["triggered"]
            + pushed
            - resolved
            - gout["removed"]
            - gout["countered"],
        ),
        (
            "stack.counter",
            # 701.6a: only a resolving counter counters, one spell
            z3.And(gout["countered"] >= 0, gout["countered"] <= resolved),
        ),
        (
            "stack.trigger-target",
            z3.And(
                gout["removed"] >= 0,
                gout["removed"] <= gout["triggered"] - gout["damage_triggers_total"],
            ),
        ),
        ("stack.cast", z3.And(pushed >= 0, pushed <= (1 if kind in PUSHING_KINDS else 0))),
        (
            "stack.resolve",
            # 608.2, 500.2: only a pass resolves, the top object of a stack that has one
            z3.And(
                resolved >= 0,
                resolved <= (1 if kind == "pass" else 0),
                z3.Implies(resolved > 0, g0["stack_size"] >= 1),
            ),
        ),
        (
            "damage.trigger",
            z3.And(
                gout["damage_triggers_total"] >= 0,
                gout["damage_triggers_total"] <= gout["triggered"],
            ),
        ),
    ]
    return parts


@dataclass(frozen=True)
class Link:
    """What ties one permanent's step to the game's: the step performs the cleanup actions
    (``cleaned``), priority is given at the end."""

    cleans: Z3Ref
    priority_given: Z3Ref


def attachment_link(
    a0: Rec,
    a1: Rec,
    host: Statics,
    host_out: dict[str, Z3Ref],
    a_out: dict[str, Z3Ref],
    host1: Rec,
) -> Part:
    """Permanent a, attached to ``host`` before a step, is still attached to it after unless
    a left itself (a new object, 400.7), the host left the battlefield in the step
    (``zones.move_zone`` unattaches what was attached to it), a was attached to another
    permanent (701.3a: an attach effect or equip, output ``attached``), or a is an Equipment
    and the host is no creature on the battlefield after it (704.5n): regeneration is no
    zone change (701.19a, 614.8), and nothing else moves an attachment."""
    stays = z3.And(
        a0["attached_to"] == host["slot"],
        a1["gen"] == a0["gen"],
        host_out["left"] == 0,
        a_out["attached"] == 0,
        z3.Or(z3.Not(a0["equipment"]), z3.And(host1["creature"], host1.on_bf())),
    )
    return ("regen.same-object", z3.Implies(stays, a1["attached_to"] == host["slot"]))


def domain(r: Rec) -> list[Z3Ref]:
    out = [
        z3.Or(r["zone"] == BF, r["zone"] == GY, r["zone"] == EX),
        r["gen"] >= 0,
        r["damage"] >= 0,
        r["plus"] >= 0,
        r["minus"] >= 0,
        r["shield_counters"] >= 0,
        *[r[g] >= 0 for g in GHOST],
        r["attached_to"] >= -1,
        z3.Implies(r["host_ok"], r["attached_to"] >= 0),
        # 702.26b, 506.4: phased out only on the battlefield, and out of combat
        z3.Implies(
            r["phased_out"], z3.And(r["zone"] == BF, z3.Not(r["in_combat"]), z3.Not(r["blocked"]))
        ),
    ]
    for j in range(r.shields):
        out += [
            r[f"rider{j}"] >= 0,
            r[f"rider{j}"] <= MAX_RIDER,
            z3.Implies(
                z3.Not(r[f"present{j}"]), z3.And(z3.Not(r[f"used{j}"]), r[f"rider{j}"] == 0)
            ),
        ]
        if j:
            out.append(z3.Implies(r[f"present{j}"], r[f"present{j - 1}"]))
    return out


def static_domain(s: Statics) -> list[Z3Ref]:
    """Printed cards the scope allows (as ``encoding.frame.Statics.domain``): only creatures
    have static regeneration or damage triggers."""
    return [
        s["trigger"] >= 0,
        s["trigger"] <= 2,
        s["enters_plus"] >= 0,
        s["slot"] >= 0,
        z3.Implies(
            z3.Not(s["printed_creature"]),
            z3.And(z3.Not(s["static_regen"]), s["trigger"] == 0, s["enters_plus"] == 0),
        ),
        # an Aura is never a creature: not printed as one, and no animation of its own
        z3.Implies(s["aura"], z3.And(z3.Not(s["printed_creature"]), z3.Not(s["animates"]))),
    ]


def init(r: Rec) -> list[Z3Ref]:
    """A legal start, for one permanent: its ghost counters agree with the shields it has
    (as ``model.build.make_state`` sets them); everything else is free within the domain."""
    present = [z3.If(r[f"present{j}"], 1, 0) for j in range(r.shields)]
    used = [z3.If(r[f"used{j}"], 1, 0) for j in range(r.shields)]
    return [
        r["gen"] == 0,
        r["shields_made"] == z3.Sum(*present) if present else r["shields_made"] == 0,
        r["by_shield"] == z3.Sum(*used) if used else r["by_shield"] == 0,
        r["destructions"] == r["by_shield"],
        r["by_static"] == 0,
        r["by_other"] == 0,
    ]


# --- events --------------------------------------------------------------------------------
#
# An event returns its constraints as (clause ID, formula) parts, so that a proof's unsat core
# names the rules it used, and its output increments.

Part = tuple[str, Z3Ref]
Delta = dict[str, Z3Ref]  # output increments of one event (missing: 0)
Effect = tuple[list[Part], Delta]
FRAME = "frame"  # "nothing else changes" (an internal label)


def _same(a: Rec, b: Rec, *, but: Iterable[str] = ()) -> Part:
    skip = set(but)
    return FRAME, z3.And(*[b.v[k] == a.v[k] for k in a.v if k not in skip])


def _shield_keys(shields: int) -> list[str]:
    return [f"{p}{j}" for j in range(shields) for p in ("present", "used", "rider")]


def nothing(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    return [_same(a, b)], {}


def new_object(a: Rec, b: Rec, st: Statics, zone: Z3Ref, gen_step: int) -> list[Part]:
    """400.7: a new object with nothing of the old one (``zones.move_zone``); on the
    battlefield with the +1/+1 counters it enters with (614.1c)."""
    plus = z3.If(zone == BF, st["enters_plus"], 0)
    fresh_fields = [
        b["zone"] == zone,
        b["gen"] == a["gen"] + gen_step,
        z3.Not(b["tapped"]),
        b["damage"] == 0,
        z3.Not(b["deathtouched"]),
        z3.Not(b["cant_regen"]),
        b["plus"] == plus,
        b["minus"] == 0,
        b["shield_counters"] == 0,
        b["toughness"] == st["printed_toughness"] + plus,
        b["creature"] == st["printed_creature"],
        b["indestructible"] == st["printed_indestructible"],
        z3.Not(b["in_combat"]),
        z3.Not(b["blocked"]),
        b["attached_to"] == -1,
        z3.Not(b["host_ok"]),
        z3.Not(b["phased_out"]),
        b["equipment"] == a["equipment"],
        *[b[g] == 0 for g in GHOST],
    ]
    for j in range(a.shields):
        fresh_fields += [z3.Not(b[f"present{j}"]), z3.Not(b[f"used{j}"]), b[f"rider{j}"] == 0]
    return [("zone.new-object", z3.And(*fresh_fields))]


def make_shield(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """701.19a: a new unused shield in the first free slot (the scope has room for it)."""
    rider = fresh("rider", z3.IntSort())
    alts = []
    for j in range(a.shields):
        free = z3.And(z3.Not(a[f"present{j}"]), *([a[f"present{j - 1}"]] if j else []))
        alts.append(
            z3.And(
                free,
                b[f"present{j}"],
                z3.Not(b[f"used{j}"]),
                b[f"rider{j}"] == rider,
                _same(a, b, but=[f"present{j}", f"used{j}", f"rider{j}", "shields_made"])[1],
            )
        )
    made = z3.And(
        a.on_bf(),
        rider >= 0,
        rider <= MAX_RIDER,
        b["shields_made"] == a["shields_made"] + 1,
        z3.Or(*alts) if alts else z3.BoolVal(False),
    )
    return [("regen.shield.create", made)], {"shields_made": z3.IntVal(1)}


def damage(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """120.3: marked damage, -1/-1 counters (wither/infect), or prevented by shield counters
    (122.1c), possibly from several sources at once; deathtouch and "can't be regenerated"
    riders may be recorded; damage triggers may trigger (603.2)."""
    return _damage(a, b, st, fresh, riders=True)


def combat_damage(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """Combat damage (510.2): as ``damage``, but it never makes x unregenerable."""
    return _damage(a, b, st, fresh, riders=False)


def _damage(a: Rec, b: Rec, st: Statics, fresh: Fresh, *, riders: bool) -> Effect:
    dealt = (b["damage"] - a["damage"]) + (b["minus"] - a["minus"])
    triggers = fresh("triggers", z3.IntSort())
    marked = z3.And(
        a.on_bf(),
        a["creature"],
        b["damage"] >= a["damage"],
        b["minus"] >= a["minus"],
        b["shield_counters"] <= a["shield_counters"],
        b["shield_counters"] >= 0,
        b["toughness"] == a["toughness"] - (b["minus"] - a["minus"]),
        z3.Implies(a["deathtouched"], b["deathtouched"]),
        z3.Implies(a["cant_regen"], b["cant_regen"])
        if riders
        else b["cant_regen"] == a["cant_regen"],
    )
    trig = z3.And(triggers >= 0, z3.Implies(triggers > 0, z3.And(st["trigger"] != 0, dealt > 0)))
    keep = _same(
        a,
        b,
        but=["damage", "minus", "shield_counters", "toughness", "deathtouched", "cant_regen"],
    )
    return [("damage.mark", marked), ("damage.trigger", trig), keep], {
        "damage": dealt,
        "damage_triggers": triggers,
    }


def _regenerate(a: Rec, b: Rec, keep: Iterable[str]) -> list[Part]:
    """701.19a/b: remove all damage, tap, remove from combat; the same object stays."""
    return [
        ("regen.apply.remove-damage", b["damage"] == 0),
        ("regen.apply.tap", b["tapped"]),
        ("regen.apply.remove-from-combat", z3.And(z3.Not(b["in_combat"]), z3.Not(b["blocked"]))),
        (
            "regen.same-object",
            _same(a, b, but=["damage", "tapped", "in_combat", "blocked", *keep])[1],
        ),
    ]


def _when(cond: Z3Ref, parts: list[Part]) -> list[Part]:
    return [(label, z3.Implies(cond, f)) for label, f in parts]


def _select(selector: Z3Ref, alts: Sequence[Effect], label: str) -> Effect:
    """Exactly one alternative, chosen by ``selector`` (0, 1, ...); the parts of alternative
    k hold when the selector is k, and the output increments follow the selector."""
    parts: list[Part] = [(label, z3.And(selector >= 0, selector < len(alts)))]
    for k, (ps, _) in enumerate(alts):
        parts += _when(selector == k, ps)
    keys = sorted({key for _, d in alts for key in d})
    delta: Delta = {}
    for key in keys:
        term: Z3Ref = z3.IntVal(0)
        for k in reversed(range(len(alts))):
            term = z3.If(selector == k, alts[k][1].get(key, z3.IntVal(0)), term)
        delta[key] = term
    return parts, delta


def destruction(
    a: Rec,
    b: Rec,
    st: Statics,
    fresh: Fresh,
    *,
    rider: Z3Ref,
    counters_apply: Z3Ref,
    clause: str,
) -> Effect:
    """One destruction of x and the replacement that applies (see the module docstring)."""
    umbra = fresh("umbra", z3.BoolSort())
    regen_riders = fresh("riders", z3.IntSort())
    n = a.shields
    counted: Part = (clause, b["destructions"] == a["destructions"] + 1)
    taps = z3.If(a["tapped"], 0, 1)
    alive = z3.And(a.on_bf(), z3.Not(a["indestructible"]))
    alts: list[Effect] = [
        (
            [
                ("destroy.indestructible", z3.Or(z3.Not(a.on_bf()), a["indestructible"])),
                _same(a, b),
            ],
            {},
        )
    ]
    usable = []
    for j in range(n):
        usable.append(
            z3.And(a[f"present{j}"], z3.Not(a[f"used{j}"]), z3.Not(rider), z3.Not(a["cant_regen"]))
        )
        r = a[f"rider{j}"]
        riders = z3.If(
            r == GAIN_CONTROL,
            z3.And(regen_riders >= 0, regen_riders <= 1),
            regen_riders == z3.If(z3.Or(*[r == t for t in TRIGGERED_RIDERS]), 1, 0),
        )
        alts.append(
            (
                [
                    ("destroy.effect", alive),
                    counted,
                    (
                        "regen.shield.apply",
                        z3.And(
                            a[f"present{j}"],
                            z3.Not(a[f"used{j}"]),
                            b[f"used{j}"],
                            b["by_shield"] == a["by_shield"] + 1,
                        ),
                    ),
                    ("regen.cant.rider", z3.Not(rider)),
                    ("regen.cant.this-turn", z3.Not(a["cant_regen"])),
                    ("regen.rider.trigger", riders),
                    *_regenerate(a, b, [f"used{j}", "by_shield", "destructions"]),
                ],
                {
                    "regenerations": z3.IntVal(1),
                    "shields_used": z3.IntVal(1),
                    "regen_taps": taps,
                    "riders": regen_riders,
                    "would_destroy": z3.IntVal(1),
                },
            )
        )
    static_ok = z3.And(st["static_regen"], z3.Not(rider), z3.Not(a["cant_regen"]))
    alts.append(
        (
            [
                ("destroy.effect", alive),
                counted,
                ("regen.static", z3.And(st["static_regen"], b["by_static"] == a["by_static"] + 1)),
                ("regen.cant.rider", z3.Not(rider)),
                ("regen.cant.this-turn", z3.Not(a["cant_regen"])),
                *_regenerate(a, b, ["by_static", "destructions"]),
            ],
            {"static_regens": z3.IntVal(1), "regen_taps": taps, "would_destroy": z3.IntVal(1)},
        )
    )
    alts.append(
        (
            [
                ("destroy.effect", alive),
                counted,
                (
                    "replace.umbra-armor",
                    z3.And(umbra, b["damage"] == 0, b["by_other"] == a["by_other"] + 1),
                ),
                _same(a, b, but=["damage", "toughness", "by_other", "destructions"]),
            ],
            {"would_destroy": z3.IntVal(1)},
        )
    )
    counter_ok = z3.And(counters_apply, a["shield_counters"] > 0)
    alts.append(
        (
            [
                ("destroy.effect", alive),
                counted,
                (
                    "replace.shield-counter",
                    z3.And(
                        counter_ok,
                        b["shield_counters"] == a["shield_counters"] - 1,
                        b["by_other"] == a["by_other"] + 1,
                    ),
                ),
                _same(a, b, but=["shield_counters", "by_other", "destructions"]),
            ],
            {"would_destroy": z3.IntVal(1)},
        )
    )
    # Pyramids' "the next time it would be destroyed this turn, remove all damage marked on
    # it instead" (614.1a, 614.5; a free input: the record does not keep that effect): the
    # damage is removed, nothing else (no tap, no removal from combat), whatever "can't be
    # regenerated" says (701.19c)
    pyramids = fresh("pyramids", z3.BoolSort())
    alts.append(
        (
            [
                ("destroy.effect", alive),
                counted,
                (
                    "replace.remove-damage",
                    z3.And(pyramids, b["damage"] == 0, b["by_other"] == a["by_other"] + 1),
                ),
                _same(a, b, but=["damage", "by_other", "destructions"]),
            ],
            {"would_destroy": z3.IntVal(1)},
        )
    )
    none_applies = z3.And(
        *[z3.Not(u) for u in usable],
        z3.Not(static_ok),
        z3.Not(umbra),
        z3.Not(counter_ok),
        z3.Not(pyramids),
    )
    # the graveyard, or exile when "if it would die this turn, exile it instead" applies to x
    # (614.6; a free input: the record does not keep that effect)
    dest = fresh("dest", z3.IntSort())
    alts.append(
        (
            [
                ("destroy.effect", alive),
                ("replace.choice", none_applies),
                ("replace.exile-instead", z3.Or(dest == GY, dest == EX)),
                *new_object(a, b, st, dest, 1),
            ],
            {"destroyed": z3.IntVal(1), "left": z3.IntVal(1), "would_destroy": z3.IntVal(1)},
        )
    )
    return _select(fresh("outcome", z3.IntSort()), alts, "replace.choice")


def leave(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """Sacrifice, exile, 704.5f, an Aura's 704.5m: a new object elsewhere, no destruction."""
    zone = fresh("zone", z3.IntSort())
    return (
        [
            ("zone.sacrifice", z3.And(a.on_bf(), z3.Or(zone == GY, zone == EX))),
            *new_object(a, b, st, zone, 1),
        ],
        {"left": z3.IntVal(1)},
    )


def flicker(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    return (
        [("zone.exile", a.on_bf()), *new_object(a, b, st, z3.IntVal(BF), 2)],
        {"left": z3.IntVal(1), "returned": z3.IntVal(1)},
    )


def _change(clause: str, names: Sequence[str], extra: Callable[[Rec, Rec], list[Z3Ref]]) -> Any:
    def event(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
        return [(clause, z3.And(a.on_bf(), *extra(a, b))), _same(a, b, but=names)], {}

    event.__name__ = clause
    return event


control = _change(
    "control.change",
    ["in_combat", "blocked", "tapped", "indestructible"],
    lambda a, b: [
        z3.Implies(b["in_combat"], a["in_combat"]),
        z3.Implies(b["blocked"], a["blocked"]),
        z3.Implies(b["tapped"], a["tapped"]),  # Act of Treason also untaps (tap.untap)
        z3.Implies(a["indestructible"], b["indestructible"]),  # and may only grant keywords
    ],
)
retough = _change("pt.modify", ["toughness"], lambda a, b: [])
counters = _change(
    "counters.add",
    ["plus", "minus", "shield_counters", "toughness"],
    lambda a, b: [
        b["plus"] >= a["plus"],
        b["minus"] >= a["minus"],
        b["shield_counters"] >= a["shield_counters"],
        b["toughness"] == a["toughness"] + (b["plus"] - a["plus"]) - (b["minus"] - a["minus"]),
    ],
)
keyword = _change("keyword.grant", ["indestructible"], lambda a, b: [])
unregen = _change("cant-regen.make", ["cant_regen"], lambda a, b: [b["cant_regen"]])
untap = _change("turn.untap", ["tapped"], lambda a, b: [z3.Implies(b["tapped"], a["tapped"])])
end_combat = _change(
    "combat.end",
    ["in_combat", "blocked"],
    lambda a, b: [z3.Not(b["in_combat"]), z3.Not(b["blocked"])],
)
block = _change("combat.declare-blockers", ["in_combat", "blocked"], lambda a, b: [])


def retype(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """613.1d: x becomes a creature (only a printed creature or one with its own animation,
    whose base toughness the animation sets) or stops being one, which removes it from
    combat (506.4); no zone change, so everything else stays (120.6)."""
    stops = z3.And(a["creature"], z3.Not(b["creature"]))
    return [
        (
            "type.become-creature",
            z3.And(
                a.on_bf(),
                z3.Implies(b["creature"], z3.Or(st["printed_creature"], st["animates"])),
                z3.Implies(z3.Not(st["animates"]), b["toughness"] == a["toughness"]),
            ),
        ),
        (
            "type.stop-being-creature",
            z3.If(
                stops,
                z3.And(z3.Not(b["in_combat"]), z3.Not(b["blocked"])),
                z3.And(b["in_combat"] == a["in_combat"], b["blocked"] == a["blocked"]),
            ),
        ),
        _same(a, b, but=["creature", "toughness", "in_combat", "blocked"]),
    ], {}


def phase_out(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """702.26b: x phases out (directly, or with its host, 702.26g): no zone change, so it
    keeps everything (702.26d) but leaves combat (506.4)."""
    return [
        ("phasing.out", z3.And(a.on_bf(), b["phased_out"])),
        ("phasing.out", z3.And(z3.Not(b["in_combat"]), z3.Not(b["blocked"]))),
        _same(a, b, but=["phased_out", "in_combat", "blocked"]),
    ], {}


def untap_phasing(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """502.1 at the start of the untap step: x phases in (it phased out under the active
    player, a free input), or phases out (it has phasing, or its host does), or neither."""
    same = _same(a, b)[1]
    comes_in = z3.And(a.in_zone(), a["phased_out"], z3.Not(b["phased_out"]))
    goes = z3.And(a.on_bf(), b["phased_out"], z3.Not(b["in_combat"]), z3.Not(b["blocked"]))
    rest = _same(a, b, but=["phased_out", "in_combat", "blocked"])[1]
    return [
        (
            "phasing.in",
            z3.Or(same, z3.And(z3.Or(comes_in, goes), rest)),
        )
    ], {}


def attack(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    declared = z3.And(a.on_bf(), a["creature"], z3.Not(a["tapped"]), b["tapped"], b["in_combat"])
    return [("combat.declare-attackers", declared), _same(a, b, but=["tapped", "in_combat"])], {
        "other_taps": z3.IntVal(1)
    }


def cost_tap(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """601.2h, 602.2b: x pays the {T} cost of an ability it is activating (Niall Silvain's):
    it was untapped and on the battlefield, and only its tapped status changes."""
    paid = z3.And(a.on_bf(), z3.Not(a["tapped"]), b["tapped"])
    return [("cost.tap", paid), _same(a, b, but=["tapped"])], {"other_taps": z3.IntVal(1)}


def cost_sacrifice(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """601.2h, 701.21a: x pays the "Sacrifice this" cost of an ability it is activating
    (Carapace's, Vigilant Martyr's): it was on the battlefield and is a new object in the
    graveyard (400.7); the ability it leaves on the stack is no part of x."""
    return (
        [("cost.sacrifice", a.on_bf()), *new_object(a, b, st, z3.IntVal(GY), 1)],
        {"left": z3.IntVal(1)},
    )


def cost_sacrifice_creature(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """601.2h, 701.21a: x is the creature sacrificed to pay another permanent's "Sacrifice a
    creature" (Dark Privilege's): a creature on the battlefield before, a new object in the
    graveyard after (400.7); that it is its activator's is the relation's to check."""
    return (
        [
            ("cost.sacrifice-creature", z3.And(a.on_bf(), a["creature"])),
            *new_object(a, b, st, z3.IntVal(GY), 1),
        ],
        {"left": z3.IntVal(1)},
    )


def cleanup(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """514.2: damage goes, "this turn" effects end (shields, can't be regenerated, until end
    of turn changes, so toughness and keywords may change), the ghost counters restart. It
    reaches phased-out permanents too (514.2, 702.26f)."""
    n = a.shields
    on = a.in_zone()
    return [
        (
            "cleanup.simultaneous",
            z3.Implies(on, z3.And(b["damage"] == 0, *[b[g] == 0 for g in GHOST])),
        ),
        (
            "regen.shield.expire",
            z3.Implies(
                on,
                z3.And(
                    *[z3.Not(b[f"present{j}"]) for j in range(n)],
                    *[z3.Not(b[f"used{j}"]) for j in range(n)],
                    *[b[f"rider{j}"] == 0 for j in range(n)],
                ),
            ),
        ),
        ("regen.cant.this-turn", z3.Implies(on, z3.Not(b["cant_regen"]))),
        ("keyword.grant", z3.Implies(on, b["indestructible"] == st["printed_indestructible"])),
        ("type.until-end-of-turn", z3.Implies(on, b["creature"] == st["printed_creature"])),
        (
            FRAME,
            z3.If(
                on,
                _same(
                    a,
                    b,
                    but=[
                        "damage",
                        "cant_regen",
                        "toughness",
                        "indestructible",
                        "creature",
                        *GHOST,
                        *_shield_keys(n),
                    ],
                )[1],
                _same(a, b)[1],
            ),
        ),
    ], {}


def destroy_effect(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    return destruction(
        a,
        b,
        st,
        fresh,
        rider=fresh("rider_cant", z3.BoolSort()),
        counters_apply=z3.BoolVal(True),
        clause="destroy.effect",
    )


def annihilate(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    m = z3.If(a["plus"] < a["minus"], a["plus"], a["minus"])
    ok = z3.And(
        a.on_bf(),
        a["plus"] > 0,
        a["minus"] > 0,
        b["plus"] == a["plus"] - m,
        b["minus"] == a["minus"] - m,
    )
    return [("sba.counters", ok), _same(a, b, but=["plus", "minus"])], {}


def sba_leave(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    parts, d = leave(a, b, st, fresh)
    return [*parts, ("sba.toughness-zero", z3.Implies(a["creature"], a["toughness"] <= 0))], d


def sba_destroy(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """704.5g/h for a creature (lethal damage or a deathtouch record, toughness above 0; no
    rider), or umbra armor destroying x, an Aura, for its host."""
    # Shield counters replace only destruction by an effect (122.1c): the umbra-armor case
    # is one, the lethal-damage and deathtouch checks are not. Which one this is, is free.
    parts, d = destruction(
        a,
        b,
        st,
        fresh,
        rider=z3.BoolVal(False),
        counters_apply=fresh("by_effect", z3.BoolSort()),
        clause="sba.lethal-damage",
    )
    t = a["toughness"]
    lethal = z3.And(t > 0, z3.Or(z3.And(a["damage"] > 0, a["damage"] >= t), a["deathtouched"]))
    return [*parts, ("sba.lethal-damage", z3.Implies(a["creature"], lethal))], d


Event = Callable[[Rec, Rec, Statics, Fresh], Effect]


def seq(first: Event, second: Event) -> Event:
    """``first`` then ``second``, through an intermediate record."""

    def both(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
        mid = make_record(a.shields, _prefixed(fresh, "seq"))
        p1, d1 = first(a, mid, st, _prefixed(fresh, "seq1"))
        p2, d2 = second(mid, b, st, _prefixed(fresh, "seq2"))
        delta = {k: d1.get(k, z3.IntVal(0)) + d2.get(k, z3.IntVal(0)) for k in {*d1, *d2}}
        return [("scope:local", z3.And(*domain(mid))), *p1, *p2], delta

    both.__name__ = f"{first.__name__};{second.__name__}"
    return both


# A resolving spell or ability (608.2): one effect; a destruction may be followed by the
# destruction of an umbra-armor Aura that x is (the host's replacement).
def attachments(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """Another permanent attached to x may have left, moved or been attached to x (an
    Equipment destroyed, an Aura exiled, equip, an attach effect, 704.5n): x's toughness and
    the keywords attachments grant it (indestructible, 613.1f) may change while it stays on
    the battlefield. The permanent x is attached to may have left, which unattaches x
    (``zones.move_zone``), or have stopped being a creature, which unattaches an Equipment x
    (704.5n); it may have stopped or started being a creature (``host_ok`` is free).
    Printed indestructible is not an attachment's: it changes only with an until-end-of-turn
    removal, which no attachment makes. The variants below say when a grant can come or go."""
    return [
        # a phased-out x's toughness counts no phased-out Equipment: it may change too
        ("sba.aura", z3.Implies(z3.Not(a.in_zone()), b["toughness"] == a["toughness"])),
        (
            "attach.grants",
            z3.Implies(
                z3.Or(z3.Not(a.in_zone()), st["printed_indestructible"]),
                b["indestructible"] == a["indestructible"],
            ),
        ),
        (
            "zone.new-object",
            z3.Or(b["attached_to"] == a["attached_to"], b["attached_to"] == -1),
        ),
        _same(a, b, but=["toughness", "indestructible", "host_ok", "attached_to"]),
    ], {}


def attachments_losing(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """``attachments`` where nothing is attached to x, only taken away (an attachment
    destroyed, sacrificed, exiled or flickered; one that falls off in a state-based check,
    704.5m/n): x may lose a keyword an attachment granted it, but gain none."""
    parts, delta = attachments(a, b, st, fresh)
    return [
        *parts,
        ("attach.grants", z3.Implies(b["indestructible"], a["indestructible"])),
    ], delta


def attachments_kept(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """``attachments`` in a step whose effects neither attach nor remove any attachment
    (combat, casting, activating, counters, damage, ...): what they grant x is unchanged."""
    parts, delta = attachments(a, b, st, fresh)
    return [*parts, ("attach.grants", b["indestructible"] == a["indestructible"])], delta


# Which ``attachments`` event follows a kind's effects: attaching kinds may give x a keyword
# (equip resolving, an attach effect, an attachment phasing in with x); removing kinds may
# take one away; the others change nothing that attachments grant.
ATTACHING_KINDS = frozenset({"pass", "attach"})
REMOVING_KINDS = frozenset({"destroy", "sacrifice", "exile", "leave-and-return"})


def after_effects(kind: str) -> Event:
    if kind in ATTACHING_KINDS:
        return attachments
    if kind in REMOVING_KINDS:
        return attachments_losing
    return attachments_kept


def moved(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """x, an Aura or Equipment on the battlefield, is attached to another permanent (701.3a:
    an attach effect, or equip resolving): the same object, now on some creature (701.3b: it
    only moves onto a creature on the battlefield)."""
    return [
        (
            "attach.move",
            z3.And(a.on_bf(), b["attached_to"] >= 0, b["attached_to"] != a["attached_to"]),
        ),
        ("attach.move", b["host_ok"]),
        _same(a, b, but=["attached_to", "host_ok"]),
    ], {"attached": z3.IntVal(1)}


RESOLUTION: tuple[Event, ...] = (
    make_shield,
    damage,
    destroy_effect,
    seq(destroy_effect, destroy_effect),
    leave,
    flicker,
    control,
    retough,
    counters,
    unregen,
    retype,
    phase_out,
    moved,
)

# The effect phase of each action kind, as a list of phases, each a choice of events.
EFFECTS: dict[str, tuple[tuple[Event, ...], ...]] = {
    "create-shield": ((nothing, make_shield),),
    "deal-damage": ((nothing, damage),),
    # between two destructions: the first may have taken an attachment's grant (613.1f)
    "destroy": ((nothing, destroy_effect), (attachments_losing,), (nothing, destroy_effect)),
    "sacrifice": ((nothing, leave),),
    "exile": ((nothing, leave),),
    "leave-and-return": ((nothing, flicker),),
    "change-control": ((nothing, control),),
    "modify-pt": ((nothing, retough),),
    "add-counters": ((nothing, counters),),
    "grant-keyword": ((nothing, keyword),),
    "change-type": ((nothing, retype),),
    "make-unregenerable": ((nothing, unregen),),
    "attach": ((nothing, moved),),
    "check-sba": (),
    "cleanup": ((cleanup,),),
    # Passing resolves the top object, or ends the step: cleanup (514.2), then the untap step
    # of the next turn; the end of combat (511.3); a combat damage step beginning (510.2).
    # The untap step phases permanents in and out before anything untaps (502.1).
    "pass": (
        (
            nothing,
            *RESOLUTION,
            cleanup,
            seq(cleanup, untap),
            seq(cleanup, untap_phasing),
            seq(seq(cleanup, untap_phasing), untap),
            end_combat,
            combat_damage,
        ),
    ),
    "cast": (),
    # activating taps x if x pays the {T} cost of its own ability, or moves x to the
    # graveyard if x is sacrificed to pay for it (601.2h)
    "activate": ((nothing, cost_tap, cost_sacrifice, cost_sacrifice_creature),),
    "declare-attackers": ((nothing, attack),),
    "declare-blockers": ((nothing, block),),
    "order-blockers": (),
    "assign-combat-damage": ((nothing, combat_damage),),
}
SBA_PHASE: tuple[Event, ...] = (nothing, sba_leave, sba_destroy, annihilate)


def _deathtouch_reset(a: Rec, b: Rec, st: Statics, fresh: Fresh) -> Effect:
    """After a state-based-action check the deathtouch record may be cleared (704.5h)."""
    return [
        ("sba.deathtouch-reset", z3.Implies(b["deathtouched"], a["deathtouched"])),
        _same(a, b, but=["deathtouched"]),
    ], {}


def step(
    kind: str,
    pre: Rec,
    post: Rec,
    out: dict[str, Z3Ref],
    st: Statics,
    fresh: Fresh,
    link: Link | None = None,
) -> list[Part]:
    """The relation of one step of ``kind`` on x: ``pre`` -> ``post`` with outputs ``out``.

    The chain: the kind's effect phases; if there were any, other permanents may have left
    (``attachments``); for the kinds that end by giving priority, two state-based-action
    events, each followed by a possible reset of the deathtouch record; and again
    ``attachments`` at the end. With ``link``: when the step performs the cleanup actions,
    x's effect is the cleanup (514.2: every permanent at once); when it gives priority, x
    has no state-based action pending (704.3: the loop ends only then)."""
    chain: list[tuple[Event, ...]] = list(EFFECTS[kind])
    if chain:
        chain.append((after_effects(kind),))
    sba_at = len(chain) if kind in SBA_KINDS else -1
    if kind in SBA_KINDS:
        chain += [SBA_PHASE, (_deathtouch_reset,), SBA_PHASE, (_deathtouch_reset,)]
    chain.append((attachments_losing,))
    recs = [pre]
    parts: list[Part] = []
    totals: dict[str, Z3Ref] = {k: z3.IntVal(0) for k in out}
    for i, events in enumerate(chain):
        a = recs[-1]
        if i == len(chain) - 1:
            b = post
        else:
            b = make_record(pre.shields, _prefixed(fresh, f"m{i}"))
            parts.append(("scope:local", z3.And(*domain(b))))
        alts = [e(a, b, st, _prefixed(fresh, f"p{i}.e{k}")) for k, e in enumerate(events)]
        if len(alts) == 1:
            chosen, delta = alts[0]
        else:
            chosen, delta = _select(fresh(f"sel{i}", z3.IntSort()), alts, FRAME)
        parts += chosen
        for k, v in delta.items():
            totals[k] = totals[k] + v
        recs.append(b)
    if sba_at >= 0:
        a, b = recs[sba_at], recs[sba_at + 1]
        # 704.5f before 704.5g/h: a creature with toughness 0 or less is removed by the first
        # check (and nothing else happens to it then).
        parts.append(
            (
                "sba.toughness-zero",
                z3.Implies(
                    z3.And(a["creature"], a.on_bf(), a["toughness"] <= 0), z3.Not(b.on_bf())
                ),
            )
        )
    parts.append(("outputs", z3.And(*[out[k] == totals[k] for k in totals])))
    if link is not None:
        if kind == "pass":
            first = EFFECTS["pass"][0]
            cleanups = [k for k, e in enumerate(first) if e.__name__.startswith("cleanup")]
            sel = fresh("sel0", z3.IntSort())
            parts.append(
                (
                    "cleanup.simultaneous",
                    z3.Implies(link.cleans, z3.Or(*[sel == k for k in cleanups])),
                )
            )
        if kind in SBA_KINDS:
            parts.append(("sba.loop", z3.Implies(link.priority_given, z3.Not(pending(post, st)))))
    return parts


# --- the projection of an engine state onto one permanent (the soundness check) -------------


def record_values(state: GameState, slot: int, shields: int) -> dict[str, int | bool]:
    """The local record of card ``slot`` in an engine state."""
    card = state.cards[slot]
    out: dict[str, int | bool] = {
        "zone": ordinal(card.zone),
        "gen": card.gen,
        "damage": card.damage,
        "plus": card.plus,
        "minus": card.minus,
        "shield_counters": card.shield_counters,
        "toughness": derived.toughness(state, card),
        "shields_made": card.ghost.shields_made,
        "destructions": card.ghost.destructions,
        "by_shield": card.ghost.by_shield,
        "by_static": card.ghost.by_static,
        "by_other": card.ghost.by_other,
        "tapped": card.tapped,
        "deathtouched": card.deathtouched,
        "cant_regen": card.cant_regen,
        "indestructible": derived.has(state, card, Keyword.INDESTRUCTIBLE),
        "in_combat": card.in_combat,
        "blocked": card.blocked,
        "creature": derived.is_creature(state, card),
        "attached_to": -1 if card.attached_to is None else card.attached_to,
        "host_ok": card.attached_to is not None
        and derived.is_creature_on_battlefield(state, state.cards[card.attached_to]),
        "phased_out": card.phased_out is not None,
        "equipment": state.setup.templates[slot].attachment is Attachment.EQUIPMENT,
    }
    for j in range(shields):
        s = card.shields[j] if j < len(card.shields) else None
        out[f"present{j}"] = s is not None
        out[f"used{j}"] = s is not None and s.used
        out[f"rider{j}"] = ordinal(s.rider) if s is not None else 0
    return out


def static_values(state: GameState, slot: int) -> dict[str, int | bool]:
    t = state.setup.templates[slot]
    trig = t.damage_trigger
    return {
        "printed_creature": t.is_creature,
        "animates": t.animation is not None,
        "static_regen": t.static_regeneration,
        "printed_indestructible": Keyword.INDESTRUCTIBLE in t.keywords,
        "trigger": 0 if trig is None else (1 if trig.effect is TriggerEffect.GAIN_LIFE else 2),
        "printed_toughness": t.toughness,
        "enters_plus": t.enters_plus,
        "aura": t.attachment is Attachment.AURA,
        "slot": slot,
    }


def global_values(state: GameState) -> dict[str, int | bool]:
    """The global record of an engine state."""
    return {
        "step": ordinal(state.step),
        "turn": state.turn,
        "stack_size": len(state.stack),
        "pending_size": len(state.pending),
        "player_sba": any(derived.player_loses(state, p) for p in range(len(state.players))),
    }


class Conformance:
    """Checks engine steps against the abstraction (see ``check``, ``check_game`` and
    ``check_attachment``). The relation of each action kind is built once over free
    constants; each check pins them to the step's values in a pushed scope."""

    def __init__(self, shields: int) -> None:
        self.shields = shields
        self._solvers: dict[str, tuple[Any, Rec, Rec, dict[str, Z3Ref], Statics, Link]] = {}
        self._answers: dict[tuple[object, ...], bool] = {}  # a projection seen before

    def _solver(self, kind: str) -> tuple[Any, Rec, Rec, dict[str, Z3Ref], Statics, Link]:
        found = self._solvers.get(kind)
        if found is None:
            pre = make_record(self.shields, lambda n, s: z3.Const(f"pre.{n}", s))
            post = make_record(self.shields, lambda n, s: z3.Const(f"post.{n}", s))
            st = make_statics(lambda n, s: z3.Const(f"st.{n}", s))
            out = make_outputs(lambda n, s: z3.Const(f"out.{n}", s))
            link = Link(z3.Bool("link.cleans"), z3.Bool("link.priority_given"))
            solver = z3.Solver()

            def free(n: str, s: Any) -> Z3Ref:
                return z3.Const(f"free.{n}", s)

            solver.add(*[f for _, f in step(kind, pre, post, out, st, free, link)])
            found = self._solvers[kind] = (solver, pre, post, out, st, link)
        return found

    def check(
        self, kind: str, pre: GameState, outputs: StepOutputs, post: GameState, slot: int
    ) -> bool:
        """Whether the engine step ``pre -> post`` (of ``kind``), seen from card ``slot``, is
        a step of the abstraction (some choice of its free inputs reproduces it exactly),
        linked to the game around it (whether the step cleaned up, priority)."""
        solver, p, q, out, st, link = self._solver(kind)
        r0, r1 = record_values(pre, slot, self.shields), record_values(post, slot, self.shields)
        statics = static_values(pre, slot)
        outs = {k: outputs.get(k, slot) for k in out}
        cleans = self._cleans(kind, global_values(pre), global_values(post))
        key = (kind, *r0.values(), *r1.values(), *statics.values(), *outs.values(), cleans)
        key += (outputs.priority_given,)
        found = self._answers.get(key)
        if found is not None:
            return found
        eqs = _pinned(p, r0) + _pinned(q, r1)
        eqs += [st[k] == _val(v) for k, v in statics.items()]
        eqs += [out[k] == v for k, v in outs.items()]
        eqs += [link.cleans == cleans, link.priority_given == outputs.priority_given]
        solver.push()
        solver.add(*eqs)
        ok = self._answers[key] = bool(solver.check() == z3.sat)
        solver.pop()
        return ok

    def _cleans(self, kind: str, g0: dict[str, int | bool], g1: dict[str, int | bool]) -> bool:
        """Whether the step ``g0 -> g1`` of ``kind`` performs the cleanup actions; the
        same pair of game records is asked once per slot, so the answer is kept."""
        key = ("cleans", kind, *g0.items(), *g1.items())
        found = self._answers.get(key)
        if found is None:
            found = self._answers[key] = z3.is_true(
                z3.simplify(cleaned(kind, _const(g0), _const(g1)))
            )
        return found

    def check_game(
        self,
        kind: str,
        pre: GameState,
        events: Sequence[EngineEvent],
        outputs: StepOutputs,
        post: GameState,
    ) -> bool:
        """Whether the engine step, seen as the game around the permanents, is a step of
        ``global_step`` (some number of objects pushed and resolved reproduces it)."""
        gout = {
            "priority_given": z3.BoolVal(outputs.priority_given),
            "pushed": z3.Int("pushed"),
            "resolved": z3.Int("resolved"),
            "triggered": z3.IntVal(sum(1 for e in events if e.kind is EventKind.TRIGGERED)),
            "damage_triggers_total": z3.IntVal(sum(outputs.cards["damage_triggers"])),
            "removed": z3.IntVal(
                sum(
                    1
                    for e in events
                    if e.clause == "stack.trigger-target" and e.get("reason") is not None
                )
            ),
            "countered": z3.IntVal(outputs.countered),
        }
        v0, v1 = global_values(pre), global_values(post)
        key = ("game", kind, *v0.items(), *v1.items(), *map(str, gout.values()))
        found = self._answers.get(key)
        if found is None:
            solver = z3.Solver()
            solver.add(*[f for _, f in global_step(kind, _const(v0), _const(v1), gout)])
            found = self._answers[key] = bool(solver.check() == z3.sat)
        return found

    def check_attachment(
        self, pre: GameState, outputs: StepOutputs, post: GameState, a: int, host: int
    ) -> bool:
        """Whether the engine step satisfies ``attachment_link`` for card ``a`` and the card
        ``host`` (every pair of cards, attached or not, a card and itself included). Pairs
        whose values were asked before get the answer kept from then."""
        v_a0, v_a1 = record_values(pre, a, self.shields), record_values(post, a, self.shields)
        v_st, v_h1 = static_values(pre, host), record_values(post, host, self.shields)
        left, attached = outputs.get("left", host), outputs.get("attached", a)
        key: tuple[object, ...] = ("attachment", *v_a0.items(), *v_a1.items())
        key += (*v_st.items(), *v_h1.items(), left, attached)
        found = self._answers.get(key)
        if found is None:
            _, f = attachment_link(
                Rec(_const(v_a0), self.shields),
                Rec(_const(v_a1), self.shields),
                Statics(_const(v_st)),
                {"left": z3.IntVal(left)},
                {"attached": z3.IntVal(attached)},
                Rec(_const(v_h1), self.shields),
            )
            found = self._answers[key] = bool(z3.is_true(z3.simplify(f)))
        return found


def _const(values: dict[str, int | bool]) -> dict[str, Z3Ref]:
    return {k: _val(v) for k, v in values.items()}


def _val(v: int | bool) -> Z3Ref:
    return z3.BoolVal(v) if isinstance(v, bool) else z3.IntVal(v)


def _pinned(r: Rec, values: dict[str, int | bool]) -> list[Z3Ref]:
    return [r[k] == _val(v) for k, v in values.items()]


def fits(state: GameState, shields: int) -> bool:
    """Whether every card's shields fit the record's shield slots."""
    return all(len(c.shields) <= shields for c in state.cards)
