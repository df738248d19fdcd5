"""The Playground in a real browser: what a person sees and does.

Paste text, compare tokenizers (counts equal tiktoken's), hover to link panels, and paste
injection payloads that must stay inert text.
"""

from __future__ import annotations

from tests.shared import PAYLOADS_TEXT as PAYLOADS
from tests.shared import tiktoken_encoding
from ui.common.safe_text import WORD_JOINER


def counts(page) -> list[str]:
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def type_text(page, wait_for_app, text: str, expect) -> None:
    box = page.get_by_label("Text", exact=True)
    box.fill(text)
    box.press("Control+Enter")  # Streamlit applies a text area on Ctrl+Enter (or on blur)
    wait_for_app(page, expect)


def test_paste_text_and_compare_three_tokenizers(open_app, wait_for_app, screenshot):
    page = open_app("?tok=gpt2,cl100k_base,o200k_base", expect="Playground")
    text = "Tokenization is 100% about bytes: 你好, 🙂, and 1234567890."
    expected = [len(tiktoken_encoding(n).encode_ordinary(text)) for n in ("gpt2", "cl100k_base", "o200k_base")]
    type_text(page, wait_for_app, text, page.get_by_text(text[:14]).first)
    page.wait_for_function(
        "n => [...document.querySelectorAll('[data-testid=\"stMetricValue\"]')]"
        ".map(e => e.innerText).join(',') === n",
        arg=",".join(map(str, expected)),
    )
    assert counts(page) == [str(n) for n in expected]
    assert page.locator(".tokview").count() == 3
    screenshot("playground-compare")


def test_pick_a_tokenizer_from_the_list(open_app, wait_for_app):
    page = open_app(expect="Playground")
    page.locator(".tokview").nth(2).wait_for()  # GPT-2, o200k_base and ours by default
    page.get_by_role("combobox", name="Tokenizers").click()  # the multiselect opens its list
    page.get_by_role("option", name="cl100k_base: GPT-4 (tiktoken)").click()
    page.keyboard.press("Escape")
    wait_for_app(page, page.locator(".tokview").nth(3))
    assert page.locator(".tokview").count() == 4


def test_hover_links_the_same_characters_in_other_panels(open_app, wait_for_app):
    page = open_app("?tok=gpt2,cl100k_base&text=indentation%20matters%2012345678", expect="Playground")
    # subtle: the hover script is a component that mounts after the panels; wait for it first
    page.wait_for_function("() => window.__tokexHoverLink === true")
    first = page.locator(".tokview").first.locator(".tok").last  # GPT-2's last digits token
    first.hover()
    linked = page.locator(".tokview").nth(1).locator(".tok.linked")
    linked.first.wait_for()
    assert linked.count() >= 1
    readout = page.locator(".tokview").first.locator(".tokinfo").text_content()
    assert readout.startswith("id ") and "bytes" in readout


def test_injection_payloads_stay_text(open_app, wait_for_app, page_log, screenshot):
    page = open_app("?tok=gpt2,core:gpt2", expect="Playground")
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page_log.allow_console_error(r".*")  # broken <img src=x> would 404 quietly; no script may run
    type_text(page, wait_for_app, PAYLOADS, page.locator(".tokview").first)
    page.locator(".tokview .tok").first.wait_for()
    for view in page.locator(".tokview").all():
        view.hover()
    injected = page.locator(
        ".tokview script, .tokview img, .tokview svg, .tokview iframe, .tokview a, "
        ".tokview [onerror], .tokview [onload], .tokview [onmouseover], .tokview style"
    )
    assert injected.count() == 0
    assert dialogs == []
    assert page.evaluate("() => window.__tokex_pwned === undefined")
    assert "<script>" in page.locator(".tokview").first.inner_text()
    screenshot("playground-injection")


def test_narrow_screen_stacks_panels(page, app_server, wait_for_app, screenshot):
    page.set_viewport_size({"width": 600, "height": 1200})
    page.goto(f"{app_server.url}/?tok=gpt2,cl100k_base")
    wait_for_app(page, page.locator(".tokview").nth(1))
    # subtle: the panels are drawn a moment after the script settles; let the layout settle too
    # (it raced once in CI), then measure: the second panel must sit under the first.
    page.wait_for_function(
        """() => { const v = document.querySelectorAll('.tokview');
                   if (v.length < 2) return false;
                   const a = v[0].getBoundingClientRect(), b = v[1].getBoundingClientRect();
                   return a.height > 0 && b.height > 0 && b.top >= a.bottom - 1; }""",
        timeout=15_000,
    )
    first, second = (page.locator(".tokview").nth(i).bounding_box() for i in range(2))
    assert second["y"] > first["y"] + first["height"] - 1  # one under the other, not side by side
    screenshot("playground-narrow")


def test_presentation_mode_makes_type_bigger(open_app, wait_for_app, screenshot):
    page = open_app("?tok=gpt2", expect="Playground")
    before = page.locator(".tokview .tok").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    page.get_by_text("Presentation mode").click()
    wait_for_app(page, page.locator(".tokview.big"))
    after = page.locator(".tokview .tok").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert after > before * 1.3
    screenshot("playground-presentation")


def test_a_hostile_file_name_stays_text(open_app, wait_for_app, page_log):
    """A file name is user text too: Markdown in it must not become an image or a link."""
    page = open_app(expect="Playground")
    wait_for_app(page, page.locator(".tokview").first)  # the first run done: nothing redraws the box
    page.get_by_text("Upload a .txt file").click()
    hostile = "![x](http://198.51.100.7/x.png)[click](javascript:alert(1)).txt"
    page.locator('[data-testid="stMain"] [data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
        files=[{"name": hostile, "mimeType": "text/plain", "buffer": b"\xff\xfe not utf-8"}]
    )
    error = page.locator('[data-testid="stAlertContentError"]').first
    wait_for_app(page, error)
    shown = error.inner_text().replace(WORD_JOINER, "")  # the invisible joiners that stop autolinks
    assert "![x](http://198.51.100.7/x.png)" in shown
    assert error.locator("img, a").count() == 0
    assert page_log.offsite_requests == []


def test_the_default_view_the_readme_shows(open_app, wait_for_app, screenshot):
    """Three panels side by side on opening; a hover fills the readout and outlines the same
    characters in the other two. The screenshot is README's docs/playground.png (copied by hand)."""
    page = open_app(expect="Playground")
    views = page.locator(".tokview")
    views.nth(2).wait_for()
    # subtle: panels are drawn a moment after the script settles, one by one (it raced in CI as
    # in the narrow test): wait for three panels with a height whose tops agree, then measure
    page.wait_for_function(
        """() => { const v = [...document.querySelectorAll('.tokview')];
                   if (v.length !== 3) return false;
                   const r = v.map(e => e.getBoundingClientRect());
                   const tops = r.map(b => b.top);
                   return r.every(b => b.height > 0) && Math.max(...tops) - Math.min(...tops) < 2; }""",
        timeout=15_000,
    )
    tops = [views.nth(i).bounding_box()["y"] for i in range(3)]
    assert views.count() == 3 and max(tops) - min(tops) < 2  # one row, side by side
    page.wait_for_function("() => window.__tokexHoverLink === true")
    views.first.get_by_text("bigger", exact=False).first.hover()
    assert views.first.locator(".tokinfo").text_content().startswith("id ")
    for other in (views.nth(1), views.nth(2)):
        other.locator(".tok.linked").first.wait_for()
    screenshot("readme-playground")


def test_a_link_reopens_the_disagreement_marks_and_their_pair(open_app, wait_for_app, screenshot):
    """Issue 23, item 3: the marks and the A/B pair ride in the link; both panels are marked
    where the other cuts differently (o200k's too, where GPT-2 cuts inside its tokens)."""
    from urllib.parse import quote

    text = "周末的早晨，我带着女儿去公园散步。Tokens: 1234567 and  spaces."
    from tests.browser.conftest import LAPTOP

    page = open_app(f"?text={quote(text)}&tok=gpt2,o200k_base&diff=1&diff_a=o200k_base"
                    "&diff_b=gpt2", expect="Playground")
    page.set_viewport_size(LAPTOP)
    wait_for_app(page, page.locator(".tokview .diff").first)
    panels = page.locator(".tokview")
    marked = [panels.nth(i).locator(".tok.diff").count() for i in range(2)]
    assert all(n > 0 for n in marked), marked
    assert "diff_a=o200k_base" in page.url and "diff_b=gpt2" in page.url and "diff=1" in page.url
    page.locator(".tokview").first.scroll_into_view_if_needed()
    screenshot("playground-marks")
    page.get_by_text("Presentation mode").click()
    wait_for_app(page, page.locator(".tokview.big .diff").first)
    assert "present=1" in page.url and "diff_a=o200k_base" in page.url
    page.locator(".tokview.big").nth(1).scroll_into_view_if_needed()
    screenshot("playground-marks-presentation")
