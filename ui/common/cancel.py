"""Stop work nobody waits for: the cancel check a page hands to a long core loop.

Streamlit stops a script run (its tab was closed, or a newer run replaced it) only at the run's
next `st` call, so a loop that makes none, training above all, would go on for nobody: once one
kept a thread busy for 50 minutes after its tab closed. The core stays free of Streamlit and only
takes a callback (`train_bpe(progress=...)`); `cancel_check()` makes one that raises Streamlit's
own StopException as soon as this run's session is no longer connected, and `throttled(...)`
also lets a page touch a progress bar every few tenths of a second, which is where Streamlit
itself stops a run that a rerun replaced. `run_check()` is the check a job in a worker process
waits under (ui/common/workers.py): it also stops the run when a newer one replaced it, through
a yield point that sends the browser nothing.

Leaves out: what a page draws while it waits (its own progress bar).
"""

from __future__ import annotations

import math
import time
from typing import Callable

import streamlit as st
from streamlit.runtime import Runtime
from streamlit.runtime.scriptrunner import StopException, get_script_run_ctx

Progress = Callable[[int, int], None]
UPDATE_SECONDS = 0.25  # how often a throttled callback moves the bar (each is a message)
_NO_KEY = "_cancel_yield_point"  # never set: reading it only lets Streamlit stop the run


def session_gone() -> bool:
    """Whether the session this run belongs to has disconnected (its tab was closed)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or not Runtime.exists():
        return False  # not served (a test's AppTest, a plain script): no session to lose
    return not Runtime.instance().is_active_session(ctx.session_id)


def cancel_check() -> Progress:
    """A train_bpe-style progress callback that stops the run when its session is gone."""

    def check(done: int, total: int) -> None:
        if session_gone():
            raise StopException()

    return check


def yield_point() -> None:
    """Let Streamlit stop this run here if a rerun replaced it (it raises its RerunException, or
    StopException when it already started the new run in a thread of its own).

    subtle: Streamlit looks for a waiting rerun at every `st` call that sends a message, and at
    every read of session state; reading a key nobody sets is a yield point that draws nothing.
    """
    if get_script_run_ctx(suppress_warning=True) is not None:
        st.session_state.get(_NO_KEY)


def run_check() -> Callable[[], None]:
    """A check that stops the run when its session is gone or a rerun replaced it."""

    def check() -> None:
        if session_gone():
            raise StopException()
        yield_point()

    return check


def throttled(update: Progress, seconds: float = UPDATE_SECONDS) -> Progress:
    """`update` at most every `seconds` (and at the end), behind the cancel check on every call.

    subtle: `update` should make an `st` call (a progress bar's .progress); that call is where
    Streamlit raises its own RerunException when a newer run of the page is waiting.
    """
    check = cancel_check()
    # -inf, not 0: time.monotonic() counts from boot on Linux, so on a machine up for less than
    # `seconds` (a fresh CI machine) a 0 would swallow the first update
    last = [-math.inf]

    def progress(done: int, total: int) -> None:
        check(done, total)
        now = time.monotonic()
        if done >= total or now - last[0] >= seconds:
            last[0] = now
            update(done, total)

    return progress
