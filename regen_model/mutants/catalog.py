"""The rule mutants: what each one gets wrong and which clauses of the rules it breaks.

The mutants themselves are ``model.enums.Mutant`` members, switched on through ``Rules`` and
implemented as one branch each in the engine and in the Z3 encoding. This table is their
documentation in data form, so the matrix, the CLI and ``docs/mutants.md`` say the same
thing, and a test can check that every mutant is described and cites real clauses.
"""

from __future__ import annotations

from dataclasses import dataclass

from regen_model.model.enums import Mutant


@dataclass(frozen=True)
class MutantInfo:
    mutant: Mutant
    wrong: str  # what the mutant does, in one sentence
    clauses: tuple[str, ...]  # the clauses it breaks (spec/clauses.yaml)


_INFO = (
    MutantInfo(
        Mutant.SHIELD_NOT_CONSUMED,
        "A used shield stays unused, so one shield replaces every later destruction.",
        ("regen.shield.apply", "regen.shield.one-per-destruction"),
    ),
    MutantInfo(
        Mutant.CREATE_TAPS,
        "Creating a shield taps the permanent, as if it had regenerated.",
        ("regen.shield.create", "regen.apply.tap"),
    ),
    MutantInfo(
        Mutant.SHIELDS_SURVIVE_CLEANUP,
        "Unused shields survive the cleanup step into the next turn.",
        ("regen.shield.expire", "cleanup.simultaneous"),
    ),
    MutantInfo(
        Mutant.CANT_REGEN_IGNORED,
        '"Can\'t be regenerated" (a rider or this turn) is ignored: shields still apply.',
        ("regen.cant.rider", "regen.cant.this-turn"),
    ),
    MutantInfo(
        Mutant.CANT_REGEN_SURVIVES_CLEANUP,
        '"Can\'t be regenerated this turn" lasts past the cleanup step.',
        ("regen.cant.this-turn", "cleanup.simultaneous"),
    ),
    MutantInfo(
        Mutant.TOUGHNESS_ZERO_IS_DESTRUCTION,
        "A creature with toughness 0 or less is destroyed (so a shield can save it) instead "
        "of being put into its owner's graveyard.",
        ("sba.toughness-zero",),
    ),
    MutantInfo(
        Mutant.INDESTRUCTIBLE_USES_SHIELD,
        "A destruction reaches an indestructible permanent and spends one of its shields.",
        ("destroy.indestructible",),
    ),
    MutantInfo(
        Mutant.ONE_DESTRUCTION_USES_ALL,
        "One destruction spends every shield of the permanent instead of one.",
        ("regen.shield.one-per-destruction", "replace.choice"),
    ),
    MutantInfo(
        Mutant.REGEN_KEEPS_DAMAGE,
        "Regenerating does not remove the damage marked on the permanent.",
        ("regen.apply.remove-damage",),
    ),
    MutantInfo(
        Mutant.REGEN_STAYS_IN_COMBAT,
        "A regenerated attacker or blocker stays in combat.",
        ("regen.apply.remove-from-combat",),
    ),
    MutantInfo(
        Mutant.REGEN_DOES_NOT_TAP,
        "Regenerating does not tap the permanent.",
        ("regen.apply.tap",),
    ),
    MutantInfo(
        Mutant.DEATHTOUCH_REMEMBERED,
        "The record of deathtouch damage is not cleared by a state-based-action check, so the "
        "same damage destroys again at every later check.",
        ("sba.deathtouch-reset", "sba.deathtouch"),
    ),
    MutantInfo(
        Mutant.RIDER_ON_CREATE,
        'An "if it regenerates this way" rider happens when the shield is made, not when it '
        "is used.",
        ("regen.rider.control", "regen.rider.trigger", "regen.shield.create"),
    ),
    MutantInfo(
        Mutant.CHOICE_BY_OWNER,
        "The choice among destruction-replacement effects is made by the permanent's owner "
        "instead of its controller.",
        ("replace.choice",),
    ),
    MutantInfo(
        Mutant.SHIELD_FOLLOWS_ZONE_CHANGE,
        "Unused shields follow the card through zone changes, so a flickered permanent comes "
        "back with them.",
        ("zone.new-object", "regen.same-object"),
    ),
    MutantInfo(
        Mutant.STATIC_REGEN_USED_UP,
        "Static regeneration works once per turn, like a shield.",
        ("regen.static",),
    ),
    MutantInfo(
        Mutant.SACRIFICE_USES_SHIELD,
        "Sacrificing a permanent with a shield is treated as destroying it, so the shield "
        "saves it.",
        ("zone.sacrifice",),
    ),
    MutantInfo(
        Mutant.NO_SBA_BEFORE_PRIORITY,
        "State-based actions are not checked before a player receives priority, leaving a "
        "window between lethal damage and its destruction.",
        ("sba.loop", "priority.receive"),
    ),
    MutantInfo(
        Mutant.DAMAGE_TRIGGER_SKIPPED_ON_REGEN,
        "A damage trigger of a creature is lost when that creature regenerates.",
        ("regen.damage-triggers", "damage.trigger"),
    ),
    MutantInfo(
        Mutant.REGEN_UNATTACHES,
        "Regenerating unattaches the Auras and Equipment of the permanent, as if it had "
        "left the battlefield.",
        ("regen.same-object",),
    ),
    MutantInfo(
        Mutant.DEATHTOUCH_STATIC_PRE_M10,
        "Before M10, deathtouch works as the M10 state-based action instead of a trigger, so "
        "one shield covers lethal and deathtouch damage.",
        ("damage.deathtouch-trigger",),
    ),
    MutantInfo(
        Mutant.RIDER_TRIGGER_BY_CONTROLLER,
        'A "when it regenerates this way" trigger is controlled by the creature\'s controller '
        "when it regenerates instead of the player who made the shield.",
        ("regen.rider.trigger",),
    ),
    MutantInfo(
        Mutant.ALIKE_CHOICE_IGNORED,
        "An explicit answer between shields with the same outcome is ignored and the oldest "
        "shield is used.",
        ("replace.choice",),
    ),
    MutantInfo(
        Mutant.FLICKER_RETURNS_TO_OWNER,
        'A flicker that returns the card "under your control" returns it under its owner\'s '
        "control.",
        ("zone.return-control",),
    ),
    MutantInfo(
        Mutant.SUMMONING_SICKNESS_IGNORED,
        "A creature that came under its controller's control this turn may attack without haste.",
        ("combat.summoning-sickness", "combat.declare-attackers"),
    ),
    MutantInfo(
        Mutant.COMBAT_KEYWORDS_AT_ASSIGNMENT,
        "Pre-M10 combat damage on the stack is dealt with its sources' keywords as they were "
        "when it was assigned, not when it resolves.",
        ("combat.edition.pre-m10", "keyword.grant"),
    ),
    MutantInfo(
        Mutant.SHIELD_COUNTER_PER_SOURCE,
        "Damage dealt at the same time by several sources needs one shield counter per "
        "source to be prevented.",
        ("replace.shield-counter",),
    ),
    MutantInfo(
        Mutant.DOUBLE_STRIKER_STAYS_IN_COMBAT,
        "A double striker regenerated in the first-strike damage step stays in combat and "
        "deals its regular damage too.",
        ("regen.apply.remove-from-combat", "combat.damage.double-strike"),
    ),
    MutantInfo(
        Mutant.LIFELINK_ON_PREVENTED,
        "Lifelink gains life for damage a shield counter or a prevention effect prevented, as if "
        "it had been dealt.",
        ("damage.lifelink", "replace.shield-counter", "prevent.next", "prevent.all"),
    ),
    MutantInfo(
        Mutant.PREVENTION_NOT_REDUCED,
        'A "prevent the next N damage" shield prevents damage without being reduced, so it '
        "never runs out that turn.",
        ("prevent.next",),
    ),
    MutantInfo(
        Mutant.PREVENTION_PER_SOURCE,
        'A "prevent the next N damage" shield prevents up to N of each source\'s damage dealt '
        "at the same time, instead of N in all.",
        ("prevent.next",),
    ),
    MutantInfo(
        Mutant.UNPREVENTABLE_PREVENTED,
        "Damage that can't be prevented is prevented by prevention shields and shield counters "
        "(and reduces the shields).",
        ("prevent.unpreventable",),
    ),
    MutantInfo(
        Mutant.PREVENTED_DEATHTOUCH_DESTROYS,
        "Deathtouch damage that a prevention effect prevented is still recorded, so the creature "
        "is destroyed at the next check.",
        ("damage.deathtouch", "prevent.all", "prevent.next"),
    ),
    MutantInfo(
        Mutant.DAMAGE_CLEARED_ON_TYPE_CHANGE,
        "A permanent that stops being a creature loses its marked damage, so the damage no "
        "longer counts if it becomes a creature again that turn.",
        ("type.damage-stays",),
    ),
    MutantInfo(
        Mutant.NONCREATURE_STAYS_IN_COMBAT,
        "An attacking or blocking creature that stops being a creature stays in combat.",
        ("type.stop-being-creature",),
    ),
    MutantInfo(
        Mutant.PHASING_LEAVES_BATTLEFIELD,
        "Phasing out is handled like leaving the battlefield: the permanent loses its "
        "regeneration shields, counters and marked damage, and comes back without them.",
        ("phasing.out", "phasing.cleanup"),
    ),
    MutantInfo(
        Mutant.MULTI_BLOCKER_FIRST_ONLY,
        "A creature blocking two attackers deals all its combat damage to the first one it was "
        "declared blocking, and none once that one has left combat, as if it could block only "
        "one.",
        ("combat.damage.multi-blocker", "combat.removal.multi-blocked"),
    ),
    MutantInfo(
        Mutant.TARGET_RULE_CAST_ONLY,
        "As a spell resolves, a target is checked only for still being the same creature on "
        "the battlefield, not for the rest of its target rule, so Cloudshift returns a creature "
        "another player gained control of in response.",
        ("stack.target-legality",),
    ),
    MutantInfo(
        Mutant.TARGET_STATUS_CAST_ONLY,
        'A target\'s combat or tap status ("target attacking creature", "target untapped '
        'creature") is checked only as the spell is cast: Kill Shot still destroys a creature '
        "a regeneration in response removed from combat, Asphyxiate one it tapped.",
        ("stack.target-status",),
    ),
    MutantInfo(
        Mutant.TAP_COST_WHILE_TAPPED,
        "An ability with {T} in its cost can be activated while its source is tapped (the cost "
        "checked as mana only): Niall Silvain regenerates a second creature in one turn.",
        ("cost.tap",),
    ),
    MutantInfo(
        Mutant.SACRIFICED_AURA_NO_SHIELD,
        "An Aura sacrificed to pay for its 'Regenerate enchanted creature' makes no shield: the "
        "ability looks for the creature on the Aura as it resolves instead of using what the "
        "Aura last enchanted (Carapace's ability does nothing; so does Regeneration's once the "
        "Aura is destroyed in response).",
        ("cost.sacrifice", "attach.host-regen"),
    ),
    MutantInfo(
        Mutant.SACRIFICE_ANY_CREATURE,
        "A 'Sacrifice a creature' cost accepts any creature on the battlefield, an opponent's "
        "too (the cost checked as 'a creature' only): Dark Privilege's controller pays with "
        "the other player's Grizzly Bears.",
        ("cost.sacrifice-creature",),
    ),
    # Auras and Equipment (issue 12 items 5-6):
    MutantInfo(
        Mutant.SHIELD_ON_ATTACHMENT,
        "A shield made by an Aura's or Equipment's \"Regenerate enchanted creature\" is kept "
        "with the attachment: lost when it leaves or falls off, moved when it moves.",
        ("attach.shields-stay", "attach.host-regen"),
    ),
    MutantInfo(
        Mutant.GRANTED_ABILITY_AURA_CONTROLLER,
        "An ability an Aura or Equipment gives its creature (\"enchanted creature has '{B}: "
        "Regenerate this creature'\") is activated by the attachment's controller, as if it "
        "were the attachment's, not by the creature's controller.",
        ("attach.granted-ability",),
    ),
    MutantInfo(
        Mutant.REGENERATED_COUNTED_AS_DESTROYED,
        'A "destroyed this way" count includes the creatures a replacement (a regeneration '
        "shield, static regeneration, umbra armor, a shield counter) saved.",
        ("destroy.counted",),
    ),
    MutantInfo(
        Mutant.TARGET_CANT_REGEN_NEEDS_DAMAGE,
        "A damage spell's \"if it's a creature, it can't be regenerated this turn\" applies only "
        "when damage is dealt, so prevented damage leaves the target regenerable.",
        ("cant-regen.damage-target",),
    ),
    MutantInfo(
        Mutant.DAMAGE_RIDER_ON_PREVENTED,
        "A damage spell's \"a creature dealt damage this way can't be regenerated this turn\" "
        "(Incinerate) applies to its target although the damage was prevented, as if it were "
        "Disintegrate's unconditional instruction (phase.rs, PH-29).",
        ("cant-regen.make",),
    ),
    MutantInfo(
        Mutant.REGEN_TRIGGERS_DIES,
        'A creature that regenerates triggers its "when this creature dies" ability, as if '
        "regenerating were dying.",
        ("trigger.dies", "regen.same-object"),
    ),
    MutantInfo(
        Mutant.TAPPED_REGEN_BECOMES_TAPPED,
        'A creature that is already tapped when it regenerates triggers its "whenever this '
        'creature becomes tapped" ability, as if the regeneration had tapped it.',
        ("trigger.tapped", "regen.apply.tap"),
    ),
    MutantInfo(
        Mutant.TRIGGERS_REVERSED_APNAP,
        "Triggered abilities of both players waiting at once go on the stack in reversed "
        "APNAP order: the non-active player's first and the active player's last, so the "
        "active player's resolve first.",
        ("stack.triggers",),
    ),
    MutantInfo(
        Mutant.REGEN_TAP_TRIGGERS_NOTHING,
        'The tap of a regeneration makes no "whenever this creature becomes tapped" ability '
        "trigger, although the creature was untapped: engines that tap it without the tap "
        "event their triggers watch for (phase.rs, PH-33).",
        ("trigger.tapped", "regen.apply.tap"),
    ),
    MutantInfo(
        Mutant.REGEN_TAP_MISSES_WATCHERS,
        "A regeneration's tap triggers no other permanent's \"whenever a Merfolk you control "
        'becomes tapped" ability (Judge of Currents), as in engines that tap the regenerated '
        "permanent without a tap event; attacking and {T} costs still do.",
        ("trigger.creature-tapped", "regen.apply.tap"),
    ),
    MutantInfo(
        Mutant.MAY_GAIN_IGNORES_DECLINE,
        'Judge of Currents\' "you may gain 1 life" gains the life whatever its controller '
        "answers as it resolves (608.2d), as in engines that drop the optional flag of a life "
        "gain (and as this model did before it asked).",
        ("trigger.creature-tapped",),
    ),
    MutantInfo(
        Mutant.REGEN_TRIGGERS_CREATURE_DIES,
        "A creature that regenerates triggers other permanents' \"whenever a creature (you "
        'control) dies" abilities, as in engines that fire them from the destruction rather '
        "than from the move to the graveyard.",
        ("trigger.creature-dies", "regen.same-object"),
    ),
    MutantInfo(
        Mutant.ATTACKING_READ_AFTER_MOVE,
        '"Whenever an attacking creature dies" checks "attacking" on the creature after it has '
        "left the battlefield instead of as it last existed there, so no attacker's death ever "
        "triggers it.",
        ("trigger.attacking-dies",),
    ),
    MutantInfo(
        Mutant.DYING_OBSERVER_MISSES_DEATHS,
        'A permanent with "whenever a creature dies" that leaves the battlefield in the same '
        "event as other creatures (a Wrath, one check of state-based actions) does not see "
        "their deaths, as in engines that look for the watchers after the event.",
        ("trigger.creature-dies", "trigger.attacking-dies"),
    ),
    MutantInfo(
        Mutant.DESTRUCTIONS_IN_SEQUENCE,
        "Permanents destroyed at once are decided one after the other, each on the game as the "
        "earlier ones left it: an umbra-armor Aura destroyed in the same event before the "
        "creature it enchants no longer saves that creature, as in engines that destroy a list "
        "of permanents in a loop.",
        ("destroy.simultaneous", "replace.umbra-armor"),
    ),
    MutantInfo(
        Mutant.EOC_DESTROY_NEEDS_COMBAT,
        'A Basilisk\'s "destroy that creature at end of combat" is dropped when that creature '
        "leaves combat, so a blocker that regenerated (removed from combat) escapes it, as an "
        'engine that reads it as "destroy each creature still blocking or blocked by it" does.',
        ("trigger.eoc-destroy", "regen.apply.remove-from-combat"),
    ),
    MutantInfo(
        Mutant.REGEN_CANCELS_EOC_DESTROY,
        'A regeneration also ends the delayed trigger "destroy it at end of combat" on the '
        "creature, so one shield saves it from both the combat damage and the Basilisk.",
        ("trigger.eoc-destroy", "regen.shield.one-per-destruction"),
    ),
    MutantInfo(
        Mutant.EXILED_THOUGH_REGENERATED,
        '"If it would die this turn, exile it instead" exiles a creature whose destruction a '
        "shield, static regeneration, umbra armor or a shield counter replaced, as an engine "
        "that treats the exile effect as a rider of the destruction does.",
        ("replace.exile-instead",),
    ),
    MutantInfo(
        Mutant.EXILE_ONLY_IF_DESTROYED,
        '"If it would die this turn, exile it instead" replaces only a destruction, so a '
        "creature put into the graveyard by 0 toughness or a sacrifice is not exiled, as an "
        "engine that hooks the exile effect to destruction does.",
        ("replace.exile-instead",),
    ),
    MutantInfo(
        Mutant.REMOVE_DAMAGE_REGENERATES,
        "Pyramids' \"the next time it would be destroyed this turn, remove all damage marked on "
        'it instead" also taps the permanent and removes it from combat, as an engine that '
        "implements it as a regeneration shield does.",
        ("replace.remove-damage",),
    ),
    MutantInfo(
        Mutant.CANT_REGEN_STOPS_REMOVE_DAMAGE,
        '"Can\'t be regenerated" (Wrath of God, Terror, Incinerate) stops Pyramids\' "remove all '
        'damage instead" effect, as an engine that files it among the regeneration effects does.',
        ("replace.remove-damage",),
    ),
    MutantInfo(
        Mutant.REMOVE_DAMAGE_NOT_USED_UP,
        'Pyramids\' "the next time it would be destroyed this turn" effect is not used up: it '
        "replaces every destruction of the permanent until the turn ends, as an engine that "
        "keeps it as a static effect does.",
        ("replace.remove-damage",),
    ),
    MutantInfo(
        Mutant.SPELL_TO_GRAVEYARD_FIRST,
        "A resolving instant or sorcery is put into its owner's graveyard before its "
        "instructions are followed, so the cards it destroys lie on top of it, as an engine that "
        "moves the spell card off the stack as it starts to resolve does.",
        ("zone.spell-to-graveyard", "zone.graveyard-order"),
    ),
    MutantInfo(
        Mutant.DIES_DRAW_BY_OWNER,
        "Fecundity's \"that creature's controller may draw a card\" names the dying creature's "
        "owner instead of its controller as it last existed, as an engine that reads the "
        "player off the card in the graveyard does.",
        ("trigger.dies-draw",),
    ),
    MutantInfo(
        Mutant.DIES_DRAW_NOBODY,
        "Fecundity's \"that creature's controller may draw a card\" names nobody, so as it "
        'resolves nobody is asked and nobody draws, as an engine that reads "that creature" '
        "as a target of the ability (which has none) does (phase.rs, PH-31).",
        ("trigger.dies-draw",),
    ),
    MutantInfo(
        Mutant.MILL_SHORT_LIBRARY_LOSES,
        "Milling more cards than the library holds counts as an attempted draw from an empty "
        "library, so the player loses at the next check, as in an engine that mills by drawing "
        "and discarding.",
        ("mill.short-library",),
    ),
    MutantInfo(
        Mutant.RIDER_DRAW_BY_CONTROLLER,
        "Soldevi Sentry's \"that player may draw a card\" names the Sentry's controller when it "
        "regenerates instead of the opponent chosen as the ability was activated, as in an "
        'engine that reads "that player" as "you".',
        ("regen.rider.opponent-draws",),
    ),
    MutantInfo(
        Mutant.REFLEXIVE_INLINE,
        'A "when you do" reflexive trigger (Go-Shintai of Hidden Cruelty\'s) is done as part of '
        "the ability that makes it, its target chosen then, as engines that implement it like "
        'the old one-ability "if you do" wording do: nobody can respond between the payment and '
        "the destruction, so a shield made after seeing the target is too late.",
        ("trigger.reflexive", "stack.trigger-target"),
    ),
    MutantInfo(
        Mutant.REFLEXIVE_BY_SOURCE_CONTROLLER,
        "A reflexive trigger is controlled by its source's controller as it is made instead of "
        "the player who controlled the ability that made it as that ability resolved, so "
        "Go-Shintai's X counts that player's Shrines.",
        ("trigger.reflexive",),
    ),
    MutantInfo(
        Mutant.COUNTERED_SPELL_VANISHES,
        "A countered spell is removed from the stack but put into no graveyard, as an engine "
        "that drops the stack object instead of moving the spell card does.",
        ("stack.counter", "zone.spell-to-graveyard"),
    ),
)

MUTANT_INFO: dict[Mutant, MutantInfo] = {info.mutant: info for info in _INFO}


def describe(mutant: Mutant) -> MutantInfo:
    """The description of ``mutant`` (every member of ``Mutant`` has one)."""
    return MUTANT_INFO[mutant]
