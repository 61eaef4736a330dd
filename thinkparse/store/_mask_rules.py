"""The default masking rules: one finder per token format (docs/behaviour.md#d2).

The rule table, its format sources and the linear-time design are described in ``_masking.py``;
this module builds the finders and decides which ones a text needs (``Presence``).
"""

from __future__ import annotations

import re
from typing import Callable, Iterator

__all__ = ["NEEDLES", "RULES", "Finder", "Presence"]

Finder = Callable[[bytes, bytes], Iterator[tuple[int, int, str]]]
_Finder = Finder

_REDACTED = b"[REDACTED:"
#: finder -> (literals of which every match contains one, whether they are looked for in the
#: lowercased copy); text without any of them is not scanned (see ``_Presence``).
_NEEDLES: dict[_Finder, tuple[tuple[bytes, ...], bool]] = {}
#: Bytes rare in prose that many needles contain: a needle holding one is looked for only in
#: short windows around that byte's occurrences (all needles are at most ``_REACH`` bytes).
_TRIGGERS = (b"_", b"-")
_REACH = 16
#: Below this many bytes the needles are looked for in the whole text.
_SMALL = 1 << 16


class Presence:
    """Which needles occur in one text, each answered once.

    A needle with a trigger byte is looked for in the windows of ``_REACH`` bytes on each side of
    that byte's occurrences (one ``memchr`` when the byte is absent); other needles by a substring
    test of the whole text.  Both cost far less than a regex pass per rule.
    """

    def __init__(self, raw: bytes, low: bytes) -> None:
        self.texts = (raw, low)
        self.small = len(raw) < _SMALL
        self.windows: dict[tuple[bytes, bool], bytes] = {}
        self.found: dict[tuple[bytes, bool], bool] = {}

    def any(self, needles: tuple[bytes, ...], lower: bool) -> bool:
        """Whether one of ``needles`` occurs (in the lowercased copy when ``lower``)."""
        if self.small:  # a short text: a memchr for the trigger byte, then substring tests
            hay = self.texts[lower]
            for needle in needles:
                trigger = _TRIGGER_OF.get(needle)
                if trigger is not None and trigger not in hay:
                    continue
                if needle in hay:
                    return True
            return False
        for needle in needles:  # noqa: SIM110
            if self._has(needle, lower):
                return True
        return False

    def _has(self, needle: bytes, lower: bool) -> bool:
        key = (needle, lower)
        known = self.found.get(key)
        if known is None:
            hay = self.texts[lower]
            trigger = _TRIGGER_OF.get(needle)
            if trigger is not None:
                hay = self._windows(trigger, lower)
            known = self.found[key] = needle in hay
        return known

    def _windows(self, trigger: bytes, lower: bool) -> bytes:
        key = (trigger, lower)
        windows = self.windows.get(key)
        if windows is None:
            hay = self.texts[lower]
            count = hay.count(trigger)
            if not count:
                windows = b""
            elif count * (2 * _REACH + 2) > len(hay) // 4:
                windows = hay  # frequent: the windows would not be much shorter than the text
            else:
                windows = b"\0".join(
                    hay[max(m.start() - _REACH, 0) : m.start() + _REACH + 1]
                    for m in re.finditer(re.escape(trigger), hay)
                )
            self.windows[key] = windows
        return windows


def _regex_rule(
    name: str,
    pattern: bytes,
    needles: tuple[bytes, ...],
    *,
    lower: bool = False,
    value: str = "",
) -> _Finder:
    """A finder for one pattern.  ``value`` names the group replaced (else the whole match);
    ``lower`` runs it on the lowercased copy (the pattern must then be written in lowercase);
    every match contains one of ``needles`` (see ``_NEEDLES``)."""
    rx = re.compile(pattern)

    def find(raw: bytes, low: bytes) -> Iterator[tuple[int, int, str]]:
        for m in rx.finditer(low if lower else raw):
            start, end = m.span(value) if value else m.span()
            yield start, end, name

    _NEEDLES[find] = (needles, lower)
    return find


# A key-character class, and the look-behind that keeps a literal prefix from matching inside a
# longer run of those characters (placed after the literal: see the module docstring).
_KEY = rb"[A-Za-z0-9_-]"


def _token(
    name: str,
    prefix: bytes,
    body: bytes,
    alphabet: bytes = _KEY,
    *,
    variant: bytes = b"",
    needles: tuple[bytes, ...] = (),
) -> _Finder:
    """``prefix`` (a literal), ``variant`` (the rest of the prefix: a fixed-width pattern), then
    ``body`` and no further ``alphabet`` character; never inside a longer run of ``alphabet``."""
    head = re.escape(prefix)
    lookbehind = rb"(?<!" + alphabet + head + rb")"
    pattern = head + lookbehind + variant + body + rb"(?!" + alphabet + rb")"
    return _regex_rule(name, pattern, needles or (prefix,))


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


_NEEDLES[_find_pem] = ((b"PRIVATE KEY-----",), False)
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

    _NEEDLES[find] = ((keyword,), True)
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
                (b"secret",),
                lower=True,
                value="v",
            ),
        ),
        (
            "github",
            _token(
                "github",
                b"gh",
                rb"_[A-Za-z0-9]{36,255}",
                rb"[A-Za-z0-9_]",
                variant=rb"[pousr]",
                needles=(b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"),
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
                needles=(
                    b"glpat-",
                    b"gldt-",
                    b"glrt-",
                    b"glptt-",
                    b"glcbt-",
                    b"glimt-",
                    b"gloas-",
                    b"glsoat-",
                    b"glffct-",
                    b"glagent-",
                    b"glft-",
                ),
            ),
        ),
        (
            "slack",
            _token(
                "slack",
                b"x",
                rb"-[A-Za-z0-9-]{10,}",
                variant=rb"(?:ox[bpaorse]|app)",
                needles=(
                    b"xoxb-",
                    b"xoxp-",
                    b"xoxa-",
                    b"xoxo-",
                    b"xoxr-",
                    b"xoxs-",
                    b"xoxe-",
                    b"xapp-",
                ),
            ),
        ),
        (
            "slack",
            _regex_rule(
                "slack",
                rb"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/-]{20,}",
                (b"hooks.slack.com",),
            ),
        ),
        *(
            (
                "stripe",
                _token(
                    "stripe",
                    p,
                    rb"[A-Za-z0-9]{10,}",
                    rb"[A-Za-z0-9_]",
                    variant=rb"(?:live|test)_",
                    needles=(p + b"live_", p + b"test_"),
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
                (b"authorization",),
                lower=True,
                value="v",
            ),
        ),
        (
            "url_password",
            _regex_rule(
                "url_password",
                rb"://[^\s/:@\"'<>\[\]]{0,256}:" + _NOT_REDACTED + rb"(?P<v>[^\s/@\"'<>]{1,256})@",
                (b"://",),
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


RULES = _RULES
NEEDLES = _NEEDLES
#: needle -> its trigger byte (needles without one are absent).
_TRIGGER_OF = {
    needle: next(t for t in _TRIGGERS if t in needle)
    for needles, _ in _NEEDLES.values()
    for needle in needles
    if any(t in needle for t in _TRIGGERS)
}
