"""Scenarios the seeded agreement walk cannot hold, replayed step by step in both views at
the widest scope (``scope.widest``), the relation's printed cards pinned to the scenario's
(``frame.statics_values``): at each step the relation agrees with the engine.

* Inline cards with issue 13's fields (ability costs, ``dies-draw``, ``end-step-reflexive``,
  ``shrine``, ``merfolk``, ``tapped-watch-life``, ``enters-with-plus-counters``;
  ``tests/scenarios/*/inline-*.yaml``): a field the parser read but the encoding's card tables
  left out (or read otherwise) would make the views disagree here, and a card the encoding
  cannot represent (``frame.template_fits``) would be out of scope.
* Counterspell with three objects on the stack (``tests/scenarios/turn/counterspell-*.yaml``):
  a counter countered in turn, a counter whose target another counter took off the stack
  (608.2b), the renumbering of the spell targets above a countered spell (701.6a). The
  agreement walk's frames hold a stack of two, so these branches are listed in
  ``encoding/unreachable.yaml`` for the walk and checked between the views here.
* An umbra-armor Aura destroyed by the same event as the creature it enchants
  (``tests/scenarios/destroy/umbra-*.yaml``; 608.2f, 702.89a rulings): decided as the event
  began, and destroyed once. An Aura asked twice differs from one asked once only when it has
  a shield of its own and comes after the creature in slot order, a board the walk's seeds do
  not hold. The Aura umbra armor destroys alone is destroyed by an effect that lets it
  regenerate and meets its shield counter (701.19a, 122.1c), boards the walk's seeds do not
  hold either.
* A destroy spell with two targets, one of them illegal as it resolves and the other with a
  shield counter (``tests/scenarios/destroy/effect-targets-at-once.yaml``; 608.2b, 122.1c):
  the walk's frames never hold a destroy spell cast on two targets.
* A destruction answered by a shield's origin (``use: "shield:<origin>"``; 616.1e) that is
  not the creature's first shield
  (``tests/scenarios/replace/chosen-alike-shield-leaves-the-other.yaml``): the walk answers
  with ``shield``, ``shield#N`` and the like (``explore.answers``), never an origin, so the
  origin's shield mask (``encoding.params._use``) is built only here.
* Boards the walk's seeds do not hold, found by issue 10's mutation screen (slice 2): a player
  reaching exactly ten poison counters (``tests/scenarios/sba/ten-poison-counters.yaml``;
  704.5c), a regeneration rider's trigger controlled by the shield's maker, not the creature's
  controller (``regen/rider-trigger-controller.yaml``; 603.7d-e), one "prevent the next N"
  shield shared by two blockers' damage (``prevent/prevent-next-two-blockers.yaml``; 615.7),
  an Aura on a permanent that stopped being a creature
  (``attach/equipment-unattached-aura-to-graveyard.yaml``; 704.5m), an attacker with no power
  and two blockers, which has nothing to divide (``combat/zero-power-attacker-two-blockers.yaml``;
  510.1a, 510.1c), a division of combat damage to a blocker that is a new object since the game
  began (``combat/divided-damage-to-a-returned-blocker.yaml``; 400.7, 510.2), a blocker of
  two attackers one of which left combat, which deals all its damage to the other with no
  division to choose (``combat/multi-blocked-attacker-regenerates-fdn.yaml``; 506.4, 510.1d),
  a "target land" spell cast on a land that is no creature
  (``turn/target-land-spell-on-a-noncreature-land.yaml``; 115.1, 601.2c: the relation asked
  for a creature on every card target and refused the cast the engine accepts), an M10 damage
  assignment order naming a blocker twice, refused by both
  (``combat/order-refusals-name-their-fields-m10.yaml``; 509.2 of 2009-2024), a destruction
  answered with a plain ``shield`` by its controller (``replace/choice-answered-shield.yaml``;
  616.1: the walk never answers so where a choice is needed); and (slice 3) triggers whose
  source is a new object since the game began, Soldevi Sentry's rider
  (``regen/soldevi-sentry-returned-rider.yaml``) and Go-Shintai's end-step and reflexive
  triggers (``zone/end-step-trigger-of-a-returned-shintai.yaml``; 400.7, 603.7e, 603.12): the
  stack object records its source's object, which the walk's seeds only hold for objects that
  never changed zones.
* Boards found by the screen's slice 3: an animated land whose animation makes it black,
  which Terror cannot target (``types/manland-shield-made-as-land.yaml``; 613.1e, 601.2c), a
  616.1 choice on a permanent its owner does not control
  (``replace/choice-by-controller-not-owner.yaml``), an M10 trampler left with no blockers
  (``combat/double-strike-trample-regenerated-blocker-m10.yaml``; 702.19e), a pre-M10
  deathtouch trampler whose damage is no more than its blocker's toughness
  (``combat/pre-m10-deathtouch-trampler-assigns-toughness.yaml``; pre-M10 502.9d), a damage
  trigger whose source is still there with a keyword
  (``damage/damage-trigger-uses-its-live-sources-keywords.yaml``; 609.7, 120.3b), the
  reflexive trigger of a source that left and returned
  (``zone/reflexive-trigger-of-a-returned-source.yaml``; 400.7, 603.12), and the rider
  trigger of a creature that left and returned (``regen/rider-trigger-of-a-returned-creature``
  ``.yaml``; 400.7, 603.7d).
* Boards found by the screen's slice 4: a blocker with lifelink, whose combat damage gains
  its controller life (``damage/lifelink-blocker.yaml``; 702.15b); an Equipment that adds
  power only (``attach/equipment-bonus-is-power-only.yaml``; Bonesplitter: 704.5g reads the
  toughness it leaves alone); an Equipment phased out with its creature
  (``attach/equip-resolves-with-its-equipment-phased-out.yaml``; 702.26b, 702.26g): a check
  while it is phased out leaves it attached (704.5n asks about permanents on the
  battlefield); Pyroclasm's damage to a Wall of Essence, which is no combat damage
  (``damage/spell-damage-is-not-combat-damage.yaml``; 510.2, 603.2); lifelink damage from a source that is no permanent and names no controller, whose
  life goes to the first player whoever controls the last card slot
  (``damage/lifelink-sourceless-damage-default-controller.yaml``; 702.15b); a chain of two
  performing checks at a scope of two cards, a creature dead of lethal damage and then its
  Aura (``sba/aura-of-a-creature-dead-by-damage-needs-a-second-check.yaml``; 704.5g, 704.5m,
  704.3); Disintegrate's "exile it instead" on a permanent that stopped being a creature
  before it was destroyed (``zone/exile-instead-skips-a-permanent-no-longer-a-creature``
  ``.yaml``; 700.4, 614.6); and an M10 damage assignment order given for one attacker while
  another attacker has a blocker of its own, five cards, more than the walk's scope
  (``combat/order-one-attackers-blockers-beside-another-blocked-attacker-m10.yaml``; 509.2
  of 2009-2024).
* Boards found by the screen's slice 5: a keyword granted until end of turn and then removed
  again (``effects/keyword-grant.yaml``; 613.7): the removal leaves it removed and no longer
  granted, as the relation's frame has it; the walk's seeds never remove a granted keyword; refused declarations and divisions that name a
  creature outside this combat, a second block of a creature that is not attacking and a
  trampler's or a two-attacker blocker's damage given to a creature it does not block
  (``combat/block-and-division-refusals-fdn.yaml``; 509.1a, 510.1c-d, 702.19c); a first
  striker that is not in combat, which adds no first-strike damage step
  (``combat/first-striker-out-of-combat-adds-no-step.yaml``; 510.4); a blocked trampler whose
  blocker left combat given its one division, all to the player
  (``combat/trampler-without-blockers-given-a-division-fdn.yaml``; 702.19e); and a pre-M10
  division with a share of 0 for a blocker that is a new object, which the combat damage on
  the stack does not hit (``combat/pre-m10-zero-share-to-a-returned-blocker.yaml``; 120.8,
  400.7); the damage trigger of a Jackal Pup that left and returned, whose source is the new
  object (``damage/damage-trigger-of-a-returned-source.yaml``; 400.7, 609.7), and one whose
  damage has its own source's keywords while another creature has infect
  (``damage/damage-trigger-has-only-its-sources-keywords.yaml``; 609.7); damage a permanent
  deals beside another with infect and lifelink
  (``damage/damage-from-a-card-has-only-its-keywords.yaml``; 120.3); and a reflexive trigger
  given a target its rule refuses (``zone/reflexive-trigger-uses-the-stack.yaml``; 603.3d);
  deathtouch damage to a permanent that stopped being a creature before the check
  (``sba/deathtouch-record-ends-with-the-check.yaml``; 704.5h); and a creature that deals no
  combat damage leaving while pre-M10 combat damage is on the stack, which keeps nothing of it
  (``combat/pre-m10-bystander-leaving-changes-no-damage-on-stack.yaml``; pre-M10 502.9).
* Boards found by the screen's slice 6: Fumigate destroying no creature while the umbra-armor
  Aura it destroys instead is no creature and is not counted
  (``destroy/fumigate-umbra-counter-indestructible.yaml``; 702.89a, 701.8a), and pre-M10
  combat damage on the stack whose source left, returned under another controller and left
  again: the damage keeps what its source was the first time it left
  (``combat/pre-m10-lki-of-a-source-kept-from-its-first-leaving.yaml``; 400.7, 608.2h), and
  a "target land" spell whose land phased out before it resolves
  (``phasing/phased-out-land-is-no-legal-target.yaml``; 702.26b, 608.2b: the walk's phasing
  is Galadriel's Dismissal on creatures, whose target rule already asks for one on the
  battlefield), and Pyramids' ability at a land that phased out
  (``phasing/pyramids-on-a-phased-out-land.yaml``; 702.26b, 608.2b: "target land" asks for
  no creature, so only "still that object on the battlefield" makes it illegal, and its effect
  is written on whatever slot it names), and a damage trigger whose source phased out before it resolves, whose damage
  has none of the source's keywords (``damage/damage-trigger-of-a-phased-out-source.yaml``;
  702.26b).
  (``combat/trampler-without-blockers-given-a-division-fdn.yaml`` now also refuses a division
  that gives the player all and names a card besides, 702.19e.)
* Boards found by the screen's slice 7: an M10 attacker too small to kill the first of its two
  blockers, which gives it all its damage with no choice (``combat/m10-first-blocker-short-of-``
  ``lethal.yaml``; 510.1c of 2009-2024); a damage trigger whose source left and returned as a
  new object with other keywords (``damage/trigger-source-returned-keeps-its-old-keywords``
  ``.yaml``; 400.7, 609.7); an Equipment with "Regenerate equipped creature" and equip, equipped
  by its second ability (``attach/equip-moves-grant-not-shield.yaml``; 702.6a); a creature whose
  printed ability targets, activating the one its Aura grants with no target
  (``attach/granted-ability-beside-a-targeted-one.yaml``; 613.1f, 602.2b); and damage a
  "prevent the next N" shield prevents in full, which makes no damage trigger
  (``prevent/prevented-damage-triggers-nothing.yaml``; 615.1, 603.2); and an M10 division that
  gives the second of three blockers less than lethal damage and the third none
  (``combat/m10-second-blocker-short-of-lethal-third-gets-none.yaml``; 510.1c of 2009-2024).
  (``combat/trampler-without-blockers-given-a-division-fdn.yaml`` now also refuses a division
  that gives the player less than all, 702.19e.) A pre-M10 deathtouch trigger of damage from a source
  that is no permanent (``damage/pre-m10-deathtouch-trigger-of-no-permanent.yaml``; pre-M10
  502.63): the trigger records no source object, and no incarnation of one either.
* Boards found by the screen's slice 9: a 0-power blocker of two attackers, which has no
  division to choose (``combat/zero-power-blocker-of-two-attackers-fdn.yaml``; 510.1a,
  510.1d); a trampler giving the player just 1 before its blockers have lethal damage
  (``combat/trampler-one-to-the-player-short-of-lethal-fdn.yaml``; 702.19c); a cleanup whose
  state-based action follows a card in a graveyard in slot order
  (``turn/cleanup-repeats-with-a-card-in-a-graveyard.yaml``; 514.3a); one shield counter for
  the simultaneous damage of two attackers (``combat/shield-counter-meets-two-attackers-``
  ``damage-at-once-fdn.yaml``; 122.1c); "prevent all" beside a "prevent the next N" shield,
  which it leaves whole (``prevent/prevent-all-leaves-prevent-next-unused.yaml``; 615.1,
  615.7); a sorcery refused in the upkeep (``turn/sorcery-outside-a-main-phase.yaml``;
  117.1a); and pre-M10 combat damage on the stack to a blocker that was already a new object
  when it blocked (``combat/pre-m10-damage-on-the-stack-to-a-returned-blocker.yaml``; 400.7,
  pre-M10 502.9).
* Boards found by the screen's slice 10: a 0-power blocker of two attackers named in an
  assignment (asked for another creature's division) with no damage, its only division
  (``combat/zero-power-blocker-of-two-named-with-no-damage-fdn.yaml``; 510.1a, 510.1d); an
  active player whose only creature has defender, asked to declare no attackers
  (``combat/defender-only-declares-no-attackers.yaml``; 702.3b, 508.1a); and a defending
  player whose only permanent is an unattached Equipment, asked to declare no blockers
  (``combat/noncreature-permanent-is-asked-no-block.yaml``; 509.1a); a sorcery refused to
  the non-active player in a main phase with an empty stack
  (``turn/sorcery-by-the-non-active-player.yaml``; 307.1); a
  declaration of attackers naming a creature card in a graveyard, refused by both
  (``combat/creature-in-a-graveyard-cannot-attack.yaml``; 508.1a, 110.1); and a 616.1
  choice answered ``shield-counter`` (``replace/choice-answered-shield-counter.yaml``; 122.1c):
  the walk never answers so; and a plain ``shield`` answer where the first shield has a
  rider and the second none (``replace/choice-shield-passes-over-a-rider-shield.yaml``;
  616.1, 701.19c): the answer names the plain one.
* Boards found by the screen's slice 12: an attacker with 1 power and two blockers, whose one
  point is still a division (``combat/one-power-attacker-two-blockers-divides-fdn.yaml``;
  510.1c); an M10 division giving 1 past a first blocker short of lethal damage, refused by
  both (``combat/m10-one-damage-past-a-first-blocker-short-of-lethal.yaml``; 510.1c of
  2009-2024); a trampler short of its one blocker's lethal damage, asked nothing
  (``combat/trampler-short-of-lethal-for-its-one-blocker-is-asked-nothing-fdn.yaml``;
  702.19c); a first striker out of combat beside a double striker in it
  (``combat/first-strike-step-leaves-out-a-first-striker-not-in-combat.yaml``; 510.4); and an
  M10 blocker of two whose first attacker left combat, named with all its damage for the
  other (``combat/m10-blocker-of-two-whose-first-left-names-all-for-the-other.yaml``; 506.4,
  510.1d of 2009-2024); Pyramids activated on a phased-out land, refused by both
  (``phasing/pyramids-cannot-target-a-phased-out-land.yaml``; 702.26d, 602.2b); a damage
  trigger whose source came back and left again
  (``damage/trigger-source-returned-and-gone-again-keeps-its-old-keywords.yaml``; 400.7,
  113.7a); and the cast of a regeneration spell with a rider, Debt of Loyalty
  (``seeds/seed-debt-of-loyalty.yaml``; 701.19a): the cast's rider parameter is read only
  there.
* Boards found by the screen's slice 13: Niall Silvain, whose printed ability costs {T},
  activating the ability its Aura grants while summoning sick, untapped
  (``attach/granted-ability-of-a-tap-cost-creature-pays-no-tap.yaml``; 302.6, 602.2b,
  613.1f); the defending player's assignment of an attacker's damage, refused by both
  (``combat/defending-player-cannot-assign-the-attackers-damage-fdn.yaml``; 510.1c); an
  animated land's Aura, illegal as the animation ends in the cleanup step, which gives
  priority there (``turn/cleanup-repeats-for-an-aura-on-a-land-no-longer-animated.yaml``;
  514.3a, 704.5m); a spell putting -1/-1 counters
  (``effects/minus-counter-spell-puts-minus-counters.yaml``; 122.1a, 608.2h); a removed
  reflexive trigger with the other player's trigger waiting behind it
  (``zone/reflexive-removed-other-trigger-stays.yaml``; 603.3b, 603.3d); and an unblocked
  trampler named in the assignment with all its damage to the player
  (``combat/unblocked-trampler-named-with-all-to-the-player-fdn.yaml``; 510.1a, 510.2).
* Boards found by the screen's slice 14: an animated land's Equipment, illegal as the
  animation ends in the cleanup step, the only state-based action pending, which gives
  priority there
  (``turn/cleanup-repeats-for-an-equipment-on-a-land-no-longer-animated.yaml``; 514.3a,
  704.5n); unpreventable lethal damage to a creature with two shield counters, one left when
  the check destroys it, which only an effect's destruction asks
  (``prevent/unpreventable-lethal-damage-through-two-shield-counters.yaml``; 615.12, 122.1c,
  704.5g).
* Boards found by the screen's slice 15: the dies trigger of a creature that left and returned,
  whose stack object records the new object as its source
  (``zone/dies-trigger-of-a-returned-creature.yaml``; 400.7, 603.10a); an attacking Wall with
  a Basilisk's ability blocked by a Basilisk, whose trigger dooms only the blocker
  (``combat/basilisk-attacking-wall-blocked-by-basilisk.yaml``; 509.1i, 603.7); "Regenerate
  target creature" aimed at a creature that left and returned
  (``turn/regenerate-target-a-returned-creature.yaml``; 400.7, 608.2b).
* More of slice 15's boards: a Shrine card in its owner's graveyard, which its
  owner does not control (``zone/shrine-in-a-graveyard-is-not-counted.yaml``; 108.4, 603.3d);
  control until end of turn given to the permanent's own controller, which makes it no new
  controller as the effect ends
  (``effects/control-until-eot-to-its-controller-leaves-it-unsick.yaml``; 302.6, 514.2); equip
  refused in the beginning of combat step (``attach/equip-is-sorcery-speed.yaml``; 602.5d,
  702.6a); an Equipment listed after a permanent that gives no bonus
  (``attach/equipment-bonus-past-a-card-without-one.yaml``; 613.4c); and wither damage a
  shield counter prevents
  (``damage/wither-damage-a-shield-counter-prevents-puts-no-counters.yaml``; 122.1c, 120.3d);
  and lifelink damage from a source that is no permanent whose controller the action names
  (``damage/lifelink-effect-damage-named-controller.yaml``; 702.15b): the action's
  ``controller`` read into the parameters (``encoding.params._damage``).
* Slice 17's boards: one creature whose two destructions in a turn are each replaced by a
  shield counter (``replace/two-shield-counters-replace-two-destructions.yaml``; 122.1c: the
  count of replaced destructions goes up by one each time), and Cloudshift returning a
  creature under its caster's control, which its owner does not control
  (``zone/flicker-returns-under-control.yaml``; 110.2a, 400.7); and a spell countered by its
  own caster's Counterspell, the two moves to one graveyard outside any simultaneous event
  (``turn/counterspell-on-its-casters-own-spell-two-groups.yaml``, among the Counterspell
  scenarios; 404.3, 608.2n); and an attacker with no power named in the damage assignment with
  no damage, its one legal division (``combat/zero-power-attacker-named-with-no-damage-fdn.yaml``;
  510.1a, 510.1c).
* Slice 19's board: the creature-dies trigger of a Fecundity that left and returned, whose
  stack object records the new object as its source
  (``draw/fecundity-returned-triggers-as-the-new-object.yaml``; 400.7, 603.10a).
* The catch-up's board: a two-target damage spell with Disintegrate's "can't be regenerated"
  one of whose targets turned illegal (control changed) while still a creature on the
  battlefield, which the rider leaves alone
  (``turn/cant-be-regenerated-only-on-a-legal-target.yaml``; 608.2b, 701.19c): the walk's
  frames never hold such a spell on two targets, and with one target an illegal one makes the
  spell not resolve."""

from __future__ import annotations

import contextlib
from dataclasses import replace
from pathlib import Path

import pytest

from regen_model.encoding.agreement import Status, check_agreement
from regen_model.encoding.outputs import outputs_of
from regen_model.encoding.scope import widest
from regen_model.engine import EngineError, step
from regen_model.model.actions import AssignCombatDamage, Division
from regen_model.model.rules import CORRECT
from regen_model.scenario import load_scenario, run_scenario

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
INLINE = sorted(SCENARIOS.glob("*/inline-*.yaml"))
COUNTERS = sorted(SCENARIOS.glob("turn/counterspell-*.yaml"))
UMBRA = sorted(SCENARIOS.glob("destroy/umbra-*.yaml"))
TARGETS = [SCENARIOS / "destroy" / "effect-targets-at-once.yaml"]
CHOICES = [SCENARIOS / "replace" / "chosen-alike-shield-leaves-the-other.yaml"]
BOARDS = [
    SCENARIOS / "sba" / "ten-poison-counters.yaml",
    SCENARIOS / "regen" / "rider-trigger-controller.yaml",
    SCENARIOS / "prevent" / "prevent-next-two-blockers.yaml",
    SCENARIOS / "attach" / "equipment-unattached-aura-to-graveyard.yaml",
    SCENARIOS / "combat" / "zero-power-attacker-two-blockers.yaml",
    SCENARIOS / "combat" / "divided-damage-to-a-returned-blocker.yaml",
    SCENARIOS / "combat" / "multi-blocked-attacker-regenerates-fdn.yaml",
    SCENARIOS / "turn" / "target-land-spell-on-a-noncreature-land.yaml",
    SCENARIOS / "combat" / "order-refusals-name-their-fields-m10.yaml",
    SCENARIOS / "replace" / "choice-answered-shield.yaml",
    SCENARIOS / "regen" / "soldevi-sentry-returned-rider.yaml",
    SCENARIOS / "zone" / "end-step-trigger-of-a-returned-shintai.yaml",
    SCENARIOS / "types" / "manland-shield-made-as-land.yaml",
    SCENARIOS / "replace" / "choice-by-controller-not-owner.yaml",
    SCENARIOS / "combat" / "double-strike-trample-regenerated-blocker-m10.yaml",
    SCENARIOS / "combat" / "pre-m10-deathtouch-trampler-assigns-toughness.yaml",
    SCENARIOS / "damage" / "damage-trigger-uses-its-live-sources-keywords.yaml",
    SCENARIOS / "zone" / "reflexive-trigger-of-a-returned-source.yaml",
    SCENARIOS / "regen" / "rider-trigger-of-a-returned-creature.yaml",
    SCENARIOS / "damage" / "lifelink-blocker.yaml",
    SCENARIOS / "attach" / "equipment-bonus-is-power-only.yaml",
    SCENARIOS / "attach" / "equip-resolves-with-its-equipment-phased-out.yaml",
    SCENARIOS / "damage" / "spell-damage-is-not-combat-damage.yaml",
    SCENARIOS / "damage" / "lifelink-sourceless-damage-default-controller.yaml",
    SCENARIOS / "sba" / "aura-of-a-creature-dead-by-damage-needs-a-second-check.yaml",
    SCENARIOS / "zone" / "exile-instead-skips-a-permanent-no-longer-a-creature.yaml",
    SCENARIOS / "combat" / "order-one-attackers-blockers-beside-another-blocked-attacker-m10.yaml",
    # slice 5
    SCENARIOS / "effects" / "keyword-grant.yaml",
    SCENARIOS / "combat" / "block-and-division-refusals-fdn.yaml",
    SCENARIOS / "combat" / "first-striker-out-of-combat-adds-no-step.yaml",
    SCENARIOS / "combat" / "trampler-without-blockers-given-a-division-fdn.yaml",
    SCENARIOS / "combat" / "pre-m10-zero-share-to-a-returned-blocker.yaml",
    SCENARIOS / "damage" / "damage-trigger-of-a-returned-source.yaml",
    SCENARIOS / "damage" / "damage-trigger-has-only-its-sources-keywords.yaml",
    SCENARIOS / "zone" / "reflexive-trigger-uses-the-stack.yaml",
    SCENARIOS / "damage" / "damage-from-a-card-has-only-its-keywords.yaml",
    SCENARIOS / "sba" / "deathtouch-record-ends-with-the-check.yaml",
    SCENARIOS / "combat" / "pre-m10-bystander-leaving-changes-no-damage-on-stack.yaml",
    SCENARIOS / "damage" / "pre-m10-deathtouch-trigger-of-a-returned-source.yaml",
    SCENARIOS / "combat" / "deathtouch-trampler-assigns-one-fdn.yaml",
    # slice 6
    SCENARIOS / "destroy" / "fumigate-umbra-counter-indestructible.yaml",
    SCENARIOS / "combat" / "pre-m10-lki-of-a-source-kept-from-its-first-leaving.yaml",
    SCENARIOS / "phasing" / "phased-out-land-is-no-legal-target.yaml",
    SCENARIOS / "damage" / "damage-trigger-of-a-phased-out-source.yaml",
    SCENARIOS / "phasing" / "pyramids-on-a-phased-out-land.yaml",
    # slice 7
    SCENARIOS / "damage" / "pre-m10-deathtouch-trigger-of-no-permanent.yaml",
    SCENARIOS / "combat" / "m10-first-blocker-short-of-lethal.yaml",
    SCENARIOS / "damage" / "trigger-source-returned-keeps-its-old-keywords.yaml",
    SCENARIOS / "attach" / "equip-moves-grant-not-shield.yaml",
    SCENARIOS / "attach" / "granted-ability-beside-a-targeted-one.yaml",
    SCENARIOS / "prevent" / "prevented-damage-triggers-nothing.yaml",
    SCENARIOS / "combat" / "m10-second-blocker-short-of-lethal-third-gets-none.yaml",
    # slice 8
    SCENARIOS / "combat" / "m10-blocker-short-of-lethal-gives-its-first-attacker-all.yaml",
    SCENARIOS / "combat" / "plus-counters-add-to-combat-damage.yaml",
    SCENARIOS / "attach" / "granted-ability-of-a-self-sacrificing-creature-keeps-it.yaml",
    SCENARIOS / "draw" / "mill-zero-cards-is-a-legal-spell.yaml",
    SCENARIOS / "turn" / "exile-if-dies-only-on-a-legal-target.yaml",
    SCENARIOS / "phasing" / "pre-m10-damage-on-the-stack-to-a-phased-out-blocker.yaml",
    # slice 9
    SCENARIOS / "combat" / "zero-power-blocker-of-two-attackers-fdn.yaml",
    SCENARIOS / "combat" / "trampler-one-to-the-player-short-of-lethal-fdn.yaml",
    SCENARIOS / "turn" / "cleanup-repeats-with-a-card-in-a-graveyard.yaml",
    SCENARIOS / "combat" / "shield-counter-meets-two-attackers-damage-at-once-fdn.yaml",
    SCENARIOS / "prevent" / "prevent-all-leaves-prevent-next-unused.yaml",
    SCENARIOS / "turn" / "sorcery-outside-a-main-phase.yaml",
    SCENARIOS / "combat" / "pre-m10-damage-on-the-stack-to-a-returned-blocker.yaml",
    # slice 10
    SCENARIOS / "combat" / "zero-power-blocker-of-two-named-with-no-damage-fdn.yaml",
    SCENARIOS / "combat" / "defender-only-declares-no-attackers.yaml",
    SCENARIOS / "combat" / "noncreature-permanent-is-asked-no-block.yaml",
    SCENARIOS / "turn" / "sorcery-by-the-non-active-player.yaml",
    SCENARIOS / "combat" / "creature-in-a-graveyard-cannot-attack.yaml",
    SCENARIOS / "replace" / "choice-answered-shield-counter.yaml",
    SCENARIOS / "replace" / "choice-shield-passes-over-a-rider-shield.yaml",
    # slice 11
    SCENARIOS / "prevent" / "prevent-next-shields-add-up.yaml",
    SCENARIOS / "replace" / "pyramids-blocker-stays-in-combat.yaml",
    SCENARIOS / "combat" / "summoning-sick-only-declares-no-attackers.yaml",
    SCENARIOS / "combat" / "first-strike-step-asks-no-division-of-a-regular-attacker-fdn.yaml",
    SCENARIOS / "prevent" / "pre-m10-damage-to-a-gone-blocker-leaves-the-new-objects-shield.yaml",
    SCENARIOS
    / "combat"
    / "first-strike-step-asks-the-division-of-a-double-blocked-first-striker-fdn.yaml",
    SCENARIOS / "combat" / "m10-blocker-of-two-too-small-for-the-first-is-asked-nothing.yaml",
    # slice 12
    SCENARIOS / "combat" / "one-power-attacker-two-blockers-divides-fdn.yaml",
    SCENARIOS / "combat" / "m10-one-damage-past-a-first-blocker-short-of-lethal.yaml",
    SCENARIOS / "combat" / "trampler-short-of-lethal-for-its-one-blocker-is-asked-nothing-fdn.yaml",
    SCENARIOS / "combat" / "first-strike-step-leaves-out-a-first-striker-not-in-combat.yaml",
    SCENARIOS / "combat" / "m10-blocker-of-two-whose-first-left-names-all-for-the-other.yaml",
    SCENARIOS / "phasing" / "pyramids-cannot-target-a-phased-out-land.yaml",
    SCENARIOS / "damage" / "trigger-source-returned-and-gone-again-keeps-its-old-keywords.yaml",
    SCENARIOS / "seeds" / "seed-debt-of-loyalty.yaml",
    # slice 13
    SCENARIOS / "attach" / "granted-ability-of-a-tap-cost-creature-pays-no-tap.yaml",
    SCENARIOS / "combat" / "defending-player-cannot-assign-the-attackers-damage-fdn.yaml",
    SCENARIOS / "turn" / "cleanup-repeats-for-an-aura-on-a-land-no-longer-animated.yaml",
    SCENARIOS / "effects" / "minus-counter-spell-puts-minus-counters.yaml",
    SCENARIOS / "zone" / "reflexive-removed-other-trigger-stays.yaml",
    SCENARIOS / "combat" / "unblocked-trampler-named-with-all-to-the-player-fdn.yaml",
    # slice 14
    SCENARIOS / "turn" / "cleanup-repeats-for-an-equipment-on-a-land-no-longer-animated.yaml",
    SCENARIOS / "prevent" / "unpreventable-lethal-damage-through-two-shield-counters.yaml",
    # slice 15
    SCENARIOS / "zone" / "dies-trigger-of-a-returned-creature.yaml",
    SCENARIOS / "combat" / "basilisk-attacking-wall-blocked-by-basilisk.yaml",
    SCENARIOS / "turn" / "regenerate-target-a-returned-creature.yaml",
    SCENARIOS / "zone" / "shrine-in-a-graveyard-is-not-counted.yaml",
    SCENARIOS / "effects" / "control-until-eot-to-its-controller-leaves-it-unsick.yaml",
    SCENARIOS / "attach" / "equip-is-sorcery-speed.yaml",
    SCENARIOS / "attach" / "equipment-bonus-past-a-card-without-one.yaml",
    SCENARIOS / "damage" / "wither-damage-a-shield-counter-prevents-puts-no-counters.yaml",
    SCENARIOS / "damage" / "lifelink-effect-damage-named-controller.yaml",
    SCENARIOS / "sba" / "three-checks-perform-for-an-umbra-saved-creature-and-its-other-aura.yaml",
    # slice 16
    SCENARIOS / "attach" / "equip-by-the-non-active-player.yaml",
    SCENARIOS / "combat" / "m10-second-blocker-leaving-keeps-the-first-first.yaml",
    SCENARIOS / "destroy" / "fumigate-on-an-empty-battlefield-gains-nothing.yaml",
    SCENARIOS / "replace" / "two-shield-counters-replace-two-destructions.yaml",
    SCENARIOS / "zone" / "flicker-returns-under-control.yaml",
    SCENARIOS / "combat" / "zero-power-attacker-named-with-no-damage-fdn.yaml",
    # slice 18
    SCENARIOS / "combat" / "negative-power-blocker-of-two-named-with-no-damage-fdn.yaml",
    SCENARIOS / "combat" / "blocker-of-two-attackers-both-removed-deals-no-damage-fdn.yaml",
    SCENARIOS / "combat" / "blocker-of-two-attackers-leaves-combat-at-end.yaml",
    # slice 19
    SCENARIOS / "draw" / "fecundity-returned-triggers-as-the-new-object.yaml",
    SCENARIOS / "combat" / "removed-attacker-not-blocked.yaml",
    SCENARIOS / "combat" / "first-strike-step-refuses-a-division-of-a-regular-attacker-fdn.yaml",
    SCENARIOS / "combat" / "blocker-of-two-attackers-both-removed-named-with-no-damage-fdn.yaml",
    SCENARIOS / "combat" / "m10-second-blocker-gets-damage-beside-another-blocked-attacker.yaml",
    # slice 20: two Debt of Loyalty shields of different creators are two outcome classes
    SCENARIOS / "replace" / "debt-of-loyalty-shields-of-two-creators.yaml",
    # slice 20: a division given for a creature blocking one attacker, refused by both
    SCENARIOS / "combat" / "single-blocker-given-a-division-is-refused-fdn.yaml",
    # slice 20: a 0-power attacker puts no combat damage on the stack (pre-M10)
    SCENARIOS / "combat" / "zero-power-attacker-puts-no-damage-on-the-stack-pre-m10.yaml",
    # catch-up 1: "can't be regenerated" on a target that turned illegal, left alone (608.2b)
    SCENARIOS / "turn" / "cant-be-regenerated-only-on-a-legal-target.yaml",
]
FILES = INLINE + COUNTERS + UMBRA + TARGETS + CHOICES + BOARDS


def test_the_scenarios_are_found() -> None:
    assert len(INLINE) >= 5, INLINE
    assert len(COUNTERS) >= 3, COUNTERS
    assert len(UMBRA) >= 4, UMBRA
    assert all(p.exists() for p in TARGETS + CHOICES + BOARDS), TARGETS + CHOICES + BOARDS


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_scenario_agrees_in_both_views(path: Path) -> None:
    scenario = load_scenario(path)
    state = scenario.start
    scope = widest(len(state.setup.handles))
    steps = countered = 0
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            result = check_agreement(state, action, CORRECT, scope)
            assert result.status is not Status.OUT_OF_SCOPE, result.describe()
            assert result.status is not Status.DISAGREE, result.describe()
            steps += 1
            # refused in both views (else a disagreement above): the state is unchanged
            with contextlib.suppress(EngineError):
                r = step(state, action, CORRECT)
                countered += outputs_of(state, r.events, r.state).countered
                state = r.state
    assert steps > 0
    # the step output ``countered`` (701.6a) was compared where it is not 0 (every
    # Counterspell scenario counters a spell at least once)
    assert (countered > 0) == (path in COUNTERS)


def test_a_blocker_division_naming_an_attacker_twice_is_refused_in_both_views() -> None:
    """510.1d: a creature blocking two attackers divides its damage among the creatures it
    blocks, each named once (the engine's ``blocker_divisions``); a division that names one
    of them in two entries, even adding up to its power, is no legal division, and the
    relation refuses it as the engine does (slice 18: the relation had dropped its
    "distinct recipients" conjunct, which a scenario's recipient-to-amount map cannot
    express). The board: ``combat/block-additional-divides-fdn.yaml`` at its assignment."""
    scenario = load_scenario(SCENARIOS / "combat" / "block-additional-divides-fdn.yaml")
    state = scenario.start
    scope = widest(len(state.setup.handles))
    for event in run_scenario(scenario).steps:
        for action in event.actions:
            if isinstance(action, AssignCombatDamage):
                twice = replace(action, divisions=(Division("brigade", (("giant", 1),) * 2),))
                with pytest.raises(EngineError):
                    step(state, twice, CORRECT)
                result = check_agreement(state, twice, CORRECT, scope)
                assert result.status is Status.AGREE, result.describe()
                return
            with contextlib.suppress(EngineError):
                state = step(state, action, CORRECT).state
    raise AssertionError("the scenario made no damage assignment")
