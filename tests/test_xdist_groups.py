"""The suite's ``--dist loadgroup`` (pyproject's ``addopts``) must really keep an
``xdist_group`` in one worker: the modules that share a fixture worth tens of seconds
(``tests/checks/test_cover.py``'s relations, ``tests/encoding/test_branches.py``'s seeded walk,
``tests/mutants/test_mutant_matrix.py``'s matrix) count on it to build it once. A pytest and
pytest-xdist pair that silently stops grouping (pytest-dev/pytest-xdist#1386: pytest 9.2 with
xdist 3.8) cost CI more than a minute without failing anything; this test fails instead.

xdist marks each grouped test in a worker by giving its node ID the suffix ``@<group>``, which
its scheduler reads to keep the group together: no suffix in a worker under loadgroup means
the group is dealt out test by test."""

from __future__ import annotations

import os

import pytest

pytestmark = pytest.mark.xdist_group("xdist-groups-check")


def test_a_grouped_test_carries_its_group_in_a_loadgroup_worker(
    request: pytest.FixtureRequest,
) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER") is None:
        pytest.skip("not run by an xdist worker: no groups to keep")
    if not getattr(request.config.option, "loadgroup", False):  # xdist sets it in a worker
        pytest.skip("not run with --dist loadgroup")
    assert request.node.nodeid.endswith("@xdist-groups-check"), (
        f"{request.node.nodeid}: --dist loadgroup does not group this pytest and "
        "pytest-xdist (see pyproject's pin of pytest)"
    )
