"""A disk cache for the case sources that do not depend on the engine under test.

The clause witnesses (a random search, shrunk) and the Z3 cover check's witnesses cost seconds
to a minute to find and are the same for every engine and every run of one version of the
model, so ``crosscheck`` keeps them on disk and the next run starts comparing at once. The key
is a fingerprint of what decides them: the package version, the clause catalog and the source
of the package itself (a changed rule or generator gives a new key, so a stale entry is never
read; old entries are simply left behind). Entries are lists of cases stored as ITF traces,
written atomically; an unreadable entry is recomputed. Processes that want the same missing
entry at once compute it once: a lock file beside the entry (``fcntl``) makes the others wait
and read what the first wrote.

Where: ``$REGEN_MODEL_CACHE`` if set, else ``$XDG_CACHE_HOME/regen-model``, else
``~/.cache/regen-model``. ``REGEN_MODEL_CACHE=off`` turns the cache off.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

from regen_model.conform.adapter import package_version
from regen_model.conform.case import Case, case_from_trace, to_trace
from regen_model.conform.itf import parse_trace
from regen_model.conform.jsonpos import FormatError

PACKAGE = Path(__file__).resolve().parent.parent


def cache_dir() -> Path | None:
    """The cache directory, or ``None`` when the cache is off."""
    configured = os.environ.get("REGEN_MODEL_CACHE")
    if configured == "off":
        return None
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "regen-model"


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """Package version, clause catalog and package source, hashed (computed once: the files of
    an installed package do not change under a running process)."""
    digest = hashlib.sha256(package_version().encode())
    files = sorted(PACKAGE.rglob("*.py")) + sorted(PACKAGE.rglob("clauses.yaml"))
    spec = PACKAGE.parent / "spec" / "clauses.yaml"
    if spec.is_file():
        files.append(spec)
    for path in files:
        digest.update(str(path.relative_to(PACKAGE.parent)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def cached_cases(name: str, compute: Callable[[], list[Case]]) -> list[Case]:
    """``compute()``, or its result from an earlier run of the same fingerprint. Processes
    that want the same missing entry at once (a test run's workers, two crosschecks side by
    side) compute it once: the first holds a lock while it computes and writes, the others
    wait for it and then read the entry."""
    folder = cache_dir()
    if folder is None:
        return compute()
    path = folder / f"{name}-{fingerprint()}.json"
    found = _read(path)
    if found is not None:
        return found
    with _computing(folder, path):
        found = _read(path)  # written by the process that held the lock before us
        if found is not None:
            return found
        cases = compute()
        with contextlib.suppress(OSError):
            data = json.dumps([to_trace(c) for c in cases])
            fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
            with os.fdopen(fd, "w", encoding="utf-8") as out:
                out.write(data)
            os.replace(tmp, path)
    return cases


def _read(path: Path) -> list[Case] | None:
    """The cases of the entry at ``path``; ``None`` when it is missing or unreadable."""
    if not path.is_file():
        return None
    with contextlib.suppress(OSError, ValueError, FormatError, KeyError, TypeError):
        traces = json.loads(path.read_text(encoding="utf-8"))
        found = []
        for t in traces:
            trace = parse_trace(json.dumps(t), str(path))
            origin = str(trace.meta.get("origin", ""))
            found.append(replace(case_from_trace(trace), origin=origin))
        return found
    return None


@contextlib.contextmanager
def _computing(folder: Path, path: Path) -> Iterator[None]:
    """An exclusive lock on ``path``'s entry while it is computed (``fcntl``; where there is
    none, or the folder cannot be written, no lock: each process computes, as before)."""
    try:
        import fcntl

        folder.mkdir(parents=True, exist_ok=True)
        handle = open(path.with_suffix(".lock"), "a")  # noqa: SIM115 - held across the yield
    except (ImportError, OSError):
        yield
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


__all__ = ["cache_dir", "cached_cases", "fingerprint"]
