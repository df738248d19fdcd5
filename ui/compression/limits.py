"""The Compression page's bounds and fixed choices, in one place; users see them when they hit one.

Training cost grows with the corpus and the number of merges, so both are bounded: at the
bounds a curve takes a few seconds (see benchmarks/bench_compression.py), never minutes.
"""

MAX_CORPUS_BYTES = 1_000_000  # UTF-8 bytes of one corpus, built-in or uploaded (~2x Python's docs)
MIN_CORPUS_CHARS = 200  # shorter texts cannot be split into a training and a held-out part
VOCAB_CHOICES = (1_000, 2_000, 4_000, 8_000, 16_000)  # "train up to" (vocab = 256 + merges)
DEFAULT_VOCAB = 4_000
HELD_OUT_PCT_MIN, HELD_OUT_PCT_MAX, HELD_OUT_PCT_STEP = 10, 50, 5
DEFAULT_HELD_OUT_PCT = 20
HF_SIZES = (500, 1_000, 2_000, 4_000, 8_000, 16_000)  # HF models trained at each size <= max
CURVE_POINTS = 60  # log-spaced points drawn per line (every k is computed; these are shown)
MAX_SENTENCE_CHARS = 300  # the fixed-sentence views
CLASSROOM_MERGES = (5, 15, 30)  # the classroom "vocab size effect" on the ten sentences
BYTE_VOCABS = (500, 1_000, 2_000, 4_000)  # the same effect at byte level, on the chosen corpus
KEEP = "session"  # every widget's persist_state: choices survive a visit to another page
CURVE_CACHE_ENTRIES = 24  # training runs kept (each a few hundred KB)
QUALITY_CACHE_ENTRIES = 256  # quality-table rows kept
CHART_CACHE_ENTRIES = 32  # built charts shared by every session (shared.py; each a few hundred KB)
TABLE_CACHE_ENTRIES = 32  # built quality tables shared by every session (shared.py)
