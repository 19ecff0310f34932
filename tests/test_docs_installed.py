"""The documentation ships with the package and every ``--help`` points to it: the wheel holds
``docs/`` as ``regen_model/_docs`` (built here with hatchling, the project's build backend),
``regen-model docs`` lists and prints the pages, and each command's help names its page."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from regen_model.cli import main
from regen_model.cli.docs import COMMAND_PAGES, pages

ROOT = Path(__file__).resolve().parents[1]
DOCS = sorted(p.name for p in (ROOT / "docs").glob("*.md"))


def test_the_wheel_ships_the_docs_and_the_spec(tmp_path: Path) -> None:
    from hatchling.builders.wheel import WheelBuilder

    (wheel,) = WheelBuilder(str(ROOT)).build(directory=str(tmp_path), versions=["standard"])
    names = set(zipfile.ZipFile(wheel).namelist())
    assert DOCS and {f"regen_model/_docs/{d}" for d in DOCS} <= names
    assert "regen_model/_spec/clauses.yaml" in names
    assert "regen_model/schemas/verify.schema.json" in names


def test_docs_lists_and_prints_the_pages(capsys: pytest.CaptureFixture[str]) -> None:
    assert sorted(f"{name}.md" for name in pages()) == DOCS
    assert main(["docs", "--format", "tsv"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    listed = [line.split("\t")[0] for line in rows if line]
    assert listed == [d.removesuffix(".md") for d in DOCS]
    assert main(["docs", "queries"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "queries.md").read_text(encoding="utf-8")
    assert main(["docs", "itf", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()).samefile(ROOT / "docs" / "itf.md")
    assert main(["docs", "no-such-page"]) == 2
    assert "pages: agreement" in capsys.readouterr().err


@pytest.mark.parametrize("command", sorted(COMMAND_PAGES))
def test_each_help_names_its_installed_page(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main([command, "--help"]) == 0
    assert f"Documentation: regen-model docs {COMMAND_PAGES[command]}" in capsys.readouterr().out
    assert COMMAND_PAGES[command] in pages()


def test_the_top_help_says_how_to_read_the_docs(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["--help"]) == 0
    assert "'regen-model docs' lists its pages" in capsys.readouterr().out
