"""Hand-made source changes a skeptical reviewer would try: issue 10's experiment.

Each change is rules-meaningful, small, and not one of the model's own rule mutants
(``model.enums.Mutant``): it is made to one view only (``engine``, ``encoding``) or the same
way to both. ``benchmarks/mutation.py changes`` applies each in a temporary copy of the
source tree and runs the fast checks there; every change must be caught. The eleven that
survived every check before issue 10 (five encoding-only, four engine-only, two made in both
views) are the first entries; ``tests/test_changes.py`` keeps the list current (each
``old`` text still occurs exactly once in its file).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    path: str  # relative to the repository root
    old: str
    new: str


@dataclass(frozen=True)
class Change:
    name: str
    view: str  # "engine", "encoding" or "both"
    why: str  # the rule the change breaks
    edits: tuple[Edit, ...]


ENC = "regen_model/encoding/"
ENG = "regen_model/engine/"

CHANGES: tuple[Change, ...] = (
    Change(
        "wipe-drops-cant-regenerate",
        "encoding",
        "a board wipe's 'can't be regenerated' rider (Wrath of God, 701.19c) is dropped",
        (
            Edit(
                ENC + "effects.py",
                "victims[i],\n                    partial(\n                        destroy,\n"
                "                        i=i,\n                        cant_regen=obj.cant_regen,\n",
                "victims[i],\n                    partial(\n                        destroy,\n"
                "                        i=i,\n                        cant_regen=False,\n",
            ),
        ),
    ),
    Change(
        "control-change-keeps-combat",
        "encoding",
        "a creature whose controller changes stays in combat (506.4)",
        (
            Edit(
                ENC + "zones.py",
                '    remove_from_combat(w, i, "control.change", changed)\n',
                "",
            ),
        ),
    ),
    Change(
        "triggers-reversed-apnap",
        "encoding",
        "waiting triggers go on the stack non-active player first (603.3b reversed)",
        (
            Edit(
                ENC + "sba.py",
                "first = ne if w.mutant(Mutant.TRIGGERS_REVERSED_APNAP) else eq",
                "first = eq if w.mutant(Mutant.TRIGGERS_REVERSED_APNAP) else ne",
            ),
        ),
    ),
    Change(
        "rider-ignores-creator",
        "encoding",
        "Debt of Loyalty's control rider gives control to the creature's controller, not to "
        "the player who made the shield (701.19c, the card's ruling)",
        (
            Edit(
                ENC + "destruction.py",
                'changed = change_control(w, i, creator, False, "regen.rider.control", control)',
                'changed = change_control(w, i, controller(w, i), False, "regen.rider.control", control)',
            ),
        ),
    ),
    Change(
        "lethal-ignores-marked-damage",
        "encoding",
        "lethal damage for a damage assignment ignores damage already marked (510.1c-d)",
        (
            Edit(
                ENC + "combat.py",
                "max_(0, sub(toughness(w, b), w[w.c(b).damage]))",
                "max_(0, toughness(w, b))",
            ),
        ),
    ),
    Change(
        "removal-keeps-blocked",
        "engine",
        "an attacker removed from combat stays 'blocked' (506.4)",
        (
            Edit(
                ENG + "zones.py",
                "card._replace(attacking=False, blocking=None, blocked=False)",
                "card._replace(attacking=False, blocking=None, blocked=card.blocked)",
            ),
        ),
    ),
    Change(
        "wither-deathtouch-unrecorded",
        "engine",
        "deathtouch damage dealt as -1/-1 counters (wither, infect) is not recorded (704.5h)",
        (
            Edit(
                ENG + "effects.py",
                "        if deathtouch and not trigger:\n            card = card._replace(deathtouched=True)",
                '        if deathtouch and not trigger and clause == "damage.mark":\n'
                "            card = card._replace(deathtouched=True)",
            ),
        ),
    ),
    Change(
        "trigger-controlled-by-owner",
        "engine",
        "a damage trigger is controlled by its source's owner (603.3a: the controller)",
        (
            Edit(
                ENG + "effects.py",
                "    owner = controller(card)\n",
                "    owner = w.setup.owners[slot]\n",
            ),
        ),
    ),
    Change(
        "untap-by-owner",
        "engine",
        "the untap step untaps what the active player owns (502.3: controls)",
        (
            Edit(
                ENG + "turn.py",
                "if c.on_battlefield and c.tapped and controller(c) == w.active:",
                "if c.on_battlefield and c.tapped and w.setup.owners[i] == w.active:",
            ),
        ),
    ),
    Change(
        "umbra-keeps-damage",
        "both",
        "umbra armor does not remove the creature's damage (702.89a)",
        (
            Edit(
                ENG + "destruction.py",
                '        _remove_damage(w, slot, "replace.umbra-armor")\n',
                "",
            ),
            Edit(ENC + "destruction.py", '    w.set(c.damage, 0, "replace.umbra-armor")\n', ""),
        ),
    ),
    Change(
        "shield-counter-kept",
        "both",
        "a shield counter that prevents damage is not removed (122.1c)",
        (
            Edit(
                ENG + "effects.py",
                "w.cards[slot] = card._replace(shield_counters=card.shield_counters - 1)\n",
                "w.cards[slot] = card\n",
            ),
            Edit(
                ENC + "effects.py",
                'w.set_if(removes, c.shield_counters, sub(w[c.shield_counters], 1), "replace.shield-counter")',
                'w.set_if(removes, c.shield_counters, w[c.shield_counters], "replace.shield-counter")',
            ),
        ),
    ),
)
