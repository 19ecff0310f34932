"""Known divergences of a real engine, as data, and a classifier for crosscheck results.

A known-divergence file (``regen_model/adapters/phase/known_divergences.yaml`` for phase.rs,
``regen_model/adapters/python_mtg/known_divergences.yaml`` for python-mtg) lists every divergence
found so far, one entry per root cause: its ID, verdict, the rules that decide it, the pinned
minimal scenario, and one or more *matchers* that recognise it in a crosscheck result. The
engine's report (docs/phase-report.md, docs/python-mtg-report.md) is the prose version.

Matchers recognise a root cause by its signature at the step where it shows: which differing
fields and events it produces there and which clauses the reference cites at that step, never
by the exact case, so the list survives changes to the cards or the generator. A divergence is
*known* when every one of its differing fields and event tokens is explained by some entry
whose conditions hold. Requiring every difference to be explained, rather than any, keeps a
known divergence from hiding a new one that happens in the same step. With a list given to
``crosscheck --known FILE``, a case goes on past a known divergence (``case.run_case``: the
engine is resynchronised to the specification's state where the adapter can, or the rest of the
case is reported as masked), so one known bug does not hide the later ones.

Matcher keys (all optional, all must hold):

| key | meaning |
|---|---|
| ``action`` | the action kinds at the divergent step (``pass``, ``cast``, ...) |
| ``clauses`` | clause IDs that must all be among the reference's clauses at that step |
| ``fields`` | patterns for the differing fields this entry explains: ``cards.*.zone``, or ``{path, expected, observed}`` with values that must match too |
| ``events`` | patterns for the event tokens it explains: ``-regenerated:*`` (expected, missing) or ``+destroyed:*`` (unexpected) |
| ``rejected`` | a regular expression the engine's refusal must match (a divergence where the engine refused a legal action) |
| ``requires`` | field patterns (as in ``fields``) that must each match a differing field of the step, and event patterns (as in ``events``: ``+damage:*``) that must each match a differing event token: a signature of the root cause when the clauses cited there say too little (a pass that only enters a step, a combat damage division with or without first strike) |

A differing graveyard (``players.P.graveyard``) that only mirrors the zone differences of the
same step (a card the engine left on the battlefield or put into exile is missing from the
graveyard, one it destroyed is extra) needs no matcher of its own: it is explained when the two
graveyards agree once the cards with a differing ``zone`` are taken out of both
(``mirrors_zones``), since those zone differences must be explained anyway. A graveyard that
differs in anything else (the order, a spell card) must be matched like any other field.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ruamel.yaml import YAML

from regen_model.conform.case import Divergence, KnownClassifier
from regen_model.conform.observe import FieldDiff, Groups, graveyards_agree, make_groups

VERDICTS = ("phase.rs bug", "python-mtg bug", "gap in our spec", "modelling difference")
_MATCHER_KEYS = frozenset({"action", "clauses", "fields", "events", "rejected", "requires"})
_ENTRY_KEYS = frozenset(
    {"id", "title", "verdict", "rules", "scenario", "explanation", "match", "clauses"}
)


class KnownListError(ValueError):
    """``known_divergences.yaml`` is malformed (the message names the entry and the key)."""


@dataclass(frozen=True)
class FieldPattern:
    """A differing field an entry explains: a path pattern, and optionally the values.

    ``values`` holds only the sides the entry names (``expected``, ``observed`` or both), so
    ``{path: game.priority, observed: null}`` means "nobody holds priority in phase.rs,
    whoever should".
    """

    path: str  # fnmatch pattern over FieldDiff.path
    values: tuple[tuple[str, object], ...] = ()

    def covers(self, path: str, expected: object, observed: object) -> bool:
        if not fnmatch.fnmatchcase(path, self.path):
            return False
        actual = {"expected": expected, "observed": observed}
        return all(_same(want, actual[side]) for side, want in self.values)


@dataclass(frozen=True)
class Matcher:
    actions: frozenset[str] = frozenset()
    clauses: frozenset[str] = frozenset()
    fields: tuple[FieldPattern, ...] = ()
    events: tuple[str, ...] = ()  # "-kind:glob" (missing) or "+kind:glob" (unexpected)
    rejected: re.Pattern[str] | None = None
    requires: tuple[FieldPattern, ...] = ()
    requires_events: tuple[str, ...] = ()  # "-kind:glob" / "+kind:glob", each must match

    def applies(self, d: Divergence) -> bool:
        """The step-level conditions: action kind, clauses, the required differing fields
        and events, and the refusal if any."""
        if self.actions and _action_kind(d) not in self.actions:
            return False
        if not self.clauses <= set(d.clauses):
            return False
        for pattern in self.requires:
            if not any(pattern.covers(x.path, x.expected, x.observed) for x in d.diffs):
                return False
        tokens = _event_items(d)
        for wanted in self.requires_events:
            if not any(_event_covers(wanted, sign, token) for sign, token in tokens):
                return False
        if d.rejected:
            return self.rejected is not None and bool(self.rejected.search(d.rejected))
        return self.rejected is None

    def covers_field(self, path: str, expected: object, observed: object) -> bool:
        return any(p.covers(path, expected, observed) for p in self.fields)

    def covers_event(self, sign: str, token: str) -> bool:
        return any(_event_covers(pattern, sign, token) for pattern in self.events)


def _event_covers(pattern: str, sign: str, token: str) -> bool:
    """``pattern`` (``-kind:glob`` or ``+kind:glob``) matches a missing (``-``) or unexpected
    (``+``) event ``token``."""
    return pattern[0] == sign and fnmatch.fnmatchcase(token, pattern[1:])


def _tokens(diff: FieldDiff) -> list[tuple[str, str]]:
    """The tokens of an ``events`` difference: ``("-", token)`` expected and missing,
    ``("+", token)`` unexpected."""
    return [("-", str(t)) for t in diff.expected] + [("+", str(t)) for t in diff.observed]


def _event_items(d: Divergence) -> list[tuple[str, str]]:
    """Every differing event token of ``d`` (``_tokens``)."""
    return [item for diff in d.diffs if diff.path == "events" for item in _tokens(diff)]


@dataclass(frozen=True)
class KnownDivergence:
    id: str
    title: str
    verdict: str
    rules: tuple[str, ...]
    scenario: str  # path of the pinned minimal scenario, relative to the repository root
    explanation: str
    matchers: tuple[Matcher, ...]
    clauses: tuple[str, ...] = ()


@dataclass(frozen=True)
class Classification:
    """Which known entries explain a divergence, and what no entry explains."""

    ids: tuple[str, ...]
    unexplained: tuple[str, ...]

    @property
    def known(self) -> bool:
        return not self.unexplained and bool(self.ids)


def load_known(path: Path) -> tuple[KnownDivergence, ...]:
    """Read and check the list (IDs unique, verdicts from ``VERDICTS``, matchers well formed)."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    if not isinstance(data, Mapping) or not isinstance(data.get("divergences"), list):
        raise KnownListError(f"{path}: expected a mapping with a 'divergences' list")
    out: list[KnownDivergence] = []
    seen: set[str] = set()
    for raw in data["divergences"]:
        entry = _entry(raw)
        if entry.id in seen:
            raise KnownListError(f"{path}: {entry.id} is listed twice")
        seen.add(entry.id)
        out.append(entry)
    return tuple(out)


def known_version(path: Path, key: str = "engine_version") -> str:
    """The version of the engine the list was made with (the top-level ``key``)."""
    data = YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    return str(data.get(key, ""))


def classifier(known: Sequence[KnownDivergence]) -> KnownClassifier:
    """For ``run_case``: the IDs explaining a divergence entirely, or ``None`` (unknown)."""

    def explain(d: Divergence) -> tuple[str, ...] | None:
        found = classify(d, known)
        return found.ids if found.known else None

    return explain


def classify(d: Divergence, known: Sequence[KnownDivergence]) -> Classification:
    """Explain each differing field and event token of ``d`` by some applicable entry."""
    applicable = [(k, m) for k in known for m in k.matchers if m.applies(d)]
    ids: list[str] = []

    def credit(entry: KnownDivergence) -> None:
        if entry.id not in ids:
            ids.append(entry.id)

    unexplained: list[str] = []
    if d.rejected:
        if applicable:
            credit(applicable[0][0])
        else:
            unexplained.append(f"rejected: {d.rejected}")
    for diff in d.diffs:
        if diff.path == "events":
            for sign, token in _tokens(diff):
                entry = next((k for k, m in applicable if m.covers_event(sign, token)), None)
                if entry is None:
                    unexplained.append(f"event {sign}{token}")
                else:
                    credit(entry)
            continue
        if mirrors_zones(diff, d.diffs):
            continue  # explained with the zone differences it follows from, by no entry
        entry = next(
            (k for k, m in applicable if m.covers_field(diff.path, diff.expected, diff.observed)),
            None,
        )
        if entry is None:
            unexplained.append(diff.describe())
        else:
            credit(entry)
    return Classification(tuple(ids), tuple(unexplained))


def mirrors_zones(diff: FieldDiff, diffs: Sequence[FieldDiff]) -> bool:
    """Whether a graveyard difference follows from the step's zone differences alone: the two
    graveyards agree (``observe.graveyards_agree``) without the cards whose zone differs."""
    if not fnmatch.fnmatchcase(diff.path, "players.*.graveyard"):
        return False
    moved = {
        x.path.split(".")[1]
        for x in diffs
        if x.path.startswith("cards.") and x.path.endswith(".zone") and x.path.count(".") == 2
    }
    if not moved:
        return False
    return graveyards_agree(_without(diff.expected, moved), _without(diff.observed, moved))


def _without(value: Any, moved: set[str]) -> Groups:
    """A graveyard as ``observe.groups_to_json`` writes it, without the entries ``moved``."""
    if not isinstance(value, list):
        return ()
    groups = [[x] if isinstance(x, str) else list(x) for x in value]
    return make_groups([str(e) for e in g if e not in moved] for g in groups)


# --- reading -------------------------------------------------------------------------------------


def _entry(raw: Any) -> KnownDivergence:
    if not isinstance(raw, Mapping) or not isinstance(raw.get("id"), str):
        raise KnownListError(f"an entry without an id: {raw!r}")
    ident = raw["id"]
    unknown = set(raw) - _ENTRY_KEYS
    if unknown:
        raise KnownListError(f"{ident}: unknown keys {sorted(unknown)}")
    for key in ("title", "verdict", "scenario", "explanation"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise KnownListError(f"{ident}: {key!r} must be a non-empty string")
    if raw["verdict"] not in VERDICTS:
        raise KnownListError(f"{ident}: verdict must be one of {VERDICTS}")
    matchers = raw.get("match")
    if not isinstance(matchers, list) or not matchers:
        raise KnownListError(f"{ident}: 'match' must be a non-empty list of matchers")
    return KnownDivergence(
        id=ident,
        title=raw["title"],
        verdict=raw["verdict"],
        rules=tuple(str(r) for r in _strings(raw.get("rules"), ident, "rules")),
        scenario=raw["scenario"],
        explanation=" ".join(raw["explanation"].split()),
        matchers=tuple(_matcher(m, ident) for m in matchers),
        clauses=tuple(_strings(raw.get("clauses", []), ident, "clauses")),
    )


def _matcher(raw: Any, ident: str) -> Matcher:
    if not isinstance(raw, Mapping) or not raw:
        raise KnownListError(f"{ident}: a matcher must be a non-empty mapping")
    unknown = set(raw) - _MATCHER_KEYS
    if unknown:
        raise KnownListError(f"{ident}: unknown matcher keys {sorted(unknown)}")
    fields = _field_patterns(raw.get("fields", []), ident)
    required = raw.get("requires", [])
    if not isinstance(required, list):
        raise KnownListError(f"{ident}: 'requires' is a list: {required!r}")
    # an event pattern starts with - or +, which no field path does
    required_events = tuple(r for r in required if isinstance(r, str) and r[:1] in ("-", "+"))
    requires = _field_patterns([r for r in required if r not in required_events], ident)
    events = tuple(_strings(raw.get("events", []), ident, "events"))
    for e in events:
        if e[:1] not in ("-", "+"):
            raise KnownListError(f"{ident}: an event pattern starts with - or +: {e!r}")
    rejected = raw.get("rejected")
    if not fields and not events and rejected is None:
        raise KnownListError(f"{ident}: a matcher must explain fields, events or a refusal")
    return Matcher(
        actions=frozenset(_strings(raw.get("action", []), ident, "action")),
        clauses=frozenset(_strings(raw.get("clauses", []), ident, "clauses")),
        fields=tuple(fields),
        events=events,
        rejected=None if rejected is None else re.compile(str(rejected)),
        requires=requires,
        requires_events=required_events,
    )


def _field_patterns(raw: Any, ident: str) -> tuple[FieldPattern, ...]:
    if not isinstance(raw, list):
        raise KnownListError(f"{ident}: field patterns are a list: {raw!r}")
    out: list[FieldPattern] = []
    for f in raw:
        if isinstance(f, str):
            out.append(FieldPattern(f))
        elif isinstance(f, Mapping) and isinstance(f.get("path"), str):
            extra = set(f) - {"path", "expected", "observed"}
            if extra:
                raise KnownListError(f"{ident}: unknown field-pattern keys {sorted(extra)}")
            values = tuple((side, f[side]) for side in ("expected", "observed") if side in f)
            out.append(FieldPattern(f["path"], values))
        else:
            raise KnownListError(f"{ident}: a field pattern is a string or {{path, ...}}: {f!r}")
    return tuple(out)


def _strings(value: Any, ident: str, key: str) -> Iterable[str]:
    if isinstance(value, str):
        return [value]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise KnownListError(f"{ident}: {key!r} must be a string or a list of strings")
    return value


def _action_kind(d: Divergence) -> str:
    return str(d.action.get("kind", "?")) if isinstance(d.action, dict) else "start"


def _same(pattern: object, value: object) -> bool:
    if isinstance(pattern, list) and isinstance(value, list | tuple):
        return sorted(map(str, pattern)) == sorted(map(str, value))
    return pattern == value
