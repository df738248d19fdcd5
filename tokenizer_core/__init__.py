"""Tokenization Explorer's tokenizer core. This is the public API.

Pure Python: no Streamlit, plotly or pandas, and nothing printed.
"""

from .bpe_model import CharLevelBPE
from .bpe_train import BPETraining, train_bpe
from .byte_ruler import render_ruler, ruler_rows
from .bytelevel import ByteLevelBPE
from .compare import race, rank_pairs, side_by_side
from .compression import compression_curve, split_held_out
from .corpus import Corpus, Level, corpus_from_counts, corpus_from_text
from .costs import premium, string_cost
from .interface import Tokenizer
from .languages_grow import grow_curve
from .modelfile import bpe_from_json, bpe_model, training_to_json
from .prefix import model_with_first, token_counts_by_merges, training_token_counts
from .pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PATTERNS, WORD_END
from .reference import HFTokenizer, TiktokenTokenizer, tiktoken_tokenizer, train_hf
from .registry import NAMES, core_tokenizer, load_tokenizer
from .render import RenderOptions, render_tokens
from .textbook import textbook_train
from .tokens import Token, display_bytes, tokens_from_bytes
from .trace import Candidate, EncodeStep, MergeStep
from .wordpiece import WordPieceTokenizer, wordpiece_from_json
from .wordpiece_train import (
    WordPieceTraining,
    textbook_wordpiece,
    train_wordpiece,
    wordpiece_corpus,
)

__all__ = [
    "compression_curve", "grow_curve", "model_with_first", "premium", "render_ruler",
    "ruler_rows", "split_held_out", "string_cost", "token_counts_by_merges",
    "training_token_counts",
    "BPETraining", "ByteLevelBPE", "CL100K_PATTERN", "Candidate", "CharLevelBPE", "Corpus",
    "EncodeStep", "GPT2_PATTERN", "HFTokenizer", "Level", "MergeStep", "NAMES", "O200K_PATTERN",
    "PATTERNS", "RenderOptions", "TiktokenTokenizer", "Token", "Tokenizer", "WORD_END",
    "WordPieceTokenizer", "WordPieceTraining", "bpe_from_json", "bpe_model", "core_tokenizer",
    "corpus_from_counts", "corpus_from_text", "display_bytes", "load_tokenizer", "race",
    "rank_pairs", "render_tokens", "side_by_side", "textbook_train", "textbook_wordpiece",
    "tiktoken_tokenizer", "tokens_from_bytes", "train_bpe", "train_hf", "train_wordpiece",
    "training_to_json", "wordpiece_corpus", "wordpiece_from_json",
]
