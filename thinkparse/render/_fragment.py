"""Reasoning as a collapsible HTML fragment: ``render_html``, ``render_script`` (#h1).

See docs/behaviour.md#h1.

The fragment for one message is a ``<div class="tp-message">`` holding

* the reasoning container (only when there is reasoning, or reasoning the provider redacted):
  ``data-ai-reasoning``, ``data-collapsed``, ``data-token-est``, ``data-msg-id`` (when a
  ``msg_id`` is given), and ``data-redacted="true"`` for provider-redacted reasoning (P6);
  inside it the ``<button data-ai-reasoning-toggle aria-expanded aria-controls>`` and the body
  ``<div data-ai-reasoning-body id=…>``, hidden with the ``hidden`` attribute while collapsed;
* the visible answer, as text (no markdown rendering).

Decisions where the rules leave room:

* **Safe by construction.** Every piece of text and every attribute value goes through one
  escaping function (``&``, ``<``, ``>``, ``"``, ``'``); lone surrogates (possible in JSON input)
  become U+FFFD.  No URL is ever built from data, no inline event handler and no ``style=``
  attribute is written, so a strict Content-Security-Policy needs only the script and style.
* **ids.** ``"tp-" + sha256(msg_id)[:16]`` (hex, so no spaces or quotes); without ``msg_id`` the
  hash of the visible text and the reasoning, so the output is deterministic.  Two fragments of
  one page need different ``msg_id`` values; ``render_page`` makes ids unique itself.
* **``data-token-est``** is ``ceil(len(reasoning) / 4)`` for every input type (R6), 0 for
  reasoning the provider redacted; tokens a provider reported are shown in the label and in
  ``data-tokens-reported``.
* **Readable without the script.** The collapsed state is the ``hidden`` attribute, which needs
  no CSS.  ``render_page`` adds a ``<noscript>`` style showing every body when scripting is off.
  A host page that embeds fragments without ``render_script`` should do the same.
"""

from __future__ import annotations

import hashlib
import re
from typing import Optional, Union

from .._types import Extraction, Parsed, Split, tokens_estimate
from ._assets import SCRIPT

Result = Union[Parsed, Split, Extraction]

_UNSHOWABLE = re.compile("[\x00\ud800-\udfff]")
_ESCAPES = str.maketrans({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"})
_NONCE = re.compile(r"[A-Za-z0-9+/_=-]+")


def esc(text: str) -> str:
    """Text or an attribute value, escaped for HTML; NUL and lone surrogates become U+FFFD."""
    return _UNSHOWABLE.sub("\ufffd", text).translate(_ESCAPES)


def check_nonce(nonce: Optional[str]) -> str:
    """`` nonce="…"`` for an element, or ``""``; a nonce is base64 or base64url (CSP)."""
    if nonce is None:
        return ""
    if not isinstance(nonce, str):
        raise TypeError(f"nonce must be a str or None, not {type(nonce).__name__}")
    if not _NONCE.fullmatch(nonce):
        raise ValueError(f"nonce must be base64 characters, not {nonce!r}")
    return f' nonce="{nonce}"'


def reasoning_tokens(result: Result) -> int:
    """Tokens a record's reasoning counts: as reported by the provider, else estimated (B1)."""
    if isinstance(result, Extraction) and result.reasoning_tokens is not None:
        return result.reasoning_tokens
    return tokens_estimate(result.reasoning)


def is_redacted(result: Result) -> bool:
    """Whether a record hides something: ``<REDACTED>`` sections (R7) or provider redaction (P6)."""
    if isinstance(result, Parsed):
        return result.redactions > 0
    return isinstance(result, Extraction) and result.redacted


def dom_id(result: Result, msg_id: Optional[str]) -> str:
    """The fragment's base id: from ``msg_id``, else from the record's text."""
    if msg_id is not None:
        key = "m\0" + msg_id
    else:
        key = "t\0" + result.visible + "\0" + (result.reasoning or "")
    digest = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return "tp-" + digest[:16]


def check_result(result: object, name: str = "result") -> Result:
    """``result`` if it is a ``Parsed``, ``Split`` or ``Extraction``; else ``TypeError``."""
    if not isinstance(result, (Parsed, Split, Extraction)):
        kind = type(result).__name__
        raise TypeError(f"{name} must be a Parsed, Split or Extraction, not {kind}")
    return result


def check_msg_id(msg_id: object, name: str = "msg_id") -> Optional[str]:
    """``msg_id`` if it is a ``str`` or ``None``; else ``TypeError``."""
    if msg_id is not None and not isinstance(msg_id, str):
        raise TypeError(f"{name} must be a str or None, not {type(msg_id).__name__}")
    return msg_id


def fragment(result: Result, msg_id: Optional[str], collapsed: bool, base_id: str) -> str:
    """The fragment of :func:`render_html` with the given base id (checked arguments)."""
    parts = ['<div class="tp-message"']
    if msg_id is not None:
        parts.append(f' data-msg-id="{esc(msg_id)}"')
    parts.append(">")
    provider_redacted = isinstance(result, Extraction) and result.redacted
    if result.reasoning is not None or provider_redacted:
        parts.append(_container(result, msg_id, collapsed, base_id + "-r"))
    parts.append(f'<div class="tp-answer">{esc(result.visible)}</div></div>')
    return "".join(parts)


def _container(result: Result, msg_id: Optional[str], collapsed: bool, body_id: str) -> str:
    reasoning = result.reasoning
    est = tokens_estimate(reasoning)
    reported = result.reasoning_tokens if isinstance(result, Extraction) else None
    provider_redacted = isinstance(result, Extraction) and result.redacted
    attrs = [
        'class="tp-reasoning" data-ai-reasoning',
        f'data-collapsed="{"true" if collapsed else "false"}"',
        f'data-token-est="{est}"',
    ]
    if msg_id is not None:
        attrs.append(f'data-msg-id="{esc(msg_id)}"')
    if provider_redacted:
        attrs.append('data-redacted="true"')
    if reported is not None:
        attrs.append(f'data-tokens-reported="{reported}"')
    if reasoning is None:
        label = "Reasoning (redacted by the provider)"
    else:
        label = f"Reasoning · ~{est:,} token{'' if est == 1 else 's'}"
    if reported is not None:
        label += f" · {reported:,} reported"
    body: list[str] = []
    if reasoning is not None:
        body.append(esc(reasoning) if reasoning else '<span class="tp-note">(empty)</span>')
    if provider_redacted:
        note = (
            "The provider returned this reasoning encrypted or redacted: it existed but cannot "
            "be read." if reasoning is None else
            "Part of the reasoning was returned encrypted or redacted and is not shown."
        )
        body.append(f'{chr(10) + chr(10) if body else ""}<span class="tp-note">{note}</span>')
    hidden = " hidden" if collapsed else ""
    return (
        f'<div {" ".join(attrs)}>'
        f'<button type="button" class="tp-toggle" data-ai-reasoning-toggle '
        f'aria-expanded="{"false" if collapsed else "true"}" aria-controls="{body_id}">'
        f"{esc(label)}</button>"
        f'<div class="tp-body" id="{body_id}" data-ai-reasoning-body{hidden}>{"".join(body)}</div>'
        "</div>"
    )


def render_html(result: Result, /, *, msg_id: Optional[str] = None, collapsed: bool = True) -> str:
    """One message as an HTML fragment with its reasoning collapsible (docs/behaviour.md#h1).

    Args:
        result: what :func:`thinkparse.parse`, :func:`thinkparse.split_think` or
            :func:`thinkparse.normalize` returned.
        msg_id: the message's id, carried in ``data-msg-id`` and in the toggle event's
            ``payload.msgId``; also the source of the element ids.
        collapsed: start with the reasoning hidden.

    Returns:
        The fragment: the reasoning container (none when there is no reasoning) and the visible
        answer, every text and attribute escaped.  Add :func:`render_script` once per page.

    Raises:
        TypeError: ``result`` is not a ``Parsed``, ``Split`` or ``Extraction``, ``msg_id`` is
            not a ``str`` or ``None``, or ``collapsed`` is not a ``bool``.

    >>> from thinkparse import parse
    >>> print(render_html(parse("<REASONING>2 + 2</REASONING>It is <b>4</b>."), msg_id="m1"))
    ... # doctest: +NORMALIZE_WHITESPACE
    <div class="tp-message" data-msg-id="m1"><div class="tp-reasoning" data-ai-reasoning
    data-collapsed="true" data-token-est="2" data-msg-id="m1"><button type="button"
    class="tp-toggle" data-ai-reasoning-toggle aria-expanded="false"
    aria-controls="tp-...-r">Reasoning · ~2 tokens</button><div class="tp-body"
    id="tp-...-r" data-ai-reasoning-body hidden>2 + 2</div></div><div
    class="tp-answer">It is &lt;b&gt;4&lt;/b&gt;.</div></div>
    """
    check_result(result)
    check_msg_id(msg_id)
    if not isinstance(collapsed, bool):
        raise TypeError(f"collapsed must be a bool, not {type(collapsed).__name__}")
    return fragment(result, msg_id, collapsed, dom_id(result, msg_id))


def render_script(*, nonce: Optional[str] = None) -> str:
    """The toggle behaviour as one ``<script>`` element; include it once per page (#h1).

    It uses event delegation on ``document`` (fragments added later work) and guards against a
    second inclusion (one click still toggles once).

    Args:
        nonce: the page's Content-Security-Policy nonce, put on the element
            (``script-src 'nonce-…'``).

    Returns:
        ``<script>…</script>`` (with ``nonce="…"`` when given).

    Raises:
        TypeError: ``nonce`` is not a ``str`` or ``None``.
        ValueError: ``nonce`` has characters other than base64 / base64url ones.
    """
    return f"<script{check_nonce(nonce)}>{SCRIPT}</script>"
