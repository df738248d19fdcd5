"""Every page keeps its state for the whole session, in a real browser.

Streamlit forgets the value of a widget that was not drawn in a run, and a visit to another page
draws none of this page's widgets. A person who pastes text in the Playground, looks at another
page and comes back (by the sidebar or the browser's Back) must find the text, the tokenizers and
every control as they left them, and the link must hold them again.
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from playwright.sync_api import expect

from tests.browser.conftest import LAPTOP

SIDEBAR_LINK = '[data-testid="stSidebarNav"] a'
SLOW_PAGE_MS = 240_000  # Compression's first visit trains its curves


def go_to(page, wait_for_app, title: str, *, timeout_ms: int = 60_000) -> None:
    """Open another page by its sidebar link, as a person does."""
    page.locator(SIDEBAR_LINK, has_text=title).click()
    wait_for_app(page, page.get_by_role("heading", name=title, exact=True), timeout_ms=timeout_ms)


def back(page, wait_for_app, title: str) -> None:
    """The browser's Back button, pressed until the page we came from shows again.

    subtle: a visit to a page is two entries in the browser's history: Streamlit pushes one for
    the page switch (a bare /page) and one when the page writes its state into the link. The
    first Back lands on the bare entry, where the page writes its link again (in place); the
    second reaches the page before.
    """
    page.go_back()
    page.wait_for_function("() => location.search !== ''")
    wait_for_app(page)
    page.go_back()
    wait_for_app(page, page.get_by_role("heading", name=title, exact=True))


def choose(page, wait_for_app, group: str, option: str) -> None:
    """Click an option of a segmented control (a radio group to the browser)."""
    page.get_by_role("radiogroup", name=group).get_by_role("radio", name=option, exact=True).click()
    wait_for_app(page, page.get_by_role("radiogroup", name=group).locator('[aria-checked="true"]',
                                                                         has_text=option))


def chosen(page, group: str) -> str:
    return page.get_by_role("radiogroup", name=group).locator('[aria-checked="true"]').inner_text()


def link(page) -> dict[str, list[str]]:
    return parse_qs(urlsplit(page.url).query)


def type_into(page, wait_for_app, label: str, text: str, *, apply: str = "Control+Enter") -> None:
    """Type into a text area (applied on Ctrl+Enter) or a text input (apply="Enter")."""
    box = page.get_by_label(label, exact=True)
    box.fill(text)
    box.press(apply)
    wait_for_app(page)


# --- Playground -----------------------------------------------------------------------------------

PG_TEXT = "Kept across pages: 你好, 🙂 and 12345."


def _playground_with_text(open_app, wait_for_app):
    page = open_app("?tok=gpt2,cl100k_base", expect="Playground")
    page.set_viewport_size(LAPTOP)
    type_into(page, wait_for_app, "Text", PG_TEXT)
    choose(page, wait_for_app, "Show", "ids")
    assert link(page)["text"] == [PG_TEXT]
    return page


def _assert_playground_as_left(page) -> None:
    expect(page.get_by_label("Text", exact=True)).to_have_value(PG_TEXT)
    assert page.locator(".tokview").count() == 2  # both tokenizers still chosen
    assert chosen(page, "Show") == "ids"
    query = link(page)
    assert query["text"] == [PG_TEXT]
    assert query["tok"] == ["gpt2,cl100k_base"]
    assert query["view"] == ["ids"]


def test_playground_keeps_text_and_tokenizers_after_another_page(open_app, wait_for_app, screenshot):
    page = _playground_with_text(open_app, wait_for_app)
    go_to(page, wait_for_app, "Languages")
    go_to(page, wait_for_app, "Playground")
    _assert_playground_as_left(page)
    screenshot("state-playground-returned")


def test_playground_comes_back_with_the_browsers_back(open_app, wait_for_app):
    page = _playground_with_text(open_app, wait_for_app)
    go_to(page, wait_for_app, "Merge steps")
    back(page, wait_for_app, "Playground")
    _assert_playground_as_left(page)


# --- Merge steps ----------------------------------------------------------------------------------

MS_CORPUS = "low low low lower lowest newer newest newest widest"


def _merge_steps_changed(open_app, wait_for_app):
    page = open_app()
    page.set_viewport_size(LAPTOP)
    go_to(page, wait_for_app, "Merge steps")
    page.get_by_role("combobox", name="Corpus").click()
    page.get_by_role("option", name="Your own text or upload").click()
    wait_for_app(page, page.get_by_label("Your corpus", exact=True))
    type_into(page, wait_for_app, "Your corpus", MS_CORPUS)
    merges = page.get_by_label("Merges", exact=True)
    merges.fill("6")
    merges.press("Enter")
    wait_for_app(page, page.locator(".ms-player .stepno", has_text="/ 6"))
    choose(page, wait_for_app, "Tie-break", "lexical")
    for step in (1, 2):  # the player reports each settled step; the rerun puts it in the link
        page.get_by_role("button", name="Next step (→)").click()
        page.wait_for_url(lambda url, step=step: f"ms_step={step}" in url, timeout=15_000)
        wait_for_app(page)
    return page


def _assert_merge_steps_as_left(page) -> None:
    assert page.get_by_label("Your corpus", exact=True).input_value() == MS_CORPUS
    assert page.get_by_label("Merges", exact=True).input_value() == "6"
    assert chosen(page, "Tie-break") == "lexical"
    assert page.locator(".ms-player .stepno").inner_text() == "Step 2 / 6"
    query = link(page)
    assert query["ms_source"] == ["own"]
    assert query["ms_merges"] == ["6"]
    assert query["ms_tie"] == ["lexical"]
    assert query["ms_step"] == ["2"]


def test_merge_steps_keeps_corpus_controls_and_step_after_another_page(open_app, wait_for_app, screenshot):
    page = _merge_steps_changed(open_app, wait_for_app)
    go_to(page, wait_for_app, "Playground")
    go_to(page, wait_for_app, "Merge steps")
    page.locator(".ms-player").wait_for()
    _assert_merge_steps_as_left(page)
    screenshot("state-merge-steps-returned")


def test_merge_steps_comes_back_with_the_browsers_back(open_app, wait_for_app):
    page = _merge_steps_changed(open_app, wait_for_app)
    go_to(page, wait_for_app, "Playground")
    back(page, wait_for_app, "Merge steps")
    page.locator(".ms-player").wait_for()
    _assert_merge_steps_as_left(page)


# --- Languages ------------------------------------------------------------------------------------

LG_TEXT = "Kept: 你好 👍🏽"


def test_languages_keeps_tab_tokenizers_and_text_after_another_page(open_app, wait_for_app, screenshot):
    page = open_app()
    page.set_viewport_size(LAPTOP)
    go_to(page, wait_for_app, "Languages")
    page.get_by_role("combobox", name="Tokenizers").click()
    page.get_by_role("option", name="English + Chinese samples").click()
    page.keyboard.press("Escape")
    wait_for_app(page)
    type_into(page, wait_for_app, "Text", LG_TEXT)
    chosen = page.locator('[data-testid="stMultiSelect"]').first.inner_text()
    page.get_by_role("tab", name="Emoji").click()
    wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text="Emoji"))

    go_to(page, wait_for_app, "Playground")
    go_to(page, wait_for_app, "Languages")
    assert page.locator('[role="tab"][aria-selected="true"]').inner_text() == "Emoji"
    assert link(page)["lg_tab"] == ["Emoji"]
    assert page.locator('[data-testid="stMultiSelect"]').first.inner_text() == chosen
    page.get_by_role("tab", name="Byte ruler").click()
    wait_for_app(page, page.locator('[role="tab"][aria-selected="true"]', has_text="Byte ruler"))
    expect(page.get_by_label("Text", exact=True)).to_have_value(LG_TEXT)
    screenshot("state-languages-returned")


# --- Compression ----------------------------------------------------------------------------------

CP_SENTENCE = "Cats nap; kept across pages."


def test_compression_keeps_its_controls_after_another_page(open_app, wait_for_app, screenshot):
    page = open_app()
    page.set_viewport_size(LAPTOP)
    go_to(page, wait_for_app, "Compression", timeout_ms=SLOW_PAGE_MS)
    choose(page, wait_for_app, "Measure", "UTF-8 bytes per token")
    type_into(page, wait_for_app, "Sentence", CP_SENTENCE, apply="Enter")

    go_to(page, wait_for_app, "Languages")
    go_to(page, wait_for_app, "Compression", timeout_ms=SLOW_PAGE_MS)
    assert chosen(page, "Measure") == "UTF-8 bytes per token"
    assert page.get_by_label("Sentence", exact=True).input_value() == CP_SENTENCE
    screenshot("state-compression-returned")
