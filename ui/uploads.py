"""Uploaded text files: bounded, strictly UTF-8, and refused with a message that says what to do.

Every page that takes a `.txt` or `.tsv` upload reads it here, so the rules and the wording are
the same everywhere: too many bytes, not UTF-8 (which byte, where), too many characters. The
caller says what stays as it was (`kept`), because refusing an upload must never lose anything.
"""

from __future__ import annotations


def decode_text(
    data: bytes,
    filename: str,
    *,
    max_bytes: int,
    kept: str,
    max_chars: int | None = None,
    takes: str = "this takes",
) -> str:
    """The file's text (a UTF-8 byte-order mark dropped), or ValueError saying why not.

    `kept`: what stays as it was ("the text in the box is unchanged"); `takes`: who has the
    character bound ("the Playground tokenizes").
    """
    if len(data) > max_bytes:
        raise ValueError(
            f"{filename} is {len(data):,} bytes; uploads here are bounded at {max_bytes:,} bytes. "
            f"Upload a shorter part; {kept}."
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{filename} is not UTF-8 text (byte 0x{data[error.start]:02X} at offset "
            f"{error.start}). Save it as UTF-8 and upload it again; {kept}."
        ) from None
    if max_chars is not None and len(text) > max_chars:
        raise ValueError(
            f"{filename} has {len(text):,} characters; {takes} up to {max_chars:,}. "
            f"Upload a shorter part; {kept}."
        )
    return text
