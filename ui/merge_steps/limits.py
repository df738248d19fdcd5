"""The Merge steps page's bounds: every input it takes has one, and going over says so.

Chosen so that a step change stays under 0.1 s of server time and the whole trace (every step,
sent to the browser once) stays small: see benchmarks/bench_merge_steps.py.
"""

MAX_MERGES = 500  # merges one animation may ask for (the command line goes to 50,000)
MAX_CORPUS_CHARS = 20_000  # characters of corpus text trained on this page (about 3,000 words)
MAX_DISTINCT_ENTRIES = 5_000  # distinct words / lines / chunks in a corpus
MAX_UPLOAD_BYTES = 100_000  # a .txt corpus upload, before decoding
MAX_URL_TEXT_CHARS = 1_500  # your own corpus kept in a link (a lesson file keeps all of it)
MAX_SHOWN_ENTRIES = 150  # corpus entries drawn in the animation (the rest are counted)
# The trace is measured as it is built, entry by entry: one long chunk stored at every step
# (60 KB of Chinese with no spaces) once made a 229 MB message. Entries past it are counted.
MAX_TRACE_BYTES = 4_000_000  # UTF-8 bytes of the player's trace sent to the browser
TOP_CANDIDATES = 8  # candidate pairs kept per step for the bar chart
MAX_REPLAY_CHARS = 300  # text replayed by the encode replay
MAX_PREFIX_TEXT_CHARS = 5_000  # text re-tokenized by the merge-k slider
MAX_COMPARE_MERGES = 100  # steps of the BPE vs WordPiece race
MAX_WORDPIECE_VOCAB = 2_000  # pieces in a hand-written WordPiece vocabulary
MAX_WORDPIECE_TEXT_CHARS = 300  # text encoded by the WordPiece demo
