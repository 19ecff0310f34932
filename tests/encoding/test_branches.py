"""Branch coverage of both views during the agreement check (``encoding/branches.py``).

The seeded preset (what ``verify`` runs) agrees and exercises every branch of the engine and
of the relation that ``unreachable.yaml`` does not list, and none that it does; the list
names only branches that exist. The measurement itself: a probe sees both outcomes of a
relation site, coverage.py the engine's arcs, code only a rule mutant runs is not counted,
and a walk that misses a branch makes its module's row VACUOUS.
"""

from __future__ import annotations

import os

import pytest

from regen_model.encoding.bounded import (
    AGREEMENT_FRAME_SCOPE,
    QUICK_AGREEMENT,
    SEEDED_AGREEMENT,
    AgreementReport,
    AgreementScope,
    bounded_agreement,
)
from regen_model.encoding.branches import (
    CoverageReport,
    coverage_rows,
    relation_sites,
    unreachable,
)
from regen_model.encoding.seeds import scripts
from regen_model.verdicts import Verdict

# the seeded walk (tens of seconds) is made once: every test here runs in one worker
pytestmark = pytest.mark.xdist_group("branches-seeded-walk")


@pytest.fixture(scope="module")
def seeded() -> AgreementReport:
    # benchmarks/mutation.py sets 1: mutmut sees only the calls made in its own process
    workers = int(os.environ.get("REGEN_AGREEMENT_WORKERS", "2"))
    return bounded_agreement(SEEDED_AGREEMENT, workers=workers, measure=True)


@pytest.fixture(scope="module")
def cov(seeded: AgreementReport) -> CoverageReport:
    assert seeded.coverage is not None
    return seeded.coverage


def test_the_seeded_preset_agrees(seeded: AgreementReport) -> None:
    assert seeded.verdict is Verdict.PROVED, [
        d.result.describe() for d in seeded.tally.disagreements[:3]
    ]


def test_every_reachable_branch_of_both_views_is_exercised(cov: CoverageReport) -> None:
    assert [b.describe() for b in cov.missed] == []
    for view in ("engine", "relation"):
        done, total = cov.totals(view)
        assert done == total > 100


def test_the_unreachable_list_is_true_and_current(cov: CoverageReport) -> None:
    assert [b.describe() for b in cov.contradicted] == []  # a reason that is wrong
    assert cov.stale == ()  # an entry naming no branch
    listed = [b for b in cov.branches if b.unreachable]
    assert len(listed) == len(unreachable())
    assert all(len(b.unreachable) > 40 for b in listed)  # each says why


def test_rows_are_proved_when_complete(cov: CoverageReport) -> None:
    rows = coverage_rows(cov)
    assert {r.verdict for r in rows} == {Verdict.PROVED}
    assert any(r.item == "engine branches: destruction.py" for r in rows)
    assert any(r.item == "relation branches: zones.py" for r in rows)


def test_a_walk_that_misses_branches_is_vacuous() -> None:
    """Effects on a few boards, no game actions: the turn's branches are never exercised in
    either view, and their modules' rows say so, naming them."""
    effects = tuple(r for r in QUICK_AGREEMENT.runs if r.name == "effects")
    report = bounded_agreement(
        AgreementScope(AGREEMENT_FRAME_SCOPE, effects), workers=1, measure=True
    )
    cov = report.coverage
    assert report.verdict is Verdict.PROVED and cov is not None and cov.missed
    rows = {r.item: r for r in coverage_rows(cov)}
    for item in ("relation branches: turn.py", "engine branches: turn.py"):
        assert rows[item].verdict is Verdict.VACUOUS and "never exercised" in rows[item].message


def test_relation_sites_skip_literals_scope_guards_and_mutant_code() -> None:
    sites = relation_sites()
    calls = {s.call for s in sites}
    assert calls == {"ite", "set_if", "require", "branch", "bump", "b2i", "count", "max_", "min_"}
    texts = [s.text for s in sites]
    assert not any('"scope:' in t or 'f"scope:' in t for t in texts)  # the frame's bound
    functions = {s.function for s in sites}
    # only rule mutants run these (keep_unused_shields: shields surviving a zone change)
    assert "keep_unused_shields" not in functions and "_drop_damage_triggers" not in functions
    assert "move_zone" in functions and "choose_and_apply" in functions


def test_every_script_says_why_it_exists() -> None:
    names = [s.name for s in scripts()]
    assert len(names) == len(set(names))
    assert all(len(s.why) > 30 for s in scripts())


def test_agree_reports_coverage_and_exits_vacuous_when_incomplete() -> None:
    """``regen-model agree`` on a search that misses branches: VACUOUS (exit 5) naming them;
    without the measurement the same search is PROVED; ``--json`` lists every branch."""
    import json

    from typer.testing import CliRunner

    from regen_model.cli import _register_all, app

    if not app.registered_commands:
        _register_all()
    runner = CliRunner()
    args = ["agree", "--preset", "quick", "-r", "effects", "-j", "1"]
    measured = runner.invoke(app, args)
    assert measured.exit_code == 5, measured.output
    assert "never exercised" in measured.output and "branches exercised" in measured.output
    assert runner.invoke(app, [*args, "--no-coverage"]).exit_code == 0
    doc = json.loads(runner.invoke(app, [*args, "--json"]).stdout)
    engine = doc["coverage"]["engine"]
    assert (
        engine["exercised"]
        < engine["reachable"]
        == len([b for b in engine["branches"] if "unreachable" not in b])
    )
