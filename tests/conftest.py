"""Shared test settings: hypothesis profiles (CI runs more examples, no deadlines anywhere) and
a store of trained tokenizers of the run's own."""

import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, settings

# Timing is not what these tests check (machines are shared and noisy): no deadlines.
settings.register_profile("dev", max_examples=100, deadline=None)
settings.register_profile(
    "ci", max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

# Trained tokenizers go to the on-disk store (tokenizer_core/store.py). Tests use a fresh one
# of the run's own, never the developer's ~/.cache, and the app servers they start inherit it.
# The xdist workers of one run share it (the run's id names it), as a server's replicas do: what
# one worker trained, the other reads instead of training it again (CI time, #22). The store
# writes atomically, so two workers building the same entry at once is safe; tests that need an
# empty store point TOKEX_CACHE_DIR at a folder of their own.
_RUN = os.environ.get("PYTEST_XDIST_TESTRUNUID")  # xdist sets it in each worker's environment
if _RUN and _RUN.isalnum():
    _SHARED = Path(tempfile.gettempdir()) / f"tokex-test-store-{_RUN}"
    _SHARED.mkdir(exist_ok=True)
    os.environ["TOKEX_CACHE_DIR"] = str(_SHARED)
else:
    os.environ["TOKEX_CACHE_DIR"] = tempfile.mkdtemp(prefix="tokex-test-store-")
