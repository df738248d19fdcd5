"""Every page's first visit on a fresh server, in Debian's Chromium: how long until it shows
something, how long until it is idle, and how long a later visit takes.

    python benchmarks/bench_first_visit.py [--repeats 3] [--store cold warm] [--pages ...]

For each page, store mode and repeat: a NEW server (`streamlit run app.py`, headless, loopback,
a free port) with its own store folder (TOKEX_CACHE_DIR), so no page profits from another
page's visit or from an earlier repeat:
  cold  the store folder is empty: the built-in tokenizers, curves and HF lines are made now;
  warm  `python -m tokenizer_core warm` filled the folder first, as a teacher does before a
        lesson (run once, its time printed; each server gets a copy of the folder).
Then, at 1280x720 in a fresh browser context:
  first content  navigate -> the page's first token panel, merge player or plotly chart drawn;
  idle           navigate -> Streamlit's script state "notRunning" and no running indicator;
  complete       navigate -> idle with nothing announced as still coming (the Compression page
                 says which HF lines are "still coming" while it trains them);
  later visit    navigate -> complete again on the same server (a new Streamlit session): in a
                 new browser context (empty browser cache: Streamlit's own scripts load again),
                 and in a new tab of the first context (those scripts come from the cache).
The peer, measured the same way in the same run: a bare Streamlit app of one text area and its
echo (what Streamlit and Chromium cost on this machine before any page does anything).
Medians over --repeats, in seconds. Budget (issue 15): first content 1.5 s, idle 5 s, later
visit 1 s. Last, once per store mode: the Compression page's script time in a new process
(AppTest), for its default view and then for "train up to" raised to 16,000.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import (  # noqa: E402  (benchmarks/servers.py, beside this file)
    APP_IDLE,
    BARE_CONTENT,
    CHROMIUM,
    CHROMIUM_FLAGS,
    ERRORS,
    LAPTOP,
    REPO,
    RUNNING,
    start_server,
    warm_store,
    write_bare_app,
)

# What each page draws first that a person came for.
FIRST_CONTENT = ".tokview, .ms-player, .ruler, .sqgrid, .js-plotly-plot .main-svg"
STILL_COMING = "text=/still coming/i"
PAGES = {"playground": "", "merge_steps": "merge_steps", "compression": "compression",
         "languages": "languages", "sequences": "sequences"}  # fmt: skip
BARE = "bare app"  # the peer (servers.BARE_APP): Streamlit's floor on this machine and browser
TIMEOUT_MS = 180_000


def fingerprint(env: dict[str, str]) -> str:
    """The store's fingerprint of the code and data as they are now on disk (store.py)."""
    code = "from tokenizer_core import store; print(store.fingerprint())"
    return subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, check=True,
                          capture_output=True, text=True).stdout.strip()


# --- one visit --------------------------------------------------------------------------------


@dataclass
class Visit:
    first_s: float
    idle_s: float
    complete_s: float


def _idle(page: Page) -> None:
    page.locator(APP_IDLE).wait_for(timeout=TIMEOUT_MS)
    page.locator(RUNNING).first.wait_for(state="detached", timeout=TIMEOUT_MS)
    if page.locator(ERRORS).count():
        raise RuntimeError("the app showed an exception: " + page.locator(ERRORS).first.inner_text())


def visit(context, url: str, content: str) -> Visit:
    """Navigate a new tab of `context` to `url`; time first content, idle, and complete."""
    page = context.new_page()
    try:
        t0 = time.perf_counter()
        page.goto(url, wait_until="commit")
        page.locator(content).first.wait_for(timeout=TIMEOUT_MS)
        first = time.perf_counter() - t0
        _idle(page)
        idle = time.perf_counter() - t0
        # subtle: a page that fills in its slow parts later is idle between its short polls, so
        # "complete" waits until nothing says it is still coming, then for idle again.
        while page.locator(STILL_COMING).count():
            page.wait_for_timeout(100)
            if time.perf_counter() - t0 > TIMEOUT_MS / 1000:
                raise RuntimeError(f"{url}: still coming after {TIMEOUT_MS / 1000:.0f} s")
        _idle(page)
        return Visit(first, idle, time.perf_counter() - t0)
    finally:
        page.close()


def new_context(browser):
    return browser.new_context(viewport=LAPTOP, device_scale_factor=1, service_workers="block")


def measure(browser, page_name: str, mode: str, env: dict[str, str], logs: Path,
            warm_times: list[float]) -> tuple[Visit, Visit, Visit]:
    """First visit; a later one in a new context (new session, empty browser cache); a later one
    in a new tab of the first context (new session, the browser's cache of Streamlit's files).
    A warm measure is made again when the code changed under it (the store went stale)."""
    for _ in range(3):
        version = fingerprint(env) if mode == "warm" and page_name != BARE else ""
        visits = _measure_once(browser, page_name, mode, env, logs, warm_times, version)
        if not version or fingerprint(env) == version:
            return visits
        print(f"  {page_name}: the code changed during the measure; measuring again",
              file=sys.stderr)
    raise RuntimeError("the code keeps changing: no warm measure possible now")


def _measure_once(browser, page_name: str, mode: str, env: dict[str, str], logs: Path,
                  warm_times: list[float], version: str) -> tuple[Visit, Visit, Visit]:
    store = Path(tempfile.mkdtemp(prefix=f"store-{page_name}-{mode}-", dir=logs))
    env = {**env, "TOKEX_CACHE_DIR": str(store)}
    if version:
        # warmed once per version of the code (minutes on a busy machine), then copied: a copy is
        # the same store (its keys hold the fingerprint of the code that made it)
        template = logs / f"warmed-{version}"
        if not template.exists():
            warm_times.append(warm_store({**env, "TOKEX_CACHE_DIR": str(template)}))
        shutil.copytree(template, store, dirs_exist_ok=True)
    if page_name == BARE:
        script, path, content = write_bare_app(logs / "bare"), "", BARE_CONTENT
    else:
        script, path, content = REPO / "app.py", PAGES[page_name], FIRST_CONTENT
    server = start_server(script, env, logs / f"{page_name}-{mode}.log".replace(" ", "_"))
    first_context, other_context = new_context(browser), new_context(browser)
    try:
        url = f"{server.url}/{path}"
        first = visit(first_context, url, content)
        return first, visit(other_context, url, content), visit(first_context, url, content)
    finally:
        first_context.close()
        other_context.close()
        server.stop()


# --- server time of the Compression page (AppTest) -------------------------------------------

SERVER_TIME = """
import sys, time
from streamlit.testing.v1 import AppTest
app = AppTest.from_file(sys.argv[1], default_timeout=900)
app.run()
app.switch_page("pages/compression.py")
t0 = time.perf_counter(); app.run(); first = time.perf_counter() - t0
t0 = time.perf_counter(); app.select_slider(key="cp_vocab").set_value(16_000).run()
print(first, time.perf_counter() - t0)
"""


def compression_server_time(mode: str, env: dict[str, str], logs: Path) -> tuple[float, float]:
    """Seconds of the Compression page's script in a new process (AppTest): the default view,
    then "train up to" raised to 16,000 (the issue measured 17.7 s for that)."""
    store = Path(tempfile.mkdtemp(prefix=f"store-server-time-{mode}-", dir=logs))
    env = {**env, "TOKEX_CACHE_DIR": str(store)}
    if mode == "warm":
        warm_store(env)
    out = subprocess.run([sys.executable, "-c", SERVER_TIME, str(REPO / "app.py")], cwd=REPO,
                         env=env, check=True, capture_output=True, text=True).stdout
    first, raised = out.split()[-2:]
    return float(first), float(raised)


# --- the table ----------------------------------------------------------------------------------


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--store", nargs="+", choices=("cold", "warm"), default=["cold", "warm"])
    parser.add_argument("--pages", nargs="+", choices=tuple(PAGES), default=list(PAGES))
    args = parser.parse_args()
    # a `kill` ends the run through the `finally` blocks, so no server is left behind
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    logs = Path(tempfile.mkdtemp(prefix="bench-first-visit-"))
    warm_times: list[float] = []
    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                             args=CHROMIUM_FLAGS)  # fmt: skip
        for mode in args.store:
            for page_name in [BARE, *args.pages] if mode == args.store[0] else args.pages:
                visits = [measure(browser, page_name, mode, env, logs, warm_times)
                          for _ in range(args.repeats)]
                for v in visits:
                    print(f"  {mode} {page_name}: {v}", file=sys.stderr)
                firsts = [v[0] for v in visits]
                rows.append((page_name, "-" if page_name == BARE else mode,
                             median([v.first_s for v in firsts]),
                             median([v.idle_s for v in firsts]),
                             median([v.complete_s for v in firsts]),
                             median([v[1].complete_s for v in visits]),
                             median([v[2].complete_s for v in visits])))  # fmt: skip
        browser.close()
    server_times = {mode: compression_server_time(mode, env, logs) for mode in args.store}
    load = os.getloadavg()[0]
    print(f"Python {platform.python_version()}, {os.cpu_count()} CPUs, load average {load:.1f}; "
          f"medians of {args.repeats}; a fresh server and store folder per page and repeat")
    if warm_times:
        print(f"`python -m tokenizer_core warm` into an empty folder: {median(warm_times):.1f} s")
    print()
    print("| page | store | first content | idle | complete | later, new browser | "
          "later, same browser | first / bare | complete / bare |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    bare = next(seconds for name, _, *seconds in rows if name == BARE)
    for page_name, mode, *seconds in rows:
        ratios = f"{seconds[0] / bare[0]:.1f}x | {seconds[2] / bare[2]:.1f}x"
        print(f"| {page_name} | {mode} | " + " | ".join(f"{s:.2f}" for s in seconds)
              + f" | {ratios} |")
    print()
    print("Compression, script time in a new process (AppTest, seconds):")
    print()
    print("| store | default view | then train up to 16,000 |")
    print("|---|---:|---:|")
    for mode, (first, raised) in server_times.items():
        print(f"| {mode} | {first:.2f} | {raised:.2f} |")


if __name__ == "__main__":
    main()
