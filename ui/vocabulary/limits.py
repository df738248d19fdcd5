"""The Vocabulary page's bounds: every input it takes has one, and going over says so."""

from tokenizer_core.measure import vocabulary as core

MAX_QUERY_CHARS = core.MAX_REGEX_CHARS  # characters of a search (text, id, hex bytes or regex)
MAX_TABLE_ROWS = 1_000  # rows of the table sent to the browser at once (one page of it)
MAX_EXAMPLES = 20  # tokens shown for each side of a comparison, and longest tokens listed
