"""``enums.ordinal``: the integer the Z3 encoding uses for an enum member is its position in
its own class, whatever other classes hold a member with the same text."""

from __future__ import annotations

from enum import StrEnum

from regen_model.model import enums as E


def _classes() -> list[type[StrEnum]]:
    return [
        c
        for c in vars(E).values()
        if isinstance(c, type) and issubclass(c, StrEnum) and c is not StrEnum
    ]


def test_members_with_the_same_text_keep_their_own_positions() -> None:
    """``Step.DECLARE_ATTACKERS`` and ``Decision.DECLARE_ATTACKERS`` are equal strings; a
    memo keyed by the member alone gave the second one the first one's position (the cover
    guide runs then stopped being runs of the relation)."""
    texts: dict[str, list[StrEnum]] = {}
    for cls in _classes():
        for member in cls:
            texts.setdefault(str(member.value), []).append(member)
    shared = {t: ms for t, ms in texts.items() if len(ms) > 1}
    assert shared, "no two classes share a member's text any more: pick another case"
    for members in shared.values():
        for order in (members, list(reversed(members))):
            E._ordinal.cache_clear()
            for member in order:
                assert E.ordinal(member) == list(type(member)).index(member), member


def test_every_member_is_its_position() -> None:
    for cls in _classes():
        assert [E.ordinal(m) for m in cls] == list(range(len(cls)))
