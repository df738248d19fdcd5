"""The Vocabulary table's search in a real Chromium at 1280x720 (issue 23, items 4 and 5).

- `x{1000000000}` typed as a regex once took the server to 19.3 GB and the kernel killed it:
  now the page names the bound, and the same server still answers a health check and a search.
- A query is echoed back in the search's messages (an id that is not a number, bytes that are
  not hex, a regex that is not valid): a Markdown image typed in any mode must not make the
  browser fetch it. A listener on loopback (conftest's guard blocks only other hosts) counts.
"""

from __future__ import annotations

import urllib.request

import pytest

from tests.browser.conftest import LAPTOP
from tests.browser.test_file_names import assert_no_markup_from, hostile_name, listener

__all__ = ["listener"]  # the fixture, used by name below


def _open_table(open_app, wait_for_app):
    page = open_app("vocabulary", expect="Vocabulary")
    page.set_viewport_size(LAPTOP)
    page.get_by_test_id("stDataFrame").first.wait_for(state="visible")
    return page


def _search(page, wait_for_app, kind: str, query: str, expect) -> None:
    page.get_by_test_id("stSelectbox").filter(has_text="Search by").locator(
        "div[role=combobox], input").first.click()
    page.get_by_role("option", name=kind, exact=True).click()
    wait_for_app(page)
    box = page.get_by_role("textbox", name="Search")
    box.fill(query)
    box.press("Enter")
    wait_for_app(page, expect)


def test_a_huge_repeat_is_refused_and_the_server_lives(open_app, wait_for_app, app_server,
                                                      page_log, screenshot):
    page_log.allow_console_error(r"status of 404")  # Streamlit's base-path probe of /vocabulary
    page = _open_table(open_app, wait_for_app)
    _search(page, wait_for_app, "Regex", "x{1000000000}",
            page.get_by_text("the bound is 1,000 repeats"))
    screenshot("vocabulary-search-huge-repeat")
    with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(
            f"{app_server.url}/_stcore/health", timeout=10) as response:
        assert response.status == 200
    _search(page, wait_for_app, "Text contains", "ization", page.get_by_text("tokens match"))


@pytest.mark.parametrize(("kind", "suffix"), [("Id", ""), ("Bytes (hex)", ""),
                                              ("Regex", "(unclosed")])
def test_an_echoed_query_fetches_nothing(open_app, wait_for_app, listener, page_log, kind, suffix):
    page_log.allow_console_error(r"status of 404")
    port, hits = listener
    page = _open_table(open_app, wait_for_app)
    _search(page, wait_for_app, kind, hostile_name(port, suffix),
            page.locator('[data-testid="stAlertContentError"]').first)
    page.wait_for_timeout(500)  # an image the message made would be requested by now
    assert_no_markup_from(page, port)
    assert hits == [], f"the browser fetched {hits} from the {kind} search"
