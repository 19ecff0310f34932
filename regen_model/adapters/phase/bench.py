"""Throughput of the phase.rs cross-check: ``python -m regen_model.adapters.phase.bench``.

Times the example scenarios on our engine and on phase.rs (one adapter, warm card database),
and separately the cost of one board setup, so the figures in docs/phase-adapter.md can be
reproduced.
"""

from __future__ import annotations

import time

from regen_model.adapters.phase.adapter import PhaseEngineAdapter
from regen_model.adapters.phase.driver import run_on_phase, run_on_reference
from regen_model.adapters.phase.examples import AGREEING


def measure(rounds: int = 5) -> dict[str, float]:
    """Scenarios per second on each engine and the mean setup time, in one process."""
    adapter = PhaseEngineAdapter()
    for sc in AGREEING:  # warm up: build faces and engines once
        run_on_phase(sc.state, sc.actions, adapter=adapter)
    t0 = time.perf_counter()
    for _ in range(rounds):
        for sc in AGREEING:
            run_on_reference(sc.state, sc.actions)
    reference = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(rounds):
        for sc in AGREEING:
            run_on_phase(sc.state, sc.actions, adapter=adapter)
    phase_time = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(rounds):
        for sc in AGREEING:
            adapter.start(sc.state, sc.actions)
            adapter.observe()
    setup = time.perf_counter() - t0
    runs = rounds * len(AGREEING)
    steps = rounds * sum(len(sc.actions) for sc in AGREEING)
    return {
        "scenarios": float(runs),
        "reference_scenarios_per_s": runs / reference,
        "phase_scenarios_per_s": runs / phase_time,
        "phase_setup_ms": 1000 * setup / runs,
        "phase_ms_per_action": 1000 * (phase_time - setup) / steps,
    }


if __name__ == "__main__":
    for key, value in measure().items():
        print(f"{key:28s} {value:10.1f}")
