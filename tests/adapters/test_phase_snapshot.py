"""The adapter's snapshot of a phase.rs game (``PhaseGame.snapshot``/``restored``) and copy of
its translator (``Translator.copy_onto``): ``_try_other_answers`` starts each answer after the
first from them instead of replaying the game so far, so a restored pair must go on exactly
as the live pair would, and neither may see the other's changes."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "phase", reason="the phase.rs adapter needs the optional extra: pip install regen-model[phase]"
)

from regen_model.adapters.phase import PhaseEngineAdapter
from regen_model.conform.observe import Observation, compare
from regen_model.conform.sources import saved_cases
from regen_model.model.actions import Action

ROOT = Path(__file__).resolve().parents[2]
CASES = [
    "tests/adapters/cases/destroy-all-after-an-unasked-shield-counter-choice.yaml",
    "tests/adapters/cases/basilisk-trigger-goes-inert-on-the-stack.yaml",
    "tests/adapters/cases/static-regeneration-beside-a-shield-counter.yaml",
]


def _rest(adapter: PhaseEngineAdapter, actions: list[Action]) -> list[Observation]:
    out = []
    for action in actions:
        adapter.apply(action)
        out.append(adapter.observe())
    return out


@pytest.mark.parametrize("path", CASES)
def test_a_restored_game_goes_on_as_the_live_one(path: str) -> None:
    (case,) = saved_cases([ROOT / path])
    actions = list(case.actions)
    assert len(actions) >= 2
    half = len(actions) // 2
    adapter = PhaseEngineAdapter()
    state = case.start.build()
    assert adapter.supports(state, case.actions) is None
    adapter.start(state)
    for action in actions[:half]:
        adapter.apply(action)
    adapter.observe()
    pg, translator = adapter._game(), adapter._require()
    restored = pg.restored(pg.snapshot())
    twin = translator.copy_onto(restored)
    assert twin.pg is restored and translator.pg is pg
    assert all(
        getattr(twin, name) is not value
        for name, value in vars(translator).items()
        if isinstance(value, list | set | dict)
    )
    done = list(adapter._done)
    live = _rest(adapter, actions[half:])
    adapter._pg, adapter._translator, adapter._done = restored, twin, done
    again = _rest(adapter, actions[half:])
    assert len(live) == len(again)
    for k, (a, b) in enumerate(zip(live, again, strict=True)):
        assert not compare(a, b), (k, [d.describe() for d in compare(a, b)])
