"""The cases of one crosscheck run, in the order they are compared, and the command that
replays them.

``regen-model crosscheck`` and the CI crosschecks of the real engines
(``tests/adapters/test_*_crosscheck.py``) draw their cases here, from the same options, so the
command a failing test prints (``CaseStream.command``) compares exactly the cases the test
compared: every source is a function of the options alone (the random batch of its seed,
``guided.guided_cases``; the witnesses and cover witnesses, cached on disk by source
fingerprint, ``cache.py``).
"""

from __future__ import annotations

import contextlib
import shlex
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from regen_model.conform.case import Case
from regen_model.conform.guided import DEFAULT_CANDIDATES

DEFAULT_RANDOM = 200  # ``crosscheck --random``
DEFAULT_MAX_STEPS = 20  # ``crosscheck --max-steps``


@dataclass(frozen=True)
class StreamOptions:
    """What a crosscheck compares; each field is one option of ``regen-model crosscheck``."""

    seed: int
    random_cases: int = DEFAULT_RANDOM
    scenarios: bool = True
    witnesses: bool = True
    cover: bool = True
    max_steps: int = DEFAULT_MAX_STEPS
    candidates: int = DEFAULT_CANDIDATES
    vectors: Path | None = None
    saved: tuple[Path, ...] = ()

    def command(self, engine: str, *extra: str) -> str:
        """The ``regen-model crosscheck`` command line that compares these cases with
        ``engine`` (options at their defaults left out), followed by ``extra``."""
        words = ["regen-model", "crosscheck", "--engine", engine, "--seed", str(self.seed)]
        if self.random_cases != DEFAULT_RANDOM:
            words += ["--random", str(self.random_cases)]
        for flag, on in (
            ("scenarios", self.scenarios),
            ("witnesses", self.witnesses),
            ("cover", self.cover),
        ):
            if not on:
                words.append(f"--no-{flag}")
        if self.max_steps != DEFAULT_MAX_STEPS:
            words += ["--max-steps", str(self.max_steps)]
        if self.candidates != DEFAULT_CANDIDATES:
            words += ["--candidates", str(self.candidates)]
        if self.vectors is not None:
            words += ["--vectors", str(self.vectors)]
        for path in self.saved:
            words += ["--case", str(path)]
        return shlex.join([*words, *extra])


@dataclass
class CaseStream:
    """The cases of a crosscheck, produced as they are consumed, cheapest first, so the first
    case is compared within seconds: vectors, saved cases, scenario files, clause witnesses
    (cached on disk), coverage-guided random cases, then the Z3 cover check's witnesses
    (cached on disk; found on the first run only). A bad input file is reported through
    ``warn`` and skipped; ``bad_inputs`` counts them, ``now`` names the source being read
    (for the progress line)."""

    options: StreamOptions
    warn: Callable[[str], None]
    lacks: frozenset[str] = frozenset()
    now: str = "starting"
    bad_inputs: int = field(default=0, init=False)

    def lacks_from(self, factory: Callable[[], object]) -> None:
        """The generator stays inside the features the engine declares (read once, here)."""
        from regen_model.conform.adapter import lacked_features

        with contextlib.suppress(Exception):  # an engine that fails to start fails in the run
            adapter = factory()
            self.lacks = lacked_features(adapter)
            close = getattr(adapter, "close", None)
            if close is not None:
                close()

    def _bad(self, text: str) -> None:
        self.bad_inputs += 1
        self.warn(text)

    def __iter__(self) -> Iterator[Case]:
        from regen_model.conform import sources
        from regen_model.conform.guided import guided_cases

        o = self.options
        if o.vectors is not None:
            from regen_model.conform.vectors import read_vectors

            self.now = "vectors"
            found, bad = read_vectors(o.vectors)
            for path, reason in bad:
                self._bad(f"error: vector not used: {path}: {reason}")
            if not found and not bad:
                self._bad(f"error: no vectors in {o.vectors}")
            yield from found
        if o.saved:
            self.now = "saved cases"
            found_cases, problems = sources.read_saved_cases(list(o.saved))
            for exc in problems:
                self._bad(f"error: case not used: {exc}")
            yield from found_cases
        if o.scenarios:
            self.now = "scenario files"
            for item in sources.iter_scenario_cases(sources.default_scenario_paths()):
                if isinstance(item, sources.Skipped):
                    self.warn(f"scenario not used: {item.path}: {item.reason}")
                else:
                    yield item
        corpus: list[Case] = []
        if o.witnesses:
            self.now = "clause witnesses"
            corpus = sources.witness_cases()
            yield from corpus
        if o.random_cases > 0:
            self.now = "random scenarios"
            yield from guided_cases(
                o.random_cases,
                o.seed,
                o.max_steps,
                corpus,
                lacks=self.lacks,
                candidates=o.candidates,
            )
        if o.cover:
            self.now = "cover witnesses"
            from regen_model.conform.cache import cached_cases

            yield from cached_cases("cover", self._cover_cases)

    def _cover_cases(self) -> list[Case]:
        """The Z3 cover check's witnesses as cases: for each clause branch of the relation,
        the shortest run found (guided by the explorer or a script, else by BMC) that fires
        it, already replayed on the reference engine (``checks.sections.cover_witnesses``:
        the same search and the same runs as ``verify``'s cover section)."""
        from regen_model.checks.sections import cover_witnesses
        from regen_model.conform import sources

        cases, skipped = sources.cover_cases(cover_witnesses())
        for clause, reason in skipped:
            self.warn(f"cover witness not used: {clause}: {reason}")
        return cases


__all__ = ["DEFAULT_MAX_STEPS", "DEFAULT_RANDOM", "CaseStream", "StreamOptions"]
