"""Reports of an exploration: the counterexample table, the JSON summary, ITF files."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.table import Table
from rich.text import Text

from regen_model.clauses import catalog
from regen_model.conform.itf import write_trace
from regen_model.explore.bfs import Counterexample, ExploreResult
from regen_model.explore.trace import clauses, describe_action, diff, to_itf
from regen_model.interrupts import exit_code
from regen_model.jsondoc import envelope
from regen_model.verdicts import EXIT_CODES

FORMAT = "regen-model/explore"


def _show(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, list):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value) if value != "" else '""'


def trace_table(cex: Counterexample) -> Table:
    """One row per step: the action, the changed fields, the clause IDs (with rule numbers)."""
    trace = cex.trace
    players = trace.start.setup.player_names
    table = Table(
        title=Text(f"Counterexample to {cex.invariant} ({cex.length} step(s)): {cex.message}"),
        title_justify="left",
        show_lines=True,
    )
    table.add_column("#", justify="right")
    table.add_column("action", overflow="fold")
    table.add_column("changed fields", overflow="fold")
    table.add_column("clauses", overflow="fold")
    cat = catalog()
    pre = trace.start
    for i, s in enumerate(trace.steps, start=1):
        changes = "\n".join(f"{k}: {_show(a)} -> {_show(b)}" for k, a, b in diff(pre, s.state))
        if s.error is not None:
            changes = s.error
        cited = "\n".join(
            cat[c].cite if c in cat else c for c in clauses(s.events) if c != "priority.receive"
        )
        table.add_row(
            str(i),
            Text(describe_action(s.action, players)),
            Text(changes or "(nothing)"),
            Text(cited),
        )
        pre = s.state
    return table


def start_table(cex: Counterexample) -> Table:
    """The start state of a counterexample: each permanent and its owner."""
    start = cex.trace.start
    table = Table(title="Start", title_justify="left")
    table.add_column("permanent")
    table.add_column("card")
    table.add_column("owner")
    table.add_column("attached to")
    for card in start.cards:
        table.add_row(
            start.setup.handles[card.slot],
            start.setup.templates[card.slot].name,
            start.setup.player_names[start.setup.owners[card.slot]],
            "" if card.attached_to is None else start.setup.handles[card.attached_to],
        )
    return table


def summary(result: ExploreResult, itf_files: dict[str, str] | None = None) -> dict[str, Any]:
    """The machine-readable summary of one exploration."""
    cfg = result.config
    p = result.progress
    code = exit_code(result.interrupted) if result.interrupted else EXIT_CODES[result.verdict]
    return {
        **envelope("explore", result.verdict, code, interrupted=result.interrupted),
        "reason": result.reason,
        "config": {
            "cards": list(cfg.start.cards),
            "count": cfg.start.count,
            "editions": [e.value for e in cfg.start.editions],
            "start_step": cfg.start.step.value,
            "family": cfg.family.value,
            "spells": None if cfg.spells is None else list(cfg.spells),
            "depth": cfg.depth,
            "rules": cfg.rules.name,
            "scope": {
                "cards": cfg.scope.cards,
                "shields": cfg.scope.shields,
                "stack": cfg.scope.stack,
                "pending": cfg.scope.pending,
                "targets": cfg.scope.targets,
                "max_amount": cfg.scope.max_amount,
                "max_power": cfg.scope.max_power,
                "max_toughness": cfg.scope.max_toughness,
            },
        },
        "starts": result.starts,
        "states": p.states,
        "transitions": p.transitions,
        "candidates": p.candidates,
        "pruned": p.pruned,
        "depth_reached": p.depth,
        "levels": list(p.levels),
        "exhausted": result.exhausted,
        "seconds": round(result.seconds, 6),
        "invariants": list(result.invariants),
        "violations": [
            {
                "invariant": c.invariant,
                "message": c.message,
                "length": c.length,
                "actions": [
                    describe_action(s.action, c.trace.start.setup.player_names)
                    for s in c.trace.steps
                ],
                "itf": (itf_files or {}).get(c.invariant),
            }
            for c in result.violations.values()
        ],
    }


def write_itf(result: ExploreResult, folder: Path) -> dict[str, str]:
    """Write each counterexample as ``<folder>/<invariant>.itf.json``; returns the paths."""
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, str] = {}
    for cex in result.violations.values():
        path = folder / f"{cex.invariant}.itf.json"
        meta = {
            "invariant": cex.invariant,
            "message": cex.message,
            "rules": result.config.rules.name,
            "config": result.config.describe(),
        }
        write_trace(path, to_itf(cex.trace, meta))
        written[cex.invariant] = str(path)
    return written
