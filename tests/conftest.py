"""Settings every test shares.

The heartbeat of the long commands (``regen_model.cli.progress``) is a timer: on a busy
machine a command a test runs can take longer than its interval, and a heartbeat line would
then appear in the stderr a test reads, or not, by chance. The tests run with it off
(``REGEN_MODEL_HEARTBEAT=0``, inherited by the subprocesses they start); ``tests/test_progress.py``
turns it on where it is what is tested.
"""

from __future__ import annotations

import os

from regen_model.cli.progress import HEARTBEAT_ENV

os.environ[HEARTBEAT_ENV] = "0"
