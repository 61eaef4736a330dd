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

import re
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, NamedTuple, Optional, Union

from ._presets import PRESET_ALIASES, PRESETS

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
# Literal kinds come first: ``kind < TAG_OPEN`` means "matched exactly, case-sensitive".
#: A literal delimiter opener / closer (exact, case-sensitive).
LIT_OPEN = 0
LIT_CLOSE = 1
#: A terminator: ends a reasoning block and stays in the visible text (F2).
LIT_TERM = 2
#: An answer wrapper's opener / closer: removed from the visible text (F3).
ANS_OPEN = 3
ANS_CLOSE = 4
#: ``<name ...>`` / ``</name >`` with ASCII case-insensitive names.
TAG_OPEN = 5
TAG_CLOSE = 6


# --- option types (for the public signatures) -------------------------------------------------
#: ``tags``: one name, or names in T1 order; ``None`` for the default.
TagsOption = Optional[Union[str, Iterable[str]]]
#: ``delimiters``: literal ``(open, close)`` pairs.
DelimitersOption = Iterable[tuple[str, str]]
#: ``terminators``: literal markers that end a reasoning block and stay visible (F2); a ``str``
#: is one marker.
TerminatorsOption = Union[str, Iterable[str]]
#: ``answer``: literal ``(open, close)`` pairs wrapping the final answer (F3).
AnswerOption = Iterable[tuple[str, str]]
#: ``start_in_reasoning`` where the whole text is at hand (T10 adds ``"auto"``).
StartAutoOption = Union[bool, Literal["auto"]]
#: ``unclosed``: what a template-opened block that never closed becomes (F7).
UnclosedOption = Literal["reasoning", "answer", "auto"]
#: The values of ``unclosed``.
UNCLOSED_VALUES = ("reasoning", "answer", "auto")


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
DEFAULT_TERMINATORS_OPT: Any = _Default(())
DEFAULT_ANSWER_OPT: Any = _Default(())

StartOption = Union[bool, str]


class Config(NamedTuple):
    """Validated scanner options, in the form both scanners consume."""

    #: (kind, text, pair) for every candidate, in T1 priority order: the pairs' openers and
    #: closers, then the terminators (F2), then the answer markers (F3).  ``pair`` indexes
    #: ``pairs`` for a pair's candidates, the wrapper for an answer marker, and is -1 for a
    #: terminator.
    candidates: tuple[tuple[int, str, int], ...]
    #: (open candidate index, close candidate index) per pair.
    pairs: tuple[tuple[int, int], ...]
    #: True, False or "auto" (``"auto"`` only where allowed).
    start_in_reasoning: StartOption
    code_aware: bool
    #: -1 means no limit.
    max_tentative: int
    #: Every character that can begin a candidate tried in visible text (``<`` and the first
    #: characters of delimiters and answer markers).
    first_chars: str
    #: The candidates tried in visible text: the pairs', then the answer markers, in order.
    visible: tuple[int, ...] = ()
    #: The terminators' candidate indices (F2), tried inside blocks after the closers.
    terminators: tuple[int, ...] = ()
    #: Per pair, the candidate that ends its block: its closer, or the terminator written the
    #: same way (such a closer is a terminator, F2).
    closers: tuple[int, ...] = ()
    #: A channel scanner that reads this format instead of the tag scanner (F6), by name
    #: (:data:`CHANNEL_SCANNERS`); ``None`` for the tag scanner.
    channel: Optional[str] = None


#: Scanners for channel formats that are not pairs of markers (F6), by the name a preset's
#: ``channel`` gives: filled by the module that implements each (``"harmony"``: gpt-oss), so the
#: scanner kernels can hand a text over without importing anything above the core.
CHANNEL_SCANNERS: dict[str, Callable[[], Any]] = {}


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


def _pairs(value: Any, code_aware: bool, option: str) -> tuple[tuple[str, str], ...]:
    """Literal ``(open, close)`` pairs of ``delimiters`` or ``answer`` (A3, F3)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(
            f"{option} must be a sequence of (open, close) pairs, not {type(value).__name__}"
        )
    pairs = []
    for i, pair in enumerate(value):
        if isinstance(pair, (str, bytes)) or not isinstance(pair, Iterable):
            raise ValueError(f"{option}[{i}] must be an (open, close) pair of str")
        items = tuple(pair)
        if len(items) != 2 or not all(isinstance(x, str) for x in items):
            raise ValueError(f"{option}[{i}] must be an (open, close) pair of str")
        open_, close = items
        if not open_ or not close:
            raise ValueError(f"{option}[{i}]: a marker may not be empty")
        if open_ == close:
            raise ValueError(f"{option}[{i}]: open and close must differ")
        if code_aware:
            for d in (open_, close):
                if d[0] in "`~":
                    raise ValueError(
                        f"{option}[{i}]: {d!r} starts with {d[0]!r}, which code_aware=True "
                        "reads as code (T5); pass code_aware=False to use it"
                    )
        pairs.append((open_, close))
    return tuple(pairs)


def _terminators(value: Any) -> tuple[str, ...]:
    """The literal markers of ``terminators`` (F2); a ``str`` is one marker."""
    if isinstance(value, str):
        value = (value,)
    elif isinstance(value, bytes) or not isinstance(value, Iterable):
        raise TypeError(
            f"terminators must be a str or a sequence of str, not {type(value).__name__}"
        )
    items = tuple(value)
    for i, marker in enumerate(items):
        if not isinstance(marker, str):
            raise ValueError(
                f"terminators[{i}] must be a str marker, not {type(marker).__name__}"
            )
        if not marker:
            raise ValueError(f"terminators[{i}]: a terminator may not be empty")
    return items


def check_unclosed(value: Any, *, allow_auto: bool) -> str:
    """Check ``unclosed`` (F7): ``"reasoning"``, ``"answer"``, or ``"auto"`` where a finish
    reason is known (``normalize``).

    Raises:
        ValueError: any other value, naming the option.
    """
    if value not in UNCLOSED_VALUES or not isinstance(value, str):
        raise ValueError(
            f'unclosed must be "reasoning", "answer" or "auto", not {value!r}'
        )
    if value == "auto" and not allow_auto:
        raise ValueError(
            'unclosed="auto" decides with the finish reason of a response: it is available '
            'in normalize() only; use "reasoning" or "answer" here'
        )
    return value


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
    terminators: Any = DEFAULT_TERMINATORS_OPT,
    answer: Any = DEFAULT_ANSWER_OPT,
    prompt: Any = None,
    *,
    allow_auto: bool,
) -> Config:
    """Validate options and fill them from ``preset`` (docs/behaviour.md#a3, #presets).

    ``preset`` may be a preset name or a peer parser's name (``PRESET_ALIASES``, F1).
    ``prompt`` (F4), when given, decides the start mode: in reasoning iff the prompt leaves a
    block open (:func:`prompt_opens`); it may not be combined with an explicit
    ``start_in_reasoning``.

    Valid results are remembered when every option is built only of exact ``None``, ``bool``,
    ``int``, ``str`` and ``tuple`` values (keyed with each value's type, so ``True`` and ``1``
    never share an entry): scanners are cheap to create repeatedly, and an option object whose
    contents can change (a list, a custom iterable) is read afresh at every call.  A prompt is
    read at every call and is never part of a key.

    Raises:
        ValueError: naming the option, for any invalid value (docs/behaviour.md#a3).
        TypeError: for an option of the wrong type.
    """
    cfg = _resolve_cached(
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, terminators,
        answer, allow_auto,
    )
    if prompt is None or cfg.channel is not None:
        return cfg
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, not {type(prompt).__name__}")
    if not isinstance(start_in_reasoning, _Default):
        raise ValueError(
            "prompt and start_in_reasoning both decide where the text starts: pass one of them"
        )
    return with_start(cfg, prompt_opens(prompt, cfg))


_STARTS: dict[tuple[Config, bool], Config] = {}


def with_start(cfg: Config, start: bool) -> Config:
    """``cfg`` with another start mode (F4's prompt, T10's and F7's second scans); the variants
    are remembered (bounded), so scanners made from them share their tables."""
    if cfg.start_in_reasoning is start:
        return cfg
    key = (cfg, start)
    made = _STARTS.get(key)
    if made is None:
        made = Config(cfg.candidates, cfg.pairs, start, *cfg[3:])
        if len(_STARTS) >= _CACHE_SIZE:
            _STARTS.clear()
        _STARTS[key] = made
    return made


def _resolve_cached(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    terminators: Any,
    answer: Any,
    allow_auto: bool,
) -> Config:
    if (
        tags is DEFAULT_TAGS_OPT
        and delimiters is DEFAULT_DELIMITERS_OPT
        and code_aware is DEFAULT_CODE_AWARE_OPT
        and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
        and terminators is DEFAULT_TERMINATORS_OPT
        and answer is DEFAULT_ANSWER_OPT
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
                terminators, answer, allow_auto,
            )
            _remember(short, cfg)
            return cfg
    args = (
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, terminators,
        answer, allow_auto,
    )
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


#: The scanner options, in the order the entry points take them, each with the default that
#: means "not given" (``split_think``, ``ThinkScanner``, the normalisers, the adapters).
OPTION_DEFAULTS: tuple[tuple[str, Any], ...] = (
    ("tags", DEFAULT_TAGS_OPT),
    ("delimiters", DEFAULT_DELIMITERS_OPT),
    ("start_in_reasoning", DEFAULT_START_OPT),
    ("code_aware", DEFAULT_CODE_AWARE_OPT),
    ("max_tentative", DEFAULT_MAX_TENTATIVE_OPT),
    ("preset", None),
    ("terminators", DEFAULT_TERMINATORS_OPT),
    ("answer", DEFAULT_ANSWER_OPT),
    ("prompt", None),
)


def options_config(options: Mapping[str, Any], *, allow_auto: bool) -> Config:
    """:func:`resolve_options` of a mapping of scanner options (absent ones are the defaults).

    Raises:
        ValueError, TypeError: as :func:`resolve_options`.
    """
    return resolve_options(
        *[options.get(name, default) for name, default in OPTION_DEFAULTS],
        allow_auto=allow_auto,
    )


def _remember(key: Any, cfg: Config) -> None:
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = cfg


def preset_options(preset: Any) -> dict[str, Any]:
    """The options a preset (or a peer parser's name for one, F1) fills in.

    Raises:
        TypeError: ``preset`` is not a ``str``.
        ValueError: an unknown name, listing the known ones.
    """
    if not isinstance(preset, str):
        raise TypeError(f"preset must be a str, not {type(preset).__name__}")
    name = PRESET_ALIASES.get(preset, preset)
    row = PRESETS.get(name)
    if row is None:
        raise ValueError(
            f"preset: unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))} "
            "(and the parser names of PRESET_ALIASES)"
        )
    return row


def _resolve(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    terminators: Any,
    answer: Any,
    allow_auto: bool,
) -> Config:
    chosen: dict[str, Any] = preset_options(preset) if preset is not None else {}
    channel = chosen.get("channel")
    if channel is not None:
        # A channel format reads its own markup (F6): options that name other markup are an
        # error; the start mode, code awareness and the tentative cap do not apply to it.
        given = [
            name for name, value in (
                ("tags", tags), ("delimiters", delimiters), ("terminators", terminators),
                ("answer", answer),
            ) if not isinstance(value, _Default)
        ]
        if given:
            raise ValueError(
                f"preset {preset!r} reads {channel} channels; {', '.join(given)} cannot be "
                "combined with it"
            )
        return Config(*_DEFAULT_CONFIG[:-1], channel)

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

    delims = _pairs(delimiters, code, "delimiters")
    names = _names(tags) if tags is not None else (() if delims else (DEFAULT_TAG,))
    if not names and not delims:
        raise ValueError("tags: no tag names and no delimiters: nothing could ever match")
    terms = _terminators(pick("terminators", terminators))
    wrappers = _pairs(pick("answer", answer), code, "answer")

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
    visible = list(range(len(candidates)))
    term_ids = []
    for marker in terms:
        term_ids.append(len(candidates))
        candidates.append((LIT_TERM, marker, -1))
    for w, (open_, close) in enumerate(wrappers):
        visible += [len(candidates), len(candidates) + 1]
        candidates += [(ANS_OPEN, open_, w), (ANS_CLOSE, close, w)]
    term_of = {candidates[i][1]: i for i in reversed(term_ids)}
    closers = tuple(
        term_of.get(candidates[c][1], c) if candidates[c][0] == LIT_CLOSE else c
        for _, c in pairs
    )
    # A closer that is a terminator is ordinary text outside reasoning, as terminators are.
    visible = [i for i in visible if candidates[i][0] != LIT_CLOSE or i in closers]
    first = "".join(sorted({
        candidates[i][1][0] if candidates[i][0] < TAG_OPEN else "<" for i in visible
    }))
    return Config(
        tuple(candidates), tuple(pairs), start, code, cap, first, tuple(visible),
        tuple(term_ids), closers, None,
    )


#: All options at their defaults (the same with or without "auto" allowed).
_DEFAULT_CONFIG = _resolve(
    DEFAULT_TAGS_OPT, DEFAULT_DELIMITERS_OPT, DEFAULT_START_OPT, DEFAULT_CODE_AWARE_OPT,
    DEFAULT_MAX_TENTATIVE_OPT, None, DEFAULT_TERMINATORS_OPT, DEFAULT_ANSWER_OPT, False,
)


# --- the start state from the prompt (F4) ------------------------------------------------------
_PROMPT_PATTERNS: dict[tuple[tuple[int, str, int], ...], re.Pattern[str]] = {}


def _prompt_pattern(cfg: Config) -> re.Pattern[str]:
    """One pattern finding every pair's opener (group ``o<p>``), self-closing opener and closer
    (group ``c<p>``) in T1's syntax; cached per candidate set."""
    pattern = _PROMPT_PATTERNS.get(cfg.candidates)
    if pattern is not None:
        return pattern
    parts = []
    for p, (oi, ci) in enumerate(cfg.pairs):
        kind, text, _ = cfg.candidates[oi]
        close = cfg.candidates[ci][1]
        if kind == LIT_OPEN:
            parts.append(f"(?P<o{p}>{re.escape(text)})|(?P<c{p}>{re.escape(close)})")
        else:
            name = re.escape(text)
            parts.append(
                f"(?P<o{p}><{name}(?:>|[ \t\n\r][^<>]{{0,{MAX_ATTR_CHARS}}}(?<!/)>))"
                f"|(?P<c{p}></{name}[ \t\n\r]{{0,{MAX_CLOSER_SPACE}}}>"
                f"|<{name}(?:[ \t\n\r][^<>]{{0,{MAX_ATTR_CHARS - 1}}})?/>)"
            )
    pattern = re.compile("|".join(parts), re.ASCII | re.IGNORECASE)
    if len(_PROMPT_PATTERNS) >= _CACHE_SIZE:
        _PROMPT_PATTERNS.clear()
    _PROMPT_PATTERNS[cfg.candidates] = pattern
    return pattern


def prompt_opens(prompt: str, cfg: Config) -> bool:
    """Whether ``prompt`` leaves a block of ``cfg``'s pairs open (F4): its last opener comes
    after the last closer of that opener's pair.  Markup is read as T1 writes it (tag names
    without case, attributes, a self-closing opener counts as a closed block); code and text
    after the opener do not matter, and nothing is case-folded beyond ASCII."""
    last_open = -1
    last_pair = -1
    last_close: dict[int, int] = {}
    for m in _prompt_pattern(cfg).finditer(prompt):
        group = m.lastgroup
        if group is None:  # pragma: no cover - every alternative is a named group
            continue
        p = int(group[1:])
        if group[0] == "o":
            last_open, last_pair = m.start(), p
        else:
            last_close[p] = m.start()
    return last_open >= 0 and last_close.get(last_pair, -1) < last_open
