"""Bad input, entered as a person would, on every page: never a traceback, always a clear message
or a clean rendering, and nothing the user typed lost (issue 9, items 6e and 7).

One table (`CASES`): what the input is, on which page, how it is entered (typed into a box or
uploaded), and what must be seen afterwards. Every case also gets conftest's checks: no
exception box (`wait_for_app` raises on one), no uncaught JS error, no console error, no request
beyond this machine; and no dialog (no injected script ran).

Inputs are built in the browser where they are large (a 5 MB text is not sent through
Playwright's pipe) and kept small where the point allows, so each case stays fast.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import dataclass

import pytest

from tests.browser.conftest import WAIT_TIMEOUT_MS, PageLog, new_guarded_page
from tests.browser.test_links import PROBE_404
from tests.shared import PAYLOAD_LINES, PAYLOADS_TEXT

TEXT_BOX = '[data-testid="stTextArea"] textarea'

# Sets a text area's value the way a paste does: through the element's own (native) setter, so
# React sees a change, then an `input` event. `make` is a JS expression building the text from
# `arg` (a large text is made here, in the page, rather than sent through Playwright's pipe).
SET_BOX_JS = """(box, [make, arg]) => {
  const text = new Function("arg", "return " + make)(arg);
  const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
  box.focus();
  setter.call(box, text);
  box.dispatchEvent(new Event("input", { bubbles: true }));
  return text.length;
}"""


def set_box(page, wait_for_app, label: str, make: str, arg: object, expect) -> int:
    """Put the text that the JS expression `make` builds into the box `label`, apply it;
    returns the text's length as the browser counts it (UTF-16 units)."""
    length = page.get_by_label(label, exact=True).evaluate(SET_BOX_JS, [make, arg])
    page.get_by_label(label, exact=True).press("Control+Enter")
    page.wait_for_timeout(300)  # let the rerun start before waiting for it to end
    wait_for_app(page, expect, timeout_ms=3 * WAIT_TIMEOUT_MS)
    return length


def box_length(page, label: str) -> int:
    """The box's text length in the browser (UTF-16 units), without copying a large text out."""
    return page.get_by_label(label, exact=True).evaluate("box => box.value.length")


def box_value(page, label: str) -> str:
    return page.get_by_label(label, exact=True).input_value()


# --- 6e: over-limit text in the Playground's box is kept, and the page says what it did ----------


@dataclass(frozen=True)
class OverLimit:
    name: str
    make: str  # JS expression of `arg`
    arg: object
    said: str  # what the page must say


OVER_LIMIT = [
    OverLimit("5 MB of text", "'The cat sat on the mat. '.repeat(arg)", 200_000,
              "The box holds 4,800,000 characters; the Playground tokenizes the first 100,000"),
    OverLimit("200k characters", "'word '.repeat(arg)", 40_000,
              "The box holds 200,000 characters; the Playground tokenizes the first 100,000"),
    # 100,000 emoji are 100,000 characters, within the bound, but 200,000 UTF-16 units: the
    # browser's own length. All of them are tokenized.
    OverLimit("100,000 emoji", "'🙂'.repeat(arg)", 100_000, "The text: 100,000 characters"),
]


@pytest.mark.parametrize("case", OVER_LIMIT, ids=lambda c: c.name)
def test_long_text_in_the_playground_box_is_kept_and_explained(open_app, wait_for_app, case):
    page = open_app("?tok=gpt2&text=hello", expect="Playground")
    length = set_box(page, wait_for_app, "Text", case.make, case.arg, case.said)
    assert box_length(page, "Text") == length, "the box went back to the old text"
    page.locator(".tokview .tok").first.wait_for()


def test_lone_surrogates_in_the_playground_box_are_replaced_and_explained(open_app, wait_for_app):
    page = open_app("?tok=gpt2&text=hello", expect="Playground")
    make = "'abc' + String.fromCharCode(0xD800) + 'def' + String.fromCharCode(0xDC00)"
    set_box(page, wait_for_app, "Text", make, None, "U+FFFD")
    assert box_value(page, "Text") == "abc\ufffddef\ufffd"


def test_lone_surrogates_keep_the_rest_of_the_text(open_app, wait_for_app):
    page = open_app("?tok=gpt2&text=hello", expect="Playground")
    make = "'ok ' + String.fromCharCode(0xDC00) + ' fine 🙂'"  # a low half alone; a whole pair
    set_box(page, wait_for_app, "Text", make, None, "U+FFFD")
    assert box_value(page, "Text") == "ok \ufffd fine 🙂"


# --- 7: every other bad input stays clean ---------------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """Text put into a box; `make` is a JS expression of `arg` (see SET_BOX_JS)."""

    make: str
    arg: object = None


@dataclass(frozen=True)
class Upload:
    """A file given to the uploader inside the expander `where`."""

    filename: str
    data: bytes


@dataclass(frozen=True)
class Case:
    name: str
    page: str  # its link in the sidebar
    reach: str  # how to reach the box: "" (it is there), "tab:<label>", "ms_own", "grow_own"
    where: str  # the box's label, or the uploader's expander title
    entry: Typed | Upload
    expect: str  # a Playwright selector ("text=..." or CSS) of what must be seen afterwards


def _zip_bytes() -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("corpus.txt", "the cat sat on the mat\n" * 50 + "".join(map(chr, range(256, 900))))
    return buffer.getvalue()


ZIP = _zip_bytes()
BINARY = bytes(range(256)) * 4
UTF16 = "the cat sat on the mat\n".encode("utf-16")
NOT_UTF8 = "text=is not UTF-8 text"
CONTROL = Typed("'a\\u0000b\\u0001c\\u0007d \\u001b[31mred\\u001b[0m\\u007f\\u0085e'")
WHITESPACE = Typed("'   \\n\\t  \\n\\u00a0\\u3000'")
ZALGO_RTL = Typed("'Z\\u0335\\u0321\\u0322a\\u0337l\\u0338g\\u0336o \\u202Eevil\\u202C "
                  "\\u0645\\u0631\\u062d\\u0628\\u0627 \\u05e9\\u05dc\\u05d5\\u05dd'")
PAYLOADS = Typed("arg", PAYLOADS_TEXT)
TOKENS = ".tokview .tok"
PLAYER = ".ms-player"
RULER = ".ruler"

PG, MS, CP, LG = "Playground", "Merge steps", "Compression", "Languages"
PG_TXT, PG_JSON = "Upload a .txt file", "Add your own tokenizer.json (Hugging Face format)"
MS_TXT, CP_TXT = "Upload a .txt file", "Train on your own text (a UTF-8 .txt file)"
LG_TSV = "Use your own parallel file (.tsv)"
PAIRS, RULER_TAB = "tab:English vs Chinese", "tab:Byte ruler"

CASES = [
    # the Playground's text box
    Case("empty", PG, "", "Text", Typed("''"), "text=Type or paste some text above"),
    Case("whitespace", PG, "", "Text", WHITESPACE, TOKENS),
    Case("NUL and control characters", PG, "", "Text", CONTROL, TOKENS),
    Case("200k-character word", PG, "", "Text", Typed("'a'.repeat(arg)", 200_000),
         "text=The box holds 200,000 characters"),
    Case("20k ZWJ emoji", PG, "", "Text", Typed("'👨\\u200d👩\\u200d👧'.repeat(arg)", 20_000), TOKENS),
    Case("Zalgo and RTL", PG, "", "Text", ZALGO_RTL, TOKENS),
    Case("script payloads", PG, "", "Text", PAYLOADS, TOKENS),
    # the Playground's .txt upload
    Case("binary .txt", PG, "", PG_TXT, Upload("data.txt", BINARY), NOT_UTF8),
    Case("invalid UTF-8 .txt", PG, "", PG_TXT, Upload("latin1.txt", b"caf\xe9 au lait"),
         "text=byte 0xE9 at offset 3"),
    Case("UTF-16 .txt", PG, "", PG_TXT, Upload("utf16.txt", UTF16), NOT_UTF8),
    Case("zip renamed .txt", PG, "", PG_TXT, Upload("archive.txt", ZIP), NOT_UTF8),
    Case("script payloads .txt", PG, "", PG_TXT, Upload("payloads.txt", PAYLOADS_TEXT.encode()),
         TOKENS),
    # the Playground's tokenizer.json upload
    Case("tokenizer.json not JSON", PG, "", PG_JSON, Upload("tokenizer.json", b"{not json"),
         "text=not a tokenizer.json"),
    Case("tokenizer.json without a model", PG, "", PG_JSON,
         Upload("tokenizer.json", b'{"version": "1.0", "model": {"type": "BPE"}}'),
         "text=not a tokenizer.json"),
    Case("tokenizer.json binary", PG, "", PG_JSON, Upload("tokenizer.json", BINARY),
         "text=not a tokenizer.json"),
    # Merge steps: the corpus box and its upload
    Case("empty corpus", MS, "ms_own", "Your corpus", Typed("''"), "text=Type or paste a corpus above"),
    Case("whitespace corpus", MS, "ms_own", "Your corpus", WHITESPACE, "text=Type or paste a corpus above"),
    Case("NUL and control corpus", MS, "ms_own", "Your corpus", CONTROL, PLAYER),
    Case("Zalgo and RTL corpus", MS, "ms_own", "Your corpus", ZALGO_RTL, PLAYER),
    Case("script payloads corpus", MS, "ms_own", "Your corpus", PAYLOADS, PLAYER),
    Case("invalid UTF-8 corpus", MS, "ms_own", MS_TXT, Upload("c.txt", b"caf\xe9"), NOT_UTF8),
    Case("UTF-16 corpus", MS, "ms_own", MS_TXT, Upload("c.txt", UTF16), NOT_UTF8),
    Case("zip renamed corpus", MS, "ms_own", MS_TXT, Upload("c.txt", ZIP), NOT_UTF8),
    # Compression: the corpus upload
    Case("binary corpus", CP, "", CP_TXT, Upload("c.txt", BINARY), NOT_UTF8),
    Case("UTF-16 corpus", CP, "", CP_TXT, Upload("c.txt", UTF16), NOT_UTF8),
    Case("zip renamed corpus", CP, "", CP_TXT, Upload("c.txt", ZIP), NOT_UTF8),
    Case("too short corpus", CP, "", CP_TXT, Upload("c.txt", b"hi there"),
         "text=a corpus needs at least"),
    # Languages: the parallel file, the byte ruler's text, the grown vocabulary's text
    Case("parallel file without tabs", LG, PAIRS, LG_TSV, Upload("p.tsv", b"en\tzh\nno tab here\n"),
         "text=Still using"),
    Case("parallel file not UTF-8", LG, PAIRS, LG_TSV, Upload("p.tsv", b"en\tzh\ncaf\xe9\t\xe4\n"),
         NOT_UTF8),
    Case("parallel file of payloads", LG, PAIRS, LG_TSV,
         Upload("p.tsv", "en\tzh\n<script>alert(1)</script>\t<img src=x onerror=alert(1)>\n"
                "<svg onload=alert(1)>\t\" onmouseover=\"alert(1)\n".encode()),
         "text=2 pairs"),
    Case("ruler: NUL and control", LG, RULER_TAB, "Text", CONTROL, RULER),
    Case("ruler: Zalgo and RTL", LG, RULER_TAB, "Text", ZALGO_RTL, RULER),
    Case("ruler: script payloads", LG, RULER_TAB, "Text",
         Typed("arg", "\n".join(PAYLOAD_LINES[:12])), RULER),
    Case("grow: empty", LG, "grow_own", "Your Chinese text", Typed("''"),
         "text=Paste some Chinese text above"),
    Case("grow: whitespace", LG, "grow_own", "Your Chinese text", WHITESPACE,
         "text=Paste some Chinese text above"),
    Case("grow: script payloads", LG, "grow_own", "Your Chinese text",
         Typed("arg", "\n".join(PAYLOAD_LINES[:12])), "text=Held out: the rest"),
]

# What an injected payload would have made of the page, had it become markup.
INJECTED = (
    "[onerror], [onload], [onmouseover], [onfocus], [ontoggle], a[href^='javascript' i], "
    "iframe[srcdoc], [data-testid='stMain'] script, img[src='x']"
)


def open_page(open_app, wait_for_app, name: str):
    page = open_app("?tok=gpt2", expect="Playground")
    if name != PG:
        page.locator('[data-testid="stSidebarNav"] a', has_text=name).click()
        # a page's first visit may train its built-in tokenizers: slow on a loaded machine
        wait_for_app(page, page.get_by_role("heading", name=name), timeout_ms=3 * WAIT_TIMEOUT_MS)
    return page


def reach(page, wait_for_app, how: str) -> None:
    """Open what holds the box or the uploader."""
    if how.startswith("tab:"):
        tab = how.removeprefix("tab:")
        page.get_by_role("tab", name=tab).click()
        wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text=tab))
    elif how == "ms_own":
        page.get_by_role("combobox", name="Corpus").click()
        page.get_by_role("option", name="Your own text or upload").click()
        wait_for_app(page, page.get_by_label("Your corpus", exact=True))
    elif how == "grow_own":
        reach(page, wait_for_app, "tab:Grow a vocabulary")
        page.get_by_text("Split your own text").click()
        wait_for_app(page, page.get_by_label("Your Chinese text", exact=True))


def enter(page, wait_for_app, case: Case) -> None:
    expect = page.locator(case.expect).first
    if isinstance(case.entry, Typed):
        set_box(page, wait_for_app, case.where, case.entry.make, case.entry.arg, expect)
        return
    page.get_by_text(case.where, exact=True).first.click()
    expander = page.locator('[data-testid="stExpander"]').filter(has_text=case.where).first
    expander.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        files=[{"name": case.entry.filename, "mimeType": "application/octet-stream",
                "buffer": case.entry.data}]
    )
    page.wait_for_timeout(300)  # let the upload's rerun start before waiting for it to end
    wait_for_app(page, expect, timeout_ms=3 * WAIT_TIMEOUT_MS)


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.page}: {c.name}")
def test_bad_input_stays_clean(open_app, wait_for_app, case):
    page = open_page(open_app, wait_for_app, case.page)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    reach(page, wait_for_app, case.reach)
    enter(page, wait_for_app, case)
    assert page.locator(case.expect).first.is_visible()
    assert page.locator(INJECTED).count() == 0
    assert dialogs == []


def test_ten_compression_trainings_at_once(browser, app_server, wait_for_app):
    """Ten tabs upload ten small, distinct corpora to Compression at the same time: every one
    trains to the end, with no exception, JS error or request beyond this machine."""
    logs = [PageLog() for _ in range(10)]
    tabs = [new_guarded_page(browser, log) for log in logs]
    try:
        for log, (_, page) in zip(logs, tabs):
            # straight to the page (not through the Playground: ten of those cost CI a minute)
            log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
            page.goto(f"{app_server.url}/compression")
            wait_for_app(page, page.get_by_role("heading", name=CP), timeout_ms=3 * WAIT_TIMEOUT_MS)
        for i, (_, page) in enumerate(tabs):  # all ten uploads first, then wait for all ten
            corpus = "".join(f"line {i} {j}: tab {i} trains on words{i} of its own.\n"
                             for j in range(40))
            page.get_by_text(CP_TXT, exact=True).first.click()
            page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
                files=[{"name": f"corpus-{i}.txt", "mimeType": "text/plain",
                        "buffer": corpus.encode()}]
            )
        for i, (_, page) in enumerate(tabs):
            page.wait_for_timeout(300)  # let the upload's rerun start before waiting for it
            wait_for_app(page, page.get_by_text(f"Your text (corpus-{i}.txt)").first,
                         timeout_ms=6 * WAIT_TIMEOUT_MS)
    finally:
        for context, _ in tabs:
            context.close()
    problems = [f"tab {i}: {p}" for i, log in enumerate(logs) for p in log.problems()]
    assert problems == []

