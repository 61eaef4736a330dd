"""Credentials in commands: ``Bearer …`` alone, ``--token …`` flags, ``curl -u user:password``
(docs/behaviour.md#d2).

Headers with a name (``Authorization: Bearer …``, ``X-Api-Key: …``) are assignments
(``_mask_assign.py``); these finders cover what has no such name.  Only the credential is
replaced: the scheme, the flag and the user name stay.
"""

from __future__ import annotations

import re
from typing import Iterator

from ._mask_rules import Finder, Span, compile_rx
from ._mask_values import generated, mixed, placeholder

__all__ = ["COMMAND_FINDERS"]

# --- Bearer <token> without a header name ------------------------------------------------------
_BEARER = compile_rx(rb"bearer(?<![a-z0-9_]bearer)[ \t]{1,4}(?P<v>[a-z0-9._~+/=-]{16,8192})")


def _find_bearer(raw: bytes, low: bytes) -> Iterator[Span]:
    """``Bearer <credential>`` in prose or a log line: a generated value with a digit."""
    for m in _BEARER.finditer(low):
        value = raw[m.start("v") : m.end("v")]
        if generated(value) and any(48 <= c <= 57 for c in value):
            yield m.start("v"), m.end("v"), "bearer"


# --- command-line flags: --password x, --api-key=x ---------------------------------------------
_FLAG = compile_rx(
    rb"--(?:[a-z0-9]{1,20}-){0,3}(?P<k>password|passwd|pass|token|secret|api-key|apikey|"
    rb"access-key|secret-key|client-secret|auth-token|key)(?:=|[ \t]{1,4})"
    rb"(?:(?P<q>[\"'])(?P<qv>[^\"'\n]{6,1024})(?P=q)|(?P<v>[^\s\"'`;&|)]{8,1024}))"
)
_FLAG_RULES = {b"password": "password", b"passwd": "password", b"pass": "password"}


def _find_flags(raw: bytes, low: bytes) -> Iterator[Span]:
    """``--password x``, ``--api-key=x``: a quoted value that is no placeholder, or a generated
    one (``--key path/to/key.pem`` is a path)."""
    for m in _FLAG.finditer(low):
        group = "qv" if m.start("qv") >= 0 else "v"
        value = raw[m.start(group) : m.end(group)]
        if (group == "qv" and not placeholder(value)) or generated(value):
            yield m.start(group), m.end(group), _FLAG_RULES.get(m.group("k"), "token")


# --- curl -u user:password ---------------------------------------------------------------------
_CURL_USER = compile_rx(
    rb"(?:^|[ \t])(?:-u|--user)(?:=|[ \t]{1,5})"
    rb"(?:\\{0,3}(?P<q>[\"'])(?P<qv>[^\"'\\\n]{1,512})\\{0,3}(?P=q)"
    rb"(?::\\{0,3}(?P<q2>[\"'])(?P<qp>[^\"'\\\n]{1,512})\\{0,3}(?P=q2))?"
    rb"|(?P<u>[^\s\"':\\]{1,256}):(?:\\{0,3}(?P<q3>[\"'])(?P<pq>[^\"'\\\n]{1,512})\\{0,3}(?P=q3)"
    rb"|(?P<p>[^\s\"'\\]{1,512})))",
    re.MULTILINE,
)
_CURL = compile_rx(rb"curl(?![a-z0-9_])")
#: How far after ``curl`` its options are looked for (up to the next ``curl``).
_CURL_REACH = 2000


def _find_curl_user(raw: bytes, low: bytes) -> Iterator[Span]:
    """``-u`` / ``--user`` of a ``curl`` command (continued lines included)."""
    pos = 0
    for c in _CURL.finditer(low):
        if c.start() < pos:
            continue
        stop = min(len(raw), c.end() + _CURL_REACH)
        nxt = low.find(b"curl", c.end(), stop)
        stop = stop if nxt < 0 else nxt
        for m in _CURL_USER.finditer(raw, c.end(), stop):
            yield from _curl_credential(raw, m)
        pos = stop


def _curl_credential(raw: bytes, m: re.Match[bytes]) -> Iterator[Span]:
    """The password of ``user:password`` (the user when the password is empty: an API key)."""
    if m.start("qv") >= 0 and m.start("qp") < 0:  # "user:password" in one pair of quotes
        user, colon, pw = m.group("qv").partition(b":")
        if not colon:
            return
        base = m.start("qv")
        span = (base + len(user) + 1, m.end("qv")) if pw else (base, base + len(user))
    elif m.start("qp") >= 0:
        span = m.span("qp")
    else:
        span = m.span("pq") if m.start("pq") >= 0 else m.span("p")
        if span[1] == span[0]:
            return
    value = raw[span[0] : span[1]]
    if value[:1] == b"{" and value[-1:] == b"}" and value[1:2] not in b"{$":
        value = value[1:-1]  # --user "{id}":"{secret}"
    if len(value) >= 6 and not placeholder(value) and mixed(value):
        yield span[0], span[1], "password"


COMMAND_FINDERS: list[tuple[str, Finder]] = [
    ("bearer", _find_bearer),
    ("flags", _find_flags),
    ("curl", _find_curl_user),
]
