"""Links in a real browser: whatever a query parameter holds, the page opens without a traceback,
says quietly which value it did not use, and the server logs no warning for any link.
"""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import LAPTOP, AppServer, wait_for_app

LONG_DIGITS = "9" * 5_000
NOTES = ".st-key-link_notes_box"
# subtle: a page's own link first makes the front end probe /<page>/_stcore/… (issue 9, item 3,
# fixed or not elsewhere); these tests are about the page's answer to the link, not that probe.
PROBE_404 = r"Failed to load resource: the server responded with a status of 404"

BAD_LINKS = [  # (page path, query, the parameter the note names, the page's heading)
    ("", "ctx=%C2%B2", "ctx", "Playground"),
    ("", f"ctx={LONG_DIGITS}", "ctx", "Playground"),
    ("", "view=%3Cimg%20src%3Dx%3E&tok=gpt2", "view", "Playground"),
    ("merge_steps", "ms_merges=inf", "ms_merges", "Merge steps"),
    ("merge_steps", "ms_merges=-inf", "ms_merges", "Merge steps"),
    ("merge_steps", "ms_step=%C2%B2", "ms_step", "Merge steps"),
    ("merge_steps", f"ms_step={LONG_DIGITS}", "ms_step", "Merge steps"),
    ("languages", "lg_tab=%5Bx%5D(http%3A%2F%2F127.0.0.1%3A9%2Fa)", "lg_tab", "Languages"),
]


def _open(page, app_server: AppServer, path: str, query: str, heading: str) -> None:
    page.goto(f"{app_server.url}/{path}?{query}")
    wait_for_app(page, page.get_by_role("heading", name=heading, exact=True))


@pytest.mark.parametrize(("path", "query", "name", "heading"), BAD_LINKS,
                         ids=[f"{p or 'playground'}-{q[:16]}" for p, q, _, _ in BAD_LINKS])
def test_a_bad_link_opens_the_page_with_a_quiet_note(page, page_log, app_server: AppServer,
                                                     path, query, name, heading):
    page_log.allow_console_error(PROBE_404)
    _open(page, app_server, path, query, heading)  # raises on a traceback shown in the page
    notes = page.locator(NOTES)
    notes.wait_for()
    assert f"This link's {name} value" in notes.inner_text()
    assert notes.locator("a, img").count() == 0  # the value is shown as text, never markup
    assert page.locator('[data-testid="stException"]').count() == 0


def test_bad_links_look_quiet_at_laptop_size(page, page_log, app_server: AppServer, screenshot):
    page_log.allow_console_error(PROBE_404)
    page.set_viewport_size(LAPTOP)
    _open(page, app_server, "", f"ctx={LONG_DIGITS}&view=%C2%B2&tok=gpt2,nope", "Playground")
    assert len(page.locator(NOTES).inner_text().splitlines()) == 3
    screenshot("links-bad-playground")
    _open(page, app_server, "merge_steps", "ms_merges=inf&ms_step=%C2%B2", "Merge steps")
    page.locator(".ms-player").wait_for()
    assert page.locator(".ms-player .stepno").inner_text() == "Step 0 / 10"
    screenshot("links-bad-merge-steps")


GOOD_LINKS = [  # links the pages write, with every parameter they read
    ("", "tok=gpt2,cl100k_base&view=ids&ws=1&special=1&ctx=4096&text=hello%20world"),
    ("", "view=bytes"),
    ("", "ctx=200000"),
    ("merge_steps", "ms_source=sample:english&ms_level=byte&ms_merges=30&ms_tie=lexical&ms_step=3"),
    ("merge_steps", "ms_level=sentence&ms_step=2"),
    ("languages", "lg_tab=Emoji"),
]
WARNING_LINES = re.compile(r"Session State|Stack \(most recent call last\)|Traceback|warning",
                           re.IGNORECASE)


HEADINGS = {"": "Playground", "merge_steps": "Merge steps", "languages": "Languages"}


def warnings_logged(app_server: AppServer) -> list[str]:
    return [line for line in app_server.server_log().splitlines() if WARNING_LINES.search(line)]


def test_no_link_makes_the_server_log_a_warning(page, page_log, app_server: AppServer):
    page_log.allow_console_error(PROBE_404)
    for path, query in GOOD_LINKS:
        _open(page, app_server, path, query, HEADINGS[path])
        assert page.locator(NOTES).count() == 0
    # the same session moving between pages: every widget comes back with its kept value
    for title in ("Merge steps", "Languages", "Playground", "Merge steps"):
        page.locator('[data-testid="stSidebarNav"] a', has_text=title).click()
        wait_for_app(page, page.get_by_role("heading", name=title, exact=True))
    assert warnings_logged(app_server) == []
    for path, query, _, heading in BAD_LINKS:
        _open(page, app_server, path, query, heading)
    assert warnings_logged(app_server) == []


def test_a_link_opens_the_languages_tab_it_names(page, page_log, app_server: AppServer):
    page_log.allow_console_error(PROBE_404)
    _open(page, app_server, "languages", "lg_tab=Emoji", "Languages")
    assert page.locator('[role="tab"][aria-selected="true"]').inner_text() == "Emoji"
    assert page.locator(NOTES).count() == 0
