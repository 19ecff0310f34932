"""The ``--html`` pages, rendered in a real headless browser (Debian's chromium).

Each page kind is written by its command (``find``, ``explore``, ``check-trace`` passing and
failing, ``crosscheck``, ``verify``) and loaded by ``chromium --headless --dump-dom``: the page
must run its script (``data-ready``), and every timeline must show every step of its run, in
every row (``data-rendered-steps``, ``data-complete``, counted by the page in the browser and
again here on the DOM the browser produced). The pages are self-contained: no ``src`` or
``href`` to anything, no stylesheet or script from elsewhere.

chromium is installed by ``.ci/run``; on a machine without it these tests are skipped with
that reason, except under CI (``CI`` set), where its absence is a failure.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from typer.testing import CliRunner

from regen_model.cli import _register_all, app
from regen_model.conform.case import Case, to_trace
from regen_model.conform.start import Start
from regen_model.html import render
from regen_model.html.pages import verify_page
from regen_model.model import actions as A
from regen_model.model.build import CardSpec
from regen_model.model.cards import PERMANENT_CARDS
from regen_model.model.enums import Rider
from regen_model.model.state import Shield
from regen_model.mutants.matrix import Kill, Matrix, Route, RulesResult
from regen_model.mutants.report import verify_rows
from regen_model.verdicts import Verdict
from regen_model.verify import SECTIONS, Row

REPO = Path(__file__).resolve().parents[2]
QUINT = REPO / "examples" / "quint"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)


@pytest.fixture(scope="module")
def chromium() -> str:
    found = shutil.which("chromium") or (
        "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
    )
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("chromium is not installed, and CI must run the browser tests (.ci/run)")
        pytest.skip("chromium is not installed here (apt-get install chromium); CI installs it")
    return found


class Dom(HTMLParser):
    """The tags of the rendered DOM with their attributes, and the timeline cells per row."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str]]] = []
        self.rows: list[list[int]] = []  # per timeline: the cells of each body row
        self._in_body = False
        self.feed(text)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.tags.append((tag, a))
        if tag == "table" and "timeline" in a.get("class", ""):
            self.rows.append([])
        elif tag == "tbody":
            self._in_body = True
        elif tag == "tr" and self._in_body and self.rows:
            self.rows[-1].append(0)
        elif tag == "td" and self._in_body and self.rows and "data-step" in a:
            self.rows[-1][-1] += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "tbody":
            self._in_body = False

    def find(self, tag: str, css: str = "") -> list[dict[str, str]]:
        return [
            a for t, a in self.tags if t == tag and (not css or css in a.get("class", "").split())
        ]


def browse(browser: str, page: Path, tmp_path: Path) -> Dom:
    """The DOM after chromium loaded the page and ran its script."""
    profile = tmp_path / f"profile-{page.stem}"
    done = subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.resolve().as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return Dom(done.stdout)


def assert_rendered(dom: Dom, kind: str, steps: list[int]) -> None:
    """The page ran, and its timelines (one per run, in order) show every step."""
    (body,) = dom.find("body")
    assert body["data-kind"] == kind
    assert body.get("data-ready") == "yes", "the page's script did not run"
    tables = dom.find("table", "timeline")
    assert [int(t["data-rendered-steps"]) for t in tables] == [n + 1 for n in steps]
    assert all(t["data-complete"] == "yes" for t in tables)
    for cells, n in zip(dom.rows, steps, strict=True):
        assert cells and all(c == n + 1 for c in cells), cells
    for tag, attrs in dom.tags:
        assert "src" not in attrs and "href" not in attrs, (tag, attrs)
        assert tag != "link", attrs


def troll_with_shield(origin: str) -> Start:
    shield = Shield(origin, 0, Rider.NONE)
    return Start(
        ("A", "B"), (CardSpec("troll", PERMANENT_CARDS["Horned Troll"], 0, shields=(shield,)),)
    )


def trace_file(tmp_path: Path, start: Start, *actions: A.Action, edit: bool = False) -> Path:
    """The reference run as an ITF trace; with ``edit``, the troll is left untapped in the
    last state (a log of an engine that forgot to tap a regenerated permanent)."""
    data = to_trace(Case("t", start, actions))
    if edit:
        for _, rec in data["states"][-1]["cards"]["#map"]:
            rec["tapped"] = False
    path = tmp_path / f"t{len(list(tmp_path.glob('t*.itf.json')))}.itf.json"
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    return path


def invoke(*args: str) -> int:
    _register_all()
    return CliRunner().invoke(app, list(args)).exit_code


def test_find_page(chromium: str, tmp_path: Path) -> None:
    page = tmp_path / "find.html"
    out = tmp_path / "found.itf.json"
    assert (
        invoke(
            "find",
            "--example",
            "shield-left-after-regeneration",
            "-o",
            str(out),
            "--html",
            str(page),
        )
        == 0
    )
    steps = len(json.loads(out.read_text(encoding="utf-8"))["states"]) - 1
    dom = browse(chromium, page, tmp_path)
    assert_rendered(dom, "find", [steps])
    assert dom.find("span", "verdict")


def test_explore_page(chromium: str, tmp_path: Path) -> None:
    page = tmp_path / "explore.html"
    code = invoke(
        "explore", "-m", "regen-does-not-tap", "--continue", "-d", "2", "--html", str(page)
    )
    assert code == 1
    text = page.read_text(encoding="utf-8")
    assert "Counterexample to inv.regen.same-object" in text
    dom = browse(chromium, page, tmp_path)
    tables = dom.find("table", "timeline")
    assert tables and all(t["data-complete"] == "yes" for t in tables)
    assert_rendered(dom, "explore", [int(t["data-steps"]) for t in tables])


def test_check_trace_pages_passing_and_failing(chromium: str, tmp_path: Path) -> None:
    passed = tmp_path / "passed.html"
    itf = QUINT / "regen.itf.json"
    assert (
        invoke(
            "check-trace", str(itf), "--map", str(QUINT / "regen.map.yaml"), "--html", str(passed)
        )
        == 0
    )
    n = len(json.loads(itf.read_text(encoding="utf-8"))["states"]) - 1
    assert_rendered(browse(chromium, passed, tmp_path), "check-trace", [n])

    start = troll_with_shield("Death Ward")
    log = trace_file(
        tmp_path, start, A.CreateShield(target="troll"), A.Destroy(targets=("troll",)), edit=True
    )
    failed = tmp_path / "failed.html"
    assert invoke("check-trace", str(log), "--html", str(failed)) == 1
    dom = browse(chromium, failed, tmp_path)
    assert_rendered(dom, "check-trace", [2])  # the matched step, then the failing one
    assert dom.find("th", "s-failed") and dom.find("td", "diverged")
    assert "expected" in failed.read_text(encoding="utf-8")


def test_crosscheck_page(chromium: str, tmp_path: Path) -> None:
    start = troll_with_shield("Regenerate")
    saved = trace_file(
        tmp_path, start, A.CreateShield(target="troll"), A.Destroy(targets=("troll",))
    )
    page = tmp_path / "crosscheck.html"
    code = invoke(
        "crosscheck",
        "--engine",
        "reference:regen-does-not-tap",
        "--case",
        str(saved),
        "--no-scenarios",
        "--no-witnesses",
        "--no-cover",
        "--random",
        "0",
        "--seed",
        "1",
        "--html",
        str(page),
    )
    assert code == 6
    dom = browse(chromium, page, tmp_path)
    assert_rendered(dom, "crosscheck", [1])  # shrunk to the destruction alone
    assert dom.find("td", "diverged")


def _matrix() -> Matrix:
    """A small matrix: two mutants, three invariants, one invariant no mutant breaks."""
    kill = Kill("inv.a", Route.EXPLORE, 1, "basic")
    return Matrix(
        invariants=("inv.a", "inv.b", "inv.c"),
        baseline=RulesResult("correct", (), (), 10, 0.1),
        rows=(
            RulesResult("m1", (kill, Kill("inv.b", Route.PROOF, 3, "induction")), (), 12, 0.2),
            RulesResult("m2", (), (), 9, 0.1),
        ),
        excluded_scenarios=(),
        routes=("explore",),
        battery=("basic",),
        seconds=0.4,
    )


def test_verify_page_with_the_heat_map_and_coverage(chromium: str, tmp_path: Path) -> None:
    mutants = next(s for s in SECTIONS if s.name == "mutants")
    cover = next(s for s in SECTIONS if s.name == "cover")
    cover_rows = [
        Row("regen.shield.create", Verdict.PROVED, 0.1, (("kind", "clause"),)),
        Row("regen.static", Verdict.VACUOUS, 0.1, (("kind", "clause"),), "never fires"),
    ]
    rows = verify_rows(_matrix())
    page = tmp_path / "verify.html"
    page.write_text(
        render(verify_page([(mutants, rows, 0.4), (cover, cover_rows, 0.2)], Verdict.FAILED)),
        encoding="utf-8",
    )
    dom = browse(chromium, page, tmp_path)
    assert_rendered(dom, "verify", [])
    (heat,) = dom.find("table", "heat")
    assert (heat["data-mutants"], heat["data-invariants"]) == ("2", "3")
    assert len(dom.find("td", "k1")) == 1 and len(dom.find("td", "k3")) == 1
    assert len(dom.find("th", "survivor")) == 1  # m2: nothing catches it
    (coverage,) = dom.find("div", "coverage")
    assert coverage["data-covered"] == "1"
    assert len(dom.find("span", "bad")) == 1

    examples = tmp_path / "examples.html"
    assert invoke("verify", "--section", "examples", "--html", str(examples)) == 0
    assert_rendered(browse(chromium, examples, tmp_path), "verify", [])


def test_page_values_are_escaped(tmp_path: Path) -> None:
    """A card or engine name is text, never markup (Jinja2 escapes every value)."""
    matrix = _matrix()
    evil = Matrix(
        matrix.invariants,
        matrix.baseline,
        (RulesResult("<script>alert(1)</script>", (), (), 1, 0.0),),
        (),
        (),
        (),
        0.0,
    )
    section = next(s for s in SECTIONS if s.name == "mutants")
    text = render(verify_page([(section, verify_rows(evil), 0.0)], Verdict.FAILED))
    assert "<script>alert(1)" not in text and "&lt;script&gt;alert(1)" in text
    assert len(re.findall(r"<script>", text)) == 1  # the page's own script only
