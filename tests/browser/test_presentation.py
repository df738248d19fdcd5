"""Presentation mode on a projector: every page, at 1280x720 and 1920x1080, opened from a link
with ?present=1; nothing overflows sideways, no widget label or tab row is clipped, the
headline numbers get bigger (not smaller), and the P key toggles it (but not while typing).

Presentation mode scales what a canvas or an SVG draws too, not only the HTML: at 1280x720 every
page's plotly titles and axes have larger type than in normal mode, data frames draw larger
type, captions are fully opaque (their container and every ancestor), and no button's label
wraps (a word cut in two, "Che/ck", reads as two words from the back of a room).

Screenshots land in screenshots/presentation-<page>-<width>.png.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from tests.browser.conftest import APP_IDLE, LAPTOP
from tests.browser.test_links import PROBE_404
from ui.common import i18n

REPO = Path(__file__).resolve().parents[2]
PROJECTOR = {"width": 1920, "height": 1080}
# Every page of the router; the default page (the Playground) lives at the root.
PAGES = sorted(p.stem for p in (REPO / "pages").glob("*.py"))
TOGGLE = '[data-testid="stSidebar"] [data-testid="stCheckbox"] input[role="switch"]'

# What does not fit: the page (or Streamlit's scrolling main area) wider than the window; a row
# of tabs or a segmented control that scrolls; a label (widget, button, sidebar link) cut with
# "…"; a byte ruler wider than its column. Scrollers by design (tables, code, a text box's
# value, the sequence grids) and visually hidden inputs (1 px wide) are not counts of clipping.
OVERFLOW_JS = """() => {
  const wide = (e) => e && e.scrollWidth > e.clientWidth + 1;
  const out = [];
  const what = (e) => (e.getAttribute('role') || e.tagName) + ' "' + e.textContent.trim().slice(0, 50) + '"';
  if (wide(document.documentElement)) out.push('page ' + document.documentElement.scrollWidth);
  const main = document.querySelector('[data-testid="stMain"]');
  if (wide(main)) out.push('main ' + main.scrollWidth + ' > ' + main.clientWidth);
  for (const e of document.querySelectorAll('[data-testid="stAppViewContainer"] *')) {
    if (e.offsetParent === null || e.clientWidth <= 2 || !wide(e)) continue;
    const cs = getComputedStyle(e);
    if (cs.overflowX === 'visible' && cs.textOverflow !== 'ellipsis') continue;
    const role = e.getAttribute('role');
    if (role === 'tablist' || role === 'radiogroup') out.push('scrolls: ' + what(e));
    else if (cs.textOverflow === 'ellipsis' && e.tagName !== 'INPUT') out.push('cut: ' + what(e));
    else if (e.closest('[data-testid="stWidgetLabel"]')) out.push('label: ' + what(e));
    else if (e.classList.contains('ruler')) out.push('ruler: ' + e.scrollWidth + ' > ' + e.clientWidth);
  }
  // a picker's chips sit on one row that scrolls sideways: one past the row's edge is cut
  for (const row of document.querySelectorAll('[data-testid="stMultiSelectTagsContainer"]')) {
    if (row.offsetParent === null) continue;
    const edge = row.getBoundingClientRect().right;
    for (const tag of row.querySelectorAll('[data-tag]'))
      if (tag.getBoundingClientRect().right > edge + 1) out.push('chip: ' + tag.textContent);
  }
  return out;
}"""


def url_of(app_server, page: str) -> str:
    path = "" if page == "playground" else page
    return f"{app_server.url}/{path}?present=1"


# The interface's own words on screen: what a person reads that is not token text, code, a text
# box's value or a tokenizer's name (those stay as they are in both languages).
INTERFACE_TEXT_JS = """() => {
  const root = document.querySelector('[data-testid="stAppViewContainer"]').cloneNode(true);
  const kept = 'pre, code, textarea, input, [data-testid="stCode"], [data-testid="stMultiSelect"] span, '
    + '.tokview, .sqgrid, .sqbands, .sqmask, [data-testid="stDataFrame"], .tx-table td, [data-testid="stSelectbox"] [data-baseweb="select"]';
  root.querySelectorAll(kept).forEach(e => e.remove());
  const svg = [...document.querySelectorAll('.main-svg text')].map(t => t.textContent);
  return root.innerText + '\\n' + svg.join('\\n');
}"""


def english_sentences() -> list[str]:
    """The catalog's English sentences that Chinese says otherwise, as they would show: each
    piece between placeholders of three words or more."""
    with i18n.catalog_path("zh").open("rb") as po:
        catalog = read_po(po, locale="zh_CN")
    found = []
    for entry in catalog:
        english = entry.id[0] if isinstance(entry.id, tuple) else entry.id
        chinese = entry.string[0] if isinstance(entry.string, tuple) else entry.string
        if not english or not chinese or chinese == english:
            continue
        for piece in re.split(r"\{[^}]*\}|\*\*|`", english):
            piece = piece.strip(" .,:;()")
            # a piece the Chinese keeps as it is (a licence's required "Built with Meta Llama 3")
            # is not left over
            if len(re.findall(r"[A-Za-z]{2,}", piece)) >= 3 and piece not in chinese:
                found.append(piece)
    return found


def url_in(app_server, page: str, lang: str, *, present: bool) -> str:
    path = "" if page == "playground" else page
    query = "&".join(q for q in ("present=1" if present else "", "lang=zh" if lang == "zh" else "")
                     if q)
    return f"{app_server.url}/{path}" + (f"?{query}" if query else "")


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("name", PAGES)
def test_every_page_fits_in_both_languages_normal_and_presenting(
        page, page_log, app_server, wait_for_app, screenshot, name, lang):
    """Issue 20: every page at 1280x720 and 1920x1080, normal and presentation mode, in English
    and in Chinese: one page load and one toggle, resizing in between (nothing reruns on a
    resize), so both languages cost what one did. Screenshots: screenshots/<lang>-<page>-
    <width>[-presentation].png."""
    page_log.allow_console_error(PROBE_404)  # a page's own URL: streamlit/streamlit#7074
    page.set_viewport_size(LAPTOP)
    page.goto(url_in(app_server, name, lang, present=False))
    wait_for_app(page, page.locator("h1").first, timeout_ms=240_000)  # Compression trains
    page.wait_for_selector(APP_IDLE, timeout=240_000)
    wait_for_app(page)
    for size in (LAPTOP, PROJECTOR):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)  # plotly redraws at the new width
        screenshot(f"{lang}-{name}-{size['width']}")
        # normal mode: nothing wider than the window and no label cut; rows of tabs and segmented
        # controls may scroll there by design (Streamlit's own arrows), and wrap when presenting
        assert [p for p in page.evaluate(OVERFLOW_JS)
                if not p.startswith(("cut: ", "scrolls: "))] == [], size
    page.locator(TOGGLE).click(force=True)  # the switch's input is visually hidden
    page.wait_for_function("() => new URL(location.href).searchParams.get('present') === '1'",
                           timeout=60_000)
    page.wait_for_selector(APP_IDLE, timeout=60_000)
    wait_for_app(page)
    assert page.locator(TOGGLE).is_checked()
    shown = " ".join(page.evaluate(INTERFACE_TEXT_JS).split())
    on_screen = [sentence for sentence in english_sentences() if sentence in shown]
    if lang == "zh":
        assert "lang=zh" in page.url, "the page's own link keeps the language"
        assert not on_screen, f"English left in the Chinese interface: {on_screen}"
    else:  # the same check finds the English sentences in the English interface
        assert on_screen, "the check reads none of the interface's sentences"
    for size in (PROJECTOR, LAPTOP):
        page.set_viewport_size(size)
        page.wait_for_timeout(300)
        screenshot(f"{lang}-{name}-{size['width']}-presentation")
        assert page.evaluate(OVERFLOW_JS) == [], size


@pytest.mark.parametrize("path", ["", "practice"])
def test_headline_numbers_grow_in_presentation_mode(page, page_log, app_server, wait_for_app, path):
    """Counts and scores are metrics: presentation mode must make the digits themselves larger
    (the text inside the metric, which a rule for paragraphs once made smaller)."""
    page_log.allow_console_error(PROBE_404)
    page.set_viewport_size(LAPTOP)
    sizes = []
    for query in ("", "?present=1"):
        page.goto(f"{app_server.url}/{path}{query}")
        value = page.locator('[data-testid="stMetricValue"]').first
        wait_for_app(page, value)
        sizes.append(value.evaluate("""e => {
            const leaf = [...e.querySelectorAll('*')].filter(c => !c.children.length)[0] || e;
            return parseFloat(getComputedStyle(leaf).fontSize); }"""))
    assert sizes[1] >= 1.3 * sizes[0], sizes


def test_the_p_key_toggles_presentation_mode_but_not_while_typing(page, app_server, wait_for_app):
    page.set_viewport_size(LAPTOP)
    page.goto(app_server.url)
    wait_for_app(page, page.locator(".tokview").first)
    toggle = page.locator(TOGGLE)
    assert not toggle.is_checked()
    box = page.get_by_label("Text", exact=True)
    box.click()
    box.press("Control+End")
    box.type(" p")
    page.wait_for_timeout(500)
    assert not toggle.is_checked(), "typing p in a text box is typing"
    assert box.input_value().endswith(" p")
    page.locator("h1").first.click()
    page.keyboard.press("p")
    page.wait_for_function(f"() => document.querySelector('{TOGGLE}').checked")
    wait_for_app(page)
    assert "present=1" in page.url
    page.locator("h1").first.click()
    page.keyboard.press("p")
    page.wait_for_function(f"() => !document.querySelector('{TOGGLE}').checked")


# What each mode draws, in pixels: the first title and tick label of every plotly chart (SVG
# text, in page order) and the titles cut at the figure's edge or under its legend; each data
# frame's font (glide's own theme variable: the canvas draws with it); every caption's opacity
# as seen (its own times every ancestor's); the buttons whose label takes more than one line.
TYPE_JS = """() => {
  const px = (e) => e ? parseFloat(e.style.fontSize || getComputedStyle(e).fontSize) : null;
  const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const plots = [...document.querySelectorAll('[data-testid="stMain"] .js-plotly-plot')]
    .filter(c => c.offsetParent !== null);
  const charts = plots.map(c => ({title: px(c.querySelector('.gtitle')),
                                  tick: px(c.querySelector('.xtick text, .ytick text'))}));
  const cut = [];
  for (const c of plots) {
    const title = c.querySelector('.gtitle'), box = c.querySelector('.main-svg');
    if (!title || !box || !title.textContent) continue;
    const t = title.getBoundingClientRect(), b = box.getBoundingClientRect();
    if (t.right > b.right + 1 || t.left < b.left - 1) cut.push('cut: ' + title.textContent);
    const legend = c.querySelector('.legend');
    if (legend && meets(t, legend.getBoundingClientRect())) cut.push('under the legend: ' + title.textContent);
  }
  const frames = [...document.querySelectorAll('[data-testid="stMain"] [data-testid="stDataFrame"]')]
    .filter(f => f.offsetParent !== null)
    .map(f => { const v = [...f.querySelectorAll('*')].map(e => e.style.getPropertyValue('--gdg-base-font-style')).find(Boolean) || '';
                const m = v.match(/([0-9.]+)px/); return m ? parseFloat(m[1]) : null; });
  const tables = [...document.querySelectorAll('[data-testid="stMain"] .tx-table')]
    .filter(t => t.offsetParent !== null)
    .map(t => parseFloat(getComputedStyle(t.querySelector('td') || t).fontSize));
  const faded = [];
  for (const c of document.querySelectorAll('[data-testid="stCaptionContainer"]')) {
    if (c.offsetParent === null) continue;
    let seen = 1;
    for (let e = c; e; e = e.parentElement) seen *= parseFloat(getComputedStyle(e).opacity);
    if (seen < 0.999) faded.push(seen.toFixed(2) + ' "' + c.textContent.trim().slice(0, 40) + '"');
  }
  const wrapped = [];
  for (const b of document.querySelectorAll('[data-testid="stAppViewContainer"] button')) {
    const label = b.querySelector('[data-testid="stMarkdownContainer"] p');
    if (!label || b.offsetParent === null || !label.textContent.trim()) continue;
    const cs = getComputedStyle(label);
    const line = parseFloat(cs.lineHeight) || 1.6 * parseFloat(cs.fontSize);
    if (label.getBoundingClientRect().height > 1.5 * line) wrapped.push('"' + label.textContent.trim() + '"');
  }
  return {charts, cut, frames, tables, faded, wrapped};
}"""
# The tab whose charts a page opens on, when its first tab has none.
CHART_TAB = {"languages": "lg_tab=English+vs+Chinese"}
# Pages whose every figure goes through ui.common.charts.show_chart (which scales plotly's
# type in presentation mode). The others still draw their own sizes: add each page here once
# its st.plotly_chart calls go through show_chart.
CHARTS_SCALED = {"languages"}


def _type_of(page, app_server, wait_for_app, name: str, present: bool, tab: str = "") -> dict:
    path = "" if name == "playground" else name
    tab = tab or CHART_TAB.get(name, "")
    query = "&".join(q for q in (tab, "present=1" if present else "") if q)
    page.goto(f"{app_server.url}/{path}" + (f"?{query}" if query else ""))
    wait_for_app(page, page.locator("h1").first, timeout_ms=240_000)  # Compression trains
    page.wait_for_selector(APP_IDLE, timeout=240_000)
    page.wait_for_timeout(1_500)  # plotly draws its SVG a moment after the run ends
    if present:
        assert page.locator(TOGGLE).is_checked(), "?present=1 opens in presentation mode"
        assert "present=1" in page.url, "and the page's own link keeps it"
    return page.evaluate(TYPE_JS)


@pytest.mark.parametrize("name", PAGES)
def test_charts_captions_and_buttons_scale_with_the_mode(page, page_log, app_server,
                                                         wait_for_app, name):
    page_log.allow_console_error(PROBE_404)
    page.set_viewport_size(LAPTOP)
    normal = _type_of(page, app_server, wait_for_app, name, present=False)
    shown = _type_of(page, app_server, wait_for_app, name, present=True)
    assert shown["faded"] == [], "captions keep their container's 60% opacity"
    assert shown["frames"] == [], "a canvas data frame keeps 14 px type on the projector"
    assert all(t >= 17 for t in shown["tables"]), shown["tables"]  # .875rem of the mode's 20 px
    assert shown["wrapped"] == [], "button labels break onto a second line"
    if name not in CHARTS_SCALED:
        return
    assert len(shown["charts"]) == len(normal["charts"]) > 0, (normal, shown)
    for before, after in zip(normal["charts"], shown["charts"]):
        for part in ("title", "tick"):
            if before[part] is not None:
                assert after[part] > before[part], (part, normal["charts"], shown["charts"])
    assert shown["cut"] == [] and normal["cut"] == [], (normal["cut"], shown["cut"])


def test_tables_draw_larger_type_in_presentation_mode(page, page_log, app_server, wait_for_app):
    """st.dataframe draws on a canvas whose font its theme computes once, at mount (the glide
    theme's convertRemToPx), so presentation mode draws every table as an HTML table instead
    (ui.common.table_view), whose type grows with the mode's."""
    page_log.allow_console_error(PROBE_404)
    page.set_viewport_size(LAPTOP)
    ruler = "lg_tab=Byte+ruler"  # its summary is a data frame outside presentation mode
    normal = _type_of(page, app_server, wait_for_app, "languages", present=False, tab=ruler)
    shown = _type_of(page, app_server, wait_for_app, "languages", present=True, tab=ruler)
    assert len(normal["frames"]) > 0 and normal["tables"] == [], normal
    assert shown["frames"] == [], "no canvas data frame is left in presentation mode"
    assert len(shown["tables"]) == len(normal["frames"]), (normal, shown)
    assert all(t > max(normal["frames"]) for t in shown["tables"]), (normal, shown)