"""The encoding's scratch pad for one step: the counterpart of ``engine/work.py``.

A ``SymWork`` holds one value per frame variable (keyed by field name, e.g. ``c0.damage``),
and the rule functions of this package update it in the engine's order. Values are Z3 terms
or Python constants (``ops.py``), so the same run either builds the symbolic relation or
evaluates it.

Besides the values it records, for the transition relation:

* ``guards``: conditions under which the engine accepts the action, each with the clause that
  makes it a rule (``require``). When every value is concrete (``eager``), a false guard stops
  the run with ``GuardFailed`` naming that clause, as the engine raises ``EngineError``.
* ``writer``: for each variable, which clause wrote it last, as a value: an integer clause
  code (``clause_code``; 0 is ``frame``, "not written"), an ``If`` term when that depends on
  the path. It is built exactly like the variable's own value, so it costs as little. The
  relation states ``Implies(writer == code(c), post == value)`` for each clause ``c`` that
  may write it (``possible``), tracked under ``c``: an unsat core or a differing variable
  names the rule that produced the value.
* ``out``: the step outputs of ``outputs.py`` (per-card counters, ``priority_given``,
  ``countered``).
* ``prio_to``: a player who receives priority at the end of the step. The engine's
  ``give_priority`` (704.3 loop, then priority) is always the last call of a step, so the
  encoding runs that loop once after all branches have merged instead of once per branch.
* ``obligations``: conditions the relation relies on without assuming them (the state-based-
  action loop bound); ``relation.py`` turns them into checked queries.

``branch(c, then, otherwise)`` is the only way rule code branches on a value: for a concrete
``c`` it runs one side in place; for a symbolic one it runs both on copies and merges them
with ``If``. Path conditions make a guard inside a branch apply only on that branch.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from types import MappingProxyType
from typing import Any, NamedTuple

from regen_model.clauses import catalog
from regen_model.encoding import params as P
from regen_model.encoding.frame import CardStatics, CardVars, Frame, Statics
from regen_model.encoding.ops import Val, add, and_, implies, ite, not_, same, term_ite
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.probe import ACTIVE
from regen_model.encoding.scope import Scope
from regen_model.model.enums import Mutant
from regen_model.model.rules import Rules

FRAME = "frame"  # label of "this variable keeps its value"
SCOPE = "scope:"  # prefix of a guard that bounds the scope, not a rule (``scope:shields``)
# The bounds a rule function's guard may name: the arrays the scope bounds (``Scope``: shield
# slots, the stack, the waiting triggers). The system's own domain guards (``scope:params``,
# ``scope:frame``, ...) are made outside the rule functions and are not checked here.
SCOPE_BOUNDS = frozenset({f"{SCOPE}shields", f"{SCOPE}stack", f"{SCOPE}pending"})


class UnknownLabel(Exception):
    """Rule code labelled a write, a guard or an obligation with a string that is neither a
    clause ID of the catalog nor an internal label: a bug of the encoding (the conjunct would
    name no rule), raised wherever the relation is built or evaluated."""


def check_label(label: str) -> str:
    """``label`` itself if it may label a conjunct: a clause ID of the catalog
    (``spec/clauses.yaml``), ``frame`` or a bound of the scope (``SCOPE_BOUNDS``; the labels
    ``tests/encoding/test_relation_labels.py`` allows); else ``UnknownLabel``. It runs on
    every run of the rule functions, concrete ones too, so the agreement walk and the
    mutation screen catch a wrong label that only the symbolic build's test saw before."""
    if label in catalog() or label == FRAME or label in SCOPE_BOUNDS:
        return label
    raise UnknownLabel(f"{label!r} is no clause ID of spec/clauses.yaml and no internal label")


class GuardFailed(Exception):
    """A guard is false on concrete values: the action is not enabled (``label`` says why)."""

    def __init__(self, label: str) -> None:
        super().__init__(label)
        self.label = label


@dataclass(frozen=True)
class Layout:
    """Field names of a frame, the printed cards and the parameters of one scope."""

    scope: Scope
    frame: Frame
    statics: Statics
    params: P.Params
    keys: tuple[str, ...]  # frame variables in ``Frame.vars`` order
    static_keys: tuple[str, ...]
    param_keys: tuple[str, ...]


@cache
def layout(scope: Scope) -> Layout:
    statics = Statics.fresh(scope, "s", names=True)
    frame = Frame.fresh(statics, "f", names=True)
    pnames = P.names(scope)
    return Layout(
        scope,
        frame,
        statics,
        pnames,
        tuple(frame.vars()),
        tuple(statics.vars()),
        tuple(pnames.vars()),
    )


@dataclass(frozen=True)
class Context:
    """What stays fixed during one step: rules, scope, printed cards and parameters."""

    rules: Rules
    lay: Layout
    cards: tuple[CardStatics, ...]  # printed characteristics (values)
    p: P.Params  # action parameters (values)
    eager: bool  # every value is concrete: stop at the first false guard

    @property
    def scope(self) -> Scope:
        return self.lay.scope

    @property
    def n(self) -> int:
        return self.lay.scope.cards

    @staticmethod
    def make(
        rules: Rules,
        scope: Scope,
        statics: dict[str, Val],
        params: dict[str, Val],
        eager: bool,
    ) -> Context:
        lay = layout(scope)
        cards = Statics.fresh(scope, "s", lookup=statics.__getitem__).cards
        return Context(rules, lay, cards, P.from_values(scope, params), eager)

    def with_params(self, params: dict[str, Val]) -> Context:
        """The same context for other parameters (printed cards are reused)."""
        return Context(
            self.rules, self.lay, self.cards, P.from_values(self.scope, params), self.eager
        )


Label = Any  # str (a clause) | tuple[Val, str, str]: (cond, clause if cond, clause if not)


def _label_table() -> tuple[Mapping[str, int], tuple[str, ...], tuple[frozenset[int], ...]]:
    """Every label a write may carry, numbered once per process: ``frame`` 0, then the
    catalog's clause IDs and the scope's bounds, each sorted; with each code's singleton
    set (``possible``). The codes are constants inside the writer terms, so a fixed
    numbering makes a kind's relation the same term in every process whatever was built
    before it. Numbered on first use, as they once were, they followed the order in which
    rule code ran, and with them the models Z3 picks (a driven check met an untapped
    regeneration in one test order and none in another)."""
    names = tuple(dict.fromkeys((FRAME, *sorted(catalog().clauses), *sorted(SCOPE_BOUNDS))))
    codes = MappingProxyType({name: code for code, name in enumerate(names)})
    return codes, names, tuple(frozenset({code}) for code in range(len(names)))


_CODES, _NAMES, _SINGLE = _label_table()  # read only, never written after import


def clause_code(clause: str) -> int:
    """The integer standing for ``clause`` in writer terms (``_label_table``); a label that
    may name no conjunct raises ``UnknownLabel`` (the table holds every label
    ``check_label`` accepts)."""
    code = _CODES.get(clause)
    return code if code is not None else _CODES[check_label(clause)]


def clause_name(code: int) -> str:
    return _NAMES[code]


class Watcher(NamedTuple):
    """A permanent as a watcher of deaths (603.10a): on the battlefield and phased in, its
    controller, its incarnation (``triggers.watcher``)."""

    on_battlefield: Val
    controller: Val
    gen: Val


class SymWork:
    """Values of one frame being transformed by one action (see the module docstring)."""

    __slots__ = (
        "before",
        "ctx",
        "destroying",
        "dirty",
        "guards",
        "gy_open",
        "obligations",
        "out",
        "pc",
        "possible",
        "prio_to",
        "reflexive_at",
        "rtarget",
        "start",
        "together",
        "v",
        "writer",
    )

    def __init__(self, ctx: Context, values: dict[str, Val]) -> None:
        self.ctx = ctx
        self.v: dict[str, Val] = dict(values)
        self.writer: dict[str, Val] = {}  # clause codes (absent: 0, not written)
        self.possible: dict[str, frozenset[int]] = {}  # codes ``writer`` may take
        self.dirty: set[str] = set()  # variables written since this copy was forked
        self.pc: Val = True
        self.guards: list[tuple[str, Val]] = []
        self.obligations: list[tuple[str, Val]] = []
        self.out: dict[str, list[Val]] = {f: [0] * ctx.n for f in CARD_FIELDS}
        self.out["priority_given"] = [False]
        self.out["countered"] = [0]
        self.prio_to: Val = -1
        # the slot a pass names as the target of a trigger that chooses it as it goes on the
        # stack (``PassPriority.target``, 603.3d; ``engine.work.Work.reflexive_target``): set
        # by ``turn.pass_priority``, NONE (-1) for every other kind
        self.rtarget: Val = -1
        # the index in the waiting triggers of the reflexive trigger this step made, whose
        # target is chosen as it goes on the stack (603.3d; ``engine.work.Work.reflexive``),
        # NONE (-1) when it made none: set by ``effects.when_you_do``
        self.reflexive_at: Val = -1
        # Each card as a watcher (on the battlefield, controller, incarnation) as the
        # simultaneous event under way began, or None outside one (``engine.work.Work.before``;
        # set by ``triggers.simultaneous``)
        self.before: tuple[Watcher, ...] | None = None
        # The values as that event began, read-only (``event_start``), or None outside one;
        # and whether the event destroys each slot (``engine.work.Work.destroying``), as values
        self.start: SymWork | None = None
        self.destroying: tuple[Val, ...] = (False,) * ctx.n
        # Graveyard groups (``engine.work.Work.together``): inside one event that moves
        # several cards at once (``together``, fixed by where the rule code is, so the same on
        # every path), whether each player's top group is already this event's, as a value.
        self.together = False
        self.gy_open: list[Val] = [False] * ctx.scope.players

    # --- reading and writing ----------------------------------------------------------------

    def __getitem__(self, key: str) -> Val:
        return self.v[key]

    def set(self, key: str, value: Val, clause: Label) -> None:
        """``key := value``, written by ``clause`` (or by ``(cond, a, b)``: ``a`` if ``cond``
        else ``b``, when which rule writes depends on a value, e.g. lethal damage or
        deathtouch)."""
        self.v[key] = value
        if isinstance(clause, str):
            code = clause_code(clause)
            self.writer[key] = code
            self.possible[key] = _SINGLE[code]
        else:
            cond, a, b = clause
            ca, cb = clause_code(a), clause_code(b)
            self.writer[key] = ite(cond, ca, cb)
            self.possible[key] = _SINGLE[ca] | _SINGLE[cb]
        self.dirty.add(key)

    def set_if(self, cond: Val, key: str, value: Val, clause: str) -> None:
        """``key := value`` where ``cond`` holds: a branch without copying the work, for
        rules whose only effect is to write a few variables."""
        code = clause_code(clause)  # first, so a wrong label fails where the write is skipped
        probe = ACTIVE.get()
        if probe is not None:
            probe.note(cond, clause)
        if cond is True or cond is False:
            if cond:
                self.set(key, value, clause)
            return
        self.v[key] = ite(cond, value, self.v[key])
        self.writer[key] = ite(cond, code, self.writer.get(key, 0))
        self.possible[key] = self.possible.get(key, _SINGLE[0]) | _SINGLE[code]
        self.dirty.add(key)

    def set_all_if(self, cond: Val, items: Iterable[tuple[str, Val]], clause: str) -> None:
        """``set_if(cond, key, value, clause)`` for each ``(key, value)`` of ``items``: the
        same values, writers and records. A stack entry is written as a whole (hundreds of
        fields at four card slots, ``stack.write_slot``), and its fields mostly share their
        previous writer, so each distinct previous writer (and set of possible writers) is
        combined with this write once instead of once per field: writing stack entries was
        half of the time to build a relation (docs/proofs.md, 2026-12-07)."""
        if cond is True or cond is False or ACTIVE.get() is not None:
            for key, value in items:  # a probe records every write as it is made
                self.set_if(cond, key, value, clause)
            return
        code = clause_code(clause)
        writers: dict[object, Val] = {}
        possibles: dict[int, frozenset[int]] = {}
        for key, value in items:
            self.v[key] = ite(cond, value, self.v[key])
            prev = self.writer.get(key, 0)
            mark = prev if type(prev) is int else prev.as_ast().value
            made = writers.get(mark)
            if made is None:
                made = writers[mark] = ite(cond, code, prev)
            self.writer[key] = made
            was = self.possible.get(key, _SINGLE[0])
            union = possibles.get(id(was))
            if union is None:
                union = possibles[id(was)] = was | _SINGLE[code]
            self.possible[key] = union
            self.dirty.add(key)

    def add_if(self, cond: Val, key: str, by: Val, clause: str) -> None:
        """``key := key + by`` where ``cond`` holds, written as ``key + If(cond, by, 0)``
        (the same value as ``set_if(cond, key, key + by)``, and the same writer). A counter
        bumped under many conditions (the stack's and the waiting triggers' sizes) is then a
        sum of 0-or-``by`` terms, which the solver bounds without deciding each condition,
        rather than a chain of ``If``s it must split on to see that it only grows."""
        old = self.v[key]
        self.set_if(cond, key, add(old, by), clause)  # the writer, and the probe's record
        if cond is not True and cond is not False:  # a symbolic condition: the term itself
            self.v[key] = add(old, term_ite(cond, by, 0))

    def writer_of(self, key: str) -> str:
        """The clause that wrote ``key`` last (on concrete values)."""
        code = self.writer.get(key, 0)
        return clause_name(code) if type(code) is int else "?"

    def c(self, i: int) -> CardVars:
        """Field names of card slot ``i``."""
        return self.ctx.lay.frame.cards[i]

    @property
    def f(self) -> Frame:
        """Field names of the frame."""
        return self.ctx.lay.frame

    def st(self, i: int) -> CardStatics:
        """Printed characteristics of card slot ``i`` (values)."""
        return self.ctx.cards[i]

    @property
    def p(self) -> P.Params:
        return self.ctx.p

    @property
    def n(self) -> int:
        return self.ctx.n

    def mutant(self, m: Mutant) -> bool:
        return self.ctx.rules.has(m)

    def skip(self, cond: Val) -> bool:
        """Whether rule code may skip writes made only where ``cond`` holds: ``cond`` is
        literally false, so each of them would be a no-op. While the relation's branch
        coverage is recorded (``probe.py``), the first few times at each place run through
        anyway, so that those writes are seen taking their false side."""
        if cond is not False:
            return False
        probe = ACTIVE.get()
        return probe is None or not probe.run_through()

    def bump(self, field: str, slot: int, by: Val = 1, when: Val = True) -> None:
        self.out[field][slot] = add(self.out[field][slot], ite(when, by, 0))

    def snapshot(self) -> SymWork:
        """A copy of the values now, to read only (``event_start``)."""
        return self._fork(True)

    def event_start(self) -> SymWork:
        """``engine.work.Work.event_start``: the values as the simultaneous event under way
        began, or now outside one (and under the mutant ``destructions-in-sequence``), for the
        questions a destruction in that event asks (608.2f, 704.3)."""
        if self.start is None or self.mutant(Mutant.DESTRUCTIONS_IN_SEQUENCE):
            return self
        return self.start

    # --- graveyard groups (404.3) -------------------------------------------------------------

    def begin_together(self) -> None:
        """``engine.work.Work.begin_together``: the moves to a graveyard until
        ``end_together`` happen at the same time."""
        self.together = True
        self.gy_open = [False] * self.ctx.scope.players

    def end_together(self) -> None:
        self.together = False
        self.gy_open = [False] * self.ctx.scope.players

    # --- guards and obligations ------------------------------------------------------------

    def require(self, cond: Val, label: str) -> None:
        """The engine accepts the action only if ``cond`` (on this path)."""
        check_label(label)  # also where ``cond`` holds, so a wrong label fails on every run
        probe = ACTIVE.get()
        if probe is not None:
            probe.note(cond, label)
        if cond is True or cond is False:
            if cond:
                return
            if self.ctx.eager:
                raise GuardFailed(label)
        guard = implies(self.pc, cond)
        self.guards.append((label, guard))
        if probe is not None:
            probe.guard(guard)

    def oblige(self, cond: Val, label: str) -> None:
        check_label(label)
        if cond is not True:
            self.obligations.append((label, implies(self.pc, cond)))

    # --- branching ---------------------------------------------------------------------------

    def branch(
        self,
        cond: Val,
        then: Callable[[SymWork], None],
        otherwise: Callable[[SymWork], None] | None = None,
    ) -> None:
        probe = ACTIVE.get()
        if probe is not None:
            probe.note(cond)
        if cond is True or cond is False:
            if cond:
                then(self)
            elif otherwise is not None:
                otherwise(self)
            return
        a = self._fork(cond)
        if probe is None:
            then(a)
        else:
            with probe.path(a.pc):
                then(a)
        b = self._fork(not_(cond))
        if otherwise is not None:
            if probe is None:
                otherwise(b)
            else:
                with probe.path(b.pc):
                    otherwise(b)
        self._join(cond, a, b)

    def _fork(self, cond: Val) -> SymWork:
        w = SymWork.__new__(SymWork)
        w.ctx = self.ctx
        w.v = dict(self.v)
        w.writer = dict(self.writer)
        w.possible = dict(self.possible)
        w.dirty = set()
        w.pc = and_(self.pc, cond)
        w.guards = []
        w.obligations = []
        w.out = {k: list(v) for k, v in self.out.items()}
        w.prio_to = self.prio_to
        w.rtarget = self.rtarget
        w.reflexive_at = self.reflexive_at
        w.before = self.before
        w.start = self.start
        w.destroying = self.destroying
        w.together = self.together
        w.gy_open = list(self.gy_open)
        return w

    def _join(self, cond: Val, a: SymWork, b: SymWork) -> None:
        written = a.dirty | b.dirty
        self.dirty |= written
        for key in written:
            va, vb = a.v[key], b.v[key]
            self.v[key] = va if same(va, vb) else ite(cond, va, vb)
            wa, wb = a.writer.get(key, 0), b.writer.get(key, 0)
            self.writer[key] = wa if same(wa, wb) else ite(cond, wa, wb)
            pa, pb = a.possible.get(key, _SINGLE[0]), b.possible.get(key, _SINGLE[0])
            self.possible[key] = pa if pa is pb else pa | pb
        self.guards += a.guards + b.guards
        self.obligations += a.obligations + b.obligations
        for k, la in a.out.items():
            lb = b.out[k]
            self.out[k] = [
                x if same(x, y) else ite(cond, x, y) for x, y in zip(la, lb, strict=True)
            ]
        self.prio_to = ite(cond, a.prio_to, b.prio_to)
        self.rtarget = a.rtarget if same(a.rtarget, b.rtarget) else ite(cond, a.rtarget, b.rtarget)
        ra, rb = a.reflexive_at, b.reflexive_at
        self.reflexive_at = ra if same(ra, rb) else ite(cond, ra, rb)
        self.gy_open = [
            x if same(x, y) else ite(cond, x, y) for x, y in zip(a.gy_open, b.gy_open, strict=True)
        ]
