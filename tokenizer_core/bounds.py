"""Every input has a bound. These are the numbers; callers (the app, the command line) check them
and say which bound was hit and what to do, instead of hanging.

Leaves out: the checks' wording, which belongs to each caller.
"""

# Command line and app: training.
MAX_TRAIN_CHARS = 5_000_000  # characters of training text (about 5 MB of English)
MAX_MERGES = 50_000  # merges one training run may ask for
MAX_COUNT_TABLE_ENTRIES = 200_000  # distinct words in a {word: count} table
# Training that keeps every step (record_history: lessons and replays). A sequence is stored
# again at each merge that changes it, so one long chunk (text with no spaces) times many
# merges is what costs, not the bytes: 60 KB of Chinese in one chunk, 500 merges, kept 30 M.
MAX_HISTORY_SYMBOLS = 2_000_000  # symbols the recorded steps may hold
# HF `tokenizers` trainers (the Compression page's reference lines) rewrite a whole word for every
# merge made inside it and slow down faster than linearly on a long one (100 KB: seconds, 1 MB:
# many minutes, in Rust, where nothing can stop them). So the longest stretch without a space
# is bounded, not the bytes.
MAX_HF_WORD_BYTES = 2_000  # UTF-8 bytes of the longest stretch without a space or line break

# Unigram training (trainers/unigram.py): the target size, and how many substrings seed it.
MAX_UNIGRAM_VOCAB = 50_000  # pieces one Unigram training run may ask for, <unk> included
MAX_UNIGRAM_PIECE_CHARS = 16  # longest substring the seed vocabulary takes
MAX_UNIGRAM_SEED = 1_000_000  # seed pieces at most (SentencePiece's seed_sentencepiece_size)
MAX_NBEST = 100  # segmentations one n-best list may ask for

# Command line: encoding.
MAX_ENCODE_CHARS = 20_000_000  # characters the command line encodes in one run

# Model files.
MAX_MODEL_FILE_BYTES = 50_000_000
