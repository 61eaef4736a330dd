"""The page's constant CSS and the toggle script (see docs/behaviour.md#h1, #h2).

Both are constants, so a page can allow exactly them by hash in its Content-Security-Policy
(``'sha256-…'``) and, when it is served with a per-request nonce, by that nonce as well.

The script (H1):

* one ``click`` listener on ``document`` (event delegation), so fragments inserted after load
  work; Enter and Space on a ``<button>`` already fire ``click``, so no key handler (a key
  handler as well would toggle twice);
* a guard on ``window``: a page that includes the script twice still toggles once per click;
* the reasoning body is found inside the clicked container, not by id, so a page that repeats a
  fragment still toggles the right one;
* the hidden state is the ``hidden`` attribute (no ``style=``, no CSS needed in a host page);
* ``svmai:event`` is dispatched on the button and bubbles; ``detail`` is exactly
  ``{type: "reasoning_toggle", payload: {msgId, expanded, tokens}}`` with ``msgId`` the
  container's ``data-msg-id`` (``null`` without one) and ``tokens`` its ``data-token-est``.

Without the script (scripting off) the page's ``<noscript>`` style shows every reasoning body and
makes the inert toggles plain headings, so the reasoning stays readable (H2).
"""

from __future__ import annotations

import base64
import hashlib

SCRIPT = """(function () {
  "use strict";
  if (window.__thinkparseReasoningToggle) { return; }
  window.__thinkparseReasoningToggle = true;
  document.addEventListener("click", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) { return; }
    var button = target.closest("[data-ai-reasoning-toggle]");
    if (!button) { return; }
    var box = button.closest("[data-ai-reasoning]");
    if (!box) { return; }
    var body = box.querySelector("[data-ai-reasoning-body]");
    var expanded = box.getAttribute("data-collapsed") !== "false";
    box.setAttribute("data-collapsed", expanded ? "false" : "true");
    button.setAttribute("aria-expanded", expanded ? "true" : "false");
    if (body) {
      if (expanded) { body.removeAttribute("hidden"); } else { body.setAttribute("hidden", ""); }
    }
    var tokens = parseInt(box.getAttribute("data-token-est") || "0", 10);
    button.dispatchEvent(new CustomEvent("svmai:event", {
      bubbles: true,
      detail: {
        type: "reasoning_toggle",
        payload: {msgId: box.getAttribute("data-msg-id"), expanded: expanded,
                  tokens: isNaN(tokens) ? 0 : tokens}
      }
    }));
  });
})();
"""

CSS = """:root {
  color-scheme: light dark;
  --tp-bg: #ffffff; --tp-fg: #1f2328; --tp-muted: #59636e; --tp-card: #f6f8fa;
  --tp-border: #d1d9e0; --tp-accent: #0969da; --tp-reason: #fff8c5; --tp-reason-fg: #3b2f00;
  --tp-bar: #0969da; --tp-badge: #ffebe9; --tp-badge-fg: #82071e;
}
@media (prefers-color-scheme: dark) {
  :root {
    --tp-bg: #0d1117; --tp-fg: #e6edf3; --tp-muted: #9198a1; --tp-card: #151b23;
    --tp-border: #3d444d; --tp-accent: #4493f8; --tp-reason: #272115; --tp-reason-fg: #f0e3b8;
    --tp-bar: #4493f8; --tp-badge: #3c1618; --tp-badge-fg: #ffaba8;
  }
}
* { box-sizing: border-box; }
body {
  margin: 0; background: var(--tp-bg); color: var(--tp-fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
}
.tp-page { display: flex; flex-direction: column; gap: 16px; max-width: 960px;
  margin: 0 auto; padding: 24px 16px; }
.tp-title { order: 0; margin: 0; font-size: 1.5rem; }
.tp-summary { order: 1; }
.tp-cards { order: 2; display: flex; flex-direction: column; gap: 12px; }
.tp-more { order: 3; color: var(--tp-muted); }
.tp-stats { display: flex; flex-wrap: wrap; gap: 8px 24px; margin: 0 0 12px; }
.tp-stats div { display: flex; flex-direction: column; }
.tp-stats dt { color: var(--tp-muted); font-size: 0.8rem; }
.tp-stats dd { margin: 0; font-size: 1.25rem; font-variant-numeric: tabular-nums; }
.tp-hist { width: 100%; max-width: 640px; height: auto; display: block; }
.tp-hist .tp-bar { fill: var(--tp-bar); }
.tp-hist .tp-axis { stroke: var(--tp-border); }
.tp-hist text { fill: var(--tp-muted); font-size: 11px; }
.tp-card { background: var(--tp-card); border: 1px solid var(--tp-border); border-radius: 8px;
  padding: 12px 16px; }
.tp-card-head { display: flex; gap: 8px; align-items: baseline; color: var(--tp-muted);
  font-size: 0.85rem; margin-bottom: 6px; }
.tp-badge { background: var(--tp-badge); color: var(--tp-badge-fg); border-radius: 999px;
  padding: 0 8px; font-size: 0.75rem; }
.tp-answer, .tp-body { white-space: pre-wrap; overflow-wrap: anywhere; }
.tp-answer:empty::before { content: "(no answer text)"; color: var(--tp-muted); }
.tp-reasoning { margin: 4px 0 8px; }
.tp-toggle { font: inherit; font-size: 0.85rem; color: var(--tp-accent); background: none;
  border: 1px solid var(--tp-border); border-radius: 6px; padding: 2px 10px; cursor: pointer; }
.tp-toggle:focus-visible { outline: 2px solid var(--tp-accent); outline-offset: 2px; }
.tp-toggle::before { content: "\\25B8\\00A0"; }
.tp-toggle[aria-expanded="true"]::before { content: "\\25BE\\00A0"; }
.tp-body { margin-top: 6px; padding: 8px 12px; border-radius: 6px; background: var(--tp-reason);
  color: var(--tp-reason-fg); font-size: 0.9rem; }
.tp-body[hidden] { display: none; }
.tp-note { font-style: italic; }
"""

#: With scripting off the toggles cannot work: show every body, and the toggle as a heading.
NOSCRIPT_CSS = """[data-ai-reasoning-body][hidden] { display: block; }
[data-ai-reasoning-toggle] { pointer-events: none; border-color: transparent; }
[data-ai-reasoning-toggle]::before { content: none; }
"""


def csp_hash(source: str) -> str:
    """The CSP source expression ``'sha256-…'`` allowing an inline element with this text."""
    digest = hashlib.sha256(source.encode("utf-8")).digest()
    return "'sha256-" + base64.b64encode(digest).decode("ascii") + "'"
