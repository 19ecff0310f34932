"""A self-contained HTML page: a header with the verdict, then blocks, rendered with Jinja2.

A page is data (``Page`` and its blocks); the markup is in ``templates/`` (``page.html.j2``
and the block macros of ``blocks.html.j2``), with the style sheet and the small script
inlined from ``page.css`` and ``page.js``, so the file needs no network: no CDN, no fonts,
no images. Jinja2 escapes every value, so card names and engine messages cannot inject
markup. The script only adds hover highlighting of clause IDs and records what was rendered
(``data-rendered-steps`` on each timeline, ``data-ready`` on the body), which the browser test
reads.
"""

from __future__ import annotations

import datetime
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, ClassVar

from jinja2 import Environment, PackageLoader, StrictUndefined

from regen_model.clauses import catalog
from regen_model.conform.adapter import package_version
from regen_model.html.timeline import Timeline


@dataclass(frozen=True)
class Facts:
    kind: ClassVar[str] = "facts"
    title: str
    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class TimelineBlock:
    kind: ClassVar[str] = "timeline"
    timeline: Timeline


@dataclass(frozen=True)
class HeatCell:
    css: str  # k1..k4 (shortest counterexample: 1, 2, 3, 4+ steps) or none
    text: str
    title: str


@dataclass(frozen=True)
class HeatRow:
    name: str
    killed: bool
    scenarios: str
    cells: tuple[HeatCell, ...]


@dataclass(frozen=True)
class Heatmap:
    kind: ClassVar[str] = "heatmap"
    title: str
    columns: tuple[str, ...]
    rows: tuple[HeatRow, ...]
    note: str = ""


@dataclass(frozen=True)
class CoverageItem:
    id: str
    state: str  # on | off | bad


@dataclass(frozen=True)
class Coverage:
    kind: ClassVar[str] = "coverage"
    title: str
    items: tuple[CoverageItem, ...]
    on_label: str
    off_label: str
    bad_label: str = ""
    note: str = ""

    @property
    def covered(self) -> int:
        return sum(1 for i in self.items if i.state == "on")


@dataclass(frozen=True)
class RowsBlock:
    kind: ClassVar[str] = "rows"
    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    verdict_column: int = -1


Block = Facts | TimelineBlock | Heatmap | Coverage | RowsBlock


@dataclass(frozen=True)
class Page:
    kind: str  # find | explore | check-trace | crosscheck | verify
    title: str
    verdict: str
    subtitle: str = ""
    blocks: tuple[Block, ...] = field(default=())


@cache
def _environment() -> Environment:
    return Environment(
        loader=PackageLoader("regen_model.html", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def _clause_info() -> dict[str, dict[str, Any]]:
    cat = catalog()
    return {cid: {"cite": c.cite, "title": c.title} for cid, c in cat.clauses.items()}


def render(page: Page) -> str:
    """The page as one HTML document."""
    template = _environment().get_template("page.html.j2")
    return template.render(
        page=page,
        clauses=_clause_info(),
        version=package_version(),
        written=datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
    )


def write(path: Path, page: Page) -> None:
    """Write the page to ``path`` (parent directories are created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(page), encoding="utf-8")


def clause_coverage(
    title: str,
    on: AbstractSet[str],
    *,
    bad: AbstractSet[str] = frozenset(),
    on_label: str = "cited by this run",
    off_label: str = "not cited",
    bad_label: str = "",
    note: str = "",
) -> Coverage:
    """Every clause of the catalog, in catalog order, marked ``on``/``bad``/``off``."""
    items = tuple(
        CoverageItem(cid, "bad" if cid in bad else "on" if cid in on else "off")
        for cid in catalog().clauses
    )
    return Coverage(title, items, on_label, off_label, bad_label, note)
