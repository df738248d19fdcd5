"""The one way the benchmarks time things: the median of repeated wall-clock runs."""

from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(
    run: Callable[[], object], repeats: int, before: Callable[[], None] | None = None
) -> float:
    """Median wall-clock seconds of `run()` over `repeats` runs; `before()` runs untimed first."""
    times = []
    for _ in range(repeats):
        if before is not None:
            before()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
