"""A JSON-lines engine that behaves like the reference until it misbehaves on purpose.

    python misbehaving.py MODE [N]

MODE is what happens at the N-th ``apply`` (default 1) of every game: ``crash`` (exit 3
with a message on stderr), ``hang`` (sleep), ``garbage`` (a non-JSON line), ``wrong`` (a
reply that is JSON but not a protocol reply), ``bad-observation`` (the next observation has a
field of the wrong type), ``no-hello`` (crash at once), ``reject`` (refuse every action).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from regen_model.conform.adapter import ReferenceAdapter
from regen_model.conform.codec import Players
from regen_model.conform.serve import handle


def main() -> None:
    mode = sys.argv[1]
    nth = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    if mode == "no-hello":
        print("cannot start: missing card database", file=sys.stderr)
        raise SystemExit(3)
    adapter = ReferenceAdapter()
    players = [Players()]
    applied = 0
    broken = False
    for line in sys.stdin:
        request: dict[str, Any] = json.loads(line)
        op = request.get("op")
        if op == "start":
            applied, broken = 0, False
        if op == "apply":
            applied += 1
            if mode == "reject":
                print(json.dumps({"ok": False, "error": "not implemented"}), flush=True)
                continue
            if applied == nth:
                if mode == "crash":
                    print("panic: index out of range", file=sys.stderr)
                    raise SystemExit(3)
                if mode == "hang":
                    time.sleep(60)
                if mode == "garbage":
                    print("Traceback (most recent call last): oops", flush=True)
                    continue
                if mode == "wrong":
                    print(json.dumps({"status": "fine"}), flush=True)
                    continue
                if mode == "bad-observation":
                    broken = True
        reply = handle(adapter, request, players)
        if op == "observe" and broken:
            reply["observation"]["cards"] = {"troll": {"tapped": "yes"}}
        print(json.dumps(reply), flush=True)
        if op == "close":
            break


if __name__ == "__main__":
    main()
