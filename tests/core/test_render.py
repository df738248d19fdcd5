"""The escaping renderer: the one road from user text to HTML. Injection payloads stay text."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.shared import PAYLOAD_LINES as PAYLOADS
from tests.shared import core
from tokenizer_core import corpus_from_counts, corpus_from_text, train_bpe
from tokenizer_core.measure.merge_prefix import model_with_first
from tokenizer_core.modelfile import bpe_model
from tokenizer_core.render import PALETTE_SIZE, RenderOptions, render_tokens

ALLOWED = {"div": {"class", "style"}, "span": {"class", "data-i", "data-s", "data-e", "title"}}


FIXED_STYLE = "white-space: pre-wrap"  # the one inline style: the text's own line breaks


class Structure(HTMLParser):
    """Collects every tag, attribute and the text, as a browser's parser would see them."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []
        self.spans: list[dict[str, str | None]] = []
        self.comments: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        if tag == "span":
            self.spans.append(dict(attrs))

    def handle_data(self, data):
        self.text.append(data)

    def handle_comment(self, data):
        self.comments.append(data)


def parse(markup: str) -> Structure:
    parser = Structure()
    parser.feed(markup)
    parser.close()
    return parser


@pytest.mark.parametrize("payload", PAYLOADS)
def test_injection_payloads_come_out_as_text_only(gpt2, payload):
    tokens = gpt2.encode(payload, disallowed_special=())
    for options in (RenderOptions(), RenderOptions(view="bytes"), RenderOptions(visible_whitespace=True)):
        structure = parse(render_tokens(payload, tokens, options))
        for tag, attrs in structure.tags:
            assert tag in ALLOWED and set(attrs) <= ALLOWED[tag], (tag, attrs)
            assert attrs.get("style") in (None, FIXED_STYLE), attrs  # no style comes from the text
        assert not structure.comments
    # In the text view with nothing split, what a reader sees is exactly the payload.
    if not any(t.partial for t in tokens):
        assert "".join(parse(render_tokens(payload, tokens)).text) == payload


def test_word_level_payloads_with_gaps_stay_text():
    payload = '</span><script>alert(1)</script> "><img src=x onerror=alert(1)>'
    model = bpe_model(train_bpe(corpus_from_text(payload, "word"), 10))
    structure = parse(render_tokens(payload, model.encode(payload)))
    assert {tag for tag, _ in structure.tags} <= {"div", "span"}
    assert "".join(structure.text).replace("</w>", "") == payload


def test_neighbours_never_share_a_colour_and_boundaries_alternate(gpt2):
    text = "the cat sat on the mat, and the dog sat on the log"
    spans = parse(render_tokens(text, gpt2.encode(text))).spans
    colours = [next(c for c in s["class"].split() if c[0] == "c" and c[1:].isdigit()) for s in spans if "tok" in s["class"]]
    assert all(a != b for a, b in zip(colours, colours[1:]))
    assert len(set(colours)) == min(PALETTE_SIZE, len(colours))
    alternating = ["alt" in s["class"].split() for s in spans if "tok" in s["class"]]
    assert all(a != b for a, b in zip(alternating, alternating[1:]))


def test_split_characters_show_bytes_never_replacement_char(gpt2):
    text = "你好，世界🙂"
    markup = render_tokens(text, gpt2.encode(text))
    shown = "".join(parse(markup).text)
    assert "\ufffd" not in shown
    assert "<E4 BD>" in shown and "partial" in markup


def test_hover_title_has_id_hex_and_piece(gpt2):
    spans = parse(render_tokens("hello world", gpt2.encode("hello world"))).spans
    assert spans[1]["title"] == "id 995 · bytes 20 77 6F 72 6C 64 · ' world'"
    assert (spans[1]["data-s"], spans[1]["data-e"]) == ("5", "11")


def test_views_ids_and_bytes(gpt2):
    tokens = gpt2.encode("hello world")
    assert "".join(parse(render_tokens("hello world", tokens, RenderOptions(view="ids"))).text) == "31373995"
    byte_text = parse(render_tokens("hello world", tokens, RenderOptions(view="bytes"))).text
    assert byte_text == ["68 65 6C 6C 6F", "20 77 6F 72 6C 64"]


def test_disagreements_and_specials_are_marked(gpt2):
    tokens = gpt2.encode("a<|endoftext|>b", allowed_special="all")
    spans = parse(render_tokens("a<|endoftext|>b", tokens, disagree=frozenset({0}))).spans
    assert "diff" in spans[0]["class"] and "diff" not in spans[1]["class"]
    assert "special" in spans[1]["class"]


@given(text=st.text(max_size=40))
def test_any_text_renders_to_allowed_structure_only(gpt2, text):
    tokens = gpt2.encode(text, disallowed_special=())
    for tag, attrs in parse(render_tokens(text, tokens)).tags:
        assert tag in ALLOWED and set(attrs) <= ALLOWED[tag]


def test_unknown_tokens_show_what_the_model_sees_and_the_lost_text_on_hover():
    from tokenizer_core import WordPieceTokenizer

    model = WordPieceTokenizer.from_vocab(["[UNK]", "un", "##believ", "##able"])
    tokens = model.encode("unbelievable 你好")
    assert [t.piece for t in tokens] == ["un", "##believ", "##able", "[UNK]"]
    assert [t.unknown for t in tokens] == [False, False, False, True]
    spans = parse(render_tokens("unbelievable 你好", tokens)).spans
    assert "unk" in spans[-1]["class"] and "stands in for '你好'" in spans[-1]["title"]
    assert parse(render_tokens("unbelievable 你好", tokens)).text[-1] == "[UNK]"


def test_a_token_of_only_invisible_characters_shows_their_names():
    text = "👨\u200d👩"  # o200k_base gives the joiner U+200D a token of its own
    tokens = core("o200k_base").encode(text)
    zwj = next(t for t in tokens if t.bytes == "\u200d".encode())
    assert zwj.display(name_invisible=True) == "ZWJ" and zwj.display() == "\u200d"
    assert "ZWJ" in parse(render_tokens(text, tokens)).text


class TokenTexts(HTMLParser):
    """What each token box shows: the text inside each `tok` span, nested spans included."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.texts: list[str] = []
        self.depth = 0  # span depth inside the current token box; 0: outside any

    def handle_starttag(self, tag, attrs):
        if tag != "span":
            return
        if self.depth:
            self.depth += 1
        elif "tok" in (dict(attrs).get("class") or "").split():
            self.texts.append("")
            self.depth = 1

    def handle_endtag(self, tag):
        if tag == "span" and self.depth:
            self.depth -= 1

    def handle_data(self, data):
        if self.depth:
            self.texts[-1] += data


def token_texts(markup: str) -> list[str]:
    parser = TokenTexts()
    parser.feed(markup)
    return parser.texts


def test_the_end_of_word_marker_is_shown_in_the_token_that_holds_it():
    """Issue 9, item 12: one rule for `</w>` everywhere: always shown, in its own token's box.

    low lower newest widest (5, 2, 6, 3): merges es, est, est</w>, lo, low, ... so `lowest` is
    low + est</w>; with the first 5 merges, `low` is low + a lone </w> (low</w> comes later).
    """
    training = train_bpe(corpus_from_counts({"low": 5, "lower": 2, "newest": 6, "widest": 3}), 10)
    model = bpe_model(training)
    assert token_texts(render_tokens("lowest", model.encode("lowest"))) == ["low", "est</w>"]
    first_five = model_with_first(training, 5)
    assert token_texts(render_tokens("low", first_five.encode("low"))) == ["low", "</w>"]
    # visible whitespace and the other views leave the marker where it is, or show bytes only
    shown = render_tokens("lowest", model.encode("lowest"), RenderOptions(visible_whitespace=True))
    assert token_texts(shown) == ["low", "est</w>"]
    ids = render_tokens("lowest", model.encode("lowest"), RenderOptions(view="bytes"))
    assert token_texts(ids) == ["6C 6F 77", "65 73 74"]


def test_a_line_break_stays_a_line_break_outside_the_token_boxes(gpt2):
    """Issue 9, items 8 and 9: visible whitespace shows ↵ and the line still breaks; the break
    is drawn between boxes, never inside one, so a wrapped box is never mistaken for two."""
    text = "def f(x):\n    return x\r\n\n"
    tokens = gpt2.encode(text)
    shown = render_tokens(text, tokens, RenderOptions(visible_whitespace=True))
    assert not any("\n" in t or "\r" in t for t in token_texts(shown))
    assert "".join(parse(shown).text).split("\n") == ["def·f(x):↵", "····return·x←↵", "↵", ""]
    plain = render_tokens(text, tokens)
    assert not any("\n" in t or "\r" in t for t in token_texts(plain))
    assert "".join(parse(plain).text).split("\n") == ["def f(x):", "    return x", "", ""]


def test_the_view_keeps_its_line_breaks_without_the_page_stylesheet(gpt2):
    """The stylesheet is a separate element that may arrive after the view (in CI the four lines
    of a code snippet were drawn as one): the view itself says its white space is kept."""
    text = "a\nb\n"
    (tag, attrs), *_ = parse(render_tokens(text, gpt2.encode(text))).tags
    assert tag == "div" and "tokview" in attrs["class"] and attrs["style"] == FIXED_STYLE


def test_a_token_that_holds_a_line_break_is_one_box_per_line_and_says_so():
    text = "end.\n\n\nNext"
    tokens = core("o200k_base").encode(text)
    assert [t.bytes for t in tokens] == [b"end", b".\n\n\n", b"Next"]
    spans = [s for s in parse(render_tokens(text, tokens)).spans if s["data-i"] == "1"]
    assert len(spans) == 3  # '.' then two empty lines: one box per line the token reaches
    first, middle, last = (set(s["class"].split()) for s in spans)
    assert "cut" in first and "cont" not in first and {"cut", "cont"} <= middle
    assert "cont" in last and "cut" not in last and first - {"cut"} == last - {"cont"}
    assert len({s["title"] for s in spans}) == 1
    shown = render_tokens(text, tokens, RenderOptions(visible_whitespace=True))
    assert token_texts(shown) == ["end", ".↵", "↵", "↵", "Next"]


def test_gaps_keep_their_line_breaks_with_visible_whitespace():
    from tokenizer_core import WordPieceTokenizer

    model = WordPieceTokenizer.from_vocab(["[UNK]", "a", "b"])
    shown = render_tokens("a\n  b", model.encode("a\n  b"), RenderOptions(visible_whitespace=True))
    assert "".join(parse(shown).text) == "a↵\n··b"


# --- SentencePiece's ▁ (issue 10/11) -------------------------------------------------------------


def test_sentencepiece_pieces_show_their_space_mark_and_byte_level_ones_do_not():
    """Mistral 7B (the sentencepiece library over its own file) draws ▁Hello ▁world, as the
    model holds them; GPT-2 draws its text; a typed ▁ is drawn once, as typed."""
    import sentencepiece as spm

    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path
    from tokenizer_core.registry import load_tokenizer
    from tokenizer_core.render import token_label

    own = spm.SentencePieceProcessor(model_file=str(packaged_path(OPEN_MODELS["mistral-7b"].file)))
    text = "Hello world  two"
    labels = [token_label(t, "text", False) for t in load_tokenizer("mistral-7b").encode(text)]
    assert labels == own.encode(text, out_type=str)  # the library's own pieces, ▁ and all
    assert [token_label(t, "text", False) for t in load_tokenizer("gpt2").encode(text)] == [
        "Hello", " world", " ", " two"]
    typed = [token_label(t, "text", False) for t in load_tokenizer("mistral-7b").encode("a▁b")]
    assert "".join(typed).count("▁") == 2  # the dummy prefix before a, and the typed one
    markup = render_tokens(text, load_tokenizer("mistral-7b").encode(text), RenderOptions())
    assert "▁world" in "".join(parse(markup).text)
