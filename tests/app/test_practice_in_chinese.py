"""The Practice page with `lang=zh` in the link: its title, tabs, exercise text and feedback are
the catalog's Chinese (the exercise data's own sentences included), the code stays as it is, and
every number on screen is the one the English page shows (issue 20)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from tests.shared import tiktoken_encoding
from tokenizer_core.lessons.practice import exercise, guess_texts
from ui.common import i18n

from .conftest import REPO, TIMEOUT_S, open_link
from .screen_numbers import numbers

PAGE = "pages/practice.py"
ZH = i18n.translations("zh")


def run(lang: str, query: dict[str, str]) -> AppTest:
    app = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_link(app, PAGE, {**query, **({"lang": lang} if lang != "en" else {})})
    return app


def test_the_exercise_and_its_feedback_speak_chinese():
    app = run("zh", {})
    trainer = exercise("bpe_trainer")
    assert app.title[0].value == ZH.gettext("Practice") == "练习"
    assert ZH.gettext(trainer.intro) in [c.value for c in app.main.caption]
    assert app.text_input(key="pr_bpe_trainer_2").label == ZH.gettext("Blank {n}").format(n=2)
    app.text_input(key="pr_bpe_trainer_2").input("pair_counts[pair] + count").run()
    why = next(w.why for w in trainer.blanks[1].wrong if w.answer == "pair_counts[pair] + count")
    assert [w.body for w in app.warning] == [ZH.gettext("Not yet: {why}").format(
        why=ZH.gettext(why))]
    app.text_input(key="pr_bpe_trainer_2").input("count + pair_counts.get(pair, 0)").run()
    assert [s.body for s in app.success] == [ZH.gettext("Correct!")]
    app.button(key="pr_hint_bpe_trainer_1").click().run()
    assert ZH.gettext(trainer.blanks[0].hint) in app.info[0].body
    # the tabs are shown in Chinese and linked in English
    assert app.session_state["pr_tab"] == ZH.gettext(trainer.title)
    assert app.query_params["pr_tab"] == trainer.title


def test_a_syntax_error_points_at_the_column_in_chinese():
    app = run("zh", {})
    app.text_input(key="pr_bpe_trainer_2").input("pair_counts.get(pair 0) + count").run()
    header = app.error[0].body
    assert header.startswith("Python 还读不懂这一行") and "第 1 行" in header
    assert app.code[-1].value.splitlines()[0] == "pair_counts.get(pair 0) + count"


def test_the_guess_is_scored_in_chinese():
    app = run("zh", {"pr_tab": "Guess the count"})
    first = guess_texts()[0]
    exact = len(tiktoken_encoding("gpt2").encode_ordinary(first.text))
    assert ZH.gettext(first.label) in app.markdown[0].value
    app.number_input(key="pr_guess").set_value(exact + 1).run()
    app.button(key="pr_reveal").click().run()
    assert app.button(key="pr_reveal").label == ZH.gettext("Reveal")
    said = (app.success or app.warning)[0].body
    assert said.startswith(ZH.gettext("{off} too high ({percent} off): the count is {count}: "
                                      "{points}").split("{off}")[0] + "1")


def _guessed(app: AppTest, guess: int) -> AppTest:
    app.number_input(key="pr_guess").set_value(guess).run()
    app.button(key="pr_reveal").click().run()
    return app


@pytest.mark.parametrize("query", [
    {},
    {"pr_tab": "Random masking", "pr_code": "bpe_encoder", "pr_share": "30", "pr_seed": "4242"},
    {"pr_tab": "Guess the count"},
])
def test_the_numbers_are_the_same_in_both_languages(query):
    english, chinese = run("en", query), run("zh", query)
    if query.get("pr_tab") == "Guess the count":
        english, chinese = _guessed(english, 3), _guessed(chinese, 3)
    elif not query:  # one wrong answer, one syntax error: their sentences hold numbers
        for app in (english, chinese):
            app.text_input(key="pr_bpe_trainer_1").input("zip(split, split)").run()
            app.text_input(key="pr_bpe_trainer_2").input("pair_counts.get(pair 0) + count").run()
    assert numbers(english) == numbers(chinese)
    assert sum(numbers(english).values()) >= 5
