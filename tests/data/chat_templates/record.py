"""Record what transformers' `apply_chat_template` makes of the test's model folders.

Run by a Python that has transformers (not this project's: transformers needs a newer regex
than the one pinned here), with no network:

    /path/to/transformers-venv/bin/python tests/data/chat_templates/record.py \
        "$(.venv/bin/python -c 'from tokenizer_core.reference.open_models import DEEPSEEK_FILE, packaged_path; print(packaged_path(DEEPSEEK_FILE))')" \
        tests/data/chat_templates/golden.json

It builds the folders of tests/chat_template_files.py in a temporary directory, loads each with
`AutoTokenizer.from_pretrained`, and for each of its conversations writes the rendering
(`tokenize=False`, without and with `add_generation_prompt`), the ids (`tokenize=True`) and the
named special tokens the template saw; or the error transformers raised. tests/core/reference/
test_chat_templates.py compares the app's rendering and ids with this file, and (when
TOKEX_TRANSFORMERS_PYTHON names such a Python) runs this script afresh and compares again.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
FILES = Path(__file__).resolve().parents[2] / "chat_template_files.py"


def _files_module():
    spec = importlib.util.spec_from_file_location("chat_template_files", FILES)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _one(tokenizer, messages) -> dict:
    try:
        text = tokenizer.apply_chat_template(messages, tokenize=False)
        prompt = tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        ids = tokenizer.apply_chat_template(messages, tokenize=True, return_dict=True)["input_ids"]
    except Exception as error:  # the template's own error, recorded as transformers says it
        return {"messages": list(messages), "error": str(error), "error_type": type(error).__name__}
    return {"messages": list(messages), "text": text, "text_with_prompt": prompt,
            "ids": list(ids)}


def record(base_tokenizer_json: Path) -> dict:
    import jinja2
    import tokenizers
    import transformers
    from transformers import AutoTokenizer

    files = _files_module()
    out = {"transformers": transformers.__version__, "tokenizers": tokenizers.__version__,
           "jinja2": jinja2.__version__, "folders": {}}
    with tempfile.TemporaryDirectory() as root:
        for name, folder in files.folders(Path(root), base_tokenizer_json).items():
            tokenizer = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
            out["folders"][name] = {
                "special_tokens_map": dict(tokenizer.special_tokens_map),
                "chat_template": tokenizer.chat_template if isinstance(
                    tokenizer.chat_template, str) else None,
                "conversations": [_one(tokenizer, c) for c in files.CONVERSATIONS],
            }
    return out


if __name__ == "__main__":
    base, target = Path(sys.argv[1]), sys.argv[2]
    text = json.dumps(record(base), ensure_ascii=False, indent=1) + "\n"
    if target == "-":
        sys.stdout.write(text)
    else:
        Path(target).write_text(text, encoding="utf-8")
