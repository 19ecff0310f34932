"""Queries about the relation itself: one successor per state and parameters (determinism)
and the 704.3 loop bound, proved per action kind; a relation that leaves a successor field
unconstrained is caught."""

from __future__ import annotations

from typing import Any

import pytest
import z3

from regen_model.checks.system import Tracked
from regen_model.encoding import params as P
from regen_model.encoding.bounded import AGREEMENT_FRAME_SCOPE
from regen_model.encoding.effects import CHOSEN_ON_STACK
from regen_model.encoding.evaluate import prepare
from regen_model.encoding.frame import NONE
from regen_model.encoding.queries import determinism
from regen_model.encoding.sba import AFTER_SECOND, sba_pass
from regen_model.encoding.scope import Scope
from regen_model.encoding.system import RegenStep, RegenSystem
from regen_model.encoding.verify_section import query_rows
from regen_model.encoding.work import SymWork, layout
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.effects import EffectKind, TargetRule
from regen_model.model.enums import Keyword, Mutant, StackKind, Zone, ordinal
from regen_model.model.rules import CORRECT, Rules
from regen_model.verdicts import Verdict

ONE_SLOT = Scope(cards=1, shields=2, stack=1, pending=1, targets=1)


def test_every_kind_is_deterministic_and_its_loop_bounded() -> None:
    rows = query_rows(ONE_SLOT)
    assert [r.verdict for r in rows] == [Verdict.PROVED, Verdict.PROVED], [r.message for r in rows]
    assert all("22 action kinds" in dict(r.details)["actions checked"] for r in rows)


class _LooseStep(RegenStep):
    """A step whose constraints forget what regeneration does to ``tapped`` (701.19a)."""

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        return [t for t in super().constraints(kind) if t.label != "regen.apply.tap"]


class _LooseSystem(RegenSystem):
    def step(self, pre: Any, post: Any, tag: str) -> RegenStep:
        base = super().step(pre, post, tag)
        return _LooseStep(self, pre, post, tag, base.params)

    def template_step(self) -> RegenStep:
        t = self.template
        return _LooseStep(self, t.pre, t.post, "T", t.params)


def test_an_unconstrained_successor_is_not_deterministic() -> None:
    loose = _LooseSystem(scope=ONE_SLOT)
    assert determinism(loose, "destroy").verdict is Verdict.VIOLATED
    assert determinism(RegenSystem(scope=ONE_SLOT), "destroy").verdict is Verdict.PROVED


def test_the_covering_proof_and_the_direct_query_agree() -> None:
    """``determinism`` (definitions whose conditions cover every case) and
    ``two_successors`` (the direct statement) give the same verdict, on the relation and on
    one that forgets a rule's effect."""
    from regen_model.encoding.queries import two_successors

    system = RegenSystem(scope=ONE_SLOT)
    loose = _LooseSystem(scope=ONE_SLOT)
    for kind in ("destroy", "cleanup"):
        assert determinism(system, kind).verdict is Verdict.PROVED
        assert two_successors(system, kind).verdict is Verdict.PROVED
    assert two_successors(loose, "destroy").verdict is Verdict.VIOLATED
    assert "fixes" in determinism(loose, "destroy").reason


class _UnboundedStep(RegenStep):
    """A step whose 704.3 loop, by its obligation, may stop with an action still pending."""

    def obligations(self, kind: str | None = None) -> list[Tracked]:
        import z3

        return [Tracked("sba.loop", z3.BoolVal(False))]


class _UnboundedSystem(RegenSystem):
    def template_step(self) -> RegenStep:
        t = self.template
        return _UnboundedStep(self, t.pre, t.post, "T", t.params)


def test_a_loop_that_may_stop_early_is_caught() -> None:
    """The loop-bound query asks first without the successor's definitions; a model there
    is asked again in full, so a broken bound is VIOLATED, not waved through."""
    from regen_model.encoding.queries import sba_bound

    assert sba_bound(_UnboundedSystem(scope=ONE_SLOT), "cleanup").verdict is Verdict.VIOLATED
    assert sba_bound(RegenSystem(scope=ONE_SLOT), "check-sba").verdict is Verdict.PROVED


def test_an_absent_damage_share_deals_nothing() -> None:
    """A share the action does not deal (``Params.share`` false: no such recipient, or a
    spell's target that turned illegal, 608.2b) deals no damage whatever its amount says
    (120.1). The concrete evaluation skips absent shares (``SymWork.skip``), so the agreement
    walk cannot see a relation that reads an absent share's amount; the symbolic relation
    must not either (``effects.deal_damage``: a share is ``live`` only where present)."""
    system = RegenSystem(scope=ONE_SLOT)
    rel = system.relation("deal-damage")
    template = system.template
    pre = dict(zip(layout(ONE_SLOT).keys, template.pre.vars(), strict=True))
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards])
    solver.add(*[z3.Not(present) for present in template.params.share])
    solver.add(z3.Or(*[rel.values[k] != pre[k] for k in ("c0.damage", "c0.minus", "p0.life")]))
    assert solver.check() == z3.unsat


def test_damage_without_lifelink_gains_no_life() -> None:
    """Only damage from a source with lifelink makes its controller gain life (702.15b): with
    no lifelink in the action and no permanent source, no player's life goes up. A wrong
    guard on the lifelink write shows only in the symbolic relation, where the keywords are
    terms (on concrete values a share without lifelink returns before the write)."""
    system = RegenSystem(scope=ONE_SLOT)
    rel = system.relation("deal-damage")
    template = system.template
    params = template.params
    pre = dict(zip(layout(ONE_SLOT).keys, template.pre.vars(), strict=True))
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards])
    solver.add(z3.Not(params.kw(Keyword.LIFELINK)), params.source == NONE)
    solver.add(z3.Or(*[rel.values[f"p{q}.life"] > pre[f"p{q}.life"] for q in range(2)]))
    assert solver.check() == z3.unsat


def test_damage_no_share_names_marks_nothing() -> None:
    """Only a share the action holds deals damage (120.3e): with the card's share absent, its
    marked damage stays, whatever amount the unused parameter holds. On concrete values an
    absent share is skipped before it reaches the card, so only the symbolic relation can
    show a write that forgot the share's presence (slice 7's ``effects._to_card``)."""
    system = RegenSystem(scope=ONE_SLOT)
    rel = system.relation("deal-damage")
    params = system.template.params
    pre = dict(zip(layout(ONE_SLOT).keys, system.template.pre.vars(), strict=True))
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(params, ONE_SLOT))
    solver.add(z3.Not(params.share[0]), rel.values["c0.damage"] != pre["c0.damage"])
    assert solver.check() == z3.unsat


def _a_may_draw_for_the_second_player_resolves() -> tuple[
    z3.Solver, dict[str, Any], dict[str, Any], Any
]:
    """A solver holding a pass that resolves the one object on the stack, a "target player
    may draw" aimed at the second player (Fecundity's trigger), at one card slot; with the
    pre-state's and the relation's values by key, and that object's variables."""
    system = RegenSystem(scope=ONE_SLOT)
    rel = system.relation("pass")
    template = system.template
    pre = dict(zip(layout(ONE_SLOT).keys, template.pre.vars(), strict=True))
    top = template.pre.stack[0]
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(template.params, ONE_SLOT))
    solver.add(*template.pre.domain(), template.pre.stack_size == 1)
    solver.add(top.effect == ordinal(EffectKind.MAY_DRAW), top.n_targets == 1)
    solver.add(top.target_player[0] == 1, rel.values["stack_size"] == 0)
    return solver, pre, dict(rel.values), top


def test_a_may_draw_resolving_draws_for_its_target_player_only() -> None:
    """A resolving "target player may draw" (Fecundity's trigger) lets only the player it
    targets draw (608.2d, 121.1): the other player's hand stays as it was. On concrete values
    the other player's draw is skipped before it is written, so only the symbolic relation can
    show a draw that forgot which player it is for (slice 7's ``effects.draw_may``)."""
    solver, pre, post, _ = _a_may_draw_for_the_second_player_resolves()
    assert solver.check() == z3.sat  # it resolves
    solver.add(post["p0.hand"] != pre["p0.hand"])
    assert solver.check() == z3.unsat


def test_a_may_draw_resolving_for_one_player_marks_no_empty_library_draw_for_the_other() -> None:
    """A draw from an empty library is remembered only for the player who attempts it (121.4,
    704.5b): a resolving "target player may draw" aimed at the second player never marks the
    first player's attempted draw (nor makes them lose), whatever their library holds. On concrete
    values the other player's draw is skipped before it is written, so only the symbolic
    relation can show the mark written without the draw's condition (slice 13's
    ``effects.draw``)."""
    solver, pre, post, top = _a_may_draw_for_the_second_player_resolves()
    solver.add(top.kind == ordinal(StackKind.TRIGGER))  # Fecundity's, not combat damage
    # the first player has nothing that would make them lose (704.5a-c)
    solver.add(z3.Not(pre["p0.drew_empty"]), z3.Not(pre["p0.lost"]))
    solver.add(pre["p0.life"] > 0, pre["p0.poison"] < 10)
    assert solver.check() == z3.sat  # it resolves
    # the mark, or the loss the check that follows makes of it (704.5b clears the mark)
    solver.add(z3.Or(post["p0.drew_empty"], post["p0.lost"]))
    assert solver.check() == z3.unsat


def _in_domain(kind: str, scope: Scope) -> tuple[Any, Any, z3.Solver]:
    """The relation template at ``scope``, ``kind``'s relation, and a solver holding its
    guards and the domains of the parameters, the pre-state and the printed cards."""
    system = RegenSystem(scope=scope)
    rel = system.relation(kind)
    template = system.template
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(template.params, scope))
    solver.add(*template.pre.domain(), *template.statics.domain())
    return template, rel, solver


def test_a_pass_counters_at_most_one_spell() -> None:
    """One pass resolves one object (608.1), and a resolving "counter target spell" counters
    its one target (701.6a): the step's ``countered`` output, which queries and invariants
    read, is 0 or 1 and never more. On concrete values the count is a number added once,
    so only the symbolic relation can show a wrong term for it (slice 13's
    ``stack.counter_at``)."""
    scope = Scope(cards=1, shields=1, stack=2, pending=1, targets=1)  # the spell and its counter
    # two fresh solvers, not one asked under assumptions: under a mutant of counter_at,
    # Z3's incremental core (used with assumptions) ran for minutes; fresh ones answer at once
    _, rel, solver = _in_domain("pass", scope)
    solver.add(rel.countered == 1)
    assert solver.check() == z3.sat  # a Counterspell resolves and counters its target
    _, rel, solver = _in_domain("pass", scope)
    solver.add(z3.Or(rel.countered < 0, rel.countered > 1))
    assert solver.check() == z3.unsat


def test_a_pass_with_nothing_below_the_top_object_counters_nothing() -> None:
    """701.6a: a spell is countered only if it is on the stack; with one object on the stack,
    the resolving one, a pass counters nothing, whatever that object is and whatever it
    targets (a counter spell with no spell left to counter does nothing, 608.2b). Only the
    symbolic relation can count a counter whose condition fails, as a term (slice 14's
    ``stack.counter_at``)."""
    scope = Scope(cards=1, shields=1, stack=2, pending=1, targets=1)
    template, rel, solver = _in_domain("pass", scope)
    solver.add(template.pre.stack_size == 1, rel.countered != 0)
    assert solver.check() == z3.unsat


def test_a_creature_a_destruction_leaves_on_the_battlefield_keeps_its_plus_counters() -> None:
    """Regeneration replaces the destruction (701.19a): the creature stays on the battlefield,
    the same object, and keeps its +1/+1 counters (only a new object starts without them,
    400.7, 122.2). In the symbolic destroy relation whether the card moves is a term, so only
    there can a counter reset that forgot the move's condition show (slice 13's
    ``zones.move_zone``)."""
    template, rel, solver = _in_domain("destroy", ONE_SLOT)
    pre = dict(zip(layout(ONE_SLOT).keys, template.pre.vars(), strict=True))
    on_bf = ordinal(Zone.BATTLEFIELD)
    solver.add(pre["c0.zone"] == on_bf, rel.values["c0.zone"] == on_bf)
    solver.add(rel.values["c0.gen"] == pre["c0.gen"], pre["c0.minus"] == 0)
    solver.add(pre["c0.plus"] > 0)
    assert solver.check() == z3.sat  # saved by a shield, with its counters
    solver.add(rel.values["c0.plus"] != pre["c0.plus"])
    assert solver.check() == z3.unsat


def test_a_trigger_that_is_no_reflexive_one_gets_no_target_as_it_goes_on_the_stack() -> None:
    """Only the reflexive trigger made in this step has its target chosen as it goes on the
    stack (603.3d, 603.12). Go-Shintai's end-step trigger ("you may pay {1}. When you do,
    ...") has none and gets none, even where a creature meets the reflexive trigger's rule: a
    pass from an empty stack that puts such a trigger on it leaves it without a target. On
    concrete values the waiting triggers that are not the reflexive one are skipped, so only
    the symbolic relation can show a choice made for every one of them (slice 7's
    ``effects.trigger_target``)."""
    template, rel, solver = _in_domain("pass", ONE_SLOT)
    solver.add(template.pre.stack_size == 0, template.pre.pending_size == 0)
    solver.add(rel.values["stack_size"] == 1)
    solver.add(rel.values["stack0.effect"] == ordinal(EffectKind.WHEN_YOU_DO))
    assert solver.check() == z3.sat  # the end-step trigger goes on the stack
    solver.add(rel.values["stack0.n_targets"] != 0)
    assert solver.check() == z3.unsat


def _a_when_you_do_resolves_into_a_destroy(rules: Rules) -> tuple[z3.Solver, dict[str, Any]]:
    """A solver over one-slot pass steps (its guards, the parameters' and frames' domains)
    where the one object on the stack, a "when you do" trigger (Go-Shintai's end-step
    trigger), resolves and leaves one object, a destroy: the reflexive trigger (603.12) in
    its place; with the pass's successor values."""
    system = RegenSystem(scope=ONE_SLOT, rules=rules)
    rel = system.relation("pass")
    template = system.template
    top = template.pre.stack[0]
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(template.params, ONE_SLOT))
    solver.add(*template.pre.domain(), *template.statics.domain())
    solver.add(template.pre.stack_size == 1, template.pre.pending_size == 0)
    solver.add(top.kind == ordinal(StackKind.TRIGGER))
    solver.add(top.effect == ordinal(EffectKind.WHEN_YOU_DO))
    solver.add(rel.values["stack_size"] == 1)
    solver.add(rel.values["stack0.effect"] == ordinal(EffectKind.DESTROY))
    return solver, rel.values


def test_the_reflexive_trigger_a_resolving_when_you_do_makes_gets_its_target() -> None:
    """Paying as "you may pay {1}. When you do, destroy target creature ..." resolves makes a
    reflexive trigger (603.12) whose target is chosen as it goes on the stack (603.3d): in
    the symbolic relation of a pass that resolves it, the trigger can reach the stack with
    its one target. Which waiting trigger is the reflexive one (``SymWork.reflexive_at``) is
    set inside one case of the effect dispatch and carried out of every enclosing branch by
    the join; concrete evaluation takes no join, so only the symbolic relation can show a
    join that dropped it (slice 9's ``SymWork._join``)."""
    solver, post = _a_when_you_do_resolves_into_a_destroy(CORRECT)
    solver.add(post["stack0.target_rule"] == ordinal(CHOSEN_ON_STACK))
    assert solver.check() == z3.sat  # the reflexive trigger goes on the stack
    solver.add(post["stack0.n_targets"] == 1)
    assert solver.check() == z3.sat


def test_under_prevention_not_reduced_damage_leaves_the_prevention_shield_as_it_was() -> None:
    """The rule mutant ``prevention-not-reduced`` (615.7 broken: a "prevent the next N" shield
    is not reduced by what it prevents), in the symbolic relation: dealing damage never changes
    the shield. Its write of the unchanged value runs with a symbolic condition only in the
    symbolic build, which no other check builds under that mutant (slice 7's
    ``effects.prevention``)."""
    rules = Rules(frozenset({Mutant.PREVENTION_NOT_REDUCED}))
    system = RegenSystem(scope=ONE_SLOT, rules=rules)
    rel = system.relation("deal-damage")
    template = system.template
    pre = dict(zip(layout(ONE_SLOT).keys, template.pre.vars(), strict=True))
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(template.params, ONE_SLOT))
    solver.add(rel.values["c0.prevent_next"] != pre["c0.prevent_next"])
    assert solver.check() == z3.unsat


def _guarded(kind: str, scope: Scope) -> tuple[Any, z3.Solver]:
    """The relation template at ``scope`` and a solver holding the guards of ``kind``'s
    relation and the parameters' domain."""
    system = RegenSystem(scope=scope)
    rel = system.relation(kind)
    solver = z3.Solver()
    solver.add(*[c.formula for c in rel.guards], *P.domain(system.template.params, scope))
    return system.template, solver


def test_pyramids_needs_its_one_target() -> None:
    """Pyramids' "destroy ... of target land" is activated with exactly one target (601.2c,
    602.2b): no activation of it names none. The parameters' domain does not tie the target
    slots to ``n_targets``, and the actions' encoding always does (an action with no target
    names none), so only the symbolic relation can show a guard that forgot the count."""
    assert _activated_with_no_target("remove_damage_ability") == z3.unsat


def _activated_with_no_target(ability: str) -> Any:
    """The answer to: card slot 0's first ability, printed with the statics' field
    ``ability`` (a targeted one), activated naming no target (``n_targets`` 0, the unused
    slot naming card 0), in the relation's guard."""
    scope = Scope(cards=2, shields=1, stack=1, pending=1, targets=1)
    template, solver = _guarded("activate", scope)
    params = template.params
    solver.add(getattr(template.statics.cards[0], ability))
    solver.add(params.target == 0, params.ability == 0, params.n_targets == 0)
    return solver.check()


def test_a_regenerate_target_creature_ability_needs_its_one_target() -> None:
    """A "Regenerate target creature" ability (``target_regen``) is activated with exactly
    one target (601.2c, 602.2b), as Pyramids' above: no activation of it names none. The
    parameters' domain leaves the target slots free when ``n_targets`` is 0, and such
    parameters read back as an activation without a target, which the engine refuses; so the
    relation must refuse them too whatever the unused slot holds (slice 16's
    ``step._activate``)."""
    assert _activated_with_no_target("target_regen") == z3.unsat


def test_no_damage_spell_is_cast_at_a_land() -> None:
    """A damage spell never targets "a land" (120.1a: damage is dealt to no object that is
    no battle, creature or planeswalker), as the engine refuses such a cast: in the symbolic
    relation a cast with the damage effect and the land rule is unsatisfiable, and with the
    destroy effect (Land Blast's) it is not. The scenario loader refuses such a spell, so no
    concrete state or action reaches this guard."""
    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    template, solver = _guarded("cast", scope)
    params = template.params
    solver.add(*template.pre.domain(), *template.statics.domain())
    solver.add(params.cast_rule == ordinal(TargetRule.LAND))
    land_blast = [params.n_targets == 1, params.tgt_card[0] == 0, params.tgt_player[0] == NONE]
    destroy = params.eff_kind == ordinal(EffectKind.DESTROY)
    assert solver.check(*land_blast, destroy) == z3.sat  # Land Blast at the land in slot 0
    assert solver.check(params.eff_kind == ordinal(EffectKind.DAMAGE)) == z3.unsat


def test_only_a_counterspell_targets_a_spell() -> None:
    """ "Target spell" is Counterspell's rule only (``engine.step._spell_target``; 601.2c,
    115.1): in the symbolic relation a cast with the spell rule and any other effect is
    unsatisfiable, whatever its target count (an effect with no target, a draw, would leave
    the rule unchecked otherwise), and with the counter effect it is not. The scenario
    loader gives the spell rule to no other effect, so no concrete cast reaches this guard
    (slice 16's ``step._cast``)."""
    # a spell on the stack and room for the cast one above it (115.5)
    scope = Scope(cards=1, shields=1, stack=2, pending=1, targets=1)
    template, solver = _guarded("cast", scope)
    params = template.params
    solver.add(*template.pre.domain(), *template.statics.domain())
    solver.add(params.cast_rule == ordinal(TargetRule.SPELL))
    counter = params.eff_kind == ordinal(EffectKind.COUNTER_SPELL)
    assert solver.check(counter) == z3.sat
    assert solver.check(z3.Not(counter)) == z3.unsat


def test_a_counter_effect_is_cast_with_the_spell_rule_only() -> None:
    """Counterspell's effect counters "target spell" (701.6a, 115.1): a cast with the counter
    effect and any other target rule (a creature, a player) is refused as the engine refuses
    it (``engine.step._spell_target``, 601.2c), whatever it names. The scenario loader gives
    the counter effect no other rule, so only the symbolic relation, cast parameters free,
    reaches this guard (slice 17's ``step._cast``: the spell requirements asked only of a
    cast with the spell rule)."""
    scope = Scope(cards=1, shields=1, stack=2, pending=1, targets=1)
    template, solver = _guarded("cast", scope)
    params = template.params
    solver.add(*template.pre.domain(), *template.statics.domain())
    solver.add(params.eff_kind == ordinal(EffectKind.COUNTER_SPELL))
    assert _fresh_check(solver, params.cast_rule == ordinal(TargetRule.SPELL)) == z3.sat
    assert _fresh_check(solver, params.cast_rule != ordinal(TargetRule.SPELL)) == z3.unsat


def test_no_spell_mills_a_negative_number_of_cards() -> None:
    """The model's mill is "target player mills N cards" with N of 0 or more (701.17a,
    107.1b: a negative number of cards is no instruction the engine accepts), though the
    parameters' domain gives an effect's amount negative values too (for other effects): a
    cast of a mill of -1 is refused and one of 0 is not. The scenario loader refuses a
    negative mill, so only the symbolic relation reaches this guard (slice 17's
    ``step._cast``)."""
    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    template, solver = _guarded("cast", scope)
    params = template.params
    solver.add(*template.pre.domain(), *template.statics.domain())
    solver.add(params.eff_kind == ordinal(EffectKind.MILL), params.eff_draw == 0)
    assert _fresh_check(solver, params.eff_amount == 0) == z3.sat
    assert _fresh_check(solver, params.eff_amount == -1) == z3.unsat


def _fresh_check(solver: z3.Solver, *extra: Any) -> Any:
    """``solver``'s assertions and ``extra`` asked of a fresh solver (one question each)."""
    fresh = z3.Solver()
    fresh.add(*solver.assertions(), *extra)
    return fresh.check()


class _Post:
    """A successor frame of two variables, for the shape checks of ``determinism``."""

    def __init__(self) -> None:
        import z3

        self.x, self.y = z3.Ints("x_next y_next")

    def vars(self) -> list[object]:
        return [self.x, self.y]


def test_definitions_that_read_a_successor_variable_are_not_definitions() -> None:
    """The covering argument needs every definition's condition and value to be free of
    successor variables; one that reads one (``y' == x'``), written either way round or in
    an implication's condition, sends the kind to the direct query."""
    import z3

    from regen_model.encoding.queries import _definitions, _Raw

    post = _Post()
    a, b = z3.Ints("a b")
    c = z3.Bool("c")
    raw = _Raw(post.x.ctx)
    split = _definitions(raw, post, [post.x == a + 1, z3.Implies(c, b == post.y)])
    assert split is not None
    defined, others = split
    assert sorted(defined) == sorted([post.x.get_id(), post.y.get_id()]) and others == []
    assert defined[post.x.get_id()] == [None]  # unconditional
    for bad in (
        [post.x == a, z3.Implies(c, post.y == post.x + 1)],
        [post.x == a, post.y == b, z3.Implies(post.x > 0, c)],
        [post.x == a, z3.Implies(post.y > 0, post.y == b)],
    ):
        assert _definitions(raw, post, bad) is None, bad


def test_the_loop_obligation_survives_the_branches_after_it() -> None:
    """704.3: ``check-sba``'s relation relies on its schedule of checks sufficing (the
    obligation ``sba.loop``, asked by the loop-bound query). The loop makes it and then
    branches (the deathtouch record cleared, 603.3b's triggers put on the stack): a join that
    kept only what its branches obliged would drop it, and the query would ask nothing.
    With one card slot the schedule is two checks (``sba.schedule``): the second looks only
    at what the first can leave pending and obliges the rest not to be, and the loop's end
    obliges that nothing is pending after the last one, so there are exactly two."""
    step = RegenSystem(scope=ONE_SLOT).template_step()
    obligations = step.obligations("check-sba")
    assert {t.label for t in obligations} == {"sba.loop"}
    assert len(obligations) == 2


@pytest.mark.parametrize(
    "spec",
    [
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, minus=2),  # toughness 0, 704.5f
        CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, damage=2),  # lethal, 704.5g
    ],
    ids=["toughness-zero", "lethal-damage"],
)
def test_a_narrowed_check_obliges_what_it_leaves_out_not_to_be_pending(spec: CardSpec) -> None:
    """704.3, ``sba.schedule``: a later check of the loop looks only at what the earlier ones
    can leave pending and obliges the rest not to be. The third check looks only at Auras
    (``AFTER_SECOND``), so on a creature with toughness 0 or lethal damage its obligation is
    false (concrete values: the obligation is the literal False)."""
    state = make_state(("A", "B"), [spec])
    scope = AGREEMENT_FRAME_SCOPE
    prep = prepare(state, scope)
    w = SymWork(
        prep.context(CORRECT, P.of_action(state, A.PassPriority(player=0), scope)), prep.pre
    )
    sba_pass(w, AFTER_SECOND)
    assert w.obligations == [("sba.loop", False)]


def _symbolic_start(scope: Scope, rules: Rules = CORRECT) -> tuple[RegenSystem, Any, SymWork]:
    """The system at ``scope``, its template's pre-frame and a work over that frame's
    constants (printed cards symbolic), as ``system.legal_start`` builds one."""
    from regen_model.encoding.work import Context

    system = RegenSystem(scope=scope, rules=rules)
    frame = system.template.pre
    lay = layout(scope)
    statics = dict(zip(lay.static_keys, frame.statics.vars(), strict=True))
    ctx = Context.make(rules, scope, statics, {k: 0 for k in lay.param_keys}, eager=False)
    return system, frame, SymWork(ctx, dict(zip(lay.keys, frame.vars(), strict=True)))


@pytest.mark.parametrize(
    "pending",
    ["lethal-damage", "zero-toughness", "deathtouch", "counters"],
)
def test_no_legal_start_has_a_state_based_action_pending(pending: str) -> None:
    """A legal start is a state in which a player would get priority, so no state-based
    action is pending there (704.3, 117.5): no creature on the battlefield with lethal damage
    marked on it (704.5g), dealt deathtouch damage (704.5h) or with toughness 0 or less
    (704.5f), nor a permanent with both +1/+1 and -1/-1 counters on it (704.5q). ``init``
    asks it through ``derived.sba_pending``, which only the symbolic build reads at a start
    (no walk point or scenario starts from an arbitrary state), so a term dropped from it
    admitted such starts to every proof (slice 11's ``derived.sba_pending``; 704.5q: slice
    15's)."""
    from regen_model.encoding import derived as D
    from regen_model.encoding.ops import to_z3

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    system, frame, w = _symbolic_start(scope)
    term = {
        "lethal-damage": D.lethal_damage_pending,
        "zero-toughness": D.zero_toughness_pending,
        "deathtouch": D.deathtouch_pending,  # 704.5h
        "counters": D.counters_annihilate,  # 704.5q
    }[pending](w, 0)
    solver = z3.Solver()
    solver.add(*[t.formula for t in system.init(frame)])
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(term))
    assert solver.check() == z3.unsat
    # the same start without the pending action is a legal one
    solver = z3.Solver()
    solver.add(*[t.formula for t in system.init(frame)])
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(D.creature_on_battlefield(w, 0)))
    assert solver.check() == z3.sat


def _pending_only_for_a_creature_on_the_battlefield(check: str) -> None:
    """The symbolic build of the state-based check ``derived.<check>`` holds of no card but
    a creature on the battlefield, and of some such creature (a check that holds of nothing
    would pass the first half)."""
    from regen_model.encoding import derived as D
    from regen_model.encoding.ops import to_z3

    pending = getattr(D, check)
    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(pending(w, 0)))
    solver.add(z3.Not(to_z3(D.creature_on_battlefield(w, 0))))
    assert solver.check() == z3.unsat
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(pending(w, 0)))
    assert solver.check() == z3.sat


def test_zero_toughness_is_pending_only_for_a_creature_on_the_battlefield() -> None:
    """704.5f puts a creature with toughness 0 or less into its owner's graveyard: a land, an
    Aura or a card in another zone, whatever toughness its fields add up to, is not one. On
    concrete values the check returns before it asks toughness for such a card; only the
    symbolic build (the proofs, where a card's zone and types are terms) asks the whole
    condition, so a dropped 'creature on the battlefield' let a land on the battlefield go to
    the graveyard there (slice 11's ``derived.zero_toughness_pending``)."""
    _pending_only_for_a_creature_on_the_battlefield("zero_toughness_pending")


def test_lethal_damage_is_pending_only_for_a_creature_on_the_battlefield() -> None:
    """704.5g destroys a creature with lethal damage marked on it: a permanent that is no
    creature (a type change, 613.1d) or a card in another zone is none, whatever damage it
    has. On concrete values the check returns before it asks toughness for such a card; only
    the symbolic build asks the whole condition, so a dropped 'creature on the battlefield'
    destroyed such a card there (slice 12's ``derived.lethal_damage_pending``)."""
    _pending_only_for_a_creature_on_the_battlefield("lethal_damage_pending")


def test_a_may_gain_for_another_player_changes_no_life_total() -> None:
    """Judge of Currents' trigger: the player it names may gain life as it resolves (608.2d);
    a player it does not name gains nothing. On concrete values the gain of a player not
    named is skipped before the write; only the symbolic build writes under the condition,
    so a write without it gave every player who did not decline the life (slice 12's
    ``effects.gain_may``)."""
    from regen_model.encoding.effects import gain_may
    from regen_model.encoding.ops import to_z3

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, start = _symbolic_start(scope)
    params = {k: 0 for k in layout(scope).param_keys} | {"decline": False}  # nobody declines
    w = SymWork(start.ctx.with_params(params), start.v)
    key = w.f.players[0].life
    before = to_z3(w[key])
    named = z3.Bool("named")
    gain_may(w, 0, 2, named)
    solver = z3.Solver()
    solver.add(*frame.domain(), z3.Not(named), to_z3(w[key]) != before)
    assert solver.check() == z3.unsat


def test_under_mill_short_library_loses_a_mill_that_does_not_happen_loses_nothing() -> None:
    """The rule mutant ``mill-short-library-loses`` (701.17b broken: milling more cards than
    the library holds counts as drawing from an empty library) records the loss only for a
    mill that happens. On concrete values a mill whose condition is false is skipped before
    the line; only the symbolic build (the proofs under that mutant) writes under the
    condition, so a write without it made every player short of cards lose at any
    resolution (slice 11's ``effects.mill``)."""
    from regen_model.encoding.effects import mill
    from regen_model.encoding.ops import to_z3

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope, Rules(frozenset({Mutant.MILL_SHORT_LIBRARY_LOSES})))
    key = w.f.players[0].drew_empty
    before = to_z3(w[key])
    library = to_z3(w[w.f.players[0].library])
    mills = z3.Bool("mills")
    mill(w, 0, 3, mills)
    solver = z3.Solver()
    solver.add(*frame.domain(), z3.Not(mills), to_z3(w[key]) != before)
    assert solver.check() == z3.unsat
    solver = z3.Solver()  # and a mill of 3 from a library of 2 does record it
    solver.add(*frame.domain(), mills, z3.Not(before), library == 2)
    solver.add(z3.Not(to_z3(w[key])))
    assert solver.check() == z3.unsat


def test_a_mill_that_does_not_happen_adds_no_group_to_the_graveyard() -> None:
    """701.17a, 404.3: a mill puts the milled cards into their owner's graveyard as one new
    group only where it happens. On concrete values a mill whose condition is false (Thought
    Scour's other player) is skipped before the write; only the symbolic build writes under
    the condition, so a write without it gave every player whose library held a card a new
    graveyard group at any mill's resolution (slice 19's ``effects.mill``)."""
    from regen_model.encoding.effects import mill
    from regen_model.encoding.ops import to_z3

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    pv = w.f.players[0]
    size, library = to_z3(w[pv.gy_size]), to_z3(w[pv.library])
    mills = z3.Bool("mills")
    mill(w, 0, 2, mills)
    solver = z3.Solver()  # a fresh solver per question
    solver.add(*frame.domain(), z3.Not(mills), library == 3, to_z3(w[pv.gy_size]) != size)
    assert solver.check() == z3.unsat
    solver = z3.Solver()  # and a mill that happens adds exactly one group
    solver.add(*frame.domain(), mills, library == 3, to_z3(w[pv.gy_size]) != size + 1)
    assert solver.check() == z3.unsat


def test_a_new_turn_leaves_the_summoning_sickness_of_a_card_off_the_battlefield() -> None:
    """302.6: as a turn begins, what its active player controls on the battlefield (phased
    out too, 702.26d) has been theirs since the turn began; a card in another zone is no
    permanent and the engine leaves its fields alone (``engine.turn``'s new turn). A legal
    start may hold such a card with the flag set (``system.legal_start`` does not ask it
    clear), and only the symbolic build reads the zone there (slice 11's
    ``turn.next_turn``)."""
    from regen_model.encoding.ops import to_z3
    from regen_model.encoding.turn import next_turn
    from regen_model.model.enums import Zone

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    c = w.c(0)
    zone, sick = to_z3(w[c.zone]), to_z3(w[c.sick])
    next_turn(w)
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(zone == ordinal(Zone.GRAVEYARD), sick, z3.Not(to_z3(w[c.sick])))
    assert solver.check() == z3.unsat


@pytest.mark.parametrize(
    "keyword",
    [Keyword.INDESTRUCTIBLE, Keyword.TRAMPLE, Keyword.FIRST_STRIKE],
    ids=lambda k: k.value,
)
def test_an_attachment_gives_only_the_keywords_it_grants(keyword: Keyword) -> None:
    """611.3a, 702.6a: an Aura or Equipment gives its creature the keywords its text grants,
    not every grantable keyword: with the printed cards symbolic, a creature that neither
    prints nor is granted ``keyword`` has it only if an attachment on the battlefield
    attached to it grants that keyword. On concrete cards an attachment that grants nothing
    is skipped before it is asked, so only the symbolic relation shows an attachment read as
    granting whatever it carries (slice 16's ``derived.granted_by_attachments``)."""
    from regen_model.encoding import derived as D
    from regen_model.encoding.ops import to_z3

    scope = Scope(cards=2, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    creature, attachment = frame.statics.cards
    card = frame.cards[0]
    base = [
        *frame.domain(),
        *frame.statics.domain(),
        creature.creature,
        z3.Not(creature.kw(keyword)),
        z3.Not(card.granted(keyword)),
        z3.Not(card.removed(keyword)),
        frame.cards[1].zone == ordinal(Zone.BATTLEFIELD),
        frame.cards[1].attached_to == 0,
        to_z3(D.has(w, 0, keyword)),
    ]
    grants = attachment.grant(keyword)
    for grant, answer in ((grants, z3.sat), (z3.Not(grants), z3.unsat)):
        solver = z3.Solver()  # a fresh solver per question
        solver.add(*base, grant)
        assert solver.check() == answer, grant


def test_an_aura_that_falls_off_is_an_aura_on_the_battlefield() -> None:
    """704.5m puts into its owner's graveyard an Aura on the battlefield attached to nothing
    or to what it cannot enchant: a permanent that is no Aura, attached to nothing as every
    creature is, is none. On concrete values the check returns before for a card that is no
    Aura on the battlefield; only the symbolic build (the proofs, where a card's zone and
    printed attachment are terms) asks the whole condition, so a dropped 'an Aura on the
    battlefield' sent every unattached permanent to the graveyard there (slice 17's
    ``derived.aura_illegal``)."""
    from regen_model.encoding import derived as D
    from regen_model.encoding.ops import to_z3
    from regen_model.model.enums import Attachment

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    aura = z3.And(
        to_z3(D.on_battlefield(w, 0)), frame.statics.cards[0].attachment == ordinal(Attachment.AURA)
    )
    solver = z3.Solver()
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(D.aura_illegal(w, 0)), z3.Not(aura))
    assert solver.check() == z3.unsat
    solver = z3.Solver()  # and an Aura attached to nothing does fall off
    solver.add(*frame.domain(), *frame.statics.domain())
    solver.add(to_z3(D.aura_illegal(w, 0)))
    assert solver.check() == z3.sat


def test_a_rider_without_counters_puts_no_trigger_on_the_waiting_list() -> None:
    """A regeneration shield's -1/-1 or +1/+1 counter rider ("if it regenerates this way") is
    a delayed trigger (603.7a) that waits only where the shield was used and its rider is one
    of those two; a use with another rider (but Soldevi Sentry's draw, a trigger of its own), or
    no use, adds nothing to the waiting triggers.
    On concrete values the push is skipped before where it is not made; only the symbolic
    build (the proofs, where the rider and the use are terms) writes under the condition, so a
    push without it put a counters trigger on the waiting list at every destruction (slice
    17's ``destruction.apply_rider``)."""
    from regen_model.encoding.destruction import apply_rider
    from regen_model.encoding.ops import to_z3
    from regen_model.model.enums import Rider

    scope = Scope(cards=1, shields=1, stack=1, pending=1, targets=1)
    _, frame, w = _symbolic_start(scope)
    key = w.f.pending_size
    before = to_z3(w[key])
    rider, used = z3.Int("rider"), z3.Bool("used")
    apply_rider(w, 0, rider, 1, used)
    counters = z3.And(
        used, z3.Or(rider == ordinal(Rider.MINUS_COUNTER), rider == ordinal(Rider.PLUS_COUNTER))
    )
    solver = z3.Solver()
    draws = rider == ordinal(Rider.OPPONENT_MAY_DRAW)  # Soldevi Sentry's rider waits too
    solver.add(*frame.domain(), z3.Not(counters), z3.Not(draws), to_z3(w[key]) != before)
    assert solver.check() == z3.unsat
    solver = z3.Solver()  # and a used shield with a counter rider does put its trigger there
    solver.add(*frame.domain(), counters, to_z3(w[key]) == before)
    solver.add(before < scope.pending)
    assert solver.check() == z3.unsat


def test_under_reflexive_by_source_controller_the_reflexive_trigger_still_goes_on_the_stack() -> (
    None
):
    """Under the rule mutant ``reflexive-by-source-controller`` the reflexive trigger a paid
    "when you do" makes is controlled by its source's controller now (the mutant's reading of
    603.7e), picked from the cards by the ability's source slot. The symbolic relation of a
    pass must still build and let the trigger reach the stack with its one target (603.12,
    603.3d): concrete steps always name a source slot, so only the symbolic term reads the
    choice's fallback, the ability's own controller (slice 20's ``effects.when_you_do``)."""
    rules = Rules(frozenset({Mutant.REFLEXIVE_BY_SOURCE_CONTROLLER}))
    solver, post = _a_when_you_do_resolves_into_a_destroy(rules)
    solver.add(post["stack0.n_targets"] == 1)
    assert solver.check() == z3.sat
