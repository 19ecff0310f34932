"""Which way each branch of the relation went, while it is evaluated on concrete values.

The relation branches in four ways, all in rule code of this package: ``SymWork.branch``
(both sides of a rule), ``SymWork.set_if`` (a conditional write), ``SymWork.require`` (a
guard: the action is refused when it is false) and ``ops.ite`` (an ``If`` term, also behind
``b2i``, ``count``, ``max_``/``min_`` and ``SymWork.bump``). On concrete values each call
sees a plain ``bool``; ``Probe.note`` records it against the *site*, the position of the call
in a rule module (line and column, from the caller's frame, skipping ``ops``/``work``), so a
site is one ``If`` of the relation whatever card slot or loop iteration reached it.
``regen_model.encoding.branches`` lists every site of the source and reports which outcomes
were never seen.

Rule code skips writes whose condition is literally false (``SymWork.skip``); with a probe
active, the first ``RUN_THROUGH`` skips at each place run through instead, so that the sites
behind them see their false side (running through costs time, not meaning: every write
there is a no-op).

The hooks call the probe for every condition, literal or not: on concrete values every
condition is a ``bool``; while the symbolic relation is built, ``paths.Paths`` (a probe for
terms) records where each branch goes as formulas, with the path conditions ``path`` and
the guards ``guard`` report (no-ops here), which is what ``driven.py`` asks the solver.

Recording is off unless a probe is active (``recording``): the hooks then cost one
``ContextVar`` look-up. A context variable rather than a parameter because ``ops.ite`` is a
plain function with no work at hand; like a tracer, it is set for the extent of one ``with``
block and never read by the rules themselves.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import CodeType, FrameType
from typing import Any, TypeVar

_HERE = Path(__file__).parent
# Frames of these files are the machinery, not a site: the site is their caller.
_MACHINERY = frozenset(str(_HERE / name) for name in ("ops.py", "work.py", "probe.py", "paths.py"))

Site = tuple[str, int, int]  # (module file name, line, column) of the call
TRUE, FALSE = 1, 2  # outcome bits
RUN_THROUGH = 16  # times a skippable false condition is run through at each place


@dataclass
class Probe:
    """Outcomes seen per site: bit ``TRUE`` and/or ``FALSE``. ``clauses``: the clause labels
    seen at ``set_if`` and ``require`` sites (a site may pass a computed label)."""

    hits: dict[Site, int] = field(default_factory=dict)
    clauses: dict[Site, set[str]] = field(default_factory=dict)
    _positions: dict[tuple[CodeType, int], Site] = field(default_factory=dict, repr=False)
    _skips: dict[tuple[CodeType, int], int] = field(default_factory=dict, repr=False)

    def note(self, cond: Any, clause: str | None = None) -> None:
        """Record outcome ``cond`` (a ``bool``: the relation is evaluated on concrete
        values while a ``Probe`` is active) at the calling site.

        ``caller_site`` written out in place: this runs for every condition of every
        evaluation the agreement check measures (millions per ``verify``), so the call it
        saves is a measurable share of the check."""
        frame: FrameType | None = sys._getframe(2)  # the hook's caller
        while frame is not None and frame.f_code.co_filename in _MACHINERY:
            frame = frame.f_back
        if frame is None:
            return
        key = (frame.f_code, frame.f_lasti)
        site = self._positions.get(key)
        if site is None:
            site = self._positions[key] = _site(*key)
        hits = self.hits
        seen = hits.get(site, 0)
        bit = TRUE if cond else FALSE
        if not seen & bit:
            hits[site] = seen | bit
        if clause is not None:
            labels = self.clauses.get(site)
            if labels is None:
                self.clauses[site] = {clause}
            elif clause not in labels:
                labels.add(clause)

    def guard(self, formula: Any) -> None:
        """A guard of the relation (only symbolic builds record them: ``paths.Paths``)."""

    def path(self, pc: Any) -> AbstractContextManager[None]:
        """Rule code runs under path condition ``pc`` (symbolic builds only)."""
        return nullcontext()

    def run_through(self) -> bool:
        """Whether a ``SymWork.skip`` of a false condition should run through this time:
        yes for the first ``RUN_THROUGH`` times at each place (the writes it would skip are
        no-ops, so only the cost differs)."""
        frame = sys._getframe(2)
        key = (frame.f_code, frame.f_lasti)
        seen = self._skips.get(key, 0)
        self._skips[key] = seen + 1
        return seen < RUN_THROUGH

    def merge(self, other: Probe) -> None:
        for site, bits in other.hits.items():
            self.hits[site] = self.hits.get(site, 0) | bits
        for site, labels in other.clauses.items():
            self.clauses.setdefault(site, set()).update(labels)

    def export(self) -> tuple[dict[Site, int], dict[Site, set[str]]]:
        """The recorded outcomes without the frame cache (to send between processes)."""
        return dict(self.hits), {k: set(v) for k, v in self.clauses.items()}

    @staticmethod
    def of(hits: dict[Site, int], clauses: dict[Site, set[str]]) -> Probe:
        return Probe(dict(hits), {k: set(v) for k, v in clauses.items()})


def caller_site(positions: dict[tuple[CodeType, int], Site]) -> Site | None:
    """The site of the rule code that called the hook calling this (the first frame outside
    the machinery), memoised in ``positions`` by code object and instruction."""
    frame = sys._getframe(3)
    while frame.f_code.co_filename in _MACHINERY:
        back = frame.f_back
        if back is None:
            return None
        frame = back
    code = frame.f_code
    key = (code, frame.f_lasti)
    site = positions.get(key)
    if site is None:
        site = positions[key] = _site(code, frame.f_lasti)
    return site


def _site(code: CodeType, lasti: int) -> Site:
    """The source position of the call being executed at instruction offset ``lasti``."""
    found = _sites_of(code).get(lasti)
    return found if found is not None else (Path(code.co_filename).name, code.co_firstlineno, 0)


@cache
def _sites_of(code: CodeType) -> dict[int, Site]:
    """Instruction offset -> source position, for every instruction of ``code``: one pass
    over its position table (a pure function of the code object, so memoised for the
    process; each search's probe would otherwise scan the table again at every new site)."""
    name = Path(code.co_filename).name
    return {
        2 * k: (name, line or code.co_firstlineno, col or 0)
        for k, (line, _end, col, _endcol) in enumerate(code.co_positions())
    }


ACTIVE: ContextVar[Probe | None] = ContextVar("relation_probe", default=None)

P = TypeVar("P", bound=Probe)


@contextmanager
def recording(probe: P) -> Iterator[P]:
    """Record the relation's branch outcomes into ``probe`` for the extent of the block."""
    token = ACTIVE.set(probe)
    try:
        yield probe
    finally:
        ACTIVE.reset(token)
