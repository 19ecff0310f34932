"""The clause catalog (``spec/clauses.yaml``) as typed Python values.

Every rule the model implements has a stable clause ID. Engine events, Z3 assertion labels,
invariants, scenarios and reports all cite these IDs; this module is the one place that reads
the catalog, so a test can check that every cited ID exists and every clause is cited.

The catalog ships inside the wheel as ``regen_model/_spec/clauses.yaml`` (see pyproject's
``force-include``); in a source checkout it is read from ``spec/clauses.yaml``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML


@dataclass(frozen=True, slots=True)
class Clause:
    id: str
    title: str
    text: str
    rules: tuple[str, ...]
    history: dict[str, tuple[str, ...]]
    applies_in: tuple[str, ...]
    sources: tuple[str, ...]
    notes: str = ""

    def rule_numbers(self, edition: str | None = None) -> tuple[str, ...]:
        """Rule numbers in ``edition`` (a CR date or ``pre-M10``); current ones by default."""
        if edition is None:
            return self.rules
        return self.history.get(edition, self.rules)

    @property
    def cite(self) -> str:
        """``id (701.19a, 614.8)``: how reports print a clause."""
        return f"{self.id} ({', '.join(self.rules)})" if self.rules else self.id


@dataclass(frozen=True, slots=True)
class Catalog:
    version: int
    current_edition: str
    clauses: dict[str, Clause]
    disagreements: tuple[dict[str, Any], ...]
    out_of_scope: tuple[dict[str, Any], ...]

    def __contains__(self, clause_id: object) -> bool:
        return clause_id in self.clauses

    def __getitem__(self, clause_id: str) -> Clause:
        return self.clauses[clause_id]

    def rules_for(self, clause_id: str) -> str:
        """Comma-separated current rule numbers of a clause ('' for an unknown ID)."""
        c = self.clauses.get(clause_id)
        return ", ".join(c.rules) if c else ""


def spec_path() -> Path:
    """Where ``clauses.yaml`` is: inside the installed package, else in the checkout."""
    packaged = resources.files("regen_model").joinpath("_spec", "clauses.yaml")
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "spec" / "clauses.yaml"


def _strs(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value)


def parse_catalog(data: dict[str, Any]) -> Catalog:
    clauses: dict[str, Clause] = {}
    for raw in data["clauses"]:
        cid = str(raw["id"])
        if cid in clauses:
            raise ValueError(f"duplicate clause id {cid!r} in the catalog")
        history = {str(k): _strs(v) for k, v in (raw.get("history") or {}).items()}
        clauses[cid] = Clause(
            id=cid,
            title=str(raw.get("title", "")),
            text=" ".join(str(raw.get("text", "")).split()),
            rules=_strs(raw.get("rules")),
            history=history,
            applies_in=_strs(raw.get("applies_in")) or ("pre-M10", "M10", "FDN"),
            sources=_strs(raw.get("sources")),
            notes=" ".join(str(raw.get("notes") or "").split()),
        )
    return Catalog(
        version=int(data.get("version", 1)),
        current_edition=str(data.get("current_edition", "")),
        clauses=clauses,
        disagreements=tuple(data.get("disagreements") or ()),
        out_of_scope=tuple(data.get("out_of_scope") or ()),
    )


@cache
def catalog() -> Catalog:
    """The catalog, read once per process (it is immutable)."""
    with spec_path().open(encoding="utf-8") as fh:
        data = YAML(typ="safe").load(fh)
    return parse_catalog(data)
