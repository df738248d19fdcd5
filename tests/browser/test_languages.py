"""The Languages page in a real Chromium: every tab draws its charts and ruler, nothing leaves
the machine, injection payloads in the byte ruler stay text, and screenshots at projector size
land in screenshots/ (git-ignored) for a person to look at."""

from __future__ import annotations

import pytest
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import LAPTOP, PageLog
from tests.shared import PAYLOAD_LINES as PAYLOADS
from tokenizer_core.samples import MAX_PARALLEL_PAIRS, parallel_pairs
from ui.languages import data
from ui.languages.limits import MAX_RULER_INPUT_CHARS

PLOTS = ".js-plotly-plot"
HEADLINE = 2  # the English vs Chinese tab opens with the headline: premium and emoji, every tokenizer


def _open(open_app, wait_for_app, tab: str = ""):
    """Open the app, go to Languages by its sidebar link, then to `tab`.

    subtle: opening /languages directly makes Streamlit's front end probe
    /languages/_stcore/health first, a 404 the page log would (rightly) report.
    """
    page = open_app()
    page.locator('[data-testid="stSidebarNav"] a', has_text="Languages").click()
    wait_for_app(page, page.get_by_role("heading", name="Languages"))
    if tab:
        page.get_by_role("tab", name=tab).click()
        wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text=tab))
    return page


def _scroll_to(locator, tries: int = 5) -> None:
    """Scroll a chart into view, again if a rerun redrew it meanwhile.

    subtle: a rerun (presentation mode, a tab) may replace a plotly chart a moment after the page
    looks idle; Playwright then holds the detached element ("not attached to the DOM"). The
    locator re-queries on each try, so the next try finds the redrawn chart.
    """
    for attempt in range(tries):
        try:
            locator.scroll_into_view_if_needed(timeout=5_000)
            return
        except PlaywrightError:
            if attempt == tries - 1:
                raise
            locator.page.wait_for_timeout(500)


def _plots_drawn(page, at_least: int) -> None:
    """At least `at_least` plotly charts, each with drawn marks (bars, boxes, lines or a heatmap)."""
    plots = page.locator(PLOTS)
    plots.nth(at_least - 1).wait_for(state="visible", timeout=30_000)
    for i in range(at_least):
        _scroll_to(plots.nth(i))
        plots.nth(i).locator(".trace path, .hm image").first.wait_for(state="attached", timeout=30_000)


def test_byte_ruler_shows_bytes_and_split_tokens(open_app, wait_for_app, screenshot) -> None:
    page = _open(open_app, wait_for_app)
    ruler = page.locator(".ruler").first
    ruler.wait_for(state="visible")
    bytes_row = page.locator(".ruler .rbyte .rc")
    assert [bytes_row.nth(i).inner_text() for i in range(3)] == ["E4", "BD", "A0"]
    gpt2_first = page.locator(".ruler .rtoken").first.locator(".tk").first
    assert "partial" in (gpt2_first.get_attribute("class") or "")
    assert gpt2_first.inner_text() == "<E4 BD>"
    # Aligned: GPT-2's first token is exactly as wide as the two byte boxes under E4 and BD.
    byte_boxes = [bytes_row.nth(i).bounding_box() for i in range(2)]
    token_box = gpt2_first.bounding_box()
    assert abs(token_box["x"] - byte_boxes[0]["x"]) < 2
    assert abs((token_box["x"] + token_box["width"]) - (byte_boxes[1]["x"] + byte_boxes[1]["width"])) < 3
    screenshot("languages-ruler")


def test_presentation_mode_ruler(open_app, wait_for_app, screenshot, page) -> None:
    page = _open(open_app, wait_for_app)
    page.get_by_text("Presentation mode").click()
    wait_for_app(page)
    ruler = page.locator(".ruler.big").first
    ruler.wait_for(state="visible")
    ruler.scroll_into_view_if_needed()
    screenshot("languages-ruler-presentation")


def test_parallel_tab_draws_charts_and_table(open_app, wait_for_app, screenshot, page) -> None:
    page = _open(open_app, wait_for_app, "English vs Chinese")
    _plots_drawn(page, 2 + HEADLINE)
    assert page.get_by_text("Token premium of Chinese over English").first.is_visible()
    page.locator('[data-testid="stDataFrame"]').first.wait_for(state="visible")
    page.get_by_role("tab", name="English vs Chinese").scroll_into_view_if_needed()
    screenshot("languages-parallel")
    page.locator(PLOTS).nth(1 + HEADLINE).scroll_into_view_if_needed()
    screenshot("languages-parallel-rates")
    page.get_by_text("Every pair", exact=True).click()
    _plots_drawn(page, 3 + HEADLINE)
    page.locator(PLOTS).nth(2 + HEADLINE).scroll_into_view_if_needed()
    screenshot("languages-parallel-pairs")


def test_a_file_at_the_pair_bound_draws_its_charts(open_app, wait_for_app, screenshot, page) -> None:
    """20,000 pairs (the bound) at 1280x720: the count's status, the charts, every pair's box."""
    page.set_viewport_size(LAPTOP)
    page = _open(open_app, wait_for_app, "English vs Chinese")
    _plots_drawn(page, 2)
    pairs = parallel_pairs()
    lines = [f"{pairs[i % len(pairs)].en}\t{pairs[i % len(pairs)].zh}"
             for i in range(MAX_PARALLEL_PAIRS)]  # 960,000 characters: under the file's bound
    content = ("en\tzh\n" + "\n".join(lines) + "\n").encode()
    page.get_by_text("Use your own parallel file (.tsv)").click()
    page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzoneInput"]').set_input_files(
        {"name": "bound.tsv", "mimeType": "text/plain", "buffer": content})
    wait_for_app(page, page.get_by_text(f"bound.tsv, {MAX_PARALLEL_PAIRS:,} pairs"))
    status = page.locator('[data-testid="stExpander"]', has_text="Counted the tokens of")
    status.first.wait_for(state="visible", timeout=60_000)
    _plots_drawn(page, 2 + HEADLINE)
    page.get_by_role("tab", name="English vs Chinese").scroll_into_view_if_needed()
    screenshot("languages-laptop-20000-pairs")
    page.locator(PLOTS).nth(HEADLINE).scroll_into_view_if_needed()
    screenshot("languages-laptop-20000-pairs-premium")
    page.get_by_text("Every pair", exact=True).click()
    _plots_drawn(page, 3 + HEADLINE)
    page.locator(PLOTS).nth(2 + HEADLINE).scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshot("languages-laptop-20000-pairs-every-pair")


def test_an_over_long_ruler_paste_is_kept_and_cut_with_a_note(open_app, wait_for_app, page) -> None:
    page = _open(open_app, wait_for_app)
    page.locator(".ruler").first.wait_for(state="visible")
    wait_for_app(page)
    text = "你好" * MAX_RULER_INPUT_CHARS  # twice the bound: the browser must not refuse it
    box = page.get_by_role("textbox", name="Text", exact=True)
    box.fill(text)
    box.press("Control+Enter")
    wait_for_app(page, page.get_by_text(f"The box holds {len(text):,} characters"))
    assert box.input_value() == text


def test_emoji_tab_draws_chart_and_a_closer_look(open_app, wait_for_app, screenshot, page) -> None:
    page = _open(open_app, wait_for_app, "Emoji")
    _plots_drawn(page, 1)
    page.get_by_role("tab", name="Emoji").scroll_into_view_if_needed()
    screenshot("languages-emoji")
    ruler = page.locator(".ruler").first
    ruler.wait_for(state="visible")
    ruler.scroll_into_view_if_needed()
    screenshot("languages-emoji-closer")
    # The zero-width joiner that o200k_base keeps whole is named, not an empty box.
    assert ruler.locator(".rtoken .tk", has_text="ZWJ").count() > 0


def test_grow_tab_draws_the_curve(open_app, wait_for_app, screenshot, page) -> None:
    page = _open(open_app, wait_for_app, "Grow a vocabulary")
    _plots_drawn(page, 1)
    assert page.get_by_text("Grow a Chinese vocabulary").first.is_visible()
    page.locator(PLOTS).first.scroll_into_view_if_needed()
    screenshot("languages-grow")
    page.locator(".tokview").first.wait_for(state="visible")
    page.locator(".tokview").first.scroll_into_view_if_needed()
    screenshot("languages-grow-tokens")


def test_injection_payloads_in_the_ruler_stay_text(open_app, wait_for_app, page, page_log: PageLog) -> None:
    page = _open(open_app, wait_for_app)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    text = "\n".join(PAYLOADS[:12])[:1_900]
    page.locator(".ruler").first.wait_for(state="visible")  # the tab's first run is over
    wait_for_app(page)
    box = page.get_by_role("textbox", name="Text", exact=True)
    box.fill(text)
    assert box.input_value() == text
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter (or on blur)
    wait_for_app(page, page.get_by_text("Drawing the first"))
    page.wait_for_timeout(500)
    assert dialogs == []
    ruler = page.locator(".ruler").first
    assert ruler.locator("script, img, iframe, svg, a, object, embed").count() == 0
    assert page_log.offsite_requests == []


# Boxes of the chart's title and of its column labels that overlap, as drawn.
TITLE_OVER_LABELS_JS = """plot => {
  const box = el => el.getBoundingClientRect();
  const title = box(plot.querySelector(".gtitle"));
  const meet = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...plot.querySelectorAll(".xtick text")].filter(t => meet(title, box(t)))
    .map(t => t.textContent);
}"""


def test_emoji_heatmap_title_clears_its_column_labels(open_app, wait_for_app, screenshot, page) -> None:
    """At 1280x720, and in presentation mode, the heatmap's title sits clear of its column labels."""
    page.set_viewport_size(LAPTOP)
    page = _open(open_app, wait_for_app, "Emoji")
    for mode in ("normal", "presentation"):
        if mode == "presentation":
            page.get_by_text("Presentation mode").first.click()
            wait_for_app(page)
        _plots_drawn(page, 1)
        heatmap = page.locator(PLOTS).first
        _scroll_to(heatmap)
        page.wait_for_timeout(300)
        screenshot(f"languages-laptop-emoji-{mode}")
        labels = heatmap.locator(".xtick text").all_text_contents()
        assert len(labels) == 7, labels
        assert heatmap.evaluate(TITLE_OVER_LABELS_JS) == [], mode


def test_many_languages_heat_table_at_laptop_size(open_app, wait_for_app, screenshot, page) -> None:
    """At 1280x720 every tab fits on one row, and the heat table draws every tokenizer's column
    and a row per language, its title clear of the column labels."""
    page.set_viewport_size(LAPTOP)
    page = _open(open_app, wait_for_app, "Many languages")
    tabs = page.get_by_role("tab")
    tops = {round(tabs.nth(i).bounding_box()["y"]) for i in range(tabs.count())}
    assert len(tops) == 1, tops  # one row of tabs
    last = tabs.nth(tabs.count() - 1).bounding_box()
    assert last["x"] + last["width"] <= LAPTOP["width"], last
    _plots_drawn(page, 1)
    heat = page.locator(PLOTS).first
    heat.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshot("languages-laptop-many-languages")
    labels = heat.locator(".ytick text").all_text_contents()
    assert len(labels) == 1 + len(data.NAMES), labels  # UTF-8 bytes + every tokenizer
    assert len(heat.locator(".xtick text").all_text_contents()) == 7  # every language but the base
    assert heat.evaluate(TITLE_OVER_LABELS_JS) == []
    page.locator('[data-testid="stDataFrame"]').first.scroll_into_view_if_needed()
    screenshot("languages-laptop-many-languages-table")
    page.get_by_role("tab", name="English vs Chinese").click()  # the headline: every tokenizer
    wait_for_app(page, page.get_by_text("Every tokenizer at a glance"))
    _plots_drawn(page, 2)
    page.get_by_text("Every tokenizer at a glance").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    screenshot("languages-laptop-headline")


# Every ruler line within its box (no byte cut at the right edge), and no box's label on two
# lines: a partial token's "<E4 BD>" broken after "<E4" reads as two tokens.
RULER_FIT_JS = """() => {
  const out = [];
  for (const r of document.querySelectorAll('.ruler')) {
    if (r.scrollWidth > r.clientWidth) out.push('ruler ' + r.scrollWidth + ' > ' + r.clientWidth);
    for (const c of r.querySelectorAll('.rc')) {
      const text = c.textContent;
      if (!text.trim()) continue;
      const range = document.createRange(); range.selectNodeContents(c);
      const lines = new Set([...range.getClientRects()].map(q => Math.round(q.top)));
      if (lines.size > 1) out.push('wraps: ' + text);
    }
  }
  return out;
}"""


@pytest.mark.parametrize("present", [False, True], ids=["normal", "presentation"])
@pytest.mark.parametrize("size", [LAPTOP, {"width": 1920, "height": 1080}],
                         ids=["1280x720", "1920x1080"])
def test_the_ruler_fits_its_box_and_no_label_wraps(open_app, wait_for_app, page, screenshot,
                                                   size, present) -> None:
    page.set_viewport_size(size)
    page = _open(open_app, wait_for_app)
    if present:
        page.get_by_text("Presentation mode").click()
        wait_for_app(page, page.locator(".ruler.big").first)
    ruler = page.locator(".ruler").first
    ruler.wait_for(state="visible")
    assert page.locator(".ruler .tk.partial").count() > 0  # GPT-2 splits 你 and 👍🏽
    ruler.scroll_into_view_if_needed()
    screenshot(f"languages-ruler-{'presentation' if present else 'normal'}-{size['width']}")
    assert page.evaluate(RULER_FIT_JS) == []
