"""A page's heavy work in the worker pool (tokenizer_core/workers.py), stopped with its run.

The job's worker is killed when the session leaves or a rerun replaces the run (cancel.py's
`run_check`, asked a few times a second while the job waits or runs); while it waits for a free
worker, `note` is told, in the session's language, how many jobs are ahead. A full queue is the
pool's `Busy`, a Refusal the page says with `explain`, like any other.

Memory: a job's answer (a curve's or a model's JSON, read and parsed here) and what the page
builds from it are freed once the run is done, but glibc keeps freed memory in each thread's
arena for the next allocation; with many sessions' threads that is most of what stayed after ten
heavy sessions closed (157 of 317 MB, #22). A few seconds after the last job ends, `malloc_trim`
gives it back to the system (once for a burst of jobs; nothing where the C library is not glibc).

Leaves out: which work is heavy (the pages' compute modules choose their jobs).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import threading
from typing import Any, Callable

from tokenizer_core import workers
from tokenizer_core.workers import Job, Progress
from ui.common.cancel import run_check
from ui.common.i18n import ngettext, number


def waiting_note(ahead: int) -> str:
    return ngettext("Waiting for a free worker: {count} job is ahead of yours…",
                    "Waiting for a free worker: {count} jobs are ahead of yours…", ahead,
                    count=number(ahead))


def run(job: Job, *, progress: Progress | None = None,
        note: Callable[[str], None] | None = None) -> Any:
    """The job's value, from a worker (or this process when the pool is off: TOKEX_WORKERS=0)."""
    said = [-1]

    def waiting(ahead: int) -> None:  # asked a few times a second: a message only on a change
        if note is not None and ahead != said[0]:
            said[0] = ahead
            note(waiting_note(ahead))

    try:
        return workers.run(job, progress=progress, check=run_check(), waiting=waiting)
    finally:
        trim_soon()


TRIM_AFTER_S = 5.0  # after the last job: long enough for its run to finish with the answer
_trim_lock = threading.Lock()
_trim_timer: threading.Timer | None = None


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, found once (find_library asks ldconfig)."""
    name = ctypes.util.find_library("c")
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim") if name else None
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to trim
        return None


def trim() -> None:
    """Give the memory glibc keeps free back to the system (ctypes lets go of the interpreter
    lock meanwhile)."""
    function = _malloc_trim()
    if function is not None:
        function(0)


def trim_soon() -> None:
    """trim() TRIM_AFTER_S seconds from now, unless another job ends before: one trim a burst."""
    global _trim_timer
    with _trim_lock:
        if _trim_timer is not None:
            _trim_timer.cancel()
        _trim_timer = threading.Timer(TRIM_AFTER_S, trim)
        _trim_timer.daemon = True
        _trim_timer.start()
