"""The Vocabulary page's bounds: every input it takes has one, and going over says so."""

from tokenizer_core.measure import vocabulary as core
from tokenizer_core.reference import isolated

MAX_QUERY_CHARS = core.MAX_REGEX_CHARS  # characters of a search (text, id, hex bytes or regex)
MAX_TABLE_ROWS = 1_000  # rows of the table sent to the browser at once (one page of it)
MAX_EXAMPLES = 20  # tokens shown for each side of a comparison, and longest tokens listed
MAX_SPLIT_CHARS = 3_000  # characters of the pre-tokenization box (each chosen split draws them)
MAX_URL_TEXT_CHARS = 500  # the pre-tokenization text kept in a link (a lesson file keeps it all)
MAX_SPLITTERS = 8  # pre-splitters drawn side by side
MAX_UNUSED_SHOWN = 200  # never-used tokens listed (longest first)
MAX_DESIGN_UPLOAD_BYTES = 300_000  # a domain corpus uploaded for Design
MAX_DOMAIN_WORDS = 200  # words one extension adds (most frequent, or pasted)
MAX_PASTED_CHARS = 4_000  # characters of the pasted word list
MAX_MIN_COUNT = 10_000  # prune: the largest "used fewer than N times"
SAMPLE_LINES = 4  # held-out lines drawn before and after
MAX_SAMPLE_SCAN = 400  # held-out lines searched for ones a design change cuts differently
EFFECT_MERGES = 2_000  # merges each regex's BPE learns in "the effect measured"
EFFECT_ENGLISH_CHARS = 150_000  # characters of Python's docs in that corpus (code, Chinese, emoji whole)
# A tokenizer of the models folder or the Hugging Face cache (found.py): its worker sends its table
MAX_FOUND_VOCAB_IDS = isolated.MAX_VOCAB_IDS  # ids of a vocabulary it reads (Gemma 3: 262,144)
FOUND_TABLES_KEPT = 4  # such tables (and reference-corpus counts) kept per server, by sha256
MAX_FOUND_USAGE_PART_CHARS = 50_000  # characters of the reference corpus per encode in its worker
