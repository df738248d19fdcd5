"""Starting the app and opening its pages reaches no address beyond this machine (issue 9).

`streamlit run app.py` runs exactly as a teacher starts it: the repo's .streamlit/config.toml,
no --server.address (so it listens on every interface, for students on the LAN), a HOME of its
own (no ~/.streamlit/config.toml can hide a problem) and no STREAMLIT_* variables. It runs under
`strace -f`, which records every connect, sendto, sendmsg and sendmmsg of every thread and child:
- connect() is where a lookup shows even when no packet leaves: Streamlit's "Network URL" is a UDP
  connect to 8.8.8.8, and glibc's resolver connects its UDP socket to the DNS server;
- sendto/sendmsg/sendmmsg carry the address of anything sent on an unconnected socket.
Allowed: AF_UNIX, AF_NETLINK, AF_UNSPEC, and 127.0.0.0/8 or ::1 on any port but 53 (a DNS query
even to a local resolver, such as systemd-resolved's 127.0.0.53, is a name about to be looked up
on the network).

While traced, the server answers /_stcore/health, the root page and a page path, and, when
Chromium is installed, Chromium opens /playground and /merge_steps as first requests and waits
until each page has run (the tokenizers load, the scripts run). Chromium itself is not traced:
its requests go through the guard of tests/browser (anything offsite is blocked and fails).

Without a usable strace (`apt-get install strace`; ptrace allowed) these tests skip, or fail when
TOKEX_REQUIRE_BROWSER=1 (as .ci/run sets).
"""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.browser.conftest import (
    REQUIRE_ENV,
    SERVER_START_TIMEOUT_S,
    PageLog,
    _free_port,
    _healthy,
    _stop,
    browser_missing_reason,
    browser_required,
    launch_chromium,
    new_guarded_page,
    wait_for_app,
)

REPO = Path(__file__).resolve().parents[2]
TRACED_CALLS = "connect,sendto,sendmsg,sendmmsg"
# Opened by their own link, as a student would from a shared URL; (path, the page's heading).
BROWSER_PAGES = [("playground", "Playground"), ("merge_steps", "Merge steps")]
# What Streamlit logs when it tried (and failed) to look up the machine's external address.
EXTERNAL_IP_WARNING = "Did not auto detect external IP"
ALLOWED_FAMILIES = {"AF_UNIX", "AF_NETLINK", "AF_UNSPEC"}
DNS_PORT = 53


# --- can we trace? ------------------------------------------------------------------------------


def strace_missing_reason() -> str | None:
    """None when strace is installed and may trace a child here (ptrace is allowed)."""
    strace = shutil.which("strace")
    if strace is None:
        return "strace is not installed (apt-get install strace)"
    probe = subprocess.run(
        [strace, "-f", "--seccomp-bpf", "-e", f"trace={TRACED_CALLS}", "-o", os.devnull, "true"],
        capture_output=True, text=True, timeout=30,
    )  # fmt: skip
    if probe.returncode != 0:
        return f"strace cannot trace here: {probe.stderr.strip() or probe.returncode}"
    return None


# --- reading the trace --------------------------------------------------------------------------

_CALL = re.compile(rf"^\s*(\d+)\s+(?:<\.\.\.\s+)?({TRACED_CALLS.replace(',', '|')})\b")
_INET = re.compile(r'sin_port=htons\((\d+)\), sin_addr=inet_addr\("([^"]+)"\)')
_INET6 = re.compile(r'sin6_port=htons\((\d+)\),.*?inet_pton\(AF_INET6, "([^"]+)"')


def _loopback(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    mapped = getattr(ip, "ipv4_mapped", None)  # ::ffff:127.0.0.1 is loopback too
    return ip.is_loopback or (mapped is not None and mapped.is_loopback)


def offending_calls(trace: str) -> list[str]:
    """Every traced call that names a destination beyond this machine (or a DNS server)."""
    found = []
    for line in trace.splitlines():
        if not _CALL.match(line) or "sa_family=" not in line:
            continue  # no address: a connected socket's send, or a call resumed
        for chunk in line.split("sa_family=")[1:]:
            family = chunk.split(",", 1)[0].split("}", 1)[0].strip()
            if family in ALLOWED_FAMILIES:
                continue
            pattern = {"AF_INET": _INET, "AF_INET6": _INET6}.get(family)
            match = pattern.search(chunk) if pattern else None
            if match is None:  # a family or a format we do not know: never let it pass
                found.append(line.strip())
                break
            port, address = int(match.group(1)), match.group(2)
            if port == DNS_PORT or not _loopback(address):
                found.append(line.strip())
                break
    return found


def test_offending_calls_reads_strace_lines() -> None:
    """The parser itself, on lines strace 6.1 writes (so a quiet trace means a quiet server)."""
    trace = """\
4089  connect(7, {sa_family=AF_INET, sin_port=htons(1), sin_addr=inet_addr("8.8.8.8")}, 16) = 0
4089  connect(7, {sa_family=AF_UNIX, sun_path="/var/run/nscd/socket"}, 110) = -1 ENOENT (No such\
 file or directory)
4089  connect(7, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.255.255.53")}, 16\
 <unfinished ...>
4090  <... connect resumed>) = 0
4091  connect(9, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("127.0.0.53")}, 16) = 0
4092  connect(9, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), \
inet_pton(AF_INET6, "2600:1f18::1", &sin6_addr), sin6_scope_id=0}, 28) = -1 ENETUNREACH
4092  sendmmsg(9, [{msg_hdr={msg_name={sa_family=AF_INET, sin_port=htons(53), \
sin_addr=inet_addr("192.0.2.53")}, msg_namelen=16}}], 1, MSG_NOSIGNAL) = 1
4093  connect(8, {sa_family=AF_INET, sin_port=htons(8501), sin_addr=inet_addr("127.0.0.1")}, 16) = 0
4093  connect(8, {sa_family=AF_INET6, sin6_port=htons(8501), sin6_flowinfo=htonl(0), \
inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0
4093  connect(8, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), \
inet_pton(AF_INET6, "::ffff:127.0.0.1", &sin6_addr), sin6_scope_id=0}, 28) = 0
4093  connect(8, {sa_family=AF_NETLINK, nl_pid=0, nl_groups=00000000}, 12) = 0
4093  connect(8, {sa_family=AF_UNSPEC, sa_data="\\0\\0\\0\\0"}, 16) = 0
4093  connect(8, {sa_family=AF_PACKET, sll_protocol=htons(ETH_P_ALL)}, 20) = 0
4093  sendto(5, "HTTP/1.1 200 OK\\r\\n", 17, 0, NULL, 0) = 17
4093  +++ exited with 0 +++
"""
    assert [line.split("(", 1)[1][:12] for line in offending_calls(trace)] == [
        "7, {sa_famil",  # 8.8.8.8
        "7, {sa_famil",  # a DNS server
        "9, {sa_famil",  # a DNS query to a local resolver
        "9, {sa_famil",  # IPv6 beyond loopback
        "9, [{msg_hdr",  # sendmmsg to a DNS server
        "8, {sa_famil",  # a family we do not know
    ]
    assert "8.8.8.8" in offending_calls(trace)[0]
    assert "AF_PACKET" in offending_calls(trace)[-1]


# --- the traced run -----------------------------------------------------------------------------


@dataclass
class TracedRun:
    url: str
    trace: str
    server_log: str
    browser_skipped: str | None = None  # why the browser part did not run
    page_problems: list[str] = field(default_factory=list)
    unexpected_failures: list[str] = field(default_factory=list)  # HTTP >= 400, not the probe


def _get(url: str) -> int:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=30) as response:
        response.read()
        return response.status


def _open_pages_in_chromium(url: str) -> tuple[list[str], list[str]]:
    """Open each page by its own link in a fresh guarded tab; (problems, unexpected >= 400s).

    subtle: opening <path> first makes Streamlit's front end probe <path>/_stcore/health and
    <path>/_stcore/host-config (404) before the real base path; that is Streamlit's own base-path
    discovery (streamlit/streamlit#7074), so exactly those two 404s are allowed, nothing else.
    Runs in its own thread: Playwright's sync API refuses to start inside another one's loop
    (the session browser of tests/browser may be running in this thread).
    """
    from playwright.sync_api import sync_playwright

    problems: list[str] = []
    failures: list[str] = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        try:
            for path, heading in BROWSER_PAGES:
                log = PageLog()
                log.allow_console_error(r"status of 404 \(Not Found\)")
                probe = {f"{url}/{path}/_stcore/health", f"{url}/{path}/_stcore/host-config"}
                context, page = new_guarded_page(browser, log)
                page.on(
                    "response",
                    lambda r: r.status >= 400 and r.url not in probe
                    and failures.append(f"{r.status} {r.url}"),
                )  # fmt: skip
                try:
                    page.goto(f"{url}/{path}")
                    wait_for_app(page, page.get_by_role("heading", name=heading).first)
                    wait_for_app(page, page.get_by_text("Presentation mode").first)
                finally:
                    context.close()
                problems += [f"/{path}: {problem}" for problem in log.problems()]
        finally:
            browser.close()
    return problems, failures


@pytest.fixture(scope="module")
def traced_run(tmp_path_factory) -> TracedRun:
    reason = strace_missing_reason()
    if reason is not None:
        if browser_required():
            pytest.fail(f"{reason}; {REQUIRE_ENV}=1 says this test must run.", pytrace=False)
        pytest.skip(f"offline start: {reason}. Set {REQUIRE_ENV}=1 to make this a failure.")

    work = tmp_path_factory.mktemp("offline_start")
    home = work / "home"
    home.mkdir()
    trace_file, server_log_file = work / "connect.strace", work / "streamlit.log"
    port = _free_port()  # free on loopback; the server itself listens on every interface
    url = f"http://127.0.0.1:{port}"
    cmd = [
        shutil.which("strace"), "-f", "--seccomp-bpf", "-e", f"trace={TRACED_CALLS}",
        "-e", "signal=none", "-o", str(trace_file),
        sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
    ]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if not k.startswith("STREAMLIT_")}
    env |= {"HOME": str(home), "PYTHONUNBUFFERED": "1"}
    with server_log_file.open("wb") as server_log:
        proc = subprocess.Popen(
            cmd, cwd=REPO, stdin=subprocess.DEVNULL, stdout=server_log,
            stderr=subprocess.STDOUT, env=env, start_new_session=True,
        )  # fmt: skip
    run = TracedRun(url, "", "")
    try:
        deadline = time.perf_counter() + SERVER_START_TIMEOUT_S
        while not _healthy(url):
            if proc.poll() is not None or time.perf_counter() > deadline:
                raise AssertionError(
                    f"`{' '.join(cmd)}` did not answer {url}/_stcore/health:\n"
                    + server_log_file.read_text(errors="replace")
                )
            time.sleep(0.1)
        for path in ("", "merge_steps"):
            assert _get(f"{url}/{path}") == 200, f"GET /{path}"
        if (missing := browser_missing_reason()) is not None:
            if browser_required():
                pytest.fail(f"{missing}; {REQUIRE_ENV}=1 says the browser must run.", pytrace=False)
            run.browser_skipped = missing
        else:
            with ThreadPoolExecutor(max_workers=1) as thread:
                run.page_problems, run.unexpected_failures = thread.submit(
                    _open_pages_in_chromium, url
                ).result()
    finally:
        # subtle: strace blocks fatal signals when it runs a command into -o FILE, so the group's
        # SIGTERM stops Streamlit and strace follows it out, having written every line.
        _stop(proc)
    run.trace = trace_file.read_text(errors="replace")
    run.server_log = server_log_file.read_text(errors="replace")
    return run


# --- the checks ---------------------------------------------------------------------------------


@pytest.mark.slow
def test_start_and_pages_reach_no_address_beyond_loopback(traced_run: TracedRun) -> None:
    # The trace is real: it holds the server's answer to our health check (send() is sendto()).
    assert re.search(r"sendto\(\d+, \"HTTP/1\.1 200", traced_run.trace), (
        "the strace log shows no HTTP answer from the server: was it traced at all?\n"
        + traced_run.trace[:2000]
    )
    offending = offending_calls(traced_run.trace)
    assert offending == [], (
        "starting the app or opening its pages reached beyond this machine:\n  "
        + "\n  ".join(offending)
        + f"\n--- server log ---\n{traced_run.server_log}"
    )


@pytest.mark.slow
def test_start_looks_up_no_external_address(traced_run: TracedRun) -> None:
    assert EXTERNAL_IP_WARNING not in traced_run.server_log, traced_run.server_log
    assert "External URL" not in traced_run.server_log, traced_run.server_log
    assert "You can now view your Streamlit app" in traced_run.server_log, traced_run.server_log


@pytest.mark.slow
def test_pages_opened_by_their_own_link_load_nothing_offsite(traced_run: TracedRun) -> None:
    if traced_run.browser_skipped:
        pytest.skip(f"browser part: {traced_run.browser_skipped}. Set {REQUIRE_ENV}=1 to fail.")
    assert traced_run.page_problems == []
    assert traced_run.unexpected_failures == []
