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
