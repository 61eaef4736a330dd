"""The single home of thinkparse's constants, defaults and option checking.

Both scanners (``thinkparse._scanner_py`` and the compiled ``thinkparse._scanner_c``) import
everything they share from here, so the two can never disagree on a limit or a preset.

Rules referenced (see docs/behaviour.md): R1 (``<REASONING>`` tags), T1 (tag syntax limits),
T2 (``max_tentative``), T5 (fences: at most 3 spaces of indent, runs of at least 3), T9 (the
``"\\n\\n"`` separator), A3 (option validation), presets (presets).

Decisions where the rules are silent:

* Options passed explicitly replace a preset's value even when they equal the documented default
  (``preset="deepseek-r1", start_in_reasoning=False`` turns the implicit block off). The defaults
  are sentinels that print as the documented values, so signatures read as documented.
* ``tags`` may be any iterable of ``str`` (a ``str`` alone means one name); duplicates are kept in
  order but only the first occurrence matters, since the first matching pair wins (T1 order).
* ``max_tentative`` of ``sys.maxsize`` (2**63 - 1 on 64-bit builds) or more is accepted and
  means no limit, exactly like ``None``: no text can be that long, and both scanners keep the
  cap in a machine-sized integer.  (It is not an error: such a value is a valid "unlimited".)
* A delimiter may not be empty and its open and close may not be equal (a block could never be
  told from its end); a delimiter starting with ``<`` is allowed and is tried before the names.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Any, Literal, NamedTuple, Optional, Union

from ._presets import PRESETS

# --- <REASONING> convention (R1) -------------------------------------------------------------
REASONING_OPEN = "<REASONING>"
REASONING_CLOSE = "</REASONING>"

#: tokens_est = ceil(len(reasoning) / CHARS_PER_TOKEN) (R6, P5).
CHARS_PER_TOKEN = 4

#: The joint between reasoning blocks (T9, S3, P2).
SEPARATOR = "\n\n"

# --- tag syntax (T1) -------------------------------------------------------------------------
DEFAULT_TAG = "think"
#: Characters allowed after ``<N`` + one ASCII whitespace, before ``>``.
MAX_ATTR_CHARS = 255
#: ASCII whitespace characters allowed between ``</N`` and ``>``.
MAX_CLOSER_SPACE = 256
#: "ASCII whitespace" inside tags is exactly these four.
TAG_SPACE = " \t\n\r"

# --- misuse (see behaviour.md#m1) -------------------------------
#: ``feed()``/``close()``/a property of a scanner whose ``__init__`` never ran or raised.
NOT_INITIALISED = (
    "scanner not initialised: ThinkScanner.__init__ did not run or raised; create it with "
    "ThinkScanner(...)"
)
#: A ``feed()``/``close()`` that starts while another call of the same scanner is running.
REENTERED = (
    "ThinkScanner re-entered: feed() or close() was called while another feed() or close() "
    "of the same scanner was still running (from a finalizer such as __del__, or from another "
    "thread sharing the scanner); a scanner serves one caller at a time"
)

# --- code awareness (T5) ---------------------------------------------------------------------
FENCE_MIN_RUN = 3
FENCE_MAX_INDENT = 3

# --- tentative blocks (T2) -------------------------------------------------------------------
DEFAULT_MAX_TENTATIVE = 8192

# --- candidate kinds (shared encoding of what can match at a position, T1 "Order") ------------
#: A literal delimiter opener / closer (exact, case-sensitive).
LIT_OPEN = 0
LIT_CLOSE = 1
#: ``<name ...>`` / ``</name >`` with ASCII case-insensitive names.
TAG_OPEN = 2
TAG_CLOSE = 3


# --- option types (for the public signatures) -------------------------------------------------
#: ``tags``: one name, or names in T1 order; ``None`` for the default.
TagsOption = Optional[Union[str, Iterable[str]]]
#: ``delimiters``: literal ``(open, close)`` pairs.
DelimitersOption = Iterable[tuple[str, str]]
#: ``start_in_reasoning`` where the whole text is at hand (T10 adds ``"auto"``).
StartAutoOption = Union[bool, Literal["auto"]]

class _Default:
    """A default value that prints as the documented default and is known not to be explicit."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


DEFAULT_TAGS_OPT: Any = _Default(None)
DEFAULT_DELIMITERS_OPT: Any = _Default(())
DEFAULT_START_OPT: Any = _Default(False)
DEFAULT_CODE_AWARE_OPT: Any = _Default(True)
DEFAULT_MAX_TENTATIVE_OPT: Any = _Default(DEFAULT_MAX_TENTATIVE)

StartOption = Union[bool, str]


class Config(NamedTuple):
    """Validated scanner options, in the form both scanners consume."""

    #: (kind, text, pair) for every candidate, in T1 priority order; ``pair`` indexes pairs.
    candidates: tuple[tuple[int, str, int], ...]
    #: (open candidate index, close candidate index) per pair.
    pairs: tuple[tuple[int, int], ...]
    #: True, False or "auto" (``"auto"`` only where allowed).
    start_in_reasoning: StartOption
    code_aware: bool
    #: -1 means no limit.
    max_tentative: int
    #: Every character that can begin a candidate (``<`` and delimiters' first characters).
    first_chars: str


def _names(value: Any) -> tuple[str, ...]:
    if isinstance(value, str):
        value = (value,)
    try:
        items = tuple(value)
    except TypeError:
        raise TypeError(
            f"tags must be a str or a sequence of str, not {type(value).__name__}"
        ) from None
    for name in items:
        if not isinstance(name, str):
            raise TypeError(f"tags: each name must be a str, not {type(name).__name__}")
        if not name:
            raise ValueError("tags: a tag name may not be empty")
        bad = [c for c in name if c in "<>/" or c.isspace()]
        if bad:
            raise ValueError(
                f"tags: tag name {name!r} may not contain {bad[0]!r} "
                "(no '<', '>', '/' or whitespace)"
            )
    return items


def _delimiters(value: Any, code_aware: bool) -> tuple[tuple[str, str], ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(
            "delimiters must be a sequence of (open, close) pairs, "
            f"not {type(value).__name__}"
        )
    pairs = []
    for i, pair in enumerate(value):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable):
            raise ValueError(f"delimiters[{i}] must be an (open, close) pair of str")
        items = tuple(pair)
        if len(items) != 2 or not all(isinstance(x, str) for x in items):
            raise ValueError(f"delimiters[{i}] must be an (open, close) pair of str")
        open_, close = items
        if not open_ or not close:
            raise ValueError(f"delimiters[{i}]: a delimiter may not be empty")
        if open_ == close:
            raise ValueError(f"delimiters[{i}]: open and close must differ")
        if code_aware:
            for d in (open_, close):
                if d[0] in "`~":
                    raise ValueError(
                        f"delimiters[{i}]: {d!r} starts with {d[0]!r}, which code_aware=True "
                        "reads as code (T5); pass code_aware=False to use it"
                    )
        pairs.append((open_, close))
    return tuple(pairs)


def _ascii_lower(s: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


_CACHE: dict[Any, Config] = {}
_CACHE_SIZE = 256


_ATOMS = (type(None), bool, int, str, _Default)
_ATOM_SET = frozenset(_ATOMS)


def _frozen(value: Any) -> bool:
    """Whether ``value`` is built only of exact immutable types (a safe cache key)."""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if kind is tuple:
        return all(_frozen(item) for item in value)
    return False


def resolve_options(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    *,
    allow_auto: bool,
) -> Config:
    """Validate options and fill them from ``preset`` (docs/behaviour.md#a3, #presets).

    Valid results are remembered when every option is built only of exact ``None``, ``bool``,
    ``int``, ``str`` and ``tuple`` values (keyed with each value's type, so ``True`` and ``1``
    never share an entry): scanners are cheap to create repeatedly, and an option object whose
    contents can change (a list, a custom iterable) is read afresh at every call.

    Raises:
        ValueError: naming the option, for any invalid value (docs/behaviour.md#a3).
        TypeError: for an option of the wrong type.
    """
    if (
        tags is DEFAULT_TAGS_OPT
        and delimiters is DEFAULT_DELIMITERS_OPT
        and code_aware is DEFAULT_CODE_AWARE_OPT
        and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
    ):
        # The usual calls: defaults, a preset, a start mode.  A short key (the start mode's
        # type included, so ``True`` and ``1`` stay apart) saves most of the lookup.
        if start_in_reasoning is DEFAULT_START_OPT and preset is None:
            return _DEFAULT_CONFIG
        short = (preset, type(preset), start_in_reasoning, type(start_in_reasoning), allow_auto)
        cfg = _CACHE.get(short)
        if cfg is not None:
            return cfg
        if type(preset) in _ATOM_SET and type(start_in_reasoning) in _ATOM_SET:
            cfg = _resolve(
                tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
                allow_auto,
            )
            _remember(short, cfg)
            return cfg
    args = (tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, allow_auto)
    kinds = tuple(map(type, args))
    if not _ATOM_SET.issuperset(kinds) and not all(_frozen(a) for a in args):
        # A list, a set, a generator or any other object whose contents may change between
        # calls (or be used up): never remembered, so a result never depends on its history.
        return _resolve(*args)
    key = (args, kinds)
    cfg = _CACHE.get(key)
    if cfg is not None:
        return cfg
    cfg = _resolve(*args)
    _remember(key, cfg)
    return cfg


def options_config(options: Mapping[str, Any], *, allow_auto: bool) -> Config:
    """:func:`resolve_options` of a mapping of scanner options (absent ones are the defaults).

    Raises:
        ValueError, TypeError: as :func:`resolve_options`.
    """
    return resolve_options(
        options.get("tags", DEFAULT_TAGS_OPT),
        options.get("delimiters", DEFAULT_DELIMITERS_OPT),
        options.get("start_in_reasoning", DEFAULT_START_OPT),
        options.get("code_aware", DEFAULT_CODE_AWARE_OPT),
        options.get("max_tentative", DEFAULT_MAX_TENTATIVE_OPT),
        options.get("preset"),
        allow_auto=allow_auto,
    )


def _remember(key: Any, cfg: Config) -> None:
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = cfg


def _resolve(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    allow_auto: bool,
) -> Config:
    chosen: dict[str, Any] = {}
    if preset is not None:
        if not isinstance(preset, str):
            raise TypeError(f"preset must be a str, not {type(preset).__name__}")
        if preset not in PRESETS:
            raise ValueError(
                f"preset: unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))}"
            )
        chosen.update(PRESETS[preset])

    def pick(name: str, value: Any) -> Any:
        if isinstance(value, _Default):
            return chosen.get(name, value.value)
        return value

    tags = pick("tags", tags)
    delimiters = pick("delimiters", delimiters)
    start = pick("start_in_reasoning", start_in_reasoning)
    code = pick("code_aware", code_aware)
    cap = pick("max_tentative", max_tentative)

    if not isinstance(code, bool):
        raise TypeError(f"code_aware must be a bool, not {type(code).__name__}")
    if start == "auto":
        if not allow_auto:
            raise ValueError(
                'start_in_reasoning="auto" needs the whole text: it is available in '
                "split_think and strip_think only, not when streaming"
            )
    elif not isinstance(start, bool):
        raise ValueError(
            f'start_in_reasoning must be True, False or "auto", not {start!r}'
        )
    if cap is None:
        cap = -1
    elif isinstance(cap, bool) or not isinstance(cap, int):
        raise TypeError(f"max_tentative must be an int or None, not {type(cap).__name__}")
    elif cap < 1:
        raise ValueError(f"max_tentative must be at least 1 (or None), not {cap}")
    elif cap >= sys.maxsize:
        cap = -1  # no text can be that long: "effectively unlimited", exactly like None

    delims = _delimiters(delimiters, code)
    names = _names(tags) if tags is not None else (() if delims else (DEFAULT_TAG,))
    if not names and not delims:
        raise ValueError("tags: no tag names and no delimiters: nothing could ever match")

    candidates: list[tuple[int, str, int]] = []
    pairs: list[tuple[int, int]] = []
    for open_, close in delims:
        p = len(pairs)
        candidates += [(LIT_OPEN, open_, p), (LIT_CLOSE, close, p)]
        pairs.append((len(candidates) - 2, len(candidates) - 1))
    for name in names:
        p = len(pairs)
        low = _ascii_lower(name)
        candidates += [(TAG_OPEN, low, p), (TAG_CLOSE, low, p)]
        pairs.append((len(candidates) - 2, len(candidates) - 1))
    first = "".join(sorted({text[0] if kind < TAG_OPEN else "<" for kind, text, _ in candidates}))
    return Config(tuple(candidates), tuple(pairs), start, code, cap, first)


#: All options at their defaults (the same with or without "auto" allowed).
_DEFAULT_CONFIG = _resolve(
    DEFAULT_TAGS_OPT, DEFAULT_DELIMITERS_OPT, DEFAULT_START_OPT, DEFAULT_CODE_AWARE_OPT,
    DEFAULT_MAX_TENTATIVE_OPT, None, False,
)
