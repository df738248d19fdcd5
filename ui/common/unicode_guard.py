"""Lone surrogates never reach the server: the browser replaces each with U+FFFD as it is typed.

subtle: a JavaScript string may hold half of a UTF-16 surrogate pair (a paste from a broken
source, a script filling the box). Streamlit's front end encodes the box's value as UTF-8 into
its protobuf message anyway; the server cannot parse that message, closes the websocket and the
value is lost: the old text stays, no run, no message. So this listener, in the capture phase
before React's own, rewrites such a value with U+FFFD in place of each half (what the browser's
own TextEncoder would do) before the box hands it on; the page then says what U+FFFD means
(`REPLACEMENT_NOTE`). A components v2 component with JavaScript only, mounted once per tab: it
covers every text box of every page from then on. It sets `value`, never HTML.
"""

from __future__ import annotations

import streamlit as st

from ui.common.i18n import N_

REPLACEMENT = "\ufffd"
# A sentence of the catalog: pages show it as `_(REPLACEMENT_NOTE)`.
REPLACEMENT_NOTE = N_(
    "The text holds U+FFFD (�), the replacement character: it stands where a character could "
    "not be read, such as half of a UTF-16 surrogate pair (the browser puts one in place of "
    "each). Tokenizers see it as an ordinary character, 3 UTF-8 bytes (EF BF BD)."
)

_JS = """
export default function (component) {
  if (window.__tokexUnicodeGuard) { return; }
  window.__tokexUnicodeGuard = true;
  const lone = /[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]/;
  const everyLone = new RegExp(lone.source, "g");
  const setters = new Map([
    [HTMLTextAreaElement, Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set],
    [HTMLInputElement, Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value").set],
  ]);
  document.addEventListener("input", (event) => {
    const box = event.target;
    if (!(box instanceof HTMLTextAreaElement || box instanceof HTMLInputElement)) { return; }
    const value = box.value;
    if (typeof value !== "string" || !lone.test(value)) { return; }
    // subtle: the prototype's setter, not `box.value = ...`: React watches the element's own
    // setter, and would then take the new value for the old one and drop the change.
    const setter = setters.get(box instanceof HTMLTextAreaElement ? HTMLTextAreaElement : HTMLInputElement);
    setter.call(box, value.replace(everyLone, "\\uFFFD"));
  }, true);
}
"""

_component = st.components.v2.component("tokex_unicode_guard", js=_JS)


def unicode_guard() -> None:
    """Mounted once per run by the shared sidebar (ui/common/shell.py), before any page draws its
    boxes: call it nowhere else (a second call in one run would repeat its key)."""
    _component(key="tokex_unicode_guard")
