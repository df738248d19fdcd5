"""The Sequences chat tab renders a found model's own chat template (#21), driven by AppTest.

A models folder made by the test (tests/chat_template_files.py: DeepSeek-V4's tokenizer.json
with ChatML's markers added, and a template beside it) is named by TOKEX_MODELS_DIR. The
page's example conversation is the first of CONVERSATIONS, so its token count must be the
length of the ids transformers' `apply_chat_template(tokenize=True)` gave for it
(tests/data/chat_templates/golden.json, recorded by transformers itself). A template that
raises its own error is named with that error while the others show.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import shutil
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.chat_template_files import CONVERSATIONS, folders
from tokenizer_core.reference.open_models import DEEPSEEK_FILE, packaged_path

from .conftest import REPO, TIMEOUT_S, open_link, open_page, shown

PAGE = "pages/sequences.py"
GOLDEN = json.loads((Path(__file__).resolve().parents[1] / "data" / "chat_templates" /
                     "golden.json").read_text(encoding="utf-8"))["folders"]


@pytest.fixture
def models(tmp_path, monkeypatch):
    made = folders(tmp_path / "models", packaged_path(DEEPSEEK_FILE))
    for name in ("llama3", "tojson", "named"):  # three workers are enough here
        shutil.rmtree(made[name])
    monkeypatch.setenv("TOKEX_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "no-cache"))
    return made


def chat_tab(app: AppTest, query: dict[str, str] | None = None) -> AppTest:
    open_page(app, PAGE, query)
    app.session_state["sq_tab"] = "Chat templates"
    app.run()
    assert not app.exception, [e.value for e in app.exception]
    return app


def html(app: AppTest) -> str:
    return "".join(h.proto.body for h in app.get("html"))


def test_the_chat_tab_shows_each_found_template_with_transformers_counts(app, models):
    chat_tab(app)
    assert [{"role": r, "content": app.text_area(key=f"sq_c_{r}").value}
            for r in ("system", "user", "assistant")] == list(CONVERSATIONS[0])
    table = next(d.value for d in app.dataframe if "template from" in d.value.columns)
    assert list(table["tokenizer"]) == ["local:chatml", "local:jinja_wins"]
    assert list(table["template from"]) == ["tokenizer_config.json", "chat_template.jinja"]
    for row, name in enumerate(("chatml", "jinja_wins")):
        ids = GOLDEN[name]["conversations"][0]["ids"]
        assert table["tokens"][row] == len(ids), name
        assert table["content"][row] + table["frame text"][row] + table["special tokens"][row] \
            == len(ids)
    # ChatML's markers: each a special token, 6 in three turns
    assert table["special tokens"][0] == 6
    # strict.jinja's raise_exception, in the template's own words, named with its tokenizer
    errors = [shown(e.value) for e in app.error]
    assert any(e.startswith("local:strict: ") and GOLDEN["strict"]["conversations"][0]["error"]
               in e for e in errors), errors
    # per message: three messages found, then the template's framing
    per_message = next(d.value for d in app.dataframe if "found in the rendering" in d.value.columns)
    assert list(per_message["found in the rendering"])[:3] == [True, True, True]
    assert per_message["found in the rendering"].isna().iloc[3]  # the framing: not a message
    assert per_message["tokens"].sum() == table["tokens"][0]
    assert "&lt;|im_start|&gt;" in html(app)
    # the generation prompt adds ChatML's `<|im_start|>assistant\n`: one special, two more
    app.checkbox(key="sq_c_prompt").check().run()
    after = next(d.value for d in app.dataframe if "template from" in d.value.columns)
    assert after["special tokens"][0] == 7 and after["tokens"][0] > table["tokens"][0]
    # the other template's tokens, and its source
    app.radio(key="sq_c_found").set_value("local:jinja_wins").run()
    assert not app.exception
    per_message = next(d.value for d in app.dataframe if "found in the rendering" in d.value.columns)
    assert per_message["tokens"].sum() == len(GOLDEN["jinja_wins"]["conversations"][0]["ids"])
    assert "&lt;&lt;" in html(app)
    assert any("<<{{ m.role }}>>" in c.value for c in app.code)  # chat_template.jinja's text


def test_a_message_with_script_is_drawn_as_text(app, models):
    chat_tab(app)
    app.text_area(key="sq_c_user").set_value("<script>alert(1)</script>").run()
    assert not app.exception
    markup = html(app)
    at = markup.find("<script>alert")
    assert at < 0, markup[max(0, at - 400):at + 100]
    # the words are there, as text: the token views' characters, tags taken away, unescaped
    views = re.findall(r'<div class="tokview".*?</div>', markup, flags=re.S)
    assert any("<script>alert(1)</script>" in html_lib.unescape(re.sub(r"<[^>]+>", "", v))
               for v in views)


def test_the_chat_tab_says_it_in_chinese(app, models, test_thread):
    test_thread.language = "zh"
    chat_tab(app, {"lang": "zh"})
    assert any(s.value == "每个找到的模型自己的对话模板" for s in app.subheader)
    assert any("local:chatml" in list(d.value.iloc[:, 0]) for d in app.dataframe
               if len(d.value.columns) == 7)


def test_a_hostile_template_is_named_with_its_bound_and_the_others_still_show(app, models):
    """One template loops for ever, one builds a giant string: each is stopped in the worker
    that renders templates (chat_worker.py), named with the bound it went over, and the page,
    its server and the other template go on."""
    for name, template in (("loops", "{% for i in range(99999) %}{% for j in range(99999) %}"
                                     "{% endfor %}{% endfor %}"),
                           ("giant", "{{ 'x' * 2000000000 }}")):
        folder = models["chatml"].parent / name
        shutil.copytree(models["jinja_wins"], folder)
        (folder / "chat_template.jinja").write_text(template)
    shutil.rmtree(models["strict"])  # one worker (112 MB) fewer
    chat_tab(app)
    errors = [shown(e.value) for e in app.error]
    assert any(e.startswith("local:loops: ") and "took longer than 10 s" in e for e in errors)
    assert any(e.startswith("local:giant: ") and "512 MB of memory" in e for e in errors)
    table = next(d.value for d in app.dataframe if "template from" in d.value.columns)
    assert list(table["tokenizer"]) == ["local:chatml", "local:jinja_wins"]
    assert table["tokens"][0] == len(GOLDEN["chatml"]["conversations"][0]["ids"])


def test_the_generation_prompt_box_rides_in_the_link(app, models):
    """Ticked, the box writes `sq_c_prompt=1` into the page's link; a session opened from that
    link has it ticked and counts ChatML's prompt (one special token more, as above)."""
    chat_tab(app)
    before = next(d.value for d in app.dataframe if "template from" in d.value.columns)
    app.checkbox(key="sq_c_prompt").check().run()
    assert app.query_params.get("sq_c_prompt") in ("1", ["1"])
    second = AppTest.from_file(str(REPO / "app.py"), default_timeout=TIMEOUT_S)
    open_link(second, PAGE, {"sq_tab": "Chat templates", "sq_c_prompt": "1"})
    assert second.checkbox(key="sq_c_prompt").value is True
    after = next(d.value for d in second.dataframe if "template from" in d.value.columns)
    assert list(after["tokenizer"]) == ["local:chatml", "local:jinja_wins"]
    assert after["special tokens"][0] == before["special tokens"][0] + 1  # ChatML's prompt
