"""Merge steps' own corpus is user text (issue 23, item 4): a Markdown image in it must stay
characters everywhere the page shows the corpus's words, the encode replay's pills included.

A listener on loopback (conftest's guard only blocks hosts beyond this machine) counts what the
browser would have fetched: it must see no request at all.
"""

from __future__ import annotations

from tests.browser.test_file_names import assert_no_markup_from, listener  # noqa: F401 (fixture)
from tests.browser.test_merge_steps import open_merge_steps
from ui.common.safe_text import WORD_JOINER


def test_a_markdown_image_in_the_corpus_is_never_fetched(open_app, wait_for_app, listener,  # noqa: F811
                                                         screenshot):
    port, hits = listener
    image = f"![x](http://127.0.0.1:{port}/pill.png)"
    corpus = f"{image} low lower {image} lowest [link](http://127.0.0.1:{port}/b) newest"
    page = open_merge_steps(open_app, wait_for_app)
    page.get_by_label("Corpus", exact=True).click()
    page.get_by_role("option", name="Your own text or upload").click()
    box = page.get_by_label("Your corpus", exact=True)
    wait_for_app(page, box)
    box.fill(corpus)
    box.press("Control+Enter")
    wait_for_app(page, page.locator(".ms-player .headline", has_text="Before any merge"))
    page.get_by_role("button", name="Next step (→)").click()
    page.get_by_role("tab", name="🔁 Encode replay").click()
    pills = page.locator('[data-testid="stButtonGroup"]', has_text="lower")  # the Try pills
    wait_for_app(page, pills)
    page.get_by_role("tab", name="⚖️ BPE vs WordPiece").click()
    wait_for_app(page, page.get_by_text("WordPiece encoding: ## pieces and [UNK]"))
    page.get_by_role("tab", name="🔁 Encode replay").click()
    wait_for_app(page, pills)
    pills.scroll_into_view_if_needed()
    screenshot("merge-steps-markdown-corpus")
    assert hits == [], f"the browser fetched what the corpus named: {hits}"
    assert_no_markup_from(page, port)
    shown = [t.replace(WORD_JOINER, "") for t in pills.locator("button").all_inner_texts()]
    assert image in shown, shown  # the word as typed
