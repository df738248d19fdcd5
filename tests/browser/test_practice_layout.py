"""The Practice page as drawn at 1280x720, normal and in presentation mode: a wrapped code line
continues at or right of its indentation, two adjacent blanks have a gap between their boxes,
and every button's label is one line. Screenshots in screenshots/practice-*.png."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from tests.browser.conftest import LAPTOP
from tests.browser.test_links import PROBE_404

# per code line: the left edge of its first row, and of every row it wraps onto
ROWS = """e => [...e.querySelectorAll('.src')].map(s => {
  const rows = {}, walk = document.createTreeWalker(s, NodeFilter.SHOW_TEXT);
  for (let t = walk.nextNode(); t; t = walk.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(t);
    for (const r of range.getClientRects()) if (r.width > 0) {
      const top = Math.round(r.bottom / 10); rows[top] = Math.min(rows[top] ?? 1e9, r.left); }
  }
  return {text: s.textContent, rows: Object.keys(rows).map(Number).sort((a, b) => a - b)
    .map(t => rows[t])};
})"""
# neighbouring blank chips on one row: the gap between their boxes
GAPS = """e => { const out = [];
  e.querySelectorAll('.src').forEach(s => { const chips = [...s.querySelectorAll('.blank')];
    for (let i = 1; i < chips.length; i++) {
      const a = chips[i - 1].getBoundingClientRect(), b = chips[i].getBoundingClientRect();
      if (Math.abs(a.top - b.top) < 2) out.push({pair: chips[i - 1].textContent + chips[i]
        .textContent, gap: b.left - a.right, adjacent: s.textContent.includes(
        chips[i - 1].textContent + chips[i].textContent)}); } });
  return out; }"""
# every visible button: how many rows its label takes
BUTTON_ROWS = """() => [...document.querySelectorAll('[data-testid="stMain"] button')]
  .filter(b => b.offsetParent !== null && b.innerText.trim()).map(b => {
    const tops = new Set(), walk = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let t = walk.nextNode(); t; t = walk.nextNode()) {
      if (!t.textContent.trim()) continue;
      const range = document.createRange(); range.selectNodeContents(t);
      for (const r of range.getClientRects()) if (r.width > 0) tops.add(Math.round((r.top + r.bottom) / 24));
    }
    return {label: b.innerText.trim(), rows: tops.size}; })"""


def _open(open_app, wait_for_app, page_log, query: dict[str, str]):
    page_log.allow_console_error(PROBE_404)
    page = open_app("practice?" + urlencode(query))
    page.set_viewport_size(LAPTOP)
    wait_for_app(page, page.get_by_role("heading", name="Practice"))
    page.wait_for_timeout(300)
    return page


@pytest.mark.parametrize("present", ["0", "1"], ids=["normal", "present"])
def test_wrapped_code_keeps_its_indent_and_buttons_keep_one_line(open_app, wait_for_app,
                                                                 page_log, screenshot, present):
    page = _open(open_app, wait_for_app, page_log, {"present": present})
    code = page.locator(".prcode").first
    code.wait_for(timeout=30_000)
    lines = code.evaluate(ROWS)
    wrapped = [line for line in lines if len(line["rows"]) > 1]
    assert wrapped, "no line wraps at 1280: the test would prove nothing"
    for line in wrapped:
        first, *rest = line["rows"]
        assert all(left >= first - 1 for left in rest), line
    buttons = page.evaluate(BUTTON_ROWS)
    assert buttons and {"Check", "Hint", "Answer"} <= {b["label"] for b in buttons}
    assert all(b["rows"] == 1 for b in buttons), [b for b in buttons if b["rows"] != 1]
    code.evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot(f"practice-exercise-{'present' if present == '1' else 'normal'}")


@pytest.mark.parametrize("present", ["0", "1"], ids=["normal", "present"])
def test_adjacent_blanks_are_separate_boxes(open_app, wait_for_app, page_log, screenshot,
                                            present):
    # half of the BPE trainer hidden: `-pair_counts[p]` puts a blank right after a blank
    page = _open(open_app, wait_for_app, page_log,
                 {"present": present, "pr_tab": "Random masking", "pr_code": "bpe_trainer",
                  "pr_share": "50", "pr_seed": "4"})
    code = page.locator(".prcode").first
    code.wait_for(timeout=30_000)
    gaps = code.evaluate(GAPS)
    assert any(g["adjacent"] for g in gaps), "no two blanks side by side with this seed"
    assert all(g["gap"] >= 3 for g in gaps), [g for g in gaps if g["gap"] < 3]
    buttons = page.evaluate(BUTTON_ROWS)
    assert all(b["rows"] == 1 for b in buttons), [b for b in buttons if b["rows"] != 1]
    code.evaluate("e => e.scrollIntoView({block: 'start'})")
    screenshot(f"practice-masking-{'present' if present == '1' else 'normal'}")
