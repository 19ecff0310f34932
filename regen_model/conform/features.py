"""The feature vocabulary: what a case uses, so that an engine can say what it lacks.

A real engine rarely has everything the model has (two shields on one creature, marked damage
that stays, shield counters, pre-M10 combat...). An adapter declares the features it lacks
(``EngineAdapter.lacks``, or ``"lacks"`` in the JSON-lines ``hello``), and the cross-checker
then builds no random case that uses one (``generate.py`` drops each candidate action whose
transition uses a lacked feature) and leaves out the fixed cases (scenario files, witnesses)
that do, counting them apart from the cases the engine skips. A skip then means what it should:
the adapter found something it could not express that its declaration did not foresee.

Features are read off the reference's run, one transition at a time (the start counts as a
transition from nothing), so they describe what *happened*, not what an action could do:

* generated from the model's own vocabularies, so a new mechanic joins without code here:
  ``action:KIND`` (every action kind of ``model.actions``), ``spell:NAME`` (a built-in spell is
  cast), ``card:NAME`` (a built-in permanent card is in the game), ``keyword:KW`` (a permanent
  on the battlefield has the keyword), ``combat:EDITION`` (creatures attack under that rule
  edition), ``step:STEP`` (the game is in that step);
* written here, for situations no single name captures: ``STRUCTURAL`` below.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from regen_model.conform.case import Case
from regen_model.engine import EngineError, step
from regen_model.model import actions as A
from regen_model.model.cards import PERMANENT_CARDS, SPELLS, AbilityKind
from regen_model.model.derived import controller, granted_by_attachments, keywords, sba_pending
from regen_model.model.effects import STATUS_RULES, EffectKind
from regen_model.model.enums import Attachment, Edition, Keyword, Rider, Step
from regen_model.model.events import Event, EventKind
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState

Transition = tuple[GameState | None, A.Action | None, GameState, Sequence[Event]]


def _custom_cards(t: Transition) -> bool:
    return any(PERMANENT_CARDS.get(c.name) != c for c in t[2].setup.templates)


def _several_shields(t: Transition) -> bool:
    return any(len(c.active_shields) >= 2 for c in t[2].cards if c.on_battlefield)


def _shield_rider(t: Transition) -> bool:
    return any(
        s.rider is not Rider.NONE and not s.used
        for c in t[2].cards
        if c.on_battlefield
        for s in c.shields
    )


def _shield_counters(t: Transition) -> bool:
    return any(c.shield_counters > 0 for c in t[2].cards if c.on_battlefield)


def _marked_damage(t: Transition) -> bool:
    """Damage stays marked on a permanent past a state-based-action check (or at the start):
    an engine that applies damage and its lethality as one operation has none."""
    before, _, after, events = t
    checked = before is None or any(e.kind is EventKind.SBA_CHECK for e in events)
    return checked and any(c.damage > 0 or c.deathtouched for c in after.cards if c.on_battlefield)


def _prevention(t: Transition) -> bool:
    """A prevention effect of a spell or ability is on a permanent (615.7, 615.1)."""
    return any(c.prevent_next > 0 or c.prevent_all for c in t[2].cards if c.on_battlefield)


def _prevention_features() -> frozenset[str]:
    """Everything of damage prevention (615): the structural feature, the built-in spells that
    prevent damage or deal unpreventable damage, the cards with the unpreventable ability and
    that ability; for adapters that do not map the mechanic to declare it lacking at once."""
    spells = {
        f"spell:{name}"
        for name, s in SPELLS.items()
        if s.effect.kind in (EffectKind.PREVENT, EffectKind.PREVENT_ALL)
        or Keyword.UNPREVENTABLE in s.effect.keywords
    }
    cards = {f"card:{n}" for n, t in PERMANENT_CARDS.items() if Keyword.UNPREVENTABLE in t.keywords}
    return frozenset({"prevention", f"keyword:{Keyword.UNPREVENTABLE.value}", *spells, *cards})


PREVENTION_FEATURES = _prevention_features()


def _phasing(t: Transition) -> bool:
    """A permanent is phased out (702.26b): on the battlefield, treated as not there."""
    return any(c.in_battlefield_zone and c.phased_out is not None for c in t[2].cards)


def _phasing_features() -> frozenset[str]:
    """Everything of phasing (702.26): the structural feature, the built-in spells that phase
    a permanent out, the cards with the phasing keyword and the keyword; for adapters that do
    not map the mechanic to declare it lacking at once."""
    spells = {f"spell:{n}" for n, s in SPELLS.items() if s.effect.kind is EffectKind.PHASE_OUT}
    cards = {f"card:{n}" for n, t in PERMANENT_CARDS.items() if Keyword.PHASING in t.keywords}
    return frozenset({"phasing", f"keyword:{Keyword.PHASING.value}", *spells, *cards})


PHASING_FEATURES = _phasing_features()


def _multi_block(t: Transition) -> bool:
    """A creature is declared blocking two attackers (509.1a with "can block an additional
    creature each combat")."""
    action = t[1]
    if not isinstance(action, A.DeclareBlockers):
        return False
    blockers = [b for b, _ in action.blocks]
    return len(blockers) != len(set(blockers))


def _multi_block_features() -> frozenset[str]:
    """A creature blocking two attackers: the structural feature and the built-in cards that
    can block an additional creature; for adapters that do not map it to declare it lacking."""
    cards = {f"card:{n}" for n, t in PERMANENT_CARDS.items() if t.extra_block}
    return frozenset({"multi-block", *cards})


MULTI_BLOCK_FEATURES = _multi_block_features()


# --- Auras and Equipment (issue 12 items 5-6) ---


def _attaching(t: Transition) -> bool:
    """An Aura or Equipment is attached to another permanent (701.3a: equip, an effect)."""
    return any(e.kind is EventKind.ATTACHED for e in t[3])


def _granted_keywords(t: Transition) -> bool:
    """A permanent has a keyword its Aura or Equipment grants it (613.1f)."""
    state = t[2]
    return any(c.on_battlefield and granted_by_attachments(state, c) for c in state.cards)


def _attachment_abilities(t: Transition) -> bool:
    """An ability of an Aura or Equipment is activated (equip, "Regenerate enchanted
    creature")."""
    before, action = t[0], t[1]
    if before is None or not isinstance(action, A.ActivateAbility):
        return False
    abilities = before.template(before.setup.slot_of(action.source)).abilities
    ability = abilities[action.ability] if 0 <= action.ability < len(abilities) else None
    return ability is not None and ability.kind in (AbilityKind.EQUIP, AbilityKind.REGENERATE_HOST)


def _granted_abilities(t: Transition) -> bool:
    """A creature activates an ability its Aura or Equipment gives it ("enchanted creature
    has '{B}: Regenerate this creature'", 613.1f)."""
    return any(e.kind is EventKind.NOTE and e.clause == "attach.granted-ability" for e in t[3])


def _attachment_features() -> frozenset[str]:
    """Everything of abilities granted by and moving Auras and Equipment, for adapters that do
    not map them: the structural features, the attach action, and the built-in cards with a
    "Regenerate enchanted creature" ability or a keyword grant (Bonesplitter is not among
    them: without its equip, caught by ``attachment-abilities``, it is what it was)."""
    cards = {
        f"card:{n}"
        for n, t in PERMANENT_CARDS.items()
        if t.grants
        or t.grants_abilities
        or any(a.kind is AbilityKind.REGENERATE_HOST for a in t.abilities)
    }
    return frozenset(
        {
            "attaching",
            "granted-keywords",
            "attachment-abilities",
            "granted-abilities",
            "action:attach",
            *cards,
        }
    )


# --- targets whose legality regeneration changes (issue 13 item 4) ---


def _targeted_abilities(t: Transition) -> bool:
    """A "Regenerate target creature" ability of a permanent is activated (602.2b)."""
    before, action = t[0], t[1]
    if before is None or not isinstance(action, A.ActivateAbility):
        return False
    if action.source not in before.setup.handles:
        return False
    abilities = before.template(before.setup.slot_of(action.source)).abilities
    ability = abilities[action.ability] if 0 <= action.ability < len(abilities) else None
    return ability is not None and ability.kind is AbilityKind.REGENERATE_TARGET


def _remove_damage_instead(t: Transition) -> bool:
    """Pyramids' "the next time target land would be destroyed this turn, remove all damage
    marked on it instead" is on the stack or applies to a permanent (614.1a, 614.5)."""
    state = t[2]
    on_stack = any(
        o.effect is not None and o.effect.kind is EffectKind.REMOVE_DAMAGE_INSTEAD
        for o in state.stack
    )
    return on_stack or any(c.remove_damage for c in state.cards)


def _target_status(t: Transition) -> bool:
    """A target is found illegal on resolution for its combat or tap status (608.2b: Kill
    Shot's attacker removed from combat, Asphyxiate's creature tapped, by regenerating)."""
    return any(e.kind is EventKind.NOTE and e.clause == "stack.target-status" for e in t[3])


def _tap_costs(t: Transition) -> bool:
    """A permanent pays a {T} cost of its ability (601.2h; Niall Silvain)."""
    return any(e.kind is EventKind.BECAME_TAPPED and e.clause == "cost.tap" for e in t[3])


def _sacrifice_costs(t: Transition) -> bool:
    """A permanent is sacrificed to pay for its own ability (601.2h; Carapace, Vigilant
    Martyr)."""
    return any(e.kind is EventKind.ZONE_CHANGE and e.clause == "cost.sacrifice" for e in t[3])


def _sacrifice_a_creature(t: Transition) -> bool:
    """A creature is sacrificed to pay another permanent's "Sacrifice a creature" (601.2h,
    701.21a; Dark Privilege)."""
    return any(
        e.kind is EventKind.ZONE_CHANGE and e.clause == "cost.sacrifice-creature" for e in t[3]
    )


def _cost_features() -> frozenset[str]:
    """Everything of issue 13 item 3 the model has (a {T} cost, a "Sacrifice this" cost,
    "Sacrifice a creature"), for adapters that do not map it: the structural features and the
    built-in cards with such an ability."""
    cards = {
        f"card:{n}"
        for n, t in PERMANENT_CARDS.items()
        if any(a.tap_cost or a.sacrifice_cost or a.sacrifice_creature for a in t.abilities)
    }
    return frozenset({"tap-costs", "sacrifice-costs", "sacrifice-a-creature", *cards})


def _targeting_features() -> frozenset[str]:
    """Everything of issue 13 item 4, for adapters that do not map it: the structural
    features, the built-in spells whose target rule asks for a status, and the cards with a
    "Regenerate target creature" ability; with them Pyramids' targeted "remove all damage
    instead" ability (item 6: a targeted ability of a permanent too)."""
    spells = {f"spell:{n}" for n, s in SPELLS.items() if s.targets in STATUS_RULES}
    targeted = (AbilityKind.REGENERATE_TARGET, AbilityKind.REMOVE_DAMAGE_TARGET)
    cards = {
        f"card:{n}"
        for n, t in PERMANENT_CARDS.items()
        if any(a.kind in targeted for a in t.abilities)
    }
    return frozenset(
        {"targeted-abilities", "target-status", "remove-damage-instead", *spells, *cards}
    )


# --- counting what was destroyed (issue 13 item 7) ---


def _destroyed_count(t: Transition) -> bool:
    """A "destroy all creatures; gain life for each creature destroyed this way" spell is on
    the stack (Fumigate; 701.8a, 614.6: only those really destroyed count)."""
    return any(
        o.effect is not None
        and o.effect.kind is EffectKind.DESTROY_ALL_CREATURES
        and o.effect.amount != 0
        for o in t[2].stack
    )


def _damage_target_cant_regen(t: Transition) -> bool:
    """A damage spell whose creature target can't be regenerated this turn whatever the
    damage does is on the stack (Disintegrate; 608.2c)."""
    return any(o.effect is not None and o.effect.cant_regen_target for o in t[2].stack)


def _exile_if_dies(t: Transition) -> bool:
    """A damage spell with "if it would die this turn, exile it instead" for its creature
    target is on the stack, or a creature has that effect (Disintegrate; 614.6, 700.4)."""
    state = t[2]
    return any(o.effect is not None and o.effect.exile_if_dies for o in state.stack) or any(
        c.exile_if_dies for c in state.cards
    )


def _counted_features() -> frozenset[str]:
    """Everything of item 7: the structural features and the built-in spells that have them,
    for adapters that do not map them to declare them lacking at once."""
    spells = {
        f"spell:{n}"
        for n, s in SPELLS.items()
        if s.effect.cant_regen_target
        or s.effect.exile_if_dies
        or (s.effect.kind is EffectKind.DESTROY_ALL_CREATURES and s.effect.amount != 0)
    }
    return frozenset({"destroyed-count", "damage-target-cant-regen", "exile-if-dies", *spells})


COUNTED_FEATURES = _counted_features()


def _dies(t: Transition) -> bool:
    """A "when this creature dies" ability triggers (trigger.dies, 700.4)."""
    return any(e.kind is EventKind.TRIGGERED and e.clause == "trigger.dies" for e in t[3])


def _creature_dies(t: Transition) -> bool:
    """Another permanent's "whenever a creature (you control / an attacking creature) dies"
    triggers (trigger.creature-dies, trigger.attacking-dies; 700.4, 603.10a)."""
    clauses = ("trigger.creature-dies", "trigger.attacking-dies")
    return any(e.kind is EventKind.TRIGGERED and e.clause in clauses for e in t[3])


def _dies_draw(t: Transition) -> bool:
    """Fecundity's "whenever a creature dies, that creature's controller may draw a card"
    triggers (trigger.dies-draw; 700.4, 603.10a)."""
    return any(e.kind is EventKind.TRIGGERED and e.clause == "trigger.dies-draw" for e in t[3])


def _draw(t: Transition) -> bool:
    """A player draws, declines to, or attempts a draw from an empty library (draw.card,
    draw.may, draw.empty-library; 121.1, 608.2d, 121.4): the hand and library sizes of the
    observable projection change (``observe.py``)."""
    return any(e.clause.startswith("draw.") for e in t[3])


def _tapped(t: Transition) -> bool:
    """A "whenever this creature becomes tapped" ability triggers (trigger.tapped, 603.2e)."""
    return any(e.kind is EventKind.TRIGGERED and e.clause == "trigger.tapped" for e in t[3])


def _creature_tapped(t: Transition) -> bool:
    """A "whenever a Merfolk you control becomes tapped" ability triggers (Judge of Currents,
    trigger.creature-tapped; 603.2, 603.2e), or resolves with its controller's answer to its
    "you may gain" (608.2d: the note saying whether they gain)."""
    return any(
        e.clause == "trigger.creature-tapped"
        and (e.kind is EventKind.TRIGGERED or e.get("gains") is not None)
        for e in t[3]
    )


def _eoc_destroy(t: Transition) -> bool:
    """A Basilisk's delayed "destroy that creature at end of combat" is made or triggers
    (trigger.eoc-destroy, 603.7, 511.2)."""
    return any(e.clause == "trigger.eoc-destroy" for e in t[3])


def _reflexive(t: Transition) -> bool:
    """Go-Shintai of Hidden Cruelty's "at the beginning of your end step, you may pay {1}"
    triggers, resolves, or makes its reflexive trigger, whose target is chosen as it goes on
    the stack (trigger.end-step, trigger.reflexive, stack.trigger-target; 513.1, 603.12,
    603.3d)."""
    clauses = ("trigger.end-step", "trigger.reflexive", "stack.trigger-target")
    return any(e.clause in clauses for e in t[3])


def _graveyard_order(t: Transition) -> bool:
    """The step decides an order in a graveyard beyond one card going there: a spell goes to
    a graveyard that a card also entered in this step (608.2n: which lies on top), or several
    cards enter one graveyard at the same time (404.3). The observable projection has no
    graveyard (``observe.py``), so no engine is compared on it; the feature names the cases
    where such an order is the rules' answer, for an adapter that reads graveyards."""
    before = () if t[0] is None else t[0].players
    for p, after in enumerate(t[2].players):
        old = before[p].graveyard if p < len(before) else ()
        new = after.graveyard[len(old) :]
        items = [x for g in new for x in g]
        if any(len(g) > 1 for g in new) or (
            any(isinstance(x, str) for x in items) and any(isinstance(x, int) for x in items)
        ):
            return True
    return False


def _mill(t: Transition) -> bool:
    """A player mills, all the cards asked for or fewer (mill.cards, mill.short-library;
    701.17a-b): a library shrinks and a group of milled cards joins a graveyard."""
    return any(e.clause.startswith("mill.") for e in t[3])


def _counter_spell(t: Transition) -> bool:
    """A spell is countered, or a counter does not resolve for want of its target spell
    (stack.counter; 701.6a, 608.2b)."""
    return any(e.clause == "stack.counter" for e in t[3])


def _rider_draw(t: Transition) -> bool:
    """Soldevi Sentry's "when it regenerates this way, that player may draw a card" triggers
    (regen.rider.opponent-draws; 603.7e, 102.2)."""
    return any(
        e.kind is EventKind.TRIGGERED and e.clause == "regen.rider.opponent-draws" for e in t[3]
    )


def _library_features() -> frozenset[str]:
    """Issue 13 item 2's mill (Thought Scour) and Soldevi Sentry's draw rider: the structural
    features and the built-in spells and cards that have them, for adapters that do not map
    them to declare them lacking at once."""
    spells = {f"spell:{n}" for n, s in SPELLS.items() if s.effect.kind is EffectKind.MILL}
    cards = {
        f"card:{n}"
        for n, t in PERMANENT_CARDS.items()
        if any(a.rider is Rider.OPPONENT_MAY_DRAW for a in t.abilities)
    }
    # "draw" is not among them: Fecundity's draws are DIES_FEATURES' (DIES_DRAW_FEATURES), and a
    # case with a mill or the Sentry's rider has the features above as well
    return frozenset({"mill", "rider-draw", *spells, *cards})


def _dies_features() -> frozenset[str]:
    """Issue 13 item 5's triggers ("when this creature dies", another permanent's "whenever a
    creature dies", "whenever this creature becomes tapped", a Basilisk's "destroy that
    creature at end of combat", Go-Shintai's end-step ability and its reflexive trigger) and
    item 2's Fecundity and draws: the structural features and the built-in cards with such an
    ability, for adapters that do not map them to declare them lacking at once."""
    cards = {
        f"card:{n}"
        for n, t in PERMANENT_CARDS.items()
        if t.dies_life
        or t.tapped_opponent_life
        or t.destroys_combatants
        or t.dies_drain
        or t.dies_draw
        or t.end_step_reflexive
        or t.tapped_watch_life
    }
    return frozenset(
        {
            "dies-trigger",
            "creature-dies-trigger",
            "dies-draw-trigger",
            "draw",
            "tapped-trigger",
            "creature-tapped-trigger",
            "eoc-destroy-trigger",
            "reflexive-trigger",
            *cards,
        }
    )


DIES_FEATURES = _dies_features()
LIBRARY_FEATURES = _library_features()
# Issue 13 item 1's countering (Counterspell, "counter target spell"; 701.6a): the structural
# feature and the built-in spells that counter, for adapters that do not map them to declare
# them lacking at once.
COUNTER_FEATURES = frozenset(
    {"counter-spell"}
    | {f"spell:{n}" for n, s in SPELLS.items() if s.effect.kind is EffectKind.COUNTER_SPELL}
)
# Go-Shintai of Hidden Cruelty's part of DIES_FEATURES (trigger.end-step, trigger.reflexive,
# stack.trigger-target), for an adapter that maps it alone.
REFLEXIVE_FEATURES = frozenset(
    {"reflexive-trigger"}
    | {f"card:{n}" for n, t in PERMANENT_CARDS.items() if t.end_step_reflexive}
)
# Judge of Currents' part of DIES_FEATURES (trigger.creature-tapped), for an adapter that
# maps the rest but not it.
CREATURE_TAPPED_FEATURES = frozenset(
    {"creature-tapped-trigger"}
    | {f"card:{n}" for n, t in PERMANENT_CARDS.items() if t.tapped_watch_life}
)
# The Basilisks' part of DIES_FEATURES (trigger.eoc-destroy), for an adapter that maps it alone.
EOC_DESTROY_FEATURES = frozenset(
    {"eoc-destroy-trigger"}
    | {f"card:{n}" for n, t in PERMANENT_CARDS.items() if t.destroys_combatants}
)
# Fecundity's part of DIES_FEATURES (trigger.dies-draw and the draws, draw.*), likewise.
DIES_DRAW_FEATURES = frozenset(
    {"dies-draw-trigger", "draw"} | {f"card:{n}" for n, t in PERMANENT_CARDS.items() if t.dies_draw}
)


def _borrowed(t: Transition) -> bool:
    state = t[2]
    return any(controller(c) != state.setup.owners[c.slot] for c in state.cards if c.on_battlefield)


def _attachments(t: Transition) -> bool:
    state = t[2]
    return any(
        c.on_battlefield and state.setup.templates[c.slot].attachment is not Attachment.NONE
        for c in state.cards
    )


def _destroy_several(t: Transition) -> bool:
    return isinstance(t[1], A.Destroy) and len(t[1].targets) > 1


def _damage_rider(t: Transition) -> bool:
    return isinstance(t[1], A.DealDamage) and t[1].cant_regen


def _damage_keywords(t: Transition) -> bool:
    """Deathtouch, wither or infect damage from an effect: named on the action, or had by the
    permanent the action names as its source."""
    before, action = t[0], t[1]
    if not isinstance(action, A.DealDamage) or action.combat:
        return False
    if action.keywords:
        return True
    if before is None or action.source not in before.setup.handles:
        return False
    card = before.card(action.source)
    return bool(keywords(before, card) & _DAMAGE_KEYWORDS)


_DAMAGE_KEYWORDS = frozenset({Keyword.DEATHTOUCH, Keyword.WITHER, Keyword.INFECT})


def _keyword_removal(t: Transition) -> bool:
    return isinstance(t[1], A.GrantKeyword) and t[1].remove


def _start_effects(t: Transition) -> bool:
    """The start has "this turn" effects (granted or removed keywords, P/T changes, temporary
    control, "can't be regenerated"): an engine may only be able to make them with spells."""
    if t[0] is not None:
        return False
    return any(
        c.kw_granted
        or c.kw_removed
        or c.power_eot
        or c.toughness_eot
        or c.cant_regen
        or c.control_eot is not None
        for c in t[2].cards
        if c.on_battlefield
    )


def _start_replacements(t: Transition) -> bool:
    """The start has "this turn" destruction replacement effects made earlier in the turn
    (Disintegrate's "if it would die this turn, exile it instead", 614.6; unused Pyramids
    effects, 614.1a, 614.5): an engine may only be able to make them by resolving the spell or
    ability that makes them, which would do more than the start says."""
    if t[0] is not None:
        return False
    return any(c.exile_if_dies or c.remove_damage for c in t[2].cards)


def _effect_with_sba(t: Transition) -> bool:
    """An effect (other than damage or counters, which engines write directly) is performed
    while a state-based action is pending, or leaves one pending: an engine that performs the
    effect with a spell performs the state-based action at once, where the model waits."""
    before, action, after = t[0], t[1], t[2]
    if before is None or not isinstance(action, A.EFFECT_ACTIONS):
        return False
    if isinstance(action, A.DealDamage | A.AddCounters | A.CheckStateBasedActions | A.Cleanup):
        return False
    return sba_pending(before) or sba_pending(after)


def _effect_leaves_trigger(t: Transition) -> bool:
    """An effect (not the state-based-action check, which puts what triggered on the stack,
    117.5) leaves a triggered ability waiting (603.3): Fecundity's trigger when a destroy or
    sacrifice effect kills a creature. The model puts it on the stack the next time a player
    would receive priority; an engine that performs the effect with a spell or a state edit
    puts it there at once, or resolves it with the spell."""
    action, after = t[1], t[2]
    if t[0] is None or not isinstance(action, A.EFFECT_ACTIONS):
        return False
    return not isinstance(action, A.CheckStateBasedActions) and bool(after.pending)


def _damage_to_trigger(t: Transition) -> bool:
    action, state = t[1], t[0]
    if not isinstance(action, A.DealDamage) or state is None:
        return False
    handles = state.setup.handles
    return any(
        s.card in handles and state.template(state.setup.slot_of(s.card)).damage_trigger
        for s in action.shares
        if s.card is not None
    )


def _damage_to_shield_counter(t: Transition) -> bool:
    action, state = t[1], t[0]
    if not isinstance(action, A.DealDamage) or action.combat or state is None:
        return False
    handles = state.setup.handles
    return any(
        s.card in handles and state.card(s.card).shield_counters > 0
        for s in action.shares
        if s.card is not None
    )


def _damage_to_prevention(t: Transition) -> bool:
    """An effect (not combat) deals damage to a permanent with a prevention effect (615): an
    engine that marks effect damage directly would skip the prevention."""
    action, state = t[1], t[0]
    if not isinstance(action, A.DealDamage) or action.combat or state is None:
        return False
    handles = state.setup.handles
    return any(
        s.card in handles
        and (state.card(s.card).prevent_next > 0 or state.card(s.card).prevent_all)
        for s in action.shares
        if s.card is not None
    )


def _triggers(t: Transition) -> bool:
    return any(e.kind is EventKind.TRIGGERED for e in t[3])


def _responses(t: Transition) -> bool:
    """A spell cast or an ability activated while something waits on the stack."""
    before, action = t[0], t[1]
    return (
        before is not None
        and bool(before.stack)
        and isinstance(action, A.CastSpell | A.ActivateAbility)
    )


def _legend_duplicates(t: Transition) -> bool:
    """Two legendary permanents of one name under one controller (704.5j, which the model
    leaves out): every built-in card whose type line is legendary (Skithiryx, Go-Shintai of
    Hidden Cruelty, Kardur, Doomscourge), read off its card data."""
    state = t[2]
    seen = [
        (controller(c), state.setup.templates[c.slot].name)
        for c in state.cards
        if c.on_battlefield and state.setup.templates[c.slot].type_line.startswith("Legendary")
    ]
    return len(seen) != len(set(seen))


def _first_strike_step(t: Transition) -> bool:
    return t[2].step is Step.FIRST_STRIKE_DAMAGE


def _pre_m10_deathtouch(t: Transition) -> bool:
    """Deathtouch in the pre-M10 edition, where it is a triggered ability (pre-M10 502.63):
    a permanent has it, or an effect deals damage with it."""
    _, action, after, _ = t
    if after.edition is not Edition.PRE_M10:
        return False
    if isinstance(action, A.DealDamage | A.CastSpell):
        kws = action.keywords if isinstance(action, A.DealDamage) else action.effect.keywords
        if Keyword.DEATHTOUCH in kws:
            return True
    return any(Keyword.DEATHTOUCH in keywords(after, c) for c in after.cards if c.on_battlefield)


def _several_blockers(t: Transition) -> bool:
    action = t[1]
    if not isinstance(action, A.DeclareBlockers):
        return False
    attackers = [a for _, a in action.blocks]
    return len(attackers) != len(set(attackers))


STRUCTURAL: dict[str, tuple[str, Callable[[Transition], bool]]] = {
    "custom-cards": (
        "a card that is not a built-in card (a definition of the case)",
        _custom_cards,
    ),
    "several-shields": (
        "a permanent has two or more unused regeneration shields",
        _several_shields,
    ),
    "shield-rider": (
        'a shield with an "if it regenerates this way" rider (Debt of Loyalty, Matopi Golem)',
        _shield_rider,
    ),
    "shield-counters": ("a permanent has a shield counter (122.1c)", _shield_counters),
    "prevention": (
        'a "prevent the next N damage" or "prevent all damage" effect is on a permanent (615)',
        _prevention,
    ),
    "phasing": ("a permanent is phased out (702.26)", _phasing),
    "multi-block": ("a creature blocks two attackers (509.1a, 510.1d)", _multi_block),
    "marked-damage": (
        "damage stays marked on a permanent past a state-based-action check",
        _marked_damage,
    ),
    "borrowed": ("a permanent is controlled by a player other than its owner", _borrowed),
    "attachments": ("an Aura or Equipment is on the battlefield", _attachments),
    "attaching": ("an Aura or Equipment is attached to another permanent (701.3a)", _attaching),
    "granted-keywords": (
        "a permanent has a keyword its Aura or Equipment grants (613.1f)",
        _granted_keywords,
    ),
    "attachment-abilities": (
        'an equip or "Regenerate enchanted creature" ability is activated (702.6a)',
        _attachment_abilities,
    ),
    "granted-abilities": (
        "a creature activates an ability its Aura or Equipment gives it (613.1f)",
        _granted_abilities,
    ),
    "targeted-abilities": (
        'a "Regenerate target creature" ability of a permanent is activated (602.2b)',
        _targeted_abilities,
    ),
    "remove-damage-instead": (
        "Pyramids' \"the next time target land would be destroyed this turn, remove all damage "
        'marked on it instead" is activated or applies (614.1a, 614.5)',
        _remove_damage_instead,
    ),
    "tap-costs": ("a permanent pays the {T} cost of its ability (601.2h)", _tap_costs),
    "sacrifice-costs": (
        "a permanent is sacrificed to pay for its own ability (601.2h)",
        _sacrifice_costs,
    ),
    "sacrifice-a-creature": (
        'a creature is sacrificed to pay another permanent\'s "Sacrifice a creature" (601.2h)',
        _sacrifice_a_creature,
    ),
    "target-status": (
        "a target is illegal on resolution for its combat or tap status (608.2b)",
        _target_status,
    ),
    "destroy-several": ("one destroy effect destroys several permanents at once", _destroy_several),
    "damage-rider": ('damage with a "can\'t be regenerated" rider as an effect', _damage_rider),
    "destroyed-count": (
        'a "destroy all creatures; gain life for each creature destroyed this way" spell is cast',
        _destroyed_count,
    ),
    "damage-target-cant-regen": (
        "a damage spell whose creature target can't be regenerated this turn, damage dealt or "
        "not (Disintegrate), is cast",
        _damage_target_cant_regen,
    ),
    "exile-if-dies": (
        'a damage spell\'s "if it would die this turn, exile it instead" for its creature '
        "target is cast or applies (Disintegrate)",
        _exile_if_dies,
    ),
    "damage-keywords": (
        "an effect (not combat) deals damage with deathtouch, wither or infect",
        _damage_keywords,
    ),
    "damage-to-trigger": (
        "an effect deals damage to a permanent with a damage trigger",
        _damage_to_trigger,
    ),
    "damage-to-shield-counter": (
        "an effect (not combat) deals damage to a permanent with a shield counter (122.1c)",
        _damage_to_shield_counter,
    ),
    "damage-to-prevention": (
        "an effect (not combat) deals damage to a permanent with a prevention effect (615)",
        _damage_to_prevention,
    ),
    "keyword-removal": ("an effect takes a keyword away", _keyword_removal),
    "start-effects": ('"this turn" effects in the start state', _start_effects),
    "start-replacements": (
        '"this turn" destruction replacement effects in the start state: "if it would die this '
        'turn, exile it instead" (614.6), Pyramids\' "remove all damage instead" (614.1a)',
        _start_replacements,
    ),
    "effect-with-sba-pending": (
        "an effect (not damage or counters) while a state-based action is pending or leaving one",
        _effect_with_sba,
    ),
    "effect-leaves-trigger": (
        "an effect (not the state-based-action check) leaves a triggered ability waiting "
        "to be put on the stack (603.3)",
        _effect_leaves_trigger,
    ),
    "triggers": ("a triggered ability triggers", _triggers),
    "dies-trigger": ('a "when this creature dies" ability triggers (700.4)', _dies),
    "creature-dies-trigger": (
        'another permanent\'s "whenever a creature (you control / an attacking creature) dies" '
        "triggers (700.4, 603.10a)",
        _creature_dies,
    ),
    "dies-draw-trigger": (
        "Fecundity's \"whenever a creature dies, that creature's controller may draw a card\" "
        "triggers (700.4, 603.10a)",
        _dies_draw,
    ),
    "draw": (
        "a player draws, declines a draw, or draws from an empty library (121.1, 608.2d, 121.4)",
        _draw,
    ),
    "mill": (
        "a player mills cards from their library, as many as it holds (701.17a-b)",
        _mill,
    ),
    "rider-draw": (
        'Soldevi Sentry\'s "when it regenerates this way, that player may draw a card" '
        "triggers (603.7e, 102.2)",
        _rider_draw,
    ),
    "counter-spell": (
        "a spell is countered, or a counter's target spell has left the stack (701.6a, 608.2b)",
        _counter_spell,
    ),
    "tapped-trigger": (
        'a "whenever this creature becomes tapped" ability triggers (603.2e)',
        _tapped,
    ),
    "creature-tapped-trigger": (
        'a "whenever a Merfolk you control becomes tapped" ability triggers, or its "you may '
        'gain" is answered as it resolves (603.2, 603.2e, 608.2d)',
        _creature_tapped,
    ),
    "eoc-destroy-trigger": (
        'a Basilisk\'s delayed "destroy that creature at end of combat" is made or triggers '
        "(603.7, 511.2)",
        _eoc_destroy,
    ),
    "reflexive-trigger": (
        'Go-Shintai\'s "at the beginning of your end step, you may pay {1}" triggers or resolves, '
        'or its "when you do" reflexive trigger triggers or gets its target (513.1, 603.12, '
        "603.3d)",
        _reflexive,
    ),
    "graveyard-order": (
        "a spell and a card, or several cards at once, go to one graveyard in one step, so "
        "the rules order them there (608.2n, 404.3)",
        _graveyard_order,
    ),
    "responses": ("a spell or ability is put on the stack above another one", _responses),
    "legend-duplicates": (
        "two legendary permanents of one name under one controller",
        _legend_duplicates,
    ),
    "first-strike-step": ("a first-strike combat damage step (510.4)", _first_strike_step),
    "several-blockers": ("two creatures block one attacker", _several_blockers),
    "pre-M10-deathtouch": (
        "deathtouch in the pre-M10 edition, where it is a trigger (a permanent has it, or "
        "effect damage with it)",
        _pre_m10_deathtouch,
    ),
}


ATTACHMENT_FEATURES = _attachment_features()
TARGETING_FEATURES = _targeting_features()
COST_FEATURES = _cost_features()


def vocabulary() -> dict[str, str]:
    """Every feature name with what it means (docs/crosscheck.md prints this table)."""
    out = {name: text for name, (text, _) in STRUCTURAL.items()}
    out.update({f"action:{k}": f"an action of kind {k}" for k in sorted(A.ACTION_BY_KIND)})
    out.update({f"spell:{n}": f"{n} is cast" for n in SPELLS})
    out.update({f"card:{n}": f"{n} is in the game" for n in PERMANENT_CARDS})
    out.update({f"keyword:{k.value}": f"a permanent has {k.value}" for k in Keyword})
    out.update({f"combat:{e.value}": f"creatures attack under {e.value} rules" for e in Edition})
    out.update({f"step:{s.value}": f"the game is in the {s.value} step" for s in Step})
    return out


def transition_features(t: Transition) -> set[str]:
    """The features one transition (or, with ``before`` None, one start state) uses."""
    before, action, after, _ = t
    out = {name for name, (_, uses) in STRUCTURAL.items() if uses(t)}
    if action is not None:
        out.add(f"action:{action.kind}")
        if isinstance(action, A.CastSpell):
            out.add(f"spell:{action.name}")
        if isinstance(action, A.DeclareAttackers) and action.attackers:
            out.add(f"combat:{after.edition.value}")
    out.add(f"step:{after.step.value}")
    if before is None:
        out.update(f"card:{t.name}" for t in after.setup.templates)
    for c in after.cards:
        if c.on_battlefield:
            out.update(f"keyword:{k.value}" for k in keywords(after, c))
    return out


def lacked_in(features: Iterable[str], lacks: frozenset[str]) -> str | None:
    """The first feature of ``features`` the engine lacks, or ``None``."""
    return next((f for f in sorted(features) if f in lacks), None)


def case_features(case: Case, rules: Rules = CORRECT) -> set[str]:
    """Every feature the reference's run of ``case`` uses (skipped actions do not count)."""
    state = case.start.build()
    out = transition_features((None, None, state, ()))
    for action in case.actions:
        try:
            res = step(state, action, rules)
        except EngineError:
            continue
        out |= transition_features((state, action, res.state, res.events))
        state = res.state
    return out


def outside(case: Case, lacks: frozenset[str]) -> str | None:
    """The first lacked feature ``case`` uses (``None``: the engine can run it)."""
    if not lacks:
        return None
    return lacked_in(case_features(case), lacks)


__all__ = [
    "STRUCTURAL",
    "case_features",
    "lacked_in",
    "outside",
    "transition_features",
    "vocabulary",
]
