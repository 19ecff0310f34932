"""A toy engine that knows a small part of the regeneration rules, in its own terms.

It stands for *your* engine: its own object model (``Creature``), its own method names, and
no knowledge of regen-model. It handles creatures with marked damage and plain regeneration
shields: shields, destroy effects (with or without "can't be regenerated"), damage, the
lethal-damage state-based action, cleanup, sacrifice and exile.
"""

from __future__ import annotations

from dataclasses import dataclass, field


class Illegal(Exception):
    """The action is not possible now."""


@dataclass
class Creature:
    name: str
    owner: str
    toughness: int
    controller: str
    zone: str = "battlefield"
    tapped: bool = False
    damage: int = 0
    shields: int = 0  # unused regeneration shields


@dataclass
class ToyGame:
    creatures: dict[str, Creature]
    log: list[str] = field(default_factory=list)

    def _get(self, handle: str) -> Creature:
        c = self.creatures.get(handle)
        if c is None or c.zone != "battlefield":
            raise Illegal(f"{handle} is not on the battlefield")
        return c

    def _leave(self, handle: str, zone: str) -> None:
        c = self.creatures[handle]
        # A new object: nothing of the old one follows it (rule 400.7).
        self.creatures[handle] = Creature(c.name, c.owner, c.toughness, c.owner, zone)
        self.log.append(f"moved {handle} {zone}")

    def regenerate(self, handle: str) -> None:
        """A resolving "regenerate" effect: one more shield, nothing else happens yet."""
        self._get(handle).shields += 1

    def destroy(self, handles: list[str], can_regenerate: bool = True) -> None:
        for handle in handles:
            self._get(handle)
        for handle in handles:
            c = self.creatures[handle]
            if can_regenerate and c.shields > 0:
                c.shields -= 1
                c.damage = 0
                c.tapped = True
                self.log.append(f"regenerated {handle}")
            else:
                self.log.append(f"destroyed {handle}")
                self._leave(handle, "graveyard")

    def damage(self, handle: str, amount: int) -> None:
        c = self._get(handle)
        if amount > 0:
            c.damage += amount
            self.log.append(f"damaged {handle} {amount}")

    def state_based_actions(self) -> None:
        doomed = [
            h
            for h, c in self.creatures.items()
            if c.zone == "battlefield" and c.toughness > 0 and c.damage >= c.toughness
        ]
        if doomed:
            self.destroy(doomed)

    def end_of_turn_cleanup(self) -> None:
        for c in self.creatures.values():
            if c.zone == "battlefield":
                c.damage = 0
                c.shields = 0

    def sacrifice(self, handle: str) -> None:
        self._get(handle)
        self._leave(handle, "graveyard")

    def exile(self, handle: str) -> None:
        self._get(handle)
        self._leave(handle, "exile")
