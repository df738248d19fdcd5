"""The server's side of a lecture hall: N students' sessions at once, without their browsers.

In a classroom each student's browser runs on the student's laptop; only the Streamlit server
is shared. bench_load.py drives real Chromium sessions, but on this 2-CPU machine the 30
browsers share the server's CPUs and their rendering dominates what it measures. This
benchmark speaks Streamlit's own protocol instead (the websocket at /_stcore/stream, the
same protobuf messages the browser sends), so what it times is the server alone:

- **load**: fetch every file a browser's first visit fetched (the teacher's visit, in Chromium,
  records them: index, Streamlit's script chunks, styles, fonts, the app's components), six at
  a time, then open the websocket, ask for the first run, wait for `script_finished`;
- **answer**: send the text area's new value (the student typed and pressed Ctrl+Enter), wait
  for `script_finished`, and check that the run drew the student's own text.

N sessions arrive at random moments within `--arrival` seconds (seeded); the bare
one-text-area app (servers.py) is measured the same way in the same run, and the ratio of the
p95s is the issue's goal (within 1.5x for 30 sessions). The store is warmed first, and the
teacher opens the page in Chromium before the students arrive (not counted): the server's first
run imports the pages' modules and loads the tokenizers.

    python benchmarks/bench_server_load.py --sessions 10 30 60 100
    python benchmarks/bench_server_load.py --parts 15   # where one session's server CPU goes
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import async_playwright
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import (  # noqa: E402  (benchmarks/servers.py, beside this file)
    APP_IDLE,
    CHROMIUM,
    LAPTOP,
    REPO,
    RUNNING,
    Server,
    start_behind_nginx,
    start_server,
    warm_store,
    write_bare_app,
)

MAX_MESSAGE_BYTES = 200 * 1024 * 1024
BROWSER_CONNECTIONS = 6  # what Chromium opens to one host over HTTP/1.1


@dataclass
class Outcome:
    load_s: float | None = None
    answer_s: float | None = None
    error: str = ""
    socket: object = None  # the open websocket, when the crowd keeps it open


async def close_all(outcomes: list[Outcome]) -> None:
    for o in outcomes:
        if o.socket is not None:
            await o.socket.close()
            o.socket = None


def fetch(url: str) -> int:
    """GET one URL; the bytes received. subtle: a page opened by its own link asks for
    /<page>/_stcore/... first and gets a 404, as the browser does (Streamlit #7074)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(url, timeout=120) as response:
            return len(response.read())
    except urllib.error.HTTPError as error:
        if error.code == 404:
            return 0
        raise


async def fetch_page(paths: list[str], url: str) -> None:
    """GET every file a browser fetched for this page (index, scripts, styles, fonts,
    components), six at a time as a browser does over HTTP/1.1."""
    for start in range(0, len(paths), BROWSER_CONNECTIONS):
        batch = paths[start : start + BROWSER_CONNECTIONS]
        await asyncio.gather(*(asyncio.to_thread(fetch, url + path) for path in batch))


async def record_requests(url: str, page: str) -> list[str]:
    """The teacher's visit, in Chromium: the same-origin GETs a first visit makes (paths)."""
    paths: list[str] = []
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            context = await browser.new_context(viewport=LAPTOP, service_workers="block")
            tab = await context.new_page()
            tab.on("request", lambda r: paths.append(r.url[len(url):])
                   if r.url.startswith(url) and r.method == "GET" and "/_stcore/stream" not in r.url
                   else None)  # fmt: skip
            await tab.goto(f"{url}/{page}", wait_until="commit")
            await tab.locator(APP_IDLE).wait_for(timeout=120_000)
            await tab.locator(RUNNING).first.wait_for(state="detached", timeout=120_000)
            await tab.wait_for_timeout(1_000)  # late chunks (a component's script, a font)
        finally:
            await browser.close()
    return paths


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
        # subtle: a run that ends in st.rerun() (the app's first run routes itself) finishes
        # "early for rerun"; the answer is the run after it.
        if kind == "script_finished" and message.script_finished != ForwardMsg.FINISHED_EARLY_FOR_RERUN:
            if message.script_finished == ForwardMsg.FINISHED_WITH_COMPILE_ERROR:
                raise RuntimeError("the script did not compile")
            return widget_id, seen


def rerun(page: str = "", widget_id: str | None = None, value: str = "") -> BackMsg:
    request = BackMsg()
    request.rerun_script.page_name = page  # the URL path: "" is the default page
    if widget_id is not None:
        state = request.rerun_script.widget_states.widgets.add()
        state.id, state.string_value = widget_id, value
    return request


async def session(url: str, number: int, timeout_s: float, out: Outcome, page: str,
                  files: list[str], keep_open: bool = False) -> None:
    ws_url = url.replace("http://", "ws://") + "/_stcore/stream"
    t0 = time.perf_counter()
    await fetch_page(files, url)
    ws = await connect(ws_url, subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES,
                       open_timeout=timeout_s)  # fmt: skip
    try:
        await _session_runs(ws, number, timeout_s, out, page, t0)
    finally:
        if keep_open:
            out.socket = ws
        else:
            await ws.close()


async def _session_runs(ws, number: int, timeout_s: float, out: Outcome, page: str,
                    t0: float) -> None:
    widget_id, _ = await asyncio.wait_for(run_until_finished(ws, rerun(page)), timeout_s)
    out.load_s = time.perf_counter() - t0
    if page:  # another page: its answer is a rerun (what any change of a control costs)
        t1 = time.perf_counter()
        await asyncio.wait_for(run_until_finished(ws, rerun(page)), timeout_s)
        out.answer_s = time.perf_counter() - t1
        return
    if widget_id is None:
        raise RuntimeError("the first run drew no text area labelled Text")
    marker = f"Student{number:03d}"
    t1 = time.perf_counter()
    typed = rerun(page, widget_id, f"{marker} asks: is 9.11 bigger than 9.9? 你好 🙂")
    _, seen = await asyncio.wait_for(run_until_finished(ws, typed, marker), timeout_s)
    if not seen:
        raise RuntimeError("the run after typing did not draw the typed text")
    out.answer_s = time.perf_counter() - t1


async def crowd(server: Server, sessions: int, arrival_s: float, timeout_s: float, seed: int,
                page: str, files: list[str], keep_open: bool = False):
    rng = random.Random(seed)
    delays = sorted(rng.uniform(0, arrival_s) for _ in range(sessions))
    outcomes = [Outcome() for _ in range(sessions)]

    async def one(number: int, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await session(server.url, number, timeout_s, outcomes[number], page, files, keep_open)
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


async def memory(args: argparse.Namespace, env: dict[str, str], work: Path) -> None:
    """RSS of one app server through rounds of the same crowd: what a session's state costs,
    and whether it is freed once the session closed (memory that stays grows round by round)."""
    n = args.sessions[0]
    server = start_server(REPO / "app.py", env, work / "memory.log")
    try:
        files = await record_requests(server.url, args.page)
        print(f"RSS at start, after the teacher's visit: {server.rss_mb():.0f} MB", flush=True)
        print(f"\n| round ({n} sessions) | RSS with them open (MB) | {args.settle:.0f} s after they "
              f"closed (MB) | failed |\n|---:|---:|---:|---:|")
        for r in range(args.memory_rounds):
            outcomes, _ = await crowd(server, n, args.arrival, args.timeout, args.seed + r,
                                      args.page, files, keep_open=True)  # fmt: skip
            loaded = server.rss_mb()
            await close_all(outcomes)
            await asyncio.sleep(args.settle)
            failed = sum(o.answer_s is None for o in outcomes)
            print(f"| {r + 1} | {loaded:.0f} | {server.rss_mb():.0f} | {failed} |", flush=True)
    finally:
        server.stop()


async def parts(args: argparse.Namespace, env: dict[str, str], bare: Path, work: Path) -> None:
    """Where a session's server CPU goes, one session at a time (no queue): the first visit's
    files, the websocket and first run, the answer to typing; both apps, same protocol."""
    n = args.parts
    print(f"\n| part of a session ({n} one at a time, ms of server CPU) | bare | app |\n|---|---:|---:|")
    cells: dict[str, list[str]] = {}
    for name, script in (("bare", bare), ("app", REPO / "app.py")):
        server = start_server(script, env, work / f"parts-{name}.log")
        try:
            files = await record_requests(server.url, "")
            spent = {"files": 0.0, "websocket and first run": 0.0, "answer to typing": 0.0}
            for number in range(n):
                cpu = server.cpu_s()
                await fetch_page(files, server.url)
                spent["files"] += server.cpu_s() - cpu
                cpu = server.cpu_s()
                ws = await connect(server.url.replace("http://", "ws://") + "/_stcore/stream",
                                   subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES)  # fmt: skip
                widget_id, _ = await run_until_finished(ws, rerun())
                spent["websocket and first run"] += server.cpu_s() - cpu
                cpu, marker = server.cpu_s(), f"Student{number:03d}"
                await run_until_finished(ws, rerun("", widget_id, f"{marker} asks: 你好 🙂"), marker)
                spent["answer to typing"] += server.cpu_s() - cpu
                await ws.close()
            cells.setdefault(f"files ({name}: {len(files)})", [])
            for part, seconds in spent.items():
                cells.setdefault(part, []).append(f"{seconds / n * 1000:.0f}")
        finally:
            server.stop()
    for part, values in cells.items():
        if values:
            print(f"| {part} | " + " | ".join(values) + " |")
    print("files fetched: " + ", ".join(k.split("(")[1].rstrip(")") for k in cells if not cells[k]))


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10, 30, 60, 100])
    parser.add_argument("--arrival", type=float, default=15.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--page", default="", choices=["", "merge_steps", "compression",
                                                       "languages", "sequences", "vocabulary"],
                        help="another page than the Playground: load it, then rerun it (the "
                             "bare app is still the peer)")
    parser.add_argument("--front", choices=["streamlit", "nginx"], default="streamlit",
                        help="nginx: deploy/run.sh 1 for both apps (nginx serves the static files)")
    parser.add_argument("--memory-rounds", type=int, default=0,
                        help="instead of the table: one app server, this many crowds of the "
                             "first --sessions, its RSS after each and --settle s after it closed")
    parser.add_argument("--settle", type=float, default=130.0,
                        help="s after a crowd closed before reading RSS (Streamlit keeps a "
                             "closed session for server.disconnectedSessionTTL, 120 s)")
    parser.add_argument("--parts", type=int, default=0,
                        help="instead of the table: this many sessions one at a time, and the "
                             "server CPU of each part of a session (files, first run, answer)")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tokex-server-load-"))
    env = {**os.environ, "TOKEX_CACHE_DIR": str(work / "cache"), "PYTHONUNBUFFERED": "1"}
    warm_store(env)
    bare = write_bare_app(work / "bare")
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; arrival within "
          f"{args.arrival:.0f} s, timeout {args.timeout:.0f} s, store warmed; a new server per row"
          f", opened once by the teacher first; page: {args.page or 'playground'}; front: {args.front}")
    if args.memory_rounds:
        await memory(args, env, work)
        return
    if args.parts:
        await parts(args, env, bare, work)
        return
    rows = []
    for n in args.sessions:
        results = {}
        for name, script in (("bare", bare), ("app", REPO / "app.py")):
            log = work / f"{name}-{n}.log"
            server = (start_server(script, env, log) if args.front == "streamlit"
                      else start_behind_nginx(script, env, work / f"run-{name}-{n}", log))  # fmt: skip
            page = args.page if name == "app" else ""
            try:
                files = await record_requests(server.url, page)  # the teacher's visit
                results[name] = await crowd(server, n, args.arrival, args.timeout, args.seed,
                                            page, files)  # fmt: skip
            finally:
                server.stop()
            failed = [o.error for o in results[name][0] if o.answer_s is None]
            print(f"N={n} {name}: a first visit fetches {len(files)} files; "
                  f"failed {len(failed)} {sorted(set(failed))[:2]}", flush=True)
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
