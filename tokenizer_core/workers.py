"""Heavy work in worker processes: a small pool with a bounded queue, `run(job)`.

Why: training runs in pure Python, and in the app's server it holds the one interpreter lock
every session's thread needs; one session training to 16,000 doubled everyone else's answer
time. What a server process allocates for a training (the pair counts, the corpus) mostly stays
with it after the training ends. In a worker it is another process's: others' pages answer at
their usual speed, and the memory is given back when the worker ends.

What it adds: `Job`, a function named by module and name with picklable arguments (the corpus
text goes once; the result comes back as the store's JSON, small), and `WorkerPool`:
- N workers (`TOKEX_WORKERS`, default min(2, CPUs); `0` runs every job in the caller's process,
  as before the pool);
- a bounded queue: at most `TOKEX_WORKER_QUEUE` jobs (default 8) wait for a worker; past that
  `run` refuses at once (`Busy`, saying how many jobs are ahead) instead of hanging. A waiting
  job calls `waiting(ahead)` a few times a second, so a page can say where it is in line;
- cancelling: `run` calls `check()` a few times a second while its job waits or runs; when
  `check` raises (the session left, a rerun replaced it), the job's worker is killed, and the
  exception goes on; the next job gets a fresh worker;
- a memory limit per worker (`TOKEX_WORKER_MEMORY_MB`, default 2048; `0`: none), set with
  RLIMIT_AS in the worker: a job over it fails with `OverMemory`, the server is unharmed;
- workers that end themselves after `TOKEX_WORKER_IDLE` seconds (default 60) without a job,
  so their memory comes back.

The worker processes are reference/isolated.py's (`python -c …`, two pipes, lower CPU
priority, killed and reaped when dropped), running this module's loop: one mechanism.

Leaves out: which functions are jobs (jobs.py), what a page says while it waits (the
app's ui/common/workers.py), and time limits (a training is bounded by its inputs).
"""

from __future__ import annotations

import collections
import importlib
import os
import sys
import threading
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Callable

from .messages import N_, Refusal
from .reference.isolated import (
    START_SECONDS,
    WORKER_NICENESS,
    _Stopped,
    _Worker,
    leave_with_parent,
)

Progress = Callable[[int, int], None]
Check = Callable[[], None]
Waiting = Callable[[int], None]

WORKERS_ENV = "TOKEX_WORKERS"
QUEUE_ENV = "TOKEX_WORKER_QUEUE"
MEMORY_ENV = "TOKEX_WORKER_MEMORY_MB"
IDLE_ENV = "TOKEX_WORKER_IDLE"
DEFAULT_QUEUE = 8
DEFAULT_MEMORY_MB = 2048
DEFAULT_IDLE_SECONDS = 60.0
POLL_SECONDS = 0.1  # how often a waiting or running job asks `check` whether to go on
PROGRESS_SECONDS = 0.1  # how often a worker reports progress (each report is a pipe message)
_SERVE = "from tokenizer_core.workers import serve; serve()"

BUSY = N_("The server is busy (jobs ahead of yours: {count}); try again in a minute.")
OVER_MEMORY = N_("This work needed more than the {limit} MB of memory a worker may use, so it "
                 "was stopped. Try a smaller text or a smaller vocabulary.")
ENDED = N_("The worker process doing this work ended ({why}) before it finished, perhaps over "
           "its memory limit of {limit} MB. Try a smaller text or a smaller vocabulary.")
NOT_STARTED = N_("A worker process did not start within {seconds} s (is the machine very "
                 "busy?); try again.")


class Busy(Refusal):
    """Every worker is busy and the queue is full."""


class OverMemory(Refusal):
    """The job went over its worker's memory limit (or its worker died)."""


@dataclass(frozen=True)
class Job:
    """`function` ("package.module:name") called with `args` and `kwargs`, all picklable; with
    `progress=True` it also gets a `progress=` callback, train_bpe's (done, total)."""

    function: str
    args: tuple[Any, ...] = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    progress: bool = False

    def call(self, progress: Progress | None = None) -> Any:
        """Run it here, in this process."""
        module, name = self.function.split(":")
        function = getattr(importlib.import_module(module), name)
        extra = {"progress": progress} if self.progress else {}
        return function(*self.args, **self.kwargs, **extra)


# =============================================================================================
# The worker's side


def serve() -> None:
    """The worker's loop: `python -c _SERVE REQUESTS_FD REPLIES_FD IDLE_SECONDS MEMORY_MB`.

    Each job gets progress messages ("progress", done, total) and then one reply: ("ok", value),
    ("refusal", (template, values)), ("error", (type name, message)) or ("memory", None). Ends
    on end-of-file (the server is gone) or after IDLE_SECONDS without a job.
    """
    requests = Connection(int(sys.argv[1]), writable=False)
    replies = Connection(int(sys.argv[2]), readable=False)
    idle = float(sys.argv[3])
    memory_mb = int(sys.argv[4])
    leave_with_parent()
    os.nice(WORKER_NICENESS)
    if memory_mb:
        import resource

        limit = memory_mb * 2**20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    replies.send(("ok", os.getpid()))  # ready
    while requests.poll(idle):
        try:
            job = requests.recv()
        except EOFError:
            return
        replies.send(_answer(job, replies))


def _answer(job: Job, replies: Connection) -> tuple[str, Any]:
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total or now - last[0] >= PROGRESS_SECONDS:
            last[0] = now
            replies.send(("progress", done, total))

    try:
        return "ok", job.call(progress)
    except MemoryError:
        return "memory", None
    except Refusal as error:
        return "refusal", (error.template, dict(error.values))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # a library's own error: said, not lost
        return "error", (type(error).__name__, str(error))


# =============================================================================================
# The server's side


def _env_number(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip().lower()
    if value in ("off", "no", "false"):
        return 0
    try:
        return float(value) if value else default
    except ValueError:
        raise ValueError(f"{name}={value!r}: expected a number") from None


class WorkerPool:
    """At most `size` jobs at once, each in its own worker process; `queue` more may wait."""

    def __init__(self, size: int, queue: int = DEFAULT_QUEUE,
                 memory_mb: int = DEFAULT_MEMORY_MB,
                 idle_seconds: float = DEFAULT_IDLE_SECONDS) -> None:  # fmt: skip
        self.size = size
        self.queue = queue
        self.memory_mb = memory_mb
        self.idle_seconds = idle_seconds
        self._lock = threading.Condition()
        self._running = 0
        self._waiting: collections.deque[object] = collections.deque()
        self._idle: list[_Worker] = []  # started workers with no job; each ends itself when idle
        self._busy: set[_Worker] = set()

    @classmethod
    def from_env(cls) -> WorkerPool:
        """The pool the environment asks for (see the module's docstring)."""
        size = int(_env_number(WORKERS_ENV, min(2, os.cpu_count() or 1)))
        return cls(size, int(_env_number(QUEUE_ENV, DEFAULT_QUEUE)),
                   int(_env_number(MEMORY_ENV, DEFAULT_MEMORY_MB)),
                   _env_number(IDLE_ENV, DEFAULT_IDLE_SECONDS))

    def pids(self) -> list[int]:
        """The process ids of the workers alive now (busy or idle)."""
        with self._lock:
            workers = [*self._idle, *self._busy]
        return [w.process.pid for w in workers if w.alive()]

    def close(self) -> None:
        """End the idle workers now (busy ones end with their jobs' callers)."""
        with self._lock:
            idle, self._idle = self._idle, []
        for worker in idle:
            worker.kill()

    def run(self, job: Job, *, progress: Progress | None = None, check: Check | None = None,
            waiting: Waiting | None = None) -> Any:
        """The job's return value, computed in a worker (in this process when size is 0).

        Busy at once when the queue is full; OverMemory when the job goes over the memory
        limit; a job's Refusal comes back as that Refusal, a ValueError as ValueError, any other
        error as RuntimeError. Whatever `check`, `progress` or `waiting` raise ends the job
        (its worker is killed) and goes on to the caller."""
        check = check or (lambda: None)
        if self.size <= 0:
            return job.call(_checked(progress, check))
        self._enter(check, waiting)
        try:
            for attempt in range(2):
                worker = self._worker()
                try:
                    reply = self._ask(worker, job, progress, check)
                except _Stopped as stopped:
                    self._drop(worker)
                    # Exit status 0: it ended itself, idle, just as this job came. Once more.
                    if stopped.code != 0 or attempt:
                        raise OverMemory(ENDED, why=str(stopped), limit=self.memory_mb) from None
                    continue
                except BaseException:
                    self._drop(worker)  # cancelled: the work stops with its process
                    raise
                return self._value(worker, reply)
            raise AssertionError("unreachable: the loop returns or raises")
        finally:
            with self._lock:
                self._running -= 1
                self._lock.notify_all()

    # -- the queue -----------------------------------------------------------------------------

    def _enter(self, check: Check, waiting: Waiting | None) -> None:
        """Take a place among the running jobs, waiting in line for one if need be."""
        ticket = object()
        with self._lock:
            if self._running < self.size and not self._waiting:
                self._running += 1
                return
            if len(self._waiting) >= self.queue:
                raise Busy(BUSY, count=self._running + len(self._waiting))
            self._waiting.append(ticket)
        try:
            while True:
                with self._lock:
                    if self._waiting[0] is ticket and self._running < self.size:
                        self._waiting.popleft()
                        self._running += 1
                        self._lock.notify_all()
                        return
                    ahead = self._running + self._waiting.index(ticket)
                    self._lock.wait(POLL_SECONDS)
                check()
                if waiting is not None:
                    waiting(ahead)
        except BaseException:
            with self._lock:
                self._waiting.remove(ticket)
                self._lock.notify_all()
            raise

    # -- the workers ---------------------------------------------------------------------------

    def _worker(self) -> _Worker:
        """An idle worker still alive, or a new one (started and ready)."""
        with self._lock:
            while self._idle:
                worker = self._idle.pop()
                if worker.alive():
                    self._busy.add(worker)
                    return worker
        worker = _Worker(self.idle_seconds, _SERVE, (str(self.memory_mb),))
        try:
            started = worker.ask(None, START_SECONDS)
        except _Stopped as stopped:
            raise OverMemory(ENDED, why=str(stopped), limit=self.memory_mb) from None
        if started is None:
            raise Refusal(NOT_STARTED, seconds=f"{START_SECONDS:g}")
        with self._lock:
            self._busy.add(worker)
        return worker

    def _drop(self, worker: _Worker) -> None:
        worker.kill()
        with self._lock:
            self._busy.discard(worker)

    def _ask(self, worker: _Worker, job: Job, progress: Progress | None,
             check: Check) -> tuple[str, Any]:
        """Send the job and wait for its reply, passing progress on and checking in between."""
        try:
            worker.requests.send(job)
            while True:
                if not worker.replies.poll(POLL_SECONDS):
                    check()
                    continue
                message = worker.replies.recv()
                if message[0] != "progress":
                    return message
                check()
                if progress is not None:
                    progress(message[1], message[2])
        except (EOFError, OSError):  # EOF: it died while we waited; OSError: a broken pipe
            raise _Stopped(worker._exit_status()) from None

    def _value(self, worker: _Worker, reply: tuple[str, Any]) -> Any:
        kind, value = reply
        if kind == "memory":  # a process that ran out of memory is not trusted with more work
            self._drop(worker)
            raise OverMemory(OVER_MEMORY, limit=self.memory_mb)
        with self._lock:
            self._busy.discard(worker)
            self._idle.append(worker)
        if kind == "ok":
            return value
        if kind == "refusal":
            raise Refusal(value[0], **value[1])
        name, message = value
        if name == "ValueError":
            raise ValueError(message)
        raise RuntimeError(f"{name}: {message}")


def _checked(progress: Progress | None, check: Check) -> Progress:
    """In this process: `check` on every progress call, then `progress`."""

    def checked(done: int, total: int) -> None:
        check()
        if progress is not None:
            progress(done, total)

    return checked


_pool: WorkerPool | None = None
_pool_lock = threading.Lock()


def pool() -> WorkerPool:
    """This process's pool, made from the environment the first time it is asked for."""
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = WorkerPool.from_env()
        return _pool


def run(job: Job, *, progress: Progress | None = None, check: Check | None = None,
        waiting: Waiting | None = None) -> Any:
    """`job` in this process's pool (WorkerPool.run)."""
    return pool().run(job, progress=progress, check=check, waiting=waiting)
