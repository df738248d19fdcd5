"""Boxes drawn only while open (ui.common.lazy_expander): a first view sends the browser no
uploader, no download button of the lesson tools and no models-folder listing, so it loads none
of their code (#22, the browser's cost of a first visit); a click on the box draws them."""

from __future__ import annotations

from ui.common.i18n import LANG_KEY

from .conftest import open_box, open_page, uploader


def test_the_playgrounds_first_view_draws_no_uploader_and_a_box_opened_draws_its_own(app):
    open_page(app, "pages/playground.py")
    assert [u.key for u in app.file_uploader] == []
    assert not [b for b in app.get("download_button") if b.label != "Download CSV"]  # a table's
    assert not [b for b in app.button if b.key in ("lesson_add", "pg_rescan")]
    assert uploader(app, "pg_hf_upload").key == "pg_hf_upload"  # opened by its box
    assert [u.key for u in app.file_uploader] == ["pg_hf_upload"]
    open_box(app, "lesson_upload_box")
    assert sorted(u.key for u in app.file_uploader) == ["lesson_upload", "pg_hf_upload"]
    assert [b.key for b in app.button if b.key == "lesson_add"] == ["lesson_add"]


def test_a_refused_upload_opens_its_box_again_after_a_switch_of_language(app):
    open_page(app, "pages/playground.py")
    uploader(app, "pg_upload").set_value(("bad.txt", b"\xff\xfe", "text/plain")).run()
    assert app.error, "the refusal is shown"
    app.radio(key=LANG_KEY).set_value("zh").run()
    assert [u.key for u in app.file_uploader] == ["pg_upload"]  # a new box, open for the reason
    assert app.error
