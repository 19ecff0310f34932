"""``regen_model.pools.forked_pool``: after the work, the workers end by themselves (exit code
0), not by the terminate signal of ``multiprocessing.Pool.__exit__``; when the block raises,
they are terminated and the error goes on."""

from __future__ import annotations

import pytest

from regen_model.pools import forked_pool


def test_a_finished_pool_lets_its_workers_exit_by_themselves() -> None:
    with forked_pool(2) as pool:
        workers = list(pool._pool)  # type: ignore[attr-defined]
        assert pool.map(abs, [-1, -2, -3]) == [1, 2, 3]
    assert [w.exitcode for w in workers] == [0, 0]


def test_a_block_that_raises_terminates_the_workers() -> None:
    with pytest.raises(ValueError, match="stop"), forked_pool(2) as pool:
        workers = list(pool._pool)  # type: ignore[attr-defined]
        raise ValueError("stop")
    assert all(w.exitcode is not None and w.exitcode != 0 for w in workers)
