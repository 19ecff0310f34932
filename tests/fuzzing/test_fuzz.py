"""A sample of the fuzz suite, run in CI (``benchmarks/fuzz.py`` runs 10,000 per format).

Mutational: hypothesis draws the random choices of ``inputs.py`` (so a failure shrinks to a
small mutation) and ``oracle.judge`` runs the input through the command line; anything but
``ok`` (a crash, hang, traceback, wrong exit code, silent accept or unclear error) fails.
Property-based: any text is a scenario or a one-line error, a query or a ``QueryError``, a
trace or a ``FormatError``; a query drawn from the grammar always parses.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from regen_model.conform.itf import parse_trace
from regen_model.conform.jsonpos import FormatError
from regen_model.invariants.query import QueryError, parse
from regen_model.scenario.errors import ScenarioError
from regen_model.scenario.source import parse_source

from .inputs import GENERATORS, Format, random_query, trace_seeds
from .oracle import Result, judge, workspace


def sample(examples: int) -> settings:
    return settings(
        max_examples=examples,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )


EXAMPLES = {Format.SCENARIO: 30, Format.TRACE: 25, Format.QUERY: 40, Format.JSONL: 20}


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    trace_seeds()  # built once, outside any example's time
    with workspace() as path:
        yield path


def _check(fmt: Format, rng: random.Random, folder: Path) -> None:
    inp = GENERATORS[fmt](rng)
    outcome = judge(inp, folder)
    assert outcome.result is Result.OK, (inp.mutation, inp.must_reject, outcome, inp.data[:300])


@sample(EXAMPLES[Format.SCENARIO])
@given(rng=st.randoms(use_true_random=False))
def test_scenario_files(rng: random.Random, folder: Path) -> None:
    _check(Format.SCENARIO, rng, folder)


@sample(EXAMPLES[Format.TRACE])
@given(rng=st.randoms(use_true_random=False))
def test_traces(rng: random.Random, folder: Path) -> None:
    _check(Format.TRACE, rng, folder)


@sample(EXAMPLES[Format.QUERY])
@given(rng=st.randoms(use_true_random=False))
def test_queries(rng: random.Random, folder: Path) -> None:
    _check(Format.QUERY, rng, folder)


@sample(EXAMPLES[Format.JSONL])
@given(rng=st.randoms(use_true_random=False))
def test_engine_replies(rng: random.Random, folder: Path) -> None:
    _check(Format.JSONL, rng, folder)


@sample(150)
@given(text=st.text(max_size=300))
def test_any_text_is_a_scenario_or_one_error(text: str) -> None:
    try:
        parse_source(text, "x.yaml")
    except ScenarioError as err:
        assert "\n" not in str(err)


@sample(150)
@given(text=st.text(max_size=200))
def test_any_text_is_a_query_or_a_query_error(text: str) -> None:
    with contextlib.suppress(QueryError):
        parse(text)


@sample(100)
@given(rng=st.randoms(use_true_random=False))
def test_a_query_drawn_from_the_grammar_parses(rng: random.Random) -> None:
    parse(random_query(rng))


@sample(150)
@given(text=st.text(max_size=300))
def test_any_text_is_a_trace_or_a_format_error(text: str) -> None:
    with contextlib.suppress(FormatError):
        parse_trace(text)
