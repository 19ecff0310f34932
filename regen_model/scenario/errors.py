"""The one error type for bad scenario input, printed as one line: ``file:line: field: message``.

Everything a user can get wrong in a scenario file (broken YAML or JSON, a schema violation, a
name that refers to nothing, an engine error the file did not expect) ends as a
``ScenarioError``. The CLI prints ``str(error)`` and exits with ``EXIT_INPUT_ERROR``, so users see
where to look and never a traceback.
"""

from __future__ import annotations


class ScenarioError(Exception):
    """Bad scenario input. ``line`` is 1-based; ``field`` is a path such as
    ``events[3].create-shield.target``. Either may be unknown (``None``)."""

    def __init__(self, file: str, line: int | None, field: str | None, message: str) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.field = field
        self.message = message

    def __str__(self) -> str:
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        if self.field:
            return f"{where}: {self.field}: {self.message}"
        return f"{where}: {self.message}"
