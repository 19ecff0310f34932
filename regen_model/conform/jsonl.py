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

Robustness: an engine is a program we do not control, so every exchange with it is bounded.
Each request has a deadline (``timeout``) covering both writing the request (an engine that
never reads its stdin cannot block the checker: the pipe is non-blocking and the write waits
for room only until the deadline) and reading the reply; a reply line is at most ``MAX_REPLY_BYTES`` (an engine writing without newlines
cannot grow our memory) and must be UTF-8 JSON within ``regen_model.limits``; a line nobody
asked for is an error. On any of these, an exit, a closed stdout or a reply of the wrong shape,
the engine's whole process group is killed (children of a forking engine too) and
``EngineFailure`` is raised at once with the reason and the tail of the engine's stderr, which
is drained continuously and only its last ``STDERR_TAIL`` bytes kept. The cross-checker then
restarts the engine for the next scenario.
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import threading
import time
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
from regen_model.limits import InputRejected, load_json
from regen_model.model.actions import Action
from regen_model.model.state import GameState

DEFAULT_TIMEOUT = 10.0
MAX_REPLY_BYTES = 4 << 20
STDERR_TAIL = 600  # bytes of stderr quoted in an error
_CHUNK = 1 << 16
_CLOSE_WAIT = 2.0  # seconds an engine gets to exit after "close"
_EXIT_WAIT = 0.5  # seconds to collect an exit code once stdout has closed
_NAME_LENGTH = 80
_MOST_LINES = 64  # lines read ahead of the checker: more is a flood, cut like a long line


class StartUnsupported(EngineFailure):
    """The engine declined a start with ``{"ok": false, "unsupported": ...}``."""


class _Overflow:
    """What the reader thread queues when a line exceeds ``MAX_REPLY_BYTES``."""


_OVERFLOW = _Overflow()
_Line = bytes | _Overflow | None  # a line, a line too long, or end of file


class _Process:
    """One run of the engine's command: the child, its three pipes and the threads that
    serve them, so that no call on the engine ever blocks for longer than a deadline."""

    def __init__(self, command: Sequence[str], cwd: str | None) -> None:
        posix = os.name == "posix"
        self.proc = subprocess.Popen(
            list(command),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=cwd,
            start_new_session=posix,  # its own process group, killed as a whole
        )
        assert self.proc.stdin and self.proc.stdout and self.proc.stderr
        self.group = self.proc.pid if posix else None
        self.lines: queue.Queue[_Line] = queue.Queue()
        self._stdin = self.proc.stdin.fileno()
        if posix:  # writes never block: ``send`` waits for room with a deadline
            os.set_blocking(self._stdin, False)
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        threading.Thread(target=self._read_stdout, args=(self.proc.stdout,), daemon=True).start()
        self._stderr_thread = threading.Thread(
            target=self._drain_stderr, args=(self.proc.stderr,), daemon=True
        )
        self._stderr_thread.start()

    # --- threads -------------------------------------------------------------------------------

    def _read_stdout(self, stream: IO[bytes]) -> None:
        """Split stdout into lines of at most ``MAX_REPLY_BYTES``; ``None`` at end of file."""
        buf = bytearray()
        fd = stream.fileno()
        try:
            while chunk := os.read(fd, _CHUNK):
                buf += chunk
                while (end := buf.find(b"\n")) >= 0:
                    if end > MAX_REPLY_BYTES:
                        break
                    self.lines.put(bytes(buf[:end]))
                    del buf[: end + 1]
                if len(buf) > MAX_REPLY_BYTES or self.lines.qsize() > _MOST_LINES:
                    self.lines.put(_OVERFLOW)  # stop reading: the engine is killed anyway
                    break
            else:
                self.lines.put(None)
        except OSError:
            self.lines.put(None)
        finally:
            stream.close()

    def _drain_stderr(self, stream: IO[bytes]) -> None:
        """Read stderr as it comes (so a chatty engine never blocks), keeping only its tail."""
        fd = stream.fileno()
        try:
            while chunk := os.read(fd, _CHUNK):
                with self._tail_lock:
                    self._tail += chunk
                    del self._tail[: -STDERR_TAIL * 4]
        except OSError:
            pass
        finally:
            stream.close()

    # --- used by the adapter ---------------------------------------------------------------------

    def send(self, data: bytes, deadline: float) -> bool:
        """Write ``data`` to the engine's stdin by ``deadline`` (``time.monotonic``); False if
        the engine did not read enough of it in time. ``OSError`` if its stdin is closed.

        On POSIX the pipe is non-blocking and ``select`` waits for room, so an engine that
        never reads cannot block the checker (elsewhere the write blocks; the platforms we
        support are POSIX)."""
        view = memoryview(data)
        while view:
            try:
                view = view[os.write(self._stdin, view) :]
            except BlockingIOError:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                select.select([], [self._stdin], [], remaining)
        return True

    def tail(self) -> str:
        with self._tail_lock:
            text = self._tail.decode("utf-8", errors="replace")
        text = text.strip()
        return f"; stderr: ...{text[-STDERR_TAIL:]}" if text else ""

    def exit_code(self, wait: float) -> int | None:
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the engine and anything it started in its process group."""
        if self.group is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.group, signal.SIGKILL)
        elif self.proc.poll() is None:
            self.proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=5)
        # What it wrote to stderr before it died is read to the end (the pipe closes with it;
        # a child that escaped its group could hold it open, hence the bound).
        self._stderr_thread.join(timeout=_EXIT_WAIT)
        # stdout and stderr are closed by their reader threads at end of file (closing them
        # here, under a thread blocked in ``os.read``, could let it read a reused descriptor).
        with contextlib.suppress(OSError, ValueError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()


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
        self._process: _Process | None = None
        self._exited: int | None = None  # set once the engine is gone
        self._hello: dict[str, Any] = {}
        self._players = Players()

    # --- identity and capabilities ------------------------------------------------------------

    @property
    def name(self) -> str:
        self._ensure()
        return _one_line(self._hello.get("name")) or os.path.basename(self.command[-1])

    @property
    def version(self) -> str:
        self._ensure()
        return _one_line(self._hello.get("version")) or "unknown"

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
            raise StartUnsupported(_text(reply["unsupported"]))
        if not reply["ok"]:
            raise self._fail(f"start failed: {_text(reply.get('error', 'no error given'))}")

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
            raise StepUnsupported(_text(reply["unsupported"]))
        if not reply["ok"]:
            raise ActionRejected(_text(reply.get("error", "rejected without a reason")))

    def observe(self) -> Observation:
        reply = self._request({"op": "observe"})
        if not reply["ok"]:
            raise self._fail(f"observe failed: {_text(reply.get('error', 'no error given'))}")
        if "observation" not in reply:
            raise self._fail("observe reply without 'observation'")
        try:
            return Observation.from_json(reply["observation"], "observation")
        except FieldError as exc:
            raise self._fail(f"bad observation: {exc.node.label}: {exc.message}") from None

    def close(self) -> None:
        process = self._process
        if process is None:
            return
        self._process = None
        if process.proc.poll() is None:
            wait = min(self.timeout, _CLOSE_WAIT)
            with contextlib.suppress(OSError):
                if process.send(_encode({"op": "close"}), time.monotonic() + wait):
                    process.exit_code(wait)
        process.kill()

    # --- process handling -------------------------------------------------------------------------

    def _ensure(self) -> None:
        if self._process is not None:
            return
        if self._exited is not None:
            raise EngineFailure(f"engine has exited (code {self._exited})")
        try:
            self._process = _Process(self.command, self.cwd)
        except OSError as exc:
            raise EngineFailure(f"cannot start {shell_join(self.command)}: {exc}") from None
        reply = self._request({"op": "hello"})
        if not reply["ok"]:
            raise self._fail(f"hello failed: {_text(reply.get('error', 'no error given'))}")
        self._hello = reply

    def _request(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send one request and read its one-line reply, all within ``timeout``."""
        if message["op"] != "hello":
            self._ensure()
        process = self._process
        assert process is not None
        op = str(message["op"])
        try:
            stray = process.lines.get_nowait()
        except queue.Empty:
            stray = None
        else:
            if stray is None:
                raise self._gone(op)
            raise self._fail(f"the engine wrote a line nobody asked for before {op!r}")
        deadline = time.monotonic() + self.timeout
        try:
            written = process.send(_encode(message), deadline)
        except OSError:  # its stdin is closed: it exited, or will say why on stdout
            written = True
        if not written:
            raise self._fail(
                f"the engine did not read the {op!r} request within {self.timeout:g}s: "
                "engine killed"
            )
        try:
            line = process.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise self._fail(
                f"no reply to {op!r} within {self.timeout:g}s: engine killed"
            ) from None
        if line is None:
            raise self._gone(op)
        if isinstance(line, _Overflow):
            raise self._fail(
                f"the reply to {op!r} is longer than {MAX_REPLY_BYTES} bytes (or a flood of "
                f"over {_MOST_LINES} lines)"
            )
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise self._fail(f"the reply to {op!r} is not UTF-8 text ({exc.reason})") from None
        try:
            reply = load_json(text)
        except json.JSONDecodeError:
            raise self._fail(f"non-JSON reply to {op!r}: {text.strip()[:200]!r}") from None
        except InputRejected as exc:
            raise self._fail(f"the reply to {op!r} is refused: {exc.message}") from None
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            raise self._fail(
                f'reply to {op!r} is not {{"ok": true|false, ...}}: {text.strip()[:200]!r}'
            )
        return reply

    def _gone(self, op: str) -> EngineFailure:
        """The engine's stdout ended: it exited, or closed its stdout while running."""
        process = self._process
        assert process is not None
        code = process.exit_code(_EXIT_WAIT)
        if code is None:
            return self._fail(f"the engine closed its stdout during {op!r}: engine killed")
        return self._fail(f"engine exited (code {code}) during {op!r}")

    def _fail(self, reason: str) -> EngineFailure:
        """Kill the engine (its whole process group) and word the failure with its stderr."""
        process = self._process
        if process is None:
            return EngineFailure(reason)
        self._process = None
        process.kill()
        code = process.proc.returncode
        self._exited = -signal.SIGKILL if code is None else code
        return EngineFailure(f"{reason}{process.tail()}")


def _encode(message: dict[str, Any]) -> bytes:
    return (json.dumps(message) + "\n").encode("utf-8")


def _text(value: object, most: int = 500) -> str:
    """An engine's words (an error, a reason) as one line of bounded length."""
    text = " ".join(str(value).split())
    return text if len(text) <= most else text[: most - 3] + "..."


def _one_line(value: object) -> str:
    """A name or version the engine gave, safe to print: one line, no control characters."""
    if value is None or value == "":
        return ""
    text = "".join(ch if ch.isprintable() else " " for ch in str(value))
    return _text(text, _NAME_LENGTH)


def shell_join(command: Sequence[str]) -> str:
    return shlex.join(command)
