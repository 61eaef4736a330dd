"""Secrets masking before anything reaches disk (docs/behaviour.md#d2).

``mask_secrets(text)`` replaces each secret with ``[REDACTED:<rule>]`` and reports the rule names.

**Hand-written rules, facts from the issuers.**  The rule set is written here rather than taken
from a maintained scanner.  detect-secrets' plugins are line-oriented Python classes mixing regexes
with entropy heuristics and report lines, not spans to replace; gitleaks' rule list is Go/RE2 TOML
with ~200 rules, many of them generic high-entropy rules that would mask ordinary reasoning text
(hashes, base64 prose), and RE2 guarantees linear time where Python's ``re`` does not.  So each
rule below is a small pattern written from the token format its issuer documents; gitleaks'
published rule ids and patterns (``config/gitleaks.toml``) served as a cross-check of the
prefixes, lengths and alphabets.  Sources per rule:

================== =================================================================================
rule               format and source
================== =================================================================================
pem_private_key    ``-----BEGIN … PRIVATE KEY-----`` … ``-----END … PRIVATE KEY-----`` (RFC 7468);
                   an unterminated block is masked to the end of the text (fail closed)
anthropic          ``sk-ant-api03-`` / ``sk-ant-admin01-`` + ``[A-Za-z0-9_-]`` (Anthropic console
                   keys; gitleaks ``anthropic-api-key``)
openai             ``sk-`` with optional ``proj-``/``svcacct-``/``admin-`` + ``[A-Za-z0-9_-]{20,}``
                   (OpenAI API keys page; gitleaks ``openai-api-key``)
google_api_key     ``AIza`` + 35 of ``[A-Za-z0-9_-]`` (Google Cloud API keys; gitleaks
                   ``gcp-api-key``)
aws_access_key_id  ``AKIA``/``ASIA``/``ABIA``/``ACCA``/``A3T?`` + 16 of ``[A-Z0-9]`` (AWS IAM
                   "unique identifier prefixes"; gitleaks ``aws-access-token``)
aws_secret_access_key  40 of ``[A-Za-z0-9/+]`` after an ``aws_secret_access_key`` or
                   ``SecretAccessKey`` label only (AWS credentials file docs); context-free it
                   would mask git SHAs
github             ``ghp_``/``gho_``/``ghu_``/``ghs_``/``ghr_`` + 36+ alphanumerics, and
                   ``github_pat_`` + ``[A-Za-z0-9_]`` (GitHub "about authentication" token prefixes)
gitlab             ``glpat-``, ``gldt-``, ``glrt-``, ``glptt-``, ``glcbt-``, ``glimt-``, ``gloas-``,
                   ``glsoat-``, ``glffct-``, ``glagent-``, ``glft-`` + 20+ of ``[A-Za-z0-9_.-]``
                   (GitLab docs "Token prefixes")
slack              ``xoxb-``/``xoxp-``/``xoxa-``/``xoxo-``/``xoxr-``/``xoxs-``/``xoxe-``, ``xapp-``
                   tokens and ``hooks.slack.com`` webhook URLs (Slack "token types")
stripe             ``sk_live_``/``sk_test_``/``rk_live_``/``rk_test_`` and ``whsec_`` (Stripe API
                   keys docs); publishable ``pk_`` keys are public and kept
huggingface        ``hf_`` + 30+ alphanumerics, ``api_org_`` (Hugging Face "User access tokens")
npm                ``npm_`` + 36 alphanumerics (npm "About access tokens")
pypi               ``pypi-AgE`` + 50+ of ``[A-Za-z0-9_-]``: a macaroon whose base64 starts with the
                   ``pypi.org``/``test.pypi.org`` location (PyPI "API tokens")
jwt                three base64url segments, the first two starting ``eyJ`` (``{"``), RFC 7519
bearer             the credential after ``Authorization: Bearer|Basic|Token`` (RFC 6750, RFC 7617)
url_password       the password of ``scheme://user:password@host`` (RFC 3986 userinfo); user kept
password, secret,  the value of an assignment ``key = value`` / ``key: value`` / ``"key": "value"``
token, api_key     whose key ends with that word (``DB_PASSWORD``, ``client_secret``,
                   ``access_token``, ``OPENAI_API_KEY``); only the value is replaced
================== =================================================================================

Decisions where the rules are silent:

* ``Masked.kinds`` has one entry per replacement, in text order, duplicates kept; ``count`` is
  ``len(kinds)``.
* Overlapping matches form one region, replaced once by ``[REDACTED:<rule>]`` naming the longest
  match (ties: the earlier start, then the earlier rule in the table above).  The region is the
  union of the overlapping matches, so no part of any match survives (fail closed).
* Assignment, ``bearer``, ``url_password`` and ``aws_secret_access_key`` replace only the value; the
  key, operator and quotes stay.  An unquoted assignment value needs 8+ characters, not all digits,
  not a plain lowercase word ("token: generation" is prose), not a placeholder (``$VAR``,
  ``{{x}}``, ``<key>``, ``%s``) and not a call or index (``os.environ["X"]``); a quoted value needs
  6+ characters.  ``token = 15`` and "the password is wrong" are kept.
* Idempotent: no rule matches ``[REDACTED:…]``, so ``mask(mask(t)) == mask(t)``.
* Linear time: every pattern starts with a literal (so the engine's fast literal search finds the
  candidates), a negative look-behind placed after the literal makes only the start of a run of
  key characters a candidate, and every variable part either has a bound or is followed by nothing
  that can fail; the PEM rule searches for each END once.  A rule whose literals do not occur
  in the text is skipped: a literal holding ``_`` or ``-`` (bytes rare in prose) is looked for
  only in short windows around those bytes, any other by one substring test.  The finders and
  this presence test live in ``_mask_rules.py``.  Matching runs on the UTF-8 bytes
  (case-insensitive rules on an ASCII-lowercased copy of the same length), so offsets agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ._mask_assign import ASSIGN_FINDERS
from ._mask_catalogue import TOKENS
from ._mask_rules import BLOCK_FINDERS, TOKEN_FINDERS, Finder

__all__ = ["DEFAULT_MASKER", "RULE_NAMES", "Masked", "mask_secrets"]


@dataclass(frozen=True)
class Masked:
    """The result of :func:`mask_secrets` (docs/behaviour.md#d2)."""

    text: str
    """The text with every secret replaced by ``[REDACTED:<rule>]``."""
    count: int
    """The number of replacements (``len(kinds)``)."""
    kinds: tuple[str, ...]
    """The rule name of each replacement, in text order, duplicates kept."""


_Span = tuple[int, int, int, str]  # start, end, rule order, rule name

#: The rule names, in table order, each once (the order breaks ties between equal matches).
RULE_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [
            "pem_private_key",
            "pgp_private_key",
            "putty_private_key",
            *(token.rule for token in TOKENS),
            "aws_secret_access_key",
            "bearer",
            "url_password",
            "password",
            "secret",
            "token",
            "api_key",
            "credential",
        ]
    )
)
_ORDER = {name: i for i, name in enumerate(RULE_NAMES)}
_FINDERS: tuple[Finder, ...] = tuple(
    finder for _, finder in (*BLOCK_FINDERS, *TOKEN_FINDERS, *ASSIGN_FINDERS)
)


def _spans(raw: bytes) -> list[_Span]:
    low = raw.lower()
    spans: list[_Span] = []
    for finder in _FINDERS:
        for start, end, kind in finder(raw, low):
            # a byte class may stop inside a UTF-8 sequence: widen to whole characters
            while start > 0 and 0x80 <= raw[start] < 0xC0:
                start -= 1
            while end < len(raw) and 0x80 <= raw[end] < 0xC0:
                end += 1
            if end > start:
                spans.append((start, end, _ORDER[kind], kind))
    return spans


def _regions(spans: list[_Span]) -> list[tuple[int, int, str]]:
    """Merge overlapping spans; each region is named after its longest span (module docstring)."""
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
    regions: list[tuple[int, int, str]] = []
    best: Optional[_Span] = None
    r_start = r_end = -1
    for span in spans:
        start, end = span[0], span[1]
        if best is not None and start < r_end:
            r_end = max(r_end, end)
            if end - start > best[1] - best[0]:
                best = span
            continue
        if best is not None:
            regions.append((r_start, r_end, best[3]))
        best, r_start, r_end = span, start, end
    if best is not None:
        regions.append((r_start, r_end, best[3]))
    return regions


def _replace(raw: bytes, regions: list[tuple[int, int, str]]) -> tuple[bytes, list[_Label]]:
    """``raw`` with each region replaced by its label, and where the labels are in the result."""
    parts: list[bytes] = []
    labels: list[_Label] = []
    pos = size = 0
    for start, end, name in regions:
        label = b"[REDACTED:%s]" % name.encode("ascii")
        size += start - pos
        parts += (raw[pos:start], label)
        labels.append((size, size + len(label), name))
        size += len(label)
        pos = end
    parts.append(raw[pos:])
    return b"".join(parts), labels


def _glued(out: bytes, labels: list[_Label]) -> bool:
    """Whether a label touches a key character: a token there was refused for touching the
    secret before or after it, and is found once that secret is a label."""
    return any(
        out[end : end + 1] in _KEY_BYTES or out[start - 1 : start] in _KEY_BYTES
        for start, end, _ in labels
    )


#: At most this many passes over a text: a chain of secrets glued to each other (``-`` may join
#: two tokens) is unmasked one link per pass, so a longer chain keeps its last links.
_PASSES = 8


_Label = tuple[int, int, str]
_KEY_BYTES = frozenset(bytes([c]) for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def mask_secrets(text: str, /) -> Masked:
    """Replace every secret in ``text`` with ``[REDACTED:<rule>]`` (docs/behaviour.md#d2).

    Args:
        text: any text.

    Returns:
        A :class:`Masked` with the new text, the number of replacements and their rule names.

    Raises:
        TypeError: ``text`` is not a ``str``.

    >>> mask_secrets("key: gh" + "p_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + "kLmN ok")
    Masked(text='key: [REDACTED:github] ok', count=1, kinds=('github',))
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    raw = text.encode("utf-8", "surrogatepass")
    spans = _spans(raw)
    if not spans:
        return Masked(text, 0, ())
    regions = _regions(spans)
    out, labels = _replace(raw, regions)
    passes = 1
    while passes < _PASSES and _glued(out, labels):  # a secret glued to one just replaced
        again = _regions(_spans(out))
        if not again:
            break
        labels = sorted(_shift(labels, again) + _replace(out, again)[1])
        out = _replace(out, again)[0]
        passes += 1
    masked = out.decode("utf-8", "surrogatepass")
    return Masked(masked, len(labels), tuple(label[2] for label in labels))


def _shift(labels: list[_Label], regions: list[tuple[int, int, str]]) -> list[_Label]:
    """The first pass's labels in the second pass's text (a label a region covers is gone)."""
    out: list[_Label] = []
    delta = 0
    i = 0
    for start, end, name in labels:
        while i < len(regions) and regions[i][1] <= start:
            r_start, r_end, r_name = regions[i]
            delta += len(b"[REDACTED:%s]" % r_name.encode("ascii")) - (r_end - r_start)
            i += 1
        if i < len(regions) and regions[i][0] < end:
            continue
        out.append((start + delta, end + delta, name))
    return out


def DEFAULT_MASKER(text: str, /) -> str:
    """The default masker of a trace store: ``mask_secrets(text).text`` (docs/behaviour.md#d2).

    Args:
        text: any text.

    Returns:
        The masked text.

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    return mask_secrets(text).text
