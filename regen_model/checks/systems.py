"""Where the proof engine gets the transition system of the rules, and the scopes it uses.

The bounded Z3 encoding of the rules (``RegenSystem``) lives in ``regen_model.encoding``;
this module is the one place the checks build it, so the proof engine itself depends only
on the ``TransitionSystem`` protocol (``system.py``).

``PROOF_SCOPE`` is the scope ``prove`` and ``verify`` use by default: one card slot, one
stack object and one waiting trigger, two shields per card. It keeps the whole catalog's
proofs to seconds; interactions between permanents are proved for any number of permanents
by the any-n method, and ``--scope cards=2`` (one to three minutes) proves the catalog with
two card slots. ``COVER_SCOPE`` (two card slots) is where cover looks for witnesses: Auras,
blocks and umbra armor need two permanents to fire at all.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any, cast

from regen_model.checks.system import TransitionSystem
from regen_model.encoding.scope import SCOPE_LIMITS, Scope
from regen_model.encoding.system import RegenSystem
from regen_model.model.enums import Edition
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import Setup

PROOF_SCOPE = Scope(cards=1, shields=2, stack=1, pending=1, targets=1)
COVER_SCOPE = Scope(cards=2, shields=2, stack=1, pending=1, targets=1, max_amount=2)


def regen_system(
    scope: Scope = PROOF_SCOPE, rules: Rules = CORRECT, setup: Setup | None = None
) -> TransitionSystem:
    """The bounded encoding of ``rules`` at ``scope``; with ``setup``, its printed cards
    pinned to that setup's (a specialised relation: ``RegenSystem``)."""
    # RegenSystem implements the protocol; its decode() is typed with its own frames and
    # steps, which mypy does not accept as the protocol's Any-typed ones.
    return cast(TransitionSystem, RegenSystem(scope=scope, rules=rules, setup=setup))


def parse_scope(text: str | None, base: Scope = PROOF_SCOPE) -> Scope:
    """``"cards=2,shields=1"`` -> the default scope with those fields changed. Editions are
    written ``editions=FDN+M10``. Raises ``ValueError`` naming the bad part."""
    if not text:
        return base
    known = {f.name for f in fields(Scope)}
    changes: dict[str, Any] = {}
    for part in text.split(","):
        key, sep, value = part.partition("=")
        key = key.strip()
        if not sep or key not in known:
            raise ValueError(
                f"bad scope part {part.strip()!r} (expected NAME=VALUE with NAME one of "
                f"{', '.join(sorted(known))})"
            )
        if key == "editions":
            try:
                changes[key] = tuple(Edition(v.strip()) for v in value.split("+"))
            except ValueError:
                raise ValueError(
                    f"bad edition in {part.strip()!r} (editions: "
                    f"{', '.join(e.value for e in Edition)})"
                ) from None
            continue
        try:
            number = int(value)
        except ValueError:
            raise ValueError(f"scope {key} must be a whole number, not {value!r}") from None
        low, high = SCOPE_LIMITS[key]
        if not low <= number <= high:
            raise ValueError(f"scope {key}={number} is out of range (allowed: {low}..{high})")
        changes[key] = number
    return replace(base, **changes)
