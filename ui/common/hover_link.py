"""Linked hover across token panels, in the browser: no rerun per hover.

A components v2 component with JavaScript only. It listens for the mouse over any token span
(`.tokview .tok`), reads the span's character range from its `data-s`/`data-e` attributes, and
outlines the tokens of the *other* panels that cover the same characters, and the other boxes of
the same token (a token holding a line break is one box per line). It also copies the
hovered span's hover text into its panel's readout line with `textContent`. It never reads or
writes HTML: user text only ever arrives already escaped, through tokenizer_core/render.py.
"""

from __future__ import annotations

import streamlit as st

_JS = """
export default function (component) {
  if (window.__tokexHoverLink) { return; }
  window.__tokexHoverLink = true;
  const clear = () => {
    document.querySelectorAll(".tokview .tok.linked").forEach((el) => el.classList.remove("linked"));
  };
  document.addEventListener("mouseover", (event) => {
    const target = event.target;
    const tok = target && target.closest ? target.closest(".tokview .tok") : null;
    clear();
    if (!tok) { return; }
    const view = tok.closest(".tokview");
    const readout = view ? view.querySelector(".tokinfo") : null;
    if (readout) { readout.textContent = tok.getAttribute("title") || ""; }
    // A token that holds a line break is drawn one box per line: outline its other boxes too.
    if (view) {
      view.querySelectorAll(".tok").forEach((el) => {
        if (el !== tok && el.dataset.i === tok.dataset.i) { el.classList.add("linked"); }
      });
    }
    const s = Number(tok.dataset.s), e = Number(tok.dataset.e);
    if (!(e > s)) { return; }
    document.querySelectorAll(".tokview").forEach((other) => {
      if (other === view) { return; }
      other.querySelectorAll(".tok").forEach((el) => {
        const os = Number(el.dataset.s), oe = Number(el.dataset.e);
        if (oe > os && os < e && s < oe) { el.classList.add("linked"); }
      });
    });
  });
}
"""

_component = st.components.v2.component("tokex_hover_link", js=_JS)


def hover_link() -> None:
    """Mount once per page that shows token panels."""
    _component(key="tokex_hover_link")
