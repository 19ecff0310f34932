"""Conformance vectors: JSON cases any engine, in any language, can replay on its own.

A vector is a start state, a list of actions and the observation expected after each one
(the reference engine's full projection), with the clauses the run exercises and the rule
edition. It is self-contained: every card of the start is defined in ``start.definitions`` with
its types, power, toughness, keywords and abilities, and every cast names its spell's effect, so
a replayer in another language needs nothing from ``model/cards.py``. An engine author replays it without running regen-model: set up ``start``, apply
each ``action``, and compare the fields their engine can report with ``expect`` (fields it
cannot report are simply not compared, as in ``observe.compare``).

``export`` writes one file per clause witness (``witness.py``: every clause of the catalog,
plus the contexts shielded/borrowed/again) and per scenario file, an ``index.json`` listing
the vectors per clause, the JSON Schema the files follow (``vector.schema.json``) and a short
README. Vectors whose runs are identical are written once.

``export`` never deletes or overwrites what it did not write: it writes into a new or empty
folder; a non-empty one is refused unless ``force`` is given *and* the folder holds an earlier
export (its ``index.json`` says so), whose files alone are then removed. No path it writes or
removes may be a symbolic link (``ExportRefused`` otherwise), so nothing outside the folder is
ever touched.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from regen_model.clauses import catalog
from regen_model.conform import jsonout
from regen_model.conform.adapter import package_version
from regen_model.conform.case import Case
from regen_model.conform.codec import Players, action_to_json
from regen_model.conform.observe import project
from regen_model.conform.sources import default_scenario_paths, scenario_cases, witness_cases
from regen_model.conform.witness import goal_clause
from regen_model.engine import EngineError, step
from regen_model.model.cards import card_list

VECTOR_FORMAT = "regen-model-vector"
INDEX_FORMAT = "regen-model-vector-index"
VECTOR_VERSION = 1
FIXED_FILES = ("index.json", "schema.json", "cards.json", "README.md")


class ExportRefused(Exception):
    """The folder cannot be written without losing or escaping something (exit code 2)."""


def schema() -> dict[str, Any]:
    text = resources.files("regen_model.conform").joinpath("vector.schema.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def vector(case: Case, vector_id: str, goal: str, description: str) -> dict[str, Any]:
    """The vector of one case: the reference's observation after each legal action."""
    players = Players(case.start.players)
    state = case.start.build()
    steps = []
    clauses: dict[str, None] = {}
    for action in case.actions:
        try:
            res = step(state, action)
        except EngineError:
            continue
        state = res.state
        for e in res.events:
            clauses.setdefault(e.clause, None)
        steps.append(
            {
                "action": action_to_json(action, players, full=True),
                "expect": project(state, res.events).to_json(),
            }
        )
    initial = project(case.start.build()).to_json()
    initial.pop("events", None)
    return {
        "format": VECTOR_FORMAT,
        "version": VECTOR_VERSION,
        "id": vector_id,
        "goal": goal,
        "description": description,
        "cr_edition": catalog().current_edition,
        "edition": case.start.edition.value,
        "clauses": list(clauses),
        "start": case.start.to_json(define_all=True),
        "initial": initial,
        "steps": steps,
    }


@dataclass(frozen=True)
class ExportResult:
    directory: str
    vectors: int
    clauses_covered: tuple[str, ...]
    missing: tuple[str, ...]  # catalog clauses no vector exercises

    def to_json(self) -> dict[str, Any]:
        return {
            "directory": self.directory,
            "vectors": self.vectors,
            "clauses_covered": len(self.clauses_covered),
            "clauses_in_catalog": len(self.clauses_covered) + len(self.missing),
            "missing": list(self.missing),
        }


def _describe_goal(goal: str) -> str:
    clause = goal_clause(goal)
    c = catalog().clauses.get(clause)
    title = f"{clause} ({', '.join(c.rules)}): {c.title}" if c else clause
    context = goal.partition("@")[2]
    extra = {
        "shielded": "; it happens to a permanent that has an unused regeneration shield",
        "countered": "; it happens to a permanent that has a shield counter",
        "borrowed": "; it happens to a permanent controlled by a player other than its owner",
        "unregenerable": "; it happens to a permanent that can't be regenerated this turn",
        "again": "; it happens a second time to the same permanent",
    }.get(context, "")
    return f"Witness of {title}{extra}."


def read_vectors(directory: Path) -> tuple[list[Case], list[tuple[str, str]]]:
    """The cases of the vectors in ``directory`` (its ``cases/*.json``, or the files of
    ``directory`` itself), and the files that could not be read, with why: one bad file is
    reported, not fatal. ``crosscheck --vectors DIR`` replays them."""
    from regen_model.conform.codec import action_from_node
    from regen_model.conform.jsonpos import FieldError, FormatError, read_file
    from regen_model.conform.start import Start

    folder = directory / "cases" if (directory / "cases").is_dir() else directory
    cases: list[Case] = []
    bad: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.json")):
        try:
            node = read_file(path)
            if node.get("format") is None or node.req("format").string() != VECTOR_FORMAT:
                raise node.error(f"not a vector (format must be {VECTOR_FORMAT!r})")
            start = Start.from_node(node.req("start"))
            players = Players(start.players)
            actions = tuple(
                action_from_node(step_node.req("action"), players)
                for step_node in node.req("steps").elements()
            )
            goal = node.get("goal")
            clauses = tuple(c.string() for c in node.req("clauses").elements())
            name = f"vector-{node.req('id').string()}"
            origin = f"vector:{path}" + (f" ({goal.string()})" if goal is not None else "")
            cases.append(Case(name, start, actions, origin, clauses))
        except FieldError as exc:
            bad.append((str(path), str(exc.located())))
        except FormatError as exc:
            bad.append((str(path), str(exc)))
    return cases, bad


def prepare_directory(directory: Path, force: bool = False) -> None:
    """Make ``directory`` ready for an export, or raise ``ExportRefused``.

    A missing folder is created and an empty one used as is. A non-empty one needs ``force``
    and must hold an earlier export; only the files that export lists are removed.
    """
    if directory.exists() and not directory.is_dir():
        raise ExportRefused(f"{directory} exists and is not a folder")
    if not directory.exists():
        directory.mkdir(parents=True)
        return
    if not any(directory.iterdir()):
        return
    if not force:
        raise ExportRefused(
            f"{directory} is not empty; give a new or empty folder, or --force to replace an "
            "earlier export there (only the files it wrote are removed)"
        )
    previous = _previous_files(directory)
    for rel in previous:
        path = _inside(directory, rel)
        if path.is_symlink():
            raise ExportRefused(f"{path} is a symbolic link: not removed, nothing written")
    for rel in previous:
        path = directory / rel
        if path.is_file():
            path.unlink()
    cases = directory / "cases"
    if cases.is_dir() and not cases.is_symlink() and not any(cases.iterdir()):
        cases.rmdir()


def _previous_files(directory: Path) -> list[str]:
    """The files an earlier export in ``directory`` wrote, from its ``index.json``."""
    index_path = directory / "index.json"
    try:
        if index_path.is_symlink():
            raise ValueError("a symbolic link")
        index = json.loads(index_path.read_text(encoding="utf-8"))
        if not isinstance(index, dict) or index.get("format") != INDEX_FORMAT:
            raise ValueError("not a vector index")
        files = [str(v["file"]) for v in index["vectors"]]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ExportRefused(
            f"{directory} is not empty and holds no earlier export of regen-model "
            f"(index.json: {exc}); nothing there is removed: give a new or empty folder"
        ) from None
    if not all(_SAFE_RELATIVE.fullmatch(f) for f in files):
        raise ExportRefused(f"{index_path} lists files outside cases/: nothing is removed")
    return [*files, *FIXED_FILES]


_SAFE_RELATIVE = re.compile(r"cases/[A-Za-z0-9][A-Za-z0-9._-]*\.json")
_UNSAFE_ID = re.compile(r"[^A-Za-z0-9._-]")


def _inside(directory: Path, rel: str) -> Path:
    """``directory / rel``, refused if it or a folder on the way is a symbolic link or if it
    already exists (then we did not write it: an earlier export's files are gone by now)."""
    path = directory / rel
    parent = path.parent
    while parent != directory:
        if parent.is_symlink():
            raise ExportRefused(f"{parent} is a symbolic link: nothing is written through it")
        parent = parent.parent
    if path.is_symlink():
        raise ExportRefused(f"{path} is a symbolic link: nothing is written through it")
    return path


def _write_new(directory: Path, rel: str, text: str) -> None:
    path = _inside(directory, rel)
    if path.exists():
        raise ExportRefused(f"{path} exists and was not written by an earlier export: not replaced")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def _unique(name: str, used: set[str]) -> str:
    """``name``, or ``name-2``, ``name-3``... if taken; the name is then taken."""
    found = name
    n = 1
    while found in used:
        n += 1
        found = f"{name}-{n}"
    used.add(found)
    return found


def export(
    directory: Path, seed: int = 0, include_scenarios: bool = True, force: bool = False
) -> ExportResult:
    """Write the vectors, the index, the schema and a README into ``directory`` (see the
    module's docstring for what is refused)."""
    prepare_directory(directory, force)
    entries: list[tuple[str, str, Case]] = []  # (goal, description, case)
    for case in witness_cases(seed):  # the disk cache's copy when there is one (cache.py)
        goal = case.origin.removeprefix("witness:")
        entries.append((goal, _describe_goal(goal), case))
    if include_scenarios:
        for case in scenario_cases(default_scenario_paths())[0]:
            entries.append((case.name, f"Scenario {case.origin.removeprefix('scenario:')}.", case))
    index_vectors: list[dict[str, Any]] = []
    per_clause: dict[str, list[str]] = {c: [] for c in catalog().clauses}
    seen: set[str] = set()
    ids: set[str] = set()
    for goal, description, case in entries:
        vector_id = goal.replace("@", "-at-") if "." in goal else goal
        vector_id = _unique(_UNSAFE_ID.sub("-", vector_id).lstrip(".-") or "vector", ids)
        data = vector(case, vector_id, goal, description)
        fingerprint = json.dumps([data["start"], data["steps"]], sort_keys=True)
        if fingerprint in seen or not data["steps"]:
            continue
        seen.add(fingerprint)
        rel = f"cases/{vector_id}.json"
        _write_new(directory, rel, jsonout.dumps(data))
        index_vectors.append(
            {
                "id": vector_id,
                "file": rel,
                "goal": goal,
                "edition": data["edition"],
                "steps": len(data["steps"]),
                "clauses": data["clauses"],
            }
        )
        for clause in data["clauses"]:
            per_clause.setdefault(clause, []).append(vector_id)
    missing = tuple(c for c in catalog().clauses if not per_clause.get(c))
    index = {
        "format": INDEX_FORMAT,
        "version": VECTOR_VERSION,
        "generated_by": f"regen-model {package_version()}",
        "cr_edition": catalog().current_edition,
        "witness_seed": seed,
        "schema": "schema.json",
        "cards": "cards.json",
        "clauses": per_clause,
        "missing": list(missing),
        "vectors": index_vectors,
    }
    _write_new(directory, "schema.json", jsonout.dumps(schema()))
    _write_new(directory, "cards.json", jsonout.dumps(card_list()))
    _write_new(directory, "README.md", _README)
    _write_new(directory, "index.json", jsonout.dumps(index))  # last: the export is complete
    covered = tuple(c for c in catalog().clauses if per_clause.get(c))
    return ExportResult(str(directory), len(index_vectors), covered, missing)


_README = """# regen-model conformance vectors

Each file in `cases/` is one game situation (`start`), the actions taken in it (`steps[].action`)
and what the specification says an engine must show after each action (`steps[].expect`).
`index.json` lists the vectors per rule clause; `schema.json` is the JSON Schema of a vector.
`cards.json` lists the built-in cards the vectors name: Oracle data (mana cost, type line, text,
power/toughness) and, per card, the `deviations`: parts of its Oracle text the specification
does not run (flying, hexproof, ...). A vector never depends on a deviated part; if your engine
runs the full card, a divergence on such a part is not one of the specification's.

To check an engine:

1. Build the start: players, rule edition (`edition`: pre-M10, M10 or FDN), step, and the
   permanents by handle with their card names and fields.
2. For each step, perform the action (`kind` and its fields; players are named, cards are named
   by handle; `choices` answer "which replacement effect applies" questions, rule 616.1).
3. Compare what your engine can report with `expect`: per card `zone`, `controller`, `tapped`,
   `damage`, `plus_counters`, `minus_counters`, `shield_counters`, `power`, `toughness`,
   `attacking`, `blocking`, `shields` (unused regeneration shields), `unregenerable`; per player
   `life`, `poison`; and the step's `events` (a multiset of tokens such as `regenerated:troll`).
   A field your engine cannot report is not compared; say so in your own mapping table.

The same cases can be run live with `regen-model crosscheck --engine ...` (see the
regen-model documentation, docs/crosscheck.md).
"""
