"""What a first visit to each page costs the browser's processor, beside a bare Streamlit app.

    python benchmarks/bench_browser_cpu.py [--repeats 3] [--pages playground compression ...]

A student's laptop pays for every page in Chromium's CPU: Streamlit's and plotly's scripts,
the widgets, the HTML blocks, the charts. For each page and repeat this starts a NEW Chromium
(Debian's, headless, its own empty profile), so the CPU its processes used can be read off
/proc and belongs to that one visit, then navigates it to the page at 1280x720 and waits until
Streamlit is idle with nothing "still coming", plus one second for the last frames. It reports
(medians over --repeats):

  browser CPU   user + system seconds of the whole Chromium process tree during the visit
                (the browser process, the renderer, the GPU and utility processes, and any
                child that exited), minus nothing: the launch itself is done before it starts;
  main thread   the renderer's own count from the DevTools protocol (`Performance.getMetrics`):
                TaskDuration, and within it ScriptDuration and layout + style recalculation;
  server CPU    what the visit cost the Streamlit server process (its /proc counters);
  script runs   how many times the page's script ran during the visit (a rerun on load pays
                twice, on the server and in the browser);
  elements      what the page drew: Streamlit element containers, plotly charts, data frames,
                markdown blocks, iframes (where the cost goes).

The peer is a bare one-text-area app (benchmarks/servers.py BARE_APP) with this app's
config, measured the same way in the same run. The app's store is warmed first
(`python -m tokenizer_core warm` into a fresh folder), as a teacher does before a lesson, so
the pages' first visits train nothing. The machine is shared: read the ratios, and the load
average printed at the end.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))
from servers import (  # noqa: E402  (benchmarks/servers.py, beside this file)
    APP_IDLE,
    CHROMIUM,
    CHROMIUM_FLAGS,
    ERRORS,
    LAPTOP,
    REPO,
    RUNNING,
    children,
    start_server,
    stat_cpu_s,
    warm_store,
    write_bare_app,
)

PAGES = {"playground": "", "merge_steps": "merge_steps", "unigram": "unigram",
         "compression": "compression", "languages": "languages", "sequences": "sequences",
         "vocabulary": "vocabulary", "practice": "practice"}  # fmt: skip
BARE = "bare app"
STILL_COMING = "text=/still coming/i"
SETTLE_S = 1.0  # after "complete": the last plotly frames and component paints
TIMEOUT_MS = 180_000
# Probes: the bare app plus one element of a kind the pages use, to price each kind alone.
PROBES = {
    "bare + st.dataframe": "st.dataframe({'id': list(range(20)), 'token': ['t'] * 20})",
    "bare + plotly chart": ("import plotly.graph_objects as go\n"
                            "st.plotly_chart(go.Figure(go.Bar(x=[1, 2, 3], y=[3, 1, 2])))"),
    "bare + 40 markdown blocks": "for i in range(40):\n    st.markdown(f'**{i}** words')",
    "bare + 20 widgets": ("for i in range(20):\n"
                          "    st.selectbox(f'choice {i}', ['a', 'b'], key=f'w{i}')"),
}
COUNTS = {
    "elements": '[data-testid="stElementContainer"]',
    "plotly": ".js-plotly-plot",
    "dataframes": '[data-testid="stDataFrame"]',
    "markdown": '[data-testid="stMarkdown"]',
    "iframes": "iframe",
}


# Counts the script runs a visit makes (a page that reruns itself on load pays twice): every
# time the app's script state turns to "running", seen by a MutationObserver from the start.
COUNT_RUNS = """
window.__tokexRuns = 0;
new MutationObserver(() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const state = app && app.getAttribute('data-test-script-state');
  if (state === 'running' && window.__tokexLast !== 'running') window.__tokexRuns += 1;
  window.__tokexLast = state;
}).observe(document, {subtree: true, attributes: true, childList: true,
                      attributeFilter: ['data-test-script-state']});
"""


def tree(pid: int) -> list[int]:
    """pid and every live descendant."""
    found, todo = [], [pid]
    while todo:
        p = todo.pop()
        found.append(p)
        todo.extend(children(p))
    return found


def tree_cpu_s(pid: int) -> float:
    # with_reaped: a utility process that already exited is counted in its parent's cutime
    return sum(stat_cpu_s(p, with_reaped=True) for p in tree(pid))


@dataclass
class Visit:
    browser_cpu_s: float
    task_s: float
    script_s: float
    layout_s: float
    server_cpu_s: float
    complete_s: float
    counts: dict[str, int]
    runs: int


def launch(profile: Path) -> tuple[subprocess.Popen, str]:
    """Debian's Chromium with a DevTools port; its process and websocket address."""
    proc = subprocess.Popen(
        [CHROMIUM, *CHROMIUM_FLAGS, "--remote-debugging-port=0", f"--user-data-dir={profile}",
         f"--window-size={LAPTOP['width']},{LAPTOP['height']}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    assert proc.stderr is not None
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        match = re.search(r"DevTools listening on (ws://\S+)", line)
        if match:
            return proc, match.group(1)
        if not line and proc.poll() is not None:
            break
    proc.kill()
    raise RuntimeError("Chromium did not start its DevTools endpoint")


def _complete(page) -> None:
    page.locator(APP_IDLE).wait_for(timeout=TIMEOUT_MS)
    page.locator(RUNNING).first.wait_for(state="detached", timeout=TIMEOUT_MS)
    while page.locator(STILL_COMING).count():
        page.wait_for_timeout(100)
    page.locator(APP_IDLE).wait_for(timeout=TIMEOUT_MS)
    if page.locator(ERRORS).count():
        raise RuntimeError("the app showed an exception: " + page.locator(ERRORS).first.inner_text())


def visit(playwright, url: str, server_pid: int, logs: Path) -> Visit:
    profile = Path(tempfile.mkdtemp(prefix="profile-", dir=logs))
    proc, ws = launch(profile)
    try:
        browser = playwright.chromium.connect_over_cdp(ws)
        page = browser.contexts[0].pages[0]
        page.set_viewport_size(LAPTOP)
        page.add_init_script(COUNT_RUNS)
        cdp = browser.contexts[0].new_cdp_session(page)
        cdp.send("Performance.enable")
        page.wait_for_timeout(500)  # the launch's own work settles before the count starts
        before = cdp.send("Performance.getMetrics")["metrics"]
        cpu0, server0, t0 = tree_cpu_s(proc.pid), stat_cpu_s(server_pid), time.perf_counter()
        page.goto(url, wait_until="commit")
        _complete(page)
        complete = time.perf_counter() - t0
        page.wait_for_timeout(SETTLE_S * 1000)
        cpu1, server1 = tree_cpu_s(proc.pid), stat_cpu_s(server_pid)
        after = cdp.send("Performance.getMetrics")["metrics"]
        counts = {name: page.locator(sel).count() for name, sel in COUNTS.items()}
        runs = int(page.evaluate("window.__tokexRuns || 0"))
        browser.close()
    finally:
        proc.kill()
        proc.wait()

    def metric(name: str) -> float:
        a = {m["name"]: m["value"] for m in after}
        b = {m["name"]: m["value"] for m in before}
        return a.get(name, 0.0) - b.get(name, 0.0)

    return Visit(cpu1 - cpu0, metric("TaskDuration"), metric("ScriptDuration"),
                 metric("LayoutDuration") + metric("RecalcStyleDuration"), server1 - server0,
                 complete, counts, runs)


def median(values: list[float]) -> float:
    return statistics.median(values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--pages", nargs="*", default=list(PAGES), choices=list(PAGES))
    parser.add_argument("--probes", action="store_true",
                        help="also price one element of each kind on the bare app")
    args = parser.parse_args()

    logs = Path(tempfile.mkdtemp(prefix="bench-browser-cpu-"))
    env = {**os.environ, "TOKEX_CACHE_DIR": str(logs / "store"), "NO_PROXY": "127.0.0.1"}
    warm_s = warm_store(env)
    app = start_server(REPO / "app.py", env, logs / "app.log")
    bare = start_server(write_bare_app(logs / "bare"), env, logs / "bare.log")
    probes = {}
    for i, (name, extra) in enumerate(PROBES.items() if args.probes else []):
        script = write_bare_app(logs / f"probe-{i}")
        script.write_text(script.read_text() + extra + "\n")
        probes[name] = start_server(script, env, logs / f"probe-{i}.log")
    results: dict[str, list[Visit]] = {}
    try:
        with sync_playwright() as playwright:
            # one visit each first: Streamlit's first session on a server pays imports once
            visit(playwright, app.url + "/", app.pid, logs)
            visit(playwright, bare.url + "/", bare.pid, logs)
            for _ in range(args.repeats):
                results.setdefault(BARE, []).append(visit(playwright, bare.url + "/", bare.pid,
                                                          logs))
                for name in args.pages:
                    url = f"{app.url}/{PAGES[name]}"
                    results.setdefault(name, []).append(visit(playwright, url, app.pid, logs))
                for name, probe in probes.items():
                    results.setdefault(name, []).append(visit(playwright, probe.url + "/",
                                                              probe.pid, logs))
    finally:
        for server in (app, bare, *probes.values()):
            server.stop()

    bare_cpu = median([v.browser_cpu_s for v in results[BARE]])
    bare_task = median([v.task_s for v in results[BARE]])
    print(f"warm: {warm_s:.1f} s; repeats: {args.repeats}; Chromium: "
          f"{subprocess.run([CHROMIUM, '--version'], capture_output=True, text=True).stdout.strip()}")
    print("| page | browser CPU (s) | / bare | main thread (s) | / bare | script | layout + style "
          "| server CPU (s) | complete (s) | script runs | elements | plotly | data frames | markdown | iframes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, visits in results.items():
        cpu = median([v.browser_cpu_s for v in visits])
        task = median([v.task_s for v in visits])
        c = visits[-1].counts
        print(f"| {name} | {cpu:.2f} | {cpu / bare_cpu:.1f}x | {task:.2f} | {task / bare_task:.1f}x "
              f"| {median([v.script_s for v in visits]):.2f} "
              f"| {median([v.layout_s for v in visits]):.2f} "
              f"| {median([v.server_cpu_s for v in visits]):.2f} "
              f"| {median([v.complete_s for v in visits]):.2f} | {visits[-1].runs} | {c['elements']} | {c['plotly']} "
              f"| {c['dataframes']} | {c['markdown']} | {c['iframes']} |")
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
