"""The explicit-state battery: the small bounded scopes every mutant is explored in.

Each scope is about one area of the rules and keeps only the actions that area needs, the way
a TLC model restricts ``Next`` for one concern; together they reach every clause a mutant
can break within a few steps. The same scopes run with the correct rules first: there they
must all be PROVED, or the battery would be reporting the rules' own violations as kills.

Why these scopes (each is at most about a thousand states, so the whole battery runs in about
a second per mutant even though every state and step is checked against the whole catalog):

* ``shields``: making shields, destroying, sacrificing, flickering, cleanup and "can't be
  regenerated", on a plain creature or an indestructible one, owned by either player.
* ``damage``: lethal damage, -1/-1 counters and shrinking on a shielded creature with a
  damage trigger, the state-based-action check, and passing priority (which checks SBAs).
* ``static``: static regeneration against destroy effects and damage (Knight of the Holy
  Nimbus).
* ``combat``: two shielded creatures from the beginning of combat: attacking, blocking, damage
  and destruction of creatures in combat.
* ``attachments``: a shielded creature wearing an Aura is destroyed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from regen_model.explore import EXPLORE_SCOPE, ActionFamily, ExploreConfig, StartSpec
from regen_model.model.enums import Step


@dataclass(frozen=True)
class BatteryScope:
    name: str
    config: ExploreConfig


_SMALL = dataclasses.replace(EXPLORE_SCOPE, max_amount=1)


def _scope(
    name: str, start: StartSpec, depth: int, kinds: set[str], small: bool = False
) -> BatteryScope:
    config = ExploreConfig(
        start=start,
        scope=_SMALL if small else EXPLORE_SCOPE,
        depth=depth,
        family=ActionFamily.ALL,
        kinds=frozenset(kinds),
    )
    return BatteryScope(name, config)


BATTERY: tuple[BatteryScope, ...] = (
    _scope(
        "shields",
        StartSpec(("Grizzly Bears", "Darksteel Myr"), 1),
        4,
        {
            "create-shield",
            "destroy",
            "sacrifice",
            "leave-and-return",
            "cleanup",
            "make-unregenerable",
        },
    ),
    _scope(
        "damage",
        StartSpec(("Jackal Pup",), 1, owners=(0,), shields=1),
        3,
        {"deal-damage", "check-sba", "modify-pt", "pass"},
        small=True,
    ),
    _scope(
        "static",
        StartSpec(("Knight of the Holy Nimbus",), 1, owners=(0,)),
        4,
        {"destroy", "deal-damage", "check-sba"},
        small=True,
    ),
    _scope(
        "combat",
        StartSpec(("Grizzly Bears",), 2, step=Step.BEGIN_COMBAT, shields=1),
        5,
        {"pass", "declare-attackers", "declare-blockers", "assign-combat-damage", "destroy"},
    ),
    _scope(
        "attachments",
        StartSpec(("Grizzly Bears", "Holy Strength"), 2, owners=(0,), shields=1),
        3,
        {"destroy", "check-sba"},
    ),
)
