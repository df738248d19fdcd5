"""The Playground's bounds: how much text it tokenizes, shows in a table, keeps in a link.

docs/bounds.md lists them; a test checks the two agree.
"""

MAX_TOKENIZE_CHARS = 100_000  # characters the Playground tokenizes (counts cover all of them)
MAX_TABLE_ROWS = 5_000  # rows in the token table (the CSV download has every token)
MAX_URL_TEXT_CHARS = 1_500  # characters of text kept in a shareable link
MAX_UPLOAD_BYTES = 2_000_000  # a .txt upload (also capped by .streamlit/config.toml)
