"""Worker pools that end the way their work ended.

``multiprocessing.Pool`` used as a context manager terminates its workers when the block ends,
even after every task is done: it takes the task queue's lock, then signals each worker and
waits for it. A worker waiting for that lock when the signal is sent can be missed, and the
parent then waits for it for ever (seen once in ``verify``: its agreement section's worker
blocked in ``Pool.__exit__``, the pool's last worker idle on the queue's lock). ``forked_pool``
closes the pool and joins it when the block ends normally, so each worker takes the end-of-work
marker and exits by itself, and terminates the workers only when the block raises (an
error, or Ctrl-C: ``interrupts``).
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.pool
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def forked_pool(processes: int) -> Iterator[multiprocessing.pool.Pool]:
    """A pool of ``processes`` forked workers (they share what the parent built), closed and
    joined after the block, or terminated if it raises."""
    pool = multiprocessing.get_context("fork").Pool(processes)
    try:
        yield pool
    except BaseException:
        pool.terminate()
        pool.join()
        raise
    pool.close()
    pool.join()
