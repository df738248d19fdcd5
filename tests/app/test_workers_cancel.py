"""A job in the worker pool stops with its run, in a real Streamlit server: a rerun that replaces
the run, or the tab closing, kills the job's worker process (ui/common/workers.py, through
cancel.run_check), even when the job reports no progress at all.

The server runs a four-line script of its own (not the app: what is tested is the mechanism,
and the app's pages would make the test slow); the client speaks Streamlit's protocol.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

websockets = pytest.importorskip("websockets.asyncio.client")

from streamlit.proto.BackMsg_pb2 import BackMsg  # noqa: E402
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg  # noqa: E402


def _run(coroutine):
    """asyncio.run in a thread of its own: in an xdist worker that also ran browser tests,
    Playwright's sync API keeps an event loop running in the main thread, and asyncio.run
    refuses to start a second one there."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


REPO = Path(__file__).resolve().parents[2]
SCRIPT = """\
import streamlit as st
from tokenizer_core.workers import Job
from ui.common import workers
run = st.session_state["runs"] = st.session_state.get("runs", 0) + 1
if run == 1:  # the first run waits on a job that never ends and reports nothing
    workers.run(Job("tests.core.worker_jobs:silent", ({never!r},)))
st.write(f"run {{run}} done")
"""


def _children(pid: int) -> list[int]:
    """Every child of the server, whichever of its threads started it."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _wait_for(condition, seconds: float = 60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


@pytest.fixture
def server(tmp_path):
    (tmp_path / "script.py").write_text(SCRIPT.format(never=str(tmp_path / "never")))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(REPO), "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "script.py", "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true",
         "--browser.gatherUsageStats", "false"],
        cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def healthy() -> bool:
        try:
            with opener.open(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as answer:
                return answer.status == 200
        except OSError:
            return False

    try:
        _wait_for(healthy, 90)
        yield proc.pid, f"ws://127.0.0.1:{port}/_stcore/stream"
    finally:
        proc.kill()
        proc.wait(timeout=10)


def _rerun() -> bytes:
    request = BackMsg()
    request.rerun_script.page_name = ""
    return request.SerializeToString()


async def _texts_until_finished(ws) -> list[str]:
    texts = []
    while True:
        message = ForwardMsg()
        message.ParseFromString(await asyncio.wait_for(ws.recv(), 60))
        kind = message.WhichOneof("type")
        if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            texts.append(message.delta.new_element.markdown.body)
        if kind == "script_finished" and message.script_finished == ForwardMsg.FINISHED_SUCCESSFULLY:
            return texts


def test_a_rerun_kills_the_job_s_worker_and_the_new_run_goes_on(server):
    pid, url = server

    async def client() -> tuple[int, list[str]]:
        async with websockets.connect(url, subprotocols=["streamlit"]) as ws:
            await ws.send(_rerun())
            [worker] = await asyncio.to_thread(_wait_for, lambda: _children(pid))
            await ws.send(_rerun())  # what a widget change sends
            return worker, await _texts_until_finished(ws)

    worker, texts = _run(client())
    assert "run 2 done" in texts and "run 1 done" not in texts
    # subtle: Streamlit starts the new run in a new thread and tells the old one to stop; it
    # stops at its next check, a moment later
    _wait_for(lambda: not Path(f"/proc/{worker}").exists())  # killed and reaped


def test_closing_the_tab_kills_the_job_s_worker(server):
    pid, url = server

    async def client() -> int:
        async with websockets.connect(url, subprotocols=["streamlit"]) as ws:
            await ws.send(_rerun())
            [worker] = await asyncio.to_thread(_wait_for, lambda: _children(pid))
            return worker

    worker = _run(client())
    _wait_for(lambda: not Path(f"/proc/{worker}").exists())
