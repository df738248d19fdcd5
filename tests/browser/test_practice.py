"""The Practice page in a real Chromium at 1280x720: a typed answer is marked correct, the
masking seed from a link is shown and Reshuffle changes it (and the link), answers typed into
the masked code are still there after a visit to the Playground, and revealing a guess draws
the coloured tokens. Screenshots land in screenshots/."""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

from tests.browser.conftest import LAPTOP, AppServer, wait_for_app
from tests.browser.test_links import PROBE_404
from tests.browser.test_page_state import go_to
from tests.shared import tiktoken_encoding
from tokenizer_core.lessons.practice import guess_texts

SHOTS = Path("/tmp/h/shots/practice")  # a copy for the session that looks at them


def _open(open_app, wait_for_app):
    page = open_app()
    page.set_viewport_size(LAPTOP)
    page.locator('[data-testid="stSidebarNav"] a', has_text="Practice").click()
    wait_for_app(page, page.get_by_role("heading", name="Practice"))
    return page


def _open_link(page, page_log, app_server: AppServer, query: str):
    """The page straight from a lesson link, as a student opens the one the teacher sent."""
    page_log.allow_console_error(PROBE_404)  # the front end's probe of /<page>/_stcore (links)
    page.set_viewport_size(LAPTOP)
    page.goto(f"{app_server.url}/practice?{query}")
    wait_for_app(page, page.get_by_role("heading", name="Practice"))
    return page


def _shot(screenshot, name: str) -> None:
    path = screenshot(name)
    SHOTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(path, SHOTS / path.name)


def test_a_typed_answer_is_marked_correct(open_app, wait_for_app, screenshot) -> None:
    page = _open(open_app, wait_for_app)
    code = page.locator(".prcode").first
    assert "__2__" in code.inner_text() and "def count_pairs" in code.inner_text()
    box = page.get_by_label("Blank 2", exact=True)
    box.fill("count + pair_counts.get( pair , 0 )")
    box.press("Enter")
    wait_for_app(page, page.get_by_text("Correct!", exact=True))
    wrong = page.get_by_label("Blank 1", exact=True)
    wrong.fill("zip(split split[1:])")
    wrong.press("Enter")
    wait_for_app(page, page.get_by_text("Python cannot read this yet"))
    try:  # Python's own parser is the oracle for where it stopped
        ast.parse("zip(split split[1:])", mode="eval")
    except SyntaxError as error:
        column = error.offset
    assert f"column {column}" in page.get_by_text("Python cannot read this yet").inner_text()
    _shot(screenshot, "practice-exercise")


def test_masking_seed_from_the_link_and_reshuffle(page, page_log, app_server, screenshot) -> None:
    _open_link(page, page_log, app_server, "pr_tab=Random+masking&pr_share=20&pr_seed=1234")
    summary = page.locator("p", has_text="blanks possible")
    summary.wait_for()
    assert re.search(r"\d+ blanks possible, \d+ hidden · seed 1234", summary.inner_text())
    assert "__1__" in page.locator(".prcode").first.inner_text()
    _shot(screenshot, "practice-masking")
    page.get_by_role("button", name="Reshuffle").click()
    wait_for_app(page)
    page.wait_for_function("() => !document.body.innerText.includes('seed 1234')")
    seed = re.search(r"seed (\d+)", summary.inner_text()).group(1)
    assert seed != "1234"
    page.wait_for_function(f"() => location.search.includes('pr_seed={seed}')")


def test_masked_answers_survive_a_visit_to_the_playground(page, page_log, app_server,
                                                         screenshot) -> None:
    _open_link(page, page_log, app_server, "pr_tab=Random+masking&pr_share=30&pr_seed=4242")
    typed = {"1": "first answer", "2": "second answer", "3": "third answer"}
    for label, text in typed.items():
        box = page.get_by_label(label, exact=True)
        box.fill(text)
        box.press("Enter")
        wait_for_app(page)
    page.get_by_role("button", name="Check answers").click()
    score = page.locator('[data-testid="stMetric"]', has_text="Score")
    wait_for_app(page, score)
    checked = score.inner_text()
    go_to(page, wait_for_app, "Playground")
    assert page.get_by_label("1", exact=True).count() == 0
    go_to(page, wait_for_app, "Practice")
    page.locator("p", has_text="seed 4242").wait_for()
    for label, text in typed.items():
        assert page.get_by_label(label, exact=True).input_value() == text
    assert page.get_by_label("4", exact=True).input_value() == ""
    assert score.inner_text() == checked  # the score of the Check before the visit
    page.get_by_label("1", exact=True).scroll_into_view_if_needed()
    _shot(screenshot, "practice-masking-kept")
    score.scroll_into_view_if_needed()
    _shot(screenshot, "practice-masking-kept-score")


def test_reveal_draws_the_coloured_tokens(page, page_log, app_server, screenshot) -> None:
    _open_link(page, page_log, app_server, "pr_tab=Guess+the+count")
    text = guess_texts()[0].text
    count = len(tiktoken_encoding("gpt2").encode_ordinary(text))
    guess = page.get_by_label("Your guess (tokens)", exact=True)
    guess.fill(str(count + 1))
    guess.press("Enter")
    wait_for_app(page)
    page.get_by_role("button", name="Reveal").click()
    wait_for_app(page, page.get_by_text(f"the count is {count}"))
    tokens = page.locator(".tokview .tok")
    assert tokens.count() == count
    colours = {tokens.nth(i).evaluate("e => getComputedStyle(e).backgroundColor")
               for i in range(2)}
    assert len(colours) == 2  # neighbours differ
    page.locator(".tokview").first.scroll_into_view_if_needed()
    _shot(screenshot, "practice-guess")
