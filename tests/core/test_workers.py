"""The worker pool (tokenizer_core/workers.py) with real worker processes: jobs run elsewhere
and answer as in-process, the queue's bound refuses at once, a cancelled job's process is gone,
a job over the memory limit fails in words while this process goes on."""

from __future__ import annotations

import os
import threading

import pytest

from tokenizer_core import jobs, workers
from tokenizer_core.measure import stored
from tokenizer_core.measure.compression import split_held_out
from tokenizer_core.messages import Refusal
from tokenizer_core.samples import english_reference_corpus
from tokenizer_core.workers import Busy, Job, OverMemory, WorkerPool

JOBS = "tests.core.worker_jobs"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture
def pool():
    made = WorkerPool(1, queue=1, memory_mb=workers.DEFAULT_MEMORY_MB, idle_seconds=30)
    yield made
    made.close()


def test_a_job_runs_in_another_process_and_answers_as_in_process(pool, tmp_path, monkeypatch):
    monkeypatch.setenv("TOKEX_CACHE_DIR", "off")  # both really train: nothing read from a store
    text = english_reference_corpus()[:6_000]
    seen: list[tuple[int, int]] = []
    job = Job("tokenizer_core.jobs:curve_json", (text, 20, 300), progress=True)
    in_worker = pool.run(job, progress=lambda done, total: seen.append((done, total)))
    assert pool.run(Job(f"{JOBS}:pid")) != os.getpid()
    in_process = jobs.curve_json(text, 20, 300)
    assert in_worker == in_process
    curve = stored.curve_from_json(in_worker)
    assert curve.learned_merges == 300
    # the curve counts what its own tokenizer counts on the held-out text
    held_out = split_held_out(text, 0.2).held_out
    assert curve.held_out_tokens[300] == len(curve.tokenizer(300).encode(held_out))
    assert seen and seen[-1] == (300, 300)


def test_the_same_worker_serves_the_next_job(pool):
    first = pool.run(Job(f"{JOBS}:pid"))
    assert pool.run(Job(f"{JOBS}:pid")) == first
    assert pool.pids() == [first]


def test_size_zero_runs_in_this_process():
    assert WorkerPool(0).run(Job(f"{JOBS}:pid")) == os.getpid()


def _in_thread(pool: WorkerPool, job: Job, out: dict, **kwargs) -> threading.Thread:
    def target() -> None:
        try:
            out["value"] = pool.run(job, **kwargs)
        except BaseException as error:  # the test looks at it
            out["error"] = error

    thread = threading.Thread(target=target)
    thread.start()
    return thread


def test_a_full_queue_refuses_at_once_saying_how_many_are_ahead(pool, tmp_path):
    signal = tmp_path / "go"
    started = threading.Event()
    first: dict = {}
    second: dict = {}
    ahead: list[int] = []
    running = _in_thread(pool, Job(f"{JOBS}:until", (str(signal),), progress=True), first,
                         progress=lambda done, total: started.set())
    assert started.wait(60)
    queued = _in_thread(pool, Job(f"{JOBS}:pid"), second, waiting=ahead.append)
    while not ahead:  # the second job is in line behind the first
        queued.join(0.05)
    with pytest.raises(Busy) as refused:
        pool.run(Job(f"{JOBS}:pid"))
    assert refused.value.values == {"count": 2}
    assert str(refused.value) == ("The server is busy (jobs ahead of yours: 2); try again in a "
                                  "minute.")
    signal.touch()
    running.join(60)
    queued.join(60)
    assert first["value"] == second["value"]  # the job in line got the freed worker
    assert ahead[0] == 1


class _Left(Exception):
    """What the check raises when the session is gone (Streamlit raises its StopException)."""


def test_a_cancelled_job_s_worker_is_gone_and_the_next_job_works(pool, tmp_path):
    stop = threading.Event()
    started = threading.Event()

    def check() -> None:
        if stop.is_set():
            raise _Left()

    out: dict = {}
    thread = _in_thread(pool, Job(f"{JOBS}:until", (str(tmp_path / "never"),), progress=True),
                        out, check=check, progress=lambda done, total: started.set())
    assert started.wait(60)
    [pid] = pool.pids()
    assert _alive(pid)
    stop.set()
    thread.join(60)
    assert isinstance(out["error"], _Left)
    assert not _alive(pid)  # killed and reaped
    assert pool.pids() == []
    assert pool.run(Job(f"{JOBS}:pid")) not in (pid, os.getpid())


def test_a_job_cancelled_while_in_line_leaves_the_line(pool, tmp_path):
    signal = tmp_path / "go"
    started = threading.Event()
    first: dict = {}
    second: dict = {}
    running = _in_thread(pool, Job(f"{JOBS}:until", (str(signal),), progress=True), first,
                         progress=lambda done, total: started.set())
    assert started.wait(60)

    def leave(ahead: int) -> None:
        raise _Left()

    queued = _in_thread(pool, Job(f"{JOBS}:pid"), second, waiting=leave)
    queued.join(60)
    assert isinstance(second["error"], _Left)
    signal.touch()
    running.join(60)
    assert pool.run(Job(f"{JOBS}:pid")) == first["value"]  # the line is empty again


def test_a_job_over_the_memory_limit_fails_in_words_and_this_process_goes_on():
    small = WorkerPool(1, memory_mb=400, idle_seconds=30)
    try:
        with pytest.raises(OverMemory) as refused:
            small.run(Job(f"{JOBS}:hog", (1_000,)))
        assert "more than the 400 MB of memory a worker may use" in str(refused.value)
        assert isinstance(refused.value, Refusal)
        assert small.pids() == []  # that worker is not given more work
        assert small.run(Job(f"{JOBS}:hog", (50,))) == 50 * 2**20
    finally:
        small.close()
    assert len(bytearray(50 * 2**20)) == 50 * 2**20  # no limit here: this process is unharmed


def test_errors_come_back_as_they_were_raised(pool):
    job = Job("tokenizer_core.jobs:curve_json", ("", 20, 10))
    with pytest.raises(ValueError) as here:
        job.call()
    with pytest.raises(ValueError) as there:
        pool.run(job)
    assert type(there.value) is type(here.value)
    assert str(there.value) == str(here.value)
    assert "too short to split" in str(there.value)


def test_a_worker_that_ended_idle_is_replaced():
    quick = WorkerPool(1, idle_seconds=0.2)
    try:
        first = quick.run(Job(f"{JOBS}:pid"))
        while _alive(first) and first in quick.pids():
            threading.Event().wait(0.1)
        assert quick.run(Job(f"{JOBS}:pid")) != first
    finally:
        quick.close()


def test_the_environment_sets_the_pool(monkeypatch):
    monkeypatch.setenv(workers.WORKERS_ENV, "3")
    monkeypatch.setenv(workers.QUEUE_ENV, "5")
    monkeypatch.setenv(workers.MEMORY_ENV, "off")
    monkeypatch.setenv(workers.IDLE_ENV, "10")
    made = WorkerPool.from_env()
    assert (made.size, made.queue, made.memory_mb, made.idle_seconds) == (3, 5, 0, 10)
    monkeypatch.setenv(workers.WORKERS_ENV, "many")
    with pytest.raises(ValueError, match="TOKEX_WORKERS='many'"):
        WorkerPool.from_env()


def _gone(pid: int) -> bool:
    """No such process, or only its zombie (re-parented to an init that has not reaped it yet)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


_SERVER = """
import sys, threading, time
from tokenizer_core.workers import Job, WorkerPool
pool = WorkerPool(1, queue=1, memory_mb=0, idle_seconds=300)
threading.Thread(target=pool.run, args=(Job("tests.core.worker_jobs:silent", (sys.argv[1],)),),
                 daemon=True).start()
while not pool.pids():
    time.sleep(0.02)
print(pool.pids()[0], flush=True)
time.sleep(600)
"""


def test_a_worker_in_mid_job_ends_when_its_server_is_killed(tmp_path):
    # The job waits for a file that never comes: only the server's death can end the worker.
    import signal
    import subprocess
    import sys
    import time

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    server = subprocess.Popen(
        [sys.executable, "-c", _SERVER, str(tmp_path / "never")], cwd=root,
        stdout=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": root},
    )  # fmt: skip
    try:
        worker = int(server.stdout.readline())
        time.sleep(0.5)
        assert _alive(worker) and not _gone(worker)  # busy in the job, its server alive
        server.send_signal(signal.SIGKILL)
        server.wait()
        deadline = time.monotonic() + 30  # a bound on waiting, not a speed check
        while not _gone(worker) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(worker)
    finally:
        server.kill()
        server.wait()


def test_a_quality_row_measured_in_a_worker_is_the_one_measured_here(pool, monkeypatch):
    """Compression's quality rows (#22): a reference goes by name and the worker loads it; ours
    goes as its curve's merges. Each row equals the one measured in this process, and GPT-2's
    token count is tiktoken's."""
    import functools

    from tests.shared import tiktoken_encoding
    from tokenizer_core.measure.compression import compression_curve

    monkeypatch.setenv("TOKEX_CACHE_DIR", "off")  # measured here too, not read from a store
    text = english_reference_corpus()[:6_000]
    curve = compression_curve(split_held_out(text, 0.2), 200)
    for spec, make in (("ref:gpt2", functools.partial(jobs.reference, "gpt2")),
                       ("ours:456", functools.partial(curve.tokenizer, 200))):
        payload = pool.run(Job("tokenizer_core.jobs:quality_json", (text, 20, spec, make)))
        assert jobs.quality_from_json(payload) == stored.quality_row(text, 20, spec, make), spec
    gpt2 = jobs.quality_from_json(pool.run(Job("tokenizer_core.jobs:quality_json", (
        text, 20, "ref:gpt2", functools.partial(jobs.reference, "gpt2")))))
    held_out = split_held_out(text, 0.2).held_out
    assert gpt2.stats.tokens == len(tiktoken_encoding("gpt2").encode_ordinary(held_out))
