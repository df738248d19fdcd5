"""Shared test settings: hypothesis profiles (CI runs more examples, no deadlines anywhere)."""

import os

from hypothesis import HealthCheck, settings

# Timing is not what these tests check (machines are shared and noisy): no deadlines.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))
