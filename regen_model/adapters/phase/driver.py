"""Running one scenario on both engines and getting comparable observations.

``run_on_phase`` and ``run_on_reference`` return one ``Observation`` for the start state and one
after each action, so the two lists line up index by index. ``run_on_phase`` can run the
scenario in a child process with a hard timeout: phase.rs runs in-process and a call into it
cannot be interrupted, so a hang can only be caught from outside.
"""

from __future__ import annotations

import multiprocessing
import queue
from collections.abc import Sequence

from regen_model.adapters.phase.errors import AdapterError, AdapterTimeout
from regen_model.adapters.phase.observation import Observation, observe_reference
from regen_model.engine import step
from regen_model.model.actions import Action
from regen_model.model.rules import CORRECT, Rules
from regen_model.model.state import GameState


def run_on_reference(
    state: GameState, actions: Sequence[Action], rules: Rules = CORRECT
) -> list[Observation]:
    """Our engine's observations: the start state, then one per action."""
    observations = [observe_reference(state)]
    for action in actions:
        state, events = step(state, action, rules)
        observations.append(observe_reference(state, events))
    return observations


def run_on_phase(
    state: GameState,
    actions: Sequence[Action],
    *,
    adapter: object | None = None,
    timeout_s: float | None = None,
) -> list[Observation]:
    """phase.rs's observations: the start state, then one per action.

    With ``timeout_s``, the scenario runs in a fresh child process that is killed when the time
    is up (``AdapterTimeout``); that costs a process start and a card-data build, so use it for
    isolation, not for speed. ``adapter`` reuses an existing ``PhaseEngineAdapter`` (its card
    database and engines) in-process.
    """
    if timeout_s is not None:
        return _run_isolated(state, actions, timeout_s)
    from regen_model.adapters.phase.adapter import PhaseEngineAdapter

    engine = adapter if isinstance(adapter, PhaseEngineAdapter) else PhaseEngineAdapter()
    unsupported = engine.supports(state, actions)
    if unsupported is not None:
        raise AdapterError(f"phase.rs cannot express this scenario: {unsupported}")
    engine.start(state, actions)
    try:
        observations = [engine.observe()]
        for action in actions:
            engine.apply(action)
            observations.append(engine.observe())
        return observations
    finally:
        engine.close()


def _child(state: GameState, actions: Sequence[Action], out: multiprocessing.Queue[object]) -> None:
    try:
        out.put(run_on_phase(state, actions))
    except AdapterError as exc:
        out.put(exc)


def _run_isolated(
    state: GameState, actions: Sequence[Action], timeout_s: float
) -> list[Observation]:
    ctx = multiprocessing.get_context("spawn")
    out: multiprocessing.Queue[object] = ctx.Queue()
    child = ctx.Process(target=_child, args=(state, list(actions), out), daemon=True)
    child.start()
    try:
        result = out.get(timeout=timeout_s)
    except queue.Empty:
        raise AdapterTimeout(f"phase.rs did not finish the scenario in {timeout_s} s") from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
    if isinstance(result, AdapterError):
        raise result
    assert isinstance(result, list)
    return result
