"""A rule mutant's own events say what the wrong version did, by name.

``regen-model run -m MUTANT`` and the mutant matrix show a person the wrong version at work:
the events the engine emits only under a mutant carry the fields that tell them apart from the
correct rules' events (which creature's regeneration unattached an Aura, that a shield's
creation tapped the creature, which shield's rider triggered as it was made). No scenario
reads them, since scenarios run under the correct rules, and the agreement compares states,
not narration: these were the sample screen's ``not reached`` mutants of ``engine.destruction``
and ``engine.effects`` (``benchmarks/mutation-survivors-engine.yaml``)."""

from __future__ import annotations

import pytest

from regen_model.engine import MissingChoice, StepResult, step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import Mutant, Rider, Step, Zone
from regen_model.model.events import Event, EventKind
from regen_model.model.rules import Rules
from regen_model.model.state import Card, GameState, Shield


def _events(mutant: Mutant, state: GameState, action: A.Action) -> list[Event]:
    return list(step(state, action, Rules(frozenset({mutant}))).events)


def _shielded_bears(*, exile_if_dies: bool = False) -> CardSpec:
    """A's Grizzly Bears with one unused regeneration shield of its own (Regenerate)."""
    return CardSpec(
        "bears",
        PERMANENT_CARDS["Grizzly Bears"],
        0,
        shields=(Shield(origin="Regenerate", creator=0, rider=Rider.NONE),),
        exile_if_dies=exile_if_dies,
    )


def test_regen_unattaches_names_the_creature_whose_regeneration_unattached_the_aura() -> None:
    """The mutant treats regeneration like leaving the battlefield (701.19a): the Aura's
    unattached event names the regenerated creature as its origin."""
    state = make_state(
        ("A", "B"),
        [
            _shielded_bears(),
            CardSpec("strength", PERMANENT_CARDS["Holy Strength"], 0, attached_to="bears"),
        ],
    )
    events = _events(Mutant.REGEN_UNATTACHES, state, A.Destroy(targets=("bears",)))
    (unattached,) = [e for e in events if e.kind is EventKind.UNATTACHED]
    assert (unattached.subject, unattached.clause) == ("strength", "regen.same-object")
    assert unattached.get("origin") == "bears"


def test_create_taps_says_the_mutant_tapped_the_creature() -> None:
    """Creating a shield is not regenerating (701.19c); the mutant taps the creature anyway,
    and its became-tapped event says the tap is the mutant's."""
    state = make_state(("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0)])
    events = _events(Mutant.CREATE_TAPS, state, A.CreateShield(target="bears"))
    (tapped,) = [e for e in events if e.kind is EventKind.BECAME_TAPPED]
    assert (tapped.subject, tapped.clause) == ("bears", "regen.shield.create")
    assert tapped.get("by") == "mutant"


def test_rider_on_create_names_the_shield_whose_rider_triggered() -> None:
    """A "when it regenerates this way" rider waits for the shield's use (701.19c); the mutant
    triggers it as the shield is made, and the trigger is named after the shield's origin."""
    state = make_state(("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0)])
    action = A.CreateShield(target="bears", origin="Matopi Golem", rider=Rider.MINUS_COUNTER)
    events = _events(Mutant.RIDER_ON_CREATE, state, action)
    (triggered,) = [e for e in events if e.kind is EventKind.TRIGGERED]
    assert triggered.get("ability") == "rider of Matopi Golem"


def test_exiled_though_regenerated_cites_the_exile_instead_clause() -> None:
    """The mutant applies "if it would die this turn, exile it instead" (614.6) although a
    shield replaced the destruction (701.19a): the move to exile after the regeneration cites
    ``replace.exile-instead``, the clause the wrong version misreads, and says why it moved."""
    state = make_state(
        ("A", "B"),
        [_shielded_bears(exile_if_dies=True)],
    )
    events = _events(Mutant.EXILED_THOUGH_REGENERATED, state, A.Destroy(targets=("bears",)))
    (moved,) = [e for e in events if e.kind is EventKind.ZONE_CHANGE]
    assert (moved.subject, moved.clause) == ("bears", "replace.exile-instead")
    assert moved.get("to") == "exile"
    assert moved.get("cause") == "exiled though saved"


def _shintai_paid(*, shield_counters: int) -> StepResult:
    """Under ``reflexive-inline``, the passes from A's second main phase to the resolution of
    A's Go-Shintai's end-step trigger, with B's Drudge Skeletons (and ``shield_counters``
    shield counters) named as the target of its "when you do" part."""
    state = make_state(
        ("A", "B"),
        [
            CardSpec("shintai", PERMANENT_CARDS["Go-Shintai of Hidden Cruelty"], 0),
            CardSpec(
                "skeletons",
                PERMANENT_CARDS["Drudge Skeletons"],
                1,
                shield_counters=shield_counters,
            ),
        ],
        step=Step.MAIN2,
    )
    rules = Rules(frozenset({Mutant.REFLEXIVE_INLINE}))
    for action in (A.PassPriority(player=0), A.PassPriority(player=1), A.PassPriority(player=0)):
        state = step(state, action, rules).state
    return step(state, A.PassPriority(player=1, target="skeletons"), rules)


def test_reflexive_inline_says_the_payment_was_made_without_a_trigger() -> None:
    """Go-Shintai's "you may pay {1}. When you do, ..." makes a reflexive trigger that waits on
    the stack (603.12); the mutant destroys at once, as part of the resolution, and its note
    cites ``trigger.reflexive`` with the payment made."""
    events = _shintai_paid(shield_counters=0).events
    (paid,) = [e for e in events if e.kind is EventKind.NOTE and e.get("paid") is not None]
    assert (paid.subject, paid.clause) == ("shintai", "trigger.reflexive")
    assert paid.get("paid") is True


def test_reflexive_inline_destruction_still_meets_a_shield_counter() -> None:
    """The wrong version's destruction is still one by an effect: a shield counter on the
    target replaces it (122.1c), the counter is removed and the creature stays, as when the
    reflexive trigger resolves under the correct rules. (Not narration: the mutant's own
    behaviour, which the agreement replays meet only with a shield counter on the target.)"""
    after = _shintai_paid(shield_counters=1).state
    skeletons = after.cards[1]
    assert skeletons.on_battlefield
    assert skeletons.shield_counters == 0


def _phased_out_bears(**counters: int) -> Card:
    """Grizzly Bears with ``counters`` after A's Phase Out resolves on them, under the rule
    mutant ``phasing-leaves-battlefield``."""
    state = make_state(
        ("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, **counters)]
    )
    rules = Rules(frozenset({Mutant.PHASING_LEAVES_BATTLEFIELD}))
    cast = A.CastSpell(
        player=0,
        name="Phase Out",
        effect=Effect(EffectKind.PHASE_OUT),
        target_rule=TargetRule.CREATURE,
        targets=(A.TargetChoice(card="bears"),),
    )
    for action in (cast, A.PassPriority(player=0), A.PassPriority(player=1)):
        state = step(state, action, rules).state
    return state.cards[0]


def test_phasing_leaves_battlefield_loses_the_minus_counters_too() -> None:
    """The wrong version treats phasing out as leaving the battlefield (702.26d says it does
    not): the permanent loses all the object had, its -1/-1 counters as well as its +1/+1
    counters, damage and shields (400.7). (Not narration: the mutant's own behaviour, which
    the agreement replays meet only with a -1/-1 counter on what phases out.)"""
    bears = _phased_out_bears(minus=1)
    assert bears.phased_out is not None
    assert bears.minus == 0


def test_phasing_leaves_battlefield_loses_the_plus_counters_too() -> None:
    """As with the -1/-1 counters: under the wrong version what phases out has no +1/+1
    counter left (400.7), where phasing out keeps every counter (702.26d). (Not narration: the
    mutant's own behaviour; its agreement replays never read the +1/+1 counters of what
    phased out.)"""
    bears = _phased_out_bears(plus=1)
    assert bears.phased_out is not None
    assert bears.plus == 0


def test_reflexive_inline_destruction_cites_the_destroy_clause() -> None:
    """The wrong version's destruction of the Shintai's target is a destruction by an effect
    (701.8): its would-be-destroyed and destroyed events cite ``destroy.effect``, as the
    reflexive trigger's resolution does under the correct rules."""
    events = _shintai_paid(shield_counters=0).events
    cited = [
        e.clause
        for e in events
        if e.subject == "skeletons"
        and e.kind in (EventKind.WOULD_BE_DESTROYED, EventKind.DESTROYED)
    ]
    assert cited == ["destroy.effect", "destroy.effect"]


def test_phasing_leaves_battlefield_loses_the_shield_counters_too() -> None:
    """As with the -1/-1 counters: under the wrong version what phases out loses its shield
    counters too (400.7, 122.1c), where phasing out keeps every counter (702.26d). (Not
    narration: the mutant's own behaviour, which the agreement replays meet only with a shield
    counter on what phases out.)"""
    bears = _phased_out_bears(shield_counters=1)
    assert bears.phased_out is not None
    assert bears.shield_counters == 0


def test_shield_on_attachment_moves_the_shield_with_the_aura() -> None:
    """The shield an Aura's "Regenerate enchanted creature" made belongs to the creature and
    stays when the Aura moves (701.19a); the wrong version moves it with the Aura to its new
    host, and its note says how many moved. (The rule mutant's scenario never moves an Aura.)"""
    shield = Shield(origin="Regenerate", creator=0, rider=Rider.NONE, via=2)
    state = make_state(
        ("A", "B"),
        [
            CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, shields=(shield,)),
            CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 0),
            CardSpec("strength", PERMANENT_CARDS["Holy Strength"], 0, attached_to="bears"),
        ],
    )
    rules = Rules(frozenset({Mutant.SHIELD_ON_ATTACHMENT}))
    result = step(state, A.Attach(attachment="strength", target="giant"), rules)
    bears, giant = result.state.cards[:2]
    assert (len(bears.shields), len(giant.shields)) == (0, 1)
    (moved,) = [e for e in result.events if e.clause == "attach.shields-stay"]
    assert (moved.kind, moved.subject, moved.get("shields_moved")) == (EventKind.NOTE, "giant", 1)


def test_shield_follows_zone_change_keeps_the_unused_shield_through_a_flicker() -> None:
    """A card that leaves the battlefield and returns is a new object with no shield (400.7);
    the wrong version keeps its unused shields, and the returned Bears still have theirs. (Not
    narration: the mutant's own behaviour; the battery meets it only through its successor
    states, which also differ if it keeps the used shields instead.)"""
    state = make_state(("A", "B"), [_shielded_bears()])
    rules = Rules(frozenset({Mutant.SHIELD_FOLLOWS_ZONE_CHANGE}))
    bears = step(state, A.LeaveAndReturn(target="bears"), rules).state.cards[0]
    assert bears.on_battlefield
    assert [s.used for s in bears.shields] == [False]


def test_shield_on_attachment_leaves_the_hosts_own_shield_when_the_aura_leaves() -> None:
    """Under shield-on-attachment the shield an Aura's ability made goes with the Aura as it
    leaves the battlefield; the creature's own shield stays (701.19a). (The rule mutant's
    scenario never has a creature with shields of both kinds.)"""
    own = Shield(origin="Regenerate", creator=0, rider=Rider.NONE)
    made = Shield(origin="Regenerate", creator=0, rider=Rider.NONE, via=1)
    state = make_state(
        ("A", "B"),
        [
            CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, shields=(own, made)),
            CardSpec("strength", PERMANENT_CARDS["Holy Strength"], 0, attached_to="bears"),
        ],
    )
    rules = Rules(frozenset({Mutant.SHIELD_ON_ATTACHMENT}))
    result = step(state, A.Exile(target="strength"), rules)
    assert result.state.cards[0].shields == (own,)
    # its note says how many shields the creature lost with the Aura
    (lost,) = [e for e in result.events if e.clause == "attach.shields-stay"]
    assert (lost.kind, lost.subject, lost.get("shields_lost")) == (EventKind.NOTE, "bears", 1)


def test_phasing_leaves_battlefield_loses_the_damage_too() -> None:
    """As with the counters: under the wrong version what phases out loses the damage marked
    on it (400.7), where phasing out keeps it (702.26d). (Not narration: the mutant's own
    behaviour; its agreement replays never phase out a damaged creature.)"""
    bears = _phased_out_bears(damage=1)
    assert bears.phased_out is not None
    assert bears.damage == 0


def test_toughness_zero_is_destruction_cites_the_toughness_clause() -> None:
    """The wrong version destroys a creature with toughness 0 (704.5f puts it into the
    graveyard: no destruction, so no regeneration); its would-be-destroyed event cites
    ``sba.toughness-zero``, the rule it misreads."""
    state = make_state(
        ("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, minus=2)]
    )
    events = _events(Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION, state, A.CheckStateBasedActions())
    (would,) = [e for e in events if e.kind is EventKind.WOULD_BE_DESTROYED]
    assert (would.subject, would.clause) == ("bears", "sba.toughness-zero")


def test_toughness_zero_is_destruction_is_no_destruction_by_an_effect() -> None:
    """The wrong version reads 704.5f as a destruction, by the state-based check and not by an
    effect: a shield counter, which replaces only a destruction as the result of an effect
    (122.1c), does not save a creature with toughness 0 there, which goes to the graveyard
    with its counter. (Not narration: the mutant's own behaviour; its agreement replays never
    reach toughness 0 with a shield counter.)"""
    state = make_state(
        ("A", "B"),
        [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0, minus=2, shield_counters=1)],
    )
    rules = Rules(frozenset({Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION}))
    result = step(state, A.CheckStateBasedActions(), rules)
    assert result.state.cards[0].zone is Zone.GRAVEYARD
    assert not [e for e in result.events if e.kind is EventKind.REPLACED]


def test_sacrifice_uses_shield_reads_the_sacrifice_as_a_destruction_by_an_effect() -> None:
    """The wrong version lets a sacrifice be replaced like a destruction by an effect (701.21a
    says it is no destruction): a creature with a shield and a shield counter then has two
    replacement effects that apply, the shield and the shield counter's (122.1c speaks of a
    destruction as the result of an effect), so its controller must choose one (616.1). (Not
    narration: the mutant's own behaviour; its agreement replays never sacrifice a creature
    with both.)"""
    state = make_state(
        ("A", "B"),
        [
            CardSpec(
                "bears",
                PERMANENT_CARDS["Grizzly Bears"],
                0,
                shields=(Shield(origin="Regenerate", creator=0, rider=Rider.NONE),),
                shield_counters=1,
            )
        ],
    )
    rules = Rules(frozenset({Mutant.SACRIFICE_USES_SHIELD}))
    with pytest.raises(MissingChoice) as asked:
        step(state, A.Sacrifice(target="bears"), rules)
    assert "shield-counter" in str(asked.value)


def test_sacrifice_uses_shield_cites_the_sacrifice_clause() -> None:
    """The wrong version reads a sacrifice as a destruction a shield replaces (701.21a says it
    is none): its would-be-destroyed event cites ``zone.sacrifice``, the rule it misreads, and
    the shield regenerates the creature."""
    state = make_state(("A", "B"), [_shielded_bears()])
    events = _events(Mutant.SACRIFICE_USES_SHIELD, state, A.Sacrifice(target="bears"))
    (would,) = [e for e in events if e.kind is EventKind.WOULD_BE_DESTROYED]
    assert (would.subject, would.clause) == ("bears", "zone.sacrifice")
    assert [e.subject for e in events if e.kind is EventKind.REGENERATED] == ["bears"]


def test_indestructible_uses_shield_says_an_unshielded_one_is_not_destroyed() -> None:
    """The wrong version lets a regeneration shield replace an indestructible permanent's
    destruction (702.12b says it is simply not destroyed); with no shield to use, nothing
    applies and the permanent stays, and its not-destroyed event says why, as the correct
    rules' does. (The rule mutant's scenario always has a shield.)"""
    state = make_state(("A", "B"), [CardSpec("myr", PERMANENT_CARDS["Darksteel Myr"], 0)])
    result = step(
        state, A.Destroy(targets=("myr",)), Rules(frozenset({Mutant.INDESTRUCTIBLE_USES_SHIELD}))
    )
    assert result.state.cards[0].on_battlefield
    (kept,) = [e for e in result.events if e.clause == "destroy.indestructible"]
    assert (kept.kind, kept.subject, kept.get("reason")) == (
        EventKind.NOT_DESTROYED,
        "myr",
        "indestructible",
    )


def test_static_regen_used_up_saves_the_creature_only_once() -> None:
    """Mossbridge Troll's static "If this would be destroyed, regenerate it" replaces every
    destruction (it is no shield, nothing is used up: regen/static-regeneration.yaml); the wrong
    version uses it up after one regeneration, so the second destruction of the turn puts the
    Troll into its owner's graveyard. (Not narration: the mutant's own behaviour, which its
    scenarios and the battery also meet in states regenerated twice already.)"""
    state = make_state(("A", "B"), [CardSpec("mossbridge", PERMANENT_CARDS["Mossbridge Troll"], 1)])
    rules = Rules(frozenset({Mutant.STATIC_REGEN_USED_UP}))
    once = step(state, A.Destroy(targets=("mossbridge",)), rules).state
    assert once.cards[0].on_battlefield
    twice = step(once, A.Destroy(targets=("mossbridge",)), rules).state
    assert twice.cards[0].zone is Zone.GRAVEYARD
