"""The two file kinds of a models folder that are not a tokenizer.json, read from their bytes.

What it adds: `sentencepiece_from_bytes` (a SentencePiece `.model`, read by the sentencepiece
library itself) and `tiktoken_from_files` (a tiktoken rank file, `base64token rank` lines, plus
its sidecar `NAME.tiktoken.json`). The sidecar says what the rank file cannot:

    {"pat_str": "<the split regex tiktoken uses>",
     "special_tokens": {"<|endoftext|>": 151643, ...},     optional, {} by default
     "explicit_n_vocab": 151665}                           optional

Both raise a Refusal whose sentence is isolated.UNREADABLE's (the worker says it with the file's
name in front). They run inside the isolated worker (isolated.py), never in the app's server:
the regex and the C++ parser are the untrusted parts.

Leaves out: finding the files (local_models.py) and hashing them.
"""

from __future__ import annotations

import json
from typing import Any

from ..messages import N_, Refusal
from .rankfiles import EncodingSpec, RankFileError, parse_tiktoken_bpe
from .sentencepiece_models import SentencePieceTokenizer
from .tiktoken_encodings import TiktokenTokenizer

# The same sentences as isolated.UNREADABLE (repeated, not imported: isolated imports this)
_SENTENCEPIECE = N_("this is not a SentencePiece model that sentencepiece {version} can read "
                    "({error}); use a .model file written by SentencePieceTrainer")
_TIKTOKEN = N_("this is not a tiktoken rank file with a usable sidecar ({error}); see "
               "docs/models.md for the format")
SIDECAR_SUFFIX = ".json"  # NAME.tiktoken -> NAME.tiktoken.json


def sentencepiece_from_bytes(data: bytes, name: str) -> SentencePieceTokenizer:
    """A SentencePiece model from its serialized bytes; its control pieces (`<s>`, `</s>`) are
    ids only, as the library treats them."""
    import sentencepiece as spm

    try:
        return SentencePieceTokenizer(data, name)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # RuntimeError from C++, or a protobuf DecodeError
        raise Refusal(_SENTENCEPIECE, version=spm.__version__,
                      error=str(error) or type(error).__name__) from None


def _refuse(error: str) -> Refusal:
    return Refusal(_TIKTOKEN, error=error)


def parse_sidecar(text: str | bytes) -> dict[str, Any]:
    """The sidecar's fields, checked: `pat_str` a string, `special_tokens` {str: int},
    `explicit_n_vocab` an int or absent. Refusal naming what is wrong otherwise."""
    try:
        sidecar = json.loads(text)
    except (ValueError, UnicodeDecodeError) as error:
        raise _refuse(f"the sidecar is not JSON: {error}") from None
    if not isinstance(sidecar, dict) or not isinstance(sidecar.get("pat_str"), str):
        raise _refuse('the sidecar needs "pat_str", the split regex, as a string')
    specials = sidecar.get("special_tokens", {})
    if not isinstance(specials, dict) or not all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in specials.items()
    ):
        raise _refuse('"special_tokens" should map each special token to its id')
    n_vocab = sidecar.get("explicit_n_vocab")
    if n_vocab is not None and (not isinstance(n_vocab, int) or isinstance(n_vocab, bool)):
        raise _refuse('"explicit_n_vocab" should be a whole number')
    return {"pat_str": sidecar["pat_str"], "special_tokens": dict(specials),
            "explicit_n_vocab": n_vocab}


def tiktoken_from_files(ranks: bytes, sidecar_text: str | bytes, name: str) -> TiktokenTokenizer:
    """tiktoken's encoder over the rank file's ranks and the sidecar's regex and specials."""
    sidecar = parse_sidecar(sidecar_text)
    try:
        mergeable_ranks = parse_tiktoken_bpe(ranks, "the rank file")
    except RankFileError as error:
        raise _refuse(str(error)) from None
    try:
        return TiktokenTokenizer(EncodingSpec(name, sidecar["pat_str"], mergeable_ranks,
                                              sidecar["special_tokens"],
                                              sidecar["explicit_n_vocab"]))
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as error:  # tiktoken's ValueError (bad regex, n_vocab) or a panic
        raise _refuse(f"tiktoken refused it: {error}") from None
