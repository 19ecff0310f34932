"""A ten-line transition system for testing the proof engine (ANCHORS section 2's toy model).

One creature: ``shields`` (unused shields), ghost counters ``granted`` and ``used``, flags
``destroyed`` and ``tapped``. Actions: ``grant`` a shield, a ``destroy`` event (a shield is
consumed and the creature tapped, else it is destroyed), ``cleanup`` (shields expire).
``broken`` selects a wrong rule for tests: ``"no-consume"`` keeps the shield when used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import z3

from regen_model.checks.system import Tracked

KINDS = ("grant", "destroy", "cleanup")


@dataclass(frozen=True)
class ToyFrame:
    tag: str
    shields: Any
    granted: Any
    used: Any
    destroyed: Any
    tapped: Any

    def vars(self) -> list[Any]:
        return [self.shields, self.granted, self.used, self.destroyed, self.tapped]


def toy_frame(tag: str) -> ToyFrame:
    return ToyFrame(
        tag,
        z3.Int(f"shields@{tag}"),
        z3.Int(f"granted@{tag}"),
        z3.Int(f"used@{tag}"),
        z3.Bool(f"destroyed@{tag}"),
        z3.Bool(f"tapped@{tag}"),
    )


@dataclass(frozen=True)
class ToyStep:
    pre: ToyFrame
    post: ToyFrame
    kind: Any
    broken: str

    def constraints(self, kind: str | None = None) -> list[Tracked]:
        s, t = self.pre, self.post
        same = {
            "shields": t.shields == s.shields,
            "granted": t.granted == s.granted,
            "used": t.used == s.used,
            "destroyed": t.destroyed == s.destroyed,
            "tapped": t.tapped == s.tapped,
        }
        consume = t.shields == (s.shields if self.broken == "no-consume" else s.shields - 1)
        rules = {
            "grant": [
                Tracked("toy.grant.guard", z3.Not(s.destroyed)),
                Tracked(
                    "toy.grant", z3.And(t.shields == s.shields + 1, t.granted == s.granted + 1)
                ),
                Tracked("frame", z3.And(same["used"], same["destroyed"], same["tapped"])),
            ],
            "destroy": [
                Tracked("toy.destroy.guard", z3.Not(s.destroyed)),
                Tracked(
                    "toy.destroy.regenerate",
                    z3.Implies(
                        s.shields > 0,
                        z3.And(consume, t.used == s.used + 1, t.tapped, z3.Not(t.destroyed)),
                    ),
                ),
                Tracked(
                    "toy.destroy.dies",
                    z3.Implies(
                        s.shields <= 0,
                        z3.And(same["shields"], same["used"], same["tapped"], t.destroyed),
                    ),
                ),
                Tracked("frame", same["granted"]),
            ],
            "cleanup": [
                Tracked("toy.cleanup", t.shields == 0),
                Tracked(
                    "frame",
                    z3.And(same["granted"], same["used"], same["destroyed"], same["tapped"]),
                ),
            ],
        }
        chosen = KINDS if kind is None else (kind,)
        out = []
        for k in chosen:
            code = KINDS.index(k)
            out += [Tracked(t_.label, z3.Implies(self.kind == code, t_.formula)) for t_ in rules[k]]
        out.append(Tracked("toy.kinds", z3.And(self.kind >= 0, self.kind < len(KINDS))))
        return out


class ToySystem:
    def __init__(self, broken: str = "") -> None:
        self.broken = broken

    @property
    def name(self) -> str:
        return f"toy{'-' + self.broken if self.broken else ''}"

    def action_kinds(self) -> Sequence[str]:
        return KINDS

    def kind_value(self, kind: str) -> Any:
        return z3.IntVal(KINDS.index(kind))

    def frame(self, tag: str) -> ToyFrame:
        return toy_frame(tag)

    def domain(self, frame: Any) -> list[Tracked]:
        f: ToyFrame = frame
        return [Tracked("scope:toy", z3.And(f.shields >= 0, f.granted >= 0, f.used >= 0))]

    def init(self, frame: Any) -> list[Tracked]:
        f: ToyFrame = frame
        return [
            Tracked(
                "init",
                z3.And(
                    f.shields == 0,
                    f.granted == 0,
                    f.used == 0,
                    z3.Not(f.destroyed),
                    z3.Not(f.tapped),
                ),
            )
        ]

    def step(self, pre: Any, post: Any, tag: str) -> ToyStep:
        return ToyStep(pre, post, z3.Int(f"kind@{tag}"), self.broken)

    def decode(self, model: Any, frames: Sequence[Any], steps: Sequence[Any]) -> dict[str, Any]:
        def val(v: Any) -> Any:
            x = model.eval(v, model_completion=True)
            return z3.is_true(x) if z3.is_bool(x) else x.as_long()

        names = ("shields", "granted", "used", "destroyed", "tapped")
        return {
            "states": [{n: val(getattr(f, n)) for n in names} for f in frames],
            "actions": [KINDS[val(s.kind)] for s in steps],
        }
