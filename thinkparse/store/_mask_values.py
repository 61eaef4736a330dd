"""What a value assigned to a secret's name must look like to be masked (docs/behaviour.md#d2).

Used by the assignment, header and command-line finders (``_mask_assign.py``,
``_mask_commands.py``).  A *placeholder* is written to be replaced and is kept: ``$VAR``,
``${…}``, ``{{…}}``, ``<…>``, ``%s``, ``[NAME]``, fillers (``xxxx``, ``***``, ``...``), an
environment-variable name (``YOUR_API_KEY``), ``your-…``, a word such as ``none`` or
``changeme``.  An unquoted value must also look *generated*: 8+ bytes; not a file path, a dotted
code reference (``settings.SECRET``), a call or an index (``get_token(user)``, ``getenv(``), a
capitalised word or a count; and with mixed case past its first letter, or letters and symbols,
or letters and scattered digits (``base64`` is a word with a number glued to it, not a key).
"""

from __future__ import annotations

import re

__all__ = ["accept", "generated", "is_call", "mixed", "placeholder", "strip_closers"]

_FILL = re.compile(rb"[xX]{4}|\*{3}|\.{3}|#{4}|\xe2\x80\xa6|\xe2\x80\xa2")
#: {name}, {{ x }}, {"json": …}, [NAME], %s, %(name)s, %NAME%: templates and formats, not values.
_TEMPLATE = re.compile(
    rb"\{\{.*|\{[\"'].*|\{.*\}|\[[A-Za-z_ -]+\]|%(?:\([A-Za-z_]+\))?[sdrif]|%[A-Za-z_]+%",
    re.DOTALL,
)
_ENV_NAME = re.compile(rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_DOLLAR = re.compile(rb"\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*|\{.*|\(.*)", re.DOTALL)
_WORDS_ONLY = frozenset(
    b"changeme password passwd secret token none null nil undefined true false redacted example "
    b"dummy placeholder test foo bar baz required optional string".split()
)
_CODE_REF = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")
_SYMBOL = re.compile(rb"[!@#$%^*+=?~|:/]")
#: A file path: segments of words (a capital only first), not base64 that starts with a slash.
_PATH = re.compile(rb"(?:~|\.{1,2})?(?:/[A-Za-z]?[a-z0-9._-]*)+/?")
_DIGIT_RUNS = re.compile(rb"[0-9]+")
_ALPHA = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
#: A call or an index: a name of words (snake_case, camelCase, PascalCase; digits only at the
#: end of a word), dotted, then a bracket.  A generated value mixes digits and capitals in.
_NAME = (
    rb"(?:[a-z_]+[0-9]*(?:_[a-z]+[0-9]*)*|[a-z]+(?:[A-Z][a-z]+)*[0-9]*|(?:[A-Z][a-z]{2,})+[0-9]*)"
)
_CODE_CALL = re.compile(_NAME + rb"(?:\." + _NAME + rb")*[(\[]")
_OPENERS = {b")": b"(", b"]": b"[", b"}": b"{"}
#: Rules whose values are issued by machines: no spaces, not a dictionary word.
_MACHINE = ("token", "credential", "bearer")
_PHRASE = re.compile(rb"\s")
_WORD = re.compile(rb"[A-Za-z][a-z]{0,11}")


def placeholder(value: bytes) -> bool:
    """A value written to be replaced (module docstring), or a label already in the text."""
    if not value or value.startswith(b"[REDACTED:"):
        return True
    if value[:1] == b"$":  # $VAR, ${x}, $(cmd); $YYbMDot25P is a password
        return bool(_DOLLAR.fullmatch(value))
    if value[:1] == b"<" or _FILL.search(value):
        return True
    if value[:1] in b"{[%" and _TEMPLATE.fullmatch(value):
        return True
    if len(value) >= 16 and len(set(value)) < 6:
        return True
    if _ENV_NAME.fullmatch(value) and (b"_" in value or value.isalpha()):
        return True
    low = value.lower()
    if low.startswith((b"your", b"<your", b"my-", b"my_", b"enter", b"insert", b"replace")):
        return True
    return low in _WORDS_ONLY


def generated(value: bytes) -> bool:
    """An unquoted value that looks generated (module docstring)."""
    if len(value) < 8 or placeholder(value) or _PATH.fullmatch(value):
        return False
    if _CODE_REF.fullmatch(value):
        return False
    if value.isdigit():
        return len(value) >= 16  # a long number is an id or a key, not a count
    letters = sum(c in _ALPHA for c in value)
    digits = sum(48 <= c <= 57 for c in value)
    if any(65 <= c <= 90 for c in value[1:]) and any(97 <= c <= 122 for c in value):
        return True  # mixed case past the first letter: not a capitalised word
    if letters and _SYMBOL.search(value):
        return True
    # letters and digits: the digits scattered, not one number glued to a word (``base64``)
    return bool(letters and digits) and (len(_DIGIT_RUNS.findall(value)) >= 2 or digits >= 4)


def mixed(value: bytes) -> bool:
    """Letters and digits, both cases, or a symbol: not a plain word (``user:pass`` in curl)."""
    digit, alpha = any(48 <= c <= 57 for c in value), any(c in _ALPHA for c in value)
    upper, lower = any(65 <= c <= 90 for c in value), any(97 <= c <= 122 for c in value)
    return (digit and alpha) or (upper and lower) or bool(_SYMBOL.search(value))


def accept(kind: str, value: bytes, weak: bool, suffixed: bool, rule: str = "") -> bool:
    """Whether ``value`` is masked, given its kind (``quoted``, ``bare``, ``xml`` element text)
    and its name: ``weak`` (a service name before ``key``: the value must look generated and be
    20+ bytes), ``suffixed`` (words after the secret's: a quoted value needs 8+ bytes, not 6).
    A quoted ``token`` or ``credential`` holds no space and is not one short word
    (``{"token": " function", "logprob": -0.1}``); a password may be a phrase."""
    if kind == "quoted":
        if rule in _MACHINE and (_PHRASE.search(value.strip()) or _WORD.fullmatch(value.strip())):
            return False
        value = value.strip()
    elif kind == "xml":  # element text: judge its longest word, braces aside
        value = max(value.strip().strip(b"{}").split(), key=len, default=b"")
    if placeholder(value):
        return False
    if weak:
        return len(value) >= 20 and generated(value)
    if kind == "quoted":
        return len(value) >= (8 if suffixed else 6)
    return generated(value)


def is_call(value: bytes) -> bool:
    """A call or an index that the value ends with (``get_token(user)``) or stops at
    (``getenv(`` before a quote); a generated value may hold a bracket too, but goes on."""
    m = _CODE_CALL.match(value)
    return m is not None and (m.end() == len(value) or value.rstrip(b":;,.")[-1:] in (b")", b"]"))


def strip_closers(value: bytes) -> bytes:
    """``value`` without the closing brackets at its end that it did not open
    (``f(token=abc123)``, ``{"k": v}``): they end the value, they are not in it."""
    while value[-1:] in _OPENERS and value.count(value[-1:]) > value.count(_OPENERS[value[-1:]]):
        value = value[:-1]
    return value
