"""The Merge steps page in a real browser: the player plays in the page, steps by click and key,
reports where it stopped, and keeps user text inert. Screenshots go to screenshots/merge-steps-*.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.shared import PAYLOADS_TEXT as PAYLOADS
from tokenizer_core import corpus_from_text

STEP = ".ms-player .stepno"


def open_merge_steps(open_app, wait_for_app):
    page = open_app()
    page.get_by_role("link", name="Merge steps").click()
    wait_for_app(page, page.locator(".ms-player"))
    return page


def step_text(page) -> str:
    return page.locator(STEP).inner_text()


def wait_for_step_report(page, wait_for_app, step: int) -> None:
    """The player told Python where it stopped: the rerun puts the step in the link."""
    page.wait_for_url(re.compile(rf"ms_step={step}(&|$)"), timeout=15_000)
    wait_for_app(page)


def test_play_advances_the_steps_without_the_server(open_app, wait_for_app, screenshot):
    page = open_merge_steps(open_app, wait_for_app)
    assert step_text(page) == "Step 0 / 10"
    assert "Before any merge: 4 distinct words" in page.locator(".ms-player .headline").inner_text()
    screenshot("merge-steps-start")
    page.get_by_role("button", name="Play at 4× speed").click()
    page.get_by_role("button", name="Play / pause (space)").click()
    expect(page.locator(STEP)).not_to_have_text("Step 0 / 10", timeout=10_000)  # no rerun needed
    assert page.locator(".ms-player").get_attribute("data-playing") == "1"
    page.wait_for_timeout(800)
    screenshot("merge-steps-playing")
    page.get_by_role("button", name="Play / pause (space)").click()
    stopped = int(page.locator(".ms-player").get_attribute("data-step"))
    assert stopped >= 1
    wait_for_step_report(page, wait_for_app, stopped)
    assert page.locator(".ms-player").get_attribute("data-step") == str(stopped)  # no jump back


def test_next_previous_and_keys_step_one_merge_at_a_time(open_app, wait_for_app, screenshot):
    page = open_merge_steps(open_app, wait_for_app)
    page.get_by_role("button", name="Next step (→)").click()
    assert step_text(page) == "Step 1 / 10"
    headline = page.locator(".ms-player .headline").inner_text()
    assert headline == "Merge 1: ('e','s') appears in newest (6) and widest (3): 9 times"
    assert page.locator(".ms-player .chip.new").count() == 3  # newest and widest, and the story
    assert "★ won" in page.locator(".ms-player .bars").inner_text()
    wait_for_step_report(page, wait_for_app, 1)
    page.locator(".ms-player").focus()
    page.keyboard.press("ArrowRight")
    assert step_text(page) == "Step 2 / 10"
    assert "Tie: 2 pairs have 9" in page.locator(".ms-player .why").inner_text()
    screenshot("merge-steps-tie")
    page.keyboard.press("End")
    assert step_text(page) == "Step 10 / 10"
    page.get_by_role("button", name="Previous step (←)").click()
    assert step_text(page) == "Step 9 / 10"
    page.keyboard.press("Home")
    assert step_text(page) == "Step 0 / 10"


def test_own_corpus_with_injection_payloads_stays_text(open_app, wait_for_app, page_log, screenshot):
    page = open_merge_steps(open_app, wait_for_app)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page_log.allow_console_error(r".*")  # a broken <img src=x> would 404 quietly; no script may run
    page.get_by_label("Corpus", exact=True).click()
    page.get_by_role("option", name="Your own text or upload").click()
    box = page.get_by_label("Your corpus", exact=True)
    wait_for_app(page, box)
    box.fill(PAYLOADS)
    box.press("Control+Enter")
    distinct = len(corpus_from_text(PAYLOADS, "word"))  # the page trains your text at word level
    wait_for_app(page, page.locator(".ms-player .headline",
                                    has_text=f"Before any merge: {distinct} distinct"))
    for _ in range(3):
        page.get_by_role("button", name="Next step (→)").click()
    page.get_by_text("Lesson script: every step in words").click()
    injected = page.locator(
        ".ms-player script, .ms-player img, .ms-player iframe, .ms-player a, .ms-player style, "
        ".ms-player [onerror], .ms-player [onload], .ms-player [onmouseover], "
        ".ms-script script, .ms-script img, .ms-script a, .ms-script [onerror]"
    )
    assert injected.count() == 0
    assert dialogs == []
    assert page.evaluate("() => window.__tokex_pwned === undefined")
    assert "<script>alert(1)</script>" in page.locator(".ms-player .rows").inner_text()
    wait_for_app(page)
    page.locator(".ms-player").scroll_into_view_if_needed()
    screenshot("merge-steps-injection")


def test_presentation_mode_makes_the_player_bigger(open_app, wait_for_app, screenshot):
    page = open_merge_steps(open_app, wait_for_app)
    chip = page.locator(".ms-player .rows .chip").first
    before = chip.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    page.get_by_text("Presentation mode").click()
    wait_for_app(page, page.locator(".ms-player.big"))
    after = page.locator(".ms-player .rows .chip").first.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")
    assert after > before * 1.2
    page.get_by_role("button", name="Next step (→)").click()
    screenshot("merge-steps-presentation")


def test_replay_and_comparison_tabs_render(open_app, wait_for_app, screenshot):
    page = open_merge_steps(open_app, wait_for_app)
    page.get_by_role("tab", name="🔁 Encode replay").click()
    wait_for_app(page, page.locator(".ms-ladder"))
    page.get_by_text("GPT-2's real ranks", exact=True).click()
    wait_for_app(page, page.get_by_text("exactly what tiktoken's gpt2 encoding gives"))
    page.get_by_text("' tokenization'", exact=True).click()
    wait_for_app(page, page.get_by_text("Ids [11241, 1634]"))
    page.locator(".ms-ladder").first.scroll_into_view_if_needed()
    screenshot("merge-steps-replay-gpt2")
    page.get_by_role("tab", name="⚖️ BPE vs WordPiece").click()
    wait_for_app(page, page.get_by_text("First difference at step 1."))
    page.locator(".js-plotly-plot").first.scroll_into_view_if_needed()
    screenshot("merge-steps-bpe-vs-wordpiece")
    page.get_by_text("##believ").first.scroll_into_view_if_needed()
    screenshot("merge-steps-wordpiece")
