"""The Compression page in a real Chromium at projector size: the curve chart is drawn by plotly
with our lines and the reference markers, the quality table and the token views are there, and
presentation mode enlarges the chart. Screenshots land in screenshots/ (git-ignored)."""

from __future__ import annotations

from tests.browser.conftest import APP_TITLE, AppServer, wait_for_app

FIRST_LOAD_MS = 240_000  # a cold page trains ours and twelve HF models per corpus
CHART = '[data-testid="stPlotlyChart"]'


def open_compression(page, app_server: AppServer) -> None:
    """Open the app and go to Compression by its sidebar link.

    subtle: opening /compression directly makes Streamlit's front end probe
    /compression/_stcore/health first, a 404 the page log would (rightly) report.
    """
    page.goto(app_server.url)
    wait_for_app(page, APP_TITLE)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Compression").click()
    wait_for_app(page, page.locator(f"{CHART} .main-svg").first, timeout_ms=FIRST_LOAD_MS)


def legend_names(page) -> list[str]:
    return page.locator(f"{CHART} .legend .legendtext").all_text_contents()


def test_curves_reference_points_and_tables_are_drawn(
    page, app_server: AppServer, screenshot
) -> None:
    open_compression(page, app_server)
    chart = page.locator(CHART).first
    # Default corpora: English and Chinese; ours, three HF families and three references each.
    traces = chart.locator(".scatterlayer .trace")
    assert traces.count() >= 2 * (1 + 3 + 3)
    names = legend_names(page)
    for expected in ("Ours: byte-level BPE", "HF BPE (byte-level)", "HF WordPiece", "HF Unigram",
                     "hides text in [UNK]"):
        assert expected in names, names
    assert chart.locator(".xtitle").text_content().startswith("Vocabulary size")
    ticks = chart.locator(".xaxislayer-above .xtick text").all_text_contents()
    assert ticks[:4] == ["256", "500", "1k", "2k"] and "128k" in ticks  # a log axis to 200k+
    # The reference markers are named on the chart, once each (at the highest marker).
    labels = [t for t in chart.locator(".scatterlayer .textpoint").all_text_contents() if t]
    assert sorted(labels) == ["GPT-2", "cl100k", "o200k"]
    screenshot("compression-chart")
    page.get_by_text("Quality at 1,000 vocab").first.scroll_into_view_if_needed()
    assert page.locator('[data-testid="stDataFrame"]').count() >= 2
    screenshot("compression-quality")
    tokens = page.locator(".tokview .tok")
    tokens.first.scroll_into_view_if_needed()
    assert tokens.count() >= 13 + 6 + 4  # the classroom rows after 5, 15 and 30 merges
    screenshot("compression-sentences")
    page.get_by_role("tab", name="Byte level").click()
    wait_for_app(page, page.get_by_text("Ours, 4,000 vocab (3,744 merges on English)").first)
    rows = page.get_by_text("o200k_base (GPT-4o), 200,019 vocab")
    rows.first.scroll_into_view_if_needed()
    screenshot("compression-byte-level")


def test_presentation_mode_enlarges_the_chart(page, app_server: AppServer, screenshot) -> None:
    open_compression(page, app_server)
    normal = page.locator(CHART).first.bounding_box()["height"]
    page.get_by_text("Presentation mode").first.click()
    wait_for_app(page)
    page.wait_for_function(
        f"() => document.querySelector('{CHART}').getBoundingClientRect().height > {normal + 50}"
    )
    screenshot("compression-presentation")
