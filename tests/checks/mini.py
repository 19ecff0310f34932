"""A minimal regeneration system over the real ``Frame``: create-shield, destroy, cleanup.

A test double for the parts of the proof engine that need real frames and step outputs (the
symbolic view of invariants, ``find``, cover, replay on the engine) without the full encoding.
Its starts are simple: every card a vanilla creature on the battlefield in the first main
phase, no shields, no damage; printed power and toughness are free within the scope. For
these actions it must agree with the engine exactly (the replay tests check that).

``broken="no-consume"`` leaves a used shield unused: a wrong rule, for tests that must fail.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.checks.replay import Run
from regen_model.checks.system import Tracked
from regen_model.encoding.frame import NONE, CardVars, Frame, Statics, read, read_statics
from regen_model.encoding.outputs import CARD_FIELDS
from regen_model.encoding.scope import Scope
from regen_model.model import actions as A
from regen_model.model.enums import Attachment, Decision, Edition, Rider, Step, Zone, ordinal

KINDS = ("create-shield", "destroy", "cleanup")
BF, GY = ordinal(Zone.BATTLEFIELD), ordinal(Zone.GRAVEYARD)
MINI_SCOPE = Scope(cards=2, shields=2, stack=0, pending=0, editions=(Edition.FDN,))


def _card_vars(c: CardVars) -> list[Any]:
    return c.vars()


def _same_card(a: CardVars, b: CardVars, but: Sequence[Any] = ()) -> Any:
    skip = {v.get_id() for v in but}
    return z3.And(
        *[
            y == x
            for x, y in zip(_card_vars(a), _card_vars(b), strict=True)
            if y.get_id() not in skip
        ]
    )


def _game_vars(f: Frame) -> list[Any]:
    out = [
        f.edition,
        f.turn,
        f.active,
        f.step,
        f.priority,
        *f.passed,
        f.decision,
        f.stack_size,
        f.pending_size,
        f.first_strike_step,
        f.declared,
    ]
    for p in f.players:
        # ``gy_size``: only a destruction changes it; nothing draws in the mini system
        out += [p.life, p.poison, p.lost, p.hand, p.library, p.drew_empty]
    return out


@dataclass(frozen=True)
class MiniStep:
    system: MiniSystem
    pre: Frame
    post: Frame
    kind: Any
    target: Any
    outputs: dict[str, list[Any]]

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        kinds = KINDS if kind is None else (kind,)
        out: list[Tracked] = []
        for k in kinds:
            on = self.kind == KINDS.index(k)
            for t in getattr(self, "_" + k.replace("-", "_"))():
                out.append(Tracked(t.label, z3.Implies(on, t.formula)))
        out.append(
            Tracked(
                "frame",
                z3.And(
                    *[
                        b == a
                        for a, b in zip(_game_vars(self.pre), _game_vars(self.post), strict=True)
                    ]
                ),
            )
        )
        destroy = self.kind == KINDS.index("destroy")
        same_yards = z3.And(
            *[
                b.gy_size == a.gy_size
                for a, b in zip(self.pre.players, self.post.players, strict=True)
            ]
        )
        out.append(Tracked("frame", z3.Implies(z3.Not(destroy), same_yards)))
        out.append(Tracked("kinds", z3.And(self.kind >= 0, self.kind < len(KINDS))))
        return out

    def _out(self, **values: Any) -> Any:
        """Outputs: the named per-card values, every other output 0."""
        eqs = []
        for name in CARD_FIELDS:
            for i, term in enumerate(self.outputs[name]):
                eqs.append(term == values.get(name, [0] * len(self.outputs[name]))[i])
        return z3.And(*eqs)

    def _create_shield(self) -> list[Tracked]:
        n = len(self.pre.cards)
        per_card = []
        made = []
        for i in range(n):
            a, b = self.pre.cards[i], self.post.cards[i]
            hit = self.target == i
            controller = z3.If(a.control_eot == NONE, a.control, a.control_eot)
            slots = []
            for j, s in enumerate(a.shields):
                free = z3.And(z3.Not(s.present), *([a.shields[j - 1].present] if j else []))
                t = b.shields[j]
                slots.append(
                    z3.And(
                        free,
                        t.present,
                        z3.Not(t.used),
                        t.rider == 0,
                        t.creator == controller,
                        b.ghost.shields_made == a.ghost.shields_made + 1,
                        _same_card(
                            a, b, [t.present, t.used, t.rider, t.creator, b.ghost.shields_made]
                        ),
                    )
                )
            per_card.append(z3.If(hit, z3.Or(*slots), _same_card(a, b)))
            made.append(z3.If(hit, 1, 0))
        guard = z3.And(
            self.target >= 0,
            self.target < n,
            *[z3.Implies(self.target == i, self.pre.cards[i].zone == BF) for i in range(n)],
        )
        return [
            Tracked("regen.shield.create", guard),
            Tracked("regen.shield.create", z3.And(*per_card)),
            Tracked("outputs", self._out(shields_made=made)),
        ]

    def _destroy(self) -> list[Tracked]:
        n = len(self.pre.cards)
        cards, applied, died = [], [], []
        regen, taps, dead = [], [], []
        for i in range(n):
            a, b = self.pre.cards[i], self.post.cards[i]
            hit = self.target == i
            # the engine applies the oldest unused shield (all plain shields are one class)
            unused = [z3.And(s.present, z3.Not(s.used)) for s in a.shields]
            first = [z3.And(u, *[z3.Not(v) for v in unused[:j]]) for j, u in enumerate(unused)]
            can = z3.And(z3.Or(*unused), z3.Not(a.cant_regen))
            consumed = []
            for j, s in enumerate(a.shields):
                used = s.used if self.system.broken == "no-consume" else z3.Or(s.used, first[j])
                consumed.append(b.shields[j].used == used)
            keep = [b.shields[j].used for j in range(len(a.shields))] + [
                b.damage,
                b.tapped,
                b.ghost.destructions,
                b.ghost.by_shield,
            ]
            regenerated = z3.And(
                *consumed,
                b.damage == 0,
                b.tapped,
                b.ghost.destructions == a.ghost.destructions + 1,
                b.ghost.by_shield == a.ghost.by_shield + 1,
                _same_card(a, b, keep),
            )
            owner = self.system.statics.cards[i].owner
            gone = z3.And(
                b.zone == GY,
                b.gen == a.gen + 1,
                b.control == owner,
                *[v == d for v, d in _defaults(b)],
                # 404.1: on top of its owner's graveyard, a group of its own
                *[
                    z3.Implies(owner == p, b.gy_pos == pv.gy_size)
                    for p, pv in enumerate(self.post.players)
                ],
            )
            applied.append(z3.Implies(z3.And(hit, can), regenerated))
            died.append(z3.Implies(z3.And(hit, z3.Not(can)), gone))
            cards.append(z3.Implies(z3.Not(hit), _same_card(a, b)))
            regen.append(z3.If(z3.And(hit, can), 1, 0))
            taps.append(z3.If(z3.And(hit, can, z3.Not(a.tapped)), 1, 0))
            dead.append(z3.If(z3.And(hit, z3.Not(can)), 1, 0))
        guard = z3.And(
            self.target >= 0,
            self.target < n,
            *[z3.Implies(self.target == i, self.pre.cards[i].zone == BF) for i in range(n)],
        )
        would = [z3.If(self.target == i, 1, 0) for i in range(n)]
        yards = z3.And(
            *[
                b.gy_size
                == a.gy_size
                + z3.Sum(
                    *[
                        z3.If(z3.And(d == 1, self.system.statics.cards[i].owner == p), 1, 0)
                        for i, d in enumerate(dead)
                    ]
                )
                for p, (a, b) in enumerate(zip(self.pre.players, self.post.players, strict=True))
            ]
        )
        used = regen if self.system.broken != "no-consume" else [0] * n
        return [
            Tracked("destroy.effect", guard),
            Tracked("regen.shield.apply", z3.And(*applied)),
            Tracked("destroy.effect", z3.And(*died)),
            Tracked("zone.graveyard-order", yards),
            Tracked("frame", z3.And(*cards)),
            Tracked(
                "outputs",
                self._out(
                    regenerations=regen,
                    shields_used=used,
                    regen_taps=taps,
                    destroyed=dead,
                    left=dead,
                    would_destroy=would,
                ),
            ),
        ]

    def _cleanup(self) -> list[Tracked]:
        per = []
        for a, b in zip(self.pre.cards, self.post.cards, strict=True):
            cleaned = z3.And(
                b.damage == 0,
                b.power_eot == 0,
                b.toughness_eot == 0,
                *[z3.Not(g) for g in b.kw_granted],
                *[z3.Not(r) for r in b.kw_removed],
                b.control_eot == NONE,
                z3.Not(b.cant_regen),
                z3.Not(b.exile_if_dies),  # "this turn" exile-instead ends (514.2)
                b.remove_damage == 0,  # and Pyramids' effects (514.2)
                z3.Not(b.animated),  # type changes until end of turn end (514.2)
                z3.Not(b.noncreature),
                b.prevent_next == 0,  # and prevention effects (615.3)
                z3.Not(b.prevent_all),
                *[
                    z3.And(z3.Not(s.present), z3.Not(s.used), s.rider == 0, s.creator == 0)
                    for s in b.shields
                ],
                b.ghost.shields_made == 0,
                b.ghost.destructions == 0,
                b.ghost.by_shield == 0,
                b.ghost.by_static == 0,
                b.ghost.by_other == 0,
                _same_card(
                    a,
                    b,
                    [
                        b.damage,
                        b.power_eot,
                        b.toughness_eot,
                        *b.kw_granted,
                        *b.kw_removed,
                        b.control_eot,
                        b.cant_regen,
                        b.exile_if_dies,
                        b.remove_damage,
                        b.animated,
                        b.noncreature,
                        b.prevent_next,
                        b.prevent_all,
                        *[v for s in b.shields for v in (s.present, s.used, s.rider, s.creator)],
                        b.ghost.shields_made,
                        b.ghost.destructions,
                        b.ghost.by_shield,
                        b.ghost.by_static,
                        b.ghost.by_other,
                    ],
                ),
            )
            per.append(z3.If(a.zone == BF, cleaned, _same_card(a, b)))
        return [Tracked("cleanup.simultaneous", z3.And(*per)), Tracked("outputs", self._out())]


def _defaults(b: CardVars) -> list[tuple[Any, Any]]:
    """A new object's fields other than zone, gen and control (``Card`` defaults)."""
    pairs: list[tuple[Any, Any]] = [
        (b.control_eot, NONE),
        (b.tapped, False),
        (b.damage, 0),
        (b.deathtouched, False),
        (b.plus, 0),
        (b.minus, 0),
        (b.shield_counters, 0),
        (b.power_eot, 0),
        (b.toughness_eot, 0),
        (b.cant_regen, False),
        (b.exile_if_dies, False),
        (b.remove_damage, 0),
        (b.animated, False),
        (b.noncreature, False),
        (b.prevent_next, 0),
        (b.prevent_all, False),
        (b.attached_to, NONE),
        (b.attacking, False),
        (b.blocking, NONE),
        (b.blocking_also, NONE),
        (b.blocked, False),
        (b.phased_out, NONE),
        (b.eoc_destroy, 0),  # no delayed "destroy it at end of combat" (400.7: a new object)
        (b.eoc_destroy_by, NONE),
        (b.ghost.shields_made, 0),
        (b.ghost.destructions, 0),
        (b.ghost.by_shield, 0),
        (b.ghost.by_static, 0),
        (b.ghost.by_other, 0),
    ]
    pairs += [(g, False) for g in b.kw_granted] + [(r, False) for r in b.kw_removed]
    for s in b.shields:
        pairs += [(s.present, False), (s.used, False), (s.rider, 0), (s.creator, 0)]
    return pairs


class MiniSystem:
    def __init__(self, scope: Scope = MINI_SCOPE, broken: str = "", rules: object = None) -> None:
        self.scope = scope
        self.broken = broken
        self.statics = Statics.fresh(scope, "ms")

    @property
    def name(self) -> str:
        return "mini"

    def action_kinds(self) -> Sequence[str]:
        return KINDS

    def kind_value(self, kind: str) -> Any:
        return z3.IntVal(KINDS.index(kind))

    def frame(self, tag: str) -> Frame:
        return Frame.fresh(self.statics, tag)

    def domain(self, frame: Any) -> list[Tracked]:
        return [
            Tracked("scope:frame", z3.And(*frame.domain())),
            Tracked("scope:statics", z3.And(*self.statics.domain())),
        ]

    def init(self, frame: Any) -> list[Tracked]:
        f: Frame = frame
        game = [
            f.edition == ordinal(Edition.FDN),
            f.turn == 1,
            f.active == 0,
            f.step == ordinal(Step.MAIN1),
            f.priority == 0,
            *[z3.Not(p) for p in f.passed],
            f.decision == ordinal(Decision.NONE),
            f.stack_size == 0,
            f.pending_size == 0,
            z3.Not(f.first_strike_step),
            z3.Not(f.declared),
        ]
        for p in f.players:
            game += [p.life == 20, p.poison == 0, z3.Not(p.lost), p.gy_size == 0]
        for i, c in enumerate(f.cards):
            st = self.statics.cards[i]
            game += [
                c.zone == BF,
                c.gen == 0,
                c.control == st.owner,
                z3.Not(c.first_striker),
                z3.Not(c.ordered),
                c.order_pos == NONE,
                c.order_pos_also == NONE,
                c.gy_pos == 0,
                *[v == d for v, d in _defaults(c)],
            ]
            game += [
                st.creature,
                z3.Not(st.animate_ability),
                st.toughness >= 1,
                *[z3.Not(k) for k in st.keywords],
                st.attachment == ordinal(Attachment.NONE),
                z3.Not(st.static_regen),
                z3.Not(st.regen_ability),
                z3.Not(st.unregen_ability),
                st.trigger == 0,
                st.dies_life == 0,  # no "when this creature dies" (the mini system has no
                st.tapped_opponent_life == 0,  # triggers), nor "becomes tapped" triggers
                z3.Not(st.destroys_combatants),  # nor a Basilisk's
                st.dies_drain == 0,  # nor "whenever a creature dies" of another permanent
                st.dies_draw == 0,  # (Fecundity's draw among them)
            ]
        return [Tracked("init", z3.And(*game))]

    def step(self, pre: Any, post: Any, tag: str) -> MiniStep:
        n = self.scope.cards
        outputs = {
            name: [z3.Int(f"{tag}.out.{name}.{i}") for i in range(n)] for name in CARD_FIELDS
        }
        outputs["priority_given"] = [z3.BoolVal(False)]
        outputs["countered"] = [z3.IntVal(0)]  # no stack in the mini system, so no counter
        return MiniStep(self, pre, post, z3.Int(f"{tag}.kind"), z3.Int(f"{tag}.target"), outputs)

    def decode(self, model: Any, frames: Sequence[Any], steps: Sequence[Any]) -> Run:
        setup = read_statics(model, self.statics)
        states = tuple(read(model, f, setup) for f in frames)
        actions: list[A.Action] = []
        for s in steps:
            kind = KINDS[model.eval(s.kind, model_completion=True).as_long()]
            if kind == "cleanup":  # no target: the solver may leave any value there
                actions.append(A.Cleanup())
                continue
            target = setup.handles[model.eval(s.target, model_completion=True).as_long()]
            if kind == "create-shield":
                actions.append(A.CreateShield(target=target, rider=Rider.NONE))
            else:
                actions.append(A.Destroy(targets=(target,)))
        return Run(states, tuple(actions))
