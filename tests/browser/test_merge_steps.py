"""The Merge steps page in a real browser: the player plays in the page, steps by click and key,
reports where it stopped, and keeps user text inert. Screenshots go to screenshots/merge-steps-*.
"""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP
from tests.shared import PAYLOADS_TEXT as PAYLOADS
from tokenizer_core import corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.measure.merge_prefix import model_with_first
from tokenizer_core.samples import load_preset

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


# --- issue 9 at 1280x720: the end-of-word marker, overlaps, cut-off tables, stale messages -------


def open_at_laptop(open_app, wait_for_app):
    page = open_app()
    page.set_viewport_size(LAPTOP)
    page.get_by_role("link", name="Merge steps").click()
    wait_for_app(page, page.locator(".ms-player"))
    return page


def boxes(locator) -> list[dict]:
    return [b for b in (e.bounding_box() for e in locator.all()) if b]


def overlap(a: dict, b: dict) -> bool:
    return (a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"]
            and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"])


def test_merge_k_view_shows_the_end_of_word_marker(open_app, wait_for_app, screenshot):
    """Item 12: `est</w>` is drawn with its `</w>`, as the player and the replay draw it."""
    page = open_at_laptop(open_app, wait_for_app)
    page.get_by_role("tab", name="🔁 Encode replay").click()
    heading = page.get_by_text("Only the first k merges", exact=True)
    wait_for_app(page, heading)
    text = page.get_by_role("textbox", name="Text to re-tokenize").input_value()
    training = train_bpe(corpus_from_counts(load_preset("low_newest")), 10)
    pieces = [t.piece for t in model_with_first(training, 10).encode(text)]
    assert "est</w>" in "".join(pieces)  # the lesson's point: est</w> is a token
    view = page.locator(".tokview").last
    assert [t.strip() for t in view.locator(".tok").all_inner_texts()] == pieces
    marker = view.locator(".tok .wend").first
    assert marker.inner_text() == "</w>" and marker.bounding_box()["width"] > 0
    view.scroll_into_view_if_needed()
    screenshot("merge-steps-merge-k-laptop")
    page.locator(".ms-ladder").first.scroll_into_view_if_needed()
    screenshot("merge-steps-replay-laptop")


def test_merges_box_and_its_message_agree(open_app, wait_for_app, screenshot):
    """Item 18: a value the box shows is the value the message is about, never an older one."""
    page = open_at_laptop(open_app, wait_for_app)
    box = page.get_by_label("Merges", exact=True)
    box.fill("600")
    box.press("Enter")
    wait_for_app(page, "600 merges is over")
    box.fill("0")
    box.press("Enter")
    wait_for_app(page, "Ask for at least 1 merge")
    assert box.input_value() == "0"
    assert page.get_by_text("600 merges").count() == 0
    screenshot("merge-steps-merges-zero-laptop")
    box.fill("12")
    box.press("Enter")
    wait_for_app(page, page.locator(".ms-player .stepno", has_text="Step 0 / 12"))
    assert page.get_by_text("Ask for at least 1 merge").count() == 0
    for _ in range(3):
        page.get_by_role("button", name="Next step (→)").click()
    page.locator(".ms-player .corpus").evaluate("e => e.scrollIntoView()")
    screenshot("merge-steps-player-laptop")


def test_overview_chart_and_merges_table_fit_a_laptop(open_app, wait_for_app, screenshot):
    """Items 15 and 16: no axis title over the next chart, no table cut off at 1280 wide."""
    page = open_at_laptop(open_app, wait_for_app)
    for mode in ("laptop", "presentation"):
        if mode == "presentation":
            page.get_by_text("Presentation mode").click()
            wait_for_app(page, page.locator(".ms-player.big"))
        chart = page.locator(".js-plotly-plot").first
        chart.scroll_into_view_if_needed()
        wait_for_app(page)
        left_plot = chart.locator('rect.nsewdrag[data-subplot="xy"]').bounding_box()
        for title in ("y2title", "y3title"):  # vocabulary size, corpus tokens
            (box,) = boxes(chart.locator(f"text.{title}"))
            assert not overlap(box, left_plot), (mode, title)
        ticks = boxes(chart.locator("g.xtick text, g.ytick text, g.x2tick text, g.y2tick text, "
                                    "g.y3tick text"))
        titles = boxes(chart.locator("text.y2title, text.y3title, text.annotation-text"))
        assert all(not overlap(t, k) for t in titles for k in ticks), mode
        assert all(not overlap(a, b) for i, a in enumerate(titles) for b in titles[i + 1:]), mode
        table = page.locator(".tx-table-box").first  # the merges table, HTML on this page
        table.scroll_into_view_if_needed()
        wait_for_app(page)
        assert table.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), (mode, "cut off")
        chart.scroll_into_view_if_needed()
        screenshot(f"merge-steps-overview-{mode}")


def test_bpe_vs_wordpiece_at_a_laptop(open_app, wait_for_app, screenshot):
    """Items 11 and 13 as a person sees them: the likelihood's own formula, labels inside the
    chart, the trained vocabulary on the corpus's words, and why a word is [UNK]."""
    page = open_at_laptop(open_app, wait_for_app)
    page.get_by_role("tab", name="⚖️ BPE vs WordPiece").click()
    wait_for_app(page, page.get_by_text("First difference at step 1."))
    page.get_by_text("likelihood gain").click()
    warning = page.get_by_text("scores 9 × ln(9 × 95 / (9 × 9)) = 21.21")
    wait_for_app(page, warning)
    chart = page.locator(".js-plotly-plot").first
    chart.scroll_into_view_if_needed()
    wait_for_app(page)
    area = chart.bounding_box()
    labels = boxes(chart.locator("text.bartext, text.annotation-text, g.gtitle text"))
    assert labels and all(b["x"] >= area["x"] - 1 and b["x"] + b["width"] <= area["x"] + area["width"] + 1
                          for b in labels), "a label runs out of the chart"
    titles = boxes(chart.locator("text.annotation-text"))
    assert all(not overlap(a, b) for i, a in enumerate(titles) for b in titles[i + 1:])
    page.get_by_text("First difference at step 1.").scroll_into_view_if_needed()
    screenshot("merge-steps-bpe-vs-wordpiece-laptop")
    page.get_by_text("trained on this corpus").click()
    box = page.get_by_role("textbox", name="Words to encode")
    wait_for_app(page, box)
    # subtle: the box of the other vocabulary has the same label and is visible before the
    # rerun swaps it, so wait for the value (seen once under load: the classroom words)
    expect(box).to_have_value("low lower newest widest", timeout=30_000)
    box.fill("lowest quiet")
    box.press("Enter")
    reason = page.get_by_text("'q' never appears in the corpus, so no piece can spell it")
    wait_for_app(page, reason)
    reason.scroll_into_view_if_needed()
    screenshot("merge-steps-wordpiece-trained-laptop")
