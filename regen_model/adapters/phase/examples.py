"""Small hand-written scenarios for the phase.rs cross-check, with their rule references.

They serve two purposes: the tests run each on both engines (tests/adapters), and they are
readable examples of how our actions map onto a real turn. ``AGREEING`` are scenarios where
phase.rs matches the rules. The known divergences are scenario files instead
(tests/adapters/divergences, listed in ``known_divergences.yaml``), so that ``regen-model run``
and ``regen-model crosscheck --case`` replay them. No expected results are written here: the
reference engine computes them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, SPELLS
from regen_model.model.enums import Step
from regen_model.model.state import GameState

P0, P1 = 0, 1


@dataclass(frozen=True)
class Scenario:
    name: str
    rules: str  # the rule numbers the scenario exercises
    state: GameState
    actions: tuple[A.Action, ...]


def board(
    *cards: tuple[str, str, int],
    active: int = P0,
    step: Step = Step.MAIN1,
    turn: int = 1,
) -> GameState:
    """Two players; each card is (handle, built-in card name, owner)."""
    specs = [CardSpec(h, PERMANENT_CARDS[n], owner) for h, n, owner in cards]
    return make_state(["A", "B"], specs, active=active, step=step, turn=turn, priority=active)


def cast(player: int, spell: str, *targets: str | int) -> A.CastSpell:
    """Cast a built-in spell; a ``str`` target is a card handle, an ``int`` a player."""
    choices = tuple(
        A.TargetChoice(player=t) if isinstance(t, int) else A.TargetChoice(card=t) for t in targets
    )
    return SPELLS[spell].cast(player, choices)


def passes(*players: int) -> tuple[A.PassPriority, ...]:
    return tuple(A.PassPriority(player=p) for p in players)


def activate(player: int, source: str) -> A.ActivateAbility:
    return A.ActivateAbility(player=player, source=source)


def _shield_then(
    spell: str, target_card: str = "Horned Troll"
) -> tuple[GameState, tuple[A.Action, ...]]:
    """A (active) shields its creature; B then casts ``spell`` at it and it resolves."""
    state = board(("troll", target_card, P0))
    actions: Sequence[A.Action] = (
        activate(P0, "troll"),
        *passes(P0, P1),  # the shield resolves; A has priority again
        *passes(P0),
        cast(P1, spell, "troll"),
        *passes(P1, P0),
    )
    return state, tuple(actions)


def _combat(attacker: tuple[str, str], blocker: tuple[str, str], shield_blocker: bool) -> Scenario:
    """A attacks with ``attacker``, B blocks with ``blocker`` (shielding it first if asked);
    the scenario ends right after combat damage."""
    a, b = attacker[0], blocker[0]
    state = board((a, attacker[1], P0), (b, blocker[1], P1))
    shield: tuple[A.Action, ...] = ()
    if shield_blocker:
        shield = (*passes(P0), activate(P1, b), *passes(P1, P0))
    actions = (
        *passes(P0, P1),  # main 1 -> beginning of combat
        *passes(P0, P1),  # -> declare attackers
        A.DeclareAttackers(player=P0, attackers=(a,)),
        *passes(P0, P1),  # -> declare blockers
        A.DeclareBlockers(player=P1, blocks=((b, a),)),
        *shield,
        *passes(P0, P1),  # -> combat damage
    )
    return Scenario(f"{a} attacks, {b} blocks", "510.2, 701.19a, 506.4", state, actions)


def _agreeing() -> list[Scenario]:
    out = [
        Scenario(
            "bolt kills a bear",
            "120.3e, 704.5g",
            board(("bear", "Grizzly Bears", P0), active=P1),
            (cast(P1, "Lightning Bolt", "bear"), *passes(P1, P0)),
        ),
        Scenario(
            "a shield saves the troll from a bolt",
            "701.19a, 614.8",
            *_shield_then("Lightning Bolt"),
        ),
        Scenario("Terror ignores the shield", "701.19c", *_shield_then("Terror")),
        Scenario("toughness 0 ignores the shield", "704.5f", *_shield_then("Last Gasp")),
        Scenario("Murder uses the shield", "701.8, 701.19a", *_shield_then("Murder")),
        Scenario(
            "two shields survive two bolts",
            "614.3, 616.1",
            board(("troll", "Horned Troll", P0)),
            (
                activate(P0, "troll"),
                activate(P0, "troll"),
                *passes(P0, P1, P0, P1),
                *passes(P0),
                cast(P1, "Lightning Bolt", "troll"),
                *passes(P1, P0),
                cast(P0, "Lightning Bolt", "troll"),
                *passes(P0, P1),
            ),
        ),
        Scenario(
            "Death Ward does not tap",
            "701.19c",
            board(("bear", "Grizzly Bears", P0)),
            (cast(P0, "Death Ward", "bear"), *passes(P0, P1)),
        ),
        Scenario(
            "a shield from the end step is gone next turn",
            "514.2, 701.19a",
            board(("troll", "Horned Troll", P0), step=Step.END),
            (
                activate(P0, "troll"),
                *passes(P0, P1),  # the shield resolves in the end step
                *passes(P0, P1),  # cleanup, then B's turn begins: upkeep, B has priority
                cast(P1, "Lightning Bolt", "troll"),
                *passes(P1, P0),
            ),
        ),
        Scenario(
            "indestructible keeps its shield",
            "702.12b",
            board(("myr", "Darksteel Myr", P0)),
            (
                cast(P0, "Death Ward", "myr"),
                *passes(P0, P1),
                *passes(P0),
                cast(P1, "Murder", "myr"),
                *passes(P1, P0),
            ),
        ),
        Scenario(
            "Pyroclasm: the shielded troll survives, the bear does not",
            "701.19a, 704.5g",
            board(("troll", "Horned Troll", P0), ("bear", "Grizzly Bears", P0), active=P1),
            (cast(P1, "Pyroclasm"), *passes(P1), activate(P0, "troll"), *passes(P0, P1, P1, P0)),
        ),
        Scenario(
            "effects: shield, damage, check, destroy",
            "701.19a, 704.3, 701.8",
            board(("troll", "Horned Troll", P0)),
            (
                A.CreateShield(target="troll"),
                A.CreateShield(target="troll"),
                A.DealDamage(source="effect", shares=(A.DamageShare(3, card="troll"),)),
                A.CheckStateBasedActions(),
                A.Destroy(targets=("troll",)),
                A.Destroy(targets=("troll",), cant_be_regenerated=True),
            ),
        ),
        _combat(("giant", "Hill Giant"), ("troll", "Horned Troll"), shield_blocker=True),
        _combat(("rats", "Typhoid Rats"), ("troll", "Horned Troll"), shield_blocker=True),
        _combat(("ram", "Boggart Ram-Gang"), ("troll", "Horned Troll"), shield_blocker=True),
        # Issue 12's mechanics as phase.rs has them (docs/phase-report.md).
        Scenario(
            "Mending Hands prevents Lightning Bolt's damage",
            "615.7",
            board(("bear", "Grizzly Bears", P1)),
            (
                cast(P0, "Mending Hands", "bear"),
                *passes(P0, P1),
                cast(P0, "Lightning Bolt", "bear"),
                *passes(P0, P1),
            ),
        ),
        Scenario(
            "a phased-out troll keeps its shield",
            "702.26b, 702.26d",
            board(("troll", "Horned Troll", P0), active=P0),
            (
                activate(P0, "troll"),
                *passes(P0, P1),
                cast(P0, "Galadriel's Dismissal", "troll"),
                *passes(P0, P1),
            ),
        ),
        Scenario(
            "Bonesplitter is equipped, then moved by equip to another creature",
            "702.6a, 701.19a",
            board(
                ("bear", "Grizzly Bears", P0),
                ("splitter", "Bonesplitter", P0),
                ("troll", "Horned Troll", P0),
            ),
            (
                A.ActivateAbility(player=P0, source="splitter", target="bear"),
                *passes(P0, P1),
                A.ActivateAbility(player=P0, source="splitter", target="troll"),
                *passes(P0, P1),
            ),
        ),
    ]
    return out


AGREEING: tuple[Scenario, ...] = tuple(_agreeing())
