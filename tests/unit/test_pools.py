"""``regen_model.pools.forked_pool``: after the work, the workers end by themselves (exit code
0), not by the terminate signal of ``multiprocessing.Pool.__exit__``; when the block raises,
they are ended and the error goes on."""

from __future__ import annotations

import pytest

from regen_model.pools import forked_pool


def test_a_finished_pool_lets_its_workers_exit_by_themselves() -> None:
    with forked_pool(2) as pool:
        workers = list(pool._pool)  # type: ignore[attr-defined]
        assert pool.map(abs, [-1, -2, -3]) == [1, 2, 3]
    assert [w.exitcode for w in workers] == [0, 0]


def test_a_block_that_raises_ends_the_workers_and_the_error_goes_on() -> None:
    with pytest.raises(ValueError, match="stop"), forked_pool(2) as pool:
        workers = list(pool._pool)  # type: ignore[attr-defined]
        raise ValueError("stop")
    # terminated, or ended by the end-of-work marker first: either way none is left running
    assert not any(w.is_alive() for w in workers)
