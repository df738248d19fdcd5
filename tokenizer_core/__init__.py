"""Tokenization Explorer's tokenizer core. This is the public API.

Pure Python: no Streamlit, plotly or pandas, and nothing printed.
"""

from .interface import DisallowedSpecialToken, Tokenizer
from .lessons.bpe_vs_wordpiece import race, rank_pairs, side_by_side
from .levels import Level
from .measure.byte_ruler import render_ruler, ruler_rows
from .measure.compression import compression_curve, split_held_out
from .measure.language_costs import premium, string_cost
from .measure.merge_prefix import model_with_first, token_counts_by_merges, training_token_counts
from .measure.vocab_growth import grow_curve
from .modelfile import bpe_from_json, bpe_model, training_to_json
from .models.byte_bpe import ByteLevelBPE
from .models.char_bpe import CharLevelBPE
from .models.wordpiece import WordPieceTokenizer, wordpiece_from_json
from .pretokenize import CL100K_PATTERN, GPT2_PATTERN, O200K_PATTERN, PATTERNS, WORD_END
from .reference.hf import HFTokenizer
from .reference.hf_train import train_hf
from .reference.tiktoken_encodings import TiktokenTokenizer, tiktoken_tokenizer
from .registry import NAMES, core_tokenizer, load_tokenizer
from .render import RenderOptions, render_tokens
from .tokens import Token, display_bytes, tokens_from_bytes
from .trace import Candidate, EncodeStep, MergeStep
from .trainers.bpe import BPETraining, train_bpe
from .trainers.corpus import Corpus, corpus_from_counts, corpus_from_text
from .trainers.textbook import textbook_train
from .trainers.wordpiece import (
    WordPieceTraining,
    textbook_wordpiece,
    train_wordpiece,
    wordpiece_corpus,
)

__all__ = [
    "compression_curve", "grow_curve", "model_with_first", "premium", "render_ruler",
    "ruler_rows", "split_held_out", "string_cost", "token_counts_by_merges",
    "training_token_counts",
    "BPETraining", "ByteLevelBPE", "CL100K_PATTERN", "Candidate", "CharLevelBPE", "Corpus", "DisallowedSpecialToken",
    "EncodeStep", "GPT2_PATTERN", "HFTokenizer", "Level", "MergeStep", "NAMES", "O200K_PATTERN",
    "PATTERNS", "RenderOptions", "TiktokenTokenizer", "Token", "Tokenizer", "WORD_END",
    "WordPieceTokenizer", "WordPieceTraining", "bpe_from_json", "bpe_model", "core_tokenizer",
    "corpus_from_counts", "corpus_from_text", "display_bytes", "load_tokenizer", "race",
    "rank_pairs", "render_tokens", "side_by_side", "textbook_train", "textbook_wordpiece",
    "tiktoken_tokenizer", "tokens_from_bytes", "train_bpe", "train_hf", "train_wordpiece",
    "training_to_json", "wordpiece_corpus", "wordpiece_from_json",
]
