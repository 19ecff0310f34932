"""Clause facts for scenarios: does an ID exist, and which rule numbers does it rest on.

Reads ``regen_model.clauses.catalog()`` lazily, on first use, and never fails because of it:
if the catalog cannot be read, or a clause is missing from it, narration shows the clause ID
without numbers and the loader skips the "is this a known clause" check. Scenarios stay
runnable while the catalog is being edited; the clause-coverage test is what insists on a
complete catalog.
"""

from __future__ import annotations

from functools import cache

from ruamel.yaml.error import YAMLError

from regen_model.clauses import Catalog, catalog
from regen_model.model.enums import Edition

# The CR edition whose numbers describe each rule edition of combat damage, for clauses that
# exist only in superseded rules (their current ``rules`` list is empty).
EDITION_HISTORY_KEY: dict[Edition, str] = {
    Edition.PRE_M10: "pre-M10",
    Edition.M10: "2024-09-20",
    Edition.FDN: "2024-11-08",
}


@cache
def _catalog() -> Catalog | None:
    try:
        return catalog()
    except (OSError, YAMLError, KeyError, ValueError, TypeError):
        return None


def available() -> bool:
    return _catalog() is not None


def is_known(clause_id: str) -> bool | None:
    """Whether the catalog has this clause; ``None`` when the catalog is unavailable."""
    cat = _catalog()
    return None if cat is None else clause_id in cat


def rule_numbers(clause_id: str, edition: Edition | None = None) -> str:
    """Current rule numbers (``"701.19a, 614.8"``); for a clause of a superseded edition, the
    numbers of that edition, tagged with it; ``""`` when unknown."""
    cat = _catalog()
    if cat is None or clause_id not in cat:
        return ""
    clause = cat[clause_id]
    if clause.rules:
        return ", ".join(clause.rules)
    for key in ([EDITION_HISTORY_KEY[edition]] if edition else []) + list(clause.history):
        numbers = clause.history.get(key)
        if numbers:
            return f"{key}: {', '.join(numbers)}"
    return ""


def title(clause_id: str) -> str:
    cat = _catalog()
    if cat is None or clause_id not in cat:
        return ""
    return cat[clause_id].title
