"""The app servers the browser benchmarks start, and the bare app they compare against.

One place for: `streamlit run` on a free loopback port (this app, or the bare one-text-area app
with this app's own .streamlit/config.toml, so both run with the same settings), deploy/run.sh
with one replica behind nginx, a server's memory and CPU from /proc (its worker processes
apart), the selectors that say Streamlit is idle, and `warm` into a store folder. Used by
bench_load.py, bench_first_visit.py, bench_server_load.py and bench_isolation.py.
(tests/browser/conftest.py has its own server fixture: tests do not import benchmarks.)
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("TOKEX_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]  # fmt: skip
LAPTOP = {"width": 1280, "height": 720}
APP_IDLE = ('[data-testid="stApp"][data-test-script-state="notRunning"]'
            '[data-test-connection-state="CONNECTED"]')  # fmt: skip
RUNNING = '[data-testid="stStatusWidgetRunningIcon"], [data-testid="stStatusWidgetRunningManIcon"]'
ERRORS = '[data-testid="stException"], [data-testid="stErrorCodeBlock"]'

# The peer: Streamlit's floor on this machine and browser, one text area and its echo.
BARE_TEXT = "Students open the link."
BARE_APP = f'''\
import html

import streamlit as st

text = st.text_area("Text", "{BARE_TEXT}")
st.markdown(f'<p class="bare-echo">{{len(text)}} characters: {{html.escape(text)}}</p>',
            unsafe_allow_html=True)
'''
BARE_CONTENT = ".bare-echo"


def write_bare_app(folder: Path) -> Path:
    """The bare app and a copy of this app's .streamlit/config.toml in `folder`; its path."""
    (folder / ".streamlit").mkdir(parents=True, exist_ok=True)
    config = (REPO / ".streamlit" / "config.toml").read_text()
    (folder / ".streamlit" / "config.toml").write_text(config)
    script = folder / "bare_app.py"
    script.write_text(BARE_APP)
    return script


@dataclass
class Server:
    proc: subprocess.Popen  # `streamlit run`, or deploy/run.sh in front of one replica
    url: str
    pid: int  # the Streamlit process: what memory and CPU are read from
    behind_nginx: bool = False

    def rss_mb(self) -> float:
        """Resident memory of the server process alone (its workers: workers_rss_mb)."""
        return rss_mb(self.pid)

    def workers_rss_mb(self) -> float:
        """Resident memory of the server's child processes: the worker pool's and the uploaded
        tokenizers' workers (#22), counted apart so that the server's own memory is seen."""
        return sum(rss_mb(pid) for pid in children(self.pid))

    def workers_cpu_s(self) -> float:
        """CPU seconds of the server's live child processes (the workers' work)."""
        return sum(stat_cpu_s(pid) for pid in children(self.pid))

    def cpu_s(self) -> float:
        """CPU seconds the server process has used (user + system, all its threads)."""
        return stat_cpu_s(self.pid)

    def stop(self) -> None:
        if self.behind_nginx:  # run.sh stops its replica and nginx itself on SIGTERM
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
                return
            except subprocess.TimeoutExpired:
                pass
        for sig in (signal.SIGTERM, signal.SIGKILL):
            try:
                os.killpg(self.proc.pid, sig)
                self.proc.wait(timeout=10)
                return
            except ProcessLookupError:
                return
            except subprocess.TimeoutExpired:
                continue


def stat_cpu_s(pid: int, with_reaped: bool = False) -> float:
    """CPU seconds of one process (user + system), plus its reaped children's if asked."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if with_reaped:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    """Resident memory of one process (VmRSS), 0 when it is gone."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    line = next((x for x in status.splitlines() if x.startswith("VmRSS:")), "VmRSS: 0 kB")
    return int(line.split()[1]) / 1024


def children(pid: int) -> list[int]:
    """The process's live children, whichever of its threads started them.

    subtle: /proc/PID/task/TID/children lists only the children thread TID started; the worker
    pool's processes are started by the sessions' script threads, not the main thread, so
    reading the main thread's list alone missed every one of them."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            continue
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def healthy(url: str) -> bool:
    # subtle: an empty ProxyHandler, so an http_proxy in the environment is never asked.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def start_server(script: Path, env: dict[str, str], log: Path) -> Server:
    """`streamlit run script` on a free loopback port, started in the script's folder (so its
    .streamlit/config.toml applies); returns once /_stcore/health answers."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, "-m", "streamlit", "run", str(script), "--server.port", str(port),
           "--server.address", "127.0.0.1", "--server.headless", "true",
           "--browser.gatherUsageStats", "false"]  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=script.parent, env=env, stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 90
    while not healthy(url):
        if proc.poll() is not None or time.monotonic() > deadline:
            Server(proc, url, proc.pid).stop()
            raise RuntimeError(f"{' '.join(cmd)} did not start:\n{log.read_text(errors='replace')}")
        time.sleep(0.1)
    return Server(proc, url, proc.pid)


def start_behind_nginx(script: Path, env: dict[str, str], run_dir: Path, log: Path) -> Server:
    """deploy/run.sh 1: one replica of `script`, nginx in front serving the static bundle."""
    port, replica = free_port(), free_port()
    env = {**env, "TOKEX_RUN_DIR": str(run_dir), "TOKEX_REPLICA_PORT": str(replica),
           "TOKEX_LISTEN": "127.0.0.1", "TOKEX_APP": str(script), "PYTHON": sys.executable}  # fmt: skip
    with log.open("wb") as out:
        proc = subprocess.Popen([str(REPO / "deploy" / "run.sh"), "1", str(port)], cwd=REPO,
                                env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while f"ready: {url}/" not in log.read_text(errors="replace"):
        if proc.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"deploy/run.sh did not get ready:\n{log.read_text(errors='replace')}")
        time.sleep(0.2)
    pid = int((run_dir / f"replica-{replica}.pid").read_text())
    return Server(proc, url, pid, behind_nginx=True)


def warm_store(env: dict[str, str]) -> float:
    """`python -m tokenizer_core warm` into env's TOKEX_CACHE_DIR; its seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "tokenizer_core", "warm"], cwd=REPO, env=env,
                   check=True, stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - started
