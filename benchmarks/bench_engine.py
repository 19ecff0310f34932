"""Engine throughput: steps per second over long random runs, with and without monitors.

    python benchmarks/bench_engine.py [--runs 5] [--steps 2000] [--boards 10]

What is timed is ``engine.step`` on legal actions, nothing else: the runs are recorded first
(seeded random walks from boards of built-in cards that play like games: decisions answered,
priority passed half the time so turns go by, any other kind of action otherwise, a kind and
then an instance so that no kind crowds out the others; see ``walk``), then
replayed under the timer, once bare and once with the invariant catalog's monitors checked
after every step (state invariants and step properties), as a run under test does. Each
measurement is the median of ``--runs`` replays, in steps per second of this process's CPU
time (the machine is shared; wall-clock rates are reported beside it). The table is printed and the figures are
written to ``benchmarks/results/engine.json``. Goal (issue 2): 50,000 steps per second.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table

from regen_model.encoding.scope import Scope
from regen_model.engine import EngineError, step
from regen_model.explore import enumerate_actions
from regen_model.explore.monitor import CatalogMonitor
from regen_model.explore.starts import PLAYER_NAMES, START_SHIELD, START_STEPS
from regen_model.model.actions import Action
from regen_model.model.build import CardSpec, make_state
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Attachment, Edition
from regen_model.model.state import GameState

GOAL = 50_000
RESULTS = Path(__file__).resolve().parent / "results" / "engine.json"
SCOPE = Scope(cards=4, shields=3, stack=3, pending=3, targets=1, max_amount=4)
Run = tuple[GameState, list[Action]]
DECISIONS = ("declare-attackers", "declare-blockers", "order-blockers", "assign-combat-damage")


def board(rng: random.Random) -> GameState:
    """A random legal board of 2-4 built-in permanents (Auras on creatures)."""
    names = sorted(PERMANENT_CARDS)
    creatures = [n for n in names if PERMANENT_CARDS[n].is_creature]
    chosen = [rng.choice(creatures)] + [rng.choice(names) for _ in range(rng.randint(1, 3))]
    specs = []
    for i, name in enumerate(chosen):
        t = PERMANENT_CARDS[name]
        owner = rng.randint(0, 1)
        host = "c0" if t.attachment is Attachment.AURA else None
        shields = (START_SHIELD._replace(creator=owner),) * rng.randint(0, 1)
        specs.append(CardSpec(f"c{i}", t, owner, attached_to=host, shields=shields))
    active = rng.randint(0, 1)
    return make_state(
        PLAYER_NAMES,
        specs,
        edition=rng.choice(list(Edition)),
        step=rng.choice(START_STEPS),
        active=active,
        priority=active,
    )


def walk(rng: random.Random, start: GameState, steps: int) -> list[Action]:
    """A legal random run of ``steps`` actions, played like a game: a pending turn-based
    decision is answered, otherwise priority is passed half the time (so whole turns go by)
    and any other kind is chosen the rest of the time. The run never ends the game or empties
    the battlefield of creatures, so that every run is long."""
    state, actions = start, list[Action]()
    while len(actions) < steps:
        by_kind: dict[str, list[Action]] = {}
        for a in enumerate_actions(state, SCOPE):
            by_kind.setdefault(a.kind, []).append(a)
        kinds = list(by_kind)
        rng.shuffle(kinds)
        first = [k for k in kinds if k in DECISIONS]
        if not first and "pass" in by_kind and rng.random() < 0.5:
            first = ["pass"]
        taken = None
        for kind in first + [k for k in kinds if k not in first]:
            group = by_kind[kind][:]
            rng.shuffle(group)
            for a in group:
                try:
                    after = step(state, a).state
                except EngineError:
                    continue
                if _goes_on(after):
                    taken = (a, after)
                    break
            if taken:
                break
        if taken is None:
            break
        actions.append(taken[0])
        state = taken[1]
    return actions


def _goes_on(state: GameState) -> bool:
    return not any(p.lost for p in state.players) and any(
        c.on_battlefield and state.setup.templates[c.slot].is_creature for c in state.cards
    )


def record(boards: int, steps: int, seed: int) -> list[Run]:
    rng = random.Random(seed)
    runs = []
    for _ in range(boards):
        start = board(rng)
        runs.append((start, walk(rng, start, steps)))
    return runs


def final_turn(start: GameState, actions: list[Action]) -> int:
    state = start
    for a in actions:
        state = step(state, a).state
    return state.turn


def replay_bare(runs: list[Run]) -> int:
    n = 0
    for start, actions in runs:
        state = start
        for a in actions:
            state = step(state, a).state
            n += 1
    return n


def replay_monitored(runs: list[Run]) -> int:
    monitor = CatalogMonitor()
    n = 0
    for start, actions in runs:
        state = start
        for a in actions:
            result = step(state, a)
            if monitor.check_step(state, a, result) or monitor.check_state(result.state):
                raise AssertionError(f"invariant violated at step {n}")
            state = result.state
            n += 1
    return n


def measure(replay: Callable[[list[Run]], int], runs: list[Run], repeat: int) -> dict[str, Any]:
    """Median steps per second of CPU time (this process only, so that other processes on a
    shared machine do not count), and of wall-clock time for reference."""
    cpu_rates, wall_rates = [], []
    steps = 0
    for _ in range(repeat):
        c0, w0 = time.process_time(), time.perf_counter()
        steps = replay(runs)
        cpu_rates.append(steps / (time.process_time() - c0))
        wall_rates.append(steps / (time.perf_counter() - w0))
    return {
        "steps": steps,
        "median_steps_per_second": round(statistics.median(cpu_rates)),
        "runs_steps_per_second": [round(r) for r in cpu_rates],
        "median_wall_clock_steps_per_second": round(statistics.median(wall_rates)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5, help="replays per measurement")
    parser.add_argument("--steps", type=int, default=2000, help="most steps per random run")
    parser.add_argument("--boards", type=int, default=10, help="random runs (one per board)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--monitor-runs", type=int, default=3, help="replays with monitors")
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args()

    runs = record(args.boards, args.steps, args.seed)
    turns = sum(final_turn(start, actions) - start.turn for start, actions in runs)
    kinds: dict[str, int] = {}
    for _, actions in runs:
        for a in actions:
            kinds[a.kind] = kinds.get(a.kind, 0) + 1
    bare = measure(replay_bare, runs, args.runs)
    monitored = measure(replay_monitored, runs, args.monitor_runs)
    table = Table(
        title=f"Engine throughput ({bare['steps']:,} steps in {len(runs)} random runs, "
        f"{turns} turns)"
    )
    table.add_column("measurement")
    table.add_column("median steps/s (CPU)", justify="right")
    table.add_column("runs (steps/s, CPU)", justify="right")
    table.add_column("median steps/s (wall)", justify="right")
    table.add_column("goal", justify="right")
    for name, m in (("engine.step", bare), ("engine.step + invariant monitors", monitored)):
        table.add_row(
            name,
            f"{m['median_steps_per_second']:,}",
            ", ".join(f"{r:,}" for r in m["runs_steps_per_second"]),
            f"{m['median_wall_clock_steps_per_second']:,}",
            f"{GOAL:,}" if m is bare else "-",
        )
    Console().print(table)
    document = {
        "format": "regen-model/bench-engine",
        "version": 1,
        "goal_steps_per_second": GOAL,
        "goal_met": bare["median_steps_per_second"] >= GOAL,
        "engine": bare,
        "engine_with_monitors": monitored,
        "invariants": len(CatalogMonitor().invariants),
        "random_runs": len(runs),
        "turns_played": turns,
        "action_mix": dict(sorted(kinds.items(), key=lambda kv: -kv[1])),
        "seed": args.seed,
        "machine": {
            "python": platform.python_version(),
            "implementation": platform.python_implementation(),
            "processor": platform.processor() or platform.machine(),
            "cpus": os.cpu_count(),
        },
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(document, indent=2) + "\n", encoding="utf-8")
    Console().print(f"written to {args.out}")


if __name__ == "__main__":
    main()
