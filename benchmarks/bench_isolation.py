"""Heavy sessions while others use the app: the others' answer times and the server's memory, with
the trainings in the server's process and in worker processes, in one run (#22 isolation).

Two app servers, one after the other, started as the README starts them: `TOKEX_WORKERS=0`
(every training in the server, as before the pool) and the default pool (`TOKEX_WORKERS` unset:
min(2, CPUs) workers). Each gets an empty store of its own, so both train the same things. On
each, speaking Streamlit's own protocol (bench_server_load.py's websocket client, no browsers:
what is timed is the server alone):

1. the teacher's visit: the Playground, then the Compression page's default view (it trains
   that view, in the server or in workers: the mode under test);
2. **quiet**: `--others` sessions on the Playground, each typing a new text (Ctrl+Enter) every
   `--think` s, for `--quiet` s: their answer times with no heavy session (the baseline);
3. **one heavy**: the same others while one session opens Compression trained up to 16,000
   (English and Chinese, our curve and the three HF lines at every size up to 16,000) at a
   held-out share nobody trained (a store miss: a real training); the others' answers from its
   start to its end. The goal: their p95 at most 20% above the quiet p95;
4. **memory**: `--crowd` such heavy sessions at once (each its own held-out share while there are
   shares left), no one else; the server's own RSS before, at the peak (sampled every 0.2 s) and
   `--settle` s after they closed (the server runs with `server.disconnectedSessionTTL` = 5 s and
   idle workers end after 10 s, so a closed session's state is dropped in that time); the
   workers' RSS (the server's child processes, servers.children) apart. The goal: the server
   back within 10% of where it started.

    python benchmarks/bench_isolation.py --others 6 --crowd 10
    python benchmarks/bench_isolation.py --memory-only --trim-probe --modes "in workers"

`--memory-only` skips steps 2 and 3. `--trim-probe` then asks the server's glibc, through gdb,
to give back the memory it keeps free (`malloc_trim(0)`) and reads the RSS again: what of the
"after" is free memory the allocator kept, rather than memory still in use.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server_load import (  # noqa: E402  (beside this file)
    MAX_MESSAGE_BYTES,
    percentile,
    rerun,
    run_until_finished,
)
from servers import REPO, Server, children, rss_mb, start_server, stat_cpu_s  # noqa: E402

HEAVY_QUERY = "cp_vocab=16000&cp_held_out={pct}"  # the default corpora and HF lines, to 16,000
# Held-out shares the page offers, never the default 20 (the teacher's visit trains it): every
# heavy session's first share is a store miss. Past nine sessions they repeat.
ONE_HEAVY_PCT = 25
CROWD_PCTS = (30, 35, 40, 45, 50, 15, 10)
MODES = {"in the server": "0", "in workers": ""}


@dataclass
class Measured:
    quiet: list[float] = field(default_factory=list)  # others' answers, no heavy session
    busy: list[float] = field(default_factory=list)  # others' answers while one trained
    quiet_cpu_s: float = 0.0  # the server's CPU over the quiet phase (the others' answers)
    heavy_s: float = 0.0  # the one heavy session, open to finished
    heavy_server_cpu_s: float = 0.0  # the server's own CPU over that window
    heavy_workers_cpu_s: float = 0.0  # its child processes' (workers')
    before: float = 0.0  # server RSS, MB
    peak: float = 0.0
    after: float = 0.0
    trimmed: float | None = None  # server RSS after malloc_trim (--trim-probe), MB
    workers_peak: float = 0.0
    workers_after: float = 0.0
    crowd_s: list[float] = field(default_factory=list)


def _ws_url(server: Server) -> str:
    return server.url.replace("http://", "ws://") + "/_stcore/stream"


async def open_session(server: Server, page: str = "", query: str = ""):
    ws = await connect(_ws_url(server), subprotocols=["streamlit"], max_size=MAX_MESSAGE_BYTES,
                       open_timeout=120)  # fmt: skip
    request = rerun(page)
    request.rerun_script.query_string = query
    widget_id, _ = await asyncio.wait_for(run_until_finished(ws, request), 1_800)
    return ws, widget_id


async def other(server: Server, number: int, think_s: float, stop: asyncio.Event,
                answers: list[tuple[float, float]]) -> None:
    """A student on the Playground, typing a new text every `think_s` until `stop`:
    (start, seconds) of each answer."""
    ws, widget_id = await open_session(server)
    try:
        turn = 0
        while not stop.is_set():
            turn += 1
            marker = f"Other{number:02d}x{turn:04d}"
            start = time.perf_counter()
            _, seen = await asyncio.wait_for(run_until_finished(
                ws, rerun("", widget_id, f"{marker} types: is 9.11 bigger than 9.9?"), marker), 300)
            if not seen:
                raise RuntimeError("the answer did not draw the typed text")
            answers.append((start, time.perf_counter() - start))
            await asyncio.sleep(think_s)
    finally:
        await ws.close()


async def heavy(server: Server, pct: int) -> float:
    """One session opening Compression trained to 16,000 on held-out share `pct`; seconds."""
    start = time.perf_counter()
    ws, _ = await open_session(server, "compression", HEAVY_QUERY.format(pct=pct))
    await ws.close()
    return time.perf_counter() - start


def workers_cpu_s(pid: int) -> float:
    """CPU of the server's children: the live ones' own, plus the reaped ones' (in the server's
    cutime). A difference of two readings is the workers' work between them."""
    reaped = stat_cpu_s(pid, with_reaped=True) - stat_cpu_s(pid)
    return reaped + sum(stat_cpu_s(c) for c in children(pid))


async def sample_peak(pid: int, stop: asyncio.Event, out: Measured) -> None:
    while not stop.is_set():
        out.peak = max(out.peak, rss_mb(pid))
        out.workers_peak = max(out.workers_peak, sum(rss_mb(c) for c in children(pid)))
        await asyncio.sleep(0.2)


async def typing(server: Server, args: argparse.Namespace, stop: asyncio.Event,
                 answers: list[tuple[float, float]]) -> list[asyncio.Task]:
    return [asyncio.create_task(other(server, i, args.think, stop, answers))
            for i in range(args.others)]


async def measure(server: Server, args: argparse.Namespace) -> Measured:
    out = Measured()
    for page in ("", "compression"):  # the teacher's visit: imports, tokenizers, default view
        ws, _ = await open_session(server, page)
        await ws.close()
    await asyncio.sleep(args.settle)
    if not args.memory_only:
        await latency(server, args, out)
    if args.crowd:
        await memory(server, args, out)
    return out


def trim_probe(pid: int) -> float:
    """The server's RSS after glibc's malloc_trim(0), called in it by gdb."""
    subprocess.run(["gdb", "-p", str(pid), "-batch", "-ex", "call (int)malloc_trim(0)"],
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return rss_mb(pid)


async def latency(server: Server, args: argparse.Namespace, out: Measured) -> None:
    """Steps 2 and 3: the others alone, then while one heavy session trains."""
    # quiet: the others alone
    answers: list[tuple[float, float]] = []
    stop = asyncio.Event()
    cpu0 = stat_cpu_s(server.pid)
    others = await typing(server, args, stop, answers)
    await asyncio.sleep(args.quiet)
    stop.set()
    await asyncio.gather(*others)
    out.quiet_cpu_s = stat_cpu_s(server.pid) - cpu0
    out.quiet = [s for _, s in answers]
    # one heavy session while the others type
    answers, stop = [], asyncio.Event()
    others = await typing(server, args, stop, answers)
    await asyncio.sleep(max(args.think * 4, 2.0))  # the others are typing before it starts
    cpu0, workers0 = stat_cpu_s(server.pid), workers_cpu_s(server.pid)
    window = time.perf_counter()
    out.heavy_s = await heavy(server, ONE_HEAVY_PCT)
    window_end = time.perf_counter()
    out.heavy_server_cpu_s = stat_cpu_s(server.pid) - cpu0
    out.heavy_workers_cpu_s = workers_cpu_s(server.pid) - workers0
    stop.set()
    await asyncio.gather(*others)
    out.busy = [s for t, s in answers if window <= t <= window_end]
    await asyncio.sleep(args.settle)


async def memory(server: Server, args: argparse.Namespace, out: Measured) -> None:
    """Step 4: `--crowd` heavy sessions at once; the server's RSS before, at the peak, after."""
    out.before = rss_mb(server.pid)
    sampling = asyncio.Event()
    sampler = asyncio.create_task(sample_peak(server.pid, sampling, out))
    pcts = [CROWD_PCTS[i % len(CROWD_PCTS)] for i in range(args.crowd)]
    out.crowd_s = list(await asyncio.gather(*(heavy(server, p) for p in pcts)))
    await asyncio.sleep(args.settle)
    sampling.set()
    await sampler
    out.after = rss_mb(server.pid)
    out.workers_after = sum(rss_mb(c) for c in children(server.pid))
    if args.trim_probe:
        out.trimmed = trim_probe(server.pid)


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def report(rows: dict[str, Measured], crowd: int, memory_only: bool = False) -> None:
    """The tables. The server's CPU over the heavy window holds the others' answers too: at the
    quiet phase's CPU per answer, their share is taken off to leave the heavy session's own."""
    if not memory_only:
        latency_table(rows)
    if crowd:
        memory_table(rows, crowd)


def latency_table(rows: dict[str, Measured]) -> None:
    print("\n| training | others' answers quiet / with one heavy | p50 quiet / heavy (s) | "
          "p95 quiet / heavy (s) | p95 rise | heavy session (s) | server CPU a quiet answer (s) "
          "| heavy window CPU: server / its answers' share / workers (s) |\n"
          "|---|---:|---:|---:|---:|---:|---:|---:|")
    for mode, r in rows.items():
        q50, b50 = percentile(r.quiet, .5), percentile(r.busy, .5)
        q95, b95 = percentile(r.quiet, .95), percentile(r.busy, .95)
        rise = "-" if not q95 or b95 is None else f"{b95 / q95 - 1:+.0%}"
        per_answer = r.quiet_cpu_s / max(len(r.quiet), 1)
        print(f"| {mode} | {len(r.quiet)} / {len(r.busy)} | {fmt(q50)} / {fmt(b50)} | "
              f"{fmt(q95)} / {fmt(b95)} | {rise} | {r.heavy_s:.1f} | {per_answer:.3f} | "
              f"{r.heavy_server_cpu_s:.1f} / {per_answer * len(r.busy):.1f} / "
              f"{r.heavy_workers_cpu_s:.1f} |")


def memory_table(rows: dict[str, Measured], crowd: int) -> None:
    print(f"\n| training | {crowd} heavy sessions at once: slowest (s) | server RSS before / "
          "peak / after (MB) | after vs before | after malloc_trim (MB) | workers' RSS peak / "
          "after (MB) |\n|---|---:|---:|---:|---:|---:|")
    for mode, r in rows.items():
        trimmed = "-" if r.trimmed is None else (
            f"{r.trimmed:.0f} ({r.trimmed / r.before - 1:+.0%})")
        print(f"| {mode} | {max(r.crowd_s):.1f} | {r.before:.0f} / {r.peak:.0f} / {r.after:.0f} "
              f"| {r.after / r.before - 1:+.0%} | {trimmed} | {r.workers_peak:.0f} / "
              f"{r.workers_after:.0f} |")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--others", type=int, default=6, help="sessions typing on the Playground")
    parser.add_argument("--think", type=float, default=0.5, help="s between an answer and the next")
    parser.add_argument("--quiet", type=float, default=30.0, help="s of others without heavy work")
    parser.add_argument("--crowd", type=int, default=10, help="heavy sessions at once (0: none)")
    parser.add_argument("--settle", type=float, default=20.0)
    parser.add_argument("--modes", nargs="+", default=list(MODES), choices=list(MODES))
    parser.add_argument("--memory-only", action="store_true",
                        help="only the teacher's visit and the crowd (steps 1 and 4)")
    parser.add_argument("--trim-probe", action="store_true",
                        help="after the crowd, malloc_trim(0) in the server (gdb) and its RSS")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="tokex-isolation-"))
    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
          + ("only the crowd: " if args.memory_only else
             f"{args.others} others typing every {args.think} s; one heavy session, then ")
          + f"{args.crowd} at once; an empty store per server", flush=True)
    rows: dict[str, Measured] = {}
    for mode in args.modes:
        workers = MODES[mode]
        name = workers or "pool"
        env = {**os.environ, "TOKEX_CACHE_DIR": str(work / f"store-{name}"),
               "PYTHONUNBUFFERED": "1", "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "5",
               "TOKEX_WORKER_IDLE": "10"}  # idle workers end before "after" is read
        env.pop("TOKEX_WORKERS", None)
        if workers:
            env["TOKEX_WORKERS"] = workers
        server = start_server(REPO / "app.py", env, work / f"server-{name}.log")
        try:
            rows[mode] = await measure(server, args)
        finally:
            server.stop()
        r = rows[mode]
        print(f"# {mode}: one heavy session {r.heavy_s:.1f} s; {len(r.quiet)} quiet answers, "
              f"{len(r.busy)} during it; crowd {', '.join(f'{s:.0f}' for s in r.crowd_s)} s; "
              f"load average {os.getloadavg()[0]:.1f}", flush=True)
    report(rows, args.crowd, args.memory_only)
    print(f"# load average {os.getloadavg()[0]:.1f} at the end; logs in {work}")


if __name__ == "__main__":
    asyncio.run(main())
