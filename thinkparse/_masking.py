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
  that can fail; the PEM rule searches for each END once.  A rule whose literal does not occur
  in the text is skipped after one substring test.  Matching runs on the UTF-8 bytes
  (case-insensitive rules on an ASCII-lowercased copy of the same length), so offsets agree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterator, Optional

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
_Finder = Callable[[bytes, bytes], Iterator[tuple[int, int, str]]]

_REDACTED = b"[REDACTED:"
#: finder -> (a literal every match contains, whether it is looked for in the lowercased copy);
#: text without the literal is not scanned (a substring test costs far less than a regex pass,
#: and most text holds no secret).
_NEEDLES: dict[_Finder, tuple[bytes, bool]] = {}


def _regex_rule(
    name: str, pattern: bytes, needle: bytes, *, lower: bool = False, value: str = ""
) -> _Finder:
    """A finder for one pattern.  ``value`` names the group replaced (else the whole match);
    ``lower`` runs it on the lowercased copy (the pattern must then be written in lowercase);
    ``needle`` is a literal every match contains (see ``_NEEDLES``)."""
    rx = re.compile(pattern)

    def find(raw: bytes, low: bytes) -> Iterator[tuple[int, int, str]]:
        for m in rx.finditer(low if lower else raw):
            start, end = m.span(value) if value else m.span()
            yield start, end, name

    _NEEDLES[find] = (needle, lower)
    return find


# A key-character class, and the look-behind that keeps a literal prefix from matching inside a
# longer run of those characters (placed after the literal: see the module docstring).
_KEY = rb"[A-Za-z0-9_-]"


def _token(
    name: str, prefix: bytes, body: bytes, alphabet: bytes = _KEY, *, variant: bytes = b""
) -> _Finder:
    """``prefix`` (a literal), ``variant`` (the rest of the prefix: a fixed-width pattern), then
    ``body`` and no further ``alphabet`` character; never inside a longer run of ``alphabet``."""
    head = re.escape(prefix)
    lookbehind = rb"(?<!" + alphabet + head + rb")"
    pattern = head + lookbehind + variant + body + rb"(?!" + alphabet + rb")"
    return _regex_rule(name, pattern, prefix)


def _find_pem(raw: bytes, low: bytes) -> Iterator[tuple[int, int, str]]:
    pos = 0
    while True:
        begin = _PEM_BEGIN.search(raw, pos)
        if begin is None:
            return
        end = _PEM_END.search(raw, begin.end())
        if end is None:  # unterminated: mask to the end of the text (fail closed)
            yield begin.start(), len(raw), "pem_private_key"
            return
        yield begin.start(), end.end(), "pem_private_key"
        pos = end.end()


_NEEDLES[_find_pem] = (b"PRIVATE KEY-----", False)
_PEM_BEGIN = re.compile(rb"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----")
_PEM_END = re.compile(rb"-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----")

# Assignments: a keyword ending an identifier, an operator, then a quoted or unquoted value.
_OPERATOR = rb"[\"']?[ \t]{0,20}(?::=|=>|[:=](?![:=]))[ \t]{0,20}"
_VALUE = (
    rb"(?:\"(?P<dq>[^\"\n]{6,1024})\"|'(?P<sq>[^'\n]{6,1024})'"
    rb"|(?P<bare>[^\s\"'`,;]{8,1024}))"
)
_PLACEHOLDER = re.compile(rb"[$%{<\[]|[0-9]+$|[a-z]+$|[*x.]+$")


def _placeholder(value: bytes) -> bool:
    """A variable, template, call, index, number, plain word or row of ``*``/``x``."""
    return bool(_PLACEHOLDER.match(value)) or b"(" in value or b"[" in value


def _assignment(name: str, keyword: bytes, variant: bytes = b"") -> _Finder:
    rx = re.compile(
        re.escape(keyword)
        + rb"(?<![a-z0-9]"
        + re.escape(keyword)
        + rb")"
        + variant
        + _OPERATOR
        + _VALUE
    )

    def find(raw: bytes, low: bytes) -> Iterator[tuple[int, int, str]]:
        for m in rx.finditer(low):
            group = "bare" if m.start("bare") >= 0 else ("dq" if m.start("dq") >= 0 else "sq")
            start, end = m.span(group)
            value = raw[start:end]
            if value.startswith(_REDACTED):
                continue
            if _placeholder(value) and (group == "bare" or not _mixed(value)):
                continue
            yield start, end, name

    _NEEDLES[find] = (keyword, True)
    return find


def _mixed(value: bytes) -> bool:
    """A quoted value with letters and digits (``"hunter22"``) is a secret, not a placeholder."""
    return bool(_DIGIT.search(value)) and bool(_LETTER.search(value))


_DIGIT = re.compile(rb"[0-9]")
_LETTER = re.compile(rb"[A-Za-z]")


_NOT_REDACTED = rb"(?!\[redacted:)"

#: The default rules in table order (the order breaks ties between equally long matches).
_RULES: tuple[tuple[str, _Finder], ...] = tuple(
    (finder_name, finder)
    for finder_name, finder in (
        ("pem_private_key", _find_pem),
        (
            "anthropic",
            _token("anthropic", b"sk-ant-", rb"(?:api|admin)[0-9]{2}-[A-Za-z0-9_-]{32,}"),
        ),
        (
            "openai",
            _token("openai", b"sk-", rb"(?!ant-)(?:(?:proj|svcacct|admin)-)?[A-Za-z0-9_-]{20,}"),
        ),
        ("google_api_key", _token("google_api_key", b"AIza", rb"[A-Za-z0-9_-]{35}")),
        (
            "aws_access_key_id",
            _token(
                "aws_access_key_id",
                b"A",
                rb"[A-Z0-9]{16}",
                rb"[A-Za-z0-9]",
                variant=rb"(?:KIA|SIA|BIA|CCA|3T[A-Z0-9])",
            ),
        ),
        (
            "aws_secret_access_key",
            _regex_rule(
                "aws_secret_access_key",
                rb"secret(?:_?access)?_?key"
                + _OPERATOR
                + rb"[\"']?(?P<v>[a-z0-9/+]{40})(?![a-z0-9/+=])",
                b"secret",
                lower=True,
                value="v",
            ),
        ),
        (
            "github",
            _token(
                "github", b"gh", rb"_[A-Za-z0-9]{36,255}", rb"[A-Za-z0-9_]", variant=rb"[pousr]"
            ),
        ),
        ("github", _token("github", b"github_pat_", rb"[A-Za-z0-9_]{22,255}", rb"[A-Za-z0-9_]")),
        (
            "gitlab",
            _token(
                "gitlab",
                b"gl",
                rb"-[A-Za-z0-9_-][A-Za-z0-9_.-]{18,}[A-Za-z0-9_-]",
                variant=rb"(?:pat|dt|rt|ptt|cbt|imt|oas|soat|ffct|agent|ft)",
            ),
        ),
        (
            "slack",
            _token("slack", b"x", rb"-[A-Za-z0-9-]{10,}", variant=rb"(?:ox[bpaorse]|app)"),
        ),
        (
            "slack",
            _regex_rule(
                "slack",
                rb"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/-]{20,}",
                b"hooks.slack.com",
            ),
        ),
        *(
            (
                "stripe",
                _token(
                    "stripe", p, rb"[A-Za-z0-9]{10,}", rb"[A-Za-z0-9_]", variant=rb"(?:live|test)_"
                ),
            )
            for p in (b"sk_", b"rk_")
        ),
        ("stripe", _token("stripe", b"whsec_", rb"[A-Za-z0-9]{24,}", rb"[A-Za-z0-9_]")),
        ("huggingface", _token("huggingface", b"hf_", rb"[A-Za-z0-9]{30,}", rb"[A-Za-z0-9_]")),
        ("huggingface", _token("huggingface", b"api_org_", rb"[A-Za-z0-9]{30,}", rb"[A-Za-z0-9_]")),
        ("npm", _token("npm", b"npm_", rb"[A-Za-z0-9]{36}", rb"[A-Za-z0-9_]")),
        ("pypi", _token("pypi", b"pypi-AgE", rb"[A-Za-z0-9_-]{50,}")),
        (
            "jwt",
            _token("jwt", b"eyJ", rb"[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}"),
        ),
        (
            "bearer",
            _regex_rule(
                "bearer",
                rb"authorization"
                + _OPERATOR
                + rb"(?:bearer|basic|token)[ \t]{1,20}"
                + _NOT_REDACTED
                + rb"(?P<v>[a-z0-9._~+/=-]{8,})",
                b"authorization",
                lower=True,
                value="v",
            ),
        ),
        (
            "url_password",
            _regex_rule(
                "url_password",
                rb"://[^\s/:@\"'<>\[\]]{0,256}:" + _NOT_REDACTED + rb"(?P<v>[^\s/@\"'<>]{1,256})@",
                b"://",
                lower=True,
                value="v",
            ),
        ),
        ("password", _assignment("password", b"pass", rb"(?:word|wd|phrase)")),
        ("secret", _assignment("secret", b"secret")),
        ("token", _assignment("token", b"token")),
        ("api_key", _assignment("api_key", b"api", rb"[_-]?key")),
    )
)

#: The rule names, in table order, each once.
RULE_NAMES: tuple[str, ...] = tuple(dict.fromkeys(name for name, _ in _RULES))
_ORDER = {name: i for i, name in enumerate(RULE_NAMES)}


def _spans(raw: bytes) -> list[_Span]:
    low = raw.lower()
    spans: list[_Span] = []
    for name, finder in _RULES:
        needle, lower = _NEEDLES[finder]
        if needle not in (low if lower else raw):
            continue
        for start, end, kind in finder(raw, low):
            # a byte class may stop inside a UTF-8 sequence: widen to whole characters
            while start > 0 and 0x80 <= raw[start] < 0xC0:
                start -= 1
            while end < len(raw) and 0x80 <= raw[end] < 0xC0:
                end += 1
            if end > start:
                spans.append((start, end, _ORDER[name], kind))
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


def mask_secrets(text: str, /) -> Masked:
    """Replace every secret in ``text`` with ``[REDACTED:<rule>]`` (docs/behaviour.md#d2).

    Args:
        text: any text.

    Returns:
        A :class:`Masked` with the new text, the number of replacements and their rule names.

    Raises:
        TypeError: ``text`` is not a ``str``.

    >>> mask_secrets("key: ghp_" + "a1B2" * 9 + " ok")
    Masked(text='key: [REDACTED:github] ok', count=1, kinds=('github',))
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    raw = text.encode("utf-8", "surrogatepass")
    spans = _spans(raw)
    if not spans:
        return Masked(text, 0, ())
    regions = _regions(spans)
    parts: list[bytes] = []
    pos = 0
    for start, end, name in regions:
        parts.append(raw[pos:start])
        parts.append(b"[REDACTED:%s]" % name.encode("ascii"))
        pos = end
    parts.append(raw[pos:])
    masked = b"".join(parts).decode("utf-8", "surrogatepass")
    return Masked(masked, len(regions), tuple(r[2] for r in regions))


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
