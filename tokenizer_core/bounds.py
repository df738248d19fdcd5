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

# Command line: encoding. One run holds every token of the text at once (the encoders return
# lists), 150-650 bytes of memory a token, and a byte-level tokenizer makes up to one token a
# byte (rare 4-byte characters: GPT-2 makes 4 of each). So the bound is on bytes, not
# characters: 20,000,000 characters ran out of memory at 6 GB; 1 MB of the worst text peaks at
# 650 MB (Mistral 7B, DeepSeek-V4), tests/core/test_cli.py measures the bound. The JSON is
# written as it is produced, never held whole.
MAX_ENCODE_BYTES = 2_000_000  # UTF-8 bytes of text the command line encodes in one run
# `windows` writes each token once per window that holds it: a stride one below the max length
# writes every id max-length times (8,192 x 250,000 tokens of a megabyte: 2 billion ids).
MAX_WINDOW_IDS = 20_000_000  # token ids all windows of one run hold together (about 140 MB of JSON)
# `count` and `premium` load, use and drop each tokenizer in turn (memory: one at a time); the
# bound keeps a run's time in reach (an open model takes a second or more to load).
MAX_COUNT_TOKENIZERS = 32  # tokenizers one `count` or `premium` run may name
# `premium` reads a parallel file as the Languages page does (samples.py: 1,000,000 characters);
# a UTF-8 character is at most 4 bytes, so more bytes than this cannot be within that bound.
MAX_PARALLEL_FILE_BYTES = 4_000_000  # bytes of the parallel file, read before decoding

# Model files.
MAX_MODEL_FILE_BYTES = 50_000_000
