"""A model's own chat template, read from the files beside its tokenizer.json: `template_of`.

What it adds: where transformers finds a chat template, and the values it renders it with.
- `chat_template.jinja` in the folder, if there: it takes priority over the config's entry,
  as `PreTrainedTokenizerBase.from_pretrained` reads it;
- else `tokenizer_config.json`'s `chat_template`: a string, or the list of named templates
  (`[{"name": "default", "template": ...}, ...]`), of which the one named "default" is used (what
  `apply_chat_template` takes when no name and no tools are given);
- the named special tokens (`bos_token`, `eos_token`, `unk_token`, `sep_token`, `pad_token`,
  `cls_token`, `mask_token`) as strings: transformers' `special_tokens_map`, passed to the
  template. From tokenizer_config.json; special_tokens_map.json's values win over them, but only
  when the config has no `added_tokens_decoder` (transformers reads that file only then).

Works for a models-folder entry (`local:NAME`, an HF folder) and an HF-cache snapshot
(`hf:ORG/NAME`): both have a folder (`LocalModel.entry`). A bare `NAME.json`, a `.model` or a
`.tiktoken` has no config beside it, so no template.

Leaves out: rendering (chat_render.py, run in a bounded worker by chat_worker.py). Nothing here
runs the template; its text is only read, bounded by MAX_TEMPLATE_CHARS. Also left out: the
templates chosen by name or for tools (`tool_use`), and `chat_template.json` (older
processors' file), which transformers reads for processors, not tokenizers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..messages import N_, Refusal
from .local_models import MAX_FILE_BYTES, LocalModel

JINJA_FILE = "chat_template.jinja"
CONFIG_FILE = "tokenizer_config.json"
MAP_FILE = "special_tokens_map.json"
MAX_TEMPLATE_CHARS = 100_000  # real templates are 1,000-20,000 characters
NAMED_SPECIALS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token",
                  "mask_token")


@dataclass(frozen=True)
class ChatTemplate:
    """A template's text, the file it came from, and the special tokens it is rendered with."""

    text: str
    source: str  # "chat_template.jinja" or "tokenizer_config.json"
    specials: dict[str, str] = field(default_factory=dict)  # bos_token -> "<s>", ...


def _read_json(path: Path) -> dict[str, Any] | None:
    if not path.is_file():
        return None
    if path.stat().st_size > MAX_FILE_BYTES:
        raise Refusal(N_("{file} is {size} bytes; the bound for a tokenizer file is {bound} "
                         "bytes"), file=path.name, size=path.stat().st_size, bound=MAX_FILE_BYTES)
    try:
        data = json.loads(path.read_bytes().decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as error:
        raise Refusal(N_("{file} is not JSON: {error}"), file=path.name, error=str(error)) from None
    return data if isinstance(data, dict) else None


def _token_text(value: Any) -> str | None:
    """A special token as transformers keeps it: a string, or an AddedToken's content."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("content"), str):
        return value["content"]
    return None


def _specials(config: dict[str, Any], mapped: dict[str, Any]) -> dict[str, str]:
    if "added_tokens_decoder" in config:
        mapped = {}  # subtle: transformers reads special_tokens_map.json only without it
    found: dict[str, str] = {}
    for key in NAMED_SPECIALS:
        value = _token_text(mapped.get(key))
        value = _token_text(config.get(key)) if value is None else value
        if value is not None:
            found[key] = value
    return found


def _from_config(entry: Any) -> str | None:
    """The config's `chat_template`: a string, or the "default" of the list of named ones."""
    if entry is None or isinstance(entry, str):
        return entry
    if isinstance(entry, list) and all(
            isinstance(t, dict) and isinstance(t.get("name"), str)
            and isinstance(t.get("template"), str) for t in entry):
        named = {t["name"]: t["template"] for t in entry}
        if "default" in named:
            return named["default"]
        raise Refusal(N_("{file} holds several chat templates ({names}) and none is named "
                         "default, so none is used"), file=CONFIG_FILE,
                      names=", ".join(sorted(named)))
    raise Refusal(N_("the chat_template of {file} is neither a text nor a list of named "
                     "templates"), file=CONFIG_FILE)


def _too_long(source: str) -> Refusal:
    return Refusal(N_("the chat template in {file} is longer than the bound of {bound} "
                      "characters, so it is not used"), file=source, bound=MAX_TEMPLATE_CHARS)


def read_template(folder: Path) -> ChatTemplate | None:
    """The folder's chat template, or None if it has none; a Refusal saying why one that is
    there cannot be used (not JSON, too long, several with no default)."""
    if not folder.is_dir():
        return None
    config = _read_json(folder / CONFIG_FILE) or {}
    mapped = _read_json(folder / MAP_FILE) or {}
    jinja = folder / JINJA_FILE
    if jinja.is_file():
        # UTF-8 spends at most 4 bytes a character: a longer file is over the bound unread
        if jinja.stat().st_size > 4 * MAX_TEMPLATE_CHARS:
            raise _too_long(JINJA_FILE)
        try:
            text: str | None = jinja.read_bytes().decode("utf-8")
        except UnicodeDecodeError:
            raise Refusal(N_("{file} is not UTF-8 text"), file=JINJA_FILE) from None
        source = JINJA_FILE
    else:
        text, source = _from_config(config.get("chat_template")), CONFIG_FILE
    if text is None:
        return None
    if len(text) > MAX_TEMPLATE_CHARS:
        raise _too_long(source)
    return ChatTemplate(text, source, _specials(config, mapped))


def template_of(model: LocalModel) -> ChatTemplate | None:
    """The chat template of a tokenizer found on disk (see read_template); None for a file
    with no folder of its own."""
    if model.kind != "tokenizer.json" or not model.entry.is_dir():
        return None
    return read_template(model.entry)
