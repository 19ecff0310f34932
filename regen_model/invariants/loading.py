"""Finding invariants: the built-in catalog and users' files.

A user adds invariants by writing a Python file (``proofs/my_invariants.py``) with the same
decorators as the built-in catalog; every module-level ``Invariant`` value in it joins the
catalog. Files are imported by path (they need not be on ``sys.path`` or in a package), one
module per file, in name order; files starting with ``_`` are skipped. IDs must be unique
and clause IDs must exist, so a typo is an error naming the file, not a silently empty proof.

Importing a file runs its code, so nothing is imported unless the user names it
(``--invariants-from PATH``): a ``proofs/`` folder in the current directory is *not* read by
itself, since ``verify`` in a checkout someone else wrote would otherwise run their code. A
file that fails to import in any way (a syntax error, a missing import, any exception, a call
to ``sys.exit``, an import that takes longer than ``IMPORT_TIMEOUT`` seconds, a formula nested
deeper than ``MAX_FORMULA_DEPTH``) is an ``InvariantError`` naming the file and line, which
the commands report as bad input (exit 2).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.util
import signal
import threading
import traceback
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from types import FrameType, ModuleType

from regen_model.clauses import catalog as clause_catalog
from regen_model.invariants import expr as E
from regen_model.invariants.spec import Invariant, InvariantError

DEFAULT_USER_DIR = Path("proofs")  # the conventional folder, read only when named
IMPORT_TIMEOUT = 30.0  # seconds to import one user file
MAX_FORMULA_DEPTH = 128  # nesting of a formula: later stages walk it recursively


def user_paths(given: Sequence[Path] | None) -> list[Path]:
    """The user invariant files to load: exactly those named (never ``./proofs`` unasked)."""
    return list(given or ())


def from_module(module: ModuleType) -> list[Invariant]:
    """The ``Invariant`` values defined at module level, in definition order."""
    return [v for v in vars(module).values() if isinstance(v, Invariant)]


@cache
def builtin() -> tuple[Invariant, ...]:
    from regen_model.invariants import catalog

    return tuple(from_module(catalog))


def load_file(path: Path) -> list[Invariant]:
    """Import one user file and return its invariants (``origin`` is the file path).

    Any failure of the import becomes an ``InvariantError`` "FILE:LINE: what went wrong"."""
    digest = hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:10]
    spec = importlib.util.spec_from_file_location(f"regen_model_user_{digest}", path)
    if spec is None or spec.loader is None:
        raise InvariantError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        with _time_limit(IMPORT_TIMEOUT):
            spec.loader.exec_module(module)
    except _TimedOut:
        raise InvariantError(
            f"{path}: importing it took longer than {IMPORT_TIMEOUT:g} s (a loop at import time?)"
        ) from None
    except InvariantError as err:
        raise InvariantError(f"{_where(path, err)}: {err}") from None
    except SyntaxError as err:
        line = f":{err.lineno}" if err.lineno else ""
        raise InvariantError(f"{path}{line}: syntax error: {err.msg}") from None
    except SystemExit as err:
        raise InvariantError(
            f"{_where(path, err)}: the file called sys.exit({err.code!r}) while being imported"
        ) from None
    except Exception as err:
        raise InvariantError(
            f"{_where(path, err)}: importing it raised {type(err).__name__}: {err}"
        ) from None
    found = from_module(module)
    for inv in found:
        if _depth(inv.formula) > MAX_FORMULA_DEPTH:
            raise InvariantError(
                f"{path}: {inv.id}: the formula is nested more than {MAX_FORMULA_DEPTH} levels deep"
            )
    return [Invariant(i.id, i.sentence, i.clauses, i.kind, i.formula, str(path)) for i in found]


def _where(path: Path, err: BaseException) -> str:
    """``path:line`` of the innermost frame of ``err``'s traceback inside the file, if any."""
    target = str(path.resolve())
    line = None
    for frame in traceback.extract_tb(err.__traceback__):
        with contextlib.suppress(OSError):
            if str(Path(frame.filename).resolve()) == target:
                line = frame.lineno
    return f"{path}:{line}" if line else str(path)


class _TimedOut(BaseException):
    """Raised in the importing thread when ``IMPORT_TIMEOUT`` passes (not an ``Exception``,
    so that a user's ``except Exception`` cannot swallow it)."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (POSIX main thread: SIGALRM; else no limit)."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return

    def expire(signum: int, frame: FrameType | None) -> None:
        raise _TimedOut

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _depth(formula: E.Expr) -> int:
    """The nesting depth of a formula, computed without recursion."""
    deepest = 0
    stack = [(formula, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        if depth <= MAX_FORMULA_DEPTH:
            stack.extend((child, depth + 1) for child in node.children())
    return deepest


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
