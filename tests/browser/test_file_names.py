"""A file name is user text: on every uploader, Markdown in it must stay characters (issue 9, 6b).

A name like `![x](http://127.0.0.1:PORT/a.png).txt` that reaches Markdown unescaped becomes an
image the browser fetches (and a `(http...)` becomes a link). The page guard of conftest.py only
blocks hosts beyond this machine, so here a listener on loopback counts what would have left:
every good upload below carries such a name, and the listener must see no request at all.
"""

from __future__ import annotations

import http.server
import threading
from collections.abc import Iterator

import pytest

from tests.browser.conftest import WAIT_TIMEOUT_MS

UPLOAD_INPUT = '[data-testid="stFileUploaderDropzoneInput"]'  # inside its expander
ENGLISH = "The quick brown fox jumps over the lazy dog, and the dog naps in the sun.\n"


class _Counter(http.server.BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args) -> None:  # keep the test output quiet
        pass


@pytest.fixture
def listener() -> Iterator[tuple[int, list[str]]]:
    """(port, requests seen) of a throwaway HTTP server on loopback."""
    hits: list[str] = []
    handler = type("Counter", (_Counter,), {"hits": hits})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1], hits
    finally:
        server.shutdown()
        server.server_close()


def hostile_name(port: int, suffix: str) -> str:
    return f"![x](http://127.0.0.1:{port}/a.png)[link](http://127.0.0.1:{port}/b){suffix}"


def upload(page, expander_title: str, name: str, data: bytes, mime: str = "text/plain") -> None:
    page.get_by_text(expander_title).first.click()
    expander = page.locator('[data-testid="stExpander"]').filter(has_text=expander_title).first
    expander.locator(UPLOAD_INPUT).set_input_files(
        files=[{"name": name, "mimeType": mime, "buffer": data}]
    )


def allow_base_path_probe(page_log) -> None:
    # opening a page's own path makes Streamlit's frontend probe <path>/_stcore/* first: two
    # 404s that are Streamlit's (issue 9, item 3), not this test's business
    page_log.allow_console_error(r"status of 404")


def settle(page, wait_for_app) -> None:
    page.wait_for_timeout(300)  # let the upload's rerun start before waiting for it to end
    wait_for_app(page, timeout_ms=3 * WAIT_TIMEOUT_MS)


def assert_no_markup_from(page, port: int) -> None:
    """No element of the page points at the listener (what Markdown would have made of it)."""
    made = page.locator(f'img[src*=":{port}"], a[href*=":{port}"]').count()
    assert made == 0, f"{made} image(s) or link(s) were made from a file name"


def test_compression_upload_name_stays_text(open_app, wait_for_app, listener, page_log):
    allow_base_path_probe(page_log)
    port, hits = listener
    # subtle: alone (or first), this test meets an empty store, and Compression's first visit
    # trains its curves: the default wait timed out there, while in the whole run it passed
    page = open_app("compression", expect="Compression", timeout_ms=3 * WAIT_TIMEOUT_MS)
    # long enough to train on; the progress text while training names the file
    corpus = "".join(f"{i}: {ENGLISH}" for i in range(60)).encode()
    upload(page, "Train on your own text", hostile_name(port, ".txt"), corpus)
    settle(page, wait_for_app)
    assert_no_markup_from(page, port)
    assert hits == [], f"the browser fetched {hits} from the file name"


def test_languages_parallel_upload_name_stays_text(open_app, wait_for_app, listener, page_log):
    allow_base_path_probe(page_log)
    port, hits = listener
    page = open_app("languages?lg_tab=English+vs+Chinese", expect="Languages")
    pairs = "en\tzh\n" + "".join(f"Line {i} is here.\t这是第{i}行。\n" for i in range(12))
    upload(page, "Use your own parallel file", hostile_name(port, ".tsv"), pairs.encode(),
           "text/tab-separated-values")
    settle(page, wait_for_app)
    # the grow experiment's caption names the pairs' source (the file) too: open its tab
    page.get_by_role("tab", name="Grow a vocabulary").click()
    settle(page, wait_for_app)
    assert_no_markup_from(page, port)
    assert hits == [], f"the browser fetched {hits} from the file name"


@pytest.mark.parametrize(
    ("path", "heading", "expander"),
    [("", "Playground", "Upload a .txt file"),
     ("merge_steps?ms_source=own", "Merge steps", "Upload a .txt file")],
)
def test_text_upload_name_stays_text(open_app, wait_for_app, listener, page_log, path, heading,
                                    expander):
    allow_base_path_probe(page_log)
    port, hits = listener
    page = open_app(path, expect=heading)
    upload(page, expander, hostile_name(port, ".txt"), ENGLISH.encode())
    settle(page, wait_for_app)
    assert_no_markup_from(page, port)
    assert hits == [], f"the browser fetched {hits} from the file name"
