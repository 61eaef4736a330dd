"""The single home of thinkparse's constants, option types and defaults, and of :class:`Config`.

Both scanners (``thinkparse._scanner_py`` and the compiled ``thinkparse._scanner_c``) import
everything they share from here and from :mod:`thinkparse._config` (which checks the options
and builds the :class:`Config` they consume), so the two can never disagree on a limit or a
preset.

Rules referenced (see docs/behaviour.md): R1 (``<REASONING>`` tags), T1 (tag syntax limits),
T2 (``max_tentative``), T5 (fences: at most 3 spaces of indent, runs of at least 3), T9 (the
``"\\n\\n"`` separator), A3 (option validation: each value alone here; together, with the presets,
in :mod:`thinkparse._config`).

Decisions where the rules are silent:

* The option defaults are sentinels that print as the documented values, so signatures read as
  documented while an option passed explicitly is told from one left out (it replaces a
  preset's value even when it equals the default, :mod:`thinkparse._config`).
* ``tags`` may be any iterable of ``str`` (a ``str`` alone means one name); duplicates are kept in
  order but only the first occurrence matters, since the first matching pair wins (T1 order).
* A delimiter may not be empty and its open and close may not be equal (a block could never be
  told from its end); a delimiter starting with ``<`` is allowed and is tried before the names.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Literal, NamedTuple, Optional, Union

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


# --- single option values (A3) ---------------------------------------------------------------
def check_tags(value: Any) -> tuple[str, ...]:
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


def check_pairs(value: Any, code_aware: bool, option: str) -> tuple[tuple[str, str], ...]:
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


def check_terminators(value: Any) -> tuple[str, ...]:
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
