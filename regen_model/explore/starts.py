"""The initial states of a bounded exploration: every board of ``count`` permanents drawn
from a card set, owned by either player, at the start of a chosen step.

Like TLC's ``Init``, this is a *set* of states, and a verdict covers all of them. Two cards
with the same name and owner are interchangeable at the start, so boards are multisets of
(card, owner) pairs rather than sequences: the one symmetry reduction of the explorer, sound
because nothing has happened yet that could tell the two copies apart. Auras start attached
to a creature of the board (each choice of host is its own start; a board whose Auras have no
creature to enchant is skipped as illegal, 303.4); Equipment starts unattached or attached to
each creature. A start may give every creature the same number of unused plain shields made
earlier this turn (``shields``), a reachable situation that saves the explorer the steps of
making them, and may make every creature summoning sick (``sick``: it came under its
controller's control this turn, 302.6); by default every permanent has been under its
controller's control since the turn began.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement, product

from regen_model.encoding.scope import Scope
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS, CardTemplate
from regen_model.model.enums import Attachment, Edition, Rider, Step
from regen_model.model.state import GameState, Shield

PLAYER_NAMES = ("A", "B")
# Steps a start may be in: those where the active player simply holds priority (117.3a).
START_STEPS: tuple[Step, ...] = (
    Step.UPKEEP,
    Step.MAIN1,
    Step.BEGIN_COMBAT,
    Step.MAIN2,
    Step.END,
)
START_SHIELD = Shield(origin="Regenerate", creator=0, rider=Rider.NONE)


class StartError(ValueError):
    """A start description that names an unknown card or does not fit the scope."""


@dataclass(frozen=True)
class StartSpec:
    """Which boards to start from. ``cards`` is the card set (built-in card names)."""

    cards: tuple[str, ...]
    count: int
    editions: tuple[Edition, ...] = (Edition.FDN,)
    step: Step = Step.MAIN1
    owners: tuple[int, ...] = (0, 1)  # who may own each permanent (player indices)
    shields: int = 0  # unused shields each creature starts with (made earlier this turn)
    sick: bool = False  # every creature came under its controller's control this turn

    def describe(self) -> str:
        editions = ",".join(e.value for e in self.editions)
        owners = "/".join(PLAYER_NAMES[o] for o in self.owners)
        shields = f", {self.shields} shield(s) on each creature" if self.shields else ""
        sick = ", creatures summoning sick" if self.sick else ""
        return (
            f"{self.count} of [{', '.join(self.cards)}] owned by {owners}{shields}{sick}, "
            f"{editions}, from {self.step.value}"
        )


def check_start(spec: StartSpec, scope: Scope) -> list[CardTemplate]:
    """The card set's templates; ``StartError`` when a card is unknown or out of scope."""
    if spec.count < 1:
        raise StartError("a start needs at least one permanent")
    if spec.count > scope.cards:
        raise StartError(f"{spec.count} permanents do not fit a scope of {scope.cards} cards")
    if not 0 <= spec.shields <= scope.shields:
        raise StartError(f"{spec.shields} shields do not fit a scope of {scope.shields} per card")
    if spec.step not in START_STEPS:
        allowed = ", ".join(s.value for s in START_STEPS)
        raise StartError(f"a start can't be in the {spec.step.value} step (allowed: {allowed})")
    if not spec.cards:
        raise StartError("the card set is empty")
    templates = []
    for name in spec.cards:
        template = PERMANENT_CARDS.get(name)
        if template is None:
            raise StartError(f"unknown card {name!r} (see regen_model/model/cards.py)")
        if template.power > scope.max_power or template.toughness > scope.max_toughness:
            raise StartError(
                f"{name} is {template.power}/{template.toughness}, outside the scope's "
                f"P/T bound {scope.max_power}/{scope.max_toughness}"
            )
        templates.append(template)
    if not spec.owners or any(o not in range(len(PLAYER_NAMES)) for o in spec.owners):
        raise StartError(f"owners must be player indices among 0..{len(PLAYER_NAMES) - 1}")
    for edition in spec.editions:
        if edition not in scope.editions:
            raise StartError(f"edition {edition.value} is not in the scope")
    return templates


def start_states(spec: StartSpec, scope: Scope) -> list[GameState]:
    """Every start of ``spec``, in a deterministic order."""
    templates = check_start(spec, scope)
    pairs = [(t, owner) for t in templates for owner in spec.owners]
    out: list[GameState] = []
    for edition in spec.editions:
        for board in combinations_with_replacement(range(len(pairs)), spec.count):
            chosen = [pairs[i] for i in board]
            for hosts in _attachments([t for t, _ in chosen]):
                out.append(_build(chosen, hosts, edition, spec))
    return out


def _attachments(templates: Sequence[CardTemplate]) -> list[tuple[int | None, ...]]:
    """Every legal choice of what each card is attached to (index into the board)."""
    creatures = [i for i, t in enumerate(templates) if t.is_creature]
    options: list[list[int | None]] = []
    for t in templates:
        if t.attachment is Attachment.AURA:
            options.append(list(creatures))
        elif t.attachment is Attachment.EQUIPMENT:
            options.append([None, *creatures])
        else:
            options.append([None])
    return [tuple(hosts) for hosts in product(*options)]


def _build(
    chosen: Sequence[tuple[CardTemplate, int]],
    hosts: tuple[int | None, ...],
    edition: Edition,
    spec: StartSpec,
) -> GameState:
    handles = _handles([t.name for t, _ in chosen])
    specs = [
        CardSpec(
            handle=handles[i],
            template=t,
            owner=owner,
            attached_to=_host(handles, hosts[i]),
            shields=(START_SHIELD._replace(creator=owner),) * spec.shields if t.is_creature else (),
            sick=spec.sick and t.is_creature,
        )
        for i, (t, owner) in enumerate(chosen)
    ]
    return make_state(PLAYER_NAMES, specs, edition=edition, step=spec.step, priority=0)


def _host(handles: Sequence[str], host: int | None) -> str | None:
    return None if host is None else handles[host]


def _handles(names: Sequence[str]) -> list[str]:
    """Readable, unique handles: ``grizzly-bears``, ``grizzly-bears-2``."""
    out: list[str] = []
    for name in names:
        base = "".join(ch if ch.isalnum() else "-" for ch in name.lower()).strip("-")
        while "--" in base:
            base = base.replace("--", "-")
        handle, n = base, 1
        while handle in out:
            n += 1
            handle = f"{base}-{n}"
        out.append(handle)
    return out
