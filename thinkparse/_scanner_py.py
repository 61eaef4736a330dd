"""The pure-Python ``ThinkScanner``: the reference implementation (docs/behaviour.md, T1-S7).

Theory of operation
-------------------
The scanner is a state machine over three *channels* -- visible text, a definite reasoning block,
a tentative block (T2) -- with code sub-states for visible text (T5): a backtick run being
counted, a tilde run at line start, an inline span, a fence.

*What is held back, and why (S2).*  Only four things are ever kept between calls:

1. a **candidate match**: text that began with the first character of a tag or delimiter and
   could still become one (T1).  Each candidate (every pair's opener and closer, in T1 priority
   order) carries its own small progress state -- how much of ``<name`` or of a literal it has
   matched, how many attribute characters or closer spaces it has seen -- so each new character
   is examined once per candidate, never re-scanned.  When every candidate fails, only the first
   held character is released (T1 "Failure") and the rest is scanned again; since no candidate's
   text after its first character can contain ``<``, that rescan only re-reads text that is then
   released, so the total work stays linear;
2. leading whitespace, until the first visible non-whitespace character (T8);
3. inside a block, its trailing whitespace run (reasoning is stripped, T8);
4. a tentative block, at most ``max_tentative`` characters plus its opener (T2, S4).

Backtick and tilde runs are released at once; only their length is remembered.

*O(n) (S6).*  Plain text is skipped with compiled patterns (``re.search`` for the next character
that can matter), code and blocks likewise; per-character Python work happens only at those
characters, on fence delimiter lines, and inside candidate matches, which are bounded by the
longest candidate (S2 (a)).

*End of text (T7)* is ``close()``: held candidates fail, a definite block becomes reasoning, a
tentative block is restored verbatim, held leading whitespace is emitted unless a tag was
consumed before it.

Decisions where the rules are silent
-------------------------------------------
* A block opened by a delimiter and a block opened by a tag behave alike; only the pair's own
  closer ends either (T1, T3).
* Restored tentative text (T2) counts as visible text for the line-start rule of T5: the position
  after it is at line start only if it ends in LF followed by at most 3 spaces.
* The public read-only properties (``in_reasoning``, ``had_block``, ``tag_consumed``,
  ``orphan_at``) are the whole contract with other modules
  (``thinkparse.scan._scanner.ScannerProtocol``);
  ``split_think`` uses ``had_block`` (T9) and ``orphan_at`` (T10).
* Misuse never crashes (docs/behaviour.md#m1): a scanner whose
  ``__init__`` never ran or raised refuses every entry point with ``RuntimeError`` (not
  ``AttributeError``); ``__init__`` runs once; a ``feed()``/``close()`` that starts while another
  call of the same scanner is changing its state (from a finalizer run by the garbage collector,
  or from another thread) raises ``RuntimeError``.  While a call only builds its result object,
  the state is already complete, so a finalizer's call there is served as the next call; the
  compiled scanner behaves the same.
* Held whitespace (leading, T8; a block's trailing run) is kept as a list of pieces, so any number
  of whitespace-only chunks costs linear time (S6).
"""

from __future__ import annotations

import re
from typing import Any, Optional

from ._config import resolve_options
from ._errors import ScannerClosedError
from ._presets import PresetName
from ._spec import (
    ANS_CLOSE,
    ANS_OPEN,
    CHANNEL_SCANNERS,
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    FENCE_MAX_INDENT,
    FENCE_MIN_RUN,
    LIT_OPEN,
    LIT_TERM,
    MAX_ATTR_CHARS,
    MAX_CLOSER_SPACE,
    NOT_INITIALISED,
    REENTERED,
    SEPARATOR,
    TAG_OPEN,
    TAG_SPACE,
    AnswerOption,
    Config,
    DelimitersOption,
    TagsOption,
    TerminatorsOption,
)
from ._types import EMPTY_DELTA, Delta

_new_delta = tuple.__new__

# Modes.
_VIS, _BT, _TL, _SPAN, _FENCE, _BLOCK, _TENT = range(7)
# Fence line phases: rest of a line / line start (counting spaces) / closing run / after it.
_F_INFO, _F_LS, _F_RUN, _F_TRAIL = range(4)
# Candidate phases (>= 0: still matching; < 0: decided).
_PH_FAIL, _PH_MATCH, _PH_SELF = -1, -2, -3
_PH_PREF, _PH_TAIL, _PH_SLASH, _PH_ATTR, _PH_CWS = range(5)
# Results of resolving a candidate set.
_WAIT, _TAKE, _NONE = range(3)

_ANGLE = re.compile(r"[<>]")
_TAG_SPACES = re.compile(r"[ \t\n\r]*")
_BACKTICKS = re.compile(r"`+")
_TILDES = re.compile(r"~+")
_SPAN_STOP = re.compile(r"[`\n]")
_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}


def _alower(s: str) -> str:
    """ASCII-only lowercasing (T1: no Unicode case folding)."""
    return s.lower() if s.isascii() else s.translate(_LOWER)


def _charclass(chars: str) -> re.Pattern[str]:
    return re.compile("[" + "".join(re.escape(c) for c in sorted(set(chars))) + "]")


def _advance(
    kind: int, pref: str, ph: int, n: int, s: str, i: int, end: int, prev: str
) -> tuple[int, int, int]:
    """Advance one candidate over ``s[i:end]``.

    Returns ``(phase, count, used)``: the new phase and counter, and how many characters of
    ``s`` it consumed (for a match: up to and including its last character).  ``prev`` is the
    character before ``s[i]`` (needed to tell ``<N x/>`` from ``<N x>``).
    """
    used = 0
    if ph == _PH_PREF:
        need = len(pref) - n
        seg = s[i : i + need]
        if kind >= TAG_OPEN:
            seg = _alower(seg)
        if not pref.startswith(seg, n):
            return _PH_FAIL, 0, 0
        k = len(seg)
        if k < need:
            return _PH_PREF, n + k, k
        used = k
        i += k
        if kind < TAG_OPEN:
            return _PH_MATCH, 0, used
        ph = _PH_TAIL if kind == TAG_OPEN else _PH_CWS
        n = 0
        if i >= end:
            return ph, 0, used
    if ph == _PH_TAIL:
        c = s[i]
        i += 1
        used += 1
        if c == ">":
            return _PH_MATCH, 0, used
        if c == "/":
            ph = _PH_SLASH
        elif c in TAG_SPACE:
            ph = _PH_ATTR
            n = 0
            prev = c
        else:
            return _PH_FAIL, 0, 0
        if i >= end:
            return ph, 0, used
    if ph == _PH_SLASH:
        if s[i] == ">":
            return _PH_SELF, 0, used + 1
        return _PH_FAIL, 0, 0
    if ph == _PH_ATTR:
        room = MAX_ATTR_CHARS - n
        lim = min(end, i + room + 1)
        m = _ANGLE.search(s, i, lim)
        if m is not None:
            p = m.start()
            if s[p] == "<":
                return _PH_FAIL, 0, 0
            before = s[p - 1] if p > i else prev
            return (_PH_SELF if before == "/" else _PH_MATCH), 0, used + p - i + 1
        if lim - i > room:
            return _PH_FAIL, 0, 0
        return _PH_ATTR, n + end - i, used + end - i
    # _PH_CWS: spaces between "</name" and ">".
    room = MAX_CLOSER_SPACE - n
    m2 = _TAG_SPACES.match(s, i, min(end, i + room + 1))
    j = m2.end() if m2 is not None else i
    k = j - i
    if k > room:
        return _PH_FAIL, 0, 0
    if j >= end:
        return _PH_CWS, n + k, used + k
    if s[j] == ">":
        return _PH_MATCH, 0, used + k + 1
    return _PH_FAIL, 0, 0


class _Plan:
    """The read-only tables of one option set, shared by every scanner created with it."""

    __slots__ = (
        "cand_kind",
        "cand_pair",
        "cand_text",
        "channel",
        "closer_cands",
        "code_aware",
        "find_cache",
        "implicit_cands",
        "pair_cands",
        "plain_find",
        "second_chars",
        "tent_cap",
        "visible_cands",
        "visible_find",
    )

    def __init__(self, cfg: Config) -> None:
        self.cand_kind = tuple(c[0] for c in cfg.candidates)
        self.cand_text = tuple(
            text if kind < TAG_OPEN else ("<" if kind == TAG_OPEN else "</") + text
            for kind, text, _ in cfg.candidates
        )
        self.cand_pair = tuple(c[2] for c in cfg.candidates)
        terms = cfg.terminators
        # The candidate sets a position is matched against (T1 order kept in each):
        # visible text; the implicit block of start_in_reasoning (T6: any pair's opener or
        # closer, and the terminators, F2); a block once no echo is possible (every closer);
        # a block opened by pair p (its closer).
        self.visible_cands = cfg.visible
        pair_ids = tuple(i for (open_, _), close in zip(cfg.pairs, cfg.closers)
                         for i in (open_, close))
        self.implicit_cands = pair_ids + terms
        self.closer_cands = cfg.closers + terms
        self.pair_cands = tuple((close, *terms) for close in cfg.closers)
        self.code_aware = cfg.code_aware
        self.tent_cap = cfg.max_tentative
        self.channel = cfg.channel
        self.visible_find = _charclass(cfg.first_chars + ("`~" if cfg.code_aware else ""))
        self.plain_find = _charclass(cfg.first_chars + "<`~\n").search
        # Characters that can follow a visible candidate's first one (None: a 1-character one).
        vis_text = [self.cand_text[i] for i in cfg.visible]
        vis_kind = [self.cand_kind[i] for i in cfg.visible]
        second = [p[1] for p in vis_text if len(p) > 1]
        second += [c.upper() for k, c in zip(vis_kind, second) if k >= TAG_OPEN]
        self.second_chars: Optional[frozenset[str]] = (
            frozenset(second) if all(len(p) > 1 for p in vis_text) else None
        )
        self.find_cache: dict[tuple[int, ...], re.Pattern[str]] = {}


#: Plans by validated option set (bounded).
_PLANS: dict[Config, _Plan] = {}


def _initialised(scanner: ThinkScanner) -> bool:
    try:
        scanner._closed  # noqa: B018 - set by __init__ only
    except AttributeError:
        return False
    return True


class ThinkScanner:
    """Incremental ``<think>``-style tag extractor (docs/behaviour.md, T1-T10 and S1-S7).

    Feed text in chunks of any size; each call returns the :class:`~thinkparse.Delta` it
    released.  The concatenation of all deltas equals ``split_think`` of the whole text (S1).

    Args:
        tags: tag name(s) (T1); a ``str`` is one name.  Default ``("think",)`` unless
            ``delimiters`` or ``preset`` supply pairs.
        delimiters: literal ``(open, close)`` pairs.
        start_in_reasoning: the text starts inside a block (T6).  ``"auto"`` is refused.
        code_aware: tags inside Markdown code are text (T5).
        max_tentative: cap of a tentative block (T2); ``None``, or any value of ``sys.maxsize``
            or more, for no limit.
        preset: a model family's options (docs/behaviour.md#presets), or a peer parser's
            name for one (``PRESET_ALIASES``, F1); explicit options win.
        terminators: literal markers that end a reasoning block and stay in the visible
            text, such as a tool-call section's opener (F2).
        answer: literal ``(open, close)`` pairs wrapping the final answer, removed from the
            visible text with the whitespace right inside them (F3).
        prompt: the rendered prompt (or its end): the text starts inside a block iff the
            prompt leaves one open (F4); not together with ``start_in_reasoning``.

    The read-only properties :attr:`in_reasoning` (W4), :attr:`had_block` (T9),
    :attr:`tag_consumed`, :attr:`orphan_at` (T4, T10) and :attr:`reasoning_closed` (F7)
    describe the state after the last call.
    A scanner serves one caller at a time: a call that starts while another call of the same
    scanner is running (from a finalizer or another thread) raises ``RuntimeError``, as does any
    use of a scanner whose ``__init__`` did not complete.

    Raises:
        ValueError: an invalid option (named in the message).
        TypeError: an option of the wrong type.
        RuntimeError: ``__init__`` called again on a working scanner.
    """

    # The state: the compiled scanner has the same names, with the same meanings.
    __slots__ = (  # noqa: RUF023 - grouped by concern, not sorted
        # configuration (read-only, from the option set's _Plan)
        "_cand_kind", "_cand_pair", "_cand_text", "_closer_cands", "_code_aware",
        "_find_cache", "_implicit_cands", "_pair_cands", "_plain_find", "_second_chars",
        "_tent_cap", "_visible_cands", "_visible_find",
        # a channel scanner that reads the whole text instead (F6), or None
        "_channel",
        # bookkeeping
        "_busy", "_closed", "_fast", "_fed", "_lite", "_offset", "_out_reasoning",
        "_out_visible",
        # visible text: T8 leading whitespace, T5 line start
        "_last_was_lf", "_lead_dropped", "_lead_ws", "_line_spaces", "_line_start", "_produced",
        # answer wrappers (F3): whitespace dropped after an opener, a trailing run held
        "_ans_lead", "_ans_open", "_ans_ws",
        # code (T5)
        "_fence_char", "_fence_indent", "_fence_len", "_fence_phase", "_fence_run",
        "_run_at_line_start", "_run_len", "_span_run",
        # blocks (T2, T3, T6, T8, T9, F7)
        "_block_cands", "_block_closed", "_block_find", "_block_started", "_block_ws",
        "_echo_possible", "_had_block", "_mode", "_orphan_at", "_reasoning_released",
        "_tag_consumed",
        # tentative block (T2, S4)
        "_tent_len", "_tent_opener", "_tent_parts",
        # held candidate match (T1)
        "_held_cands", "_held_counts", "_held_last", "_held_len", "_held_parts",
        "_held_phases", "_held_used",
    )

    def __init__(
        self,
        *,
        tags: TagsOption = DEFAULT_TAGS_OPT,
        delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
        start_in_reasoning: bool = DEFAULT_START_OPT,
        code_aware: bool = DEFAULT_CODE_AWARE_OPT,
        max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
        preset: Optional[PresetName] = None,
        terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
        answer: AnswerOption = DEFAULT_ANSWER_OPT,
        prompt: Optional[str] = None,
    ) -> None:
        cfg = resolve_options(
            tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
            terminators, answer, prompt, allow_auto=False,
        )
        if _initialised(self):
            raise RuntimeError("ThinkScanner.__init__ may be called only once")
        self._setup(cfg)

    def _setup(self, cfg: Config) -> None:
        """Start scanning with resolved options (``__init__`` and :func:`scanner_for`)."""
        plan = _PLANS.get(cfg)
        if plan is None:
            plan = _Plan(cfg)
            if len(_PLANS) >= 256:
                _PLANS.clear()
            _PLANS[cfg] = plan
        self._cand_kind = plan.cand_kind
        self._cand_text = plan.cand_text
        self._cand_pair = plan.cand_pair
        self._visible_cands = plan.visible_cands
        self._implicit_cands = plan.implicit_cands
        self._closer_cands = plan.closer_cands
        self._pair_cands = plan.pair_cands
        self._code_aware = plan.code_aware
        self._tent_cap = plan.tent_cap
        self._visible_find = plan.visible_find
        self._plain_find = plan.plain_find
        self._second_chars = plan.second_chars
        self._find_cache = plan.find_cache
        self._closed = False
        self._busy = False
        self._fed = 0
        self._offset = 0
        self._out_visible: list[str] = []
        self._out_reasoning: list[str] = []
        # visible-text state
        self._produced = False
        self._lead_ws: list[str] = []
        self._lead_dropped = False
        self._last_was_lf = False
        self._line_start = True
        self._line_spaces = 0
        self._ans_open = False
        self._ans_lead = False
        self._ans_ws: list[str] = []
        # code state
        self._run_at_line_start = False
        self._run_len = 0
        self._span_run = 0
        self._fence_char = "`"
        self._fence_len = 0
        self._fence_phase = _F_INFO
        self._fence_run = 0
        self._fence_indent = 0
        # block state
        self._reasoning_released = False
        self._block_started = False
        self._block_ws: list[str] = []
        self._echo_possible = False
        self._had_block = False
        self._block_closed = True
        self._tag_consumed = False
        self._orphan_at = -1
        # tentative block
        self._tent_opener = ""
        self._tent_parts: list[str] = []
        self._tent_len = 0
        # held candidate match
        self._held_parts: list[str] = []
        self._held_len = 0
        self._held_last = ""
        self._held_cands: tuple[int, ...] = ()
        self._held_phases: list[int] = []
        self._held_counts: list[int] = []
        self._held_used: list[int] = []
        self._mode = _VIS
        self._block_cands: tuple[int, ...] = ()
        self._block_find: re.Pattern[str] = self._visible_find
        self._channel = CHANNEL_SCANNERS[plan.channel]() if plan.channel else None
        if cfg.start_in_reasoning:
            self._open_block(self._implicit_cands)
            self._echo_possible = True
        self._fast = False
        self._lite = self._channel is None

    # ------------------------------------------------------------------ public API

    def feed(self, chunk: str, /) -> Delta:
        """Scan the next piece of text and return what it released (S1, S2).

        Args:
            chunk: the next text, any length (empty is fine).

        Returns:
            :class:`~thinkparse.Delta` ``(visible, reasoning)`` released by this call.

        Raises:
            TypeError: ``chunk`` is not a ``str``.
            ScannerClosedError: the scanner was closed.
            RuntimeError: the scanner was never initialised, or this call started while
                another ``feed()``/``close()`` of the same scanner was still running.
        """
        try:
            fast = self._fast
        except AttributeError:
            raise RuntimeError(NOT_INITIALISED) from None
        if fast and type(chunk) is str:
            if self._plain_find(chunk) is None:
                # S7: nothing held, plain visible text, nothing that could matter in the chunk.
                if chunk:
                    self._fed += len(chunk)
                    self._last_was_lf = False
                    if self._line_start:
                        self._line_tail(chunk)
                return _new_delta(Delta, (chunk, ""))
            if self._visible_find.search(chunk) is None:
                # Only line breaks matter here: all visible, update the line state.
                self._fed += len(chunk)
                self._emit_line_state(chunk)
                return _new_delta(Delta, (chunk, ""))
        elif self._lite and type(chunk) is str:
            # Inside a block, a fence line or an inline span, a chunk without the characters
            # that could end it needs no scanning.
            mode = self._mode
            if mode == _BLOCK:
                if self._block_find.search(chunk) is None:
                    self._fed += len(chunk)
                    if (
                        self._block_started
                        and not self._block_ws
                        and chunk
                        and not chunk[-1].isspace()
                    ):
                        return _new_delta(Delta, ("", chunk))  # nothing to trim or hold
                    self._out_reasoning = []
                    if chunk:
                        self._reason(chunk)
                    return _new_delta(Delta, ("", "".join(self._out_reasoning)))
            elif mode == _TENT:
                n = len(chunk)
                if self._block_find.search(chunk) is None and (
                    self._tent_cap < 0 or self._tent_len + n <= self._tent_cap
                ):
                    self._fed += n
                    self._tent_parts.append(chunk)
                    self._tent_len += n
                    return EMPTY_DELTA
            elif mode == _FENCE and "\n" not in chunk and not self._ans_open:
                if self._fence_phase == _F_LS and chunk and chunk[0] not in (" ", self._fence_char):
                    self._fence_phase = _F_INFO  # the line cannot close the fence
                if self._fence_phase == _F_INFO:
                    # No LF: the line-start state (T5) is not read again before the LF that
                    # ends this line resets it, so only the last character is recorded.
                    if chunk:
                        self._fed += len(chunk)
                        self._last_was_lf = False
                    return _new_delta(Delta, (chunk, ""))
            elif (
                mode == _SPAN
                and not self._span_run
                and "`" not in chunk
                and "\n" not in chunk
                and not self._ans_open
            ):
                # Inside a span the line already has a backtick: never at line start (T5).
                if chunk:
                    self._fed += len(chunk)
                    self._last_was_lf = False
                return _new_delta(Delta, (chunk, ""))
        if not isinstance(chunk, str):
            raise TypeError(f"feed() takes a str chunk, not {type(chunk).__name__}")
        if self._closed:
            raise ScannerClosedError("feed() after close(): this scanner has finished")
        if self._busy:
            raise RuntimeError(REENTERED)
        if self._channel is not None:
            delta: Delta = self._channel.feed(chunk)
            return delta
        # While busy, no fast path can be taken: a call from a finalizer or another thread
        # reaches the check above.
        self._busy = True
        self._fast = self._lite = False
        try:
            ov: list[str] = []
            orr: list[str] = []
            self._out_visible = ov
            self._out_reasoning = orr
            base = self._fed
            self._fed = base + len(chunk)
            if self._held_parts:
                self._continue_match(chunk, base, False)
            else:
                self._offset = base
                self._run(chunk, 0, False)
            delta = _new_delta(
                Delta,
                (
                    ov[0] if len(ov) == 1 else "".join(ov),
                    orr[0] if len(orr) == 1 else "".join(orr),
                ),
            )
            self._fast = (
                self._mode == _VIS
                and self._produced
                and not self._held_parts
                and not self._ans_open
            )
            self._lite = not self._held_parts
        finally:
            self._busy = False
        return delta

    def close(self) -> Delta:
        """End of text (T7): release everything still held.

        Returns:
            The final :class:`~thinkparse.Delta`; a second ``close()`` returns an empty one.

        Raises:
            RuntimeError: the scanner was never initialised, or this call started while a
                ``feed()`` of the same scanner was still running.
        """
        try:
            closed = self._closed
        except AttributeError:
            raise RuntimeError(NOT_INITIALISED) from None
        if closed:
            return EMPTY_DELTA
        if self._busy:
            raise RuntimeError(REENTERED)
        self._closed = True
        if self._channel is not None:
            final: Delta = self._channel.close()
            return final
        self._busy = True
        self._fast = False
        self._lite = False
        try:
            ov: list[str] = []
            orr: list[str] = []
            self._out_visible = ov
            self._out_reasoning = orr
            if self._held_parts:
                self._continue_match("", self._fed, True)
            if self._mode == _TENT:
                self._restore()
            if self._ans_ws:  # a trailing run not followed by an answer's closer (F3)
                self._out_vis("".join(self._ans_ws))
                self._ans_ws.clear()
            if not self._produced:
                if self._lead_ws and not self._lead_dropped:
                    ov.append("".join(self._lead_ws))
                self._lead_ws.clear()
            self._block_ws.clear()
            delta = _new_delta(Delta, ("".join(ov), "".join(orr)))
        finally:
            self._busy = False
        return delta

    # ------------------------------------------------------------------ public state

    @property
    def in_reasoning(self) -> bool:
        """Whether the next character fed would be reasoning: the scanner is inside a definite
        block (T2) or the implicit block of ``start_in_reasoning`` (T6), see
        docs/behaviour.md#w4.  A tentative block does not count (its fate is open); after
        ``close()`` this is ``False``."""
        channel = self._state("_channel")
        if channel is not None:
            return bool(channel.in_reasoning)
        return self._mode == _BLOCK and not self._closed

    @property
    def had_block(self) -> bool:
        """Whether any block has become reasoning so far, so the joined reasoning is not
        ``None`` (T9): a definite or implicit block, a self-closing opener or a resolved
        tentative block."""
        channel = self._state("_channel")
        return bool(channel.had_block if channel is not None else self._had_block)

    @property
    def tag_consumed(self) -> bool:
        """Whether any tag or delimiter has been consumed (removed from the text) so far: an
        opener, a closer, an orphan closer (T4), a self-closing or an echoed opener (T6), an
        answer wrapper's marker (F3).  A terminator is never consumed (F2)."""
        channel = self._state("_channel")
        return bool(channel.tag_consumed if channel is not None else self._tag_consumed)

    @property
    def orphan_at(self) -> Optional[int]:
        """Where the first consumed tag starts, as an offset into all text fed, when it was an
        orphan closer (T4); ``None`` when it was another tag or none was consumed (T10)."""
        channel = self._state("_channel")
        if channel is not None:
            return None
        return self._orphan_at if self._orphan_at >= 0 else None

    @property
    def reasoning_closed(self) -> Optional[bool]:
        """Whether the last block that became reasoning was closed -- by its closer, a
        terminator (F2) or a self-closing opener -- rather than cut off by the end of the text
        (F7); ``None`` while no block exists (T9)."""
        channel = self._state("_channel")
        if channel is not None:
            closed: Optional[bool] = channel.reasoning_closed
            return closed
        if not self._had_block:
            return None
        return self._block_closed

    def _state(self, name: str) -> Any:
        try:
            return getattr(self, name)
        except AttributeError:
            raise RuntimeError(NOT_INITIALISED) from None

    def __repr__(self) -> str:
        if not _initialised(self):
            return f"<{type(self).__module__}.ThinkScanner not initialised>"
        state = ("closed" if self._closed else
                 {_BLOCK: "in block", _TENT: "in tentative block"}.get(self._mode, "visible"))
        return f"<{type(self).__module__}.ThinkScanner {state}>"

    # ------------------------------------------------------------------ main loop

    def _run(self, w: str, pos: int, final: bool) -> None:
        """Scan ``w[pos:]``; ``self._offset`` is the absolute offset of ``w[0]``."""
        end = len(w)
        while pos < end:
            mode = self._mode
            if mode == _VIS:
                m = self._visible_find.search(w, pos)
                if m is None:
                    self._emit_vis(w[pos:])
                    return
                j = m.start()
                if j > pos:
                    self._emit_vis(w[pos:j])
                c = w[j]
                if self._code_aware and c == "`":
                    self._run_at_line_start = self._line_start
                    pos = self._code_run(w, j, _BACKTICKS, _BT, 0, final)
                elif self._code_aware and c == "~":
                    if self._line_start:
                        pos = self._code_run(w, j, _TILDES, _TL, 0, final)
                    else:
                        self._emit_vis(c)
                        pos = j + 1
                elif (
                    self._second_chars is not None
                    and j + 1 < len(w)
                    and w[j + 1] not in self._second_chars
                ):
                    self._emit_vis(c)  # T1 failure, known without matching
                    pos = j + 1
                else:
                    pos = self._match(w, j, self._visible_cands, final)
            elif mode == _BT:
                pos = self._code_run(w, pos, _BACKTICKS, _BT, self._run_len, final)
            elif mode == _TL:
                pos = self._code_run(w, pos, _TILDES, _TL, self._run_len, final)
            elif mode == _SPAN:
                pos = self._span(w, pos, end)
            elif mode == _FENCE:
                pos = self._fence(w, pos, end)
            elif mode == _BLOCK:
                m = self._block_find.search(w, pos)
                j = m.start() if m is not None else end
                if j > pos:
                    self._reason(w[pos:j])
                pos = self._match(w, j, self._block_cands, final) if j < end else end
            else:  # _TENT
                m = self._block_find.search(w, pos)
                j = m.start() if m is not None else end
                if j > pos:
                    cut = self._tent_text(w, pos, j)
                    if cut >= 0:
                        pos = cut
                        continue
                pos = self._match(w, j, self._block_cands, final) if j < end else end

    # ------------------------------------------------------------------ code (T5)

    def _code_run(
        self, w: str, j: int, pattern: re.Pattern[str], mode: int, n: int, final: bool
    ) -> int:
        """Count a backtick/tilde run starting (or continuing) at ``w[j]``; release it."""
        m = pattern.match(w, j)
        k = m.end() if m is not None else j
        n += k - j
        if k > j:
            self._emit_vis(w[j:k])
        if k == len(w) and not final:
            self._mode = mode
            self._run_len = n
            return k
        if mode == _BT:
            if self._run_at_line_start and n >= FENCE_MIN_RUN:
                self._open_fence("`", n)
            else:
                self._mode = _SPAN
                self._run_len = n
                self._span_run = 0
        elif n >= FENCE_MIN_RUN:
            self._open_fence("~", n)
        else:
            self._mode = _VIS
        return k

    def _open_fence(self, ch: str, n: int) -> None:
        self._mode = _FENCE
        self._fence_char = ch
        self._fence_len = n
        self._fence_phase = _F_INFO

    def _span(self, w: str, pos: int, end: int) -> int:
        if self._span_run:
            m = _BACKTICKS.match(w, pos)
            k = m.end() if m is not None else pos
            self._span_run += k - pos
            if k > pos:
                self._emit_vis(w[pos:k])
            if k == end:
                return k
            if self._span_run == self._run_len:
                self._mode = _VIS
            self._span_run = 0
            return k
        m = _SPAN_STOP.search(w, pos)
        if m is None:
            self._emit_vis(w[pos:])
            return end
        j = m.start()
        if w[j] == "\n":
            self._emit_vis(w[pos : j + 1])
            self._mode = _VIS
            return j + 1
        if j > pos:
            self._emit_vis(w[pos:j])
        self._span_run = 0
        return self._span_run_start(w, j, end)

    def _span_run_start(self, w: str, j: int, end: int) -> int:
        m = _BACKTICKS.match(w, j)
        k = m.end() if m is not None else j
        self._emit_vis(w[j:k])
        self._span_run = k - j
        if k == end:
            return k
        if self._span_run == self._run_len:
            self._mode = _VIS
        self._span_run = 0
        return k

    def _fence(self, w: str, pos: int, end: int) -> int:
        start = pos
        ch = self._fence_char
        while pos < end:
            ph = self._fence_phase
            if ph == _F_INFO:
                k = w.find("\n", pos)
                if k < 0:
                    pos = end
                    break
                pos = k + 1
                self._fence_phase = _F_LS
                self._fence_indent = 0
                continue
            c = w[pos]
            pos += 1
            if ph == _F_LS:
                if c == " ":
                    self._fence_indent += 1
                    if self._fence_indent > FENCE_MAX_INDENT:
                        self._fence_phase = _F_INFO
                elif c == ch:
                    self._fence_phase = _F_RUN
                    self._fence_run = 1
                elif c == "\n":
                    self._fence_indent = 0
                else:
                    self._fence_phase = _F_INFO
            elif ph == _F_RUN:
                if c == ch:
                    self._fence_run += 1
                elif c in " \t\r":
                    self._fence_phase = _F_TRAIL if self._fence_run >= self._fence_len else _F_INFO
                elif c == "\n":
                    if self._fence_run >= self._fence_len:
                        self._mode = _VIS
                        break
                    self._fence_phase = _F_LS
                    self._fence_indent = 0
                else:
                    self._fence_phase = _F_INFO
            else:  # _F_TRAIL
                if c == "\n":
                    self._mode = _VIS
                    break
                if c not in " \t\r":
                    self._fence_phase = _F_INFO
        self._emit_vis(w[start:pos])
        return pos

    # ------------------------------------------------------------------ emission

    def _emit_vis(self, s: str) -> None:
        """Release visible text: leading-whitespace rule (T8), answer wrappers' whitespace (F3),
        line-start tracking (T5)."""
        if not s:
            return
        if self._ans_open:
            self._out_answer(s)
        else:
            self._out_vis(s)
        self._emit_line_state(s)

    def _out_answer(self, s: str) -> None:
        """Visible text inside an answer wrapper (F3): whitespace right after the opener is
        dropped, and a trailing whitespace run is held (once a visible character was produced)
        until non-whitespace follows; the closer drops it."""
        if self._ans_lead:
            t = s.lstrip()
            if not t:
                return
            self._ans_lead = False
            s = t
        body = s.rstrip()
        if not body:
            if self._produced:
                self._ans_ws.append(s)  # a list: whitespace-only pieces stay O(n) (S6)
            else:
                self._out_vis(s)  # leading whitespace: T8 holds it
            return
        if self._ans_ws:
            self._out_vis("".join(self._ans_ws))
            self._ans_ws.clear()
        self._out_vis(body)
        if len(body) < len(s):
            self._ans_ws.append(s[len(body) :])

    def _out_vis(self, s: str) -> None:
        """Output visible text under the leading-whitespace rule (T8)."""
        if self._produced:
            self._out_visible.append(s)
        else:
            t = s.lstrip()
            if not t:
                self._lead_ws.append(s)  # a list: many whitespace-only chunks stay O(n) (S6)
            else:
                self._produced = True
                lead = self._lead_ws
                if not self._lead_dropped and (lead or len(t) < len(s)):
                    self._out_visible.append("".join(lead) + s[: len(s) - len(t)])
                lead.clear()
                self._out_visible.append(t)

    def _emit_line_state(self, s: str) -> None:
        """Track the last visible character (T5 after a tag) and the line-start state."""
        self._last_was_lf = s[-1] == "\n"
        if self._code_aware:
            k = s.rfind("\n")
            if k >= 0:
                self._line_start = True
                self._line_spaces = 0
                if k + 1 < len(s):
                    self._line_tail(s[k + 1 :])
            elif self._line_start:
                self._line_tail(s)

    def _line_tail(self, tail: str) -> None:
        """Update the line-start state with text containing no LF."""
        if tail.strip(" "):
            self._line_start = False
        else:
            self._line_spaces += len(tail)
            self._line_start = self._line_spaces <= FENCE_MAX_INDENT

    def _reason(self, s: str) -> None:
        """Release block text: stripped per block (T8), separated by "\\n\\n" (S3)."""
        if not self._block_started:
            t = s.lstrip()
            if not t:
                return
            if self._echo_possible:
                self._echo_possible = False
                self._set_block_cands(self._closer_cands)
            self._block_started = True
            if self._reasoning_released:
                self._out_reasoning.append(SEPARATOR)
            self._reasoning_released = True
            s = t
        body = s.rstrip()
        held = self._block_ws  # the block's trailing whitespace run, in pieces (S6)
        if not body:
            held.append(s)
            return
        if held:
            self._out_reasoning.extend(held)
            held.clear()
        self._out_reasoning.append(body)
        if len(body) < len(s):
            held.append(s[len(body) :])

    def _tent_text(self, w: str, pos: int, j: int) -> int:
        """Add ``w[pos:j]`` to a tentative block; past the cap, restore it (T2).

        Returns the position to continue from after a restore, else -1.
        """
        cap = self._tent_cap
        if cap >= 0 and self._tent_len + (j - pos) > cap:
            cut = pos + cap + 1 - self._tent_len
            self._tent_parts.append(w[pos:cut])
            self._restore()
            return cut
        self._tent_parts.append(w[pos:j])
        self._tent_len += j - pos
        return -1

    def _restore(self) -> None:
        """A tentative block turns out to be prose: back to visible, verbatim (T2, S4)."""
        text = self._tent_opener + "".join(self._tent_parts)
        self._tent_parts = []
        self._mode = _VIS
        self._emit_vis(text)

    # ------------------------------------------------------------------ blocks

    def _open_block(self, cands: tuple[int, ...]) -> None:
        self._mode = _BLOCK
        self._had_block = True
        self._block_closed = False
        self._block_started = False
        self._block_ws.clear()
        self._echo_possible = False
        self._set_block_cands(cands)

    def _set_block_cands(self, cands: tuple[int, ...]) -> None:
        self._block_cands = cands
        pattern = self._find_cache.get(cands)
        if pattern is None:
            pattern = _charclass("".join(self._cand_text[i][0] for i in cands))
            self._find_cache[cands] = pattern
        self._block_find = pattern

    def _consumed(self, orphan_at: int) -> None:
        """A tag was consumed: T8 (drop leading whitespace), T5 (line start), T10 (first tag)."""
        if not self._tag_consumed:
            self._tag_consumed = True
            self._orphan_at = orphan_at
        if not self._produced:
            self._lead_dropped = True
        self._line_start = self._last_was_lf or not self._produced
        self._line_spaces = 0

    def _take(self, w: str, j: int, ci: int, length: int, self_closing: bool) -> int:
        """Act on a candidate that matched ``w[j:j+length]``; returns how many of its
        characters were consumed (scanning goes on after them)."""
        mode = self._mode
        kind = self._cand_kind[ci]
        pair = self._cand_pair[ci]
        if kind == LIT_TERM:
            # F2: the block ends; the terminator stays, read as visible text from its start.
            if mode == _TENT:
                self._settle()
            else:
                self._end_block()
            self._block_closed = True
            return 0
        if kind in (ANS_OPEN, ANS_CLOSE):  # F3: only tried in visible text
            self._consumed(-1)
            if kind == ANS_OPEN:
                self._ans_open = self._ans_lead = True
            elif self._ans_open:
                self._ans_open = self._ans_lead = False
                self._ans_ws.clear()
            return length
        opener = kind in (LIT_OPEN, TAG_OPEN)
        if mode == _VIS:
            if not opener:
                self._consumed(self._offset + j)  # T4 orphan closer
            elif self_closing:
                self._had_block = True
                self._block_closed = True
                self._consumed(-1)
            elif not self._produced:
                self._consumed(-1)
                self._open_block(self._pair_cands[pair])
            else:
                self._mode = _TENT
                self._tent_opener = w[j : j + length]
                self._tent_parts = []
                self._tent_len = 0
                self._set_block_cands(self._pair_cands[pair])
        elif mode == _BLOCK:
            self._consumed(-1)
            if opener and not self_closing:  # T6 echoed opener
                self._echo_possible = False
                self._set_block_cands(self._pair_cands[pair])
            else:
                self._end_block()
                self._block_closed = True
        else:  # _TENT: its closer
            self._settle()
            self._block_closed = True
        return length

    def _end_block(self) -> None:
        """A definite block ends (its closer, T3, or a terminator, F2)."""
        self._mode = _VIS
        self._block_started = False
        self._block_ws.clear()
        self._echo_possible = False

    def _settle(self) -> None:
        """A tentative block turns out to be reasoning (its closer, T2, or a terminator, F2)."""
        inner = "".join(self._tent_parts).strip()
        self._tent_parts = []
        self._had_block = True
        if inner:
            if self._reasoning_released:
                self._out_reasoning.append(SEPARATOR)
            self._out_reasoning.append(inner)
            self._reasoning_released = True
        self._mode = _VIS
        self._consumed(-1)

    def _release_char(self, c: str) -> None:
        """T1 failure: the first held character is ordinary text of the current channel."""
        mode = self._mode
        if mode == _VIS:
            self._emit_vis(c)
        elif mode == _BLOCK:
            self._reason(c)
        else:
            self._tent_parts.append(c)
            self._tent_len += 1
            if 0 <= self._tent_cap < self._tent_len:
                self._restore()

    # ------------------------------------------------------------------ candidate matching

    def _match(self, w: str, j: int, cands: tuple[int, ...], final: bool) -> int:
        """Try every candidate at ``w[j]``; returns where to continue (``len(w)`` if held)."""
        end = len(w)
        kind = self._cand_kind
        pref = self._cand_text
        phs = []
        ns = []
        used = []
        for ci in cands:
            ph, n, u = _advance(kind[ci], pref[ci], _PH_PREF, 0, w, j, end, "")
            phs.append(ph)
            ns.append(n)
            used.append(u)
        verdict, idx = self._resolve(phs, final)
        if verdict == _WAIT:
            self._held_parts = [w[j:]]
            self._held_len = end - j
            self._held_last = w[-1]
            self._held_cands = cands
            self._held_phases = phs
            self._held_counts = ns
            self._held_used = used
            return end
        if verdict == _TAKE:
            return j + self._take(w, j, cands[idx], used[idx], phs[idx] == _PH_SELF)
        self._release_char(w[j])
        return j + 1

    @staticmethod
    def _resolve(phs: list[int], final: bool) -> tuple[int, int]:
        """T1 order: the first candidate that has not failed decides (wait, or take it)."""
        for idx, ph in enumerate(phs):
            if ph == _PH_FAIL:
                continue
            if ph >= 0:
                if final:
                    phs[idx] = _PH_FAIL
                    continue
                return _WAIT, idx
            return _TAKE, idx
        return _NONE, -1

    def _continue_match(self, chunk: str, base: int, final: bool) -> None:
        """Advance a held candidate match with ``chunk`` (``final``: end of text)."""
        phs = self._held_phases
        ns = self._held_counts
        used = self._held_used
        kind = self._cand_kind
        pref = self._cand_text
        end = len(chunk)
        if end:
            for idx, ci in enumerate(self._held_cands):
                if phs[idx] >= 0:
                    ph, n, u = _advance(
                        kind[ci], pref[ci], phs[idx], ns[idx], chunk, 0, end, self._held_last
                    )
                    phs[idx] = ph
                    ns[idx] = n
                    used[idx] += u
        verdict, idx = self._resolve(phs, final)
        if verdict == _WAIT:
            self._held_parts.append(chunk)
            self._held_len += end
            if end:
                self._held_last = chunk[-1]
            return
        w = "".join(self._held_parts) + chunk
        self._offset = base - self._held_len
        self._held_parts = []
        self._held_len = 0
        if verdict == _TAKE:
            pos = self._take(w, 0, self._held_cands[idx], used[idx], phs[idx] == _PH_SELF)
        else:
            self._release_char(w[0])
            pos = 1
        self._run(w, pos, final)


def scanner_for(cfg: Config) -> ThinkScanner:
    """A new scanner for options already resolved by ``resolve_options(..., allow_auto=False)``:
    what ``ThinkScanner(**options)`` builds, without checking the options again."""
    scanner = ThinkScanner.__new__(ThinkScanner)
    scanner._setup(cfg)
    return scanner
