"""Action parameters: one record that can describe every action of ``model/actions.py``.

The transition relation has one disjunct per action kind, but a single parameter record, so
that a symbolic step is "some kind, with some parameters" and a solver's choice of action is
read off one set of constants. Each field is an ``Int`` or ``Bool`` (a Z3 constant in a symbolic
step, a Python value when a concrete action is evaluated). Fields a kind does not use keep a
canonical value (0, false or ``NONE``) in ``of_action``; the relation ignores them.

How each action maps here (``of_action``), and what cannot be represented (``OutOfScope``):

* cards are slots, players indices; an unknown handle or player index is out of scope (the
  engine raises ``UnknownName`` for it, a name error rather than a rule).
* lists whose order the rules ignore but whose repetition they forbid (attackers, destroy
  targets, a blocker order) are ``seq``: slots in order, ``NONE``-terminated, at most
  ``scope.cards`` long. Destroy order matters (an umbra-armor Aura destroyed first cannot
  save its creature later), so it is kept.
* damage shares are one amount per recipient (cards by slot, then players), dealt in that
  order; an action naming a recipient twice, or cards out of slot order, is out of scope (the
  order of simultaneous damage decides the order of its triggers).
* blocks are one attacker per blocker slot, and a second one (``blocks_also``) for a creature
  that can block an additional creature (509.1a); a damage division is an ordered list of
  (recipient, amount) per attacker, the defending player being recipient ``scope.cards``.
* 616.1 answers are one answer per (permanent, player): ``choice_use`` is a ``Use`` code,
  ``choice_mask`` the shield slots a shield answer names and ``choice_slot`` the Aura an
  umbra answer names. ``"shield:ORIGIN"`` becomes the mask of the shield slots with that
  origin, including slots the step's resolving spell or ability will fill (origins are not
  part of a frame).
* ``malformed``: the action contains an entry the engine rejects on its face (a target naming
  neither or both a card and a player, a blocker or division listed twice).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import IntEnum
from functools import cache
from typing import Any

import z3

from regen_model.encoding.frame import KEYWORDS, KW_INDEX, NONE
from regen_model.encoding.ops import Val
from regen_model.encoding.scope import OutOfScope, Scope
from regen_model.model import actions as A
from regen_model.model.effects import Effect, EffectKind, TargetRule
from regen_model.model.enums import CounterKind, Keyword, Rider, ordinal
from regen_model.model.state import GameState

ACTION_KINDS: tuple[str, ...] = tuple(cls.kind for cls in A.ALL_ACTIONS)


def kind_code(kind: str) -> int:
    return ACTION_KINDS.index(kind)


class Use(IntEnum):
    """What a 616.1 answer names (``ReplacementChoice.use``)."""

    NONE = 0  # no answer from this player for this permanent
    PLAIN_SHIELD = 1  # "shield": the first unused shield without a rider
    SHIELD_MASK = 2  # "shield#N" / "shield:ORIGIN": the first unused shield in the mask
    STATIC = 3  # "static"
    UMBRA = 4  # "umbra:HANDLE": that umbra-armor Aura
    SHIELD_COUNTER = 5  # "shield-counter"
    REMOVE_DAMAGE = 6  # "remove-damage": a Pyramids effect
    INVALID = 7  # anything else: never matches an option


@dataclass(frozen=True)
class Params:
    """One action's parameters; see the module docstring for each group."""

    kind: Val
    player: Val
    target: Val
    creator: Val  # NONE: the target's controller
    under: Val  # leave-and-return: NONE returns it under its owner's control, else this player
    rider: Val
    amount: Val
    counter: Val
    power: Val
    toughness: Val
    keyword: Val
    remove: Val
    until_eot: Val
    cant_regen: Val
    ability: Val
    # damage source slot, NONE for a source that is not a card; attach's attachment;
    # activate's creature sacrificed for "Sacrifice a creature" (NONE: none)
    source: Val
    dmg_keywords: tuple[Val, ...]
    dmg_controller: Val  # NONE: the source card's controller, else player 0
    combat: Val
    share: tuple[Val, ...]  # cards 0..n-1, then players
    share_amount: tuple[Val, ...]
    seq: tuple[Val, ...]
    blocks: tuple[Val, ...]
    blocks_also: tuple[Val, ...]
    div: tuple[Val, ...]
    div_to: tuple[tuple[Val, ...], ...]
    div_amount: tuple[tuple[Val, ...], ...]
    eff_kind: Val
    eff_amount: Val
    eff_power: Val
    eff_toughness: Val
    eff_keywords: tuple[Val, ...]
    eff_cant_regen: Val
    eff_cant_regen_target: Val
    eff_exile_if_dies: Val
    eff_rider: Val
    eff_counter: Val
    eff_until_eot: Val
    eff_untap: Val
    eff_under_you: Val
    eff_draw: Val  # a mill's "then draw N" (Thought Scour; ``Effect.draw``)
    sorcery: Val
    cast_rule: Val  # ordinal of the spell's ``TargetRule``
    n_targets: Val
    tgt_card: tuple[Val, ...]
    tgt_player: tuple[Val, ...]
    # a spell target's stack position (0 the bottom; NONE: a card or player target), for
    # "target spell" (Counterspell, ``TargetChoice.spell``)
    tgt_spell: tuple[Val, ...]
    choice_use: tuple[tuple[Val, ...], ...]  # [card][player]: a ``Use`` code
    choice_slot: tuple[tuple[Val, ...], ...]  # [card][player]: the Aura of ``Use.UMBRA``
    choice_mask: tuple[tuple[tuple[Val, ...], ...], ...]  # [card][player][shield slot]
    malformed: Val
    # pass: the answer "no" to a "may draw" or a "you may pay" the pass resolves
    # (``PassPriority.decline``); the pass's ``target`` (NONE or a slot) is the target of a
    # trigger that chooses it as it goes on the stack (``PassPriority.target``, 603.3d)
    decline: Val

    def kw(self, k: Keyword) -> Val:
        return self.dmg_keywords[KW_INDEX[k]]

    def vars(self) -> list[Val]:
        """Every parameter in a fixed order (flattened)."""
        out: list[Val] = []
        for f in fields(self):
            _flatten(getattr(self, f.name), out)
        return out


def _flatten(value: Any, out: list[Val]) -> None:
    if isinstance(value, tuple):
        for v in value:
            _flatten(v, out)
    else:
        out.append(value)


def _build(scope: Scope, mk_i: Any, mk_b: Any) -> Params:
    n, pl, t = scope.cards, scope.players, scope.targets
    return Params(
        kind=mk_i("kind"),
        player=mk_i("player"),
        target=mk_i("target"),
        creator=mk_i("creator"),
        under=mk_i("under"),
        rider=mk_i("rider"),
        amount=mk_i("amount"),
        counter=mk_i("counter"),
        power=mk_i("power"),
        toughness=mk_i("toughness"),
        keyword=mk_i("keyword"),
        remove=mk_b("remove"),
        until_eot=mk_b("until_eot"),
        cant_regen=mk_b("cant_regen"),
        ability=mk_i("ability"),
        source=mk_i("source"),
        dmg_keywords=tuple(mk_b(f"dmg_kw.{k.value}") for k in KEYWORDS),
        dmg_controller=mk_i("dmg_controller"),
        combat=mk_b("combat"),
        share=tuple(mk_b(f"share{r}") for r in range(n + pl)),
        share_amount=tuple(mk_i(f"share_amount{r}") for r in range(n + pl)),
        seq=tuple(mk_i(f"seq{k}") for k in range(n)),
        blocks=tuple(mk_i(f"blocks{b}") for b in range(n)),
        blocks_also=tuple(mk_i(f"blocks_also{b}") for b in range(n)),
        div=tuple(mk_b(f"div{a}") for a in range(n)),
        div_to=tuple(tuple(mk_i(f"div{a}.to{k}") for k in range(n + 1)) for a in range(n)),
        div_amount=tuple(tuple(mk_i(f"div{a}.amount{k}") for k in range(n + 1)) for a in range(n)),
        eff_kind=mk_i("eff_kind"),
        eff_amount=mk_i("eff_amount"),
        eff_power=mk_i("eff_power"),
        eff_toughness=mk_i("eff_toughness"),
        eff_keywords=tuple(mk_b(f"eff_kw.{k.value}") for k in KEYWORDS),
        eff_cant_regen=mk_b("eff_cant_regen"),
        eff_cant_regen_target=mk_b("eff_cant_regen_target"),
        eff_exile_if_dies=mk_b("eff_exile_if_dies"),
        eff_rider=mk_i("eff_rider"),
        eff_counter=mk_i("eff_counter"),
        eff_until_eot=mk_b("eff_until_eot"),
        eff_untap=mk_b("eff_untap"),
        eff_under_you=mk_b("eff_under_you"),
        eff_draw=mk_i("eff_draw"),
        sorcery=mk_b("sorcery"),
        cast_rule=mk_i("cast_rule"),
        n_targets=mk_i("n_targets"),
        tgt_card=tuple(mk_i(f"tgt{j}.card") for j in range(t)),
        tgt_player=tuple(mk_i(f"tgt{j}.player") for j in range(t)),
        tgt_spell=tuple(mk_i(f"tgt{j}.spell") for j in range(t)),
        choice_use=tuple(tuple(mk_i(f"choice{i}.{p}.use") for p in range(pl)) for i in range(n)),
        choice_slot=tuple(tuple(mk_i(f"choice{i}.{p}.slot") for p in range(pl)) for i in range(n)),
        choice_mask=tuple(
            tuple(
                tuple(mk_b(f"choice{i}.{p}.mask{j}") for j in range(scope.shields))
                for p in range(pl)
            )
            for i in range(n)
        ),
        malformed=mk_b("malformed"),
        decline=mk_b("decline"),
    )


def fresh(scope: Scope, tag: str) -> Params:
    """Symbolic parameters named ``{tag}.a.{field}``."""
    return _build(scope, lambda s: z3.Int(f"{tag}.a.{s}"), lambda s: z3.Bool(f"{tag}.a.{s}"))


def from_values(scope: Scope, values: dict[str, Val]) -> Params:
    """Parameters holding ``values`` (keyed as ``names(scope)``). Built for every checked
    action, so it maps the cached layout with C-level ``map`` instead of re-running
    ``_build``."""
    get = values.__getitem__

    def fill(keys: Any) -> Any:
        if isinstance(keys, str):
            return get(keys)
        if keys and isinstance(keys[0], str):
            return tuple(map(get, keys))
        return tuple(fill(k) for k in keys)

    return Params(*[fill(keys) for keys in _layout_fields(scope)])


@cache
def _layout_fields(scope: Scope) -> tuple[Any, ...]:
    layout = names(scope)
    return tuple(getattr(layout, f.name) for f in fields(Params))


def names(scope: Scope) -> Params:
    """The parameter layout with field names as values (keys of concrete parameters)."""
    return _build(scope, lambda s: s, lambda s: s)


@cache
def _canonical(scope: Scope) -> dict[str, int | bool]:
    """Every parameter at its canonical unused value (callers copy the cached dict)."""
    out: dict[str, int | bool] = {}
    layout = names(scope)
    proto = _build(scope, lambda s: 0, lambda s: False)
    for key, value in zip(layout.vars(), proto.vars(), strict=True):
        out[key] = value
    for key in layout.vars():
        if key in ("target", "creator", "under", "source", "dmg_controller") or key.startswith(
            ("seq", "blocks", "tgt")
        ):
            out[key] = NONE
        if key.startswith("div") and ".to" in key:
            out[key] = NONE
    return out


def domain(p: Params, scope: Scope) -> list[Val]:
    """The finite parameter domains of a bounded search: slots, players, amounts
    ``0..scope.max_amount`` (P/T changes ``-max..max``), enum ordinals, one shield per mask."""
    n, pl = scope.cards, scope.players
    m = scope.max_amount

    def rng(x: Val, lo: int, hi: int) -> Val:
        return z3.And(x >= lo, x <= hi)

    out: list[Val] = [
        rng(p.kind, 0, len(ACTION_KINDS) - 1),
        rng(p.player, 0, pl - 1),
        rng(p.target, NONE, n - 1),
        rng(p.creator, NONE, pl - 1),
        rng(p.under, NONE, pl - 1),
        rng(p.rider, 0, len(Rider) - 1),
        rng(p.amount, 0, m),
        rng(p.counter, 0, len(CounterKind) - 1),
        rng(p.power, -m, m),
        rng(p.toughness, -m, m),
        rng(p.keyword, 0, len(Keyword) - 1),
        rng(p.ability, 0, 1),
        rng(p.source, NONE, n - 1),
        rng(p.dmg_controller, NONE, pl - 1),
        rng(p.eff_kind, 0, len(EffectKind) - 1),
        rng(p.eff_amount, -m, m),
        rng(p.eff_power, -m, m),
        rng(p.eff_toughness, -m, m),
        rng(p.eff_rider, 0, len(Rider) - 1),
        rng(p.eff_counter, 0, len(CounterKind) - 1),
        rng(p.eff_draw, 0, m),
        rng(p.cast_rule, 0, len(TargetRule) - 1),
        rng(p.n_targets, 0, scope.targets),
        z3.Not(p.malformed),
    ]
    out += [rng(a, 0, m) for a in p.share_amount]
    for k, s in enumerate(p.seq):
        out.append(rng(s, NONE, n - 1))
        if k > 0:
            out.append(z3.Implies(p.seq[k - 1] == NONE, s == NONE))
    out += [rng(b, NONE, n - 1) for b in p.blocks]
    out += [rng(b, NONE, n - 1) for b in p.blocks_also]
    out += [
        z3.Implies(b2 != NONE, b != NONE) for b, b2 in zip(p.blocks, p.blocks_also, strict=True)
    ]
    for a in range(n):
        out += [rng(r, NONE, n) for r in p.div_to[a]]
        out += [rng(x, 0, m) for x in p.div_amount[a]]
    for j in range(scope.targets):
        out += [rng(p.tgt_card[j], NONE, n - 1), rng(p.tgt_player[j], NONE, pl - 1)]
        out.append(rng(p.tgt_spell[j], NONE, max(scope.stack - 1, NONE)))
    for i in range(n):
        for q in range(pl):
            use, slot, mask = p.choice_use[i][q], p.choice_slot[i][q], p.choice_mask[i][q]
            # a mask names one shield (``shield#N``), so a decoded answer means the same
            # (a sum rather than a pseudo-Boolean constraint: plain SMT-LIB, which other
            # solvers re-checking a certificate read too)
            one = z3.Sum(*[z3.If(b, 1, 0) for b in mask]) == 1 if mask else z3.BoolVal(False)
            out += [
                rng(use, 0, int(Use.REMOVE_DAMAGE)),
                z3.If(use == int(Use.SHIELD_MASK), one, z3.And(*[z3.Not(b) for b in mask])),
                z3.If(use == int(Use.UMBRA), rng(slot, 0, n - 1), slot == 0),
            ]
    return out


# --- concrete actions -> parameters -----------------------------------------------------------


class _Names:
    """Handle and player lookups that turn unknown names into ``OutOfScope``."""

    def __init__(self, state: GameState, scope: Scope) -> None:
        self.state = state
        self.scope = scope
        self.slots = {h: i for i, h in enumerate(state.setup.handles)}

    def slot(self, handle: str) -> int:
        if handle not in self.slots:
            raise OutOfScope(f"unknown card {handle!r}")
        return self.slots[handle]

    def player(self, index: int) -> int:
        if not 0 <= index < min(len(self.state.players), self.scope.players):
            raise OutOfScope(f"unknown player {index}")
        return index


def of_action(state: GameState, action: A.Action, scope: Scope) -> dict[str, int | bool]:
    """The parameters of a concrete ``action`` in ``state``, keyed as ``names(scope)``.

    Raises ``OutOfScope`` for an action the record cannot represent (module docstring)."""
    v = dict(_canonical(scope))
    nm = _Names(state, scope)
    v["kind"] = kind_code(action.kind)
    _fill(v, nm, state, action, scope)
    _choices(v, nm, state, action, scope)
    return v


def _seq(v: dict[str, int | bool], nm: _Names, handles: tuple[str, ...], n: int) -> None:
    if len(handles) > n:
        raise OutOfScope(f"a list of {len(handles)} cards does not fit a scope of {n}")
    for k, h in enumerate(handles):
        v[f"seq{k}"] = nm.slot(h)


def _fill(
    v: dict[str, int | bool], nm: _Names, state: GameState, a: A.Action, scope: Scope
) -> None:
    n = scope.cards
    if isinstance(a, A.CreateShield):
        v["target"] = nm.slot(a.target)
        v["rider"] = ordinal(a.rider)
        v["creator"] = NONE if a.creator is None else nm.player(a.creator)
    elif isinstance(a, A.DealDamage):
        _damage(v, nm, a, scope)
    elif isinstance(a, A.Destroy):
        _seq(v, nm, a.targets, n)
        v["cant_regen"] = a.cant_be_regenerated
    elif isinstance(a, A.Sacrifice | A.Exile | A.MakeUnregenerable):
        v["target"] = nm.slot(a.target)
    elif isinstance(a, A.LeaveAndReturn):
        v["target"] = nm.slot(a.target)
        v["under"] = NONE if a.controller is None else nm.player(a.controller)
    elif isinstance(a, A.ChangeControl):
        v["target"] = nm.slot(a.target)
        v["player"] = nm.player(a.player)
        v["until_eot"] = a.until_end_of_turn
    elif isinstance(a, A.ModifyPowerToughness):
        v["target"] = nm.slot(a.target)
        v["power"], v["toughness"] = a.power, a.toughness
    elif isinstance(a, A.AddCounters):
        v["target"] = nm.slot(a.target)
        v["counter"] = ordinal(a.counter)
        v["amount"] = a.amount
    elif isinstance(a, A.GrantKeyword):
        v["target"] = nm.slot(a.target)
        v["keyword"] = ordinal(a.keyword)
        v["remove"] = a.remove
    elif isinstance(a, A.ChangeType):
        v["target"] = nm.slot(a.target)
        v["remove"] = not a.creature
    elif isinstance(a, A.CheckStateBasedActions | A.Cleanup):
        pass
    elif isinstance(a, A.PassPriority):
        v["player"] = nm.player(a.player)
        v["decline"] = a.decline
        # the target of a trigger that chooses it as it goes on the stack (603.3d)
        v["target"] = NONE if a.target is None else nm.slot(a.target)
    elif isinstance(a, A.CastSpell):
        _cast(v, nm, a, scope)
    elif isinstance(a, A.ActivateAbility):
        v["player"] = nm.player(a.player)
        v["target"] = nm.slot(a.source)
        v["ability"] = a.ability
        if a.target is not None:  # equip's creature (702.6a)
            v["n_targets"] = 1
            v["tgt0.card"] = nm.slot(a.target)
        if a.sacrifice is not None:  # "Sacrifice a creature" (601.2h)
            v["source"] = nm.slot(a.sacrifice)
    elif isinstance(a, A.Attach):
        v["source"] = nm.slot(a.attachment)
        v["target"] = nm.slot(a.target)
    elif isinstance(a, A.DeclareAttackers):
        v["player"] = nm.player(a.player)
        _seq(v, nm, a.attackers, n)
    elif isinstance(a, A.DeclareBlockers):
        v["player"] = nm.player(a.player)
        for blocker, attacker in a.blocks:
            b, at = nm.slot(blocker), nm.slot(attacker)
            if v[f"blocks{b}"] == NONE:
                v[f"blocks{b}"] = at
            elif v[f"blocks_also{b}"] == NONE:
                v[f"blocks_also{b}"] = at  # its second attacker (509.1a)
            else:
                v["malformed"] = True
    elif isinstance(a, A.OrderBlockers):
        v["player"] = nm.player(a.player)
        v["target"] = nm.slot(a.attacker)
        _seq(v, nm, a.order, n)
    elif isinstance(a, A.AssignCombatDamage):
        v["player"] = nm.player(a.player)
        for d in a.divisions:
            at = nm.slot(d.attacker)
            if v[f"div{at}"]:
                v["malformed"] = True
                continue
            v[f"div{at}"] = True
            if len(d.shares) > n + 1:
                raise OutOfScope("a damage division with more entries than recipients")
            for k, (recipient, amount) in enumerate(d.shares):
                v[f"div{at}.to{k}"] = n if recipient == "player" else nm.slot(recipient)
                v[f"div{at}.amount{k}"] = amount
    else:  # pragma: no cover - ALL_ACTIONS is closed
        raise OutOfScope(f"unknown action {a.kind}")


def _damage(v: dict[str, int | bool], nm: _Names, a: A.DealDamage, scope: Scope) -> None:
    n = scope.cards
    v["source"] = nm.slots.get(a.source, NONE)
    for k in a.keywords:
        v[f"dmg_kw.{k.value}"] = True
    v["dmg_controller"] = NONE if a.controller is None else nm.player(a.controller)
    v["combat"] = a.combat
    v["cant_regen"] = a.cant_regen
    last_card = -1
    for share in a.shares:
        if (share.card is None) == (share.player is None):
            v["malformed"] = True
            continue
        if share.card is not None:
            r = nm.slot(share.card)
            if r <= last_card:
                raise OutOfScope("damage shares to cards must name each card once, in slot order")
            last_card = r
        else:
            assert share.player is not None
            r = n + nm.player(share.player)
            if v[f"share{r}"]:
                raise OutOfScope("a damage share names a player twice")
        v[f"share{r}"] = True
        v[f"share_amount{r}"] = share.amount


def _cast(v: dict[str, int | bool], nm: _Names, a: A.CastSpell, scope: Scope) -> None:
    v["player"] = nm.player(a.player)
    e: Effect = a.effect
    v["eff_kind"] = ordinal(e.kind)
    v["eff_amount"] = e.amount
    v["eff_power"], v["eff_toughness"] = e.power, e.toughness
    for k in e.keywords:
        v[f"eff_kw.{k.value}"] = True
    v["eff_cant_regen"] = e.cant_regen
    v["eff_cant_regen_target"] = e.cant_regen_target
    v["eff_exile_if_dies"] = e.exile_if_dies
    v["eff_rider"] = ordinal(e.rider)
    v["eff_counter"] = ordinal(e.counter)
    v["eff_until_eot"] = e.until_end_of_turn
    v["eff_untap"] = e.untap
    v["eff_under_you"] = e.under_you
    v["eff_draw"] = e.draw
    v["sorcery"] = a.sorcery
    v["cast_rule"] = ordinal(a.rule)
    if len(a.targets) > scope.targets:
        raise OutOfScope(f"{len(a.targets)} targets do not fit a scope of {scope.targets}")
    v["n_targets"] = len(a.targets)
    for j, t in enumerate(a.targets):
        if t.spell is not None:
            if not 0 <= t.spell < scope.stack:
                raise OutOfScope(
                    f"a stack position {t.spell} does not fit a stack of {scope.stack}"
                )
            v[f"tgt{j}.spell"] = t.spell
        elif t.player is not None:
            v[f"tgt{j}.player"] = nm.player(t.player)
        elif t.card is not None:
            v[f"tgt{j}.card"] = nm.slot(t.card)


def _choices(
    v: dict[str, int | bool], nm: _Names, state: GameState, a: A.Action, scope: Scope
) -> None:
    seen: set[tuple[int, int]] = set()
    for choice in a.choices:
        if choice.permanent not in nm.slots:
            continue  # the engine never looks at an answer about an unknown permanent
        i = nm.slots[choice.permanent]
        if not 0 <= choice.by < scope.players:
            continue  # nor at an answer by a player who does not exist
        if (i, choice.by) in seen:
            continue  # the engine uses the first answer of that player
        seen.add((i, choice.by))
        use, ref = _use(state, i, choice.use, nm, scope)
        v[f"choice{i}.{choice.by}.use"] = int(use)
        if use is Use.UMBRA:
            v[f"choice{i}.{choice.by}.slot"] = ref
        elif use is Use.SHIELD_MASK:
            for j in range(scope.shields):
                v[f"choice{i}.{choice.by}.mask{j}"] = bool(ref >> j & 1)


def _use(state: GameState, slot: int, use: str, nm: _Names, scope: Scope) -> tuple[Use, int]:
    if use == "shield":
        return Use.PLAIN_SHIELD, 0
    if use == "static":
        return Use.STATIC, 0
    if use == "shield-counter":
        return Use.SHIELD_COUNTER, 0
    if use == "remove-damage":
        return Use.REMOVE_DAMAGE, 0
    if use.startswith("shield#") and use[7:].isdigit():
        index = int(use[7:]) - 1
        if 0 <= index < scope.shields:
            return Use.SHIELD_MASK, 1 << index
        return Use.INVALID, 0
    if use.startswith("shield:"):
        origin = use[7:]
        shields = state.cards[slot].shields
        mask = sum(1 << j for j, s in enumerate(shields) if s.origin == origin)
        if _incoming_origin(state, slot) == origin:
            mask |= sum(1 << j for j in range(len(shields), scope.shields))
        return Use.SHIELD_MASK, mask
    if use.startswith("umbra:") and use[6:] in nm.slots:
        return Use.UMBRA, nm.slots[use[6:]]
    return Use.INVALID, 0


def _incoming_origin(state: GameState, slot: int) -> str | None:
    """The origin a shield made on ``slot`` in this step would have: the name of a resolving
    regeneration effect on top of the stack that targets it."""
    if not state.stack:
        return None
    top = state.stack[-1]
    if top.effect is None or top.effect.kind is not EffectKind.REGENERATE:
        return None
    if any(t.card == slot for t in top.targets):
        return top.name
    return None


# --- parameters -> a concrete action (decoding a solver's step) --------------------------------

_USE_TEXT = {
    Use.PLAIN_SHIELD: "shield",
    Use.STATIC: "static",
    Use.SHIELD_COUNTER: "shield-counter",
    Use.REMOVE_DAMAGE: "remove-damage",
    Use.INVALID: "?",
}


def to_action(v: dict[str, int | bool], kind: str, state: GameState, scope: Scope) -> A.Action:
    """The concrete action with parameters ``v`` (keyed as ``names(scope)``) in ``state``.

    The inverse of ``of_action`` up to what the record does not keep: shield origins (a
    created shield is named after its rider), the spell's name, a damage source that is not
    a card (``"effect"``); a shield mask answer becomes ``shield#N`` of its first slot."""
    handles = state.setup.handles
    n = scope.cards

    def h(slot: int | bool) -> str:
        if not 0 <= int(slot) < len(handles):
            raise ValueError(f"parameter names card slot {slot}, which this setup lacks")
        return handles[int(slot)]

    def seq() -> tuple[str, ...]:
        return tuple(h(v[f"seq{k}"]) for k in range(n) if v[f"seq{k}"] != NONE)

    common: dict[str, Any] = {"choices": _choices_of(v, state, scope)}
    player = int(v["player"])
    if kind == "create-shield":
        rider = list(Rider)[int(v["rider"])]
        creator = None if v["creator"] == NONE else int(v["creator"])
        return A.CreateShield(
            target=h(v["target"]),
            origin=f"{rider.value} shield",
            rider=rider,
            creator=creator,
            **common,
        )
    if kind == "deal-damage":
        shares = [
            A.DamageShare(int(v[f"share_amount{r}"]), card=h(r)) for r in range(n) if v[f"share{r}"]
        ]
        shares += [
            A.DamageShare(int(v[f"share_amount{r}"]), player=r - n)
            for r in range(n, n + scope.players)
            if v[f"share{r}"]
        ]
        return A.DealDamage(
            source="effect" if v["source"] == NONE else h(v["source"]),
            shares=tuple(shares),
            keywords=frozenset(k for k in KEYWORDS if v[f"dmg_kw.{k.value}"]),
            controller=None if v["dmg_controller"] == NONE else int(v["dmg_controller"]),
            combat=bool(v["combat"]),
            cant_regen=bool(v["cant_regen"]),
            **common,
        )
    if kind == "destroy":
        return A.Destroy(targets=seq(), cant_be_regenerated=bool(v["cant_regen"]), **common)
    one_target: dict[str, type[A.Action]] = {
        "sacrifice": A.Sacrifice,
        "exile": A.Exile,
        "make-unregenerable": A.MakeUnregenerable,
    }
    if kind == "leave-and-return":
        under = None if v["under"] == NONE else int(v["under"])
        return A.LeaveAndReturn(target=h(v["target"]), controller=under, **common)
    if kind in one_target:
        return one_target[kind](target=h(v["target"]), **common)  # type: ignore[call-arg]
    if kind == "change-control":
        return A.ChangeControl(
            target=h(v["target"]), player=player, until_end_of_turn=bool(v["until_eot"]), **common
        )
    if kind == "modify-pt":
        return A.ModifyPowerToughness(
            target=h(v["target"]), power=int(v["power"]), toughness=int(v["toughness"]), **common
        )
    if kind == "add-counters":
        return A.AddCounters(
            target=h(v["target"]),
            counter=list(CounterKind)[int(v["counter"])],
            amount=int(v["amount"]),
            **common,
        )
    if kind == "grant-keyword":
        return A.GrantKeyword(
            target=h(v["target"]),
            keyword=list(Keyword)[int(v["keyword"])],
            remove=bool(v["remove"]),
            **common,
        )
    if kind == "change-type":
        return A.ChangeType(target=h(v["target"]), creature=not v["remove"], **common)
    if kind == "check-sba":
        return A.CheckStateBasedActions(**common)
    if kind == "cleanup":
        return A.Cleanup(**common)
    if kind == "pass":
        target = None if v["target"] == NONE else h(v["target"])
        return A.PassPriority(player=player, decline=bool(v["decline"]), target=target, **common)
    if kind == "cast":
        return _cast_of(v, h, scope, common)
    if kind == "activate":
        target = h(v["tgt0.card"]) if v["n_targets"] else None
        return A.ActivateAbility(
            player=player,
            source=h(v["target"]),
            ability=int(v["ability"]),
            target=target,
            sacrifice=None if v["source"] == NONE else h(v["source"]),
            **common,
        )
    if kind == "attach":
        return A.Attach(attachment=h(v["source"]), target=h(v["target"]), **common)
    if kind == "declare-attackers":
        return A.DeclareAttackers(player=player, attackers=seq(), **common)
    if kind == "declare-blockers":
        blocks = tuple(
            (h(b), h(v[key]))
            for b in range(n)
            for key in (f"blocks{b}", f"blocks_also{b}")
            if v[key] != NONE
        )
        return A.DeclareBlockers(player=player, blocks=blocks, **common)
    if kind == "order-blockers":
        return A.OrderBlockers(player=player, attacker=h(v["target"]), order=seq(), **common)
    if kind == "assign-combat-damage":
        divisions = []
        for a in range(n):
            if not v[f"div{a}"]:
                continue
            split = tuple(
                (
                    "player" if v[f"div{a}.to{k}"] == n else h(v[f"div{a}.to{k}"]),
                    int(v[f"div{a}.amount{k}"]),
                )
                for k in range(n + 1)
                if v[f"div{a}.to{k}"] != NONE
            )
            divisions.append(A.Division(h(a), split))
        return A.AssignCombatDamage(player=player, divisions=tuple(divisions), **common)
    raise ValueError(f"unknown action kind {kind!r}")


def _cast_of(v: dict[str, int | bool], h: Any, scope: Scope, common: dict[str, Any]) -> A.Action:
    effect = Effect(
        kind=list(EffectKind)[int(v["eff_kind"])],
        amount=int(v["eff_amount"]),
        power=int(v["eff_power"]),
        toughness=int(v["eff_toughness"]),
        keywords=frozenset(k for k in KEYWORDS if v[f"eff_kw.{k.value}"]),
        cant_regen=bool(v["eff_cant_regen"]),
        cant_regen_target=bool(v["eff_cant_regen_target"]),
        exile_if_dies=bool(v["eff_exile_if_dies"]),
        rider=list(Rider)[int(v["eff_rider"])],
        counter=list(CounterKind)[int(v["eff_counter"])],
        until_end_of_turn=bool(v["eff_until_eot"]),
        untap=bool(v["eff_untap"]),
        under_you=bool(v["eff_under_you"]),
        draw=int(v["eff_draw"]),
    )
    targets = []
    for j in range(int(v["n_targets"])):
        if v[f"tgt{j}.spell"] != NONE:
            targets.append(A.TargetChoice(spell=int(v[f"tgt{j}.spell"])))
        elif v[f"tgt{j}.player"] != NONE:
            targets.append(A.TargetChoice(player=int(v[f"tgt{j}.player"])))
        elif v[f"tgt{j}.card"] != NONE:
            targets.append(A.TargetChoice(card=h(v[f"tgt{j}.card"])))
        else:
            targets.append(A.TargetChoice())
    return A.CastSpell(
        player=int(v["player"]),
        name=f"{effect.kind.value} spell",
        effect=effect,
        targets=tuple(targets),
        sorcery=bool(v["sorcery"]),
        target_rule=list(TargetRule)[int(v["cast_rule"])],
        **common,
    )


def _choices_of(
    v: dict[str, int | bool], state: GameState, scope: Scope
) -> tuple[A.ReplacementChoice, ...]:
    handles = state.setup.handles
    out = []
    for i in range(min(scope.cards, len(handles))):
        for q in range(scope.players):
            use = Use(int(v[f"choice{i}.{q}.use"]))
            if use is Use.NONE:
                continue
            if use is Use.SHIELD_MASK:
                bits = [j for j in range(scope.shields) if v[f"choice{i}.{q}.mask{j}"]]
                text = f"shield#{bits[0] + 1}" if bits else "?"
            elif use is Use.UMBRA:
                slot = int(v[f"choice{i}.{q}.slot"])
                text = f"umbra:{handles[slot]}" if 0 <= slot < len(handles) else "?"
            else:
                text = _USE_TEXT[use]
            out.append(A.ReplacementChoice(handles[i], q, text))
    return tuple(out)
