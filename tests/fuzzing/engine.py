"""The fuzz engine: a JSON-lines engine that replays canned replies, one of them replaced.

    python -S engine.py SCRIPT.json

SCRIPT (``inputs.engine_script``) holds the reference engine's replies to the fuzz game,
request by request, and the bytes that replace the reply to the ``nth`` request of kind
``op``. The bytes are written as they are (a reply without a final newline is followed by the
engine exiting). Only the standard library is imported, so that starting it costs little.
"""

from __future__ import annotations

import base64
import json
import sys


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        script = json.load(fh)
    canned: dict[str, list[str]] = {}
    for op, line in script["replies"]:
        canned.setdefault(op, []).append(line)
    payload = base64.b64decode(script["payload"])
    seen: dict[str, int] = {}  # requests of each kind in this game (hello/start: ever)
    replaced = False
    out = sys.stdout.buffer
    for raw in sys.stdin.buffer:
        try:
            op = str(json.loads(raw).get("op"))
        except ValueError:
            op = "?"
        if op == "start":
            seen = {k: v for k, v in seen.items() if k in ("hello", "start")}
        n = seen.get(op, 0)
        seen[op] = n + 1
        if not replaced and op == script["op"] and n == script["nth"]:
            replaced = True
            out.write(payload)
            out.flush()
            if not payload.endswith(b"\n"):
                return
            continue
        if op == "close":
            out.write(b'{"ok": true}\n')
            out.flush()
            return
        lines = canned.get(op) or ['{"ok": false, "error": "unknown op"}']
        out.write(lines[min(n, len(lines) - 1)].encode("utf-8") + b"\n")
        out.flush()


if __name__ == "__main__":
    main()
