"""Tokenization Explorer's tokenizer core. This is the public API.

Pure Python: no Streamlit, plotly or pandas, and nothing printed.
"""

from .bpe_train import BPETraining, train_bpe
from .corpus import Corpus, Level, corpus_from_counts, corpus_from_text
from .interface import Tokenizer
from .pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PATTERNS, WORD_END
from .textbook import textbook_train
from .tokens import Token, display_bytes, tokens_from_bytes
from .trace import Candidate, EncodeStep, MergeStep

__all__ = [
    "BPETraining",
    "CL100K_PATTERN",
    "Candidate",
    "Corpus",
    "EncodeStep",
    "GPT2_PATTERN",
    "Level",
    "MergeStep",
    "O200K_PATTERN",
    "PATTERNS",
    "Token",
    "Tokenizer",
    "WORD_END",
    "corpus_from_counts",
    "corpus_from_text",
    "display_bytes",
    "textbook_train",
    "tokens_from_bytes",
    "train_bpe",
]
