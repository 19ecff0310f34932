"""Loading a scenario file: read, validate against the schema, resolve names, build the start.

The stages run in that order so that each one can trust the previous: the schema guarantees
shapes (a ``power`` is an integer, ``events`` is a list of single-action mappings), and the
parsers then only check meaning (names, zones). Any problem ends as one ``ScenarioError``.
"""

from __future__ import annotations

from pathlib import Path

from regen_model.limits import regular_files
from regen_model.model.enums import Edition
from regen_model.scenario import clause_info
from regen_model.scenario.names import Names
from regen_model.scenario.parse_events import parse_events
from regen_model.scenario.parse_expect import parse_expect
from regen_model.scenario.parse_setup import (
    card_template,
    check_handles,
    check_player_names,
    parse_players,
    parse_spells,
    start_state,
)
from regen_model.scenario.schema import validate
from regen_model.scenario.source import Source, read_source
from regen_model.scenario.spec import Scenario

SCENARIO_SUFFIXES = (".yaml", ".yml", ".json")


def load_scenario(path: Path, shown_as: str | None = None) -> Scenario:
    """Load ``path``; ``shown_as`` is how error messages name the file (default: the path)."""
    return build_scenario(read_source(path, shown_as))


def build_scenario(source: Source) -> Scenario:
    validate(source)
    data = source.data
    player_names, players = parse_players(data["players"])
    check_player_names(source, player_names)
    permanents = data.get("permanents", {})
    handles = tuple(permanents)
    check_handles(source, handles, player_names)
    templates = tuple(card_template(source, h, permanents[h]) for h in handles)
    names = Names(
        source=source,
        players=player_names,
        handles=handles,
        templates=templates,
        spells=parse_spells(source, data.get("spells", {})),
    )
    clauses = tuple(str(c) for c in data.get("clauses", ()))
    for i, clause in enumerate(clauses):
        if clause_info.is_known(clause) is False:
            raise source.error(("clauses", i), f"{clause!r} is not a clause of the catalog")
    edition = Edition(data.get("edition", Edition.FDN.value))
    return Scenario(
        file=source.file,
        name=str(data["name"]),
        description=" ".join(str(data["description"]).split()),
        edition=edition,
        clauses=clauses,
        start=start_state(names, data, players, edition),
        events=parse_events(names, data["events"]),
        expect=parse_expect(names, data.get("expect", {}), ("expect",)),
        expect_line=source.line(("expect",)),
        source=source,
    )


def scenario_files(paths: list[Path]) -> list[Path]:
    """Files named directly, plus the scenario files (sorted) in any directory named: regular
    files only (a FIFO or a device there is skipped; links to folders are not followed)."""
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out.extend(sorted(f for f in regular_files(p) if f.suffix.lower() in SCENARIO_SUFFIXES))
        else:
            out.append(p)
    return out
