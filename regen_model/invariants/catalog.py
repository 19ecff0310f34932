"""The built-in invariant catalog: what the regeneration rules guarantee, one formula each.

Each invariant cites the clauses it is about (``spec/clauses.yaml``). Where a formula is
weaker than its sentence, the docstring says why: the step outputs and frames see most of
what the engine does, but not, for example, whether a destroy effect carried the rider "it
can't be regenerated" (608.2c), so such cases are excluded rather than guessed.

Per-card guards recur:

* ``c.post.gen == c.pre.gen``: the card is still the same object after the step (400.7); a
  step in which it died or was flickered is about a new object and its old counters are gone.
* ``c.pre.on_battlefield``: the property is about a permanent.
"""

from __future__ import annotations

from regen_model.invariants.expr import (
    BoolExpr,
    action_is,
    and_,
    countered,
    implies,
    ite,
    or_,
    priority_given,
)
from regen_model.invariants.spec import invariant, step_invariant
from regen_model.invariants.vocabulary import (
    Card,
    all_cards,
    count_shields,
    post,
    pre,
    sum_cards,
)
from regen_model.model.enums import Rider, Step


def _applied(c: Card) -> BoolExpr:
    """A shield or static regeneration replaced a destruction of ``c`` in this step."""
    return c.out.regenerations + c.out.static_regens > 0


# --- state invariants -------------------------------------------------------------------------


@invariant(
    "inv.shield.used-once",
    """A regeneration shield is used at most once: on every permanent, the shields marked
    used are exactly the destructions replaced by its shields this turn.""",
    ("regen.shield.apply", "regen.shield.one-per-destruction"),
)
def shield_used_once() -> BoolExpr:
    return all_cards(lambda c: count_shields(c, lambda s: s.used) == c.by_shield)


@invariant(
    "inv.shield.made-this-turn",
    """Every shield a permanent has was made for that object this turn: its shields are the
    shields made for it since it became this object or since the last cleanup.""",
    ("regen.shield.create", "regen.shield.expire", "zone.new-object"),
)
def shield_made_this_turn() -> BoolExpr:
    return all_cards(lambda c: count_shields(c, lambda s: s.present) == c.shields_made)


@invariant(
    "inv.survival.needs-shields",
    """Within one turn a permanent survives its m-th destruction only if at least m shields
    were made for that object before it (absent static regeneration and other replacement
    effects): every destruction it survived was replaced by exactly one shield, static
    regeneration, umbra armor or shield counter; no more shields were used than made; and
    without static regeneration none was replaced by it.""",
    ("regen.shield.apply", "regen.static", "replace.choice", "destroy.indestructible"),
)
def survival_needs_shields() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            c.on_battlefield,
            and_(
                c.destructions == c.by_shield + c.by_static + c.by_other,
                c.by_shield <= c.shields_made,
                implies(~c.static_regen, c.by_static == 0),
            ),
        )
    )


# --- step invariants --------------------------------------------------------------------------


@step_invariant(
    "inv.shield.one-per-destruction",
    """A single destruction uses exactly one shield however many are available: in every
    step each permanent uses as many shields as it has regenerations by a shield, and is
    regenerated no more often than it would have been destroyed.""",
    ("regen.shield.one-per-destruction", "regen.shield.apply", "replace.choice"),
)
def one_per_destruction() -> BoolExpr:
    return all_cards(
        lambda c: and_(
            implies(c.post.gen == c.pre.gen, c.out.regenerations == c.out.shields_used),
            c.out.regenerations + c.out.static_regens <= c.out.would_destroy,
        )
    )


@step_invariant(
    "inv.regen.taps-only-when-applied",
    """Regeneration taps a permanent only when a shield or static regeneration is applied to
    it, and creating a shield never taps.""",
    ("regen.apply.tap", "regen.shield.create"),
)
def taps_only_when_applied() -> BoolExpr:
    return all_cards(
        lambda c: and_(
            c.out.regen_taps <= c.out.regenerations + c.out.static_regens,
            implies(c.out.shields_made > 0, c.out.other_taps == 0),
        )
    )


@step_invariant(
    "inv.regen.same-object",
    """An applied shield (or static regeneration) leaves the permanent on the battlefield as
    the same object, tapped, with no damage, out of combat, with its counters unchanged and no
    zone change. (It may still leave later in the same step for another reason, e.g. a
    toughness of 0 at the next check: that case is excluded by ``left == 0``. Counters are
    compared in the steps that do nothing but destroy or check state-based actions, by their
    difference, which 704.5q preserves: a resolving spell may put counters on the permanent
    and so cause the very destruction that is then replaced.)""",
    (
        "regen.same-object",
        "regen.apply.remove-damage",
        "regen.apply.tap",
        "regen.apply.remove-from-combat",
    ),
)
def same_object() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            _applied(c) & (c.out.left == 0),
            and_(
                c.post.gen == c.pre.gen,
                c.post.on_battlefield,
                c.post.tapped,
                c.post.damage == 0,
                ~c.post.in_combat,
                ~c.post.blocked,
                c.out.returned == 0,
                implies(
                    action_is("destroy", "check-sba") & (c.out.damage == 0),
                    c.post.plus - c.post.minus == c.pre.plus - c.pre.minus,
                ),
            ),
        )
    )


@step_invariant(
    "inv.regen.attachments-stay",
    """Regeneration is not a zone change: Auras and Equipment attached to a regenerated
    permanent stay attached to it, unless the step attached them to another permanent
    (equip, an attach effect: 701.3a). (A creature after the step: an Equipment on a
    permanent that is no creature falls off, 704.5n, regenerated or not.)""",
    ("regen.same-object",),
)
def attachments_stay() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            _applied(c) & (c.out.left == 0) & c.post.on_battlefield & c.post.is_creature,
            all_cards(
                lambda a: implies(
                    (a.pre.attached_to == c.slot)
                    & (a.post.gen == a.pre.gen)
                    & (a.out.attached == 0),
                    a.post.attached_to == c.slot,
                ),
                name="a",
            ),
        )
    )


@step_invariant(
    "inv.cleanup.ends-this-turn",
    """No regeneration shield and no "can't be regenerated this turn" survives cleanup: right
    after the cleanup actions (a cleanup, the start of a cleanup step, or a new turn) no
    permanent has a shield, is unregenerable or remembers shields made.""",
    ("cleanup.simultaneous", "regen.shield.expire", "regen.cant.this-turn"),
)
def cleanup_ends_this_turn() -> BoolExpr:
    cleaned = (
        action_is("cleanup")
        | ((post.step == Step.CLEANUP) & (pre.step != Step.CLEANUP))
        | (post.turn != pre.turn)
    )
    return implies(
        cleaned,
        all_cards(
            lambda c: implies(
                c.post.on_battlefield,
                and_(
                    count_shields(c.post, lambda s: s.present) == 0,
                    ~c.post.cant_regen,
                    c.post.shields_made == 0,
                ),
            )
        ),
    )


@step_invariant(
    "inv.cant-regen.no-shield-used",
    """"Can't be regenerated" means no shield is used: a permanent that can't be regenerated
    this turn is neither regenerated nor uses a shield, and a destruction that reaches it
    destroys it unless umbra armor or a shield counter (which are not regeneration) replaces
    it. (Indestructible permanents are never reached: see inv.indestructible.no-shield. Umbra
    armor may save it and then, its Aura gone, a toughness of 0 or less remove it in the same
    step: it is then a new object. A step whose cleanup ends "can't be regenerated", leaving
    the same object regenerable, is not about an unregenerable permanent.)""",
    ("regen.cant.this-turn", "regen.cant.rider", "replace.umbra-armor", "replace.shield-counter"),
)
def cant_regen_no_shield() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            c.pre.on_battlefield
            & c.pre.cant_regen
            & (c.post.cant_regen | (c.post.gen != c.pre.gen)),
            and_(
                c.out.regenerations == 0,
                c.out.static_regens == 0,
                c.out.shields_used == 0,
                implies(
                    c.out.would_destroy > 0,
                    or_(
                        c.out.destroyed > 0,
                        c.post.by_other > c.pre.by_other,
                        c.post.gen != c.pre.gen,
                    ),
                ),
            ),
        )
    )


@step_invariant(
    "inv.indestructible.no-shield",
    """Indestructible permanents are never destroyed, so they never use a shield (nor static
    regeneration): no destruction even reaches them. (Indestructible before and after the
    step: a permanent that loses indestructible at cleanup can be destroyed right after, by
    a deathtouch record left from an effect.)""",
    ("destroy.indestructible",),
)
def indestructible_no_shield() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            c.pre.on_battlefield & c.pre.indestructible & c.post.indestructible,
            and_(
                c.out.regenerations == 0,
                c.out.static_regens == 0,
                c.out.would_destroy == 0,
                c.out.destroyed == 0,
            ),
        )
    )


@step_invariant(
    "inv.not-destruction.no-shield",
    """Toughness 0 or less, sacrifice and exile are not destruction: they never use a shield.
    A sacrifice, exile or flicker regenerates nothing; a state-based check removes a creature
    whose toughness is 0 or less without regenerating it.""",
    ("sba.toughness-zero", "zone.sacrifice", "zone.exile", "zone.new-object"),
)
def not_destruction() -> BoolExpr:
    return all_cards(
        lambda c: and_(
            implies(
                action_is("sacrifice", "exile", "leave-and-return"),
                (c.out.regenerations == 0) & (c.out.static_regens == 0),
            ),
            implies(
                action_is("check-sba")
                & c.pre.on_battlefield
                & c.pre.is_creature
                & (c.pre.toughness <= 0),
                and_(c.out.regenerations == 0, c.out.static_regens == 0, c.out.left > 0),
            ),
        )
    )


@step_invariant(
    "inv.priority.no-sba-pending",
    """Whenever a player would receive priority, no state-based action is pending: the
    704.3 loop has run to completion first.""",
    ("priority.receive", "sba.loop"),
)
def no_sba_at_priority() -> BoolExpr:
    return implies(priority_given(), ~post.sba_pending)


@step_invariant(
    "inv.rider.exactly-when-used",
    """An "if it regenerates this way" rider happens exactly when its shield is used: a
    triggered rider (Matopi Golem's counter, Soldevi Sentry's draw) triggers once per rider
    shield used in the step, and no rider happens without a rider shield being used. (A
    control rider whose creator already controls the permanent changes nothing and is not
    counted, hence the range.)""",
    (
        "regen.rider.control",
        "regen.rider.trigger",
        "regen.rider.opponent-draws",
        "regen.shield.apply",
    ),
)
def rider_exactly_when_used() -> BoolExpr:
    triggered = (Rider.MINUS_COUNTER, Rider.PLUS_COUNTER, Rider.OPPONENT_MAY_DRAW)
    any_rider = (Rider.GAIN_CONTROL, *triggered)
    return all_cards(
        lambda c: implies(
            c.post.gen == c.pre.gen,
            and_(
                count_shields(
                    c.post, lambda s: s.post.used & ~s.pre.used & s.post.rider.isin(*triggered)
                )
                <= c.out.riders,
                c.out.riders
                <= count_shields(
                    c.post, lambda s: s.post.used & ~s.pre.used & s.post.rider.isin(*any_rider)
                ),
            ),
        )
    )


@step_invariant(
    "inv.new-object.no-shields",
    """A permanent that left the battlefield and returned is a new object (400.7): it has no
    shields, no damage, is not unregenerable and remembers no shields made.""",
    ("zone.new-object",),
)
def new_object_no_shields() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            (c.post.gen != c.pre.gen) & c.post.on_battlefield,
            and_(
                count_shields(c.post, lambda s: s.present) == 0,
                c.post.damage == 0,
                ~c.post.cant_regen,
                c.post.shields_made == 0,
            ),
        )
    )


@step_invariant(
    "inv.static-regen.never-destroyed",
    """Static regeneration replaces every destruction: a permanent with it is never destroyed
    unless "can't be regenerated" applies. (A destroy effect with the rider "it can't be
    regenerated" is invisible to the step outputs, so steps that may resolve one, a destroy
    action or a resolution by passing, are excluded.)""",
    ("regen.static", "regen.cant.this-turn"),
)
def static_regen_never_destroyed() -> BoolExpr:
    return all_cards(
        lambda c: implies(
            and_(
                c.static_regen,
                c.pre.on_battlefield,
                ~c.pre.cant_regen,
                ~action_is("destroy", "pass"),
            ),
            c.out.destroyed == 0,
        )
    )


@step_invariant(
    "inv.damage-trigger.kept",
    """Damage triggers fire whether or not the creature regenerates: once triggered, a damage
    trigger waits or goes on the stack, and regenerating its source does not remove it; only
    a resolution (by passing priority, 608.2) takes objects off the stack: the one resolving
    and, if it is a counter, the spell it counters (701.6a). So a pass removes at most one
    object plus the spells it countered (the step output ``countered``), and any other step
    none. (A pass that resolves nothing, priority moving on or the step ending, removes
    nothing, which the bound allows: it is an upper bound, since the step outputs do not say
    whether the pass resolved.)""",
    ("regen.damage-triggers", "damage.trigger", "stack.triggers", "stack.counter"),
)
def damage_trigger_kept() -> BoolExpr:
    waiting_before = pre.stack_size + pre.pending_size
    waiting_after = post.stack_size + post.pending_size
    triggered = sum_cards(lambda c: c.out.damage_triggers)
    removed = ite(action_is("pass") & (pre.stack_size >= 1), 1 + countered(), 0)  # 608.2, 701.6a
    return waiting_after >= waiting_before + triggered - removed
