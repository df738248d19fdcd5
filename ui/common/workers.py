"""A page's heavy work in the worker pool (tokenizer_core/workers.py), stopped with its run.

The job's worker is killed when the session leaves or a rerun replaces the run (cancel.py's
`run_check`, asked a few times a second while the job waits or runs); while it waits for a free
worker, `note` is told, in the session's language, how many jobs are ahead. A full queue is the
pool's `Busy`, a Refusal the page says with `explain`, like any other.

Leaves out: which work is heavy (the pages' compute modules choose their jobs).
"""

from __future__ import annotations

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

    return workers.run(job, progress=progress, check=run_check(),
                       waiting=waiting)
