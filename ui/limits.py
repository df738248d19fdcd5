"""Every input of the app has a bound; these are the numbers, shown to users when they hit one.

The README lists them (section "Bounds"); a test checks the two agree.
"""

MAX_TOKENIZE_CHARS = 100_000  # characters the Playground tokenizes (counts cover all of them)
MAX_RENDER_TOKENS = 2_000  # tokens drawn per panel; beyond, a note says how many are hidden
MAX_TABLE_ROWS = 5_000  # rows in the token table (the CSV download has every token)
MAX_URL_TEXT_CHARS = 1_500  # characters of text kept in a shareable link
MAX_UPLOAD_BYTES = 2_000_000  # a .txt upload (also capped by .streamlit/config.toml)
MAX_TOKENIZER_JSON_BYTES = 20_000_000  # an uploaded HF tokenizer.json
MAX_PANELS = 6  # tokenizers compared at once
