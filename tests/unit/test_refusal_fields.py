"""Engine refusals that no scenario file can ask for (the scenario loader refuses the action
first, or a scenario's message match is a case-insensitive substring) still name the field
they are about and say exactly what they say.

The field is where an unexpected refusal's error line points (``regen_model/scenario/run.py``,
``_input_error``) for a caller that gets past the loader, and the message is what every error
line and ``--json`` output prints; so a refusal that names another field, or words itself
otherwise, is a change a user sees. Each case was a survivor of the mutation screen
(``benchmarks/mutation-survivors-engine.yaml``).
"""

from __future__ import annotations

import pytest

from regen_model.engine import EngineError, step
from regen_model.engine.turn import describe_division
from regen_model.engine.work import Work
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import CounterKind, Decision, Edition, Keyword, Step, Zone
from regen_model.model.rules import CORRECT
from regen_model.model.state import GameState

CARDS = [
    CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0),
    CardSpec("giant", PERMANENT_CARDS["Hill Giant"], 0),
    CardSpec("spirit", PERMANENT_CARDS["Suture Spirit"], 0),
]
BOARD = make_state(("A", "B"), CARDS)
BOARD_M10 = make_state(("A", "B"), CARDS, edition=Edition.M10)
# Counterspell's "target spell" (115.1, 601.2c): Horned Troll's regeneration ability on the
# stack is an object that is no spell
TROLL = make_state(("A", "B"), [*CARDS, CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 0)])
TROLL_ABILITY_ON_STACK = step(TROLL, A.ActivateAbility(player=0, source="troll")).state
COUNTERSPELL = SPELLS["Counterspell"]
# Dark Privilege's "Sacrifice a creature: Regenerate enchanted creature" (701.21a)
PRIVILEGE = make_state(
    ("A", "B"),
    [*CARDS, CardSpec("privilege", PERMANENT_CARDS["Dark Privilege"], 0, attached_to="bears")],
)
# the game waits for the active player's combat damage assignment (510.1)
ASSIGNING = BOARD._replace(
    step=Step.COMBAT_DAMAGE, decision=Decision.ASSIGN_COMBAT_DAMAGE, priority=None
)
# ... and the Bears attack unblocked: all their damage goes to the player (510.1a)
ASSIGNING_UNBLOCKED = ASSIGNING._replace(
    cards=(ASSIGNING.cards[0]._replace(attacking=True), *ASSIGNING.cards[1:])
)
# ... and B's Grizzly Bears block A's Hill Giant alone: all their damage goes to it (510.1d)
_BLOCKER_OF_ONE = make_state(
    ("A", "B"), [*CARDS, CardSpec("wolf", PERMANENT_CARDS["Grizzly Bears"], 1)]
)
ASSIGNING_BLOCKER_OF_ONE = _BLOCKER_OF_ONE._replace(
    step=Step.COMBAT_DAMAGE,
    decision=Decision.ASSIGN_COMBAT_DAMAGE,
    priority=None,
    cards=(
        _BLOCKER_OF_ONE.cards[0],
        _BLOCKER_OF_ONE.cards[1]._replace(attacking=True, blocked=True),
        *_BLOCKER_OF_ONE.cards[2:3],
        _BLOCKER_OF_ONE.cards[3]._replace(blocking=1),
    ),
)
# cards that are not permanents on the battlefield, a Forest, no creature (120.3), and
# Bonesplitter, whose equip ability targets (702.6a)
GONE_CARDS = [
    *CARDS,
    CardSpec("dead", PERMANENT_CARDS["Grizzly Bears"], 0, zone=Zone.GRAVEYARD),
    CardSpec("strength", PERMANENT_CARDS["Holy Strength"], 0, zone=Zone.GRAVEYARD),
    CardSpec("forest", PERMANENT_CARDS["Forest"], 0),
    CardSpec("splitter", PERMANENT_CARDS["Bonesplitter"], 0),
    CardSpec("pyramids", PERMANENT_CARDS["Pyramids"], 0),
]
GONE = make_state(("A", "B"), GONE_CARDS)
# the declarations' steps (508.1, 509.1): A's Grizzly Bears do not attack, and B has a
# creature to block with
COMBAT = make_state(
    ("A", "B"), [*GONE_CARDS, CardSpec("wolf", PERMANENT_CARDS["Grizzly Bears"], 1)]
)
ATTACKING = COMBAT._replace(
    step=Step.DECLARE_ATTACKERS, decision=Decision.DECLARE_ATTACKERS, priority=None
)
# ... and A's Grizzly Bears came under A's control this turn (302.6)
ATTACKING_SICK = ATTACKING._replace(
    cards=(ATTACKING.cards[0]._replace(sick=True), *ATTACKING.cards[1:])
)
BLOCKING = COMBAT._replace(
    step=Step.DECLARE_BLOCKERS, decision=Decision.DECLARE_BLOCKERS, priority=None
)
# Dark Privilege beside cards off the battlefield: a "Sacrifice a creature" cost (701.21a)
PRIVILEGE_GONE = make_state(
    ("A", "B"),
    [*GONE_CARDS, CardSpec("privilege", PERMANENT_CARDS["Dark Privilege"], 0, attached_to="bears")],
)
# the combat damage step waits for A's assignment: A's Grizzly Bears attack and two of B's
# creatures block them, so their damage must be divided (510.1c)
_TWO_CARDS = [
    *CARDS,
    CardSpec("wolf", PERMANENT_CARDS["Grizzly Bears"], 1),
    CardSpec("cub", PERMANENT_CARDS["Grizzly Bears"], 1),
]
_TWO = make_state(("A", "B"), _TWO_CARDS)
ASSIGNING_TWO_BLOCKERS = _TWO._replace(
    step=Step.COMBAT_DAMAGE,
    decision=Decision.ASSIGN_COMBAT_DAMAGE,
    priority=None,
    cards=(
        _TWO.cards[0]._replace(attacking=True, blocked=True),
        *_TWO.cards[1:3],
        _TWO.cards[3]._replace(blocking=0),
        _TWO.cards[4]._replace(blocking=0),
    ),
)
# M10 (509.2 of that era): the active player orders the two blockers of A's Grizzly Bears
_TWO_M10 = make_state(("A", "B"), _TWO_CARDS, edition=Edition.M10)
ORDERING_M10 = _TWO_M10._replace(
    step=Step.DECLARE_BLOCKERS,
    decision=Decision.ORDER_BLOCKERS,
    priority=None,
    cards=(
        _TWO_M10.cards[0]._replace(attacking=True, blocked=True),
        *_TWO_M10.cards[1:3],
        _TWO_M10.cards[3]._replace(blocking=0),
        _TWO_M10.cards[4]._replace(blocking=0),
    ),
)

# B's Horned Troll beside A's cards: only its controller may activate its ability (602.2)
TROLL_OF_B = make_state(("A", "B"), [*CARDS, CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 1)])
# the combat damage step waits for A's assignment: A's Grizzly Bears and Hill Giant attack and
# each is blocked by two of B's creatures, so both must be divided (510.1c)
_FOUR = make_state(
    ("A", "B"),
    [
        *CARDS,
        *(CardSpec(h, PERMANENT_CARDS["Grizzly Bears"], 1) for h in ("wolf", "cub", "fox", "elk")),
    ],
)
ASSIGNING_TWO_ATTACKERS = _FOUR._replace(
    step=Step.COMBAT_DAMAGE,
    decision=Decision.ASSIGN_COMBAT_DAMAGE,
    priority=None,
    cards=(
        _FOUR.cards[0]._replace(attacking=True, blocked=True),
        _FOUR.cards[1]._replace(attacking=True, blocked=True),
        _FOUR.cards[2],
        _FOUR.cards[3]._replace(blocking=0),
        _FOUR.cards[4]._replace(blocking=0),
        _FOUR.cards[5]._replace(blocking=1),
        _FOUR.cards[6]._replace(blocking=1),
    ),
)

# A's Grizzly Bears phased out (702.26b): in the battlefield zone, yet treated as though they
# did not exist
PHASED = make_state(
    ("A", "B"), [*CARDS, CardSpec("ghost", PERMANENT_CARDS["Grizzly Bears"], 0, phased_out=True)]
)

# B's Foriysian Brigade ("can block an additional creature each combat") as A's three
# creatures attack: it may block two of them, never three (509.1a changed by the card, 101.1)
_BRIGADE = make_state(
    ("A", "B"), [*CARDS, CardSpec("brigade", PERMANENT_CARDS["Foriysian Brigade"], 1)]
)
BLOCKING_THREE_ATTACKERS = _BRIGADE._replace(
    step=Step.DECLARE_BLOCKERS,
    decision=Decision.DECLARE_BLOCKERS,
    priority=None,
    cards=(*(c._replace(attacking=True) for c in _BRIGADE.cards[:3]), _BRIGADE.cards[3]),
)

# Niall Silvain ("{G}{G}{G}{G}, {T}: Regenerate target creature"), already tapped (602.2b)
NIALL_TAPPED = make_state(
    ("A", "B"), [*CARDS, CardSpec("niall", PERMANENT_CARDS["Niall Silvain"], 0, tapped=True)]
)


@pytest.mark.parametrize(
    ("board", "action", "text", "field"),
    [
        (
            BOARD,
            A.ActivateAbility(player=0, source="spirit"),
            "spirit's ability needs a target creature [stack.ability-target]",
            "target",
        ),
        (
            BOARD,
            A.Attach(attachment="bears", target="giant"),
            "bears is neither an Aura nor an Equipment [attach.move]",
            "attachment",
        ),
        (
            BOARD,
            A.DealDamage(source="effect", shares=(A.DamageShare(1, player=2),)),
            None,
            "to",
        ),
        (
            BOARD,
            A.DealDamage(source="effect", shares=(A.DamageShare(-1, card="bears"),)),
            "damage amounts can't be negative [damage.mark]",
            "amount",
        ),
        (
            BOARD_M10,
            A.OrderBlockers(player=0, attacker="giant", order=("bears",)),
            "blockers are ordered by the active player right after blockers are declared "
            "[combat.edition.m10]",
            "player",
        ),
        # Counterspell's refusals (engine.step._spell_target, _targets): the scenario loader
        # refuses these casts first (a spell named by name or position, one target)
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0), A.TargetChoice(spell=1))),
            "Counterspell counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Counterspell",
                effect=Effect(EffectKind.COUNTER_SPELL),
                target_rule=TargetRule.ANY,
                targets=(A.TargetChoice(card="bears"),),
            ),
            "Counterspell counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Hex",
                effect=Effect(EffectKind.DESTROY),
                target_rule=TargetRule.SPELL,
                targets=(A.TargetChoice(spell=0),),
            ),
            "Hex counters: its one target is a spell on the stack [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(card="bears"),)),
            "Counterspell targets a spell [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)),
            "Counterspell targets a spell: the stack has no object at position 0 [stack.cast]",
            "targets",
        ),
        (
            TROLL_ABILITY_ON_STACK,
            COUNTERSPELL.cast(0, (A.TargetChoice(spell=0),)),
            "Counterspell targets a spell (troll: Regenerate this permanent is not one) "
            "[stack.cast]",
            "targets",
        ),
        (
            BOARD,
            SPELLS["Murder"].cast(0, (A.TargetChoice(spell=0),)),
            "Murder can't target a spell [stack.cast]",
            "targets",
        ),
        # the scenario loader names players by name and requires a sacrifice where the cost
        # asks for one, and reads a mill's and a division's numbers and names first
        (BOARD, A.PassPriority(player=2), "no player with index 2", "player"),
        (
            PRIVILEGE,
            A.ActivateAbility(player=0, source="privilege"),
            "privilege's ability costs a creature to sacrifice [cost.sacrifice-creature]",
            "sacrifice",
        ),
        (
            BOARD,
            SPELLS["Wrath of God"].cast(0, (A.TargetChoice(card="bears"),)),
            "Wrath of God has no targets [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Scour",
                effect=Effect(EffectKind.MILL, amount=-1),
                target_rule=TargetRule.PLAYER,
                targets=(A.TargetChoice(player=1),),
            ),
            "Scour mills: its target is a player, its numbers of cards 0 or more [stack.cast]",
            "targets",
        ),
        (
            GONE,
            A.CastSpell(
                player=0,
                name="Land Scorch",
                effect=Effect(EffectKind.DAMAGE, amount=2),
                target_rule=TargetRule.LAND,
                targets=(A.TargetChoice(card="forest"),),
            ),
            "Land Scorch deals damage: it can't target a land (120.1a) [stack.cast]",
            "targets",
        ),
        (
            ASSIGNING,
            A.AssignCombatDamage(
                player=0, divisions=(A.Division(attacker="bears", shares=(("nobody", 1),)),)
            ),
            "no card named 'nobody' in this scenario",
            "divisions",
        ),
        # the scenario loader reads a number of counters as 1 or more, and a division per
        # attacker as a mapping (one key each); its refusal messages match case-insensitively
        (
            BOARD,
            A.AddCounters(target="bears", counter=CounterKind.PLUS, amount=0),
            "the number of counters must be at least 1 [counters.add]",
            "amount",
        ),
        (
            ASSIGNING,
            A.AssignCombatDamage(
                player=0,
                divisions=(
                    A.Division(attacker="bears", shares=(("giant", 1),)),
                    A.Division(attacker="bears", shares=(("giant", 2),)),
                ),
            ),
            "two divisions for bears [combat.damage.assign]",
            "divisions",
        ),
        (
            ASSIGNING_UNBLOCKED,
            A.AssignCombatDamage(
                player=0, divisions=(A.Division(attacker="bears", shares=(("player", 2),)),)
            ),
            "bears is unblocked: all its combat damage goes to the player it attacks, with "
            "nothing to divide; leave it out of the divisions [combat.damage.assign]",
            "divisions",
        ),
        (
            ASSIGNING_BLOCKER_OF_ONE,
            A.AssignCombatDamage(
                player=0, divisions=(A.Division(attacker="wolf", shares=(("giant", 2),)),)
            ),
            "wolf blocks one attacker and deals all its combat damage to it, with nothing to "
            "divide (510.1d); leave it out of the divisions [combat.damage.assign]",
            "divisions",
        ),
        # a permanent's actions name the clause of the action refused (400.7: a card that left
        # the battlefield is no permanent any more)
        (
            GONE,
            A.Attach(attachment="strength", target="bears"),
            "strength is not on the battlefield (it is in the graveyard) [attach.move]",
            "attachment",
        ),
        (
            GONE,
            A.ChangeControl(target="dead", player=1),
            "dead is not on the battlefield (it is in the graveyard) [control.change]",
            "target",
        ),
        (
            GONE,
            A.Destroy(targets=("dead",)),
            "dead is not on the battlefield (it is in the graveyard) [destroy.effect]",
            "targets",
        ),
        (
            GONE,
            A.LeaveAndReturn(target="dead"),
            "dead is not on the battlefield (it is in the graveyard) [zone.new-object]",
            "target",
        ),
        (
            GONE,
            A.DealDamage(source="effect", shares=(A.DamageShare(1, card="forest"),)),
            "forest is not a creature and can't be dealt damage [damage.mark]",
            "to",
        ),
        (
            TROLL,
            A.ActivateAbility(player=0, source="troll", sacrifice="bears"),
            "troll's ability has no sacrifice cost [cost.sacrifice-creature]",
            "sacrifice",
        ),
        # the scenario loader asks an equip ability for its target first
        (
            GONE,
            A.ActivateAbility(player=0, source="splitter"),
            "splitter's equip ability needs a target [attach.equip]",
            "target",
        ),
        # more of a permanent's actions at a card that left the battlefield (400.7), each under
        # the clause of the action refused
        (
            ATTACKING,
            A.DeclareAttackers(player=0, attackers=("dead",)),
            "dead is not on the battlefield (it is in the graveyard) [combat.declare-attackers]",
            "attackers",
        ),
        (
            GONE,
            A.ActivateAbility(player=0, source="spirit", target="dead"),
            "dead is not on the battlefield (it is in the graveyard) [stack.ability-target]",
            "target",
        ),
        (
            GONE,
            A.AddCounters(target="dead", counter=CounterKind.PLUS, amount=1),
            "dead is not on the battlefield (it is in the graveyard) [counters.add]",
            "target",
        ),
        (
            GONE,
            A.DealDamage(source="effect", shares=(A.DamageShare(1, card="dead"),)),
            "dead is not on the battlefield (it is in the graveyard) [damage.mark]",
            "to",
        ),
        (
            GONE,
            SPELLS["Murder"].cast(0, (A.TargetChoice(card="dead"),)),
            "dead is not on the battlefield (it is in the graveyard) [stack.cast]",
            "targets",
        ),
        # an ability's target that does not meet its rule (601.2c, 115.1): Suture Spirit's
        # "Regenerate target creature", Pyramids' "target land"
        (
            GONE,
            A.ActivateAbility(player=0, source="spirit", target="forest"),
            "spirit's ability targets a creature (forest is not one) [stack.ability-target]",
            "target",
        ),
        (
            GONE,
            A.ActivateAbility(player=0, source="pyramids", target="bears"),
            "pyramids's ability targets a land (bears is not one) [stack.ability-target]",
            "target",
        ),
        # who acts, and when (117.3a, 508.1, 509.1, 510.1)
        (
            BOARD,
            A.ActivateAbility(player=1, source="spirit"),
            "B does not hold priority (A does) [stack.activate]",
            "player",
        ),
        (
            BOARD,
            A.DeclareBlockers(player=1, blocks=()),
            "blockers are declared by the defending player at the start of the declare blockers "
            "step [combat.declare-blockers]",
            "player",
        ),
        (
            BLOCKING,
            A.DeclareBlockers(player=1, blocks=(("wolf", "bears"),)),
            "bears is not attacking [combat.declare-blockers]",
            "blocks",
        ),
        (
            BOARD,
            A.AssignCombatDamage(player=0, divisions=()),
            "combat damage is assigned by the active player as the combat damage step begins "
            "[combat.damage.assign]",
            "player",
        ),
        (
            ASSIGNING,
            A.AssignCombatDamage(
                player=0, divisions=(A.Division(attacker="nobody", shares=(("player", 2),)),)
            ),
            "no card named 'nobody' in this scenario",
            "divisions",
        ),
        # slice 5 of the screen: more refusals the scenario loader makes first (a name it
        # does not know, an attacker listed twice, a spell cast without its target, an ability
        # given a target it does not take), or that need the game to wait on a declaration
        # (priority held by nobody, 117.3a-b)
        (
            ATTACKING,
            A.DeclareAttackers(player=0, attackers=("bears", "bears")),
            "bears is declared twice [combat.declare-attackers]",
            "attackers",
        ),
        (
            BLOCKING,
            A.DeclareBlockers(player=1, blocks=(("dead", "bears"),)),
            "dead is not on the battlefield (it is in the graveyard) [combat.declare-blockers]",
            "blocks",
        ),
        (
            TROLL,
            A.ActivateAbility(player=0, source="troll", target="bears"),
            "troll's ability has no target [stack.activate]",
            "target",
        ),
        (
            GONE,
            A.Attach(attachment="splitter", target="dead"),
            "dead is not on the battlefield (it is in the graveyard) [attach.move]",
            "target",
        ),
        (BOARD, SPELLS["Murder"].cast(0, ()), "Murder needs a target [stack.cast]", "targets"),
        (
            BOARD,
            A.DeclareAttackers(player=0, attackers=()),
            "attackers are declared by the active player at the start of the declare attackers "
            "step [combat.declare-attackers]",
            "player",
        ),
        (
            ASSIGNING,
            A.PassPriority(player=0),
            "A can't pass: nobody holds priority [priority.pass]",
            "player",
        ),
        (
            ASSIGNING,
            A.ActivateAbility(player=0, source="spirit"),
            "A does not hold priority (nobody does) [stack.activate]",
            "player",
        ),
        (
            BOARD,
            A.Destroy(targets=("nobody",)),
            "no card named 'nobody' in this scenario",
            "targets",
        ),
        # slice 6 of the screen: refusals the scenario loader makes first (a type change or a
        # sacrifice naming a card off the battlefield, a player index it does not know, a
        # target naming nothing, a creature spell's target that is a player) or that a
        # scenario matches only case-insensitively
        (
            GONE,
            A.ChangeType(target="dead", creature=True),
            "dead is not on the battlefield (it is in the graveyard) [type.become-creature]",
            "target",
        ),
        (
            GONE,
            A.ChangeType(target="forest", creature=True),
            "forest has no creature characteristics to become a creature with "
            "[type.become-creature]",
            "target",
        ),
        (
            PRIVILEGE_GONE,
            A.ActivateAbility(player=0, source="privilege", sacrifice="dead"),
            "dead is not on the battlefield (it is in the graveyard) [cost.sacrifice-creature]",
            "sacrifice",
        ),
        (
            BOARD,
            A.DealDamage(source="effect", controller=2, shares=(A.DamageShare(1, card="bears"),)),
            "no player with index 2",
            "controller",
        ),
        (
            BOARD,
            SPELLS["Murder"].cast(0, (A.TargetChoice(),)),
            "a target names a card or a player [stack.cast]",
            "targets",
        ),
        (
            BOARD,
            SPELLS["Murder"].cast(0, (A.TargetChoice(player=1),)),
            "Murder can only target creatures [stack.cast]",
            "targets",
        ),
        (
            GONE,
            A.Sacrifice(target="dead"),
            "dead is not on the battlefield (it is in the graveyard) [zone.sacrifice]",
            "target",
        ),
        (
            ASSIGNING_TWO_BLOCKERS,
            A.AssignCombatDamage(player=0, divisions=()),
            "the damage assignment must say how to divide the damage of bears [combat.edition.fdn]",
            "divisions",
        ),
        # slice 7 of the screen: a refusal a scenario matches only case-insensitively (514.2's
        # actions while a creature attacks, 511.3), and one whose field no scenario reads (a
        # tapped permanent can't pay {T}, 602.2b)
        (
            ASSIGNING_UNBLOCKED,
            A.Cleanup(),
            "the cleanup step's actions happen after combat, never while a creature is attacking "
            "or blocking (514.2, 511.3) [cleanup.simultaneous]",
            None,
        ),
        (
            NIALL_TAPPED,
            A.ActivateAbility(player=0, source="niall", target="bears"),
            "niall is tapped: it can't pay {T} [cost.tap]",
            "source",
        ),
        # slice 8 of the screen: an activation by a player who does not control the permanent
        # (602.2), a reflexive trigger's target naming no card (the scenario loader refuses
        # both first), and a division left out for two attackers (510.1c), whose names the
        # refusal lists
        (
            TROLL_OF_B,
            A.ActivateAbility(player=0, source="troll"),
            "A does not control troll [stack.activate]",
            "player",
        ),
        (
            BOARD,
            A.PassPriority(player=0, target="nobody"),
            "no card named 'nobody' in this scenario",
            "target",
        ),
        (
            ASSIGNING_TWO_ATTACKERS,
            A.AssignCombatDamage(player=0, divisions=()),
            "the damage assignment must say how to divide the damage of bears, giant "
            "[combat.edition.fdn]",
            "divisions",
        ),
        # slice 9 of the screen: a damage share that names both a card and a player, or
        # neither (the scenario loader builds a share from one recipient only)
        (
            BOARD,
            A.DealDamage(source="effect", shares=(A.DamageShare(1, card="bears", player=1),)),
            "each damage share names exactly one card or one player [damage.mark]",
            "to",
        ),
        # an M10 damage assignment order naming no card, as the attacker or among the
        # blockers (the scenario loader refuses an unknown name first), and an illegal
        # division to the player, which a scenario's case-insensitive match can't pin (510.1c)
        (
            ORDERING_M10,
            A.OrderBlockers(player=0, attacker="nobody", order=()),
            "no card named 'nobody' in this scenario",
            "attacker",
        ),
        (
            ORDERING_M10,
            A.OrderBlockers(player=0, attacker="bears", order=("wolf", "nobody")),
            "no card named 'nobody' in this scenario",
            "order",
        ),
        (
            ASSIGNING_TWO_BLOCKERS,
            A.AssignCombatDamage(
                player=0, divisions=(A.Division(attacker="bears", shares=(("player", 2),)),)
            ),
            "illegal damage division for bears: 2 to player; legal: 2 to wolf; 1 to wolf, 1 to "
            "cub; 2 to cub [combat.edition.fdn]",
            "divisions",
        ),
        # slice 10 of the screen: an equip ability's target off the battlefield or not a
        # creature its controller controls (702.6a; the scenario loader asks for a target
        # first, and no scenario equips at a card that left), a keyword or P/T change at a card
        # that left the battlefield (400.7), a flicker's controller that is no player, a
        # sacrifice cost paid with a noncreature (701.21a), and a spell with targets under a
        # target rule that takes none (601.2c): the scenario loader refuses or builds each
        # of these otherwise first
        (
            GONE,
            A.ActivateAbility(player=0, source="splitter", target="dead"),
            "dead is not on the battlefield (it is in the graveyard) [attach.equip]",
            "target",
        ),
        (
            GONE,
            A.ActivateAbility(player=0, source="splitter", target="forest"),
            "equip targets a creature you control other than the Equipment (forest is not one) "
            "[attach.equip]",
            "target",
        ),
        (
            GONE,
            A.GrantKeyword(target="dead", keyword=Keyword.DEATHTOUCH),
            "dead is not on the battlefield (it is in the graveyard) [keyword.grant]",
            "target",
        ),
        (
            GONE,
            A.ModifyPowerToughness(target="dead", power=1, toughness=1),
            "dead is not on the battlefield (it is in the graveyard) [pt.modify]",
            "target",
        ),
        (
            BOARD,
            A.LeaveAndReturn(target="bears", controller=2),
            "no player with index 2",
            "controller",
        ),
        (
            PRIVILEGE_GONE,
            A.ActivateAbility(player=0, source="privilege", sacrifice="forest"),
            "A can sacrifice only a creature they control (forest is not one) "
            "[cost.sacrifice-creature]",
            "sacrifice",
        ),
        (
            BOARD,
            A.CastSpell(
                player=0,
                name="Hex",
                effect=Effect(EffectKind.DESTROY),
                target_rule=TargetRule.NONE,
                targets=(A.TargetChoice(card="bears"),),
            ),
            "Hex has no target rule [stack.cast]",
            "targets",
        ),
        # slice 11 of the screen: an attacker the attacking player does not control, a
        # noncreature declared as a blocker (508.1a, 509.1a; the scenario loader reads neither
        # message whole), an equip ability activated outside a main phase (602.5d, 702.6a),
        # and a phased-out permanent, which is not on the battlefield as the game sees it
        # (702.26b), told apart from a card in another zone
        (
            ATTACKING,
            A.DeclareAttackers(player=0, attackers=("wolf",)),
            "wolf is not controlled by the attacking player [combat.declare-attackers]",
            "attackers",
        ),
        (
            BLOCKING,
            A.DeclareBlockers(player=1, blocks=(("forest", "bears"),)),
            "forest is not a creature and can't block [combat.declare-blockers]",
            "blocks",
        ),
        (
            GONE._replace(step=Step.UPKEEP),
            A.ActivateAbility(player=0, source="splitter", target="bears"),
            "splitter's equip ability is activated only as a sorcery: by the active player, in a "
            "main phase, with an empty stack (602.5d, 702.6a) [attach.equip]",
            "player",
        ),
        (
            PHASED,
            A.Destroy(targets=("ghost",)),
            "ghost is not on the battlefield (it is phased out) [destroy.effect]",
            "targets",
        ),
        # the scenario loader names an ability by its number or kind among the source's own,
        # and a spell's target player by name (slice 12 survivors)
        (
            BOARD,
            A.ActivateAbility(player=0, source="bears"),
            "bears has no activated ability number 0 [stack.activate]",
            "ability",
        ),
        (
            BOARD,
            SPELLS["Lightning Bolt"].cast(0, (A.TargetChoice(player=2),)),
            "no player with index 2",
            "targets",
        ),
        # slice 13: an ability activated from a card that left the battlefield (400.7, 602.2),
        # which no scenario tries
        (
            GONE,
            A.ActivateAbility(player=0, source="dead"),
            "dead is not on the battlefield (it is in the graveyard) [stack.activate]",
            "source",
        ),
        # slice 14: a shield made for a player who is not in the game (701.19a: the shield's
        # creator is the player whose effect makes it), which the scenario loader refuses first
        (
            BOARD,
            A.CreateShield(target="bears", creator=2),
            "no player with index 2",
            "creator",
        ),
        # slice 16: a type change taking away creature-ness from a card off the battlefield
        # (the scenario loader refuses it first)
        (
            GONE,
            A.ChangeType(target="dead", creature=False),
            "dead is not on the battlefield (it is in the graveyard) [type.stop-being-creature]",
            "target",
        ),
        # slice 17: a blocker that can block one additional creature declared blocking three
        # attackers; the scenarios match its message as a substring only
        (
            BLOCKING_THREE_ATTACKERS,
            A.DeclareBlockers(
                player=1,
                blocks=(("brigade", "bears"), ("brigade", "giant"), ("brigade", "spirit")),
            ),
            "brigade can block at most two attackers (it can block one additional creature, "
            "509.1a) [combat.block-additional]",
            "blocks",
        ),
        # slice 18: a creature that came under A's control this turn, without haste, declared
        # as an attacker (302.6, 508.1a); the scenarios match its message as a substring only
        (
            ATTACKING_SICK,
            A.DeclareAttackers(player=0, attackers=("bears",)),
            "bears came under A's control this turn and has no haste, so it can't attack "
            "(302.6, 508.1a) [combat.summoning-sickness]",
            "attackers",
        ),
        # slice 19: a destroy event naming one permanent twice (701.8: each permanent is
        # destroyed once); the scenarios match its message as a substring only
        (
            BOARD,
            A.Destroy(targets=("bears", "bears")),
            "a permanent is listed twice [destroy.effect]",
            "targets",
        ),
    ],
    ids=[
        "ability-without-target",
        "attach-a-creature",
        "damage-to-no-player",
        "negative-damage",
        "order-before-blockers",
        "counterspell-two-targets",
        "counter-effect-with-another-rule",
        "spell-rule-with-another-effect",
        "counterspell-at-a-card",
        "counterspell-at-an-empty-place",
        "counterspell-at-an-ability",
        "murder-at-a-spell",
        "pass-by-no-player",
        "sacrifice-cost-without-sacrifice",
        "untargeted-spell-with-target",
        "mill-a-negative-number",
        "damage-spell-at-a-land",
        "division-to-an-unknown-name",
        "counters-fewer-than-one",
        "two-divisions-for-one-attacker",
        "division-of-an-unblocked-attacker",
        "division-of-a-blocker-of-one-attacker",
        "attach-an-attachment-off-the-battlefield",
        "change-control-off-the-battlefield",
        "destroy-off-the-battlefield",
        "leave-and-return-off-the-battlefield",
        "damage-to-a-noncreature",
        "sacrifice-for-an-ability-without-that-cost",
        "equip-without-a-target",
        "declare-an-attacker-off-the-battlefield",
        "ability-target-off-the-battlefield",
        "counters-off-the-battlefield",
        "damage-to-a-card-off-the-battlefield",
        "spell-target-off-the-battlefield",
        "regenerate-target-at-a-land",
        "pyramids-at-a-creature",
        "activate-without-priority",
        "declare-blockers-out-of-turn",
        "block-a-creature-that-is-not-attacking",
        "assign-outside-the-damage-step",
        "division-by-an-unknown-attacker",
        "attacker-declared-twice",
        "blocker-off-the-battlefield",
        "untargeted-ability-with-target",
        "attach-to-a-card-off-the-battlefield",
        "targeted-spell-without-target",
        "declare-attackers-out-of-turn",
        "pass-while-nobody-holds-priority",
        "activate-while-nobody-holds-priority",
        "permanent-with-an-unknown-name",
        "become-a-creature-off-the-battlefield",
        "become-a-creature-without-characteristics",
        "sacrifice-a-card-off-the-battlefield",
        "damage-controller-no-player",
        "target-naming-nothing",
        "creature-spell-at-a-player",
        "sacrifice-off-the-battlefield",
        "division-left-out",
        "cleanup-during-combat",
        "tap-cost-of-a-tapped-permanent",
        "activate-another-players-permanent",
        "reflexive-target-with-an-unknown-name",
        "divisions-left-out-for-two-attackers",
        "damage-share-to-a-card-and-a-player",
        "order-for-an-unknown-attacker",
        "order-naming-an-unknown-blocker",
        "division-to-the-player-of-a-blocked-attacker",
        "equip-at-a-card-off-the-battlefield",
        "equip-at-a-noncreature",
        "keyword-to-a-card-off-the-battlefield",
        "pt-change-to-a-card-off-the-battlefield",
        "flicker-under-no-player",
        "sacrifice-a-noncreature",
        "targets-under-a-rule-without-targets",
        "attacker-of-the-defending-player",
        "noncreature-blocker",
        "equip-outside-a-main-phase",
        "destroy-a-phased-out-permanent",
        "activate-an-ability-the-source-lacks",
        "spell-at-no-player",
        "activate-a-card-off-the-battlefield",
        "shield-created-by-no-player",
        "stop-being-a-creature-off-the-battlefield",
        "a-third-attacker-for-a-blocker-of-two",
        "summoning-sick-attacker",
        "destroy-a-permanent-listed-twice",
    ],
)
def test_the_refusal_names_its_field_and_says_exactly_this(
    board: GameState, action: A.Action, text: str | None, field: str | None
) -> None:
    with pytest.raises(EngineError) as refused:
        step(board, action)
    if text is not None:
        assert str(refused.value) == text
    assert refused.value.field == field


def test_a_division_of_no_damage_says_so() -> None:
    """An illegal division's refusal lists the legal ones (510.1c); an attacker blocked by
    creatures that have all left combat has one, which assigns nothing (509.1h, 510.1c)."""
    assert describe_division(Work(BOARD, CORRECT), ()) == "no damage"
