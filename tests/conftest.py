"""Shared test settings: hypothesis profiles (CI runs more examples, no deadlines anywhere) and
a store of trained tokenizers of the run's own."""

import os
import tempfile

from hypothesis import HealthCheck, settings

# Timing is not what these tests check (machines are shared and noisy): no deadlines.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# Trained tokenizers go to the on-disk store (tokenizer_core/store.py). Tests use a fresh one
# of their own, never the developer's ~/.cache, and the app servers they start inherit it.
os.environ["TOKEX_CACHE_DIR"] = tempfile.mkdtemp(prefix="tokex-test-store-")


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker more than the processors this run may use, at most 4.

    Why: half of the suite's time is waiting (a browser drawing, an app server starting, a
    page rerunning): with two workers on CI's two processors, user plus system time was 31 min
    in 31 min of wall clock, the processors half idle. A third worker fills the waits. More
    than 4 would start more app servers and Chromiums than the tests' waits allow for."""
    return min(4, len(os.sched_getaffinity(0)) + 1)
