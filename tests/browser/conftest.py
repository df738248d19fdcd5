"""Real-browser fixtures: the app served by `streamlit run`, driven in Debian's Chromium.

What this adds over AppTest: what a person's browser really does. Every test that asks for
`page` gets a fresh 1600x1000 tab (a projector's view) in which:
- any request or websocket to a host other than this machine is blocked and recorded,
- uncaught JS errors (`pageerror`) and console errors are recorded,
and the test fails after its body when any of those happened (`PageLog.problems`).

Fixtures: `app_server` (session: the running app, its URL and start-up timings), `browser`
(session), `page_log`, `page`, `open_app` (navigate and wait), `wait_for_app`, `screenshot`.

What it leaves out: no browser download (Chromium comes from apt: `apt-get install chromium`),
no pytest-playwright plugin. Without Chromium the browser tests skip, or fail when
TOKEX_REQUIRE_BROWSER=1 (as .ci/run sets).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SCREENSHOTS = REPO / "screenshots"
APP_TITLE = "Tokenization Explorer"
VIEWPORT = {"width": 1600, "height": 1000}
# A classroom laptop or a small projector: what a newcomer sees first (page.set_viewport_size).
LAPTOP = {"width": 1280, "height": 720}
SERVER_START_TIMEOUT_S = 60.0
WAIT_TIMEOUT_MS = 30_000
REQUIRE_ENV = "TOKEX_REQUIRE_BROWSER"
CHROMIUM_ENV = "TOKEX_CHROMIUM"
INSTALL_HINT = (
    "apt-get install -y --no-install-recommends chromium fonts-noto-cjk fonts-noto-color-emoji"
)

# Needed on this machine: without the background-networking flags Chromium keeps dialling
# Google's hosts, which the closed network refuses. Playwright itself adds a fresh, empty
# --user-data-dir per launch (it refuses one passed in `args`).
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def _refusing_port() -> int:
    """A loopback port bound and never listened on, held for the whole run: a connection to it
    is refused at once, and no test server can take it."""
    _REFUSING.bind(("127.0.0.1", 0))
    return _REFUSING.getsockname()[1]


_REFUSING = socket.socket()
# Offsite traffic is stopped inside Chromium: everything but loopback goes through a "proxy" on
# a port that refuses, so it fails without leaving the machine (an IP literal or a websocket
# too). Before, every request of every page was held by Playwright until this process said
# continue (context.route): about 140 per page load, 0.45 s of a 2.3 s Playground load here.
# The guard now only watches (request and websocket events) and the log fails the test.
OFFSITE_PROXY = {"server": f"http://127.0.0.1:{_refusing_port()}",
                 "bypass": "127.0.0.1,localhost,[::1]"}  # Playwright asks <-loopback> otherwise


def launch_chromium(playwright):
    """Debian's Chromium, headless, with offsite traffic refused (OFFSITE_PROXY)."""
    return playwright.chromium.launch(executable_path=find_chromium(), headless=True,
                                      args=CHROMIUM_FLAGS, proxy=OFFSITE_PROXY)
LOCAL_SCHEMES = {"data", "blob", "about"}

# Streamlit's root element tells whether the script is running and the websocket is up.
APP_ROOT = '[data-testid="stApp"]'
APP_IDLE = (
    f'{APP_ROOT}[data-test-script-state="notRunning"][data-test-connection-state="CONNECTED"]'
)
APP_CRASHED = f'{APP_ROOT}[data-test-script-state="compilationError"]'
RUNNING_ICONS = (
    '[data-testid="stStatusWidgetRunningIcon"], [data-testid="stStatusWidgetRunningManIcon"]'
)
APP_ERRORS = '[data-testid="stException"], [data-testid="stErrorCodeBlock"]'
LOADING_ELEMENTS = '[data-testid="stSkeleton"]'  # React Suspense's stand-in while code loads


# --- is there a browser? ------------------------------------------------------------------------


def find_chromium() -> str | None:
    """$TOKEX_CHROMIUM if set, else Debian's Chromium (the wrapper script in /usr/bin), or None."""
    if CHROMIUM_ENV in os.environ:
        chosen = os.environ[CHROMIUM_ENV]
        return chosen if os.access(chosen, os.X_OK) else None
    found = shutil.which("chromium")
    if found:
        return found
    return "/usr/bin/chromium" if os.access("/usr/bin/chromium", os.X_OK) else None


def browser_missing_reason() -> str | None:
    if importlib.util.find_spec("playwright") is None:
        return "the Python package playwright is missing (pip install -r requirements-dev.txt)"
    if find_chromium() is None:
        return f"Chromium is not installed (install it with: {INSTALL_HINT})"
    return None


def browser_required() -> bool:
    return os.environ.get(REQUIRE_ENV, "") not in ("", "0")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test here that drives a browser (it asks for `browser`, directly or not)."""
    for item in items:
        if item.path.is_relative_to(HERE) and "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """No Chromium: skip the browser tests, or fail them when TOKEX_REQUIRE_BROWSER=1."""
    if item.get_closest_marker("browser") is None:
        return
    reason = browser_missing_reason()
    if reason is None:
        return
    if browser_required():
        pytest.fail(f"{reason}; {REQUIRE_ENV}=1 says the browser tests must run.", pytrace=False)
    pytest.skip(f"browser test: {reason}. Set {REQUIRE_ENV}=1 to make this a failure.")


# --- what the page did --------------------------------------------------------------------------


def is_local(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in LOCAL_SCHEMES or parts.hostname in LOCAL_HOSTS


@dataclass
class PageLog:
    """Everything a page did that a test should fail on."""

    page_errors: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    offsite_requests: list[str] = field(default_factory=list)
    allowed_console: list[re.Pattern[str]] = field(default_factory=list)

    def allow_console_error(self, pattern: str) -> None:
        """Accept console errors matching `pattern` (a regex): for a test that provokes one."""
        self.allowed_console.append(re.compile(pattern))

    def problems(self) -> list[str]:
        allowed = self.allowed_console
        console = [m for m in self.console_errors if not any(p.search(m) for p in allowed)]
        offsite = dict.fromkeys(self.offsite_requests)  # each URL once, in order
        return (
            [f"uncaught JS error: {e}" for e in self.page_errors]
            + [f"console error: {m}" for m in console]
            + [f"request left this machine (blocked): {u}" for u in offsite]
        )


def new_guarded_page(browser, log: PageLog, *, locale: str | None = None):
    """A fresh context and page: projector-sized, offsite traffic blocked, errors logged;
    `locale` is the browser's language (navigator.language, what st.context.locale reads)."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=1, service_workers="block",
                                  **({"locale": locale} if locale else {}))

    def note(url: str) -> None:  # the browser refuses it (OFFSITE_PROXY); the log says it
        if not is_local(url):
            log.offsite_requests.append(url)

    # subtle: request events do not include websockets; each page reports its own.
    context.on("request", lambda request: note(request.url))
    context.on("page", lambda opened: opened.on("websocket", lambda ws: note(ws.url)))
    page = context.new_page()
    page.on("pageerror", lambda error: log.page_errors.append(str(error)))
    page.on("console", lambda msg: msg.type == "error" and log.console_errors.append(msg.text))
    return context, page


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    """After a browser test's body passed, fail it if its page misbehaved."""
    result = yield
    log = getattr(item, "funcargs", {}).get("page_log")
    if log is not None and (problems := log.problems()):
        pytest.fail("the page misbehaved:\n  " + "\n  ".join(problems), pytrace=False)
    return result


# --- waiting for Streamlit ----------------------------------------------------------------------


def wait_for_app(page, expect=None, *, timeout_ms: int = WAIT_TIMEOUT_MS) -> None:
    """Wait until Streamlit has finished a run (and `expect` is visible), then check for errors.

    `expect` is a text (str) or a Playwright Locator. subtle: right after a click the app may
    still look idle because the rerun has not started yet; pass `expect` (what the rerun will
    show) to wait for the real result. A Python exception shown by the app raises at once.
    """
    settled = page.locator(f"{APP_IDLE}, {APP_CRASHED}")
    settled.wait_for(timeout=timeout_ms)
    _raise_if_app_failed(page)
    if expect is not None:
        if isinstance(expect, str):
            expect = page.get_by_text(expect).first
        expect.wait_for(state="visible", timeout=timeout_ms)
        settled.wait_for(timeout=timeout_ms)
    page.locator(RUNNING_ICONS).first.wait_for(state="detached", timeout=timeout_ms)
    # subtle: an element whose code Streamlit loads lazily (a widget's first use on the page)
    # stands as a grey skeleton for a moment after the run ends: measured then, a radio row
    # "scrolls" and a screenshot shows grey boxes
    page.locator(LOADING_ELEMENTS).first.wait_for(state="detached", timeout=timeout_ms)
    _raise_if_app_failed(page)


def _raise_if_app_failed(page) -> None:
    # An exception shows in the page; a syntax error in a dialog's code block, a moment later.
    shown = page.locator(APP_ERRORS).first
    crashed = page.locator(APP_CRASHED).count() > 0
    if crashed and not shown.count():
        page.wait_for_timeout(1_000)
    if crashed or shown.count():
        text = shown.inner_text() if shown.count() else "(no message shown)"
        raise AssertionError(f"the app failed with a Python exception:\n{text}")


# --- the app server -----------------------------------------------------------------------------


@dataclass
class AppServer:
    url: str
    started_s: float  # launching `streamlit run` -> /_stcore/health answers
    cold_start_s: float  # first navigation -> first rendered title, on a fresh server
    log_dir: Path | None = None  # where the server's stdout and stderr are written

    def server_log(self) -> str:
        """Everything the server printed so far (stdout, then stderr)."""
        if self.log_dir is None:
            return ""
        parts = (self.log_dir / name for name in ("streamlit.out", "streamlit.err"))
        return "\n".join(p.read_text(errors="replace") for p in parts if p.exists())


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(url: str) -> bool:
    # subtle: an empty ProxyHandler, so an http_proxy in the environment is never asked.
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(f"{url}/_stcore/health", timeout=2) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


def _stop(proc: subprocess.Popen) -> None:
    """End the server's whole process group: TERM, then KILL."""
    for sig, grace in ((signal.SIGTERM, 10), (signal.SIGKILL, 5)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=grace)
            return
        except subprocess.TimeoutExpired:
            continue


def _start_streamlit(log_dir: Path) -> tuple[subprocess.Popen, str, float]:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [
        sys.executable, "-m", "streamlit", "run", "app.py",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",  # listen on loopback only
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    stdout, stderr = log_dir / "streamlit.out", log_dir / "streamlit.err"
    t0 = time.perf_counter()
    with stdout.open("wb") as out, stderr.open("wb") as err:
        proc = subprocess.Popen(
            cmd, cwd=REPO, stdin=subprocess.DEVNULL, stdout=out, stderr=err,
            env={**os.environ, "PYTHONUNBUFFERED": "1"}, start_new_session=True,
        )  # fmt: skip
    deadline = t0 + SERVER_START_TIMEOUT_S
    while not _healthy(url):
        exited = proc.poll() is not None
        if exited or time.perf_counter() > deadline:
            what = (
                f"exited with code {proc.returncode}"
                if exited
                else (f"did not answer {url}/_stcore/health within {SERVER_START_TIMEOUT_S:.0f} s")
            )
            _stop(proc)
            raise RuntimeError(
                f"`{' '.join(cmd)}` {what}.\n--- stderr ---\n{stderr.read_text(errors='replace')}"
                f"\n--- stdout ---\n{stdout.read_text(errors='replace')}"
            )
        time.sleep(0.1)
    return proc, url, time.perf_counter() - t0


def _measure_cold_start(browser, url: str) -> float:
    """Seconds from navigating a fresh tab to the app's title rendered, on a fresh server."""
    log = PageLog()
    context, page = new_guarded_page(browser, log)
    try:
        t0 = time.perf_counter()
        page.goto(url)
        wait_for_app(page, APP_TITLE)
        seconds = time.perf_counter() - t0
    finally:
        context.close()
    if log.problems():
        raise AssertionError("the first load misbehaved:\n  " + "\n  ".join(log.problems()))
    return seconds


_REPORT = pytest.StashKey[list[str]]()


def _record(config: pytest.Config, line: str) -> None:
    config.stash.setdefault(_REPORT, []).append(line)


def pytest_terminal_summary(terminalreporter, config: pytest.Config) -> None:
    lines = config.stash.get(_REPORT, [])
    if lines:
        terminalreporter.section("browser timings")
        for line in lines:
            terminalreporter.write_line(line)


# --- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator:
    """Debian's Chromium, headless, launched once per session by Playwright."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def app_server(browser, tmp_path_factory, pytestconfig) -> Iterator[AppServer]:
    """`streamlit run app.py` on a free loopback port; the first (cold) load is timed here,
    so the measure stays cold whichever browser test runs first."""
    log_dir = tmp_path_factory.mktemp("streamlit")
    proc, url, started_s = _start_streamlit(log_dir)
    try:
        server = AppServer(url, started_s, _measure_cold_start(browser, url), log_dir)
        _record(pytestconfig, f"server ready (launch -> health): {started_s:.2f} s")
        _record(pytestconfig, f"cold start (navigate -> title shown): {server.cold_start_s:.2f} s")
        yield server
    finally:
        _stop(proc)


@pytest.fixture
def page_log() -> PageLog:
    return PageLog()


@pytest.fixture
def page(browser, page_log: PageLog) -> Iterator:
    """A fresh tab in a fresh context (no cookies or storage shared between tests)."""
    context, page = new_guarded_page(browser, page_log)
    yield page
    context.close()


@pytest.fixture
def chinese_page(browser, page_log: PageLog) -> Iterator:
    """A fresh tab whose browser says zh-CN, as a classroom's does: the app's first visit follows
    it (st.context.locale)."""
    context, page = new_guarded_page(browser, page_log, locale="zh-CN")
    yield page
    context.close()


@pytest.fixture(name="wait_for_app")
def wait_for_app_fixture() -> Callable[..., None]:
    return wait_for_app


@pytest.fixture
def open_app(page, app_server: AppServer) -> Callable[..., object]:
    """open_app(path="", expect=APP_TITLE, timeout_ms=WAIT_TIMEOUT_MS) -> the page, navigated
    and idle (a page that trains on its first visit to an empty store needs longer)."""

    def open_(path: str = "", expect=APP_TITLE, *, timeout_ms: int = WAIT_TIMEOUT_MS):
        page.goto(f"{app_server.url}/{path.lstrip('/')}")
        wait_for_app(page, expect, timeout_ms=timeout_ms)
        return page

    return open_


@pytest.fixture
def screenshot(page) -> Callable[..., Path]:
    """screenshot(name) -> <repo>/screenshots/<name>.png of the viewport (or full_page=True)."""

    def take(name: str, *, full_page: bool = False) -> Path:
        if not re.fullmatch(r"[\w.-]+", name):
            raise ValueError(f"screenshot name {name!r}: use letters, digits, '.', '-' or '_'")
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return take
