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


def code_shown(app) -> str:
    """The exercise's code as the page draws it (HTML, its text unescaped)."""
    import html as html_module
    body = next(h.proto.body for h in app.get("html") if 'class="prcode"' in h.proto.body)
    return html_module.unescape(re.sub(r"<[^>]+>", "", body.split("</style>", 1)[1]))


def metric(app, label: str) -> str:
    return next(m.value for m in app.metric if m.label == label)


def test_the_page_is_listed_and_opens_on_the_first_exercise(app):
    open_page(app, PAGE)
    assert app.title[0].value == "Practice"
    assert [t.label for t in app.tabs] == ["BPE trainer", "BPE encoder", "WordPiece score",
                                           "UTF-8 bytes", "Tiny tokenizer", "Random masking",
                                           "Guess the count"]
    code = code_shown(app)
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
    code = code_shown(app)
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
    assert "def pair_score(" in code_shown(app)
    assert app.query_params["pr_tab"] == "WordPiece score"
    app.session_state["pr_tab"] = "Guess the count"
    app.run()
    assert app.query_params["pr_tab"] == "Guess the count"


# --- nothing a student typed is lost by a visit to another page ----------------------------------

PLAYGROUND = "pages/playground.py"


def away_and_back(app) -> None:
    """Look at the Playground, then come back to Practice (Streamlit drops every widget the
    Playground run did not draw)."""
    app.switch_page(PLAYGROUND).run()
    assert app.title[0].value != "Practice"
    app.switch_page(PAGE).run()
    assert not app.exception, [e.value for e in app.exception]


def mask_boxes(app) -> list:
    return [t for t in app.text_input if t.key.startswith("pr_m_")]


def test_masked_answers_and_the_score_survive_a_visit_to_another_page(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_code": "wordpiece_score",
                          "pr_share": "30", "pr_seed": "4242"})
    app.toggle(key="pr_mask_answers").set_value(True).run()
    answers = [line.split(": ", 1)[1] for line in app.code[-1].value.splitlines()]
    app.toggle(key="pr_mask_answers").set_value(False).run()
    typed = ["not_it", *answers[1:]]
    for box, text in zip(mask_boxes(app), typed):
        box.input(text)
    app.button(key="pr_mask_check").click().run()
    assert metric(app, "Score") == f"{len(answers) - 1} / {len(answers)}"
    away_and_back(app)
    assert [b.value for b in mask_boxes(app)] == typed
    assert "seed **4242**" in summary(app)
    assert metric(app, "Score") == f"{len(answers) - 1} / {len(answers)}"
    assert "blanks 1" in app.warning[0].body
    away_and_back(app)  # and again: what came back is kept, not only what was typed
    assert [b.value for b in mask_boxes(app)] == typed


def test_a_recent_mask_keeps_its_answers_after_a_reshuffle(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_seed": "17"})
    mask_boxes(app)[0].input("first mask").run()
    app.button(key="pr_reshuffle").click().run()
    assert all(b.value == "" for b in mask_boxes(app))  # a new mask starts empty
    mask_boxes(app)[0].input("second mask").run()
    away_and_back(app)
    assert mask_boxes(app)[0].value == "second mask"
    app.number_input(key="pr_seed").set_value(17).run()
    assert mask_boxes(app)[0].value == "first mask"


def test_an_answer_typed_just_before_leaving_is_kept(app):
    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_seed": "17"})
    mask_boxes(app)[1].input("typed, then off to the Playground")  # sent with the page switch
    away_and_back(app)
    assert mask_boxes(app)[1].value == "typed, then off to the Playground"


def test_reshuffling_many_times_keeps_at_most_the_bound(app):
    from ui.practice.limits import MAX_KEPT_MASKS
    from ui.practice.masking_view import TYPED_KEY

    open_link(app, PAGE, {"pr_tab": "Random masking", "pr_seed": "17"})
    seeds = []
    for i in range(MAX_KEPT_MASKS + 3):
        seeds.append(app.number_input(key="pr_seed").value)
        mask_boxes(app)[0].input(f"answer {i}").run()
        app.button(key="pr_reshuffle").click().run()
    kept = app.session_state[TYPED_KEY]
    assert len(kept) == MAX_KEPT_MASKS
    boxes = [k for k in app.session_state if k.startswith("pr_m_")]
    assert len(boxes) == len(mask_boxes(app))  # only the boxes on screen are widgets
    away_and_back(app)
    assert len(app.session_state[TYPED_KEY]) == MAX_KEPT_MASKS
    app.number_input(key="pr_seed").set_value(seeds[-1]).run()  # the newest is kept
    assert mask_boxes(app)[0].value == f"answer {len(seeds) - 1}"
    app.number_input(key="pr_seed").set_value(seeds[0]).run()  # the oldest went first
    assert mask_boxes(app)[0].value == ""
    assert len(app.session_state[TYPED_KEY]) <= MAX_KEPT_MASKS


def test_one_students_masked_answers_never_reach_another(app):
    from streamlit.testing.v1 import AppTest

    from ui.practice.masking_view import TYPED_KEY

    from .conftest import REPO, TIMEOUT_S

    query = {"pr_tab": "Random masking", "pr_seed": "4242"}
    open_link(app, PAGE, query)
    mask_boxes(app)[0].input("secret_mask_xyz").run()
    app.button(key="pr_mask_check").click().run()
    other = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_link(other, PAGE, query)
    assert "seed **4242**" in summary(other)
    assert [b.value for b in mask_boxes(other)] == [""] * len(mask_boxes(app))
    assert not other.session_state.get(TYPED_KEY) and not other.metric
    assert "secret_mask_xyz" not in repr(other.session_state.to_dict())


def test_exercise_answers_and_their_verdicts_survive_a_visit_to_another_page(app):
    open_page(app, PAGE)
    app.text_input(key="pr_bpe_trainer_2").input("count + pair_counts.get(pair, 0)").run()
    app.text_input(key="pr_bpe_trainer_3").input("max(pair_counts)").run()
    away_and_back(app)
    assert app.text_input(key="pr_bpe_trainer_2").value == "count + pair_counts.get(pair, 0)"
    assert app.text_input(key="pr_bpe_trainer_3").value == "max(pair_counts)"
    assert [s.body for s in app.success] == ["Correct!"]
    assert metric(app, "Blanks right") == "1 / 4"


def test_a_guess_and_its_own_text_survive_a_visit_to_another_page(app):
    open_link(app, PAGE, {"pr_tab": "Guess the count"})  # a tab chosen as a click would keep it
    app.selectbox(key="pr_tok").set_value("o200k_base").run()
    app.segmented_control(key="pr_source").set_value("own").run()
    app.text_area(key="pr_own_text").input("a text of my own").run()
    app.number_input(key="pr_guess").set_value(7).run()
    away_and_back(app)
    assert app.selectbox(key="pr_tok").value == "o200k_base"
    assert app.segmented_control(key="pr_source").value == "own"
    assert app.text_area(key="pr_own_text").value == "a text of my own"
    assert app.number_input(key="pr_guess").value == 7


def test_the_guess_caption_states_the_rule_the_points_follow(app):
    # read the rule from the caption the page shows, then score guesses on the page against it
    open_tab(app, "Guess the count")
    caption = next(shown(c.body) for c in app.caption if "exact count" in shown(c.body))
    top = int(re.search(r"(\d+) points for the exact count", caption).group(1))
    step = int(re.search(r"one point fewer for each (\d+)% off or part of it", caption).group(1))
    text = guess_texts()[0].text
    count = len(tiktoken_encoding("gpt2").encode_ordinary(text))
    for off in (1, 2, -1, -(count // 3), count):  # 9 tokens: 11%, 22%, 11%, 33%, 100% off
        app.number_input(key="pr_guess").set_value(count + off).run()
        app.button(key="pr_reveal").click().run()
        said = " ".join(s.body for s in [*app.success, *app.warning])
        steps = -(-abs(off) * 100 // (count * step))  # 5% steps off, a part counting whole
        assert re.search(rf": {max(0, top - steps)} points?\.", said), (off, count, said)
