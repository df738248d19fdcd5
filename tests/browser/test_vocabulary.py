"""The Vocabulary page in a real Chromium at 1280x720: GPT-2's table and its charts draw, a search
narrows the table; screenshots land in screenshots/."""

from __future__ import annotations

from tests.browser.conftest import LAPTOP


def _open(open_app, wait_for_app):
    page = open_app()
    page.set_viewport_size(LAPTOP)  # a laptop's screen: what a student sees
    page.locator('[data-testid="stSidebarNav"] a', has_text="Vocabulary").click()
    wait_for_app(page, page.get_by_role("heading", name="Vocabulary"))
    return page


def test_table_search_and_charts(open_app, wait_for_app, screenshot) -> None:
    page = _open(open_app, wait_for_app)
    page.get_by_test_id("stDataFrame").first.wait_for(state="visible")
    screenshot("vocabulary-table")
    page.get_by_role("textbox", name="Search").fill("ization")
    page.get_by_role("textbox", name="Search").press("Enter")
    wait_for_app(page, page.get_by_text("tokens match"))
    assert "tokens match" in page.get_by_text("tokens match").inner_text()
    screenshot("vocabulary-search")
    page.get_by_role("tab", name="Charts").click()
    wait_for_app(page, page.locator(".js-plotly-plot").first)
    assert page.locator(".js-plotly-plot").count() == 2
    screenshot("vocabulary-charts")
    page.get_by_role("tab", name="Compare").click()
    wait_for_app(page, page.get_by_text("Shared tokens (same bytes)"))
    screenshot("vocabulary-compare")
