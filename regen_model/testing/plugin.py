"""The pytest plugin of regen-model (entry point ``pytest11``): engine conformance as tests.

It is inert unless asked: without ``--regen-engine`` (or the ini option ``regen_engine``) it
adds nothing to a test run and imports nothing beyond this module, so installing regen-model
changes no one's test suite, ours included. With ``--regen-engine NAME`` (an engine name as
for ``crosscheck --engine``: an installed ``regen_model.engines`` entry point,
``python:MODULE:FACTORY``, ``jsonl:COMMAND``, ``reference:MUTANT``) the session gets one more
test, ``regen-model conformance[NAME]``: Hypothesis scenarios run on the engine and on the
specification, a divergence shrunk to a minimal scenario printed as YAML
(``engines.py``). ``--regen-examples N`` sets how many scenarios (default 200).

The ``regen_engine`` fixture gives a test the adapter named by ``--regen-engine`` (skipping
the test when none is), for engine authors who write their own properties with the
strategies of ``regen_model.testing``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from regen_model.conform.adapter import EngineAdapter


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("regen-model", "engine conformance (regen_model.testing)")
    group.addoption(
        "--regen-engine",
        default=None,
        metavar="NAME",
        help="check this engine against the specification (an engine name as for "
        "'regen-model crosscheck --engine')",
    )
    group.addoption(
        "--regen-examples",
        type=int,
        default=None,
        metavar="N",
        help="random scenarios for --regen-engine (default 200)",
    )
    parser.addini("regen_engine", "engine checked as with --regen-engine", default="")


def _engine(config: pytest.Config) -> str | None:
    value = config.getoption("--regen-engine") or config.getini("regen_engine")
    return str(value) if value else None


def pytest_collection_modifyitems(
    session: pytest.Session, config: pytest.Config, items: list[pytest.Item]
) -> None:
    engine = _engine(config)
    if engine is None:
        return
    examples = config.getoption("--regen-examples") or 200
    items.append(
        ConformanceItem.from_parent(
            session, name=f"conformance[{engine}]", engine=engine, examples=examples
        )
    )


class ConformanceItem(pytest.Item):
    """The conformance test of one engine, added by ``--regen-engine``."""

    def __init__(self, *, engine: str, examples: int, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.examples = examples

    def runtest(self) -> None:
        from regen_model.conform.adapter import UnknownEngine
        from regen_model.testing.engines import conformance

        try:
            test = conformance(self.engine, max_examples=self.examples)
        except UnknownEngine as exc:
            raise pytest.UsageError(f"--regen-engine: {exc}") from None
        test()

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> str:
        from regen_model.testing.engines import EngineDiverges

        if isinstance(excinfo.value, EngineDiverges):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[str, int | None, str]:
        return "regen-model", None, f"regen-model conformance of {self.engine}"


@pytest.fixture
def regen_engine(request: pytest.FixtureRequest) -> Iterator[EngineAdapter]:
    """The adapter of ``--regen-engine`` (the test is skipped when none is given)."""
    engine = _engine(request.config)
    if engine is None:
        pytest.skip("no engine: run pytest with --regen-engine NAME")
    from regen_model.conform.adapter import engine_factory

    make: Callable[[], EngineAdapter] = engine_factory(engine)
    adapter = make()
    try:
        yield adapter
    finally:
        adapter.close()
