"""The lone-surrogate guard covers every page's text boxes, whichever page a tab opens first
(issue 23, item 6: it was mounted by three pages only, so a lone surrogate typed on Sequences
closed the websocket, the server logged `DecodeError ... bad UTF-8`, and the page stopped
answering until reload).

Each page is opened fresh, straight from its address, so no other page has mounted anything;
its first text box gets a lone surrogate the way a broken paste delivers one, then Enter. The
page must stay connected, run, and hold U+FFFD where the half was.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import WAIT_TIMEOUT_MS
from tests.browser.test_links import PROBE_404

PAGES = [
    ("", "Playground"),
    ("merge_steps?ms_source=own&ms_text=low+lower", "Merge steps"),
    ("unigram?ug_tab=%F0%9F%95%B8%EF%B8%8F+Lattice+%26+Viterbi", "Unigram"),
    ("languages", "Languages"),
    ("sequences", "Sequences"),
    ("vocabulary", "Vocabulary"),
    ("practice", "Practice"),
]
BOX = ('[data-testid="stMain"] textarea:visible, '
       '[data-testid="stMain"] [data-testid="stTextInput"] input:visible')

# The native setter, so React sees a change, then an `input` event, as a paste does.
PASTE_LONE_HALF_JS = """box => {
  const proto = box instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement;
  const setter = Object.getOwnPropertyDescriptor(proto.prototype, "value").set;
  box.focus();
  setter.call(box, "ab" + String.fromCharCode(0xD800) + "cd");
  box.dispatchEvent(new Event("input", { bubbles: true }));
  return box.tagName;
}"""


@pytest.mark.parametrize(("path", "heading"), PAGES, ids=lambda v: v.split("?")[0] or "playground")
def test_a_lone_surrogate_on_any_page_keeps_the_page_answering(
    open_app, wait_for_app, page_log, path, heading
):
    page_log.allow_console_error(PROBE_404)  # Streamlit's own probe of /<page>/_stcore/...
    page = open_app(path, expect=heading)
    box = page.locator(BOX).first
    box.wait_for()
    tag = box.evaluate(PASTE_LONE_HALF_JS)
    box.press("Control+Enter" if tag == "TEXTAREA" else "Enter")
    page.wait_for_timeout(300)  # let the rerun start before waiting for it to end
    # wait_for_app requires the websocket CONNECTED and the script idle: a closed socket fails it
    wait_for_app(page, heading, timeout_ms=2 * WAIT_TIMEOUT_MS)
    assert box.input_value() == "ab\ufffdcd"
