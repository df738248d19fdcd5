"""The Playground on a classroom laptop (1280x720): what a newcomer sees on the first screen.

Line breaks survive visible whitespace, a token is never cut in two boxes by the wrap, every
whitespace mark is drawn by an installed font, the numbers table and the hover readout fit,
a preset's note leaves with its text, and three panels show their first tokens without scrolling.
"""

from __future__ import annotations

import shutil
import subprocess
from urllib.parse import quote

import pytest

from tests.browser.conftest import LAPTOP
from tokenizer_core.samples import playground_presets

CODE = "def area(r):\n    if r < 0:\n        return 0\n    return 3.14159 * r * r\n"
PROSE = ("Tokenizers cut text into pieces, and a piece that meets the end of a line must stay "
         "one box, whatever the width of the panel. ") * 3
DEFAULT_LABELS = ["GPT-2 (tiktoken)", "o200k_base: GPT-4o (tiktoken)", "Llama 3 (llama-models 0.3.0)"]
TOKENS = ".tokview .tok"


def open_playground(page, app_server, wait_for_app, query: str = "", panels: int = 1):
    page.set_viewport_size(LAPTOP)
    page.goto(f"{app_server.url}/{query}")
    wait_for_app(page, page.locator(".tokview").nth(panels - 1))
    return page


def lines_of(view) -> list[float]:
    """The distinct line tops the tokens of one panel sit on, top to bottom."""
    tops = view.evaluate(
        """v => [...v.querySelectorAll('.tok')].flatMap(e => [...e.getClientRects()])
                 .map(r => Math.round(r.top))"""
    )
    lines: list[float] = []
    for top in sorted(tops):
        if not lines or top - lines[-1] > 4:  # boxes on one line differ by a pixel or two
            lines.append(top)
    return lines


@pytest.mark.parametrize("name", ["gpt2", "o200k_base", "ours:wordpiece"])
def test_visible_whitespace_keeps_the_line_breaks(page, app_server, wait_for_app, screenshot, name):
    page = open_playground(page, app_server, wait_for_app, f"?tok={name}&ws=1&text={quote(CODE)}")
    view = page.locator(".tokview").first
    # One panel is wide enough for every line of the snippet: four text lines, four drawn lines.
    assert len(lines_of(view)) == CODE.count("\n")
    shown = view.locator(".tok, .gap").evaluate_all("els => els.map(e => e.textContent).join('')")
    assert shown.count("↵") == CODE.count("\n")
    rows = view.evaluate(
        """v => { const c = v.cloneNode(true); c.querySelector('.tokinfo')?.remove();
                  return c.textContent; }"""
    ).split("\n")
    assert rows[1].startswith("····if") and rows[2].startswith("········return")  # indentation
    screenshot(f"playground-laptop-ws-{name.replace(':', '-')}")


@pytest.mark.parametrize("ws", ["0", "1"])
def test_no_token_box_is_cut_by_the_wrap(page, app_server, wait_for_app, screenshot, ws):
    text = PROSE + "\n" + CODE
    query = f"?tok=gpt2,o200k_base,ours:bpe&ws={ws}&text={quote(text)}"
    page = open_playground(page, app_server, wait_for_app, query, panels=3)
    boxes = page.locator(TOKENS).evaluate_all(
        "els => els.map(e => [e.getClientRects().length, e.className, e.textContent])"
    )
    cut = [(cls, shown) for count, cls, shown in boxes if count != 1]
    assert not cut, f"token boxes drawn in more than one piece: {cut[:5]}"
    # A token that holds a line break is drawn one box per line, and the pieces say so.
    pieces = page.locator(f"{TOKENS}.cont")
    assert pieces.count() >= 1
    screenshot(f"playground-laptop-wrap-ws{ws}")


def fonts_with(char: str) -> list[str]:
    listed = subprocess.run(["fc-list", f":charset={ord(char):x}", "family"],
                            capture_output=True, text=True, check=True).stdout
    return [line for line in listed.splitlines() if line.strip()]


def test_every_whitespace_mark_has_a_font(page, app_server, wait_for_app, screenshot):
    assert shutil.which("fc-list"), "fontconfig's fc-list is missing (it comes with chromium)"
    text = "a\r\nb\tc d\re\x07"
    page = open_playground(page, app_server, wait_for_app, f"?tok=gpt2&ws=1&text={quote(text)}")
    shown = "".join(page.locator(TOKENS).all_text_contents())
    missing = sorted({ch for ch in shown if not ch.isascii() and not fonts_with(ch)})
    assert not missing, f"no installed font draws {[f'U+{ord(c):04X} {c}' for c in missing]}"
    screenshot("playground-laptop-marks")


def test_the_hover_readout_is_whole(page, app_server, wait_for_app, screenshot):
    text = "Family 👨‍👩‍👧‍👦 and <|endoftext|> 你好"
    query = f"?tok=gpt2,o200k_base,ours:bpe&text={quote(text)}"
    page = open_playground(page, app_server, wait_for_app, query, panels=3)
    page.wait_for_function("() => window.__tokexHoverLink === true")
    # The longest hover text of the third panel: a token of many bytes.
    third = page.locator(".tokview").nth(2)
    longest = max(range(third.locator(".tok").count()),
                  key=lambda i: len(third.locator(".tok").nth(i).get_attribute("title")))
    third.locator(".tok").nth(longest).hover()
    readout = third.locator(".tokinfo")
    assert readout.text_content().startswith("id ")
    clipped = readout.evaluate("e => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1")
    assert not clipped, f"the readout is cut: {readout.text_content()!r}"
    assert readout.evaluate("e => getComputedStyle(e).textOverflow") != "ellipsis"
    screenshot("playground-laptop-readout")


def test_the_numbers_table_fits(page, app_server, wait_for_app, screenshot):
    query = f"?tok=gpt2,o200k_base,ours:bpe&text={quote(PROSE)}"
    page = open_playground(page, app_server, wait_for_app, query, panels=3)
    table = page.locator(".tx-table-box").first  # an HTML table: the Playground stays light
    table.scroll_into_view_if_needed()
    width = table.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert width[0] <= width[1] + 1, f"the numbers table scrolls sideways: {width}"
    assert table.bounding_box()["x"] + table.bounding_box()["width"] <= LAPTOP["width"]
    screenshot("playground-laptop-numbers")


def test_a_presets_note_leaves_with_its_text(page, app_server, wait_for_app):
    page = open_playground(page, app_server, wait_for_app)
    glitch = next(p for p in playground_presets() if p.id == "glitch_token")
    page.get_by_text(glitch.label, exact=True).click()
    note = page.get_by_text(glitch.what_to_notice[:40])
    wait_for_app(page, note)
    box = page.get_by_label("Text", exact=True)
    box.fill("Who is somebody else?")
    box.press("Control+Enter")
    # subtle: "somebody" is in the box at once; wait for a token panel that holds it, i.e. the
    # rerun with the new text has drawn, before asking whether the note is gone
    wait_for_app(page, page.locator(".tokview").filter(has_text="somebody").first)
    assert note.count() == 0


def test_three_panels_and_the_first_tokens_on_the_first_screen(page, app_server, wait_for_app, screenshot):
    page = open_playground(page, app_server, wait_for_app, panels=3)
    assert page.locator(".tokview").count() == 3
    chips = page.locator('[data-testid="stMultiSelectTagsContainer"] [data-tag-index]')
    chips.nth(2).wait_for()
    assert chips.all_inner_texts() == DEFAULT_LABELS
    first = page.locator(TOKENS).first.bounding_box()
    assert first["y"] + first["height"] <= LAPTOP["height"], f"first token at y={first['y']:.0f}"
    screenshot("playground-laptop-first-screen")
