# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled ``ThinkScanner``: the same contract, states and names as ``thinkparse._scanner_py``.

Theory of operation
-------------------
The scanner is the pure-Python one's state machine (read that module's docstring first: the
channels, what is held back and why, why the work is linear); every state variable has the same
name and meaning there.  What changes is only how the work is done:

* text is read straight from the string's buffer (``PyUnicode_KIND`` / ``PyUnicode_DATA``); the
  next character that matters is found by ``tp_find`` (``src_ext/_search.h``: memchr, AVX2 or
  SSE2 on one-byte strings, a table look-up per character otherwise);
* visible text is released as slices of the input: the ``_pending_*`` run grows while the text
  stays contiguous and is copied once, when the call's result is assembled, so a chunk with
  nothing to remove comes back as the very same object (S7);
* candidate tags advance a small per-candidate state one character at a time, in C
  (``_step``), over tables built once per option set (``_Plan``, shared by every scanner);
* ``Delta`` results are allocated directly as instances of the shared tuple subclass, and the
  previous one is refilled in place when nobody else holds it and it is still exactly a
  ``Delta``.

Safety on misuse (docs/behaviour.md#m1): ``_tables`` is NULL until
``__init__`` succeeds and every entry point checks it; ``_busy`` is set for the whole of a
``feed()``/``close()`` that changes state, so a call arriving from a finalizer (any allocation
can run the garbage collector) or from another thread raises ``RuntimeError`` instead of
changing state under the running call; the fast path is off while busy.
"""

from cpython.mem cimport PyMem_Free, PyMem_Malloc
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_SET_ITEM
from cpython.unicode cimport (
    PyUnicode_CheckExact,
    PyUnicode_DATA,
    PyUnicode_GET_LENGTH,
    PyUnicode_KIND,
    PyUnicode_READ,
    PyUnicode_Substring,
)
from libc.string cimport memset

cimport cython

from typing import Any, Optional

from thinkparse._errors import ScannerClosedError
from thinkparse._spec import (
    ANS_CLOSE as _ANS_CLOSE,
    ANS_OPEN as _ANS_OPEN,
    CHANNEL_SCANNERS,
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    FENCE_MAX_INDENT as _FENCE_MAX_INDENT,
    FENCE_MIN_RUN as _FENCE_MIN_RUN,
    LIT_CLOSE as _LIT_CLOSE,
    LIT_OPEN as _LIT_OPEN,
    LIT_TERM as _LIT_TERM,
    MAX_ATTR_CHARS as _MAX_ATTR_CHARS,
    MAX_CLOSER_SPACE as _MAX_CLOSER_SPACE,
    NOT_INITIALISED,
    REENTERED,
    SEPARATOR,
    TAG_CLOSE as _TAG_CLOSE,
    TAG_OPEN as _TAG_OPEN,
    TAG_SPACE,
)
from thinkparse._config import resolve_options
from thinkparse._types import EMPTY_DELTA, Delta

cdef extern from "Python.h":
    ctypedef struct PyTypeObject:
        pass
    ctypedef struct PyObject:
        pass
    object PyType_GenericAlloc(PyTypeObject *tp, Py_ssize_t nitems)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    bint PyUnicode_IS_ASCII(object o)
    void *memcpy(void *dst, const void *src, size_t n)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)
    Py_ssize_t Py_REFCNT(PyObject *o)
    PyObject *PyTuple_GET_ITEM(object p, Py_ssize_t pos)
    void Py_DECREF(PyObject *o)

cdef extern from "_search.h":
    ctypedef struct tp_charset:
        unsigned char table[256]
        int nb
        unsigned char b[4]
        int nextra
        Py_UCS4 *extra
    Py_ssize_t tp_find(const void *data, int kind, Py_ssize_t i, Py_ssize_t end,
                       const tp_charset *cs) nogil
    bint tp_member(const tp_charset *cs, Py_UCS4 c) nogil

# Shared constants, as C values.
#: ``ord("a") - ord("A")``: ASCII-only lowercasing of tag names (T1).
cdef unsigned int ASCII_CASE_GAP = 32
cdef Py_ssize_t FENCE_MAX_INDENT = _FENCE_MAX_INDENT
cdef Py_ssize_t FENCE_MIN_RUN = _FENCE_MIN_RUN
cdef Py_ssize_t MAX_ATTR_CHARS = _MAX_ATTR_CHARS
cdef Py_ssize_t MAX_CLOSER_SPACE = _MAX_CLOSER_SPACE
cdef int LIT_OPEN = _LIT_OPEN
cdef int LIT_CLOSE = _LIT_CLOSE
cdef int LIT_TERM = _LIT_TERM
cdef int ANS_OPEN = _ANS_OPEN
cdef int ANS_CLOSE = _ANS_CLOSE
cdef int TAG_OPEN = _TAG_OPEN
cdef int TAG_CLOSE = _TAG_CLOSE
cdef str SEP = SEPARATOR
cdef object _Delta = Delta
cdef object _EMPTY = EMPTY_DELTA

# Modes, fence phases, candidate phases, verdicts (same meanings as in _scanner_py).
cdef enum:
    M_VIS, M_BT, M_TL, M_SPAN, M_FENCE, M_BLOCK, M_TENT
cdef enum:
    F_INFO, F_LS, F_RUN, F_TRAIL
cdef enum:
    PH_FAIL = -1
    PH_MATCH = -2
    PH_SELF = -3
    PH_PREF = 0
    PH_TAIL = 1
    PH_SLASH = 2
    PH_ATTR = 3
    PH_CWS = 4
cdef enum:
    R_WAIT, R_TAKE, R_NONE


cdef inline object _delta(object visible, object reasoning):
    cdef object d = PyType_GenericAlloc(<PyTypeObject *><void *>_Delta, 2)
    Py_INCREF(visible)
    PyTuple_SET_ITEM(d, 0, visible)
    Py_INCREF(reasoning)
    PyTuple_SET_ITEM(d, 1, reasoning)
    return d


cdef inline object _refill(object d, object visible, object reasoning):
    """Reuse a ``Delta`` nobody else holds (refcount 1), as ``zip()`` reuses its tuple."""
    cdef PyObject *old0 = PyTuple_GET_ITEM(d, 0)
    cdef PyObject *old1 = PyTuple_GET_ITEM(d, 1)
    Py_INCREF(visible)
    PyTuple_SET_ITEM(d, 0, visible)
    Py_INCREF(reasoning)
    PyTuple_SET_ITEM(d, 1, reasoning)
    Py_DECREF(old0)
    Py_DECREF(old1)
    return d


cdef str _assemble(list parts):
    """Concatenate strings and ``(text, start, end)`` runs with a single copy of each.

    ASCII pieces (the common case) are copied straight into one new string; otherwise the
    runs become slices and ``str.join`` picks the result's kind.
    """
    cdef Py_ssize_t total = 0, a, b, n
    cdef bint ascii = True
    cdef object part, src
    cdef char *dst
    for part in parts:
        if type(part) is tuple:
            src, a, b = <tuple>part
            total += b - a
        else:
            src = part
            total += PyUnicode_GET_LENGTH(src)
        if not PyUnicode_IS_ASCII(src):
            ascii = False
    if not ascii:
        return "".join([
            PyUnicode_Substring((<tuple>p)[0], (<tuple>p)[1], (<tuple>p)[2])
            if type(p) is tuple else p
            for p in parts
        ])
    cdef str out = PyUnicode_New(total, 127)
    dst = <char *>PyUnicode_DATA(out)
    for part in parts:
        if type(part) is tuple:
            src, a, b = <tuple>part
        else:
            src = part
            a = 0
            b = PyUnicode_GET_LENGTH(src)
        n = b - a
        if n:
            memcpy(dst, <char *>PyUnicode_DATA(src) + a, n)
            dst += n
    return out


cdef inline bint _tag_space(Py_UCS4 c) noexcept nogil:
    return c == u' ' or c == u'\t' or c == u'\n' or c == u'\r'


cdef int _cs_init(tp_charset *cs, str chars) except -1:
    cdef Py_UCS4 c
    cdef list extra = []
    memset(cs.table, 0, 256)
    cs.nb = 0
    cs.nextra = 0
    cs.extra = NULL
    for c in chars:
        if c < 256:
            if not cs.table[c]:
                cs.table[c] = 1
                if cs.nb < 4:
                    cs.b[cs.nb] = <unsigned char>c
                cs.nb += 1
        elif c not in extra:
            extra.append(c)
    if extra:
        cs.extra = <Py_UCS4 *>PyMem_Malloc(len(extra) * sizeof(Py_UCS4))
        if cs.extra == NULL:
            raise MemoryError()
        for c in extra:
            cs.extra[cs.nextra] = c
            cs.nextra += 1
    return 0


cdef struct Tables:
    # The read-only tables of one option set: the candidates in T1 order (kind, pair, text as
    # ``cand_len`` characters from ``cand_chars[cand_start]``), the candidate sets a position
    # can be matched against and the character sets searched for; the same names as the
    # pure-Python scanner's ``_Plan``.  ``pair_cands`` holds, for each pair p, ``npair_set``
    # candidates from ``pair_cands[p * npair_set]``: its closer, then the terminators (F2).
    int ncands, npairs, nvisible, nimplicit, ncloser, npair_set
    int *cand_kind
    int *cand_pair
    Py_ssize_t *cand_len
    Py_ssize_t *cand_start
    Py_UCS4 *cand_chars
    int *visible_cands
    int *implicit_cands
    int *closer_cands
    int *pair_cands
    tp_charset visible_cs, plain_cs, implicit_cs, closer_cs, span_cs, lf_cs, backtick_cs, tilde_cs
    tp_charset *pair_cs
    bint code_aware
    Py_ssize_t tent_cap


cdef int *_int_array(list values) except NULL:
    cdef int *out = <int *>PyMem_Malloc((len(values) or 1) * sizeof(int))
    cdef Py_ssize_t i
    if out == NULL:
        raise MemoryError()
    for i in range(len(values)):
        out[i] = values[i]
    return out


@cython.final
cdef class _Plan:
    """The read-only tables of one option set, shared by every scanner created with it."""

    cdef Tables tables
    cdef object channel

    def __cinit__(self, cfg):
        memset(&self.tables, 0, sizeof(Tables))

    def __init__(self, cfg):
        cdef list prefs = []
        cdef int i, p
        cdef Py_ssize_t total = 0
        cdef Py_UCS4 ch
        self.channel = cfg.channel
        for kind, text, p in cfg.candidates:
            prefs.append(text if kind < TAG_OPEN else ("<" if kind == TAG_OPEN else "</") + text)
        terms = list(cfg.terminators)
        closers = list(cfg.closers)
        implicit = [i for (open_, _), close in zip(cfg.pairs, closers) for i in (open_, close)]
        implicit += terms
        pair_sets = []
        for close in closers:
            pair_sets += [close] + terms
        self.tables.ncands = len(prefs)
        self.tables.npairs = len(cfg.pairs)
        self.tables.nvisible = len(cfg.visible)
        self.tables.nimplicit = len(implicit)
        self.tables.ncloser = len(closers) + len(terms)
        self.tables.npair_set = 1 + len(terms)
        self.tables.visible_cands = _int_array(list(cfg.visible))
        self.tables.implicit_cands = _int_array(implicit)
        self.tables.closer_cands = _int_array(closers + terms)
        self.tables.pair_cands = _int_array(pair_sets)
        self.tables.cand_kind = <int *>PyMem_Malloc(self.tables.ncands * sizeof(int))
        self.tables.cand_pair = <int *>PyMem_Malloc(self.tables.ncands * sizeof(int))
        self.tables.cand_len = <Py_ssize_t *>PyMem_Malloc(self.tables.ncands * sizeof(Py_ssize_t))
        self.tables.cand_start = <Py_ssize_t *>PyMem_Malloc(self.tables.ncands * sizeof(Py_ssize_t))
        self.tables.pair_cs = <tp_charset *>PyMem_Malloc(self.tables.npairs * sizeof(tp_charset))
        if self.tables.pair_cs != NULL:
            memset(self.tables.pair_cs, 0, self.tables.npairs * sizeof(tp_charset))
        for pref in prefs:
            total += len(pref)
        self.tables.cand_chars = <Py_UCS4 *>PyMem_Malloc(total * sizeof(Py_UCS4))
        if (self.tables.cand_kind == NULL or self.tables.cand_pair == NULL or self.tables.cand_len == NULL
                or self.tables.cand_start == NULL or self.tables.pair_cs == NULL
                or self.tables.cand_chars == NULL):
            raise MemoryError()
        total = 0
        for i in range(self.tables.ncands):
            kind_i, _, p = cfg.candidates[i]
            self.tables.cand_kind[i] = kind_i
            self.tables.cand_pair[i] = p
            self.tables.cand_start[i] = total
            self.tables.cand_len[i] = len(prefs[i])
            for ch in <str>prefs[i]:
                self.tables.cand_chars[total] = ch
                total += 1
        term_firsts = "".join([(<str>prefs[i])[0] for i in terms])
        for p in range(self.tables.npairs):
            _cs_init(&self.tables.pair_cs[p], (<str>prefs[closers[p]])[0] + term_firsts)
        firsts = cfg.first_chars
        _cs_init(&self.tables.visible_cs, firsts + ("`~" if cfg.code_aware else ""))
        _cs_init(&self.tables.plain_cs, firsts + "<`~\n")
        _cs_init(&self.tables.implicit_cs, "".join([(<str>prefs[i])[0] for i in implicit]))
        _cs_init(&self.tables.closer_cs, "".join([(<str>prefs[i])[0] for i in closers + terms]))
        _cs_init(&self.tables.span_cs, "`\n")
        _cs_init(&self.tables.lf_cs, "\n")
        _cs_init(&self.tables.backtick_cs, "`")
        _cs_init(&self.tables.tilde_cs, "~")
        self.tables.code_aware = cfg.code_aware
        self.tables.tent_cap = cfg.max_tentative

    def __dealloc__(self):
        cdef int p
        PyMem_Free(self.tables.cand_kind)
        PyMem_Free(self.tables.cand_pair)
        PyMem_Free(self.tables.cand_len)
        PyMem_Free(self.tables.cand_start)
        PyMem_Free(self.tables.cand_chars)
        PyMem_Free(self.tables.visible_cands)
        PyMem_Free(self.tables.implicit_cands)
        PyMem_Free(self.tables.closer_cands)
        PyMem_Free(self.tables.pair_cands)
        PyMem_Free(self.tables.visible_cs.extra)
        PyMem_Free(self.tables.plain_cs.extra)
        PyMem_Free(self.tables.implicit_cs.extra)
        PyMem_Free(self.tables.closer_cs.extra)
        PyMem_Free(self.tables.span_cs.extra)
        PyMem_Free(self.tables.lf_cs.extra)
        PyMem_Free(self.tables.backtick_cs.extra)
        PyMem_Free(self.tables.tilde_cs.extra)
        if self.tables.pair_cs != NULL:
            for p in range(self.tables.npairs):
                PyMem_Free(self.tables.pair_cs[p].extra)
            PyMem_Free(self.tables.pair_cs)


#: Plans by validated option set (bounded).
cdef dict _PLANS = {}


@cython.final
cdef class ThinkScanner:
    """ThinkScanner(*, tags=None, delimiters=(), start_in_reasoning=False, code_aware=True, max_tentative=8192, preset=None, terminators=(), answer=(), prompt=None)
--

Incremental ``<think>``-style tag extractor (docs/behaviour.md, T1-T10 and S1-S7).

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

    # The state below has the same names and meanings as the pure-Python scanner's slots
    # (``thinkparse/_scanner_py.py``); only ``_tables``, ``_plan``, ``_last_delta`` and the
    # ``_pending_*`` run are particular to this implementation.
    cdef:
        # configuration: read-only tables shared through ``_plan``
        _Plan _plan
        Tables *_tables
        # bookkeeping: the last Delta returned (refilled when nobody else holds it), the
        # lifecycle flags, characters fed so far and the offset of the text being scanned
        object _last_delta
        bint _closed, _fast, _busy
        Py_ssize_t _fed, _offset
        list _out_visible, _out_reasoning
        # a channel scanner that reads the whole text instead (F6), or None
        object _channel
        # visible text: T8 leading whitespace, T5 line start
        bint _produced, _lead_dropped, _last_was_lf, _line_start
        Py_ssize_t _line_spaces
        list _lead_ws
        # answer wrappers (F3): whitespace dropped after an opener, a trailing run held
        bint _ans_open, _ans_lead
        list _ans_ws
        # the visible run released by this call, as a slice not yet copied
        object _pending_text
        Py_ssize_t _pending_start, _pending_end
        # code (T5): the backtick/tilde run being counted, an inline span, a fence
        bint _run_at_line_start
        Py_ssize_t _run_len, _span_run, _fence_len, _fence_run, _fence_indent
        Py_UCS4 _fence_char
        int _fence_phase
        # blocks (T2, T3, T6, T8, T9, F7)
        bint _reasoning_released, _block_started, _echo_possible, _tag_consumed
        list _block_ws
        bint _had_block, _block_closed
        Py_ssize_t _orphan_at
        int *_block_cands
        int _block_ncands
        tp_charset *_block_charset
        # tentative block (T2, S4)
        str _tent_opener
        list _tent_parts
        Py_ssize_t _tent_len
        # held candidate match (T1): text held back and each candidate's progress
        list _held_parts
        Py_ssize_t _held_len
        Py_UCS4 _held_last
        int *_held_cands
        int _held_ncands
        int *_held_phases
        Py_ssize_t *_held_counts
        Py_ssize_t *_held_used
        int _mode

    def __cinit__(self, *args, **kwargs):
        # A bare instance (``__new__`` only, or an ``__init__`` that raised) keeps ``_tables``
        # NULL:
        # every entry point checks it and raises instead of reading missing tables.
        self._plan = None
        self._tables = NULL
        self._busy = False
        self._held_phases = NULL
        self._held_counts = NULL
        self._held_used = NULL

    @cython.annotation_typing(False)
    def __init__(
        self,
        *,
        tags: Any = DEFAULT_TAGS_OPT,
        delimiters: Any = DEFAULT_DELIMITERS_OPT,
        start_in_reasoning: Any = DEFAULT_START_OPT,
        code_aware: Any = DEFAULT_CODE_AWARE_OPT,
        max_tentative: Any = DEFAULT_MAX_TENTATIVE_OPT,
        preset: Optional[str] = None,
        terminators: Any = DEFAULT_TERMINATORS_OPT,
        answer: Any = DEFAULT_ANSWER_OPT,
        prompt: Optional[str] = None,
    ) -> None:
        cfg = resolve_options(
            tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
            terminators, answer, prompt, allow_auto=False,
        )
        if self._plan is not None:
            raise RuntimeError("ThinkScanner.__init__ may be called only once")
        self._setup(cfg)

    cdef int _setup(self, object cfg) except -1:
        """Start scanning with resolved options (``__init__`` and :func:`scanner_for`)."""
        cdef _Plan plan = _PLANS.get(cfg)
        if plan is None:
            plan = _Plan(cfg)
            if len(_PLANS) >= 256:
                _PLANS.clear()
            _PLANS[cfg] = plan
        self._held_cands = NULL
        self._held_phases = <int *>PyMem_Malloc(plan.tables.ncands * sizeof(int))
        self._held_counts = <Py_ssize_t *>PyMem_Malloc(plan.tables.ncands * sizeof(Py_ssize_t))
        self._held_used = <Py_ssize_t *>PyMem_Malloc(plan.tables.ncands * sizeof(Py_ssize_t))
        if self._held_phases == NULL or self._held_counts == NULL or self._held_used == NULL:
            raise MemoryError()
        self._plan = plan
        self._tables = &plan.tables
        self._last_delta = None
        self._closed = False
        self._fast = False
        self._fed = 0
        self._offset = 0
        self._out_visible = []
        self._out_reasoning = []
        self._produced = False
        self._lead_dropped = False
        self._last_was_lf = False
        self._line_start = True
        self._line_spaces = 0
        self._lead_ws = []
        self._ans_open = False
        self._ans_lead = False
        self._ans_ws = []
        self._pending_text = None
        self._run_at_line_start = False
        self._run_len = 0
        self._span_run = 0
        self._fence_char = u'`'
        self._fence_len = 0
        self._fence_phase = F_INFO
        self._fence_run = 0
        self._fence_indent = 0
        self._reasoning_released = False
        self._block_started = False
        self._block_ws = []
        self._echo_possible = False
        self._had_block = False
        self._block_closed = True
        self._tag_consumed = False
        self._orphan_at = -1
        self._tent_opener = ""
        self._tent_parts = []
        self._tent_len = 0
        self._held_parts = []
        self._held_len = 0
        self._held_last = 0
        self._held_ncands = 0
        self._mode = M_VIS
        self._block_cands = self._tables.implicit_cands
        self._block_ncands = self._tables.nimplicit
        self._block_charset = &self._tables.implicit_cs
        self._channel = CHANNEL_SCANNERS[plan.channel]() if plan.channel else None
        if cfg.start_in_reasoning:
            self._open_block(self._tables.implicit_cands, self._tables.nimplicit,
                             &self._tables.implicit_cs)
            self._echo_possible = True
        return 0

    def __dealloc__(self):
        PyMem_Free(self._held_phases)
        PyMem_Free(self._held_counts)
        PyMem_Free(self._held_used)

    # ------------------------------------------------------------------ public API

    @cython.annotation_typing(False)
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
        cdef Py_ssize_t n, base
        cdef object delta
        if self._tables == NULL:
            raise RuntimeError(NOT_INITIALISED)
        if self._fast and PyUnicode_CheckExact(chunk):
            n = PyUnicode_GET_LENGTH(chunk)
            if tp_find(PyUnicode_DATA(chunk), PyUnicode_KIND(chunk), 0, n,
                       &self._tables.plain_cs) == n:
                if n:
                    self._fed += n
                    self._last_was_lf = False
                    if self._line_start and self._tables.code_aware:
                        self._emit_line_state(<str>chunk, 0, n)
                return self._result(chunk, "")
        if not isinstance(chunk, str):
            raise TypeError(f"feed() takes a str chunk, not {type(chunk).__name__}")
        if self._closed:
            raise ScannerClosedError("feed() after close(): this scanner has finished")
        if self._busy:
            raise RuntimeError(REENTERED)
        if self._channel is not None:
            return self._channel.feed(chunk)
        # Any allocation below can run Python code (a finalizer, another thread): while busy,
        # the fast path is off and every entry point raises, so no state changes under us.
        self._busy = True
        self._fast = False
        try:
            base = self._fed
            self._fed = base + PyUnicode_GET_LENGTH(chunk)
            if self._held_parts:
                self._continue_match(<str>chunk, base, False)
            else:
                self._offset = base
                self._run(<str>chunk, 0, False)
            delta = self._result(self._vis_out(), self._out(self._out_reasoning))
            self._fast = (self._mode == M_VIS and self._produced and not self._held_parts
                          and not self._ans_open)
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
        if self._tables == NULL:
            raise RuntimeError(NOT_INITIALISED)
        if self._closed:
            return _EMPTY
        if self._busy:
            raise RuntimeError(REENTERED)
        self._closed = True
        if self._channel is not None:
            return self._channel.close()
        self._busy = True
        self._fast = False
        try:
            if self._held_parts:
                self._continue_match("", self._fed, True)
            if self._mode == M_TENT:
                self._restore()
            if self._ans_ws:  # a trailing run not followed by an answer's closer (F3)
                held = "".join(self._ans_ws)
                del self._ans_ws[:]
                self._out_vis(held, 0, PyUnicode_GET_LENGTH(held))
            self._flush()
            if not self._produced:
                if self._lead_ws and not self._lead_dropped:
                    self._out_visible.append("".join(self._lead_ws))
                del self._lead_ws[:]
            del self._block_ws[:]
            delta = _delta(self._vis_out(), self._out(self._out_reasoning))
        finally:
            self._busy = False
        return delta

    # ------------------------------------------------------------------ public state

    cdef inline int _check_ready(self) except -1:
        if self._tables == NULL:
            raise RuntimeError(NOT_INITIALISED)
        return 0

    @property
    def in_reasoning(self):
        """Whether the next character fed would be reasoning: the scanner is inside a definite
        block (T2) or the implicit block of ``start_in_reasoning`` (T6), see
        docs/behaviour.md#w4.  A tentative block does not count (its fate is open); after
        ``close()`` this is ``False``."""
        self._check_ready()
        if self._channel is not None:
            return bool(self._channel.in_reasoning)
        return self._mode == M_BLOCK and not self._closed

    @property
    def had_block(self):
        """Whether any block has become reasoning so far, so the joined reasoning is not
        ``None`` (T9): a definite or implicit block, a self-closing opener or a resolved
        tentative block."""
        self._check_ready()
        if self._channel is not None:
            return bool(self._channel.had_block)
        return self._had_block

    @property
    def tag_consumed(self):
        """Whether any tag or delimiter has been consumed (removed from the text) so far: an
        opener, a closer, an orphan closer (T4), a self-closing or an echoed opener (T6), an
        answer wrapper's marker (F3).  A terminator is never consumed (F2)."""
        self._check_ready()
        if self._channel is not None:
            return bool(self._channel.tag_consumed)
        return self._tag_consumed

    @property
    def orphan_at(self):
        """Where the first consumed tag starts, as an offset into all text fed, when it was an
        orphan closer (T4); ``None`` when it was another tag or none was consumed (T10)."""
        self._check_ready()
        if self._channel is not None:
            return None
        return self._orphan_at if self._orphan_at >= 0 else None

    @property
    def reasoning_closed(self):
        """Whether the last block that became reasoning was closed -- by its closer, a
        terminator (F2) or a self-closing opener -- rather than cut off by the end of the text
        (F7); ``None`` while no block exists (T9)."""
        self._check_ready()
        if self._channel is not None:
            return self._channel.reasoning_closed
        if not self._had_block:
            return None
        return self._block_closed

    def __repr__(self):
        if self._tables == NULL:
            return f"<{type(self).__module__}.ThinkScanner not initialised>"
        if self._closed:
            state = "closed"
        elif self._mode == M_BLOCK:
            state = "in block"
        elif self._mode == M_TENT:
            state = "in tentative block"
        else:
            state = "visible"
        return f"<{type(self).__module__}.ThinkScanner {state}>"

    # ------------------------------------------------------------------ main loop

    cdef inline object _result(self, object visible, object reasoning):
        """The ``Delta`` to return: the previous one refilled when only this scanner holds it
        and it is still exactly a ``Delta`` (its ``__class__`` may have been reassigned)."""
        if (self._last_delta is not None and Py_REFCNT(<PyObject *>self._last_delta) == 1
                and type(self._last_delta) is _Delta):
            return _refill(self._last_delta, visible, reasoning)
        self._last_delta = _delta(visible, reasoning)
        return self._last_delta

    cdef inline str _out(self, list parts):
        """Join and empty an output list (kept between calls to save allocations)."""
        cdef str text
        cdef Py_ssize_t n = len(parts)
        if n == 0:
            return ""
        text = <str>parts[0] if n == 1 else "".join(parts)
        del parts[:]
        return text

    cdef str _vis_out(self):
        """The visible text released by this call: usually one slice, built only here."""
        cdef str text
        if not self._out_visible:
            if self._pending_text is None:
                return ""
            text = PyUnicode_Substring(self._pending_text, self._pending_start, self._pending_end)
            self._pending_text = None
            return text
        self._flush()
        text = _assemble(self._out_visible)
        del self._out_visible[:]
        return text

    cdef int _run(self, str w, Py_ssize_t pos, bint final) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t j, cut
        cdef Py_UCS4 c
        cdef int mode
        while pos < end:
            mode = self._mode
            if mode == M_VIS:
                j = self._skip_plain(kind, data, pos, end)
                c = PyUnicode_READ(kind, data, j) if j < end else 0
                if j > pos:
                    self._emit_vis(w, pos, j)
                if j == end:
                    return 0
                if self._tables.code_aware and c == u'`':
                    self._run_at_line_start = self._line_start
                    pos = self._code_run(w, j, u'`', M_BT, 0, final)
                elif self._tables.code_aware and c == u'~':
                    if self._line_start:
                        pos = self._code_run(w, j, u'~', M_TL, 0, final)
                    else:
                        self._emit_vis(w, j, j + 1)
                        pos = j + 1
                else:
                    pos = self._match(w, j, self._tables.visible_cands, self._tables.nvisible,
                                      final)
            elif mode == M_BT:
                pos = self._code_run(w, pos, u'`', M_BT, self._run_len, final)
            elif mode == M_TL:
                pos = self._code_run(w, pos, u'~', M_TL, self._run_len, final)
            elif mode == M_SPAN:
                pos = self._span(w, pos)
            elif mode == M_FENCE:
                pos = self._fence(w, pos)
            elif mode == M_BLOCK:
                j = tp_find(data, kind, pos, end, self._block_charset)
                if j > pos:
                    self._reason(w, pos, j)
                if j < end:
                    pos = self._match(w, j, self._block_cands, self._block_ncands, final)
                else:
                    pos = end
            else:  # M_TENT
                j = tp_find(data, kind, pos, end, self._block_charset)
                if j > pos:
                    cut = self._tent_text(w, pos, j)
                    if cut >= 0:
                        pos = cut
                        continue
                if j < end:
                    pos = self._match(w, j, self._block_cands, self._block_ncands, final)
                else:
                    pos = end
        return 0

    # ------------------------------------------------------------------ code (T5)

    cdef Py_ssize_t _code_run(self, str w, Py_ssize_t j, Py_UCS4 ch, int mode, Py_ssize_t n,
                              bint final) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t k = j
        while k < end and PyUnicode_READ(kind, data, k) == ch:
            k += 1
        n += k - j
        if k > j:
            self._emit_vis(w, j, k)
        if k == end and not final:
            self._mode = mode
            self._run_len = n
            return k
        if mode == M_BT:
            if self._run_at_line_start and n >= FENCE_MIN_RUN:
                self._open_fence(u'`', n)
            else:
                self._mode = M_SPAN
                self._run_len = n
                self._span_run = 0
        elif n >= FENCE_MIN_RUN:
            self._open_fence(u'~', n)
        else:
            self._mode = M_VIS
        return k

    cdef inline void _open_fence(self, Py_UCS4 ch, Py_ssize_t n) noexcept:
        self._mode = M_FENCE
        self._fence_char = ch
        self._fence_len = n
        self._fence_phase = F_INFO

    cdef Py_ssize_t _span(self, str w, Py_ssize_t pos) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t j, k
        cdef Py_UCS4 c
        if self._span_run:
            k = pos
            while k < end and PyUnicode_READ(kind, data, k) == u'`':
                k += 1
            self._span_run += k - pos
            if k > pos:
                self._emit_vis(w, pos, k)
            if k == end:
                return k
            if self._span_run == self._run_len:
                self._mode = M_VIS
            self._span_run = 0
            return k
        # Spans are short: look at a few characters before setting up the vector search.
        j = pos
        while j < end and j < pos + 24:
            c = PyUnicode_READ(kind, data, j)
            if c == u'`' or c == u'\n':
                break
            j += 1
        else:
            j = tp_find(data, kind, j, end, &self._tables.span_cs)
        if j == end:
            self._emit_vis(w, pos, end)
            return end
        if PyUnicode_READ(kind, data, j) == u'\n':
            self._emit_vis(w, pos, j + 1)
            self._mode = M_VIS
            return j + 1
        k = j
        while k < end and PyUnicode_READ(kind, data, k) == u'`':
            k += 1
        self._emit_vis(w, pos, k)
        self._span_run = k - j
        if k == end:
            return k
        if self._span_run == self._run_len:
            self._mode = M_VIS
        self._span_run = 0
        return k

    cdef Py_ssize_t _fence(self, str w, Py_ssize_t pos) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t start = pos, k, cnt = 0
        cdef Py_UCS4 ch = self._fence_char, c
        cdef int ph
        cdef tp_charset *cs
        while pos < end:
            ph = self._fence_phase
            if ph == F_INFO:
                # Only a line starting with (<= 3 spaces and) the fence character can close the
                # fence: jump to the next fence character and look back for its line start.
                cs = &self._tables.backtick_cs if ch == u'`' else &self._tables.tilde_cs
                k = tp_find(data, kind, pos, end, cs)
                while k < end:
                    cnt = self._line_indent(kind, data, pos, k)
                    if cnt >= 0:
                        break
                    k = tp_find(data, kind, k + 1, end, cs)
                if k == end:
                    cnt = self._line_indent(kind, data, pos, end)
                    if cnt >= 0:
                        self._fence_phase = F_LS
                        self._fence_indent = cnt
                    pos = end
                    break
                self._fence_phase = F_LS
                self._fence_indent = cnt
                pos = k
                continue
            c = PyUnicode_READ(kind, data, pos)
            pos += 1
            if ph == F_LS:
                if c == u' ':
                    self._fence_indent += 1
                    if self._fence_indent > FENCE_MAX_INDENT:
                        self._fence_phase = F_INFO
                elif c == ch:
                    self._fence_phase = F_RUN
                    self._fence_run = 1
                elif c == u'\n':
                    self._fence_indent = 0
                else:
                    self._fence_phase = F_INFO
            elif ph == F_RUN:
                if c == ch:
                    self._fence_run += 1
                elif c == u' ' or c == u'\t' or c == u'\r':
                    self._fence_phase = F_TRAIL if self._fence_run >= self._fence_len else F_INFO
                elif c == u'\n':
                    if self._fence_run >= self._fence_len:
                        self._mode = M_VIS
                        break
                    self._fence_phase = F_LS
                    self._fence_indent = 0
                else:
                    self._fence_phase = F_INFO
            else:  # F_TRAIL
                if c == u'\n':
                    self._mode = M_VIS
                    break
                if not (c == u' ' or c == u'\t' or c == u'\r'):
                    self._fence_phase = F_INFO
        self._emit_vis(w, start, pos)
        return pos

    cdef Py_ssize_t _skip_plain(self, int kind, void *data, Py_ssize_t pos,
                                Py_ssize_t end) noexcept:
        """The next position in visible text that needs the state machine.

        Skips, as plain visible text, a ``<`` that no candidate can start (T1 failure known
        from the next characters) and, with code awareness, a whole inline span of 1 or 2
        backticks that closes (or meets an LF) within ``end`` (T5): its text is visible either
        way and only its end state matters, which ``_vis`` derives from the text.
        """
        cdef Py_ssize_t j = tp_find(data, kind, pos, end, &self._tables.visible_cs), k, m, n, r
        cdef Py_UCS4 c
        while j < end:
            c = PyUnicode_READ(kind, data, j)
            if c == u'`':
                if not self._tables.code_aware:
                    return j
                k = j + 1
                while k < end and PyUnicode_READ(kind, data, k) == u'`':
                    k += 1
                n = k - j
                if n >= FENCE_MIN_RUN or k == end:
                    return j  # maybe a fence, or the run may go on: the state machine decides
                m = k
                while True:
                    m = tp_find(data, kind, m, end, &self._tables.span_cs)
                    if m == end:
                        return j  # the span is still open at the end: the state machine
                    if PyUnicode_READ(kind, data, m) == u'\n':
                        m += 1  # an LF ends the span
                        break
                    r = m
                    while r < end and PyUnicode_READ(kind, data, r) == u'`':
                        r += 1
                    if r == end:
                        return j
                    if r - m == n:
                        m = r  # the closing run
                        break
                    m = r
                j = tp_find(data, kind, m, end, &self._tables.visible_cs)
            elif c == u'~' and self._tables.code_aware:
                return j
            elif j + 1 < end and not self._could_match(kind, data, j, end):
                j = tp_find(data, kind, j + 1, end, &self._tables.visible_cs)
            else:
                return j
        return end

    cdef inline bint _could_match(self, int kind, void *data, Py_ssize_t j,
                                  Py_ssize_t end) noexcept:
        """Whether any candidate's first (up to 3) characters match the text at ``j``.

        A ``False`` answer is exactly the T1 failure that matching would reach.
        """
        cdef int i, k, v
        cdef Py_ssize_t n
        cdef Py_UCS4 c
        cdef bint fold
        for v in range(self._tables.nvisible):
            i = self._tables.visible_cands[v]
            n = self._tables.cand_len[i]
            if n > 3:
                n = 3
            fold = self._tables.cand_kind[i] >= TAG_OPEN
            for k in range(<int>n):
                if j + k >= end:
                    return True  # the text ends inside the prefix: let matching decide
                c = PyUnicode_READ(kind, data, j + k)
                if fold and u'A' <= c <= u'Z':
                    c = <Py_UCS4>(<unsigned int>c + ASCII_CASE_GAP)
                if c != self._tables.cand_chars[self._tables.cand_start[i] + k]:
                    break
            else:
                return True
        return False

    cdef inline Py_ssize_t _line_indent(self, int kind, void *data, Py_ssize_t lo,
                                        Py_ssize_t k) noexcept:
        """Spaces (at most 3) between an LF at or after ``lo`` and ``k``, or -1 if none."""
        cdef Py_ssize_t cnt = 0
        cdef Py_UCS4 c
        k -= 1
        while k >= lo:
            c = PyUnicode_READ(kind, data, k)
            if c == u'\n':
                return cnt
            if c != u' ' or cnt == FENCE_MAX_INDENT:
                return -1
            cnt += 1
            k -= 1
        return -1

    # ------------------------------------------------------------------ emission

    cdef int _flush(self) except -1:
        """Queue the pending visible run; it is copied once, when the output is assembled."""
        if self._pending_text is not None:
            self._out_visible.append((self._pending_text, self._pending_start, self._pending_end))
            self._pending_text = None
        return 0

    cdef inline int _emit_vis(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Release visible ``w[a:b]``: leading-whitespace rule (T8), answer wrappers'
        whitespace (F3), line start (T5)."""
        cdef Py_UCS4 c
        if self._ans_open:
            return self._emit_answer(w, a, b)
        if a < b and self._produced and self._pending_text is w and self._pending_end == a:
            # The common case: the pending run grows.
            self._pending_end = b
            c = PyUnicode_READ(PyUnicode_KIND(w), PyUnicode_DATA(w), b - 1)
            self._last_was_lf = c == u'\n'
            if self._tables.code_aware:
                if c == u' ' or c == u'\n':
                    self._emit_line_state(w, a, b)
                else:
                    self._line_start = False
            return 0
        return self._emit_vis_any(w, a, b)

    cdef int _emit_vis_any(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        if a >= b:
            return 0
        self._out_vis(w, a, b)
        self._last_was_lf = PyUnicode_READ(PyUnicode_KIND(w), PyUnicode_DATA(w), b - 1) == u'\n'
        if self._tables.code_aware:
            self._emit_line_state(w, a, b)
        return 0

    cdef int _emit_answer(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Visible text inside an answer wrapper (F3): whitespace right after the opener is
        dropped, and a trailing whitespace run is held (once a visible character was produced)
        until non-whitespace follows; the closer drops it."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t a0 = a, e
        cdef str held
        if a >= b:
            return 0
        if self._ans_lead:
            while a < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)):
                a += 1
            if a < b:
                self._ans_lead = False
        if a < b:
            e = b
            while e > a and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1)):
                e -= 1
            if e == a:
                if self._produced:
                    # A list: whitespace-only pieces stay O(n) (S6).
                    self._ans_ws.append(PyUnicode_Substring(w, a, b))
                else:
                    self._out_vis(w, a, b)  # leading whitespace: T8 holds it
            else:
                if self._ans_ws:
                    held = "".join(self._ans_ws)
                    del self._ans_ws[:]
                    self._out_vis(held, 0, PyUnicode_GET_LENGTH(held))
                self._out_vis(w, a, e)
                if e < b:
                    self._ans_ws.append(PyUnicode_Substring(w, e, b))
        self._last_was_lf = PyUnicode_READ(kind, data, b - 1) == u'\n'
        if self._tables.code_aware:
            self._emit_line_state(w, a0, b)
        return 0

    cdef int _out_vis(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Output visible ``w[a:b]`` under the leading-whitespace rule (T8)."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t k
        if a >= b:
            return 0
        if self._produced:
            if self._pending_text is w and self._pending_end == a:
                self._pending_end = b
            else:
                self._flush()
                self._pending_text = w
                self._pending_start = a
                self._pending_end = b
        else:
            k = a
            while k < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                k += 1
            if k == b:
                # A list: many whitespace-only chunks stay O(n) (S6).
                self._lead_ws.append(PyUnicode_Substring(w, a, b))
            else:
                self._produced = True
                self._flush()
                if not self._lead_dropped and (self._lead_ws or k > a):
                    self._out_visible.append("".join(self._lead_ws) + PyUnicode_Substring(w, a, k))
                del self._lead_ws[:]
                self._pending_text = w
                self._pending_start = k
                self._pending_end = b
        return 0

    cdef inline int _emit_line_state(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Update the line-start state with ``w[a:b]``, reading backwards from its end."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t k = b - 1, cnt = 0
        cdef Py_UCS4 c
        while k >= a:
            c = PyUnicode_READ(kind, data, k)
            if c == u' ':
                cnt += 1
                k -= 1
                continue
            if c == u'\n':
                self._line_spaces = cnt
                self._line_start = cnt <= FENCE_MAX_INDENT
            else:
                self._line_start = False
            return 0
        if self._line_start:
            self._line_spaces += cnt
            self._line_start = self._line_spaces <= FENCE_MAX_INDENT
        return 0

    cdef int _reason(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Release block text ``w[a:b]``: stripped per block (T8), separated (S3)."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t e
        if not self._block_started:
            while a < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)):
                a += 1
            if a == b:
                return 0
            if self._echo_possible:
                self._echo_possible = False
                self._set_block_cands(self._tables.closer_cands, self._tables.ncloser, &self._tables.closer_cs)
            self._block_started = True
            if self._reasoning_released:
                self._out_reasoning.append(SEP)
            self._reasoning_released = True
        e = b
        while e > a and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1)):
            e -= 1
        if e == a:
            # The block's trailing whitespace run, held in pieces (S6).
            self._block_ws.append(PyUnicode_Substring(w, a, b))
            return 0
        if self._block_ws:
            self._out_reasoning.extend(self._block_ws)
            del self._block_ws[:]
        self._out_reasoning.append(PyUnicode_Substring(w, a, e))
        if e < b:
            self._block_ws.append(PyUnicode_Substring(w, e, b))
        return 0

    cdef Py_ssize_t _tent_text(self, str w, Py_ssize_t pos, Py_ssize_t j) except -2:
        """Add ``w[pos:j]`` to a tentative block; past the cap, restore it (T2)."""
        cdef Py_ssize_t cut
        if self._tables.tent_cap >= 0 and self._tent_len + (j - pos) > self._tables.tent_cap:
            cut = pos + self._tables.tent_cap + 1 - self._tent_len
            self._tent_parts.append(PyUnicode_Substring(w, pos, cut))
            self._restore()
            return cut
        self._tent_parts.append(PyUnicode_Substring(w, pos, j))
        self._tent_len += j - pos
        return -1

    cdef int _restore(self) except -1:
        """A tentative block turns out to be prose: back to visible, verbatim (T2, S4)."""
        cdef str text = self._tent_opener + "".join(self._tent_parts)
        self._tent_parts = []
        self._mode = M_VIS
        self._emit_vis(text, 0, PyUnicode_GET_LENGTH(text))
        return 0

    # ------------------------------------------------------------------ blocks

    cdef int _open_block(self, int *cands, int nc, tp_charset *cs) except -1:
        self._mode = M_BLOCK
        self._had_block = True
        self._block_closed = False
        self._block_started = False
        del self._block_ws[:]
        self._echo_possible = False
        self._set_block_cands(cands, nc, cs)
        return 0

    cdef inline void _set_block_cands(self, int *cands, int nc, tp_charset *cs) noexcept:
        self._block_cands = cands
        self._block_ncands = nc
        self._block_charset = cs

    cdef inline void _consumed(self, Py_ssize_t orphan_at) noexcept:
        if not self._tag_consumed:
            self._tag_consumed = True
            self._orphan_at = orphan_at
        if not self._produced:
            self._lead_dropped = True
        self._line_start = self._last_was_lf or not self._produced
        self._line_spaces = 0

    cdef Py_ssize_t _take(self, str w, Py_ssize_t j, int ci, Py_ssize_t length,
                          bint self_closing) except -1:
        """Act on a candidate that matched ``w[j:j+length]``; returns how many of its
        characters were consumed (scanning goes on after them)."""
        cdef int mode = self._mode
        cdef int k = self._tables.cand_kind[ci]
        cdef bint opener = k == LIT_OPEN or k == TAG_OPEN
        cdef int pair = self._tables.cand_pair[ci]
        cdef int *pair_set
        cdef int npair_set = self._tables.npair_set
        if k == LIT_TERM:
            # F2: the block ends; the terminator stays, read as visible text from its start.
            if mode == M_TENT:
                self._settle()
            else:
                self._end_block()
            self._block_closed = True
            return 0
        if k == ANS_OPEN or k == ANS_CLOSE:  # F3: only tried in visible text
            self._consumed(-1)
            if k == ANS_OPEN:
                self._ans_open = self._ans_lead = True
            elif self._ans_open:
                self._ans_open = self._ans_lead = False
                del self._ans_ws[:]
            return length
        pair_set = &self._tables.pair_cands[pair * npair_set]
        if mode == M_VIS:
            if not opener:
                self._consumed(self._offset + j)
            elif self_closing:
                self._had_block = True
                self._block_closed = True
                self._consumed(-1)
            elif not self._produced:
                self._consumed(-1)
                self._open_block(pair_set, npair_set, &self._tables.pair_cs[pair])
            else:
                self._mode = M_TENT
                self._tent_opener = PyUnicode_Substring(w, j, j + length)
                self._tent_parts = []
                self._tent_len = 0
                self._set_block_cands(pair_set, npair_set, &self._tables.pair_cs[pair])
        elif mode == M_BLOCK:
            self._consumed(-1)
            if opener and not self_closing:
                self._echo_possible = False
                self._set_block_cands(pair_set, npair_set, &self._tables.pair_cs[pair])
            else:
                self._end_block()
                self._block_closed = True
        else:
            self._settle()
            self._block_closed = True
        return length

    cdef inline void _end_block(self) noexcept:
        """A definite block ends (its closer, T3, or a terminator, F2)."""
        self._mode = M_VIS
        self._block_started = False
        del self._block_ws[:]
        self._echo_possible = False

    cdef int _settle(self) except -1:
        """A tentative block turns out to be reasoning (its closer, T2, or a terminator, F2)."""
        cdef str inner = "".join(self._tent_parts).strip()
        self._tent_parts = []
        self._had_block = True
        if inner:
            if self._reasoning_released:
                self._out_reasoning.append(SEP)
            self._out_reasoning.append(inner)
            self._reasoning_released = True
        self._mode = M_VIS
        self._consumed(-1)
        return 0

    cdef int _release_char(self, str w, Py_ssize_t j) except -1:
        cdef int mode = self._mode
        if mode == M_VIS:
            self._emit_vis(w, j, j + 1)
        elif mode == M_BLOCK:
            self._reason(w, j, j + 1)
        else:
            self._tent_parts.append(PyUnicode_Substring(w, j, j + 1))
            self._tent_len += 1
            if 0 <= self._tables.tent_cap < self._tent_len:
                self._restore()
        return 0

    # ------------------------------------------------------------------ candidate matching

    cdef inline void _step(self, Py_UCS4 c, Py_UCS4 prev) noexcept:
        """Advance every live candidate by one character."""
        cdef int k, ci, ph
        cdef Py_ssize_t n
        cdef Py_UCS4 cc
        for k in range(self._held_ncands):
            ph = self._held_phases[k]
            if ph < 0:
                continue
            ci = self._held_cands[k]
            if ph == PH_PREF:
                n = self._held_counts[k]
                cc = c
                if self._tables.cand_kind[ci] >= TAG_OPEN and u'A' <= c <= u'Z':
                    cc = <Py_UCS4>(<unsigned int>c + ASCII_CASE_GAP)
                if cc != self._tables.cand_chars[self._tables.cand_start[ci] + n]:
                    self._held_phases[k] = PH_FAIL
                    continue
                self._held_used[k] += 1
                n += 1
                if n == self._tables.cand_len[ci]:
                    if self._tables.cand_kind[ci] < TAG_OPEN:
                        self._held_phases[k] = PH_MATCH
                    else:
                        self._held_phases[k] = PH_TAIL if self._tables.cand_kind[ci] == TAG_OPEN else PH_CWS
                    n = 0
                self._held_counts[k] = n
                continue
            self._held_used[k] += 1
            if ph == PH_TAIL:
                if c == u'>':
                    self._held_phases[k] = PH_MATCH
                elif c == u'/':
                    self._held_phases[k] = PH_SLASH
                elif _tag_space(c):
                    self._held_phases[k] = PH_ATTR
                    self._held_counts[k] = 0
                else:
                    self._held_phases[k] = PH_FAIL
            elif ph == PH_SLASH:
                self._held_phases[k] = PH_SELF if c == u'>' else PH_FAIL
            elif ph == PH_ATTR:
                if c == u'>':
                    self._held_phases[k] = PH_SELF if prev == u'/' else PH_MATCH
                elif c == u'<':
                    self._held_phases[k] = PH_FAIL
                else:
                    self._held_counts[k] += 1
                    if self._held_counts[k] > MAX_ATTR_CHARS:
                        self._held_phases[k] = PH_FAIL
            else:  # PH_CWS
                if _tag_space(c):
                    self._held_counts[k] += 1
                    if self._held_counts[k] > MAX_CLOSER_SPACE:
                        self._held_phases[k] = PH_FAIL
                elif c == u'>':
                    self._held_phases[k] = PH_MATCH
                else:
                    self._held_phases[k] = PH_FAIL

    cdef inline int _resolve(self, bint final, int *idx) noexcept:
        """T1 order: the first candidate that has not failed decides."""
        cdef int k, ph
        for k in range(self._held_ncands):
            ph = self._held_phases[k]
            if ph == PH_FAIL:
                continue
            if ph >= 0:
                if final:
                    self._held_phases[k] = PH_FAIL
                    continue
                idx[0] = k
                return R_WAIT
            idx[0] = k
            return R_TAKE
        idx[0] = -1
        return R_NONE

    cdef inline int _advance(self, int kind, void *data, Py_ssize_t i, Py_ssize_t end,
                             Py_UCS4 *prev, int *idx) noexcept:
        """Step the live candidates through ``data[i:end]`` until the T1 order decides."""
        cdef int verdict = R_WAIT
        cdef Py_UCS4 c
        while i < end:
            c = PyUnicode_READ(kind, data, i)
            self._step(c, prev[0])
            prev[0] = c
            i += 1
            verdict = self._resolve(False, idx)
            if verdict != R_WAIT:
                break
        return verdict

    cdef Py_ssize_t _match(self, str w, Py_ssize_t j, int *cands, int nc,
                           bint final) except -1:
        """Try every candidate at ``w[j]``; returns where to continue (``len(w)`` if held)."""
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t i = j
        cdef Py_UCS4 c, prev = 0
        cdef int k, verdict = R_WAIT, idx = 0
        self._held_cands = cands
        self._held_ncands = nc
        for k in range(nc):
            self._held_phases[k] = PH_PREF
            self._held_counts[k] = 0
            self._held_used[k] = 0
        verdict = self._advance(kind, data, i, end, &prev, &idx)
        if verdict == R_WAIT:
            if not final:
                self._held_parts = [PyUnicode_Substring(w, j, end)]
                self._held_len = end - j
                self._held_last = prev
                return end
            verdict = self._resolve(True, &idx)
        if verdict == R_TAKE:
            return j + self._take(w, j, cands[idx], self._held_used[idx],
                                  self._held_phases[idx] == PH_SELF)
        self._release_char(w, j)
        return j + 1

    cdef int _continue_match(self, str chunk, Py_ssize_t base, bint final) except -1:
        """Advance a held candidate match with ``chunk`` (``final``: end of text)."""
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(chunk)
        cdef int kind = PyUnicode_KIND(chunk)
        cdef void *data = PyUnicode_DATA(chunk)
        cdef Py_ssize_t i = 0, length, rest
        cdef Py_UCS4 c, prev = self._held_last
        cdef int verdict = R_WAIT, idx = 0
        cdef str w
        verdict = self._advance(kind, data, i, end, &prev, &idx)
        if verdict == R_WAIT:
            if not final:
                self._held_parts.append(chunk)
                self._held_len += end
                if end:
                    self._held_last = prev
                return 0
            verdict = self._resolve(True, &idx)
        held = "".join(self._held_parts)
        self._offset = base - self._held_len
        self._held_parts = []
        if verdict == R_TAKE:
            length = self._held_used[idx]
            rest = length - self._held_len
            w = held + PyUnicode_Substring(chunk, 0, rest) if rest > 0 else held[:length]
            if self._take(w, 0, self._held_cands[idx], length,
                          self._held_phases[idx] == PH_SELF) < length:
                # A terminator (F2): scan it again, as visible text, with what followed it.
                self._held_len = 0
                self._run(held + chunk, 0, final)
                return 0
            self._held_len = 0
            if rest > 0:
                self._offset = base
                self._run(chunk, rest, final)
            else:
                # The match ended inside the held text; scan what followed it.
                w = held + chunk
                self._run(w, length, final)
            return 0
        self._held_len = 0
        w = held + chunk
        self._release_char(w, 0)
        self._run(w, 1, final)
        return 0


def scanner_for(cfg) -> ThinkScanner:
    """A new scanner for options already resolved by ``resolve_options(..., allow_auto=False)``:
    what ``ThinkScanner(**options)`` builds, without checking the options again."""
    cdef ThinkScanner scanner = ThinkScanner.__new__(ThinkScanner)
    scanner._setup(cfg)
    return scanner
