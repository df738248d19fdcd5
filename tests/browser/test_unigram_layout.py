"""The Unigram page as drawn, measured in Chromium: the shrink chart's axis titles clear the
bar chart's labels and it opens on a round whose removals cost something; the round table and
the n-best table show every column and row at 1280 px; no two labels of the lattice overlap,
at 1280x720 and 1920x1080, normal and in presentation mode. Screenshots in screenshots/."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.browser.conftest import LAPTOP
from tests.browser.test_links import PROBE_404
from ui.unigram.source import TABS

PROJECTOR = {"width": 1920, "height": 1080}

# every text of a plotly figure that belongs to an axis: its title, and its tick labels
AXIS_TEXTS = """e => {
  const box = (t) => { const r = t.getBoundingClientRect();
    return {text: t.textContent, x0: r.left, x1: r.right, y0: r.top, y1: r.bottom}; };
  const titles = [...e.querySelectorAll('text')].filter(t =>
    /^[xy]\\d*title$/.test(t.getAttribute('class') || '')).map(box);
  const ticks = [...e.querySelectorAll('g[class$="tick"] text')].filter(t =>
    t.textContent.trim()).map(box);
  return {titles, ticks};
}"""
# the labels of the lattice's arcs: the text points of the traces named "...: labels"
LABELS = """e => {
  const out = [];
  e.querySelectorAll('.scatterlayer .trace').forEach((g, i) => {
    if (!(e._fullData[i].name || '').endsWith(': labels')) return;
    g.querySelectorAll('.textpoint text').forEach(t => { const r = t.getBoundingClientRect();
      if (r.width) out.push({text: t.textContent, x0: r.left, x1: r.right, y0: r.top,
                             y1: r.bottom}); });
  });
  return out;
}"""
SCROLLER = """e => { const s = e.querySelector('.dvn-scroller');
  return [s.scrollWidth, s.clientWidth, s.scrollHeight, s.clientHeight]; }"""


def _meet(a: dict, b: dict) -> bool:
    return a["x0"] < b["x1"] and b["x0"] < a["x1"] and a["y0"] < b["y1"] and b["y0"] < a["y1"]


def _overlaps(boxes: list[dict], others: list[dict] | None = None) -> list[tuple[str, str]]:
    if others is None:
        return [(a["text"], b["text"]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
                if _meet(a, b)]
    return [(a["text"], b["text"]) for a in boxes for b in others if _meet(a, b)]


def _open(open_app, wait_for_app, page_log, size, tab: str, **query: str):
    page_log.allow_console_error(PROBE_404)  # a page's own link probes /<page>/_stcore first
    page = open_app("unigram?" + urlencode({"ug_tab": tab, **query}))
    page.set_viewport_size(size)
    wait_for_app(page, page.get_by_role("heading", name="Unigram & SentencePiece"))
    wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text=tab[2:]))
    plot = page.locator(".js-plotly-plot").first
    plot.wait_for(state="visible", timeout=60_000)
    page.wait_for_timeout(300)  # plotly lays its texts out after the first paint
    return page, plot


@pytest.mark.parametrize("present", ["0", "1"], ids=["normal", "present"])
def test_shrink_chart_axis_titles_clear_every_label_and_it_opens_on_a_costed_round(
        open_app, wait_for_app, page_log, screenshot, present):
    page, plot = _open(open_app, wait_for_app, page_log, LAPTOP, TABS[0], present=present)
    texts = plot.evaluate(AXIS_TEXTS)
    assert texts["titles"] and texts["ticks"]
    assert not _overlaps(texts["titles"], texts["ticks"]), _overlaps(texts["titles"],
                                                                      texts["ticks"])
    assert not _overlaps(texts["titles"])
    # the opening round's bars: removals that cost something, not twenty bars of 0.00
    bars = plot.evaluate("e => e.data.find(t => t.type === 'bar').x")
    assert bars and max(bars) > 0
    plot.evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot(f"unigram-shrink-opening-{'present' if present == '1' else 'normal'}")


def test_the_round_table_shows_every_column_and_row_at_1280(open_app, wait_for_app, page_log,
                                                            screenshot):
    page, _ = _open(open_app, wait_for_app, page_log, LAPTOP, TABS[0])
    table = page.locator('[data-testid="stDataFrame"]').first
    table.scroll_into_view_if_needed()
    table.locator(".dvn-scroller").wait_for(timeout=30_000)
    width, client_width, height, client_height = table.evaluate(SCROLLER)
    assert width <= client_width + 1, "the round table scrolls sideways: a column is cut"
    assert height <= client_height + 1, "the round table hides rounds under a scroll bar"
    screenshot("unigram-round-table")


def test_the_n_best_table_shows_every_column_and_row_at_1280(open_app, wait_for_app, page_log,
                                                             screenshot):
    page, _ = _open(open_app, wait_for_app, page_log, LAPTOP, TABS[1], ug_text="unbelievable")
    tables = page.locator('[data-testid="stDataFrame"]')
    tables.first.wait_for(timeout=30_000)
    for k in range(tables.count()):
        table = tables.nth(k)
        table.scroll_into_view_if_needed()
        table.locator(".dvn-scroller").wait_for(timeout=30_000)
        width, client_width, height, client_height = table.evaluate(SCROLLER)
        assert width <= client_width + 1, f"table {k} scrolls sideways: a column is cut"
        if k == 0:  # the n-best list: every segmentation shown
            assert height <= client_height + 1, "the n-best table hides a row"
    tables.first.evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot("unigram-nbest-table")


@pytest.mark.parametrize(("size", "present"), [(LAPTOP, "0"), (PROJECTOR, "0"), (LAPTOP, "1")],
                         ids=["1280", "1920", "1280-present"])
@pytest.mark.parametrize("word", ["unbelievable", "very", "hello world", "tokenization"])
def test_no_two_lattice_labels_overlap(open_app, wait_for_app, page_log, screenshot, size,
                                       present, word):
    page, plot = _open(open_app, wait_for_app, page_log, size, TABS[1], ug_text=word,
                       present=present)
    labels = plot.evaluate(LABELS)
    drawn = plot.evaluate("e => e.data.filter(t => (t.name || '').endsWith(': labels'))"
                          ".reduce((n, t) => n + t.x.length, 0)")
    assert labels and len(labels) == drawn  # every arc labelled, every label measured
    assert not _overlaps(labels), _overlaps(labels)
    plot.evaluate("e => e.scrollIntoView({block: 'center'})")
    screenshot(f"unigram-lattice-{word.replace(' ', '-')}-{size['width']}"
               + ("-present" if present == "1" else ""))
