"""The ``find`` query language: text in, an invariant-language formula out.

A query describes a state (or a step) to reach; ``find`` searches for the shortest run that
ends in one. The grammar (``docs/queries.md`` has the full reference and examples):

    query    := ["step" ":"] formula
    formula  := ("exists" | "forall") NAME {"," NAME} ":" formula | implies
    implies  := or {("implies" | "=>") or}
    or       := and {"or" and}
    and      := not {"and" not}
    not      := "not" not | compare
    compare  := sum [("==" | "!=" | "<" | "<=" | ">" | ">=") sum]
    sum      := atom {("+" | "-") atom}
    atom     := INT | "true" | "false" | "(" formula ")" | "count" "(" NAME ":" formula ")"
              | reference

References: ``c.FIELD`` (a card field in the state reached, or in a step query the state
after the step), ``c.pre.FIELD`` and ``c.post.FIELD`` (step queries), ``OUTPUT[c]`` or
``c.out.OUTPUT`` (the step's outputs, ``encoding/outputs.py``), ``OUTPUT_total[c]`` or
``c.total.OUTPUT`` (the outputs summed over the run so far), ``c.shields`` and
``c.unused_shields`` (counts), game fields (``turn``, ``step``, ``priority``, ``sba_pending``
... also ``pre.turn``/``post.turn``), ``action == destroy`` (the step's action kind),
``priority_given`` and ``countered`` (the global step outputs). A bare word compared with an enum field is that enum's value
(``c.zone == battlefield``, ``step == cleanup``). Card variables not bound by a quantifier are
existential: ``step: regen_taps[c] > 0`` asks for some card ``c``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from regen_model.encoding.outputs import CARD_FIELDS as OUTPUT_FIELDS
from regen_model.invariants import expr as E
from regen_model.invariants import vocabulary as V
from regen_model.model.actions import ACTION_BY_KIND


class QueryError(ValueError):
    """A query that does not parse; ``column`` is 1-based."""

    def __init__(self, message: str, text: str, column: int) -> None:
        # Show at most 70 characters around the column, so that a long query stays readable.
        start = max(0, min(column - 1 - 35, len(text) - 70))
        shown = text[start : start + 70]
        left = "..." if start else ""
        right = "..." if start + 70 < len(text) else ""
        caret = " " * (len(left) + column - 1 - start) + "^"
        super().__init__(f"{message} (column {column})\n  {left}{shown}{right}\n  {caret}")
        self.column = column


@dataclass(frozen=True)
class Query:
    text: str
    formula: E.BoolExpr
    step: bool  # a step query (reads the pre-state, outputs or the action)
    uses_totals: bool


_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+)|(?P<name>[A-Za-z_][A-Za-z0-9_]*(?:-[A-Za-z][A-Za-z0-9_]*)*)"
    r"|(?P<str>\"[^\"]*\")|(?P<op>==|!=|<=|>=|=>|[<>+\-().,:\[\]]))"
)
_KEYWORDS = frozenset({"exists", "forall", "and", "or", "not", "implies", "true", "false", "count"})


@dataclass(frozen=True)
class _Tok:
    kind: str  # num, name, str, op, end
    text: str
    col: int


def _tokens(text: str) -> list[_Tok]:
    out = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if m is None or m.end() == pos:
            col = pos + len(text[pos:]) - len(text[pos:].lstrip()) + 1
            raise QueryError(f"unexpected character {text[col - 1]!r}", text, col)
        kind = m.lastgroup or "op"
        value = m.group(kind)
        out.append(_Tok(kind, value, m.start(kind) + 1))
        pos = m.end()
    out.append(_Tok("end", "", len(text) + 1))
    return out


# A parsed operand: an integer or boolean expression, with the enum its integer encodes, or
# an unresolved bare word waiting for a comparison to give it a meaning.
@dataclass(frozen=True)
class _Int:
    e: E.IntExpr
    enum: type[StrEnum] | None = None


@dataclass(frozen=True)
class _Bool:
    e: E.BoolExpr


@dataclass(frozen=True)
class _Word:
    text: str
    col: int


_Operand = _Int | _Bool | _Word
_ACTION = "action"


# Bounds on a query (``regen_model.limits`` for files): nesting (parentheses, quantifiers,
# ``not``, ``implies`` chains and sums each add a level, since each becomes one more level of
# the formula every later stage walks recursively) and the digits of a number.
MAX_QUERY_DEPTH = 64
MAX_QUERY_LENGTH = 10_000
MAX_NUMBER_DIGITS = 9


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.toks = _tokens(text)
        self.i = 0
        self.depth = 0
        self.scope: dict[str, V.Card] = {}
        self.free: dict[str, V.Card] = {}
        self.step = False
        self.totals = False

    # --- token helpers -----------------------------------------------------------------

    @property
    def tok(self) -> _Tok:
        return self.toks[self.i]

    def error(self, message: str, tok: _Tok | None = None) -> QueryError:
        return QueryError(message, self.text, (tok or self.tok).col)

    def accept(self, text: str) -> bool:
        if self.tok.text == text and self.tok.kind in ("op", "name"):
            self.i += 1
            return True
        return False

    def expect(self, text: str) -> None:
        if not self.accept(text):
            raise self.error(f"expected {text!r}, found {self.tok.text or 'the end'!r}")

    def name(self) -> _Tok:
        tok = self.tok
        if tok.kind != "name" or tok.text in _KEYWORDS:
            raise self.error(f"expected a name, found {tok.text or 'the end'!r}")
        self.i += 1
        return tok

    # --- grammar -------------------------------------------------------------------------

    def query(self) -> Query:
        if self.tok.text == "step" and self.toks[self.i + 1].text == ":":
            self.i += 2
            self.step = True
        body = self.boolean(self.formula())
        if self.tok.kind != "end":
            raise self.error(f"unexpected {self.tok.text!r}")
        for name in reversed(list(self.free)):
            body = E.CardQuant("any", self.free[name].var, body)
        return Query(self.text, body, self.step, self.totals)

    def deeper(self) -> None:
        """One more level of nesting; past ``MAX_QUERY_DEPTH`` the query is refused."""
        self.depth += 1
        if self.depth > MAX_QUERY_DEPTH:
            raise self.error(f"the query is nested more than {MAX_QUERY_DEPTH} levels deep")

    def formula(self) -> _Operand:
        self.deeper()
        try:
            return self._formula()
        finally:
            self.depth -= 1

    def _formula(self) -> _Operand:
        if self.tok.text in ("exists", "forall"):
            kind = "any" if self.tok.text == "exists" else "all"
            self.i += 1
            names = [self.name()]
            while self.accept(","):
                names.append(self.name())
            self.expect(":")
            saved = dict(self.scope)
            cards = []
            for n in names:
                if n.text in self.scope:
                    raise self.error(f"{n.text!r} is already bound", n)
                card = V.Card(E.CardVar(n.text))
                self.scope[n.text] = card
                cards.append(card)
            body = self.boolean(self.formula())
            self.scope = saved
            for card in reversed(cards):
                body = E.CardQuant(kind, card.var, body)  # type: ignore[arg-type]
            return _Bool(body)
        return self.implies()

    def implies(self) -> _Operand:
        left = self.or_()
        if self.tok.text in ("implies", "=>"):
            self.i += 1
            self.deeper()
            right = self.implies()
            self.depth -= 1
            return _Bool(E.implies(self.boolean(left), self.boolean(right)))
        return left

    def or_(self) -> _Operand:
        parts = [self.and_()]
        while self.accept("or"):
            parts.append(self.and_())
        return parts[0] if len(parts) == 1 else _Bool(E.or_(*[self.boolean(p) for p in parts]))

    def and_(self) -> _Operand:
        parts = [self.not_()]
        while self.accept("and"):
            parts.append(self.not_())
        return parts[0] if len(parts) == 1 else _Bool(E.and_(*[self.boolean(p) for p in parts]))

    def not_(self) -> _Operand:
        if self.accept("not"):
            self.deeper()
            inner = self.boolean(self.not_())
            self.depth -= 1
            return _Bool(E.not_(inner))
        return self.compare()

    def compare(self) -> _Operand:
        left = self.sum()
        op = self.tok.text
        if self.tok.kind == "op" and op in ("==", "!=", "<", "<=", ">", ">="):
            tok = self.tok
            self.i += 1
            right = self.sum()
            return self.comparison(left, op, right, tok)
        return left

    def sum(self) -> _Operand:
        left = self.atom()
        terms = 0
        while self.tok.text in ("+", "-") and self.tok.kind == "op":
            op = self.tok.text
            self.i += 1
            self.deeper()  # a sum nests to the left: a + b + c is (a + b) + c
            terms += 1
            a, b = self.integer(left), self.integer(self.atom())
            left = _Int(a + b if op == "+" else a - b)
        self.depth -= terms
        return left

    def atom(self) -> _Operand:
        tok = self.tok
        if tok.kind == "num":
            if len(tok.text.lstrip("0")) > MAX_NUMBER_DIGITS:
                raise self.error(f"the number is too large (at most {MAX_NUMBER_DIGITS} digits)")
            self.i += 1
            return _Int(E.IntConst(int(tok.text)))
        if tok.kind == "str":
            self.i += 1
            return _Word(tok.text[1:-1], tok.col)
        if self.accept("("):
            inner = self.formula()
            self.expect(")")
            return inner
        if self.accept("true"):
            return _Bool(E.BoolConst(True))
        if self.accept("false"):
            return _Bool(E.BoolConst(False))
        if self.accept("count"):
            self.expect("(")
            n = self.name()
            self.expect(":")
            saved = dict(self.scope)
            card = V.Card(E.CardVar(n.text))
            self.scope[n.text] = card
            body = self.boolean(self.formula())
            self.scope = saved
            self.expect(")")
            return _Int(E.CardCount(card.var, body))
        if tok.kind == "name":
            return self.reference()
        raise self.error(f"expected a value, found {tok.text or 'the end'!r}")

    # --- references ----------------------------------------------------------------------

    def card(self, tok: _Tok) -> V.Card:
        if tok.text in self.scope:
            return self.scope[tok.text]
        if tok.text not in self.free:
            self.free[tok.text] = V.Card(E.CardVar(tok.text))
        return self.free[tok.text]

    def reference(self) -> _Operand:
        first = self.name()
        text = first.text
        if self.accept("["):
            card = self.card(self.name())
            self.expect("]")
            return self.output(text, card, first)
        if text == _ACTION:
            self.step = True
            return _Word(_ACTION, first.col)
        if text == "priority_given":
            self.step = True
            return _Bool(E.priority_given())
        if text == "countered":
            self.step = True
            return _Int(E.countered())
        if text in ("pre", "post") and self.tok.text == ".":
            self.i += 1
            field = self.name()
            self.step = True
            return self.game_field(V.pre if text == "pre" else V.post, field)
        if self.tok.text == "." and (text in self.scope or text not in _GAME_NAMES):
            self.i += 1
            return self.card_path(self.card(first))
        if text in _GAME_NAMES:
            return self.game_field(V.Game("post"), first)
        return _Word(text, first.col)

    def card_path(self, card: V.Card) -> _Operand:
        tok = self.name()
        if tok.text in ("pre", "post"):
            self.step = True
            self.expect(".")
            return self.card_field(V.Card(card.var, tok.text), self.name())  # type: ignore[arg-type]
        if tok.text == "out":
            self.expect(".")
            return self.output(self.name().text, card, tok)
        if tok.text == "total":
            self.expect(".")
            field = self.name()
            return self.output(f"{field.text}_total", card, field)
        return self.card_field(card, tok)

    def card_field(self, card: V.Card, tok: _Tok) -> _Operand:
        name = tok.text
        if name == "shields":
            return _Int(V.count_shields(card, lambda s: s.present))
        if name == "unused_shields":
            return _Int(V.count_shields(card, lambda s: s.present & ~s.used))
        if name in V.CARD_INTS or name in V.STATIC_INTS:
            return _Int(card.int(name), V.enum_of(name))
        if name in V.CARD_BOOLS or name in V.STATIC_BOOLS:
            return _Bool(card.bool(name))
        known = sorted(
            {
                *V.CARD_INTS,
                *V.CARD_BOOLS,
                *V.STATIC_INTS,
                *V.STATIC_BOOLS,
                "shields",
                "unused_shields",
            }
        )
        raise self.error(f"a card has no field {name!r} (fields: {', '.join(known)})", tok)

    def game_field(self, game: V.Game, tok: _Tok) -> _Operand:
        if tok.text in V.GAME_INTS:
            return _Int(game.int(tok.text), V.enum_of(tok.text))
        if tok.text in V.GAME_BOOLS:
            return _Bool(game.bool(tok.text))
        raise self.error(f"the game has no field {tok.text!r}", tok)

    def output(self, name: str, card: V.Card, tok: _Tok) -> _Operand:
        if name.endswith("_total") and name[: -len("_total")] in OUTPUT_FIELDS:
            self.totals = True
            self.step = True
            return _Int(getattr(card.total, name[: -len("_total")]))
        if name in OUTPUT_FIELDS:
            self.step = True
            return _Int(getattr(card.out, name))
        raise self.error(
            f"no step output {name!r} (outputs: {', '.join(OUTPUT_FIELDS)}, or NAME_total)", tok
        )

    # --- typing --------------------------------------------------------------------------

    def boolean(self, x: _Operand) -> E.BoolExpr:
        if isinstance(x, _Bool):
            return x.e
        if isinstance(x, _Word):
            raise QueryError(f"{x.text!r} is not a condition", self.text, x.col)
        raise self.error("expected a condition, found a number")

    def integer(self, x: _Operand) -> E.IntExpr:
        if isinstance(x, _Int):
            return x.e
        if isinstance(x, _Word):
            raise QueryError(f"unknown name {x.text!r}", self.text, x.col)
        raise self.error("expected a number, found a condition")

    def comparison(self, left: _Operand, op: str, right: _Operand, tok: _Tok) -> _Operand:
        if (isinstance(left, _Word) and left.text == _ACTION) or (
            isinstance(right, _Word) and right.text == _ACTION
        ):
            other = right if isinstance(left, _Word) and left.text == _ACTION else left
            if op not in ("==", "!=") or not isinstance(other, _Word):
                raise QueryError(
                    "compare the action with == or != and an action kind", self.text, tok.col
                )
            if other.text not in ACTION_BY_KIND:
                raise QueryError(
                    f"unknown action kind {other.text!r} (kinds: {', '.join(ACTION_BY_KIND)})",
                    self.text,
                    other.col,
                )
            hit = E.action_is(other.text)
            return _Bool(hit if op == "==" else E.not_(hit))
        if isinstance(left, _Bool) and isinstance(right, _Bool) and op in ("==", "!="):
            return _Bool(left.e == right.e if op == "==" else left.e != right.e)
        a = self.resolve(left, right)
        b = self.resolve(right, left)
        ops: dict[str, Callable[[E.IntExpr, E.IntExpr], E.BoolExpr]] = {
            "==": lambda x, y: x == y,
            "!=": lambda x, y: x != y,
            "<": lambda x, y: x < y,
            "<=": lambda x, y: x <= y,
            ">": lambda x, y: x > y,
            ">=": lambda x, y: x >= y,
        }
        return _Bool(ops[op](a, b))

    def resolve(self, x: _Operand, other: _Operand) -> E.IntExpr:
        """An operand as an integer; a bare word is a value of the other side's enum."""
        if isinstance(x, _Word):
            enum = other.enum if isinstance(other, _Int) else None
            if enum is None:
                raise QueryError(f"unknown name {x.text!r}", self.text, x.col)
            for member in enum:
                if member.value == x.text or member.name.lower() == x.text.lower():
                    return E.IntConst(list(enum).index(member))
            raise QueryError(
                f"{x.text!r} is not a {enum.__name__} (values: {', '.join(m.value for m in enum)})",
                self.text,
                x.col,
            )
        return self.integer(x)


_GAME_NAMES = frozenset({*V.GAME_INTS, *V.GAME_BOOLS})


def parse(text: str) -> Query:
    """Parse a query (raises ``QueryError`` with the column of the problem)."""
    if not text.strip():
        raise QueryError("empty query", text, 1)
    if len(text) > MAX_QUERY_LENGTH:
        raise QueryError(f"the query is longer than {MAX_QUERY_LENGTH} characters", text[:60], 1)
    return _Parser(text).query()


@dataclass(frozen=True)
class Example:
    name: str
    query: str
    says: str
    depth: int = 6


EXAMPLES: tuple[Example, ...] = (
    Example(
        "survives-two-destructions",
        "exists c: c.creature and c.on_battlefield and c.destructions >= 2",
        "a creature survives two destructions (lethal damage or destroy effects) in one turn",
    ),
    Example(
        "survives-two-lethal-damage-events",
        "step: c.pre.creature and regenerations[c] + static_regens[c] > 0 and damage[c] > 0"
        " and damage[c] >= c.pre.toughness and c.post.on_battlefield"
        " and regenerations_total[c] + static_regens_total[c] >= 2"
        " and damage_total[c] - damage[c] >= c.pre.toughness",
        "a creature survives two lethal-damage events in one turn: it regenerates in a step "
        "that dealt it lethal damage, after lethal damage and a regeneration earlier in the run",
    ),
    Example(
        "tapped-by-regeneration-without-shield",
        "step: regen_taps[c] > 0 and c.shields_made == 0",
        "a permanent becomes tapped by regeneration without a shield having been made for it "
        "this turn (static regeneration does that)",
    ),
    Example(
        "shield-left-after-regeneration",
        "exists c: c.by_shield >= 1 and c.unused_shields >= 1",
        "a permanent regenerated by one shield still has an unused one (one destruction uses one "
        "shield)",
    ),
    Example(
        "unregenerable-creature-keeps-a-shield",
        "step: c.pre.cant_regen and shields_made[c] > 0 and c.post.on_battlefield",
        "a shield is made for a permanent that can't be regenerated this turn (making it is "
        "allowed; it just does not apply)",
    ),
    Example(
        "shield-survives-cleanup",
        "step: action == cleanup and c.post.shields > 0 and c.post.on_battlefield",
        "a shield survives cleanup (it never does: no trace)",
        4,
    ),
    Example(
        "regenerated-in-combat-damage",
        "step: regenerations[c] > 0 and c.pre.in_combat",
        "a creature in combat is regenerated (and so removed from combat)",
        8,
    ),
)


def example(name: str) -> Example:
    for ex in EXAMPLES:
        if ex.name == name:
            return ex
    raise KeyError(f"no example query {name!r} (examples: {', '.join(e.name for e in EXAMPLES)})")
