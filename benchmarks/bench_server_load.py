"""The server's side of a lecture hall: N students' sessions at once, without their browsers.

In a classroom each student's browser runs on the student's laptop; only the Streamlit server
is shared. bench_load.py drives real Chromium sessions, but on this 2-CPU machine the 30
browsers share the server's CPUs and their rendering dominates what it measures. This
benchmark speaks Streamlit's own protocol instead (the websocket at /_stcore/stream, the
same protobuf messages the browser sends), so what it times is the server alone:

- **load**: fetch the page (index.html and the scripts and styles it names, as a browser's
  first request does), open the websocket, ask for the first run, wait for `script_finished`;
- **answer**: send the text area's new value (the student typed and pressed Ctrl+Enter), wait
  for `script_finished`, and check that the run drew the student's own text.

N sessions arrive at random moments within `--arrival` seconds (seeded); the bare
one-text-area app (servers.py) is measured the same way in the same run, and the ratio of the
p95s is the issue's goal (within 1.5x for 30 sessions). The store is warmed first, and the
teacher opens the page once before the students arrive (not counted; `--cold-server` skips it):
the server's first run imports the pages' modules and loads the tokenizers.

    python benchmarks/bench_server_load.py --sessions 10 30 60 100
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import REPO, Server, start_server, warm_store, write_bare_app  # noqa: E402

MAX_MESSAGE_BYTES = 200 * 1024 * 1024


@dataclass
class Outcome:
    load_s: float | None = None
    answer_s: float | None = None
    error: str = ""


def fetch_page(url: str) -> int:
    """GET the page and the scripts and styles its HTML names; the bytes received."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url + "/", timeout=120) as response:
        html = response.read()
    total = len(html)
    for path in re.findall(rb'(?:src|href)="(\./static/[^"]+\.(?:js|css))"', html):
        with opener.open(url + "/" + path.decode()[2:], timeout=120) as response:
            total += len(response.read())
    return total


async def run_until_finished(ws, request: BackMsg, marker: str | None = None) -> tuple[str | None, bool]:
    """Send a rerun and read messages until the run finished: (the text area's widget id if
    one was drawn, whether `marker` appeared in what the run sent)."""
    await ws.send(request.SerializeToString())
    widget_id, seen = None, marker is None
    while True:
        payload = await ws.recv()
        message = ForwardMsg()
        message.ParseFromString(payload)
        kind = message.WhichOneof("type")
        if kind == "delta" and message.delta.WhichOneof("type") == "new_element":
            element = message.delta.new_element
            if element.WhichOneof("type") == "text_area" and element.text_area.label == "Text":
                widget_id = element.text_area.id
        if marker is not None and marker.encode() in payload:
            seen = True
        if kind == "script_finished":
            return widget_id, seen


def rerun(query: str = "", widget_id: str | None = None, value: str = "") -> BackMsg:
    request = BackMsg()
    request.rerun_script.query_string = query
    if widget_id is not None:
        state = request.rerun_script.widget_states.widgets.add()
        state.id, state.string_value = widget_id, value
    return request


async def session(url: str, number: int, timeout_s: float, out: Outcome) -> None:
    ws_url = url.replace("http://", "ws://") + "/_stcore/stream"
    t0 = time.perf_counter()
    await asyncio.to_thread(fetch_page, url)
    async with connect(ws_url, subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES,
                       open_timeout=timeout_s) as ws:  # fmt: skip
        widget_id, _ = await asyncio.wait_for(run_until_finished(ws, rerun()), timeout_s)
        out.load_s = time.perf_counter() - t0
        if widget_id is None:
            raise RuntimeError("the first run drew no text area labelled Text")
        marker = f"Student{number:03d}"
        t1 = time.perf_counter()
        typed = rerun("", widget_id, f"{marker} asks: is 9.11 bigger than 9.9? 你好 🙂")
        _, seen = await asyncio.wait_for(run_until_finished(ws, typed, marker), timeout_s)
        if not seen:
            raise RuntimeError("the run after typing did not draw the typed text")
        out.answer_s = time.perf_counter() - t1


async def crowd(server: Server, sessions: int, arrival_s: float, timeout_s: float, seed: int):
    rng = random.Random(seed)
    delays = sorted(rng.uniform(0, arrival_s) for _ in range(sessions))
    outcomes = [Outcome() for _ in range(sessions)]

    async def one(number: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await session(server.url, number, timeout_s, outcomes[number])
        except Exception as error:  # noqa: BLE001 - a failed session is a result
            outcomes[number].error = f"{type(error).__name__}: {str(error)[:120]}"

    cpu0 = server.cpu_s()
    await asyncio.gather(*(one(i, d) for i, d in enumerate(delays)))
    return outcomes, server.cpu_s() - cpu0


def percentile(values: list[float], q: float) -> float | None:
    values = sorted(values)
    return values[min(len(values) - 1, round(q * (len(values) - 1)))] if values else None


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.2f}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10, 30, 60, 100])
    parser.add_argument("--arrival", type=float, default=15.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cold-server", action="store_true", help="no teacher's visit first")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tokex-server-load-"))
    env = {**os.environ, "TOKEX_CACHE_DIR": str(work / "cache"), "PYTHONUNBUFFERED": "1"}
    warm_store(env)
    bare = write_bare_app(work / "bare")
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; arrival within "
          f"{args.arrival:.0f} s, timeout {args.timeout:.0f} s, store warmed; a new server per row"
          f"{'' if args.cold_server else ', opened once by the teacher first'}")
    rows = []
    for n in args.sessions:
        results = {}
        for name, script in (("bare", bare), ("app", REPO / "app.py")):
            server = start_server(script, env, work / f"{name}-{n}.log")
            try:
                if not args.cold_server:
                    await session(server.url, 999, args.timeout, Outcome())  # the teacher
                results[name] = await crowd(server, n, args.arrival, args.timeout, args.seed)
            finally:
                server.stop()
            failed = [o.error for o in results[name][0] if o.answer_s is None]
            print(f"N={n} {name}: failed {len(failed)} {sorted(set(failed))[:2]}", flush=True)
        rows.append((n, results))
    print()
    print("| N | load p50 app / bare | load p95 app / bare | ratio p95 | answer p50 app / bare | "
          "answer p95 app / bare | ratio p95 | failed app / bare | server CPU s a session app / bare |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, results in rows:
        cells = []
        for what in ("load_s", "answer_s"):
            app = [getattr(o, what) for o in results["app"][0] if getattr(o, what) is not None]
            bare_ = [getattr(o, what) for o in results["bare"][0] if getattr(o, what) is not None]
            a50, b50, a95, b95 = (percentile(app, .5), percentile(bare_, .5),
                                  percentile(app, .95), percentile(bare_, .95))  # fmt: skip
            cells += [f"{fmt(a50)} / {fmt(b50)}", f"{fmt(a95)} / {fmt(b95)}",
                      "-" if a95 is None or not b95 else f"{a95 / b95:.2f}x"]  # fmt: skip
        failed = [sum(o.answer_s is None for o in results[k][0]) for k in ("app", "bare")]
        cpu = [results[k][1] / n for k in ("app", "bare")]
        print(f"| {n} | " + " | ".join(cells) + f" | {failed[0]} / {failed[1]} | "
              f"{cpu[0]:.2f} / {cpu[1]:.2f} |")
    print(f"# load average {os.getloadavg()[0]:.1f} at the end; logs in {work}")


if __name__ == "__main__":
    asyncio.run(main())
