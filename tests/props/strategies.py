"""The Hypothesis profiles of the property tests; the strategies themselves are public, in
``regen_model.testing`` (engine authors use the same ones)."""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

from regen_model.testing.strategies import WIDE, boards, legal_step

settings.register_profile(
    "props-ci",
    max_examples=40,
    stateful_step_count=50,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "props-long",
    max_examples=300,
    stateful_step_count=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# REGEN_PROPS_PROFILE=props-long runs the long version (minutes instead of seconds).
PROFILE = settings.get_profile(os.environ.get("REGEN_PROPS_PROFILE", "props-ci"))

__all__ = ["PROFILE", "WIDE", "boards", "legal_step"]
