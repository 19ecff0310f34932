"""``encoding.frame.template_fits`` refuses a card whose ability has a cost the encoding does
not run on that ability's kind (``cards.COST_KINDS``, the table the scenario parser checks
too): a card built in Python passes no parser, and a cost the relation ignores would make it
disagree with the engine, which pays it (601.2h, 602.2b). Each case was a survivor of the
mutation screen (``benchmarks/mutation-survivors-encoding.yaml``)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from regen_model.encoding.frame import Statics, statics_values, template_fits
from regen_model.encoding.scope import OutOfScope, widest
from regen_model.model.cards import (
    COST_KINDS,
    PERMANENT_CARDS,
    AbilityKind,
    ActivatedAbility,
    CardTemplate,
    CardType,
)
from regen_model.model.state import Setup

DARK_PRIVILEGE = PERMANENT_CARDS["Dark Privilege"]
TROLL = PERMANENT_CARDS["Horned Troll"]


def _with(template: CardTemplate, **costs: bool) -> CardTemplate:
    (ability,) = template.abilities
    return replace(template, abilities=(replace(ability, **costs),))


def test_the_printed_cards_with_costs_fit() -> None:
    assert template_fits(DARK_PRIVILEGE) is None  # "Sacrifice a creature: Regenerate ..."
    assert template_fits(TROLL) is None


@pytest.mark.parametrize(
    ("template", "why"),
    [
        (
            _with(TROLL, sacrifice_creature=True),
            "Horned Troll: only an Aura's 'Sacrifice a creature: Regenerate' is encoded",
        ),
        (
            _with(DARK_PRIVILEGE, sacrifice_cost=True),
            "Dark Privilege: only an Aura's 'Sacrifice a creature: Regenerate' is encoded",
        ),
        (
            _with(TROLL, sacrifice_cost=True),
            "Horned Troll: only a 'Sacrifice this' cost of a regenerating ability is encoded",
        ),
        (
            _with(TROLL, tap_cost=True),
            "Horned Troll: only a {T} cost of 'Regenerate target creature' is encoded",
        ),
    ],
    ids=[
        "sacrifice-a-creature-on-regenerate-self",
        "both-sacrifices-on-regenerate-host",
        "sacrifice-this-on-regenerate-self",
        "tap-on-regenerate-self",
    ],
)
def test_a_cost_on_a_kind_the_encoding_does_not_pay_it_for_is_refused(
    template: CardTemplate, why: str
) -> None:
    assert template_fits(template) == why


def test_a_card_that_does_not_fit_is_out_of_scope_where_the_printed_cards_are_pinned() -> None:
    """The printed cards reach the relation only through ``statics_values``/``pin_statics``,
    which ask ``template_fits`` of every card: a card the encoding cannot represent (here a
    cost it would not pay, 601.2h, 602.2b) is out of scope there, never encoded without the
    cost; the card beside it, which fits, is taken (slice 14 of the screen,
    ``frame._assign_statics__mutmut_54``)."""
    keys = Statics.fresh(widest(2), "s", names=True)

    def setup(card: CardTemplate) -> Setup:
        return Setup(("A", "B"), ("troll", "other"), (TROLL, card), (0, 1))

    assert statics_values(keys, setup(DARK_PRIVILEGE))
    with pytest.raises(OutOfScope, match="only an Aura's 'Sacrifice a creature"):
        statics_values(keys, setup(_with(TROLL, sacrifice_creature=True)))


def test_the_ability_kinds_of_the_cost_table() -> None:
    """The cases above rest on these: a regenerate-self ability takes none of the costs."""
    assert all(AbilityKind.REGENERATE_SELF not in kinds for kinds in COST_KINDS.values())
    assert ActivatedAbility(AbilityKind.REGENERATE_HOST, sacrifice_creature=True).costs == (
        "sacrifice-creature",
    )


def test_static_regeneration_on_a_noncreature_is_refused() -> None:
    """``Statics.domain`` gives static regeneration (701.19b) to creatures only, so a
    noncreature carrying it is refused here rather than encoded as something else; without
    this refusal the domain's constraint was not pinned by any check (slice 5 of the screen,
    ``Statics.domain__mutmut_125``)."""
    myr = PERMANENT_CARDS["Darksteel Myr"]
    relic = replace(myr, name="Relic", types=frozenset({CardType.ARTIFACT}), abilities=())
    assert template_fits(replace(relic, static_regeneration=False)) is None
    assert template_fits(replace(relic, static_regeneration=True)) == (
        "Relic: only a creature's static regeneration is encoded"
    )


def test_a_bonus_on_a_permanent_that_attaches_to_nothing_is_refused() -> None:
    """``Statics.domain`` gives a power/toughness bonus only to an Aura or Equipment (the bonus
    is what it gives the permanent it is attached to, 303.4, 301.5), so a creature printed with
    one is refused here as the domain refuses it; before slice 8 of the screen the two
    disagreed and the domain's constraint was pinned by no check
    (``Statics.domain__mutmut_88``)."""
    bears = PERMANENT_CARDS["Grizzly Bears"]
    assert template_fits(bears) is None
    assert template_fits(replace(bears, attach_bonus=(1, 0))) == (
        "Grizzly Bears: only an Aura or Equipment gives a power/toughness bonus"
    )
    assert template_fits(replace(bears, attach_bonus=(0, 2))) is not None


def test_a_self_animating_permanent_that_is_no_land_or_artifact_is_refused() -> None:
    """``template_fits`` takes a self-animating permanent (Spawning Pool's "becomes a
    creature until end of turn", 613.4b) only if it is a land or an artifact, so an
    enchantment with that ability is refused, not encoded; a land or an artifact with it fits
    (slice 15 of the screen, ``frame.template_fits__mutmut_75``, where every type set
    passed)."""
    pool = PERMANENT_CARDS["Spawning Pool"]
    assert template_fits(pool) is None
    assert template_fits(replace(pool, types=frozenset({CardType.ARTIFACT}))) is None
    assert template_fits(replace(pool, name="Idol", types=frozenset({CardType.ENCHANTMENT}))) == (
        "Idol: a self-animating permanent is a land or an artifact"
    )


MERFOLK = "Spawning Pool: only a creature's Merfolk type or Merfolk-tapped watch is encoded"
BASILISK = "Spawning Pool: only a creature's Basilisk ability or Wall type is encoded"


@pytest.mark.parametrize(
    ("field", "why"),
    [
        ({"merfolk": True}, MERFOLK),
        ({"tapped_watch_life": 1}, MERFOLK),
        ({"destroys_combatants": True}, BASILISK),
        ({"wall": True}, BASILISK),
    ],
    ids=["merfolk", "tapped-watch", "basilisk", "wall"],
)
def test_a_creature_only_field_on_a_permanent_that_is_no_creature_is_refused(
    field: dict[str, object], why: str
) -> None:
    """The encoding holds a Merfolk creature type (205.3m), "whenever a Merfolk you control
    becomes tapped", a Basilisk's "destroy at end of combat" (511.2, 603.7c) and the Wall
    creature type (205.3m) only on a creature, so a noncreature permanent with any one of them
    alone is refused, not encoded; a creature with it fits. Where only a card with both of a
    pair was refused, the screen's survivors were ``frame.template_fits__mutmut_97`` (slice
    17, the Merfolk pair) and ``frame.template_fits__mutmut_83`` (catch-up 1, the Basilisk
    pair)."""
    pool = PERMANENT_CARDS["Spawning Pool"]
    assert not pool.is_creature
    assert template_fits(replace(pool, **field)) == why  # type: ignore[arg-type]
    bears = PERMANENT_CARDS["Grizzly Bears"]
    assert template_fits(replace(bears, **field)) is None  # type: ignore[arg-type]


def test_a_damage_trigger_on_a_permanent_that_is_no_creature_is_refused() -> None:
    """``Statics.domain`` gives "whenever this is dealt damage" (603.2, 120.3) to creatures
    only, so a noncreature printed with it is refused here as the domain refuses it; before
    slice 20 of the screen ``template_fits`` took one, and the domain's constraint was pinned
    by no check (``Statics.domain__mutmut_120``). Jackal Pup, a creature, fits."""
    pup = PERMANENT_CARDS["Jackal Pup"]
    assert pup.damage_trigger is not None
    assert template_fits(pup) is None
    pool = PERMANENT_CARDS["Spawning Pool"]
    assert template_fits(replace(pool, damage_trigger=pup.damage_trigger)) == (
        "Spawning Pool: only a creature's 'whenever this is dealt damage' is encoded"
    )
