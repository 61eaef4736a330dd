"""Private-key blocks and passwords in URLs (docs/behaviour.md#d2).

* ``-----BEGIN … PRIVATE KEY-----`` … ``-----END … PRIVATE KEY-----`` (PEM, RFC 7468: RSA, EC,
  DSA, PKCS#8, encrypted, OpenSSH), ``… PRIVATE KEY BLOCK-----`` (OpenPGP, RFC 4880) and
  ``---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----``; a block without its END line is masked to the
  end of the text (fail closed).  The private lines of a PuTTY key file, ``Private-Lines: N`` to
  ``Private-MAC: …``.
* The password of ``scheme://user:password@host`` (RFC 3986 userinfo); the user stays.  The
  password may hold ``@`` and ``/`` written unencoded: it ends at the last ``@`` that a host
  and the end of the authority follow, before any ``?`` or ``#``.  Placeholders stay:
  ``$VAR``, ``<…>``, ``{{…}}``, ``[…]``, fillers and capitals-only words (``USER:PASSWORD@HOST``).
"""

from __future__ import annotations

import re
from typing import Iterator

from ._mask_rules import Finder, Span, compile_rx

__all__ = ["BLOCK_FINDERS"]

# --- private-key blocks ------------------------------------------------------------------------
_BLOCK_BEGIN = compile_rx(
    rb"-----BEGIN[ A-Z0-9_-]{0,60}PRIVATE KEY(?: BLOCK)?-----"
    rb"|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----"
)
_BLOCK_END = compile_rx(
    rb"-----END[ A-Z0-9_-]{0,60}PRIVATE KEY(?: BLOCK)?-----"
    rb"|---- END SSH2 ENCRYPTED PRIVATE KEY ----"
)


def _find_blocks(raw: bytes, low: bytes) -> Iterator[Span]:
    """PEM, OpenSSH, SSH2 and PGP private-key blocks; unterminated ones to the end of the text."""
    pos = 0
    while True:
        begin = _BLOCK_BEGIN.search(raw, pos)
        if begin is None:
            return
        rule = "pgp_private_key" if b"PGP" in begin.group() else "pem_private_key"
        end = _BLOCK_END.search(raw, begin.end())
        if end is None:  # unterminated: mask to the end of the text (fail closed)
            yield begin.start(), len(raw), rule
            return
        yield begin.start(), end.end(), rule
        pos = end.end()


_PPK_BEGIN = compile_rx(rb"Private-Lines:[ \t]{0,4}[0-9]{1,4}")
_PPK_END = compile_rx(rb"Private-MAC:[ \t]{0,4}[0-9a-fA-F]{40,128}")


def _find_putty(raw: bytes, low: bytes) -> Iterator[Span]:
    """The private lines of a PuTTY key file (``Private-Lines: N`` … ``Private-MAC: …``)."""
    pos = 0
    while True:
        begin = _PPK_BEGIN.search(raw, pos)
        if begin is None:
            return
        end = _PPK_END.search(raw, begin.end())
        stop = len(raw) if end is None else end.end()
        yield begin.start(), stop, "putty_private_key"
        if end is None:
            return
        pos = stop


# --- URL passwords -----------------------------------------------------------------------------
_URL = compile_rx(
    rb"://(?P<user>[^\s/:@\"'<>\[\]\\]{0,128}):"
    rb"(?P<pw>(?:(?!://)[^\s\"'<>\\`?#]){1,256})"
    rb"@(?:[A-Za-z0-9._~-]{1,253}|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?"
    rb"(?=[/?#,;)\]\s\"'<>\\`]|$)"
)
_URL_VARIABLE = re.compile(rb"\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*|\{.*\}|\(.*\))")
_URL_FILLER = re.compile(rb"\*{3}|\.{3}|[xX]{3}")
_URL_WORD = re.compile(rb"[A-Z][A-Z_]*")  # USER:PASSWORD@HOST: the words of documentation


def _url_placeholder(pw: bytes) -> bool:
    """``$VAR``, ``<…>``, ``{{…}}``, fillers and capitals-only words are placeholders."""
    if pw.startswith(b"$"):  # $VAR is a placeholder, $YYbMDot25P a password
        return bool(_URL_VARIABLE.fullmatch(pw))
    if pw[:1] in b"<{[":
        return True
    return bool(_URL_FILLER.search(pw)) or bool(_URL_WORD.fullmatch(pw))


def _find_url_passwords(raw: bytes, low: bytes) -> Iterator[Span]:
    for m in _URL.finditer(raw):
        pw = m.group("pw")
        if pw.startswith(b"[REDACTED:") or _url_placeholder(pw):
            continue
        yield m.start("pw"), m.end("pw"), "url_password"


BLOCK_FINDERS: list[tuple[str, Finder]] = [
    ("pem_private_key", _find_blocks),
    ("putty_private_key", _find_putty),
    ("url_password", _find_url_passwords),
]
