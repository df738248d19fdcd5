"""HTML for windows drawn over the text: each window a coloured band, the overlap in both colours.

Pure: (text, windows) -> HTML; the text goes through render.escape. Neighbouring windows never
share a colour (three colours in turn), and a stretch read by two windows shows both (top half, bottom half).
"""

from __future__ import annotations

from typing import Sequence

from tokenizer_core.measure.sequences_windows import RANK_NAMES, Window
from tokenizer_core.render import escape
from ui.common.i18n import _

BAND_COLOURS = ("#b9dcff", "#ffd28f", "#bdeeb4")
BAND_CSS = """
.sqbands { font-family: ui-monospace, "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
  font-size: var(--tok-font, .95rem); line-height: 1.9; white-space: pre-wrap; word-break: break-word;
  color: #111; max-height: 30rem; overflow-y: auto; border: 1px solid #ddd; padding: .4rem .6rem;
  border-radius: 4px; }
.sqbands .ov { box-shadow: 0 0 0 1px #8a3a00; }
.sqbands .wl { font: 700 .7em sans-serif; background: #333; color: #fff; border-radius: 3px;
  padding: 0 3px; margin-right: 2px; }
"""


def _colour(k: int) -> str:
    return BAND_COLOURS[k % len(BAND_COLOURS)]


def band_html(text: str, windows: Sequence[Window], limit: int) -> str:
    """The first `limit` characters of text, each stretch coloured by the windows that read it."""
    shown = text[:limit]
    windows = [w for w in windows if w.start < len(shown) or not w.start]
    cuts = sorted({0, len(shown), *(min(p, len(shown)) for w in windows for p in (w.start, w.end))})
    starts: dict[int, list[int]] = {}
    for k, w in enumerate(windows):
        starts.setdefault(w.start, []).append(k)
    out = ['<div class="sqbands">']
    lo = hi = 0  # windows come in order of start and of end: the ones over a stretch are lo..hi
    for a, b in zip(cuts, cuts[1:]):
        out += [f'<span class="wl">{k + 1}</span>' for k in starts.get(a, [])]
        while hi < len(windows) and windows[hi].start <= a:
            hi += 1
        while lo < hi and windows[lo].end <= a:
            lo += 1
        # subtle: starts and ends both come in order and every end is a cut, so the windows over
        # [a, b) are exactly lo..hi: a range, never a list as long as the overlap is deep
        out.append(_stretch(shown[a:b], range(lo, hi), windows))
    out.append("</div>")
    return "".join(out)


def _stretch(piece: str, covering: range, windows: Sequence[Window]) -> str:
    body = escape(piece)
    if not covering:
        return body
    if len(covering) == 1:
        k = covering[0]
        w = windows[k]
        title = _("window {k}: tokens {first}–{last}, characters {start}–{end}", k=k + 1,
                  first=w.first, last=w.stop - 1, start=w.start, end=w.end)
        return f'<span style="background:{_colour(k)}" title="{escape(title)}">{body}</span>'
    colours = [_colour(k) for k in covering[:2]]
    # the top half in one window's colour, the bottom half in the next one's: read by both
    stripes = f"linear-gradient(180deg, {colours[0]} 0 50%, {colours[1]} 50% 100%)"
    if len(covering) == 2:
        title = _("read twice: windows {a} and {b} overlap here", a=covering[0] + 1,
                  b=covering[1] + 1)
    else:
        title = _("read {n} times: windows {a} to {b} overlap here", n=len(covering),
                  a=covering[0] + 1, b=covering[-1] + 1)
    return f'<span class="ov" style="background:{stripes}" title="{escape(title)}">{body}</span>'


def cut_name(window: Window) -> str:
    """Where a boundary window ends (token, word, sentence, paragraph), in the session's language."""
    return _(RANK_NAMES.get(window.cut, "token"))
