"""Smoke: the app opens in a real Chromium, shows its title, loads nothing from the web, and the
machine's fonts draw Chinese and emoji. Plus one non-browser check that CI runs the README's
test command."""

import os
import re

from tests.browser.conftest import APP_TITLE, REPO, AppServer, PageLog


def test_app_opens_with_title_and_stays_local(
    open_app, app_server: AppServer, page_log: PageLog, screenshot
) -> None:
    page = open_app()
    assert page.get_by_text(APP_TITLE).first.is_visible()
    path = screenshot("smoke-home")
    assert path.stat().st_size > 0
    # Recorded, not asserted: the design's budget (< 5 s) is a benchmark, machines are shared.
    print(f"cold start {app_server.cold_start_s:.2f} s, server ready {app_server.started_s:.2f} s")
    assert page_log.offsite_requests == []
    assert page_log.page_errors == []


def test_the_guard_sees_offsite_requests_and_the_browser_refuses_them(open_app, page_log) -> None:
    """What every browser test relies on: an image, a fetch to an IP literal and a websocket
    beyond this machine are logged (so the test fails) and never answered."""
    page = open_app()
    outcome = page.evaluate(
        """async () => {
            const image = new Image();
            const loaded = new Promise(done => { image.onload = () => done('loaded');
                                                 image.onerror = () => done('refused'); });
            image.src = 'http://example.org/pixel.png';
            const fetched = fetch('http://203.0.113.7/data.json')
                .then(() => 'answered', () => 'refused');
            const socket = new WebSocket('ws://example.net/stream');
            const opened = new Promise(done => { socket.onopen = () => done('opened');
                                                 socket.onerror = () => done('refused'); });
            return [await loaded, await fetched, await opened];
        }"""
    )
    assert outcome == ["refused", "refused", "refused"]
    assert set(page_log.offsite_requests) == {
        "http://example.org/pixel.png", "http://203.0.113.7/data.json", "ws://example.net/stream"}
    page_log.offsite_requests.clear()  # seen: this test made them on purpose
    page_log.console_errors.clear()  # and Chromium's "failed to load" lines for them


def test_cjk_and_emoji_render_with_real_fonts(open_app, screenshot) -> None:
    """Chromium reports which platform fonts drew a node: CJK and emoji must not fall to tofu."""
    page = open_app()
    # textContent, never innerHTML, even in a test.
    page.evaluate(
        """() => {
            const main = document.querySelector('[data-testid="stMain"]') || document.body;
            const samples = [["tokex-cjk", "分词器把文本切成词元"], ["tokex-emoji", "🙂🚀👩‍💻"]];
            for (const [id, text] of samples) {
                const p = document.createElement("p");
                p.id = id; p.textContent = text; p.style.fontSize = "48px";
                main.prepend(p);
            }
        }"""
    )
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]

    def fonts(selector: str) -> list[str]:
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        used = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        return [font["familyName"] for font in used]

    cjk, emoji = fonts("#tokex-cjk"), fonts("#tokex-emoji")
    screenshot("smoke-fonts")
    assert any("CJK" in name for name in cjk), f"CJK drawn with {cjk}: install fonts-noto-cjk"
    assert any("Emoji" in name for name in emoji), (
        f"emoji drawn with {emoji}: install fonts-noto-color-emoji"
    )


def test_ci_runs_the_readme_test_command() -> None:
    """.ci/run must run exactly what README's "Run the tests" block tells a person to run."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    block = re.search(r"^## Run the tests.*?^```sh\n(.*?)^```", readme, re.S | re.M)
    assert block, 'README.md has no "## Run the tests" section with a ```sh block'
    command = block.group(1).strip()
    ci = REPO / ".ci" / "run"
    assert command in [line.strip() for line in ci.read_text(encoding="utf-8").splitlines()], (
        f".ci/run does not run README's test command verbatim:\n{command}"
    )
    assert os.access(ci, os.X_OK), ".ci/run is not executable: chmod +x .ci/run"


def test_a_page_link_opened_first_on_a_fresh_server_gets_the_whole_app(browser, tmp_path) -> None:
    """With a pages/ folder Streamlit starts in its old multipage mode; a page opened by its own
    URL before anyone opened / must still get app.py's page config, sidebar and navigation."""
    from tests.browser.conftest import (
        PageLog,
        _start_streamlit,
        _stop,
        new_guarded_page,
        wait_for_app,
    )

    process, url, _ = _start_streamlit(tmp_path)
    log = PageLog()
    # Opening a page path first makes Streamlit's front end probe <path>/_stcore/...: a 404.
    log.allow_console_error(r"404")
    try:
        context, page = new_guarded_page(browser, log)
        page.goto(f"{url}/languages")
        wait_for_app(page, page.get_by_text("Presentation mode"))
        links = page.locator('[data-testid="stSidebarNavLink"]').all_inner_texts()
        assert any("Playground" in link for link in links) and any("Languages" in link for link in links)
        assert page.get_by_role("heading", name="Languages").first.is_visible()
        assert log.problems() == []  # nothing left this machine, no script failed
        context.close()
    finally:
        _stop(process)
