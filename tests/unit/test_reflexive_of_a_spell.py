"""A "you may pay {1}. When you do, ..." effect (``EffectKind.WHEN_YOU_DO``, Go-Shintai of
Hidden Cruelty's end-step trigger) resolving from an object with no source permanent, a spell
cast through the engine's API (the scenario loader has no such spell): its reflexive trigger
(603.12) is named after that spell, in its triggered event and as the trigger's name. A
survivor of the mutation screen (``benchmarks/mutation-survivors-engine.yaml``, slice 18)."""

from __future__ import annotations

from regen_model.engine import step
from regen_model.model import actions as A
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.effects import Effect, EffectKind
from regen_model.model.events import EventKind


def test_the_reflexive_trigger_of_a_spell_is_named_after_the_spell() -> None:
    state = make_state(("A", "B"), [CardSpec("bears", PERMANENT_CARDS["Grizzly Bears"], 0)])
    cast = A.CastSpell(player=0, name="Shrine Call", effect=Effect(EffectKind.WHEN_YOU_DO))
    state = step(state, cast).state
    state = step(state, A.PassPriority(player=0)).state
    events = step(state, A.PassPriority(player=1)).events
    (triggered,) = [e for e in events if e.kind is EventKind.TRIGGERED]
    assert (triggered.subject, triggered.clause) == ("Shrine Call", "trigger.reflexive")
    assert triggered.get("ability") == "reflexive trigger of Shrine Call"
