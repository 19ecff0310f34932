"""Our own fuzz suite: malformed scenario files, traces, queries and engine replies.

``inputs.py`` makes the inputs (mutations of real seeds, each labelled with what a correct
reader must do with it), ``oracle.py`` runs one through a public entry point (the command
line, or the JSON-lines client) and classifies what happened: fine, crash, hang, traceback,
wrong exit code or silent accept. ``test_fuzz.py`` runs a hypothesis-driven sample in CI;
``benchmarks/fuzz.py`` runs at least 10,000 inputs per format and reports the counts.
"""
