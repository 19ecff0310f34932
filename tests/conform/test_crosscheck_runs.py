"""How a crosscheck run treats real engines (issue 15): declared features, findings per root
cause, known divergences passed over, the disk cache, vectors replayed, bad inputs skipped,
reproducibility by seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.adapter import ReferenceAdapter, SpecStep
from regen_model.conform.case import Case, Outcome, run_case
from regen_model.conform.differential import crosscheck, root_signature
from regen_model.conform.features import case_features, outside, vocabulary
from regen_model.conform.guided import guided_cases
from regen_model.conform.known import FieldPattern, KnownDivergence, Matcher, classifier
from regen_model.conform.start import Start
from regen_model.model import actions as A
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules
from regen_model.model.state import GameState

from .helpers import card, shields

RUN = CliRunner()
_register_all()


def _no_tap() -> ReferenceAdapter:
    return ReferenceAdapter(Rules(frozenset({Mutant.REGEN_DOES_NOT_TAP})))


def test_features_are_read_off_the_run(troll_and_bear: Start) -> None:
    two = Start(("A", "B"), (card("troll", "Horned Troll", 0, shields=shields("a", "b")),))
    assert "several-shields" in case_features(Case("t", two, ()))
    case = Case("d", troll_and_bear, (A.Destroy(targets=("troll", "bear")),))
    assert {"destroy-several", "action:destroy", "card:Grizzly Bears"} <= case_features(case)
    assert outside(case, frozenset({"destroy-several"})) == "destroy-several"
    assert outside(case, frozenset()) is None
    assert set(case_features(case)) <= set(vocabulary())


def test_generated_cases_stay_inside_the_declared_features() -> None:
    lacks = frozenset({"several-shields", "marked-damage", "action:destroy", "custom-cards"})
    cases = list(guided_cases(40, 3, 20, (), lacks=lacks))
    assert len(cases) == 40
    assert all(outside(c, lacks) is None for c in cases)


class _Lacking(ReferenceAdapter):
    lacks = frozenset({"action:destroy"})


def test_cases_outside_the_features_are_excluded_not_skipped(troll_and_bear: Start) -> None:
    cases = [
        Case("d", troll_and_bear, (A.Destroy(targets=("bear",)),)),
        Case("p", troll_and_bear, ()),
    ]
    report = crosscheck(_Lacking, cases, shrink_findings=False)
    assert report.excluded == [("d", "action:destroy")]
    assert report.counts[Outcome.PASSED] == 1 and report.counts[Outcome.SKIPPED] == 0


def test_every_divergent_case_is_in_exactly_one_finding(
    witnesses: list[Case], tmp_path: Path
) -> None:
    report = crosscheck(_no_tap, witnesses[:80], out_dir=tmp_path, workers=1, shrink_seconds=60)
    rows = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    diverged = [r["case"] for r in rows if r.get("outcome") == "diverged"]
    grouped = [c for f in report.findings for c in f.cases]
    assert diverged and sorted(diverged) == sorted(grouped)
    assert sum(f.occurrences for f in report.findings) == len(diverged)
    # One bug, one root cause: every case of it shrinks to the same signature.
    assert len({f.signature for f in report.findings}) == len(report.findings)
    assert report.findings[0].occurrences > 1
    assert any("regen.apply.tap" in f.divergence.clauses for f in report.findings)


def test_a_known_divergence_does_not_end_the_case(troll_and_bear: Start) -> None:
    known = KnownDivergence(
        "T-1",
        "regeneration does not tap",
        "phase.rs bug",
        ("701.19a",),
        "none",
        "test",
        (
            Matcher(
                clauses=frozenset({"regen.apply.tap"}),
                fields=(_pattern("cards.*.tapped"),),
                events=("-tapped:*", "-regeneration-tap:*"),
            ),
        ),
    )
    actions = (A.Destroy(targets=("troll",)), A.Destroy(targets=("bear",)))
    case = Case("k", troll_and_bear, actions)
    plain = run_case(case, _no_tap())
    assert plain.outcome is Outcome.DIVERGED and plain.steps_run == 1
    result = run_case(case, _no_tap(), known=classifier([known]))
    assert result.outcome is Outcome.KNOWN and result.known == ((1, ("T-1",)),)
    assert result.steps_run == 2 and result.masked == 0  # compared past it (the reference resyncs)


def _pattern(path: str) -> FieldPattern:
    return FieldPattern(path)


def test_a_matcher_applies_only_with_the_fields_it_requires() -> None:
    """``requires``: a pass that only enters a step cites too few clauses to tell root causes
    apart, so a matcher can demand a differing field as the signature (PH-22 of phase.rs)."""
    from regen_model.conform.case import Divergence
    from regen_model.conform.known import classify
    from regen_model.conform.observe import FieldDiff, Observation

    matcher = Matcher(
        clauses=frozenset({"turn.steps"}),
        fields=(_pattern("cards.*.damage"), FieldPattern("game.priority", (("expected", None),))),
        requires=(FieldPattern("game.priority", (("expected", None),)),),
    )
    entry = KnownDivergence("T-2", "t", "phase.rs bug", (), "none", "test", (matcher,))
    damage = FieldDiff("cards.giant.damage", 0, 1)
    waits = FieldDiff("game.priority", None, "A")

    def divergence(*diffs: FieldDiff) -> Divergence:
        return Divergence(3, None, diffs, ("turn.steps",), Observation(), Observation())

    assert classify(divergence(damage, waits), [entry]).ids == ("T-2",)
    alone = classify(divergence(damage), [entry])
    assert alone.ids == () and alone.unexplained == ("cards.giant.damage: expected 0, observed 1",)


def test_a_matcher_applies_only_with_the_events_it_requires() -> None:
    """``requires`` with an event pattern: a combat damage division cites the same clauses with
    or without first strike, and phase.rs's PH-05 shows there only as regular damage dealt too
    early, so its division matcher requires an unexpected damage event."""
    from regen_model.conform.case import Divergence
    from regen_model.conform.known import _matcher, classify
    from regen_model.conform.observe import FieldDiff, Observation

    matcher = _matcher(
        {
            "clauses": ["combat.damage.dealt"],
            "requires": ["+damage:*"],
            "fields": ["cards.*.blocking"],
            "events": ["+damage:*"],
        },
        "T-4",
    )
    assert matcher.requires == () and matcher.requires_events == ("+damage:*",)
    entry = KnownDivergence("T-4", "t", "phase.rs bug", (), "none", "test", (matcher,))
    blocking = FieldDiff("cards.giant.blocking", True, False)
    early = FieldDiff("events", [], ["damage:basilisk:3"])
    missing = FieldDiff("events", ["damage:basilisk:3"], [])

    def divergence(*diffs: FieldDiff) -> Divergence:
        return Divergence(3, None, diffs, ("combat.damage.dealt",), Observation(), Observation())

    assert classify(divergence(blocking, early), [entry]).ids == ("T-4",)
    alone = classify(divergence(blocking), [entry])
    assert alone.ids == () and alone.unexplained == (
        "cards.giant.blocking: expected true, observed false",
    )
    assert not classify(divergence(blocking, missing), [entry]).known  # the sign counts


def test_a_graveyard_that_mirrors_the_zones_needs_no_matcher() -> None:
    """A card the engine left on the battlefield is missing from its graveyard: explained with
    the zone difference (``known.mirrors_zones``), crediting no entry; a graveyard that differs
    in its order, or in a spell card, is not (PH-30 of phase.rs)."""
    from regen_model.conform.case import Divergence
    from regen_model.conform.known import classify, mirrors_zones
    from regen_model.conform.observe import FieldDiff, Observation

    entry = KnownDivergence(
        "T-3",
        "t",
        "phase.rs bug",
        (),
        "none",
        "test",
        (Matcher(fields=(_pattern("cards.*.zone"),)),),
    )
    zone = FieldDiff("cards.giant.zone", "graveyard", "battlefield")
    yard = FieldDiff("players.B.graveyard", [["giant", "umbra"]], ["umbra"])
    order = FieldDiff("players.A.graveyard", ["umbra", "Murder"], ["Murder", "umbra"])
    spell = FieldDiff("players.B.graveyard", ["giant", "Terror"], [])

    def divergence(*diffs: FieldDiff) -> Divergence:
        return Divergence(3, None, diffs, ("stack.resolve",), Observation(), Observation())

    assert mirrors_zones(yard, (zone, yard))
    found = classify(divergence(zone, yard), [entry])
    assert found.known and found.ids == ("T-3",)
    assert not mirrors_zones(yard, (yard,))  # no zone differs: the graveyard is a finding
    assert not mirrors_zones(order, (zone, order))
    assert not classify(divergence(zone, spell), [entry]).known


class _Follower(ReferenceAdapter):
    """Records what the framework says each step did."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: list[tuple[str, ...]] = []

    def apply_step(self, action: A.Action, spec: SpecStep) -> None:
        self.seen.append(spec.did)
        self.apply(action)


def test_adapters_that_follow_the_steps_are_told_what_happened(troll_and_bear: Start) -> None:
    from regen_model.model.cards import SPELLS

    murder = SPELLS["Murder"]
    cast = A.CastSpell(
        player=0, name="Murder", effect=murder.effect, targets=(A.TargetChoice(card="bear"),)
    )
    follower = _Follower()
    actions = (cast, A.PassPriority(player=0), A.PassPriority(player=1))
    assert run_case(Case("s", troll_and_bear, actions), follower).outcome is Outcome.PASSED
    assert "cast:Murder" in follower.seen[0]
    assert "resolved:Murder" in follower.seen[2]


def test_random_batches_depend_on_the_seed_alone() -> None:
    first = list(guided_cases(15, 7, 20, ()))
    list(guided_cases(5, 8, 20, ()))
    assert list(guided_cases(15, 7, 20, ())) == first
    assert list(guided_cases(15, 6, 20, ())) != first


def test_witnesses_come_from_the_disk_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from regen_model.conform import cache

    monkeypatch.setenv("REGEN_MODEL_CACHE", str(tmp_path))
    calls: list[int] = []
    case = Case("w", Start(("A", "B"), (card("troll", "Horned Troll"),)), (), "witness:x")

    def compute() -> list[Case]:
        calls.append(1)
        return [case]

    assert cache.cached_cases("t", compute) == [case]
    assert cache.cached_cases("t", compute) == [case]
    assert calls == [1] and len(list(tmp_path.glob("*.json"))) == 1


def _want_entry(log: str) -> None:
    """One process asking the cache for entry "t" (a child of the test below)."""
    import time

    from regen_model.conform import cache

    case = Case("w", Start(("A", "B"), (card("troll", "Horned Troll"),)), (), "witness:x")

    def compute() -> list[Case]:
        with open(log, "a", encoding="utf-8") as out:
            out.write("computed\n")
        time.sleep(0.5)  # long enough for the other processes to ask meanwhile
        return [case]

    raise SystemExit(0 if cache.cached_cases("t", compute) == [case] else 1)


def test_processes_wanting_the_same_entry_compute_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A test run's workers (or two crosschecks) that want the same missing entry at once:
    one computes it, the others wait and read it."""
    import multiprocessing

    monkeypatch.setenv("REGEN_MODEL_CACHE", str(tmp_path / "cache"))
    log = tmp_path / "computed.log"
    context = multiprocessing.get_context("fork")
    children = [context.Process(target=_want_entry, args=(str(log),)) for _ in range(3)]
    for child in children:
        child.start()
    for child in children:
        child.join(60)
    assert [child.exitcode for child in children] == [0, 0, 0]
    assert log.read_text(encoding="utf-8").splitlines() == ["computed"]


def test_a_bad_case_file_is_reported_and_skipped(tmp_path: Path) -> None:
    bad = tmp_path / "bad.itf.json"
    bad.write_text("{not json", encoding="utf-8")
    good = (
        Path(__file__).resolve().parents[1]
        / "adapters"
        / "divergences"
        / "ph08-deathtouch-without-marked-damage.yaml"
    )
    args = ["crosscheck", "--engine", "reference", "--random", "0", "--no-scenarios"]
    args += ["--no-witnesses", "--no-cover", "--case", str(bad), "--case", str(good), "--json"]
    result = RUN.invoke(app, args)
    # The good case still ran and is reported; the exit says some named input was unusable.
    assert result.exit_code == 2, result.output
    assert "bad.itf.json" in result.stderr
    assert json.loads(result.stdout)["counts"]["passed"] == 1


def test_vectors_are_self_contained_and_replay(tmp_path: Path) -> None:
    from regen_model.conform.vectors import export, read_vectors

    export(tmp_path / "v", seed=0, include_scenarios=False)
    for path in sorted((tmp_path / "v" / "cases").glob("*.json"))[:40]:
        data = json.loads(path.read_text())
        defined = {d["name"] for d in data["start"].get("definitions", [])}
        assert {p["card"] for p in data["start"]["permanents"]} <= defined
    cases, bad = read_vectors(tmp_path / "v")
    assert not bad and len(cases) > 60
    args = ["crosscheck", "--engine", "reference:regen-does-not-tap", "--random", "0"]
    args += ["--no-scenarios", "--no-witnesses", "--no-cover", "--no-shrink"]
    args += ["--vectors", str(tmp_path / "v"), "--json"]
    result = RUN.invoke(app, args)
    assert result.exit_code == 6, result.output
    assert json.loads(result.stdout)["cases"] == len(cases)


def test_the_regeneration_tap_says_who_tapped(troll_and_bear: Start) -> None:
    from regen_model.conform.observe import project
    from regen_model.engine import step

    state: GameState = troll_and_bear.build()
    res = step(state, A.Destroy(targets=("troll",)))
    assert "regeneration-tap:troll:A" in (project(res.state, res.events).events or ())


def test_root_signature_names_clause_fields_and_events(troll_and_bear: Start) -> None:
    result = run_case(Case("x", troll_and_bear, (A.Destroy(targets=("troll",)),)), _no_tap())
    assert result.divergence is not None
    signature = root_signature(result.divergence)
    assert signature[0] == "destroy.effect" and "tapped" in signature
