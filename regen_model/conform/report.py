"""Reports of the conformance commands: Rich tables for people, Markdown and JSON for files.

Every clause is printed with its current rule numbers from the catalog (``regen.static
(701.19b)``), so a reader can go from a divergence straight to the rule.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from regen_model.clauses import catalog
from regen_model.conform.case import Outcome
from regen_model.conform.codec import action_to_json
from regen_model.conform.differential import ROUTINE_CLAUSES, CrosscheckReport, Finding
from regen_model.conform.observe import Observation
from regen_model.conform.start import describe
from regen_model.conform.trace_check import TraceReport
from regen_model.verdicts import Verdict

_STYLE = {
    Verdict.PASSED: "bold green",
    Verdict.FAILED: "bold red",
    Verdict.DIVERGED: "bold red",
    Verdict.VACUOUS: "bold yellow",
    Verdict.UNKNOWN: "bold yellow",
    Verdict.SKIPPED: "yellow",
}


def cite(clauses: Iterable[str]) -> str:
    cat = catalog()
    out = []
    for c in clauses:
        rules = cat.rules_for(c)
        out.append(f"{c} ({rules})" if rules else c)
    return ", ".join(out)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


# --- check-trace ---------------------------------------------------------------------------------


def describe_card(rec: dict[str, Any]) -> str:
    """One card's observed fields as a short phrase: only what is not at its default."""
    bits = [str(rec.get("zone", "?"))]
    if "controller" in rec:
        bits.append(f"controller {rec['controller']}")
    if "power" in rec and "toughness" in rec:
        bits.append(f"{rec['power']}/{rec['toughness']}")
    for name in ("tapped", "attacking", "blocking", "unregenerable"):
        if rec.get(name):
            bits.append(name)
    for name, label in (
        ("damage", "damage"),
        ("shields", "shields"),
        ("plus_counters", "+1/+1"),
        ("minus_counters", "-1/-1"),
        ("shield_counters", "shield counters"),
    ):
        if rec.get(name):
            bits.append(f"{label} {rec[name]}")
    return ", ".join(bits)


def _observation_lines(obs: Observation, title: str) -> Text:
    text = Text(title + ":\n", style="bold")
    for handle, rec in obs.cards.items():
        text.append(f"  {handle}: ", style="cyan")
        text.append(describe_card(rec) + "\n")
    players = "; ".join(
        f"{name} life {rec.get('life')}, poison {rec.get('poison')}"
        + "".join(f", {f} {rec[f]}" for f in ("hand", "library") if f in rec)
        for name, rec in obs.players.items()
    )
    text.append(f"  players: {players}")
    return text


def _cell(v: Any) -> str:
    if v is None:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return str(v)


def render_trace_report(report: TraceReport, console: Console) -> None:
    style = _STYLE.get(report.verdict, "bold")
    head = Text.assemble(
        (report.verdict.value, style),
        f"  {report.file}: {report.matched}/{report.steps} steps matched",
        f"  ({report.gap_steps} with gaps, widest frontier {report.max_frontier}, "
        f"resolver {report.resolver}, {report.elapsed * 1000:.1f} ms)",
    )
    console.print(head)
    if report.note:
        console.print(Text(report.note, style="yellow"))
    f = report.failure
    if f is None:
        if report.clauses:
            console.print(Text("clauses exercised: ", style="dim") + Text(cite(report.clauses)))
        return
    parts: list[RenderableType] = [Text(f"step {f.step}: {f.reason}", style="bold")]
    if f.logged_action is not None:
        parts.append(Text("logged action: ") + Text(_compact(f.logged_action), style="cyan"))
    elif f.step > 0:
        parts.append(Text("logged action: (not logged: any game action)"))
    for i, obs in enumerate(f.states_before):
        title = "specification state before the step" + (
            f" ({i + 1} of {f.frontier_size})" if f.frontier_size > 1 else ""
        )
        parts.append(_observation_lines(obs, title))
    if f.closest is not None:
        if f.closest.action is not None:
            parts.append(
                Text("closest candidate: ") + Text(_compact(f.closest.action), style="cyan")
            )
        diff = Table(title="field-by-field diff", title_justify="left")
        diff.add_column("field")
        diff.add_column("specification", style="green")
        diff.add_column("trace", style="red")
        for d in f.closest.diffs:
            diff.add_row(Text(d.path), Text(_cell_json(d.expected)), Text(_cell_json(d.observed)))
        parts.append(diff)
    if f.rejected:
        parts.append(Text("rejected candidates: " + "; ".join(f.rejected), style="dim"))
    if f.clauses:
        parts.append(Text("clauses involved: ") + Text(cite(f.clauses), style="magenta"))
    console.print(Panel(Group(*parts), title=f"first unmatched step: {f.step}", border_style="red"))


def _cell_json(v: Any) -> str:
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "(none)"
    if isinstance(v, dict):
        return _compact(v)
    return _cell(v)


# --- crosscheck ------------------------------------------------------------------------------------


def render_crosscheck(report: CrosscheckReport, console: Console) -> None:
    style = _STYLE.get(report.verdict, "bold")
    seed = "" if report.seed is None else f", seed {report.seed}"
    # Cells and titles that quote the engine (its name, its errors) are ``Text``: an engine
    # may call itself "[/bold]", which is Rich markup, not a name to interpret.
    summary = Table(
        title=Text(
            f"crosscheck: {report.engine} {report.engine_version} ({report.elapsed:.1f} s{seed})"
        ),
        title_justify="left",
    )
    columns = ["verdict", "cases", "passed", "diverged", "errors", "skipped", "steps", "fields"]
    values = [
        str(report.cases),
        str(report.counts[Outcome.PASSED]),
        str(report.counts[Outcome.DIVERGED]),
        str(report.counts[Outcome.ENGINE_ERROR]),
        str(report.counts[Outcome.SKIPPED]),
        str(report.steps_run),
        str(report.fields_compared),
    ]
    if report.counts[Outcome.KNOWN] or report.known:
        columns.insert(3, "known only")
        values.insert(2, str(report.counts[Outcome.KNOWN]))
    if report.excluded:
        columns.append("excluded")
        values.append(str(len(report.excluded)))
    for col in columns:
        summary.add_column(col, justify="right" if col != "verdict" else "left", no_wrap=True)
    summary.add_row(Text(report.verdict.value, style), *values)
    console.print(summary)
    extra = []
    if report.first_compared_s is not None:
        extra.append(f"first case compared after {report.first_compared_s:.2f} s")
    if report.cases:
        extra.append(f"skip rate {report.skip_rate:.1%}")
    if report.known:
        shown = ", ".join(f"{k} x{n}" for k, n in sorted(report.known.items()))
        extra.append(f"known divergences passed over: {shown}")
    if report.masked_steps:
        extra.append(f"{report.masked_steps} steps masked (the engine could not resync)")
    if report.probe_refusals:
        extra.append(f"{report.refusals_probed} refused actions sent and refused by the engine")
    if extra:
        console.print(Text("; ".join(extra), style="dim"))
    if report.findings:
        table = Table(title="findings: one per root cause (shrunk)", title_justify="left")
        for col in ("#", "root cause signature", "cases", "steps", "clauses", "first difference"):
            table.add_column(col, no_wrap=col in ("#", "cases", "steps"))
        for i, f in enumerate(report.findings, 1):
            table.add_row(
                str(i),
                Text(" ".join(f.signature)),
                str(f.occurrences),
                f"{f.original_steps}->{f.minimal_steps}",
                Text(_key_clauses(f.divergence.clauses)),
                Text(f.divergence.summary()),
            )
        console.print(table)
        for f in report.findings:
            for path in f.files:
                console.print(Text(f"  wrote {path}", style="dim"))
    if report.skipped:
        reasons: dict[str, int] = {}
        for _, r in report.skipped:
            reasons[r] = reasons.get(r, 0) + 1
        table = Table(title="skipped (engine does not support)", title_justify="left")
        table.add_column("reason")
        table.add_column("cases", justify="right")
        for r, n in sorted(reasons.items(), key=lambda x: -x[1]):
            table.add_row(Text(r), str(n))
        console.print(table)
    if report.excluded:
        _render_excluded(report.excluded, console)
    if report.errors:
        table = Table(title="engine errors", title_justify="left")
        table.add_column("case")
        table.add_column("error")
        for case, err in report.errors[:20]:
            table.add_row(Text(case), Text(err))
        console.print(table)


EXCLUDED_LISTED = 20  # most excluded cases named one by one on the console


def _render_excluded(excluded: list[tuple[str, str]], console: Console) -> None:
    """Which cases were left out, and the lacked feature of each: named one by one when there
    are few (a ``--case`` run of a few files shows why a named file was not run), else counted
    per feature (a default run leaves out hundreds; report.md and ``--json`` name them all)."""
    if len(excluded) <= EXCLUDED_LISTED:
        table = Table(
            title="excluded (the engine declares it lacks a feature)", title_justify="left"
        )
        table.add_column("case")
        table.add_column("lacked feature")
        for case, feature in excluded:
            table.add_row(Text(case), Text(feature))
        console.print(table)
        return
    per_feature: dict[str, int] = {}
    for _, feature in excluded:
        per_feature[feature] = per_feature.get(feature, 0) + 1
    top = sorted(per_feature.items(), key=lambda x: (-x[1], x[0]))
    shown = ", ".join(f"{f} x{n}" for f, n in top[:8])
    more = f" and {len(top) - 8} more features" if len(top) > 8 else ""
    console.print(
        Text(
            f"{len(excluded)} cases excluded (lacked features: {shown}{more}); report.md and "
            "--json name each case",
            style="dim",
        )
    )


_ROUTINE = ROUTINE_CLAUSES


def _key_clauses(clauses: tuple[str, ...], most: int = 4) -> str:
    """The clauses worth reading first: the routine ones (priority, steps) go last."""
    ranked = [c for c in clauses if c not in _ROUTINE] + [c for c in clauses if c in _ROUTINE]
    shown = ", ".join(ranked[:most])
    return shown + (f" (+{len(ranked) - most})" if len(ranked) > most else "") or "-"


def finding_markdown(i: int, f: Finding) -> list[str]:
    d = f.divergence
    players = f.minimal.start.players
    shown = ", ".join(f"`{c}`" for c in f.cases[:12]) + (
        f" and {len(f.cases) - 12} more" if len(f.cases) > 12 else ""
    )
    unshrunk = f" ({f.unshrunk} left unshrunk by the budget)" if f.unshrunk else ""
    lines = [
        f"### {i}. {' '.join(f.signature)}",
        "",
        f"- cases with this root cause: {f.occurrences}{unshrunk}: {shown}",
        f"- smallest case: {f.minimal_steps} actions (the first case had {f.original_steps}; "
        f"{f.shrink_calls} runs spent shrinking the group)",
        f"- clauses: {cite(d.clauses) or '-'}",
        f"- edition: {f.minimal.start.edition.value}; the game starts in the "
        f"{f.minimal.start.step.value} step of turn {f.minimal.start.turn}, "
        f"{players[f.minimal.start.active]} active",
        "",
        "Start:",
        "",
        *([f"- {line}" for line in describe(f.minimal.start)] or ["- (no cards)"]),
        "",
        "Actions:",
        "",
    ]
    for k, a in enumerate(f.minimal.actions, 1):
        mark = "  <- diverges here" if k == d.step else ""
        lines.append(f"{k}. `{_compact(action_to_json(a, players))}`{mark}")
    if not f.minimal.actions:
        lines.append("(none: the start state already differs)")
    lines += ["", "| field | expected | observed |", "|---|---|---|"]
    if d.rejected:
        lines.append(f"| (action) | accepted | rejected: {d.rejected} |")
    if d.accepted:
        lines.append(f"| (action) | refused: {d.accepted} | accepted |")
    for diff in d.diffs:
        lines.append(
            f"| `{diff.path}` | {_cell_json(diff.expected)} | {_cell_json(diff.observed)} |"
        )
    if f.files:
        lines += ["", "Files: " + ", ".join(f"`{p}`" for p in f.files)]
    return [*lines, ""]


def crosscheck_markdown(report: CrosscheckReport) -> str:
    c = report.counts
    lines = [
        f"# Crosscheck of {report.engine} {report.engine_version}",
        "",
        f"Verdict: **{report.verdict.value}**. Seed: {report.seed}.",
        "",
        *(
            [
                f"**Incomplete**: interrupted by {report.interrupted}; the cases compared "
                "before it, divergences not shrunk (each is in results.jsonl).",
                "",
            ]
            if report.interrupted
            else []
        ),
        "| cases | passed | known only | diverged | engine errors | skipped | excluded | steps | fields compared |",
        "|---|---|---|---|---|---|---|---|---|",
        f"| {report.cases} | {c[Outcome.PASSED]} | {c[Outcome.KNOWN]} | {c[Outcome.DIVERGED]} | "
        f"{c[Outcome.ENGINE_ERROR]} | {c[Outcome.SKIPPED]} | {len(report.excluded)} | "
        f"{report.steps_run} | {report.fields_compared} |",
        "",
        f"Skip rate {report.skip_rate:.1%}; first case compared after "
        + ("-" if report.first_compared_s is None else f"{report.first_compared_s:.2f} s")
        + f"; {len(report.findings)} root causes."
        + (
            f" Actions the rules refuse were sent too: the engine refused "
            f"{report.refusals_probed} of them as it should."
            if report.probe_refusals
            else ""
        ),
        "",
    ]
    if report.known:
        lines += ["Known divergences passed over (cases): "]
        lines += [f"- {k}: {n}" for k, n in sorted(report.known.items())]
        lines += [f"- steps masked (engine could not resync): {report.masked_steps}", ""]
    if report.findings:
        lines += ["## Divergences", ""]
        for i, f in enumerate(report.findings, 1):
            lines += finding_markdown(i, f)
    if report.excluded:
        lines += ["## Outside the engine's declared features (not run)", ""]
        lines += ["| case | lacked feature |", "|---|---|"]
        lines += [f"| `{case}` | {feature} |" for case, feature in report.excluded]
        lines.append("")
    if report.skipped:
        lines += ["## Skipped", "", "| case | reason |", "|---|---|"]
        lines += [f"| `{case}` | {reason} |" for case, reason in report.skipped]
        lines.append("")
    if report.errors:
        lines += ["## Engine errors", "", "| case | error |", "|---|---|"]
        lines += [f"| `{case}` | {err.replace('|', '/')} |" for case, err in report.errors]
        lines.append("")
    return "\n".join(lines)


def write_reports(report: CrosscheckReport, out_dir: Path) -> None:
    from regen_model.conform import jsonout

    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "report.md").write_text(crosscheck_markdown(report), encoding="utf-8")
    jsonout.write(out_dir / "report.json", report.to_json())
