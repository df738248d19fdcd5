"""A lecture hall at once: N Chromium sessions open a page and type, against a bare app.

Every scenario runs twice in the same run: against this app and against a bare Streamlit app
of one text area (`BARE_APP` in servers.py), same Streamlit, same config, same browser, same machine,
so the machine's noise cancels in the ratio. A session arrives at a random moment within
`--arrival` seconds (seeded), opens the page, and measures:

- **load**: navigate -> the page's first content drawn and the app idle (Playground: the three
  default token panels; bare app: its echo of the text);
- **answer**: types its own sentence (Ctrl+Enter applies it) -> the page shows it, app idle.
  Other pages have their own action: Merge steps steps the player, Compression draws its first
  chart (load only), Languages switches to the "English vs Chinese" tab.

A session that does not finish within `--timeout` seconds counts as failed (and in neither
percentile). Server memory (RSS of the server process) is read at start, after the sessions
loaded and typed, and `--settle` seconds after they closed, for `--rounds` rounds: memory that
stays after the sessions close grows from round to round.

The store of trained tokenizers is warmed first (`python -m tokenizer_core warm` into a
temporary TOKEX_CACHE_DIR), as a teacher does before a lesson; `--cold-store` skips that. The
teacher also opens the page once before the students arrive (not counted; `--cold-server`
skips it).

    python benchmarks/bench_load.py --sessions 10 30 60
    python benchmarks/bench_load.py --sessions 30 --pages merge_steps compression languages
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Page, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import (  # noqa: E402  (benchmarks/servers.py, beside this file)
    APP_IDLE,
    BARE_TEXT,
    CHROMIUM,
    ERRORS,
    LAPTOP,
    REPO,
    RUNNING,
    Server,
    children,
    start_behind_nginx,
    start_server,
    stat_cpu_s,
    warm_store,
    write_bare_app,
)


def browser_cpu_s(exclude: set[int]) -> float:
    """CPU seconds of this benchmark's browser side: every process below this one (Playwright's
    driver, Chromium and its renderers, counting renderers already gone) but the servers."""
    total, todo = 0.0, children(os.getpid())
    while todo:
        pid = todo.pop()
        if pid in exclude:
            continue
        total += stat_cpu_s(pid, with_reaped=True)
        todo.extend(children(pid))
    return total


# --- what one session does, per page ------------------------------------------------------------


@dataclass
class Outcome:
    load_s: float | None = None
    answer_s: float | None = None
    error: str = ""


async def idle(page: Page, timeout_ms: float) -> None:
    await page.locator(APP_IDLE).wait_for(timeout=timeout_ms)
    await page.locator(RUNNING).first.wait_for(state="detached", timeout=timeout_ms)
    if await page.locator(ERRORS).count():
        raise RuntimeError("the app showed an exception: " + await page.locator(ERRORS).first.inner_text())


async def type_text(page: Page, text: str) -> None:
    box = page.get_by_label("Text", exact=True)
    await box.fill(text)
    await box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter


async def bare_session(page: Page, url: str, number: int, timeout_ms: float, out: Outcome) -> None:
    t0 = time.perf_counter()
    await page.goto(url + "/", wait_until="commit")
    await page.get_by_text(BARE_TEXT, exact=False).last.wait_for(timeout=timeout_ms)
    await idle(page, timeout_ms)
    out.load_s = time.perf_counter() - t0
    said = f"Student {number:02d} asks: is 9.11 bigger than 9.9?"
    t1 = time.perf_counter()
    await type_text(page, said)
    await page.get_by_text(said, exact=False).last.wait_for(timeout=timeout_ms)
    await idle(page, timeout_ms)
    out.answer_s = time.perf_counter() - t1


async def playground_session(page: Page, url: str, number: int, timeout_ms: float, out: Outcome) -> None:
    t0 = time.perf_counter()
    await page.goto(url + "/", wait_until="commit")
    await page.locator(".tokview").nth(2).wait_for(timeout=timeout_ms)  # the three default panels
    await idle(page, timeout_ms)
    out.load_s = time.perf_counter() - t0
    marker = f"Student{number:02d}"
    t1 = time.perf_counter()
    await type_text(page, f"{marker} asks: is 9.11 bigger than 9.9? 你好 🙂")
    await page.locator(".tokview").nth(2).filter(has_text=marker).wait_for(timeout=timeout_ms)
    await idle(page, timeout_ms)
    out.answer_s = time.perf_counter() - t1


async def merge_steps_session(page: Page, url: str, number: int, timeout_ms: float, out: Outcome) -> None:
    t0 = time.perf_counter()
    await page.goto(url + "/merge_steps", wait_until="commit")
    await page.locator(".ms-player .stepno").wait_for(timeout=timeout_ms)
    await idle(page, timeout_ms)
    out.load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    before = await page.locator(".ms-player").get_attribute("data-step")
    await page.get_by_role("button", name="Next step (→)").click(timeout=timeout_ms)
    await page.wait_for_function(
        "s => document.querySelector('.ms-player')?.getAttribute('data-step') !== s", arg=before,
        timeout=timeout_ms)  # fmt: skip
    await idle(page, timeout_ms)
    out.answer_s = time.perf_counter() - t1


async def compression_session(page: Page, url: str, number: int, timeout_ms: float, out: Outcome) -> None:
    t0 = time.perf_counter()
    await page.goto(url + "/compression", wait_until="commit")
    await page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=timeout_ms)
    out.load_s = time.perf_counter() - t0  # the first chart; the rest may still be coming
    await idle(page, timeout_ms)
    out.answer_s = time.perf_counter() - t0  # here: the whole page idle


async def languages_session(page: Page, url: str, number: int, timeout_ms: float, out: Outcome) -> None:
    t0 = time.perf_counter()
    await page.goto(url + "/languages", wait_until="commit")
    await page.get_by_role("heading", name="Languages").wait_for(timeout=timeout_ms)
    await page.locator(".ruler").first.wait_for(timeout=timeout_ms)  # the byte ruler, first tab
    await idle(page, timeout_ms)
    out.load_s = time.perf_counter() - t0
    t1 = time.perf_counter()
    await page.get_by_role("tab", name="English vs Chinese").click(timeout=timeout_ms)
    await page.locator('[role="tab"][aria-selected="true"]', has_text="English vs Chinese").wait_for(
        timeout=timeout_ms)  # fmt: skip
    await page.locator(".js-plotly-plot").first.wait_for(timeout=timeout_ms)
    await idle(page, timeout_ms)
    out.answer_s = time.perf_counter() - t1


async def heavy_session(browser, url: str, timeout_ms: float) -> float:
    """The background load: one session opens Compression and trains up to the largest vocab
    (16,000), which no warmed store holds; returns its seconds until the page is idle."""
    context = await browser.new_context(viewport=LAPTOP, service_workers="block")
    try:
        page = await context.new_page()
        page.set_default_timeout(timeout_ms)
        t0 = time.perf_counter()
        await page.goto(url + "/compression", wait_until="commit")
        await page.locator('[data-testid="stPlotlyChart"] .main-svg').first.wait_for(timeout=timeout_ms)
        await idle(page, timeout_ms)
        slider = page.locator('[data-testid="stSlider"]').filter(has_text="Train up to")
        await slider.get_by_role("slider").first.press("End")  # the largest vocab size
        await page.wait_for_timeout(500)  # the rerun starts
        await idle(page, timeout_ms)
        return time.perf_counter() - t0
    finally:
        await context.close()


SCENARIOS = {
    "playground": (playground_session, "load: 3 panels; answer: typed text tokenized"),
    "merge_steps": (merge_steps_session, "load: player; answer: next step"),
    "compression": (compression_session, "load: first chart; answer: page idle"),
    "languages": (languages_session, "load: first tab; answer: switch to English vs Chinese"),
}


# --- a crowd ---------------------------------------------------------------------------------------


@dataclass
class Round:
    outcomes: list[Outcome]
    wall_s: float
    cpu_s: float  # the server's CPU seconds while the sessions loaded and typed
    browser_cpu_s: float  # the browsers' (all on this machine here; in class, on each laptop)
    rss_loaded_mb: float
    rss_closed_mb: float

    def percentile(self, what: str, q: float) -> float | None:
        values = sorted(v for o in self.outcomes if (v := getattr(o, what)) is not None)
        if not values:
            return None
        return values[min(len(values) - 1, round(q * (len(values) - 1)))]

    @property
    def failed(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.answer_s is None]


async def crowd(browser, server: Server, session, sessions: int, arrival_s: float,
                timeout_s: float, settle_s: float, seed: int, heavy: bool = False) -> Round:
    rng = random.Random(seed)
    delays = sorted(rng.uniform(0, arrival_s) for _ in range(sessions))
    outcomes = [Outcome() for _ in range(sessions)]
    contexts = []

    async def one(number: int, delay: float) -> None:
        await asyncio.sleep(delay)
        context = await browser.new_context(viewport=LAPTOP, service_workers="block")
        contexts.append(context)
        page = await context.new_page()
        page.set_default_timeout(timeout_s * 1000)  # clicks and fills too, not Playwright's 30 s
        try:
            await session(page, server.url, number, timeout_s * 1000, outcomes[number])
        except Exception as error:  # noqa: BLE001 - a failed session is a result, not a crash
            outcomes[number].error = f"{type(error).__name__}: {str(error).splitlines()[0][:160]}"

    servers = {server.pid, server.proc.pid}
    t0, cpu0, browser0 = time.perf_counter(), server.cpu_s(), browser_cpu_s(servers)
    background = asyncio.create_task(heavy_session(browser, server.url, timeout_s * 1000)) if heavy else None
    await asyncio.gather(*(one(i, d) for i, d in enumerate(delays)))
    if background is not None:
        try:
            print(f"  background: Compression trained to 16,000 in {await background:.1f} s", flush=True)
        except Exception as error:  # noqa: BLE001 - reported, the crowd's numbers still stand
            print(f"  background failed: {type(error).__name__}: {error}", flush=True)
    wall, cpu = time.perf_counter() - t0, server.cpu_s() - cpu0
    browser = browser_cpu_s(servers) - browser0  # read before the contexts close
    loaded = server.rss_mb()
    for context in contexts:
        await context.close()
    await asyncio.sleep(settle_s)
    return Round(outcomes, wall, cpu, browser, loaded, server.rss_mb())


def fmt(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds:.2f}"


def ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or not b else f"{a / b:.2f}x"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[10, 30, 60])
    parser.add_argument("--pages", nargs="+", default=["playground"], choices=list(SCENARIOS))
    parser.add_argument("--arrival", type=float, default=15.0, help="sessions arrive within S s")
    parser.add_argument("--timeout", type=float, default=120.0, help="a session's time limit, s")
    parser.add_argument("--rounds", type=int, default=1, help="crowds per server (memory growth)")
    parser.add_argument("--settle", type=float, default=130.0,
                        help="s after closing, before RSS (Streamlit keeps a closed session's "
                             "state for server.disconnectedSessionTTL, 120 s)")
    parser.add_argument("--memory-sessions", type=int, default=30,
                        help="settle and read memory after close only for this N (others: 2 s)")
    parser.add_argument("--cold-store", action="store_true", help="do not warm the store first")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--cold-server", action="store_true",
                        help="no teacher's visit before the crowd (the server's first run "
                             "imports the pages' modules and loads the tokenizers)")
    parser.add_argument("--background", action="store_true",
                        help="also run the app with one more session training Compression to "
                             "16,000 during the crowd (heavy work must not stall the others)")
    parser.add_argument("--front", choices=["streamlit", "nginx"], default="streamlit",
                        help="streamlit: `streamlit run` serves everything; nginx: deploy/run.sh 1 "
                             "(nginx serves the static bundle), for both apps")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="tokex-load-"))
    cache = work / "cache"
    env = {**os.environ, "TOKEX_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    if not args.cold_store:
        warm_store(env)
    bare_script = write_bare_app(work / "bare")

    print(f"# {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at start; "
          f"arrival within {args.arrival:.0f} s, timeout {args.timeout:.0f} s, "
          f"store {'cold' if args.cold_store else 'warmed'}, front: {args.front}")
    rows = []
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for page_name in args.pages:
            session, what = SCENARIOS[page_name]
            for n in args.sessions:
                results = {}
                for app in ("bare", "app", *(["app+heavy"] if args.background else [])):
                    script = bare_script if app == "bare" else REPO / "app.py"
                    tag = f"{app}-{page_name}-{n}"
                    server = (start_server(script, env, work / f"{tag}.log")
                              if args.front == "streamlit"
                              else start_behind_nginx(script, env, work / f"run-{tag}", work / f"{tag}.log"))
                    try:
                        rss0 = server.rss_mb()
                        run = bare_session if app == "bare" else session
                        if not args.cold_server:  # the teacher opens the page first
                            await crowd(browser, server, run, 1, 0, args.timeout, 0, args.seed)
                        rounds = []
                        for r in range(args.rounds):
                            settle = args.settle if n == args.memory_sessions else 2.0
                            rounds.append(await crowd(browser, server, run, n, args.arrival,
                                                      args.timeout, settle, args.seed + r,
                                                      heavy=app == "app+heavy"))
                        results[app] = (rss0, rounds)
                    finally:
                        server.stop()
                    first = rounds[0]
                    errors = {o.error for o in first.failed}
                    print(f"{page_name} N={n} {app}: wall {first.wall_s:.1f} s, "
                          f"server CPU {first.cpu_s / n:.2f} s a session, "
                          f"browser CPU {first.browser_cpu_s / n:.2f} s a session, "
                          f"failed {len(first.failed)}/{n} {sorted(errors)[:3]}", flush=True)
                rows.append((page_name, what, n, results))
        await browser.close()

    print()
    print("| page | N | load p50 app / bare | load p95 app / bare | ratio p95 | "
          "answer p50 app / bare | answer p95 app / bare | ratio p95 | failed app / bare "
          "| CPU s a session, server: app / bare | browsers: app / bare |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for page_name, _what, n, results in rows:
        for label in [k for k in results if k != "bare"]:
            app, bare = results[label][1][0], results["bare"][1][0]
            shown = page_name if label == "app" else f"{page_name}, one session training to 16,000"
            print(f"| {shown} | {n} | {fmt(app.percentile('load_s', .5))} / {fmt(bare.percentile('load_s', .5))} "
                  f"| {fmt(app.percentile('load_s', .95))} / {fmt(bare.percentile('load_s', .95))} "
                  f"| {ratio(app.percentile('load_s', .95), bare.percentile('load_s', .95))} "
                  f"| {fmt(app.percentile('answer_s', .5))} / {fmt(bare.percentile('answer_s', .5))} "
                  f"| {fmt(app.percentile('answer_s', .95))} / {fmt(bare.percentile('answer_s', .95))} "
                  f"| {ratio(app.percentile('answer_s', .95), bare.percentile('answer_s', .95))} "
                  f"| {len(app.failed)} / {len(bare.failed)} "
                  f"| {app.cpu_s / n:.2f} / {bare.cpu_s / n:.2f} "
                  f"| {app.browser_cpu_s / n:.2f} / {bare.browser_cpu_s / n:.2f} |")
    print()
    print("| page | N | server | RSS at start (MB) | " + " | ".join(
        f"round {r + 1}: loaded / {args.settle:.0f} s after close" for r in range(args.rounds)) + " |")
    print("|---|---:|---|---:|" + "---:|" * args.rounds)
    for page_name, _what, n, results in rows:
        if n != args.memory_sessions:
            continue
        for app in ("app", "bare"):
            rss0, rounds = results[app]
            cells = " | ".join(f"{r.rss_loaded_mb:.0f} / {r.rss_closed_mb:.0f}" for r in rounds)
            print(f"| {page_name} | {n} | {app} | {rss0:.0f} | {cells} |")
    print()
    for page_name, what, *_ in rows[:: len(args.sessions)]:
        print(f"# {page_name}: {what}")
    print(f"# load average {os.getloadavg()[0]:.1f} at the end; logs in {work}")


if __name__ == "__main__":
    asyncio.run(main())
