"""Finding invariants: the built-in catalog and users' files under ``proofs/``.

A user adds invariants by writing a Python file (``proofs/my_invariants.py``) with the same
decorators as the built-in catalog; every module-level ``Invariant`` value in it joins the
catalog. Files are imported by path (they need not be on ``sys.path`` or in a package), one
module per file, in name order; files starting with ``_`` are skipped. IDs must be unique
and clause IDs must exist, so a typo is an error naming the file, not a silently empty proof.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path
from types import ModuleType

from regen_model.clauses import catalog as clause_catalog
from regen_model.invariants.spec import Invariant, InvariantError

DEFAULT_USER_DIR = Path("proofs")


def user_paths(given: Sequence[Path] | None) -> list[Path]:
    """The user invariant files to load: those given, else ``./proofs`` if it exists."""
    if given is not None:
        return list(given)
    return [DEFAULT_USER_DIR] if DEFAULT_USER_DIR.is_dir() else []


def from_module(module: ModuleType) -> list[Invariant]:
    """The ``Invariant`` values defined at module level, in definition order."""
    return [v for v in vars(module).values() if isinstance(v, Invariant)]


@cache
def builtin() -> tuple[Invariant, ...]:
    from regen_model.invariants import catalog

    return tuple(from_module(catalog))


def load_file(path: Path) -> list[Invariant]:
    """Import one user file and return its invariants (``origin`` is the file path)."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    spec = importlib.util.spec_from_file_location(f"regen_model_user_{digest}", path)
    if spec is None or spec.loader is None:
        raise InvariantError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except InvariantError as err:
        raise InvariantError(f"{path}: {err}") from None
    found = from_module(module)
    return [Invariant(i.id, i.sentence, i.clauses, i.kind, i.formula, str(path)) for i in found]


def user_files(paths: Iterable[Path]) -> list[Path]:
    """Python files named directly, or found (non-recursively) in the directories named."""
    files: list[Path] = []
    for p in paths:
        if p.is_dir():
            files += sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
        elif p.exists():
            files.append(p)
        else:
            raise InvariantError(f"{p}: no such file or directory")
    return files


def validate(invariants: Sequence[Invariant]) -> None:
    """Unique IDs and known clause IDs."""
    known = clause_catalog()
    seen: dict[str, str] = {}
    for inv in invariants:
        if inv.id in seen:
            raise InvariantError(
                f"invariant ID {inv.id!r} is defined twice ({seen[inv.id]} and {inv.origin})"
            )
        seen[inv.id] = inv.origin
        unknown = [c for c in inv.clauses if c not in known]
        if unknown:
            raise InvariantError(f"{inv.origin}: {inv.id} cites unknown clause(s) {unknown}")


def load(paths: Iterable[Path] = ()) -> tuple[Invariant, ...]:
    """The built-in catalog plus the invariants of the user files under ``paths``."""
    found = list(builtin())
    for f in user_files(paths):
        found += load_file(f)
    validate(found)
    return tuple(found)
