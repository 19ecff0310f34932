"""Building a starting state from plain descriptions (used by scenarios, tests and searches)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from regen_model.model.cards import CardTemplate
from regen_model.model.enums import Decision, Edition, Keyword, Step, Zone
from regen_model.model.state import Card, GameState, Ghost, Player, Setup, Shield


@dataclass(frozen=True)
class CardSpec:
    """A card as a scenario sets it up. ``controller`` defaults to the owner. ``plus``
    defaults to the +1/+1 counters the card enters with (Skeleton Scavengers: it entered the
    battlefield before the start, 614.1c); ``sick``: it came under its controller's control
    this turn (302.6)."""

    handle: str
    template: CardTemplate
    owner: int
    controller: int | None = None
    zone: Zone = Zone.BATTLEFIELD
    tapped: bool = False
    damage: int = 0
    plus: int | None = None
    minus: int = 0
    shield_counters: int = 0
    attached_to: str | None = None
    shields: tuple[Shield, ...] = ()
    cant_regen: bool = False
    deathtouched: bool = False
    granted: frozenset[Keyword] = field(default_factory=frozenset)
    sick: bool = False
    animated: bool = False  # its own animation applies (a manland that is a creature now)
    noncreature: bool = False  # a type change until end of turn: it is not a creature now
    prevent_next: int = 0  # left of its "prevent the next N damage" shields this turn (615.7)
    prevent_all: bool = False  # "prevent all damage that would be dealt to it this turn"
    # "if it would die this turn, exile it instead" applies (Disintegrate's effect, 614.6)
    exile_if_dies: bool = False
    # unused "the next time it would be destroyed this turn, remove all damage marked on it
    # instead" effects (Pyramids', 614.1a, 614.5)
    remove_damage: int = 0
    # phased out under its controller (702.26b); what is attached to it is phased out with it
    phased_out: bool = False

    def __post_init__(self) -> None:
        if self.plus is None:
            entered = self.template.enters_plus if self.zone is Zone.BATTLEFIELD else 0
            object.__setattr__(self, "plus", entered)


def _ghost(shields: tuple[Shield, ...]) -> Ghost:
    """Bookkeeping consistent with shields given at the start: they were made for this object
    this turn, and each used one replaced one destruction (the ghost invariants
    inv.shield.made-this-turn and inv.survival.needs-shields rely on it)."""
    used = sum(1 for s in shields if s.used)
    return Ghost(shields_made=len(shields), destructions=used, by_shield=used)


def start_plus(c: CardSpec) -> int:
    """The +1/+1 counters ``c`` starts with (as given, else those its card enters with)."""
    return c.plus or 0


def _phased_under(cards: Sequence[CardSpec], slot: int, handles: tuple[str, ...]) -> int | None:
    """The player ``cards[slot]`` phased out under: its controller if it is phased out, else
    that of the nearest host it is attached to that is (702.26g: Auras and Equipment phase out
    with their host); ``None`` if it is phased in."""
    seen: set[int] = set()
    while slot not in seen:
        seen.add(slot)
        c = cards[slot]
        if c.phased_out:
            return c.owner if c.controller is None else c.controller
        if c.attached_to is None:
            return None
        slot = handles.index(c.attached_to)
    return None


def make_state(
    player_names: Sequence[str],
    cards: Sequence[CardSpec],
    *,
    edition: Edition = Edition.FDN,
    turn: int = 1,
    active: int = 0,
    step: Step = Step.MAIN1,
    priority: int | None = 0,
    life: Sequence[int] | None = None,
    library: Sequence[int] | None = None,
) -> GameState:
    """A start state. ``library``: how many cards each player's library holds (0 if left
    out; ``Player.library``); every hand starts empty."""
    handles = tuple(c.handle for c in cards)
    setup = Setup(
        player_names=tuple(player_names),
        handles=handles,
        templates=tuple(c.template for c in cards),
        owners=tuple(c.owner for c in cards),
    )
    built = []
    for slot, c in enumerate(cards):
        built.append(
            Card(
                slot=slot,
                zone=c.zone,
                gen=0,
                control=c.owner if c.controller is None else c.controller,
                tapped=c.tapped,
                damage=c.damage,
                deathtouched=c.deathtouched,
                plus=start_plus(c),
                minus=c.minus,
                shield_counters=c.shield_counters,
                kw_granted=c.granted,
                cant_regen=c.cant_regen,
                attached_to=None if c.attached_to is None else handles.index(c.attached_to),
                shields=c.shields,
                sick=c.sick,
                animated=c.animated,
                prevent_next=c.prevent_next,
                prevent_all=c.prevent_all,
                exile_if_dies=c.exile_if_dies,
                remove_damage=c.remove_damage,
                noncreature=c.noncreature,
                phased_out=_phased_under(cards, slot, handles),
                ghost=_ghost(c.shields),
            )
        )
    lives = list(life) if life is not None else [20] * len(player_names)
    libraries = list(library) if library is not None else [0] * len(player_names)
    # Cards that start in a graveyard lie there in the order they are listed, bottom to top
    # (404.2), each on its own: one group per card (``state.Graveyard``).
    yards = [
        tuple((slot,) for slot, c in enumerate(cards) if c.zone is Zone.GRAVEYARD and c.owner == p)
        for p in range(len(player_names))
    ]
    return GameState(
        setup=setup,
        edition=edition,
        turn=turn,
        active=active,
        step=step,
        priority=priority,
        passed=frozenset(),
        decision=Decision.NONE,
        stack=(),
        pending=(),
        players=tuple(
            Player(life=v, graveyard=g, library=n)
            for v, g, n in zip(lives, yards, libraries, strict=True)
        ),
        cards=tuple(built),
    )
