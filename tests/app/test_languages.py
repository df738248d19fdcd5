"""The Languages page, driven by AppTest: the ruler draws bytes and split tokens, the premium
table equals tiktoken's counts, bad parallel uploads say which line and the page keeps working,
emoji costs and the grow-a-vocabulary curve show."""

from __future__ import annotations

import statistics

import pandas as pd
import pytest

from tests.shared import tiktoken_encoding
from tokenizer_core.samples import MAX_PARALLEL_PAIRS, emoji_catalogue, parallel_pairs
from ui.languages.limits import (
    MAX_GROW_CHARS,
    MAX_PAIR_POINTS,
    MAX_RULER_CHARS,
    MAX_RULER_INPUT_CHARS,
)

from .conftest import open_page, shown, uploader

PAGE = "pages/languages.py"
TIKTOKEN = {"GPT-2": "gpt2", "cl100k_base": "cl100k_base", "o200k_base": "o200k_base"}


def open_tab(app, tab: str):
    open_page(app, PAGE)
    app.session_state["lg_tab"] = tab  # what a click on the tab does (a link: ?lg_tab=Emoji)
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def html(app) -> str:
    return "".join(h.proto.body for h in app.get("html"))


def charts(app) -> list:
    return list(app.get("plotly_chart"))


def count(name: str, text: str) -> int:
    return len(tiktoken_encoding(name).encode_ordinary(text))




def frame_with(app, column: str):
    return next(d.value for d in app.dataframe if column in d.value.columns)


# --- byte ruler ----------------------------------------------------------------------------


def test_ruler_shows_ni_as_e4_bd_a0_and_gpt2_splitting_it(app):
    open_page(app, PAGE)
    app.text_area(key="lg_ruler_text").set_value("你好").run()
    markup = html(app)
    assert '">E4</div>' in markup and '">BD</div>' in markup and '">A0</div>' in markup
    assert "partial" in markup and "&lt;E4 BD&gt;" in markup  # GPT-2's first token: E4 BD
    summary = frame_with(app, "tokens that split a character")
    assert list(summary["tokenizer"]) == ["GPT-2", "cl100k_base", "o200k_base", "ours (English)"]
    assert list(summary["tokens"])[:3] == [count(n, "你好") for n in ("gpt2", "cl100k_base", "o200k_base")]
    assert list(summary["tokens that split a character"])[:3] == [4, 0, 0]


def test_ruler_examples_replace_the_text(app):
    open_page(app, PAGE)
    app.pills(key="lg_ruler_preset").set_value("👍🏽 skin tone").run()
    assert app.text_area(key="lg_ruler_text").value == "👍🏽"
    assert "U+1F3FD" in html(app)


def test_ruler_draws_a_bounded_part_of_long_text(app):
    open_page(app, PAGE)
    app.text_area(key="lg_ruler_text").set_value("你好" * 200).run()
    assert any(f"first {MAX_RULER_CHARS:,} of 400 characters" in c.value for c in app.caption)
    assert frame_with(app, "tokens")["tokens"][0] == count("gpt2", "你好" * 200)


def test_an_over_long_ruler_text_stays_in_the_box_and_the_page_says_it_is_cut(app):
    open_page(app, PAGE)
    text = "a" * MAX_RULER_INPUT_CHARS + "你好"
    app.text_area(key="lg_ruler_text").set_value(text).run()
    assert app.text_area(key="lg_ruler_text").value == text  # nothing typed is lost
    warnings = [w.value for w in app.warning]
    assert any(f"{len(text):,} characters" in w and f"first {MAX_RULER_INPUT_CHARS:,}" in w
               for w in warnings), warnings
    summary = frame_with(app, "tokens that split a character")
    assert summary["tokens"][0] == count("gpt2", text[:MAX_RULER_INPUT_CHARS])


def test_ruler_escapes_what_the_user_types(app):
    open_page(app, PAGE)
    app.text_area(key="lg_ruler_text").set_value('<script>alert(1)</script><img src=x onerror=alert(1)>').run()
    markup = html(app)
    assert "<script" not in markup and "<img" not in markup
    assert '">&lt;</div>' in markup and '">script</div>' in markup  # a character, and a GPT-2 token


def test_empty_text_and_no_tokenizer_ask_kindly(app):
    open_page(app, PAGE)
    app.text_area(key="lg_ruler_text").set_value("").run()
    assert any("Type or paste" in i.value for i in app.info) and not app.exception
    app.multiselect(key="lg_tokenizers").set_value([]).run()
    assert any("Pick at least one tokenizer" in i.value for i in app.info) and not app.exception


# --- English vs Chinese ----------------------------------------------------------------------


def test_premium_table_equals_tiktoken_on_the_built_in_pairs(app):
    open_tab(app, "English vs Chinese")
    table = frame_with(app, "premium: ratio of totals").set_index("tokenizer")
    pairs = parallel_pairs()
    for label, name in TIKTOKEN.items():
        en = [count(name, p.en) for p in pairs]
        zh = [count(name, p.zh) for p in pairs]
        row = table.loc[label]
        assert (row["EN tokens"], row["ZH tokens"]) == (sum(en), sum(zh))
        assert row["premium: ratio of totals"] == round(sum(zh) / sum(en), 3)
        assert row["premium: median per pair"] == round(statistics.median(z / e for z, e in zip(zh, en)), 3)
    bytes_row = table.loc["UTF-8 bytes"]
    assert bytes_row["EN tokens"] == sum(len(p.en.encode()) for p in pairs)
    assert "pydoc_data" in table.loc["ours (English)", "trained on"]
    assert len(charts(app)) == 5  # headline premium and emoji; premium, tokens per character, every pair
    assert any("data/parallel/en_zh.tsv" in shown(c.value) and "50 pairs" in c.value for c in app.caption)


def test_a_good_upload_replaces_the_pairs(app):
    open_tab(app, "English vs Chinese")
    tiny = "en\tzh\nGood morning.\t早上好。\nI like tea.\t我喜欢茶。\n"
    uploader(app, "lg_parallel_upload").set_value(("mine.tsv", tiny.encode(), "text/tab-separated-values")).run()
    assert not app.error and not app.exception
    assert any("mine" in c.value and "2 pairs" in c.value for c in app.caption)
    table = frame_with(app, "premium: ratio of totals").set_index("tokenizer")
    en = count("gpt2", "Good morning.") + count("gpt2", "I like tea.")
    zh = count("gpt2", "早上好。") + count("gpt2", "我喜欢茶。")
    assert table.loc["GPT-2", "premium: ratio of totals"] == round(zh / en, 3)
    assert table.loc["UTF-8 bytes", "premium: ratio of totals"] == round(27 / 24, 3)  # hand-checked


@pytest.mark.parametrize(
    "content, message",
    [
        ("Good morning.\t早上好。\n".encode(), "line 1: expected the header line"),
        ("en\tzh\nGood morning.\t早上好。\tBonjour.\n".encode(), "line 2: expected 2 tab-separated fields"),
        ("english\tchinese\nHi.\t你好。\n".encode(), "line 1: expected the header line"),
        ("en\tzh\n# ok\n\nHi.\t\n".encode(), "line 4: the 'zh' field is empty"),
        (b"en\tzh\ncaf\xe9\t\xe5\x92\x96\n", "not UTF-8 text (byte 0xE9 at offset 9)"),
        (b"en\tzh\n", "no rows after the header"),
    ],
)
def test_a_bad_upload_names_the_line_and_the_page_keeps_working(app, content, message):
    open_tab(app, "English vs Chinese")
    uploader(app, "lg_parallel_upload").set_value(("bad.tsv", content, "text/plain")).run()
    assert not app.exception
    errors = [shown(e.value) for e in app.error]
    assert any(message in e for e in errors), errors
    assert any("Still using data/parallel/en_zh.tsv" in e for e in errors)
    table = frame_with(app, "premium: ratio of totals").set_index("tokenizer")
    assert table.loc["GPT-2", "EN tokens"] == sum(count("gpt2", p.en) for p in parallel_pairs())
    assert len(charts(app)) == 5  # the two headline charts, then the section's three


def test_a_bad_upload_after_a_good_one_keeps_the_good_one_and_removing_it_goes_back(app):
    open_tab(app, "English vs Chinese")
    box = uploader(app, "lg_parallel_upload")
    box.set_value(("mine.tsv", "en\tzh\nHi.\t你好。\n".encode(), "text/plain")).run()
    uploader(app, "lg_parallel_upload").set_value(("worse.tsv", b"en,zh\nHi.,x\n", "text/plain")).run()
    errors = [shown(e.value) for e in app.error]
    assert any("worse.tsv, line 1" in e and "tab" in e and "Still using mine.tsv" in e for e in errors)
    assert frame_with(app, "premium: ratio of totals").set_index("tokenizer").loc["GPT-2", "EN tokens"] == count("gpt2", "Hi.")
    uploader(app, "lg_parallel_upload").set_value(None).run()
    assert any("50 pairs" in c.value for c in app.caption) and not app.error


def test_user_text_in_an_error_cannot_become_markdown(app):
    open_tab(app, "English vs Chinese")
    content = "![x](http://evil.example/x.png) [click](javascript:alert(1))\n".encode()
    uploader(app, "lg_parallel_upload").set_value(("**x**.tsv", content, "text/plain")).run()
    (error,) = [e.value for e in app.error]  # the raw Markdown sent to the browser
    assert "![" not in error and "](" not in error and "**x**" not in error
    assert "\\!\\[x\\]" in error


def test_our_bilingual_bpe_joins_the_comparison(app):
    open_tab(app, "English vs Chinese")
    app.multiselect(key="lg_tokenizers").set_value(["gpt2", "lg:bpe-en-zh"]).run()
    assert not app.exception
    table = frame_with(app, "premium: ratio of totals").set_index("tokenizer")
    assert list(table.index) == ["UTF-8 bytes", "GPT-2", "ours (EN+ZH)"]
    assert "english.txt" in table.loc["ours (EN+ZH)", "trained on"]


def parallel_file(n: int) -> bytes:
    """The built-in pairs over and over, n lines (20,000 of them are 960,000 characters, under
    the file's own bound of 1,000,000; benchmarks/bench_languages.py times distinct ones)."""
    pairs = parallel_pairs()
    lines = [f"{pairs[i % len(pairs)].en}\t{pairs[i % len(pairs)].zh}" for i in range(n)]
    return ("en\tzh\n" + "\n".join(lines) + "\n").encode()


def test_a_file_at_the_pair_bound_completes_with_a_status_and_tiktokens_counts(app):
    open_tab(app, "English vs Chinese")
    content = parallel_file(MAX_PARALLEL_PAIRS)
    uploader(app, "lg_parallel_upload").set_value(("big.tsv", content, "text/plain")).run()
    assert not app.exception and not app.error
    assert any(f"{MAX_PARALLEL_PAIRS:,} pairs" in c.value for c in app.caption)
    (status,) = app.status  # the count's status box stays, folded, saying what it took
    assert f"Counted the tokens of {2 * MAX_PARALLEL_PAIRS:,} sentences" in status.label
    table = frame_with(app, "premium: ratio of totals").set_index("tokenizer")
    each = sum(count("o200k_base", p.en) for p in parallel_pairs())
    assert table.loc["o200k_base", "EN tokens"] == each * MAX_PARALLEL_PAIRS // 50
    (pairs_chart,) = [c for c in charts(app) if "Every pair" in c.proto.spec]
    assert len(pairs_chart.proto.spec) < 2_000_000  # boxes computed here, not 80,000 dots
    app.run()  # a rerun: the counts are kept, so no status this time
    assert not app.status and not app.exception


def test_a_file_over_the_pair_bound_says_so_and_keeps_the_pairs(app):
    open_tab(app, "English vs Chinese")
    content = parallel_file(MAX_PARALLEL_PAIRS + 1)
    uploader(app, "lg_parallel_upload").set_value(("huge.tsv", content, "text/plain")).run()
    errors = [shown(e.value) for e in app.error]
    assert any(f"{MAX_PARALLEL_PAIRS + 1:,} pairs, over the bound of {MAX_PARALLEL_PAIRS:,}" in e
               and "Still using data/parallel/en_zh.tsv" in e for e in errors), errors
    assert not app.exception and len(charts(app)) == 5


# --- emoji -----------------------------------------------------------------------------------


def test_emoji_table_counts_code_points_bytes_and_tokens(app):
    open_tab(app, "Emoji")
    table = frame_with(app, "# code points")
    assert len(table) == len(emoji_catalogue())
    thumbs = table[table["emoji"] == "👍🏻"].iloc[0]
    assert thumbs["code points"] == "U+1F44D U+1F3FB" and thumbs["UTF-8 bytes"] == 8
    for label, name in TIKTOKEN.items():
        assert list(table[label]) == [count(name, e.emoji) for e in emoji_catalogue()]
    assert len(charts(app)) == 1
    assert "ZWJ" in html(app)  # the closer look at the family emoji names its joiners


# --- grow a vocabulary -----------------------------------------------------------------------


def test_grow_curve_default_and_moving_n(app):
    open_tab(app, "Grow a vocabulary")
    assert len(charts(app)) == 1
    held = "\n".join(p.zh for p in parallel_pairs())
    values = {m.label: m.value for m in app.metric}
    assert values["Vocabulary"] == "356"  # 256 bytes + N = 100
    app.slider(key="lg_grow_n").set_value(0).run()
    values = {m.label: m.value for m in app.metric}
    assert values["Tokens at N = 0"] == f"{len(held.encode()):,}"
    assert 'class="tok' in html(app)


def test_grow_on_your_own_text(app):
    open_tab(app, "Grow a vocabulary")
    app.segmented_control(key="lg_grow_setup").set_value("own_split").run()
    assert any("Paste some Chinese text" in i.value for i in app.info)
    app.text_area(key="lg_grow_text").set_value("你你你好好我" + "你好吗你").run()
    app.slider(key="lg_grow_split").set_value(60).run()
    assert not app.exception and len(charts(app)) == 1
    # Train on 你你你好好 (60% of 10 characters is 6: 你你你好好我), measure on 你好吗你.
    values = {m.label: m.value for m in app.metric}
    assert values["Vocabulary"] == "259"  # N is capped at the 3 characters there are
    assert values["Tokens at N = 3"] == "6"  # 你 好 [吗 = 3 bytes] 你


def test_grow_on_text_at_the_bound_completes_and_longer_text_is_cut_with_a_note(app):
    open_tab(app, "Grow a vocabulary")
    app.segmented_control(key="lg_grow_setup").set_value("own_split").run()
    chinese = "".join(p.zh for p in parallel_pairs())
    text = (chinese * (MAX_GROW_CHARS // len(chinese) + 2))[: MAX_GROW_CHARS + 5]
    app.text_area(key="lg_grow_text").set_value(text).run()
    assert not app.exception and len(charts(app)) == 1
    assert app.text_area(key="lg_grow_text").value == text  # nothing typed is lost
    warnings = [w.value for w in app.warning]
    assert any(f"{len(text):,} characters" in w and f"first {MAX_GROW_CHARS:,}" in w
               for w in warnings), warnings
    train, held = MAX_GROW_CHARS * 70 // 100, MAX_GROW_CHARS - MAX_GROW_CHARS * 70 // 100
    assert any(f"{train:,} training and {held:,} held-out characters" in c.value for c in app.caption)
    (status,) = app.status
    assert f"the {held:,} held-out characters" in status.label


# --- the ui layer's pure parts: chart builders and frames -------------------------------------


def test_chart_builders_are_pure_frame_to_figure():
    from tokenizer_core.measure.language_costs import premium, utf8_bytes
    from tokenizer_core.measure.vocab_growth import grow_curve
    from tokenizer_core.samples import parse_parallel
    from ui.languages import charts as charts_ui
    from ui.languages import tables as tables

    pairs = parse_parallel("en\tzh\nGood morning.\t早上好。\nI like tea.\t我喜欢茶。\n")
    results = {"UTF-8 bytes": premium(pairs, utf8_bytes), "chars": premium(pairs, len)}
    fig = charts_ui.premium_chart(tables.premium_frame(results))
    bars = [t for t in fig.data if t.type == "bar" and t.showlegend is False]  # not the legend's
    assert [b.name for b in bars] == ["ratio of totals", "median of per-pair ratios"]
    assert list(bars[0].y) == [pytest.approx(27 / 24), pytest.approx(9 / 24)]
    assert any(t.name == "1× = same as English" for t in fig.data)
    rates = charts_ui.tokens_per_char_chart(tables.rates_frame(results))
    rate_bars = [t for t in rates.data if t.showlegend is False]
    assert [t.name for t in rate_bars] == ["English", "Chinese"]
    assert list(rate_bars[1].y) == [3.0, 1.0]  # Chinese: 3 bytes per character; 1 char each

    dots = tables.pair_ratio_frame(results, pairs)
    assert "&lt;" not in "".join(dots["hover"]) and len(dots) == 4
    assert charts_ui.pair_ratio_chart(dots).data[0].boxpoints == "all"

    many = pd.DataFrame({"tokenizer": "t", "ratio": [float(i % 97) for i in range(MAX_PAIR_POINTS)]
                         + [500.0, -400.0], "hover": "h"})
    box, outliers = charts_ui.pair_ratio_chart(many).data[:2]
    ratios = list(many["ratio"])
    q1, median, q3 = statistics.quantiles(ratios, n=4, method="inclusive")  # plotly's "linear"
    assert (box.q1, box.median, box.q3) == (pytest.approx((q1,)), pytest.approx((median,)), pytest.approx((q3,)))
    assert box.y is None and box.upperfence == (96.0,) and box.lowerfence == (0.0,)
    assert list(outliers.y) == [500.0, -400.0]  # only the pairs beyond the whiskers are dots

    table = tables.emoji_table([e for e in emoji_catalogue()][:3], {"x": [1, 2, 3]})
    heat = charts_ui.emoji_chart(tables.emoji_chart_frame(table, ["x"]))
    assert list(heat.data[0].y) == ["code points", "UTF-8 bytes", "x"]

    curve = grow_curve("你你你好好我", "你好吗")
    refs = pd.DataFrame({"label": ["GPT-2"], "tokens": [6]})
    grown = charts_ui.grow_chart(tables.grow_frame(curve), refs, n=2)
    assert list(grown.data[0].y) == [9, 7, 5, 5] and list(grown.data[1].y) == [5]
    assert [s.y0 for s in grown.layout.shapes] == [6]

