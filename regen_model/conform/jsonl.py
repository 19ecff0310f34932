"""The JSON-lines subprocess protocol: engines in any language, driven over stdin/stdout.

The checker starts the engine's command once and sends one JSON object per line on its
stdin; the engine answers each with exactly one JSON object on one line of stdout (stderr is
free for logging and is quoted when the engine fails). Requests, in the order they come:

    {"op": "hello"}                      -> {"ok": true, "name": "...", "version": "...",
                                             "actions": ["destroy", ...], "editions": ["FDN"],
                                             "supports": true}
    {"op": "supports", "state": START, "actions": [ACTION, ...]}
                                         -> {"ok": true, "supported": true}
                                         or {"ok": true, "supported": false, "reason": "..."}
    {"op": "start", "state": START}      -> {"ok": true}
    {"op": "apply", "action": ACTION, "spec": {"did": [...], "after": OBSERVATION}}
                                         -> {"ok": true}
                                         or {"ok": false, "error": "why it is illegal"}
                                         or {"ok": false, "unsupported": "why it can't"}
    {"op": "observe"}                    -> {"ok": true, "observation": OBSERVATION}
    {"op": "resync", "state": START}     -> {"ok": true} or {"ok": false, "unsupported": "..."}
    {"op": "close"}                      -> {"ok": true}, then the engine exits

START is the JSON of ``start.Start``, ACTION that of ``codec.action_to_json`` (players by
name), OBSERVATION that of ``observe.Observation`` (missing fields are unobserved). In
``hello``, ``actions`` and ``editions`` are optional: scenarios using other action kinds or
editions are skipped (and counted). Also optional in ``hello``: ``"lacks": [FEATURE, ...]``
(names of ``features.vocabulary()``: cases using one are not generated or run),
``"spec_steps": true`` (each ``apply`` then carries ``spec``: what the step did at the
specification's level and the projection it reached, ``adapter.SpecStep``) and ``"resync":
true`` (the engine accepts ``resync`` to the specification's state, a start, after a known
divergence). The ``supports`` request is sent only to engines whose
``hello`` says ``"supports": true``. ``start`` and ``apply`` may answer ``{"ok": false,
"unsupported": "reason"}`` to skip a scenario. Any other ``{"ok": false}`` answer to
``start``, ``observe`` or ``close`` is a failure. The JSON Schema of every message is ``jsonl.schema.json``.

Robustness: each request has a timeout; on a timeout, an exit, a non-JSON line or a reply of
the wrong shape the process is killed and ``EngineFailure`` raised with the reason and the
tail of stderr. The cross-checker then restarts the engine for the next scenario.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from typing import IO, Any

from regen_model.conform.adapter import (
    ActionRejected,
    EngineFailure,
    SpecStep,
    StepUnsupported,
    Unsupported,
)
from regen_model.conform.codec import Players, action_to_json
from regen_model.conform.jsonpos import FieldError
from regen_model.conform.observe import Observation
from regen_model.conform.start import NotExpressible, Start
from regen_model.model.actions import Action
from regen_model.model.state import GameState

DEFAULT_TIMEOUT = 10.0
_STDERR_TAIL = 600


class StartUnsupported(EngineFailure):
    """The engine declined a start with ``{"ok": false, "unsupported": ...}``."""


class JsonlAdapter:
    """An ``EngineAdapter`` for a subprocess speaking the JSON-lines protocol."""

    def __init__(
        self, command: Sequence[str], timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None
    ) -> None:
        if not command:
            raise EngineFailure("empty engine command")
        self.command = list(command)
        self.timeout = timeout
        self.cwd = cwd
        self._proc: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: IO[str] | None = None
        self._hello: dict[str, Any] = {}
        self._players = Players()

    # --- identity and capabilities ------------------------------------------------------------

    @property
    def name(self) -> str:
        self._ensure()
        name = self._hello.get("name")
        return str(name) if name else os.path.basename(self.command[-1])

    @property
    def version(self) -> str:
        self._ensure()
        return str(self._hello.get("version", "unknown"))

    def supports(self, state: GameState, actions: Sequence[Action]) -> Unsupported | None:
        try:
            Start.from_state(state)
        except NotExpressible as exc:
            return Unsupported(f"start not expressible: {exc}")
        self._ensure()
        kinds = self._hello.get("actions")
        if isinstance(kinds, list):
            missing = sorted({a.kind for a in actions} - {str(k) for k in kinds})
            if missing:
                return Unsupported(f"action kinds not supported: {', '.join(missing)}")
        editions = self._hello.get("editions")
        if isinstance(editions, list) and state.edition.value not in editions:
            return Unsupported(f"edition {state.edition.value} not supported")
        if self._hello.get("supports") is True:
            players = Players(state.setup.player_names)
            reply = self._request(
                {
                    "op": "supports",
                    "state": Start.from_state(state).to_json(),
                    "actions": [action_to_json(a, players) for a in actions],
                }
            )
            if reply["ok"] and reply.get("supported") is False:
                return Unsupported(str(reply.get("reason", "not supported")))
        return None

    # --- the protocol ---------------------------------------------------------------------------

    def start(self, state: GameState) -> None:
        try:
            start = Start.from_state(state)
        except NotExpressible as exc:
            raise StartUnsupported(f"start not expressible: {exc}") from None
        self._players = Players(start.players)
        reply = self._request({"op": "start", "state": start.to_json()})
        if reply.get("unsupported"):
            raise StartUnsupported(str(reply["unsupported"]))
        if not reply["ok"]:
            raise EngineFailure(f"start failed: {reply.get('error', 'no error given')}")

    @property
    def lacks(self) -> frozenset[str]:
        self._ensure()
        lacks = self._hello.get("lacks")
        return frozenset(str(f) for f in lacks) if isinstance(lacks, list) else frozenset()

    def apply_step(self, action: Action, spec: SpecStep) -> None:
        """``apply``, with the step-level information when the engine asked for it."""
        self._ensure()
        message: dict[str, Any] = {"op": "apply", "action": action_to_json(action, self._players)}
        if self._hello.get("spec_steps") is True:
            message["spec"] = spec.to_json()
        self._reply_to_apply(self._request(message))

    def resync(self, state: GameState) -> bool:
        self._ensure()
        if self._hello.get("resync") is not True:
            return False
        try:
            start = Start.from_state(state)
        except NotExpressible:
            return False
        reply = self._request({"op": "resync", "state": start.to_json()})
        return bool(reply["ok"])

    def apply(self, action: Action) -> None:
        reply = self._request({"op": "apply", "action": action_to_json(action, self._players)})
        self._reply_to_apply(reply)

    def _reply_to_apply(self, reply: dict[str, Any]) -> None:
        if not reply["ok"] and reply.get("unsupported"):
            raise StepUnsupported(str(reply["unsupported"]))
        if not reply["ok"]:
            raise ActionRejected(str(reply.get("error", "rejected without a reason")))

    def observe(self) -> Observation:
        reply = self._request({"op": "observe"})
        if not reply["ok"]:
            raise EngineFailure(f"observe failed: {reply.get('error', 'no error given')}")
        if "observation" not in reply:
            self._kill()
            raise EngineFailure("observe reply without 'observation'")
        try:
            return Observation.from_json(reply["observation"], "observation")
        except FieldError as exc:
            self._kill()
            raise EngineFailure(f"bad observation: {exc.node.label}: {exc.message}") from None

    def close(self) -> None:
        proc = self._proc
        if proc is None:
            return
        if proc.poll() is None:
            try:
                self._send({"op": "close"})
                proc.wait(timeout=min(self.timeout, 2.0))
            except (EngineFailure, subprocess.TimeoutExpired):
                pass
        self._kill()
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None

    # --- process handling -------------------------------------------------------------------------

    def _ensure(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            return
        if self._proc is not None:
            raise EngineFailure(f"engine has exited (code {self._proc.returncode})")
        # Kept open for the life of the process (closed in ``close``): stderr goes to a file,
        # not a pipe, so a chatty engine can never block on a full pipe.
        self._stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115
        try:
            self._proc = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr,
                text=True,
                encoding="utf-8",
                bufsize=1,
                cwd=self.cwd,
            )
        except OSError as exc:
            raise EngineFailure(f"cannot start {shell_join(self.command)}: {exc}") from None
        stdout = self._proc.stdout
        assert stdout is not None
        self._lines = queue.Queue()
        threading.Thread(target=_pump, args=(stdout, self._lines), daemon=True).start()
        reply = self._request({"op": "hello"})
        if not reply["ok"]:
            raise EngineFailure(f"hello failed: {reply.get('error', 'no error given')}")
        self._hello = reply

    def _send(self, message: dict[str, Any]) -> None:
        proc = self._proc
        assert proc is not None and proc.stdin is not None
        try:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(str(message.get("op"))) from None

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        if message["op"] != "hello":
            self._ensure()
        op = str(message["op"])
        self._send(message)
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._kill()
            raise EngineFailure(
                f"no reply to {op!r} within {self.timeout:g}s: engine killed{self._tail()}"
            ) from None
        if line is None:
            raise self._died(op)
        try:
            reply = json.loads(line)
        except json.JSONDecodeError:
            self._kill()
            raise EngineFailure(
                f"non-JSON reply to {op!r}: {line.strip()[:200]!r}{self._tail()}"
            ) from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            self._kill()
            raise EngineFailure(
                f'reply to {op!r} is not {{"ok": true|false, ...}}: {line.strip()[:200]!r}'
            )
        return reply

    def _died(self, op: str) -> EngineFailure:
        proc = self._proc
        code = proc.wait(timeout=5) if proc is not None else None
        self._kill()
        return EngineFailure(f"engine exited (code {code}) during {op!r}{self._tail()}")

    def _tail(self) -> str:
        if self._stderr is None:
            return ""
        try:
            self._stderr.flush()
            self._stderr.seek(0)
            text = self._stderr.read()
        except (OSError, ValueError):
            return ""
        text = text.strip()
        return f"; stderr: ...{text[-_STDERR_TAIL:]}" if text else ""

    def _kill(self) -> None:
        proc = self._proc
        if proc is not None and proc.poll() is None:
            proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
        # Only stdin is closed here: the reader thread owns stdout and ends at end of file.
        if proc is not None and proc.stdin is not None:
            with contextlib.suppress(OSError):
                proc.stdin.close()


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    """Reader thread: stdout lines into the queue, ``None`` at end of file."""
    try:
        for line in stream:
            lines.put(line)
    except (OSError, ValueError):
        pass
    lines.put(None)


def shell_join(command: Sequence[str]) -> str:
    return shlex.join(command)
