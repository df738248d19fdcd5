"""The Practice page, driven by AppTest: answers right and wrong, hint and answer, random masking
with a seed from the link, reshuffle, a guess series scored against tiktoken's counts, and
nothing shared between two sessions."""

from __future__ import annotations

import re

from tests.shared import tiktoken_encoding
from tokenizer_core.lessons.practice import (
    exercise,
    guess_texts,
    hidden_count,
    mask_slots,
    quoted_code,
)

from .conftest import open_link, open_page, shown

PAGE = "pages/practice.py"


def open_tab(app, tab: str):
    open_page(app, PAGE)
    app.session_state["pr_tab"] = tab
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def metric(app, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def test_the_page_is_listed_and_opens_on_the_first_exercise(app):
    open_page(app, PAGE)
    assert app.title[0].value == "Practice"
    assert [t.label for t in app.tabs] == ["BPE trainer", "BPE encoder", "WordPiece score",
                                           "UTF-8 bytes", "Tiny tokenizer", "Random masking",
                                           "Guess the count"]
    code = app.code[0].value
    assert "def count_pairs(" in code and "def textbook_train(" in code
    assert "__1__" in code and "__4__" in code and "pair_counts.get(pair, 0) + count" not in code


def test_a_right_answer_is_correct_and_counted(app):
    open_page(app, PAGE)
    app.text_input(key="pr_bpe_trainer_2").input("count + pair_counts.get( pair,0 )").run()
    assert [s.body for s in app.success] == ["Correct!"]
    assert metric(app, "Blanks right") == "1 / 4"


def test_a_known_wrong_answer_says_why_and_an_unknown_one_points_to_the_hint(app):
    open_page(app, PAGE)
    app.text_input(key="pr_bpe_trainer_2").input("pair_counts[pair] + count").run()
    assert "KeyError" in app.warning[0].body
    app.text_input(key="pr_bpe_trainer_3").input("min(pair_counts)").run()
    assert any("Try the hint" in w.body for w in app.warning)
    assert metric(app, "Blanks right") == "0 / 4"


def test_a_syntax_error_points_at_the_column(app):
    open_page(app, PAGE)
    app.text_input(key="pr_bpe_trainer_2").input("pair_counts.get(pair 0) + count").run()
    assert "column 17" in app.error[0].body
    pointer = [c.value for c in app.code if c.value.endswith("^")][0]
    assert pointer.splitlines() == ["pair_counts.get(pair 0) + count", " " * 16 + "^"]


def test_hint_and_show_answer(app):
    open_page(app, PAGE)
    app.button(key="pr_hint_bpe_trainer_3").click().run()
    assert exercise("bpe_trainer").blanks[2].hint in app.info[0].body
    app.button(key="pr_reveal_bpe_trainer_3").click().run()
    assert app.text_input(key="pr_bpe_trainer_3").value == "max(pair_counts, key=pair_counts.get)"
    app.button(key="pr_check_bpe_trainer_3").click().run()
    assert "Correct!" in [s.body for s in app.success]


def test_another_exercise_tab_quotes_its_own_code(app):
    open_tab(app, "UTF-8 bytes")
    code = app.code[0].value
    assert "def byte_role(" in code and "class ByteToChar" in code
    app.text_input(key="pr_utf8_bytes_1").input("b <= 127").run()
    assert "Correct!" in [s.body for s in app.success]


def summary(app) -> str:
    return next(m.body for m in app.markdown if "blanks possible" in m.body)


def test_masking_from_a_link_gives_that_mask(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_code": "wordpiece_score",
                    "pr_share": "30", "pr_seed": "4242"})
    possible = len(mask_slots(quoted_code(exercise("wordpiece_score"))))
    hidden = hidden_count(possible, 30)
    assert summary(app) == f"**{possible} blanks possible, {hidden} hidden** · seed **4242**"
    assert app.selectbox(key="pr_share").value == 30
    assert app.query_params["pr_seed"] == "4242" and app.query_params["pr_share"] == "30"
    # answer every blank from the hidden tokens shown by "Show the answers"
    app.toggle(key="pr_mask_answers").set_value(True).run()
    answers = [line.split(": ", 1)[1] for line in app.code[-1].value.splitlines()]
    assert len(answers) == hidden
    boxes = [t for t in app.text_input if t.key.startswith("pr_m_")]
    for box, answer in zip(boxes, answers):
        box.input(answer)
    boxes[0].input("not_it")
    app.button(key="pr_mask_check").click().run()
    assert metric(app, "Score") == f"{hidden - 1} / {hidden}"
    assert "blanks 1" in app.warning[0].body


def test_reshuffle_draws_a_new_seed_and_writes_it_into_the_link(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_seed": "17"})
    assert "seed **17**" in summary(app)
    app.button(key="pr_reshuffle").click().run()
    seed = app.number_input(key="pr_seed").value
    assert seed != 17 and f"seed **{seed}**" in summary(app)
    assert app.query_params["pr_seed"] == str(seed)


def test_a_bad_link_value_gives_a_note_and_the_default(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_share": "25", "pr_code": "nope",
                    "pr_seed": "9" * 5_000})
    notes = " ".join(shown(c.body) for c in app.caption)
    assert "pr_share" in notes and "pr_code" in notes and "pr_seed" in notes
    assert 0 <= app.number_input(key="pr_seed").value <= 999_999
    assert app.selectbox(key="pr_share").value == 15


def test_a_guess_series_scored_against_tiktoken(app):
    open_tab(app, "Guess the count")
    gpt2 = tiktoken_encoding("gpt2")
    first, second = guess_texts()[:2]
    assert app.code[0].value == first.text
    exact = len(gpt2.encode_ordinary(first.text))
    app.number_input(key="pr_guess").set_value(exact).run()
    app.button(key="pr_reveal").click().run()
    assert app.success[0].body.startswith(f"Exactly right: {exact} tokens")
    assert metric(app, "Running score") == "10 / 10"
    markup = "".join(h.proto.body for h in app.get("html"))  # the coloured view, one per token
    assert len(re.findall(r'<span class="tok c\d', markup)) == exact
    app.button(key="pr_next").click().run()
    assert app.code[0].value == second.text
    count = len(gpt2.encode_ordinary(second.text))
    app.number_input(key="pr_guess").set_value(count * 2).run()
    app.button(key="pr_reveal").click().run()
    assert "too high (100% off)" in app.warning[0].body
    assert metric(app, "Running score") == "10 / 20"


def test_reveal_without_a_guess_asks_for_one_and_own_text_is_scored(app):
    open_tab(app, "Guess the count")
    app.button(key="pr_reveal").click().run()
    assert "Type your guess first" in app.error[0].body
    app.segmented_control(key="pr_source").set_value("own").run()
    app.text_area(key="pr_own_text").input("<b>你好</b> 🙂").run()
    count = len(tiktoken_encoding("gpt2").encode_ordinary("<b>你好</b> 🙂"))
    app.number_input(key="pr_guess").set_value(count).run()
    app.button(key="pr_reveal").click().run()
    assert app.success[0].body.startswith(f"Exactly right: {count} tokens")
    assert "<b>" not in "".join(m.body for m in app.markdown)  # shown as code, never markup


def test_guessing_with_o200k_uses_its_count(app):
    open_tab(app, "Guess the count")
    app.selectbox(key="pr_tok").set_value("o200k_base").run()
    text = guess_texts()[0].text
    count = len(tiktoken_encoding("o200k_base").encode_ordinary(text))
    app.number_input(key="pr_guess").set_value(count + 1).run()
    app.button(key="pr_reveal").click().run()
    assert f"the count is {count}" in " ".join(s.body for s in [*app.success, *app.warning])


def test_nothing_one_student_types_reaches_another(app):
    from streamlit.testing.v1 import AppTest

    from .conftest import REPO, TIMEOUT_S

    open_page(app, PAGE)
    app.text_input(key="pr_bpe_trainer_1").input("secret_answer_xyz").run()
    other = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_page(other, PAGE)
    assert other.text_input(key="pr_bpe_trainer_1").value == ""
    assert not other.warning and not other.success


def test_the_tiny_tokenizer_runs_on_the_page(app):
    open_tab(app, "Tiny tokenizer")
    app.text_input(key="pr_tiny_text").input("hi <|endoftext|> 你好").run()
    shown_code = next(c.value for c in app.code if c.value.startswith("encode(text) = "))
    ids = [int(i) for i in re.findall(r"\d+", shown_code.splitlines()[0])]
    assert 256 + 40 in ids  # <|endoftext|>: after the 256 bytes and the 40 merges
    assert shown_code.splitlines()[1] == "decode(encode(text)) == text: True"


def test_a_link_opens_an_exercise_tab_and_the_link_follows_the_tab(app):
    open_link(app, PAGE, {"pr_tab": "WordPiece score"})
    assert "def pair_score(" in app.code[0].value
    assert app.query_params["pr_tab"] == "WordPiece score"
    app.session_state["pr_tab"] = "Guess the count"
    app.run()
    assert app.query_params["pr_tab"] == "Guess the count"
