"""Turning our card descriptions into phase.rs card faces, and faces into loaded engines.

Building a face (``phase.build_oracle_face``) runs phase.rs's Oracle-text parser, which takes a
millisecond or two per card; loading an engine from a ``card-data.json`` takes a few. So faces
are built once per process and kept, and an engine is kept per set of card names. The JSON
file is written to a cache directory (never into the package) because that is the file phase.rs
loads, and because a person debugging a divergence wants to read exactly what phase.rs read.

Each face is checked after building: clauses the parser left ``Unimplemented`` and keywords or
power/toughness that did not come through are recorded in a ``CardStatus``. A card with such
problems is still usable (that is how the parser's gaps show up as divergences), but the
problems are reported, and ``CardStatus.complete`` says whether there were any.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import phase

from regen_model.adapters.phase.carddata import PhaseCard

CACHE_ENV = "REGEN_MODEL_CACHE_DIR"


@dataclass(frozen=True)
class CardStatus:
    """What phase.rs made of one card. ``error`` is set when no face could be built at all."""

    name: str
    unimplemented: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    error: str | None = None

    @property
    def built(self) -> bool:
        return self.error is None

    @property
    def complete(self) -> bool:
        return self.error is None and not self.unimplemented and not self.problems

    def describe(self) -> str:
        if self.error is not None:
            return f"{self.name}: not built ({self.error})"
        parts = [f"unimplemented: {u!r}" for u in self.unimplemented] + list(self.problems)
        return f"{self.name}: " + ("; ".join(parts) if parts else "ok")


def default_cache_dir() -> Path:
    """``$REGEN_MODEL_CACHE_DIR``, else ``$XDG_CACHE_HOME/regen-model``, else
    ``~/.cache/regen-model``; a temporary directory when none of them is writable."""
    env = os.environ.get(CACHE_ENV)
    if env:
        base = Path(env)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "regen-model"
    try:
        base.mkdir(parents=True, exist_ok=True)
        probe = base / ".write-probe"
        probe.write_text("")
        probe.unlink()
    except OSError:
        base = Path(tempfile.gettempdir()) / "regen-model"
        base.mkdir(parents=True, exist_ok=True)
    return base


class CardDatabase:
    """Built faces, their statuses, and loaded engines, for one process."""

    def __init__(self, cache_dir: Path | None = None) -> None:
        self._cache_dir = cache_dir
        self._faces: dict[str, Any] = {}
        self._status: dict[str, CardStatus] = {}
        self._engines: dict[frozenset[str], tuple[phase.Engine, Path]] = {}

    @property
    def cache_dir(self) -> Path:
        if self._cache_dir is None:
            self._cache_dir = default_cache_dir()
        return self._cache_dir

    def build(self, card: PhaseCard) -> CardStatus:
        """Build (once) the face of ``card`` and return what phase.rs made of it."""
        known = self._status.get(card.name)
        if known is not None:
            return known
        try:
            face = phase.build_oracle_face(card.mtgjson(), None)
        except (ValueError, TypeError) as exc:
            status = CardStatus(card.name, error=str(exc))
        else:
            self._faces[card.name] = face
            status = _check(card, face)
        self._status[card.name] = status
        return status

    def status(self, name: str) -> CardStatus | None:
        """The status of a card built earlier, or ``None`` if it was never built."""
        return self._status.get(name)

    def engine(self, cards: Iterable[PhaseCard]) -> tuple[phase.Engine, Path]:
        """A phase.rs engine that knows exactly these cards, and its card-data.json."""
        wanted = {c.name: c for c in cards}
        for card in wanted.values():
            status = self.build(card)
            if not status.built:
                raise ValueError(f"phase.rs could not build {status.describe()}")
        key = frozenset(wanted)
        cached = self._engines.get(key)
        if cached is not None:
            return cached
        data = {name.lower(): self._faces[name] for name in sorted(wanted)}
        text = json.dumps(data, sort_keys=True)
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        folder = self.cache_dir / f"phase-{phase_version()}"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"card-data-{digest}.json"
        if not path.exists():
            tmp = path.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(text)
            tmp.replace(path)  # atomic: parallel test workers may write the same file
        loaded = (phase.Engine.from_path(path), path)
        self._engines[key] = loaded
        return loaded


def phase_version() -> str:
    """The installed phase-python version (the wheel pins one phase.rs commit)."""
    from importlib.metadata import version

    return version("phase-python")


def _check(card: PhaseCard, face: Any) -> CardStatus:
    unimplemented: list[str] = []
    _walk_unimplemented(face, unimplemented)
    problems = []
    got = {k for k in face.get("keywords", []) if isinstance(k, str)}
    missing = sorted(card.phase_keywords - got)
    if missing:
        problems.append(f"keywords not parsed: {missing}")
    if not card.type_line.split(" — ")[0].endswith(("Instant", "Sorcery")):
        # A permanent's sentence read as a spell's effect does nothing on the battlefield
        # (phase.rs 0.103 reads Excruciator's static ability so: divergence PH-23).
        unimplemented.extend(
            f"parsed as a spell ability: {a.get('effect', {}).get('type')}"
            for a in face.get("abilities") or ()
            if a.get("kind") == "Spell"
        )
    for field, want in (("power", card.power), ("toughness", card.toughness)):
        value = (face.get(field) or {}).get("value")
        if want is not None and value != want:
            problems.append(f"{field} {value!r}, expected {want}")
    return CardStatus(card.name, tuple(unimplemented), tuple(problems))


def _walk_unimplemented(node: Any, out: list[str]) -> None:
    if isinstance(node, dict):
        if node.get("type") == "Unimplemented":
            out.append(str(node.get("description") or node.get("name")))
        for value in node.values():
            _walk_unimplemented(value, out)
    elif isinstance(node, list):
        for value in node:
            _walk_unimplemented(value, out)
