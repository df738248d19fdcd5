"""The Languages page's bounds: every input it takes has one, and going over says so.

The parallel-file format's own bounds (characters per file, pairs, characters per sentence)
live with its parser, tokenizer_core/samples.py, and are quoted in the page's messages.
"""

MAX_RULER_INPUT_CHARS = 2_000  # characters the byte ruler's box accepts (all are tokenized)
MAX_URL_TEXT_CHARS = 500  # the ruler's text kept in a link (a lesson file keeps it all)
MAX_RULER_CHARS = 120  # characters drawn in the byte ruler; counts still cover the whole text
# Byte columns per ruler line: 20 fit the 820-pixel column of a 1280-pixel laptop with room for a
# one-byte partial token's "<A0>" (24 made the lines 846 pixels wide and cut the last byte).
RULER_BYTES_PER_LINE = 20
RULER_BYTES_PER_LINE_BIG = 12  # the same in presentation mode (large type; fits 1280x720)
MAX_PARALLEL_UPLOAD_BYTES = 2_000_000  # an uploaded parallel .tsv, before parsing
MAX_PAGE_TOKENIZERS = 5  # tokenizers compared at once (of nine; headline and heat table: all)
MAX_GROW_CHARS = 200_000  # characters of your own text for the grow-a-vocabulary experiment
MAX_GROW_RENDER_CHARS = 240  # held-out characters drawn as tokens under the grow chart
MAX_PAIR_POINTS = 2_000  # pairs drawn as dots per tokenizer; beyond, the box shows outliers only
MAX_PAIR_HOVER_CHARS = 60  # characters of a sentence shown in a chart's hover
COUNT_CACHE_ENTRIES = 32  # token-count lists kept per server (one per tokenizer and set of texts)
PAIR_RESULT_CACHE_ENTRIES = 4  # premiums and per-pair frames kept per server (file x tokenizers)
MAX_LANGUAGE_UPLOAD_BYTES = 2_000_000  # an uploaded many-language .tsv, before parsing
