"""The Unigram & SentencePiece page in a real Chromium at 1280x720: the shrinking-vocabulary
chart plays its rounds in the browser, the lattice's slider fills the dp row without a rerun,
and the four-way comparison shows the lesson's examples; screenshots land in screenshots/."""

from __future__ import annotations

from urllib.parse import urlencode

from tests.browser.conftest import LAPTOP
from tests.browser.test_links import PROBE_404
from ui.unigram.source import TABS

SMALL = {"ug_corpus": "english", "ug_vocab": "300"}
ACTIVE_STEP = "e => e._fullLayout.sliders[0].active"
# the white cover over the dp cells not filled yet (the last trace): its left edge, or null
COVER = "e => { const t = e.data[e.data.length - 1]; return t.x.length ? t.x[0] : null; }"
CHOSEN = "e => e.data.find(t => (t.name || '').startsWith('chosen')).x.length"


def _open(open_app, wait_for_app, page_log, tab: str, **query: str):
    page_log.allow_console_error(PROBE_404)  # a page's own link probes /<page>/_stcore first
    page = open_app("unigram?" + urlencode({**SMALL, "ug_tab": tab, **query}))
    page.set_viewport_size(LAPTOP)
    wait_for_app(page, page.get_by_role("heading", name="Unigram & SentencePiece"))
    wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text=tab[2:]))
    plot = page.locator(".js-plotly-plot").first
    if tab != TABS[2]:
        plot.wait_for(state="visible", timeout=30_000)
    return page, plot


def test_shrink_chart_plays_its_rounds_in_the_browser(open_app, wait_for_app, page_log, screenshot):
    page, plot = _open(open_app, wait_for_app, page_log, TABS[0])
    # opens on round 3: rounds 0-2 of this training prune only pieces Viterbi never used
    assert plot.evaluate(ACTIVE_STEP) == 3
    rounds = plot.evaluate("e => e._fullLayout.sliders[0].steps.length")
    assert rounds > 2
    plot.locator(".updatemenu-button").first.click()  # ▶ Play
    page.wait_for_function(
        "([e, n]) => e._fullLayout.sliders[0].active === n - 1",
        arg=[plot.element_handle(), rounds], timeout=30_000)
    bars = plot.evaluate("e => e.data[3].y.length")
    assert bars == 0  # the last round only re-estimates: nothing pruned
    plot.evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot("unigram-shrink")
    rail = plot.locator(".slider-rail-rect").first.bounding_box()  # back to round 1: a click
    page.mouse.click(rail["x"] + rail["width"] / (rounds - 1), rail["y"] + rail["height"] / 2)
    page.wait_for_function("e => e._fullLayout.sliders[0].active === 1",
                           arg=plot.element_handle())
    assert plot.evaluate("e => e.data[3].y.length") == 0  # round 1 cost nothing: no bars,
    # but words saying why. subtle: plotly sets the slider's `active` before the step's layout
    # (its annotations) is applied, so CI once read round 5's words here: wait for round 1's.
    page.wait_for_function(
        "e => e.layout.annotations.map(a => a.text).join(' ').includes('never')",
        arg=plot.element_handle(), timeout=10_000)
    screenshot("unigram-shrink-round1")


def test_lattice_slider_fills_the_dp_row_without_a_rerun(open_app, wait_for_app, page_log, screenshot):
    page, plot = _open(open_app, wait_for_app, page_log, TABS[1], ug_text="unbelievable")
    n = len("\u2581unbelievable")
    assert plot.evaluate(ACTIVE_STEP) == n and plot.evaluate(COVER) is None  # all of dp shown
    assert page.get_by_text("Viterbi path:").count() == 1
    runs = page.evaluate("() => performance.getEntriesByType('resource').length")
    plot.evaluate("e => e.scrollIntoView({block: 'start'})")  # the mouse reaches what is shown
    rail = plot.locator(".slider-rail-rect").first.bounding_box()
    grip = plot.locator(".slider-grip-rect").first.bounding_box()
    middle = rail["y"] + rail["height"] / 2
    page.mouse.move(grip["x"] + grip["width"] / 2, grip["y"] + grip["height"] / 2)
    page.mouse.down()  # drag the slider's grip to the rail's left end: step 0
    page.mouse.move(rail["x"] + 2, middle, steps=8)
    page.mouse.up()
    page.wait_for_function(f"e => ({ACTIVE_STEP})(e) === 0", arg=plot.element_handle())
    assert plot.evaluate(COVER) == 0.45  # only dp[0] is filled at step 0
    assert plot.evaluate(CHOSEN) == 0
    page.mouse.click(rail["x"] + rail["width"] * 0.5, middle)
    page.wait_for_function(f"e => ({ACTIVE_STEP})(e) > 0", arg=plot.element_handle())
    step = plot.evaluate(ACTIVE_STEP)
    assert plot.evaluate(COVER) == step + 0.45 and plot.evaluate(CHOSEN) > 0
    # no request went to the server for the steps (a rerun would go over the websocket, but
    # the script state says it: still idle, never ran)
    assert page.locator('[data-test-script-state="notRunning"]').count() == 1
    assert page.evaluate("() => performance.getEntriesByType('resource').length") == runs
    screenshot("unigram-lattice")


def test_four_way_comparison_shows_the_lessons_examples(open_app, wait_for_app, page_log, screenshot):
    page, _ = _open(open_app, wait_for_app, page_log, TABS[2])
    heading = page.get_by_role("heading", name="The lesson's comparison table, probed")
    heading.wait_for(state="visible", timeout=60_000)
    assert page.get_by_text("un ##believ ##able").count() == 1
    tables = page.locator("table.ugcmp")
    assert tables.count() == 2
    cuts = tables.nth(0)
    heads = cuts.locator("th").all_inner_texts()
    column = heads.index("SentencePiece Unigram")
    first = cuts.locator("tbody tr").first.locator("td").nth(column)
    assert first.locator(".ugp").first.inner_text().startswith("\u2581")  # ▁, as the lesson shows
    assert first.locator(".ok").inner_text() == "✔"  # decode(encode(x)) == x
    # the chips are styled: a piece is a box with its own background
    assert first.locator(".ugp").first.evaluate(
        "e => getComputedStyle(e).backgroundColor") == "rgb(232, 238, 251)"
    page.get_by_role("heading", name="How each cuts the same text").evaluate(
        "e => e.scrollIntoView({block: 'start'})")
    screenshot("unigram-four-way")
    heading.evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot("unigram-four-way-table")
