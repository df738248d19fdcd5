"""The Vocabulary page, driven by AppTest: the table holds tiktoken's tokens, a search finds what a
plain filter over tiktoken's bytes finds, bad searches say why, and the comparison adds up."""

from __future__ import annotations

from tests.shared import tiktoken_encoding, token_bytes
from ui.vocabulary.limits import MAX_QUERY_CHARS, MAX_TABLE_ROWS

from .conftest import open_page

PAGE = "pages/vocabulary.py"


def open_tab(app, tab: str):
    """The page with one tab open (what a click on it does): only the open tab runs."""
    open_page(app, PAGE)
    app.session_state["vc_tab"] = tab
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def metric(app, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def texts(name: str) -> dict[int, str]:
    encoding, found = tiktoken_encoding(name), {}
    for i in range(encoding.n_vocab):
        try:
            found[i] = encoding.decode_single_token_bytes(i).decode("utf-8")
        except (KeyError, UnicodeDecodeError):
            pass
    return found


def test_default_table_is_gpt2s_first_page_with_tiktokens_bytes(app):
    open_page(app, PAGE)
    gpt2 = tiktoken_encoding("gpt2")
    assert metric(app, "Size (largest id + 1)") == f"{gpt2.n_vocab:,}"
    assert metric(app, "Ids no token holds") == "0"
    table = app.dataframe[0].value
    assert len(table) == MAX_TABLE_ROWS
    assert list(table["id"]) == list(range(MAX_TABLE_ROWS))
    assert list(table["hex"].str.replace(" ", "")) == [
        gpt2.decode_single_token_bytes(i).hex() for i in range(MAX_TABLE_ROWS)]
    assert table.loc[table["id"] == 262, "token"].item() == "·the"  # ' the', space made visible


def test_cl100k_shows_its_gaps(app):
    open_page(app, PAGE)
    app.selectbox(key="vc_tokenizer").set_value("cl100k_base").run()
    assert not app.exception
    assert metric(app, "Ids no token holds") == "16"
    assert metric(app, "Tokens") == f"{100277 - 16:,}"


def test_text_search_finds_what_a_plain_filter_finds(app):
    open_page(app, PAGE)
    app.text_input(key="vc_query").set_value("ization").run()
    expected = [i for i, t in texts("gpt2").items() if "ization" in t]
    assert f"{len(expected):,} tokens match." in [c.value for c in app.caption]
    assert list(app.dataframe[0].value["id"]) == expected


def test_regex_and_bytes_searches(app):
    open_page(app, PAGE)
    app.selectbox(key="vc_kind").set_value("regex").run()
    app.text_input(key="vc_query").set_value(r"^ \d{4}$").run()
    import regex

    expected = [i for i, t in texts("gpt2").items() if regex.search(r"^ \d{4}$", t)]
    assert not app.error, [e.value for e in app.error]  # a refused search says why here
    assert list(app.dataframe[0].value["id"]) == expected
    app.selectbox(key="vc_kind").set_value("bytes").run()
    app.text_input(key="vc_query").set_value("e4 bd").run()
    table = app.dataframe[0].value
    assert len(table) > 0 and all("e4 bd" in h for h in table["hex"])


def test_bad_searches_say_why_and_keep_the_query(app):
    open_page(app, PAGE)
    app.selectbox(key="vc_kind").set_value("regex").run()
    app.text_input(key="vc_query").set_value("(unclosed").run()
    assert "is not valid" in app.error[0].value
    assert app.text_input(key="vc_query").value == "(unclosed"
    long = "a" * (MAX_QUERY_CHARS + 1)
    app.text_input(key="vc_query").set_value(long).run()
    assert f"the bound is {MAX_QUERY_CHARS}" in app.error[0].value
    assert app.text_input(key="vc_query").value == long
    app.selectbox(key="vc_kind").set_value("id").run()
    app.text_input(key="vc_query").set_value("abc").run()
    assert "is not a whole number" in app.error[0].value


def test_compare_counts_add_up_to_each_vocabulary(app):
    open_tab(app, "Compare")
    a = {tiktoken_encoding("gpt2").decode_single_token_bytes(i) for i in range(50257)}
    b = token_bytes(tiktoken_encoding("o200k_base"))
    assert metric(app, "Shared tokens (same bytes)") == f"{len(a & b):,}"
    assert metric(app, "Only in gpt2") == f"{len(a - b):,}"
    assert metric(app, "Only in o200k_base") == f"{len(b - a):,}"
    per_script = app.dataframe[0].value
    assert per_script["shared"].sum() == len(a & b)
    assert per_script["only in gpt2"].sum() == len(a - b)


def test_berts_real_vocabulary_in_every_tab(app):
    """bert-base-uncased's 30,522 pieces (read out of blingfire, tests/core/reference/
    test_bert_uncased.py): the table holds vocab.txt's lines in id order, `##` pieces included,
    and every tab opens on it without an error."""
    from tokenizer_core.reference.bert_uncased import recover_vocabulary
    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    pieces = recover_vocabulary(packaged_path(OPEN_MODELS["bert-base-uncased"].file))
    open_page(app, PAGE)
    app.selectbox(key="vc_tokenizer").set_value("bert-base-uncased").run()
    assert not app.exception, [e.value for e in app.exception]
    assert metric(app, "Size (largest id + 1)") == "30,522"
    app.text_input(key="vc_query").set_value("##ization").run()
    found = app.dataframe[0].value
    assert set(found["id"]) == {i for i, p in enumerate(pieces) if "##ization" in p}
    for tab in ("Charts", "Compare", "Glitches & growth", "Real sizes", "Pre-tokenization",
                "Design"):
        app.session_state["vc_tab"] = tab
        app.run()
        assert not app.exception, (tab, [e.value for e in app.exception])


def test_the_count_and_the_page_read_as_sentences(app):
    """ "1 tokens match" and a "Page of 19" box without its page (#23 item 9)."""
    open_page(app, PAGE)
    app.selectbox(key="vc_kind").set_value("id").run()
    app.text_input(key="vc_query").set_value("1000").run()
    assert "1 token matches." in [c.value for c in app.caption]
    app.selectbox(key="vc_kind").set_value("text").run()
    app.text_input(key="vc_query").set_value("no token holds this").run()
    assert "No token matches." in [c.value for c in app.caption]
    app.text_input(key="vc_query").set_value("a").run()
    found = sum("a" in t for t in texts("gpt2").values())
    pages = -(-found // MAX_TABLE_ROWS)
    assert app.number_input[0].label == f"Page (1 to {pages})"
    assert (f"Rows 1 to 1,000 of {found:,}: page 1 of {pages}."
            in [c.value for c in app.caption])


def test_merge_rank_and_chars_show_a_dash_where_there_is_none(app):
    open_page(app, PAGE)
    table = app.dataframe[0].value.set_index("id")
    assert table.loc[64, "merge rank"] == "—"  # the byte "a": no merge made it
    assert table.loc[128, "chars"] == "—"  # byte 0x80 alone is not a character
    assert table.loc[256, "merge rank"] == "0"  # " t", GPT-2's first merge
    assert not table.isna().any().any()


def test_a_replacement_character_in_the_search_is_explained(app):
    from ui.common.unicode_guard import REPLACEMENT_NOTE

    open_page(app, PAGE)
    app.text_input(key="vc_query").set_value("\ufffd").run()
    assert REPLACEMENT_NOTE in [c.value for c in app.caption]
