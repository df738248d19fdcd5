"""A model folder's chat template, read, rendered and encoded as transformers does it (#21).

Golden values: tests/data/chat_templates/golden.json, written by transformers 5's own
`apply_chat_template` (record.py, run in a Python that has transformers; see its docstring)
over the folders tests/chat_template_files.py builds, which this test builds too. With
TOKEX_TRANSFORMERS_PYTHON naming such a Python, the live test runs the recorder afresh and
compares with that instead. The hostile templates check the worker's bounds: the server's
process is never the one that loops or allocates, and the next render works.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as hs

from tests.chat_template_files import CONVERSATIONS, folders
from tokenizer_core.measure.chat_template_count import (
    CLOSE,
    OPEN,
    count_template,
    marked,
    spans_from_marked,
)
from tokenizer_core.measure.sequences_chat import Message
from tokenizer_core.messages import Refusal
from tokenizer_core.reference import chat_render, chat_worker
from tokenizer_core.reference.chat_templates import (
    JINJA_FILE,
    MAX_TEMPLATE_CHARS,
    read_template,
    template_of,
)
from tokenizer_core.reference.chat_worker import render_isolated
from tokenizer_core.reference.local_models import open_isolated, scan
from tokenizer_core.reference.open_models import DEEPSEEK_FILE, packaged_path

DATA = Path(__file__).resolve().parents[2] / "data" / "chat_templates"
GOLDEN = json.loads((DATA / "golden.json").read_text(encoding="utf-8"))
LIVE_PYTHON = os.environ.get("TOKEX_TRANSFORMERS_PYTHON")


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("chat_models")
    return root, folders(root, packaged_path(DEEPSEEK_FILE))


@pytest.fixture(scope="module")
def opened(made):
    root, _ = made
    found = scan(folder=root, hf_cache=root / "no-cache")
    # every folder holds the same tokenizer.json: one worker (112 MB) serves them all
    assert len({m.sha256 for m in found.models}) == 1
    tokenizer = open_isolated(found.models[0])
    yield {m.name.removeprefix("local:"): (m, tokenizer) for m in found.models}
    tokenizer.close()


def _messages(conversation: list[dict[str, str]]) -> list[Message]:
    return [Message(m["role"], m["content"]) for m in conversation]  # type: ignore[arg-type]


def check_like(recorded: dict, opened: dict) -> None:
    """Every folder and conversation: the template found, its special tokens, the rendering
    (without and with the generation prompt) and the ids equal what transformers recorded."""
    assert sorted(recorded["folders"]) == sorted(opened)
    for name, expected in recorded["folders"].items():
        model, tokenizer = opened[name]
        template = template_of(model)
        assert template is not None, name
        if expected["chat_template"] is not None:
            assert template.text == expected["chat_template"], name
        assert template.specials == expected["special_tokens_map"], name
        for case in expected["conversations"]:
            messages = case["messages"]
            if "error" in case:
                with pytest.raises(Refusal) as refused:
                    render_isolated(template.text, messages, template.specials)
                assert refused.value.template == chat_render.RAISED
                assert refused.value.values["error"] == case["error"]
                continue
            text = render_isolated(template.text, messages, template.specials)
            assert text == case["text"], name
            assert render_isolated(template.text, messages, template.specials,
                                   add_generation_prompt=True) == case["text_with_prompt"], name
            counted = count_template(tokenizer, text, _messages(messages))
            assert counted.ids == case["ids"], name
            marks = render_isolated(template.text, marked(_messages(messages)), template.specials)
            with_marks = count_template(tokenizer, text, _messages(messages), marks)
            assert with_marks.ids == case["ids"], name
            assert "".join(p.text for p in with_marks.framed.parts) == text


def test_template_rendering_and_ids_equal_transformers_recorded(opened):
    assert len(GOLDEN["folders"]) == 6 and GOLDEN["transformers"].startswith("5.")
    check_like(GOLDEN, opened)


@pytest.mark.skipif(not LIVE_PYTHON, reason="TOKEX_TRANSFORMERS_PYTHON names no Python with "
                                            "transformers")
def test_template_rendering_and_ids_equal_transformers_now(opened):
    live = subprocess.run(
        [LIVE_PYTHON, str(DATA / "record.py"), str(packaged_path(DEEPSEEK_FILE)), "-"],
        capture_output=True, text=True, check=True, timeout=600,
        env={**os.environ, "HF_HUB_OFFLINE": "1"})
    recorded = json.loads(live.stdout)
    check_like(recorded, opened)
    assert recorded["folders"] == GOLDEN["folders"]  # the stored file is still transformers'


def test_each_token_counts_for_one_part_and_the_messages_are_found(opened):
    model, tokenizer = opened["chatml"]
    template = template_of(model)
    messages = list(CONVERSATIONS[0])
    text = render_isolated(template.text, messages, template.specials, True)
    counted = count_template(tokenizer, text, _messages(messages))
    framed = counted.framed
    assert "".join(p.text for p in framed.parts) == text
    assert counted.found == (True, True, True)
    assert [p.text for p in framed.parts if p.kind == "content"] == [m["content"]
                                                                    for m in messages]
    assert framed.total == len(framed.tokens)
    # every marker is one special id; the role names and newlines are frame text
    specials = [p.text for p in framed.parts if p.kind == "special"]
    assert specials == ["<|im_start|>", "<|im_end|>"] * 3 + ["<|im_start|>"]
    assert framed.tokens_of("special") == 7
    assert sum(counted.content_tokens) == framed.tokens_of("content")


def test_the_marks_find_a_message_that_spells_its_own_role_name(opened):
    """A message "user" in ChatML: searching finds the role name first; the marks do not."""
    model, tokenizer = opened["chatml"]
    template = template_of(model)
    messages = [Message("system", "system"), Message("user", "user"),
                Message("assistant", "assistant")]
    text = render_isolated(template.text, [vars(m) for m in messages], template.specials)
    marks = render_isolated(template.text, marked(messages), template.specials)
    parts = count_template(tokenizer, text, messages, marks).framed.parts
    before = [parts[i - 1].text for i, p in enumerate(parts) if p.kind == "content"]
    assert before == ["system\n", "user\n", "assistant\n"]  # each after its own role line
    searched = count_template(tokenizer, text, messages).framed.parts
    assert [p.text for p in searched if p.kind == "content"][0] == "system"
    assert searched.index(next(p for p in searched if p.kind == "content")) == 1  # the role


def _chatml(contents: list[str]) -> tuple[str, list[tuple[int, int]]]:
    text, spans = "", []
    for role, content in zip(("system", "user", "assistant") * 9, contents):
        text += f"<|im_start|>{role}\n"
        spans.append((len(text), len(text) + len(content)))
        text += content + "<|im_end|>\n"
    return text, spans


@given(hs.lists(hs.text(hs.characters(blacklist_characters=OPEN + CLOSE)), min_size=1,
                max_size=6))
def test_the_marks_give_each_message_its_own_span(contents):
    text, spans = _chatml(contents)
    marks, _ = _chatml([OPEN + c + CLOSE for c in contents])
    assert spans_from_marked(text, marks, len(contents)) == spans
    # a message written twice, or one trimmed, is not read off the marks
    assert spans_from_marked(text, marks + OPEN + "x" + CLOSE, len(contents)) is None
    assert spans_from_marked(text + " ", marks, len(contents)) is None


def test_a_trimmed_message_is_found_and_an_escaped_one_is_framing(opened):
    messages = list(CONVERSATIONS[2])  # '  Say "hi"\n' and 'hi '
    for name, found in (("llama3", (True, True)), ("tojson", (False, True))):
        model, tokenizer = opened[name]
        template = template_of(model)
        text = render_isolated(template.text, messages, template.specials)
        counted = count_template(tokenizer, text, _messages(messages))
        assert counted.found == found, name
        assert counted.content_tokens[0] is None or found[0]


def test_the_jinja_file_beats_the_config_and_the_default_of_a_list_is_used(made):
    _, made_folders = made
    assert read_template(made_folders["jinja_wins"]).source == JINJA_FILE
    named = json.loads((made_folders["named"] / "tokenizer_config.json").read_text())
    default = next(t["template"] for t in named["chat_template"] if t["name"] == "default")
    assert read_template(made_folders["named"]).text == default


def test_templates_that_cannot_be_used_are_refused_with_a_reason(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text(json.dumps(
        {"chat_template": [{"name": "a", "template": "x"}, {"name": "b", "template": "y"}]}))
    with pytest.raises(Refusal, match="none is named default"):
        read_template(tmp_path)
    (tmp_path / "chat_template.jinja").write_text("x" * (MAX_TEMPLATE_CHARS + 1))
    with pytest.raises(Refusal, match="longer than the bound"):
        read_template(tmp_path)
    (tmp_path / "chat_template.jinja").write_bytes(b"\xff{{ x }}")
    with pytest.raises(Refusal, match="not UTF-8"):
        read_template(tmp_path)
    with pytest.raises(Refusal, match="not valid Jinja"):
        render_isolated("{% if %}", [{"role": "user", "content": "hi"}], {})


def test_no_template_is_none(tmp_path):
    (tmp_path / "tokenizer_config.json").write_text('{"model_max_length": 10}')
    assert read_template(tmp_path) is None


HI = [{"role": "user", "content": "hi"}]


@pytest.mark.parametrize("template, refusal, bounds", [
    # loops for ever, writing nothing: the time bound (short here, to keep the test short)
    ("{% for i in range(99999) %}{% for j in range(99999) %}{% endfor %}{% endfor %}",
     chat_worker.OVERRAN, {"seconds": 2.0}),
    ("{{ 'x' * 2000000000 }}", chat_worker.OVER_MEMORY, {}),  # one giant string: memory
    ("{% for i in range(99999) %}{{ 'many words ' * 10 }}{% endfor %}", chat_render.TOO_LONG, {}),
    ("{{ messages.__class__.__mro__ }}", chat_render.UNSAFE, {}),
])
def test_a_hostile_template_is_refused_and_the_next_render_works(template, refusal, bounds):
    with pytest.raises(Refusal) as refused:
        render_isolated(template, HI, {}, **bounds)
    assert refused.value.template == refusal
    assert render_isolated("{{ messages[0].content }}!", HI, {}) == "hi!"


def test_the_sandbox_refuses_underscore_names_in_a_namespace():
    with pytest.raises(Refusal) as refused:
        render_isolated("{% set ns = namespace(_secret=1) %}", HI, {})
    assert refused.value.template == chat_render.UNSAFE


def _into_cache(cache: Path, repo_id: str, folder: Path) -> Path:
    """`folder`'s files as huggingface_hub's downloads lay them out: blobs, a snapshot of
    symlinks, refs/main."""
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / ("b" * 40)
    (repo / "blobs").mkdir(parents=True)
    snapshot.mkdir(parents=True)
    for file in folder.iterdir():
        data = file.read_bytes()
        blob = repo / "blobs" / hashlib.sha256(data).hexdigest()
        blob.write_bytes(data)
        (snapshot / file.name).symlink_to(Path("..", "..", "blobs", blob.name))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("b" * 40)
    return cache


def test_a_snapshot_in_the_hugging_face_cache_has_its_template_too(made, tmp_path):
    _, made_folders = made
    cache = _into_cache(tmp_path / "hub", "Example/Chat-7B", made_folders["chatml"])
    found = scan(folder=tmp_path / "no-folder", hf_cache=cache)
    [model] = found.models
    assert model.name == "hf:Example/Chat-7B"
    template = template_of(model)
    expected = GOLDEN["folders"]["chatml"]
    assert template.text == expected["chat_template"]
    assert template.specials == expected["special_tokens_map"]
    case = expected["conversations"][1]  # the Chinese one
    text = render_isolated(template.text, case["messages"], template.specials)
    assert text == case["text"]
    tokenizer = open_isolated(model)
    try:
        assert count_template(tokenizer, text, _messages(case["messages"])).ids == case["ids"]
    finally:
        tokenizer.close()
