"""The survivors of the mutation screen, each classified by hand, against the screen's results.

The screen (``benchmarks/mutation.py screen``) names every mutant no check of its own killed;
issue 10 asks that each be killed by a new check or shown equivalent, with the reason written
next to it in a checked-in list. The lists are ``benchmarks/mutation-survivors-<package>.yaml``
(one per package: ``engine``, ``encoding``), one entry per survivor:

* ``name``: mutmut's name of the mutant (``mutmut show NAME`` prints its diff);
* ``function``: the function it mutates;
* ``kind``: ``equivalent`` (the same behaviour in every state), ``text`` (only words a person
  reads change: narration, an event's extra fields, a refusal's wording), ``label`` (a clause
  label changed to something that is no clause), ``switch`` (a rule mutant's own switch turned
  off, which the mutant matrix meets), ``caught`` (a change a check the screen does not run
  already kills: the symbolic build's tests, the walk's branch coverage), ``gap`` (a rule
  change no check met);
* ``reason``: why, in a sentence;
* ``tree``: the commit (a screen's ``tree``) whose change under ``name`` the entry judged.
  mutmut numbers a function's mutants by their places in it, so once the function changes a
  name may give another change; ``triage`` takes an entry only while its name still gives
  the change it gave at ``tree`` (``mutation.renumbered_since``), else the survivor is open
  again ("entry of another change") until its entry is written anew for the change it gives;
* ``killed_by``: for ``label``, ``switch``, ``caught`` and ``gap``, the check that fails with the mutant
  applied (required for those kinds); for ``text``, the check that reads those words now, if
  one does. Words a person reads are output (``regen-model run``, its ``--json``, traces, error
  lines), so a ``text`` survivor no check reads is open, like an unlisted one.

A survivor no list names is judged by a machine instead where ``recheck`` applied it and a
fast check failed (its row in ``mutation-recheck.json`` names the check): the ``rechecked``
column, which needs no entry, since such a row says all a ``caught`` entry would.

``triage`` sets them against the screen's survivors: every survivor must be listed (or
rechecked), every
listed name must be one of the screen's (a stale entry is reported), and a mutant that
``recheck`` ran (``mutation-recheck.json``) and found alive while its entry says it is killed is
reported too; the table splits ``text`` into ``text killed`` and ``text alive``. Kept apart
from ``mutation.py`` so that a test can load a list without mutmut.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

KINDS = ("equivalent", "text", "label", "switch", "caught", "gap")
KILLED_KINDS = frozenset({"label", "switch", "caught", "gap"})
# The triage table's columns after "survived": the kinds, with text split by killed_by.
COLUMNS = (
    "equivalent",
    "text killed",
    "text alive",
    "label",
    "switch",
    "caught",
    "gap",
    "rechecked",
    "unlisted",
)
FORMAT = "regen-model/mutation-survivors"


class ListError(ValueError):
    """A classification list that cannot be read: the file, the entry and the field."""


@dataclass(frozen=True)
class Entry:
    name: str
    function: str
    kind: str
    reason: str
    killed_by: str
    source: str  # file:line, for messages
    tree: str = ""  # the commit whose change under ``name`` it judged (required in a list)

    @property
    def killed(self) -> bool:
        """A check fails with the mutant applied: every killed kind, and a text survivor whose
        words a check reads now."""
        return self.kind in KILLED_KINDS or (self.kind == "text" and bool(self.killed_by))

    @property
    def column(self) -> str:
        """Its column in the triage table."""
        if self.kind == "text":
            return "text killed" if self.killed else "text alive"
        return self.kind


def load_list(path: Path) -> list[Entry]:
    """The entries of one list, checked: a missing field, an unknown kind, a killed kind
    without ``killed_by``, one without ``tree`` or a name given twice is a ``ListError``
    naming the file and line."""
    yaml = YAML(typ="rt")
    try:
        document = yaml.load(path.read_text())
    except Exception as problem:  # ruamel's own errors carry the line already
        raise ListError(f"{path}: not YAML: {problem}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ListError(f"{path}:1: format: expected {FORMAT!r}")
    survivors = document.get("survivors")
    if not isinstance(survivors, list):
        raise ListError(f"{path}:1: survivors: expected a list")
    entries: list[Entry] = []
    seen: dict[str, str] = {}
    for k, raw in enumerate(survivors):
        line = raw.lc.line + 1 if hasattr(raw, "lc") else k + 1
        where = f"{path}:{line}"
        if not isinstance(raw, dict):
            raise ListError(f"{where}: survivors[{k}]: expected a mapping")
        for key in ("name", "function", "kind", "reason", "tree"):
            if not str(raw.get(key) or "").strip():
                raise ListError(f"{where}: {key}: missing")
        kind = str(raw["kind"])
        if kind not in KINDS:
            raise ListError(f"{where}: kind: {kind!r} is not one of {', '.join(KINDS)}")
        killed_by = str(raw.get("killed_by") or "").strip()
        if kind in KILLED_KINDS and not killed_by:
            raise ListError(f"{where}: killed_by: required for kind {kind}")
        name = str(raw["name"])
        if name in seen:
            raise ListError(f"{where}: name: {name} is listed already at {seen[name]}")
        seen[name] = where
        entries.append(
            Entry(
                name,
                str(raw["function"]),
                kind,
                " ".join(str(raw["reason"]).split()),
                killed_by,
                where,
                str(raw["tree"]).strip(),
            )
        )
    return entries


def load_lists(folder: Path) -> list[Entry]:
    """Every ``mutation-survivors-*.yaml`` list of ``folder``; a name may be in one only."""
    entries: list[Entry] = []
    where: dict[str, str] = {}
    for path in sorted(folder.glob("mutation-survivors-*.yaml")):
        for entry in load_list(path):
            if entry.name in where:
                raise ListError(
                    f"{entry.source}: name: {entry.name} is listed at {where[entry.name]}"
                )
            where[entry.name] = entry.source
            entries.append(entry)
    return entries


def package_of(name: str) -> str:
    return "engine" if name.startswith("regen_model.engine.") else "encoding"


@dataclass(frozen=True)
class Triage:
    """The screen's survivors set against the lists."""

    counts: dict[str, Counter[str]]  # package -> column (COLUMNS) -> survivors
    unlisted: list[str]  # survivors no list names and no recheck killed
    stale: list[str]  # listed names that are no survivor of the screen's results
    alive: list[str]  # listed as killed, yet a recheck found them alive
    text_alive: list[str]  # text survivors no check reads yet (no killed_by)
    # of ``unlisted``: survivors whose entry judged the change their name gave on the entry's
    # ``tree``, which is another change now
    moved: list[str] = field(default_factory=list)

    @property
    def open(self) -> int:
        """Survivors that are neither shown equivalent nor killed: unlisted ones, text ones no
        check reads, and those a recheck found alive."""
        return len(self.unlisted) + len(self.text_alive) + len(self.alive)

    def to_json(self) -> dict[str, Any]:
        return {
            "packages": {p: dict(c) for p, c in sorted(self.counts.items())},
            "unlisted": self.unlisted,
            "stale": self.stale,
            "alive_though_listed_killed": self.alive,
            "text_alive": self.text_alive,
            "entry_of_another_change": self.moved,
            "open": self.open,
        }


def triage(
    survivors: list[str],
    entries: list[Entry],
    recheck: list[dict[str, Any]],
    moved: frozenset[str] = frozenset(),
) -> Triage:
    """``moved``: listed names that give another change now than at their entry's ``tree``
    (``mutation.renumbered_since``): their entries say nothing about the change the screen
    ran, so those survivors count as unlisted (and are named in ``Triage.moved``)."""
    listed = {e.name: e for e in entries if e.name not in moved}
    every_listed = {e.name for e in entries}
    killed_by_recheck = {
        r["mutant"] for r in recheck if r.get("applied", True) and r.get("killed") and r.get("by")
    }
    counts: dict[str, Counter[str]] = {}
    unlisted = []
    text_alive = []
    moved_open: list[str] = []
    for name in survivors:
        tally = counts.setdefault(package_of(name), Counter())
        tally["survived"] += 1
        entry = listed.get(name)
        if entry is None and name in killed_by_recheck:
            # a fast check kills it, found by ``recheck`` (its row names the check): what a
            # hand-made "caught" entry would say, made by a machine
            tally["rechecked"] += 1
        elif entry is None:
            unlisted.append(name)
            tally["unlisted"] += 1
            if name in moved:
                moved_open.append(name)
        else:
            tally[entry.column] += 1
            if entry.column == "text alive":
                text_alive.append(name)
    alive_by_recheck = {
        r["mutant"] for r in recheck if r.get("applied", True) and not r.get("killed")
    }
    alive = sorted(e.name for e in listed.values() if e.killed and e.name in alive_by_recheck)
    stale = sorted(every_listed - set(survivors))
    return Triage(counts, unlisted, stale, alive, text_alive, moved_open)
