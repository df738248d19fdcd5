"""Jobs the worker-pool tests send to real worker processes (importable there by name)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Callable


def pid() -> int:
    return os.getpid()


def hog(megabytes: int) -> int:
    """Allocate and touch `megabytes` of memory."""
    block = bytearray(megabytes * 2**20)
    return len(block)


def until(path: str, progress: Callable[[int, int], None]) -> int:
    """Report progress until `path` exists (the test's signal), then return this process's id."""
    done = 0
    while not Path(path).exists():
        done += 1
        progress(done, done + 1)
        time.sleep(0.02)
    return os.getpid()


def silent(path: str) -> int:
    """Wait until `path` exists, reporting nothing (only a check can stop it)."""
    while not Path(path).exists():
        time.sleep(0.02)
    return os.getpid()
