"""A JSON-lines engine that behaves like the reference until it misbehaves on purpose.

    python misbehaving.py MODE [N]

MODE is what happens at the N-th ``apply`` (default 1) of every game:

* ``crash``: exit 3 with a message on stderr;
* ``hang``: sleep (a reply that never comes);
* ``garbage``: a non-JSON line; ``wrong``: JSON that is not a protocol reply;
* ``bad-observation``: the next observation has a field of the wrong type;
* ``reject``: refuse every action (at once, whatever N);
* ``no-hello``: crash before answering anything;
* ``no-read``: after ``hello``, never read stdin again and never answer;
* ``flood``: write without a newline, without end;
* ``bad-utf8``: a reply line that is not UTF-8;
* ``close-stdout``: close stdout and keep running;
* ``stray``: answer with two lines instead of one;
* ``fork``: start a child that sleeps (its pid on stderr as ``child PID``), then hang;
* ``spam-stderr``: write megabytes to stderr, then hang;
* ``markup-name``: the ``hello`` name is Rich markup and a newline (otherwise correct).

Every misbehaviour is announced on stderr first ("misbehaving: MODE"), so tests can check
that the error the checker reports quotes the engine's stderr.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from typing import Any

from regen_model.conform.adapter import ReferenceAdapter
from regen_model.conform.codec import Players
from regen_model.conform.serve import handle


def say(text: str) -> None:
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def misbehave(mode: str) -> bool:
    """Do ``mode`` at the chosen ``apply``; True if the request is then answered as usual."""
    print(f"misbehaving: {mode}", file=sys.stderr, flush=True)
    if mode == "crash":
        print("panic: index out of range", file=sys.stderr)
        raise SystemExit(3)
    if mode == "hang":
        time.sleep(60)
    if mode == "garbage":
        say("Traceback (most recent call last): oops")
    elif mode == "wrong":
        say(json.dumps({"status": "fine"}))
    elif mode == "flood":
        while True:
            sys.stdout.write("x" * 65536)
    elif mode == "bad-utf8":
        sys.stdout.buffer.write(b'{"ok": true, "note": "\xff\xfe"}\n')
        sys.stdout.flush()
    elif mode == "close-stdout":
        sys.stdout.close()
        os.close(1)
        time.sleep(60)
    elif mode == "stray":
        say(json.dumps({"ok": True}))
        say(json.dumps({"ok": True}))
    elif mode == "fork":
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        print(f"child {child.pid}", file=sys.stderr, flush=True)
        time.sleep(60)
    elif mode == "spam-stderr":
        for _ in range(64):
            sys.stderr.write("noise " * 10000 + "\n")
        print("last words", file=sys.stderr, flush=True)
        time.sleep(60)
    else:
        return True
    return False


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
                say(json.dumps({"ok": False, "error": "not implemented"}))
                continue
            if applied == nth:
                if mode == "bad-observation":
                    broken = True
                elif not misbehave(mode):
                    continue
        reply = handle(adapter, request, players)
        if op == "observe" and broken:
            reply["observation"]["cards"] = {"troll": {"tapped": "yes"}}
        if op == "hello" and mode == "markup-name":
            reply["name"] = "[bold red]evil[/bold red] [/nope]\nsecond line"
        say(json.dumps(reply))
        if op == "hello" and mode == "no-read":
            print("misbehaving: no-read", file=sys.stderr, flush=True)
            time.sleep(60)
        if op == "close":
            break


if __name__ == "__main__":
    main()
