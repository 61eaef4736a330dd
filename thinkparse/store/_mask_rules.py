"""The finders of prefixed tokens, the rows of ``_mask_catalogue.py`` (docs/behaviour.md#d2).

A finder takes the UTF-8 bytes of a text and their ASCII-lowercased copy (same length) and yields
``(start, end, rule)`` spans.  The rule table and the linear-time design: ``_masking.py``.  The
other finders: private-key blocks and URL passwords (``_mask_blocks.py``), assignments
(``_mask_assign.py``), commands (``_mask_commands.py``).

A token starts where no key character (letter, digit, ``_``) precedes it, or right after an
escape sequence that ends in one (``\\n``, ``\\u00e9``, ``%20``), or after a hyphen.  Its
random part must not be a placeholder: no run of five ``x``/``*``/``#``/``.``, no template, six
distinct characters or more, and (unless the row is ``plain``) a digit or both cases.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Iterator, Optional

from ._mask_catalogue import TOKENS, Token

__all__ = [
    "PATTERNS",
    "TOKEN_FINDERS",
    "Finder",
    "Span",
    "compile_rx",
    "free_before",
    "placeholder_token",
]

Span = tuple[int, int, str]
Finder = Callable[[bytes, bytes], Iterable[Span]]

#: Every compiled pattern of the finders (the tests check that each repeat has a bound).
PATTERNS: list[re.Pattern[bytes]] = []


def compile_rx(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """``re.compile``, recorded in ``PATTERNS``."""
    compiled = re.compile(pattern, flags)
    PATTERNS.append(compiled)
    return compiled


_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
#: Bytes that may not precede a token: a hyphen may (``id-ghp_…``, ``user-sk-…``).
_BEFORE = _WORD - {0x2D}
_ALPHA = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_HEXB = frozenset(b"0123456789abcdefABCDEF")
_DIGITS = frozenset(b"0123456789")
_BACKSLASH = 0x5C


def free_before(raw: bytes, start: int) -> bool:
    """Whether a token may start at ``start``: not inside a run of key characters.

    An escape sequence that ends in a letter or digit (``\\n``, ``\\t``, ``\\u00e9``, ``\\x41``,
    ``%20``) does not count as part of the run: JSON and URL-encoded text put keys right after
    them.
    """
    if start == 0 or raw[start - 1] not in _BEFORE:
        return True
    if start >= 2 and raw[start - 2] == _BACKSLASH and raw[start - 1] in _ALPHA:
        return True
    if start >= 6 and raw[start - 6] == _BACKSLASH and raw[start - 5] in b"uU":
        return all(c in _HEXB for c in raw[start - 4 : start])  # \u00e9
    if start >= 4 and raw[start - 4] == _BACKSLASH and raw[start - 3] in b"xX":
        return all(c in _HEXB for c in raw[start - 2 : start])  # \x41
    if start >= 3 and raw[start - 3] == 0x25:  # %XX
        return all(c in _HEXB for c in raw[start - 2 : start])
    return False


#: Documentation fillers: five of the same filler character, a template or an angle bracket.
_FILLER = re.compile(rb"([xX*#.])\1{4}|\$\{|\{\{|<")
_UPPER = re.compile(rb"[A-Z]")
_LOWER = re.compile(rb"[a-z]")
_DIGIT = re.compile(rb"[0-9]")


def placeholder_token(body: bytes, plain: bool = False) -> bool:
    """Whether the random part of a token is a documentation placeholder (``ghp_xxxx…``).

    A placeholder holds a run of five ``x``/``X``/``*``/``#``/``.``, a template, few distinct
    characters, or (unless ``plain``) neither a digit nor both cases.
    """
    if _FILLER.search(body):
        return True
    if len(body) >= 12 and len(set(body)) < 6:
        return True
    if plain:
        return False
    return not (_DIGIT.search(body) or (_UPPER.search(body) and _LOWER.search(body)))


# --- hooks: tokens whose start or companion the pattern cannot express -------------------------
_AWS_PAIR = compile_rx(
    rb"[\"']?[ \t]{0,4}[,;:|\t][ \t]{0,4}[\"']?(?P<s>[A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"
)


def _hook_aws_pair(raw: bytes, start: int, end: int) -> Iterator[Span]:
    """An access key id followed by its secret (the console's CSV row ``AKIA…,wJalr…``)."""
    m = _AWS_PAIR.match(raw, end)
    if m is not None and not placeholder_token(m.group("s")):
        yield m.start("s"), m.end("s"), "aws_secret_access_key"


def _hook_digits(raw: bytes, start: int) -> Optional[int]:
    """The start of ``<5-16 digits>:`` before a Telegram bot token's ``:`` (or ``bot<digits>:``);
    digits that end an escape (``\\u00e9``) are not the bot id's."""
    i = start
    while i > 0 and start - i < 17 and raw[i - 1] in _DIGITS:
        i -= 1
    for j in range(i, start - 4):
        if free_before(raw, j) or raw[max(j - 3, 0) : j].lower() == b"bot":
            return j
    return None


def _hook_discord(raw: bytes, start: int) -> Optional[int]:
    """The start of a Discord bot token's first part (base64 of the bot id: ``[MNO]`` and 22 to
    27 more characters), the longest that may start there."""
    i = start
    while i > 0 and start - i < 28 and raw[i - 1] in _WORD:
        i -= 1
    for j in range(i, start - 22):
        if raw[j] in b"MNO" and free_before(raw, j):
            return j
    return None


_BACK_HOOKS = {"bot_id": _hook_digits, "base64_id": _hook_discord}
#: What the reversed scan requires after the separator (before it in the text) for each hook.
_HOOK_LOOKS = {"bot_id": rb"(?=[0-9]{5})", "base64_id": rb"(?=[A-Za-z0-9_-]{23})"}


# --- the token engine --------------------------------------------------------------------------
# Python's ``re`` scans fast only for a pattern that starts with a literal byte (a byte class
# costs an interpreted test per byte), so each scan below starts with one.  Most prefixes hold a
# separator (``ghp_``, ``sk-``, ``hvs.``): they are found in the reversed text, one scan per
# separator byte, by a trie that spells the part before the separator backwards (``_phg``,
# ``_ohg``, ``-ks``): a separator costs a few byte comparisons.  A candidate then matches the
# forward patterns of its rows, in table order.  Prefixes without a separator get forward scans,
# one per first byte.
_SEPARATORS = b"_-.~:$"
_ESCAPED_START = (
    rb"(?:(?![A-Za-z0-9_])|(?=[A-Za-z]\\)|(?=[0-9A-Fa-f]{4}[uU]\\)"
    rb"|(?=[0-9A-Fa-f]{2}(?:%|[xX]\\)))"
)
_ATOM = re.compile(rb"\[[^\]]*\](?:\{[0-9,]+\})?|\\.|.")


def _reversed_pattern(pattern: bytes) -> bytes:
    """A ``before`` pattern (literals and byte classes with counts) spelled backwards."""
    return b"".join(reversed(_ATOM.findall(pattern)))


class _Row:
    """A catalogue row compiled for one prefix: the forward pattern anchored at its start."""

    def __init__(self, token: Token, prefix: bytes) -> None:
        self.token = token
        self.prefix = prefix
        body = rb"(?P<b>" + token.body + rb")(?!" + token.tail + rb")"
        self.rx = compile_rx(token.before + re.escape(prefix) + body)


def _check(raw: bytes, row: _Row, m: re.Match[bytes], start: int = -1) -> Iterator[Span]:
    """The spans of a forward match that is not a placeholder (and an AWS key id's secret)."""
    token = row.token
    body = raw[m.start() : m.start() + token.before_width] + m.group("b")
    if placeholder_token(body, token.plain):
        return
    yield (m.start() if start < 0 else start), m.end(), token.rule
    if token.rule == "aws_access_key_id":
        yield from _hook_aws_pair(raw, m.start(), m.end())


def _trie(keys: dict[bytes, tuple[str, bytes]]) -> bytes:
    """A regex for any of ``keys``, each ending in its guard and an empty named group
    (``lastgroup`` tells which matched); longer keys are tried first."""
    children: dict[int, dict[bytes, tuple[str, bytes]]] = {}
    for key, leaf in keys.items():
        if key:
            children.setdefault(key[0], {})[key[1:]] = leaf
    branches = [re.escape(bytes([c])) + _trie(sub) for c, sub in sorted(children.items())]
    if b"" in keys:
        name, guard = keys[b""]
        branches.append(guard + b"(?P<" + name.encode() + b">)")
    return branches[0] if len(branches) == 1 else b"(?:" + b"|".join(branches) + b")"


def _guard(key: bytes, rows: list[_Row]) -> bytes:
    """Lookbehinds (in the reversed text) for the rest of the rows' prefixes after ``key``, so
    that ``api_key`` is no candidate of ``api_org_``; none when a row's prefix is ``key``."""
    rests = {row.prefix[len(key) :] for row in rows}
    if b"" in rests:
        return b""
    looks = [rb"(?<=" + re.escape((key + rest)[::-1]) + rb")" for rest in sorted(rests)]
    return looks[0] if len(looks) == 1 else b"(?:" + b"|".join(looks) + b")"


#: Candidates tried in one run of key characters: more make the run a chain of prefixes
#: (``sk-sk-sk-…``), not tokens, and trying each would cost the run's length every time.
_CAP = 8
_NOT_KEY = re.compile(rb"[^A-Za-z0-9_-]")
_NO_START = re.compile(rb"[^A-Za-z0-9_]")


class _Cap:
    """Counts the candidates in the current run of key characters (nothing else lies between a
    candidate and the one before it)."""

    __slots__ = ("count", "last")

    def __init__(self) -> None:
        self.last = -1
        self.count = 0

    def allow(self, raw: bytes, pos: int) -> bool:
        last, self.last = self.last, pos
        lo, hi = (pos, last) if pos < last else (last, pos)
        if last >= 0 and _NOT_KEY.search(raw, lo, hi) is None:
            self.count += 1
            return self.count <= _CAP
        self.count = 1
        return True


class _Reverse:
    """The rows found from one separator byte, scanning the reversed text."""

    def __init__(self) -> None:
        self.keyed: dict[bytes, list[_Row]] = {}  # prefix up to its first separator -> rows
        self.other: list[tuple[bytes, _Row]] = []  # (reversed pattern, row): before / hook rows

    def finder(self) -> Callable[[bytes, bytes], Iterator[Span]]:
        """A finder taking the text and the text reversed."""
        names: dict[str, tuple[str, object]] = {}
        keys = {}
        for i, (key, rows) in enumerate(self.keyed.items()):
            keys[key[::-1]] = (f"k{i}", _guard(key, rows))
            names[f"k{i}"] = ("keyed", rows)
        parts = [_trie(keys) + _ESCAPED_START] if keys else []
        for i, (pattern, row) in enumerate(self.other):
            parts.append(pattern + b"(?P<o%d>)" % i)
            names[f"o{i}"] = ("other", row)
        rx = compile_rx(b"|".join(parts))

        def find(raw: bytes, rev: bytes) -> Iterator[Span]:
            n = len(raw)
            cap = _Cap()
            pos = 0
            while True:
                m = rx.search(rev, pos)
                if m is None:
                    return
                assert m.lastgroup is not None
                kind, what = names[m.lastgroup]
                start = n - m.end()
                pos = m.end()
                if not cap.allow(raw, start):  # a chain of prefixes: skip the rest of the run
                    edge = _NOT_KEY.search(rev, m.start())
                    pos = n if edge is None else edge.start()
                    continue
                if kind == "keyed":
                    yield from _first_row(raw, what, start)  # type: ignore[arg-type]
                else:
                    yield from _other(raw, what, n - m.start() - 1, start)  # type: ignore[arg-type]

        return find


def _first_row(raw: bytes, rows: list[_Row], start: int) -> Iterator[Span]:
    """The spans of the first of ``rows`` (in table order) that matches at ``start``."""
    for row in rows:
        fm = row.rx.match(raw, start)
        if fm is not None:
            yield from _check(raw, row, fm)
            return


def _other(raw: bytes, row: _Row, sep: int, start: int) -> Iterator[Span]:
    """A row with a ``before`` part (``start``: where it begins) or a hook (``sep``: where its
    one-byte prefix is)."""
    token = row.token
    hook = _BACK_HOOKS.get(token.hook)
    if hook is None:  # a prefix that starts with a separator is inside a longer token
        fm = row.rx.match(raw, start)
        inside = row.prefix[0] in _SEPARATORS and not token.before
        if fm is not None and (inside or free_before(raw, start)):
            yield from _check(raw, row, fm)
        return
    fm = row.rx.match(raw, sep)
    found = None if fm is None else hook(raw, sep)
    if fm is not None and found is not None:
        yield from _check(raw, row, fm, found)


def _forward_finder(rows: list[_Row]) -> Finder:
    """One scan for the prefixes that share a first byte; their rows are tried in Python."""
    by_prefix: dict[bytes, list[_Row]] = {}
    for row in rows:
        by_prefix.setdefault(row.prefix, []).append(row)
    names = {f"f{i}": prefix for i, prefix in enumerate(by_prefix)}
    rx = compile_rx(_trie({prefix: (name, b"") for name, prefix in names.items()}))

    def find(raw: bytes, low: bytes) -> Iterator[Span]:
        cap = _Cap()
        pos = 0
        while True:
            m = rx.search(raw, pos)
            if m is None:
                return
            assert m.lastgroup is not None
            start, pos = m.start(), m.end()
            if not free_before(raw, start):  # inside a word: on to its next hyphen or its end
                edge = _NO_START.search(raw, start)
                pos = len(raw) if edge is None else edge.start()
                continue
            if not cap.allow(raw, start):  # a chain of prefixes: skip the rest of the run
                edge = _NOT_KEY.search(raw, start)
                pos = len(raw) if edge is None else edge.start()
                continue
            yield from _first_row(raw, by_prefix[names[m.lastgroup]], start)

    return find


def _build_token_finders() -> list[tuple[str, Finder]]:
    reverse: dict[int, _Reverse] = {}
    forward: dict[bytes, list[_Row]] = {}
    for token in TOKENS:
        for prefix in token.prefixes:
            row = _Row(token, prefix)
            seps = [i for i, c in enumerate(prefix) if c in _SEPARATORS]
            caps = [i for i, c in enumerate(prefix) if 65 <= c <= 90]
            if not seps and prefix[:1].islower() and caps and not token.before:
                seps = caps[:1]  # eyJ: found from its capital, rarer in text than its first byte
            if not seps:
                forward.setdefault(prefix[:1], []).append(row)
                continue
            if token.hook or token.before or seps[0] == 0:
                t = seps[0] if token.hook else seps[-1]
                pattern = re.escape(prefix[: t + 1][::-1]) + _reversed_pattern(token.before)
                if token.hook:  # the hook checks what comes before: here only a cheap test of it
                    pattern = re.escape(prefix[t : t + 1]) + _HOOK_LOOKS[token.hook]
                reverse.setdefault(prefix[t], _Reverse()).other.append((pattern, row))
                continue
            t = seps[0]
            keyed = reverse.setdefault(prefix[t], _Reverse()).keyed
            keyed.setdefault(prefix[: t + 1], []).append(row)
    scans = [rev.finder() for rev in reverse.values()]

    def find_separated(raw: bytes, low: bytes) -> Iterator[Span]:
        rev = raw[::-1]
        for scan in scans:
            yield from scan(raw, rev)

    out: list[tuple[str, Finder]] = [("separators", find_separated)]
    out += [(first.decode("latin-1"), _forward_finder(rows)) for first, rows in forward.items()]
    return out


TOKEN_FINDERS: list[tuple[str, Finder]] = _build_token_finders()
