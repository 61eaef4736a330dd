# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled ``ThinkScanner``: the contract, states and decisions of ``thinkparse._scanner_py``.

That module's docstring is the theory of operation; this one changes only how the work is done:

* text is read straight from the string's buffer (``PyUnicode_KIND`` / ``PyUnicode_DATA``); in
  one-byte strings the next character that matters is found with ``memchr`` or 16 bytes at a
  time (SSE2), elsewhere with a table look-up per character;
* visible text is released as slices of the input (``PyUnicode_Substring``), one slice per
  contiguous run, so a chunk with nothing to remove comes back as the very same object (S7);
* candidate tags advance a small per-candidate state one character at a time, in C;
* ``Delta`` results are allocated directly as instances of the shared tuple subclass.
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
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    FENCE_MAX_INDENT as _FENCE_MAX_INDENT,
    FENCE_MIN_RUN as _FENCE_MIN_RUN,
    LIT_CLOSE as _LIT_CLOSE,
    LIT_OPEN as _LIT_OPEN,
    MAX_ATTR_CHARS as _MAX_ATTR_CHARS,
    MAX_CLOSER_SPACE as _MAX_CLOSER_SPACE,
    NOT_INITIALISED,
    REENTERED,
    SEPARATOR,
    TAG_CLOSE as _TAG_CLOSE,
    TAG_OPEN as _TAG_OPEN,
    TAG_SPACE,
    resolve_options,
)
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
cdef Py_ssize_t FENCE_MAX_INDENT = _FENCE_MAX_INDENT
cdef Py_ssize_t FENCE_MIN_RUN = _FENCE_MIN_RUN
cdef Py_ssize_t MAX_ATTR_CHARS = _MAX_ATTR_CHARS
cdef Py_ssize_t MAX_CLOSER_SPACE = _MAX_CLOSER_SPACE
cdef int LIT_OPEN = _LIT_OPEN
cdef int LIT_CLOSE = _LIT_CLOSE
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
    return c == 32 or c == 9 or c == 10 or c == 13


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
    # The read-only tables of one option set (candidates in T1 order, pairs, character sets).
    int nc, npairs, nclose
    int *kind
    int *cpair
    Py_ssize_t *plen
    Py_ssize_t *poff
    Py_UCS4 *pbuf
    int *close_of
    int *all_set
    int *close_set
    tp_charset vis_cs, special_cs, all_cs, close_cs, span_cs, lf_cs, bt_cs, tl_cs
    tp_charset *pair_cs
    bint code
    Py_ssize_t t_cap


@cython.final
cdef class _Plan:
    """The read-only tables of one option set, shared by every scanner created with it."""

    cdef Tables t

    def __cinit__(self, cfg):
        memset(&self.t, 0, sizeof(Tables))

    def __init__(self, cfg):
        cdef list prefs = []
        cdef int i, k, p
        cdef Py_ssize_t total = 0
        cdef Py_UCS4 ch
        for kind, text, p in cfg.candidates:
            prefs.append(text if kind <= LIT_CLOSE else ("<" if kind == TAG_OPEN else "</") + text)
        self.t.nc = len(prefs)
        self.t.npairs = len(cfg.pairs)
        self.t.kind = <int *>PyMem_Malloc(self.t.nc * sizeof(int))
        self.t.cpair = <int *>PyMem_Malloc(self.t.nc * sizeof(int))
        self.t.plen = <Py_ssize_t *>PyMem_Malloc(self.t.nc * sizeof(Py_ssize_t))
        self.t.poff = <Py_ssize_t *>PyMem_Malloc(self.t.nc * sizeof(Py_ssize_t))
        self.t.all_set = <int *>PyMem_Malloc(self.t.nc * sizeof(int))
        self.t.close_set = <int *>PyMem_Malloc(self.t.nc * sizeof(int))
        self.t.close_of = <int *>PyMem_Malloc(self.t.npairs * sizeof(int))
        self.t.pair_cs = <tp_charset *>PyMem_Malloc(self.t.npairs * sizeof(tp_charset))
        for pref in prefs:
            total += len(pref)
        self.t.pbuf = <Py_UCS4 *>PyMem_Malloc(total * sizeof(Py_UCS4))
        if (self.t.kind == NULL or self.t.cpair == NULL or self.t.plen == NULL or self.t.poff == NULL
                or self.t.all_set == NULL or self.t.close_set == NULL or self.t.close_of == NULL
                or self.t.pair_cs == NULL or self.t.pbuf == NULL):
            raise MemoryError()
        total = 0
        self.t.nclose = 0
        for i in range(self.t.nc):
            kind_i, _, p = cfg.candidates[i]
            self.t.kind[i] = kind_i
            self.t.cpair[i] = p
            self.t.all_set[i] = i
            if kind_i == LIT_CLOSE or kind_i == TAG_CLOSE:
                self.t.close_set[self.t.nclose] = i
                self.t.nclose += 1
            self.t.poff[i] = total
            self.t.plen[i] = len(prefs[i])
            for ch in <str>prefs[i]:
                self.t.pbuf[total] = ch
                total += 1
        for p in range(self.t.npairs):
            memset(&self.t.pair_cs[p], 0, sizeof(tp_charset))
        for p in range(self.t.npairs):
            self.t.close_of[p] = cfg.pairs[p][1]
            _cs_init(&self.t.pair_cs[p], (<str>prefs[self.t.close_of[p]])[0])
        firsts = cfg.first_chars
        _cs_init(&self.t.vis_cs, firsts + ("`~" if cfg.code_aware else ""))
        _cs_init(&self.t.special_cs, firsts + "<`~\n")
        _cs_init(&self.t.all_cs, firsts)
        _cs_init(&self.t.close_cs, "".join([(<str>prefs[self.t.close_set[k]])[0]
                                          for k in range(self.t.nclose)]))
        _cs_init(&self.t.span_cs, "`\n")
        _cs_init(&self.t.lf_cs, "\n")
        _cs_init(&self.t.bt_cs, "`")
        _cs_init(&self.t.tl_cs, "~")
        self.t.code = cfg.code_aware
        self.t.t_cap = cfg.max_tentative

    def __dealloc__(self):
        cdef int p
        PyMem_Free(self.t.kind)
        PyMem_Free(self.t.cpair)
        PyMem_Free(self.t.plen)
        PyMem_Free(self.t.poff)
        PyMem_Free(self.t.pbuf)
        PyMem_Free(self.t.all_set)
        PyMem_Free(self.t.close_set)
        PyMem_Free(self.t.close_of)
        PyMem_Free(self.t.vis_cs.extra)
        PyMem_Free(self.t.special_cs.extra)
        PyMem_Free(self.t.all_cs.extra)
        PyMem_Free(self.t.close_cs.extra)
        PyMem_Free(self.t.span_cs.extra)
        PyMem_Free(self.t.lf_cs.extra)
        PyMem_Free(self.t.bt_cs.extra)
        PyMem_Free(self.t.tl_cs.extra)
        if self.t.pair_cs != NULL:
            for p in range(self.t.npairs):
                PyMem_Free(self.t.pair_cs[p].extra)
            PyMem_Free(self.t.pair_cs)


#: Plans by validated option set (bounded).
cdef dict _PLANS = {}


@cython.final
cdef class ThinkScanner:
    """ThinkScanner(*, tags=None, delimiters=(), start_in_reasoning=False, code_aware=True, max_tentative=8192, preset=None)
--

Incremental ``<think>``-style tag extractor (SPEC sections 3 and 4).

    Feed text in chunks of any size; each call returns the :class:`~thinkparse.Delta` it
    released.  The concatenation of all deltas equals ``split_think`` of the whole text (S1).

    Args:
        tags: tag name(s) (T1); a ``str`` is one name.  Default ``("think",)`` unless
            ``delimiters`` or ``preset`` supply pairs.
        delimiters: literal ``(open, close)`` pairs.
        start_in_reasoning: the text starts inside a block (T6).  ``"auto"`` is refused.
        code_aware: tags inside Markdown code are text (T5).
        max_tentative: cap of a tentative block (T2); ``None`` for no limit.
        preset: a model family's options (section 5); explicit options win.

    Raises:
        ValueError: an invalid option (named in the message).
        TypeError: an option of the wrong type.
    """

    cdef:
        # configuration: read-only tables shared through ``plan``
        _Plan plan
        Tables *t
        # bookkeeping
        object last
        bint closed, fast, busy
        Py_ssize_t fed, base
        list ov, orr
        # visible text
        bint produced, lead_tag, last_lf, ls
        Py_ssize_t sp
        list lead
        object vr_w
        Py_ssize_t vr_a, vr_b
        # code
        bint bt_ls
        Py_ssize_t code_n, span_r, fn, frun, fsp
        Py_UCS4 fch
        int fph
        # blocks
        bint r_any, r_started, echo, tag_seen
        list r_ws
        bint had_block_
        Py_ssize_t orphan_at_
        int *blk_cands
        int blk_nc
        tp_charset *blk_cs
        # tentative block
        str t_open
        list t_parts
        Py_ssize_t t_count
        # held candidate match
        list m_parts
        Py_ssize_t m_len
        Py_UCS4 m_last
        int *m_cands
        int m_nc
        int *m_ph
        Py_ssize_t *m_n
        Py_ssize_t *m_used
        int mode

    def __cinit__(self, *args, **kwargs):
        # A bare instance (``__new__`` only, or an ``__init__`` that raised) keeps ``t`` NULL:
        # every entry point checks it and raises instead of reading missing tables.
        self.plan = None
        self.t = NULL
        self.busy = False
        self.m_ph = NULL
        self.m_n = NULL
        self.m_used = NULL

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
    ) -> None:
        cfg = resolve_options(
            tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
            allow_auto=False,
        )
        if self.plan is not None:
            raise RuntimeError("ThinkScanner.__init__ may be called only once")
        cdef _Plan plan = _PLANS.get(cfg)
        if plan is None:
            plan = _Plan(cfg)
            if len(_PLANS) >= 256:
                _PLANS.clear()
            _PLANS[cfg] = plan
        self.m_cands = NULL
        self.m_ph = <int *>PyMem_Malloc(plan.t.nc * sizeof(int))
        self.m_n = <Py_ssize_t *>PyMem_Malloc(plan.t.nc * sizeof(Py_ssize_t))
        self.m_used = <Py_ssize_t *>PyMem_Malloc(plan.t.nc * sizeof(Py_ssize_t))
        if self.m_ph == NULL or self.m_n == NULL or self.m_used == NULL:
            raise MemoryError()
        self.plan = plan
        self.t = &plan.t
        self.last = None
        self.closed = False
        self.fast = False
        self.fed = 0
        self.base = 0
        self.ov = []
        self.orr = []
        self.produced = False
        self.lead_tag = False
        self.last_lf = False
        self.ls = True
        self.sp = 0
        self.lead = []
        self.vr_w = None
        self.bt_ls = False
        self.code_n = 0
        self.span_r = 0
        self.fch = 96
        self.fn = 0
        self.fph = F_INFO
        self.frun = 0
        self.fsp = 0
        self.r_any = False
        self.r_started = False
        self.r_ws = []
        self.echo = False
        self.had_block_ = False
        self.tag_seen = False
        self.orphan_at_ = -1
        self.t_open = ""
        self.t_parts = []
        self.t_count = 0
        self.m_parts = []
        self.m_len = 0
        self.m_last = 0
        self.m_nc = 0
        self.mode = M_VIS
        self.blk_cands = self.t.all_set
        self.blk_nc = self.t.nc
        self.blk_cs = &self.t.all_cs
        if cfg.start_in_reasoning:
            self._open_block(self.t.all_set, self.t.nc, &self.t.all_cs)
            self.echo = True

    def __dealloc__(self):
        PyMem_Free(self.m_ph)
        PyMem_Free(self.m_n)
        PyMem_Free(self.m_used)

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
        if self.t == NULL:
            raise RuntimeError(NOT_INITIALISED)
        if self.fast and PyUnicode_CheckExact(chunk):
            n = PyUnicode_GET_LENGTH(chunk)
            if tp_find(PyUnicode_DATA(chunk), PyUnicode_KIND(chunk), 0, n,
                       &self.t.special_cs) == n:
                if n:
                    self.fed += n
                    self.last_lf = False
                    if self.ls and self.t.code:
                        self._line_upd(<str>chunk, 0, n)
                return self._result(chunk, "")
        if not isinstance(chunk, str):
            raise TypeError(f"feed() takes a str chunk, not {type(chunk).__name__}")
        if self.closed:
            raise ScannerClosedError("feed() after close(): this scanner has finished")
        if self.busy:
            raise RuntimeError(REENTERED)
        # Any allocation below can run Python code (a finalizer, another thread): while busy,
        # the fast path is off and every entry point raises, so no state changes under us.
        self.busy = True
        self.fast = False
        try:
            base = self.fed
            self.fed = base + PyUnicode_GET_LENGTH(chunk)
            if self.m_parts:
                self._continue_match(<str>chunk, base, False)
            else:
                self.base = base
                self._run(<str>chunk, 0, False)
            delta = self._result(self._vis_out(), self._out(self.orr))
            self.fast = self.mode == M_VIS and self.produced and not self.m_parts
        finally:
            self.busy = False
        return delta

    def close(self) -> Delta:
        """End of text (T7): release everything still held.

        Returns:
            The final :class:`~thinkparse.Delta`; a second ``close()`` returns an empty one.

        Raises:
            RuntimeError: the scanner was never initialised, or this call started while a
                ``feed()`` of the same scanner was still running.
        """
        if self.t == NULL:
            raise RuntimeError(NOT_INITIALISED)
        if self.closed:
            return _EMPTY
        if self.busy:
            raise RuntimeError(REENTERED)
        self.busy = True
        self.closed = True
        self.fast = False
        try:
            if self.m_parts:
                self._continue_match("", self.fed, True)
            if self.mode == M_TENT:
                self._restore()
            self._flush()
            if not self.produced:
                if self.lead and not self.lead_tag:
                    self.ov.append("".join(self.lead))
                del self.lead[:]
            del self.r_ws[:]
            delta = _delta(self._vis_out(), self._out(self.orr))
        finally:
            self.busy = False
        return delta

    # ------------------------------------------------------------------ public state

    cdef inline int _check_ready(self) except -1:
        if self.t == NULL:
            raise RuntimeError(NOT_INITIALISED)
        return 0

    @property
    def in_reasoning(self):
        """Whether the next character fed would be reasoning: the scanner is inside a definite
        block (T2) or the implicit block of ``start_in_reasoning`` (T6), see
        docs/behaviour.md#w4.  A tentative block does not count (its fate is open); after
        ``close()`` this is ``False``."""
        self._check_ready()
        return self.mode == M_BLOCK and not self.closed

    @property
    def had_block(self):
        """Whether any block has become reasoning so far, so the joined reasoning is not
        ``None`` (T9): a definite or implicit block, a self-closing opener or a resolved
        tentative block."""
        self._check_ready()
        return self.had_block_

    @property
    def tag_consumed(self):
        """Whether any tag or delimiter has been consumed (removed from the text) so far: an
        opener, a closer, an orphan closer (T4), a self-closing or an echoed opener (T6)."""
        self._check_ready()
        return self.tag_seen

    @property
    def orphan_at(self):
        """Where the first consumed tag starts, as an offset into all text fed, when it was an
        orphan closer (T4); ``None`` when it was another tag or none was consumed (T10)."""
        self._check_ready()
        return self.orphan_at_ if self.orphan_at_ >= 0 else None

    def __repr__(self):
        if self.t == NULL:
            return f"<{type(self).__module__}.ThinkScanner not initialised>"
        if self.closed:
            state = "closed"
        elif self.mode == M_BLOCK:
            state = "in block"
        elif self.mode == M_TENT:
            state = "in tentative block"
        else:
            state = "visible"
        return f"<{type(self).__module__}.ThinkScanner {state}>"

    # ------------------------------------------------------------------ main loop

    cdef inline object _result(self, object visible, object reasoning):
        """The ``Delta`` to return: the previous one refilled when only this scanner holds it
        and it is still exactly a ``Delta`` (its ``__class__`` may have been reassigned)."""
        if (self.last is not None and Py_REFCNT(<PyObject *>self.last) == 1
                and type(self.last) is _Delta):
            return _refill(self.last, visible, reasoning)
        self.last = _delta(visible, reasoning)
        return self.last

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
        if not self.ov:
            if self.vr_w is None:
                return ""
            text = PyUnicode_Substring(self.vr_w, self.vr_a, self.vr_b)
            self.vr_w = None
            return text
        self._flush()
        text = _assemble(self.ov)
        del self.ov[:]
        return text

    cdef int _run(self, str w, Py_ssize_t pos, bint final) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t j, cut
        cdef Py_UCS4 c
        cdef int mode
        while pos < end:
            mode = self.mode
            if mode == M_VIS:
                j = self._skip_plain(kind, data, pos, end)
                c = PyUnicode_READ(kind, data, j) if j < end else 0
                if j > pos:
                    self._vis(w, pos, j)
                if j == end:
                    return 0
                if self.t.code and c == 96:  # backtick
                    self.bt_ls = self.ls
                    pos = self._code_run(w, j, 96, M_BT, 0, final)
                elif self.t.code and c == 126:  # tilde
                    if self.ls:
                        pos = self._code_run(w, j, 126, M_TL, 0, final)
                    else:
                        self._vis(w, j, j + 1)
                        pos = j + 1
                else:
                    pos = self._match(w, j, self.t.all_set, self.t.nc, final)
            elif mode == M_BT:
                pos = self._code_run(w, pos, 96, M_BT, self.code_n, final)
            elif mode == M_TL:
                pos = self._code_run(w, pos, 126, M_TL, self.code_n, final)
            elif mode == M_SPAN:
                pos = self._span(w, pos)
            elif mode == M_FENCE:
                pos = self._fence(w, pos)
            elif mode == M_BLOCK:
                j = tp_find(data, kind, pos, end, self.blk_cs)
                if j > pos:
                    self._reason(w, pos, j)
                if j < end:
                    pos = self._match(w, j, self.blk_cands, self.blk_nc, final)
                else:
                    pos = end
            else:  # M_TENT
                j = tp_find(data, kind, pos, end, self.blk_cs)
                if j > pos:
                    cut = self._tent_text(w, pos, j)
                    if cut >= 0:
                        pos = cut
                        continue
                if j < end:
                    pos = self._match(w, j, self.blk_cands, self.blk_nc, final)
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
            self._vis(w, j, k)
        if k == end and not final:
            self.mode = mode
            self.code_n = n
            return k
        if mode == M_BT:
            if self.bt_ls and n >= FENCE_MIN_RUN:
                self._open_fence(96, n)
            else:
                self.mode = M_SPAN
                self.code_n = n
                self.span_r = 0
        elif n >= FENCE_MIN_RUN:
            self._open_fence(126, n)
        else:
            self.mode = M_VIS
        return k

    cdef inline void _open_fence(self, Py_UCS4 ch, Py_ssize_t n) noexcept:
        self.mode = M_FENCE
        self.fch = ch
        self.fn = n
        self.fph = F_INFO

    cdef Py_ssize_t _span(self, str w, Py_ssize_t pos) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t j, k
        cdef Py_UCS4 c
        if self.span_r:
            k = pos
            while k < end and PyUnicode_READ(kind, data, k) == 96:
                k += 1
            self.span_r += k - pos
            if k > pos:
                self._vis(w, pos, k)
            if k == end:
                return k
            if self.span_r == self.code_n:
                self.mode = M_VIS
            self.span_r = 0
            return k
        # Spans are short: look at a few characters before setting up the vector search.
        j = pos
        while j < end and j < pos + 24:
            c = PyUnicode_READ(kind, data, j)
            if c == 96 or c == 10:
                break
            j += 1
        else:
            j = tp_find(data, kind, j, end, &self.t.span_cs)
        if j == end:
            self._vis(w, pos, end)
            return end
        if PyUnicode_READ(kind, data, j) == 10:
            self._vis(w, pos, j + 1)
            self.mode = M_VIS
            return j + 1
        k = j
        while k < end and PyUnicode_READ(kind, data, k) == 96:
            k += 1
        self._vis(w, pos, k)
        self.span_r = k - j
        if k == end:
            return k
        if self.span_r == self.code_n:
            self.mode = M_VIS
        self.span_r = 0
        return k

    cdef Py_ssize_t _fence(self, str w, Py_ssize_t pos) except -1:
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(w)
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t start = pos, k, cnt = 0
        cdef Py_UCS4 ch = self.fch, c
        cdef int ph
        cdef tp_charset *cs
        while pos < end:
            ph = self.fph
            if ph == F_INFO:
                # Only a line starting with (<= 3 spaces and) the fence character can close the
                # fence: jump to the next fence character and look back for its line start.
                cs = &self.t.bt_cs if ch == 96 else &self.t.tl_cs
                k = tp_find(data, kind, pos, end, cs)
                while k < end:
                    cnt = self._line_indent(kind, data, pos, k)
                    if cnt >= 0:
                        break
                    k = tp_find(data, kind, k + 1, end, cs)
                if k == end:
                    cnt = self._line_indent(kind, data, pos, end)
                    if cnt >= 0:
                        self.fph = F_LS
                        self.fsp = cnt
                    pos = end
                    break
                self.fph = F_LS
                self.fsp = cnt
                pos = k
                continue
            c = PyUnicode_READ(kind, data, pos)
            pos += 1
            if ph == F_LS:
                if c == 32:
                    self.fsp += 1
                    if self.fsp > FENCE_MAX_INDENT:
                        self.fph = F_INFO
                elif c == ch:
                    self.fph = F_RUN
                    self.frun = 1
                elif c == 10:
                    self.fsp = 0
                else:
                    self.fph = F_INFO
            elif ph == F_RUN:
                if c == ch:
                    self.frun += 1
                elif c == 32 or c == 9 or c == 13:
                    self.fph = F_TRAIL if self.frun >= self.fn else F_INFO
                elif c == 10:
                    if self.frun >= self.fn:
                        self.mode = M_VIS
                        break
                    self.fph = F_LS
                    self.fsp = 0
                else:
                    self.fph = F_INFO
            else:  # F_TRAIL
                if c == 10:
                    self.mode = M_VIS
                    break
                if not (c == 32 or c == 9 or c == 13):
                    self.fph = F_INFO
        self._vis(w, start, pos)
        return pos

    cdef Py_ssize_t _skip_plain(self, int kind, void *data, Py_ssize_t pos,
                                Py_ssize_t end) noexcept:
        """The next position in visible text that needs the state machine.

        Skips, as plain visible text, a ``<`` that no candidate can start (T1 failure known
        from the next characters) and, with code awareness, a whole inline span of 1 or 2
        backticks that closes (or meets an LF) within ``end`` (T5): its text is visible either
        way and only its end state matters, which ``_vis`` derives from the text.
        """
        cdef Py_ssize_t j = tp_find(data, kind, pos, end, &self.t.vis_cs), k, m, n, r
        cdef Py_UCS4 c
        while j < end:
            c = PyUnicode_READ(kind, data, j)
            if c == 96:
                if not self.t.code:
                    return j
                k = j + 1
                while k < end and PyUnicode_READ(kind, data, k) == 96:
                    k += 1
                n = k - j
                if n >= FENCE_MIN_RUN or k == end:
                    return j  # maybe a fence, or the run may go on: the state machine decides
                m = k
                while True:
                    m = tp_find(data, kind, m, end, &self.t.span_cs)
                    if m == end:
                        return j  # the span is still open at the end: the state machine
                    if PyUnicode_READ(kind, data, m) == 10:
                        m += 1  # an LF ends the span
                        break
                    r = m
                    while r < end and PyUnicode_READ(kind, data, r) == 96:
                        r += 1
                    if r == end:
                        return j
                    if r - m == n:
                        m = r  # the closing run
                        break
                    m = r
                j = tp_find(data, kind, m, end, &self.t.vis_cs)
            elif c == 126 and self.t.code:
                return j
            elif j + 1 < end and not self._could_match(kind, data, j, end):
                j = tp_find(data, kind, j + 1, end, &self.t.vis_cs)
            else:
                return j
        return end

    cdef inline bint _could_match(self, int kind, void *data, Py_ssize_t j,
                                  Py_ssize_t end) noexcept:
        """Whether any candidate's first (up to 3) characters match the text at ``j``.

        A ``False`` answer is exactly the T1 failure that matching would reach.
        """
        cdef int i, k
        cdef Py_ssize_t n
        cdef Py_UCS4 c
        cdef bint fold
        for i in range(self.t.nc):
            n = self.t.plen[i]
            if n > 3:
                n = 3
            fold = self.t.kind[i] >= TAG_OPEN
            for k in range(<int>n):
                if j + k >= end:
                    return True  # the text ends inside the prefix: let matching decide
                c = PyUnicode_READ(kind, data, j + k)
                if fold and 65 <= c <= 90:
                    c = <Py_UCS4>(<unsigned int>c + 32)
                if c != self.t.pbuf[self.t.poff[i] + k]:
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
            if c == 10:
                return cnt
            if c != 32 or cnt == FENCE_MAX_INDENT:
                return -1
            cnt += 1
            k -= 1
        return -1

    # ------------------------------------------------------------------ emission

    cdef int _flush(self) except -1:
        """Queue the pending visible run; it is copied once, when the output is assembled."""
        if self.vr_w is not None:
            self.ov.append((self.vr_w, self.vr_a, self.vr_b))
            self.vr_w = None
        return 0

    cdef inline int _vis(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Release visible ``w[a:b]``: leading-whitespace rule (T8), line start (T5)."""
        cdef Py_UCS4 c
        if a < b and self.produced and self.vr_w is w and self.vr_b == a:
            # The common case: the pending run grows.
            self.vr_b = b
            c = PyUnicode_READ(PyUnicode_KIND(w), PyUnicode_DATA(w), b - 1)
            self.last_lf = c == 10
            if self.t.code:
                if c == 32 or c == 10:
                    self._line_upd(w, a, b)
                else:
                    self.ls = False
            return 0
        return self._vis_any(w, a, b)

    cdef int _vis_any(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t k
        if a >= b:
            return 0
        if self.produced:
            if self.vr_w is w and self.vr_b == a:
                self.vr_b = b
            else:
                self._flush()
                self.vr_w = w
                self.vr_a = a
                self.vr_b = b
        else:
            k = a
            while k < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, k)):
                k += 1
            if k == b:
                # A list: many whitespace-only chunks stay O(n) (S6).
                self.lead.append(PyUnicode_Substring(w, a, b))
            else:
                self.produced = True
                self._flush()
                if not self.lead_tag and (self.lead or k > a):
                    self.ov.append("".join(self.lead) + PyUnicode_Substring(w, a, k))
                del self.lead[:]
                self.vr_w = w
                self.vr_a = k
                self.vr_b = b
        self.last_lf = PyUnicode_READ(kind, data, b - 1) == 10
        if self.t.code:
            self._line_upd(w, a, b)
        return 0

    cdef inline int _line_upd(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Update the line-start state with ``w[a:b]``, reading backwards from its end."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t k = b - 1, cnt = 0
        cdef Py_UCS4 c
        while k >= a:
            c = PyUnicode_READ(kind, data, k)
            if c == 32:
                cnt += 1
                k -= 1
                continue
            if c == 10:
                self.sp = cnt
                self.ls = cnt <= FENCE_MAX_INDENT
            else:
                self.ls = False
            return 0
        if self.ls:
            self.sp += cnt
            self.ls = self.sp <= FENCE_MAX_INDENT
        return 0

    cdef int _reason(self, str w, Py_ssize_t a, Py_ssize_t b) except -1:
        """Release block text ``w[a:b]``: stripped per block (T8), separated (S3)."""
        cdef int kind = PyUnicode_KIND(w)
        cdef void *data = PyUnicode_DATA(w)
        cdef Py_ssize_t e
        if not self.r_started:
            while a < b and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, a)):
                a += 1
            if a == b:
                return 0
            if self.echo:
                self.echo = False
                self._set_block(self.t.close_set, self.t.nclose, &self.t.close_cs)
            self.r_started = True
            if self.r_any:
                self.orr.append(SEP)
            self.r_any = True
        e = b
        while e > a and Py_UNICODE_ISSPACE(PyUnicode_READ(kind, data, e - 1)):
            e -= 1
        if e == a:
            # The block's trailing whitespace run, held in pieces (S6).
            self.r_ws.append(PyUnicode_Substring(w, a, b))
            return 0
        if self.r_ws:
            self.orr.extend(self.r_ws)
            del self.r_ws[:]
        self.orr.append(PyUnicode_Substring(w, a, e))
        if e < b:
            self.r_ws.append(PyUnicode_Substring(w, e, b))
        return 0

    cdef Py_ssize_t _tent_text(self, str w, Py_ssize_t pos, Py_ssize_t j) except -2:
        """Add ``w[pos:j]`` to a tentative block; past the cap, restore it (T2)."""
        cdef Py_ssize_t cut
        if self.t.t_cap >= 0 and self.t_count + (j - pos) > self.t.t_cap:
            cut = pos + self.t.t_cap + 1 - self.t_count
            self.t_parts.append(PyUnicode_Substring(w, pos, cut))
            self._restore()
            return cut
        self.t_parts.append(PyUnicode_Substring(w, pos, j))
        self.t_count += j - pos
        return -1

    cdef int _restore(self) except -1:
        """A tentative block turns out to be prose: back to visible, verbatim (T2, S4)."""
        cdef str text = self.t_open + "".join(self.t_parts)
        self.t_parts = []
        self.mode = M_VIS
        self._vis(text, 0, PyUnicode_GET_LENGTH(text))
        return 0

    # ------------------------------------------------------------------ blocks

    cdef int _open_block(self, int *cands, int nc, tp_charset *cs) except -1:
        self.mode = M_BLOCK
        self.had_block_ = True
        self.r_started = False
        del self.r_ws[:]
        self.echo = False
        self._set_block(cands, nc, cs)
        return 0

    cdef inline void _set_block(self, int *cands, int nc, tp_charset *cs) noexcept:
        self.blk_cands = cands
        self.blk_nc = nc
        self.blk_cs = cs

    cdef inline void _consumed(self, Py_ssize_t orphan_at) noexcept:
        if not self.tag_seen:
            self.tag_seen = True
            self.orphan_at_ = orphan_at
        if not self.produced:
            self.lead_tag = True
        self.ls = self.last_lf or not self.produced
        self.sp = 0

    cdef int _take(self, str w, Py_ssize_t j, int ci, Py_ssize_t length,
                   bint self_closing) except -1:
        cdef int mode = self.mode
        cdef int k = self.t.kind[ci]
        cdef bint opener = k == LIT_OPEN or k == TAG_OPEN
        cdef int pair = self.t.cpair[ci]
        cdef str inner
        if mode == M_VIS:
            if not opener:
                self._consumed(self.base + j)
            elif self_closing:
                self.had_block_ = True
                self._consumed(-1)
            elif not self.produced:
                self._consumed(-1)
                self._open_block(&self.t.close_of[pair], 1, &self.t.pair_cs[pair])
            else:
                self.mode = M_TENT
                self.t_open = PyUnicode_Substring(w, j, j + length)
                self.t_parts = []
                self.t_count = 0
                self._set_block(&self.t.close_of[pair], 1, &self.t.pair_cs[pair])
        elif mode == M_BLOCK:
            self._consumed(-1)
            if opener and not self_closing:
                self.echo = False
                self._set_block(&self.t.close_of[pair], 1, &self.t.pair_cs[pair])
            else:
                self.mode = M_VIS
                self.r_started = False
                del self.r_ws[:]
                self.echo = False
        else:
            inner = "".join(self.t_parts).strip()
            self.t_parts = []
            self.had_block_ = True
            if inner:
                if self.r_any:
                    self.orr.append(SEP)
                self.orr.append(inner)
                self.r_any = True
            self.mode = M_VIS
            self._consumed(-1)
        return 0

    cdef int _release_char(self, str w, Py_ssize_t j) except -1:
        cdef int mode = self.mode
        if mode == M_VIS:
            self._vis(w, j, j + 1)
        elif mode == M_BLOCK:
            self._reason(w, j, j + 1)
        else:
            self.t_parts.append(PyUnicode_Substring(w, j, j + 1))
            self.t_count += 1
            if 0 <= self.t.t_cap < self.t_count:
                self._restore()
        return 0

    # ------------------------------------------------------------------ candidate matching

    cdef inline void _step(self, Py_UCS4 c, Py_UCS4 prev) noexcept:
        """Advance every live candidate by one character."""
        cdef int k, ci, ph
        cdef Py_ssize_t n
        cdef Py_UCS4 cc
        for k in range(self.m_nc):
            ph = self.m_ph[k]
            if ph < 0:
                continue
            ci = self.m_cands[k]
            if ph == PH_PREF:
                n = self.m_n[k]
                cc = c
                if self.t.kind[ci] >= TAG_OPEN and 65 <= c <= 90:
                    cc = <Py_UCS4>(<unsigned int>c + 32)
                if cc != self.t.pbuf[self.t.poff[ci] + n]:
                    self.m_ph[k] = PH_FAIL
                    continue
                self.m_used[k] += 1
                n += 1
                if n == self.t.plen[ci]:
                    if self.t.kind[ci] <= LIT_CLOSE:
                        self.m_ph[k] = PH_MATCH
                    else:
                        self.m_ph[k] = PH_TAIL if self.t.kind[ci] == TAG_OPEN else PH_CWS
                    n = 0
                self.m_n[k] = n
                continue
            self.m_used[k] += 1
            if ph == PH_TAIL:
                if c == 62:
                    self.m_ph[k] = PH_MATCH
                elif c == 47:
                    self.m_ph[k] = PH_SLASH
                elif _tag_space(c):
                    self.m_ph[k] = PH_ATTR
                    self.m_n[k] = 0
                else:
                    self.m_ph[k] = PH_FAIL
            elif ph == PH_SLASH:
                self.m_ph[k] = PH_SELF if c == 62 else PH_FAIL
            elif ph == PH_ATTR:
                if c == 62:
                    self.m_ph[k] = PH_SELF if prev == 47 else PH_MATCH
                elif c == 60:
                    self.m_ph[k] = PH_FAIL
                else:
                    self.m_n[k] += 1
                    if self.m_n[k] > MAX_ATTR_CHARS:
                        self.m_ph[k] = PH_FAIL
            else:  # PH_CWS
                if _tag_space(c):
                    self.m_n[k] += 1
                    if self.m_n[k] > MAX_CLOSER_SPACE:
                        self.m_ph[k] = PH_FAIL
                elif c == 62:
                    self.m_ph[k] = PH_MATCH
                else:
                    self.m_ph[k] = PH_FAIL

    cdef inline int _resolve(self, bint final, int *idx) noexcept:
        """T1 order: the first candidate that has not failed decides."""
        cdef int k, ph
        for k in range(self.m_nc):
            ph = self.m_ph[k]
            if ph == PH_FAIL:
                continue
            if ph >= 0:
                if final:
                    self.m_ph[k] = PH_FAIL
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
        self.m_cands = cands
        self.m_nc = nc
        for k in range(nc):
            self.m_ph[k] = PH_PREF
            self.m_n[k] = 0
            self.m_used[k] = 0
        verdict = self._advance(kind, data, i, end, &prev, &idx)
        if verdict == R_WAIT:
            if not final:
                self.m_parts = [PyUnicode_Substring(w, j, end)]
                self.m_len = end - j
                self.m_last = prev
                return end
            verdict = self._resolve(True, &idx)
        if verdict == R_TAKE:
            self._take(w, j, cands[idx], self.m_used[idx], self.m_ph[idx] == PH_SELF)
            return j + self.m_used[idx]
        self._release_char(w, j)
        return j + 1

    cdef int _continue_match(self, str chunk, Py_ssize_t base, bint final) except -1:
        """Advance a held candidate match with ``chunk`` (``final``: end of text)."""
        cdef Py_ssize_t end = PyUnicode_GET_LENGTH(chunk)
        cdef int kind = PyUnicode_KIND(chunk)
        cdef void *data = PyUnicode_DATA(chunk)
        cdef Py_ssize_t i = 0, length, rest
        cdef Py_UCS4 c, prev = self.m_last
        cdef int verdict = R_WAIT, idx = 0
        cdef str w
        verdict = self._advance(kind, data, i, end, &prev, &idx)
        if verdict == R_WAIT:
            if not final:
                self.m_parts.append(chunk)
                self.m_len += end
                if end:
                    self.m_last = prev
                return 0
            verdict = self._resolve(True, &idx)
        held = "".join(self.m_parts)
        self.base = base - self.m_len
        self.m_parts = []
        if verdict == R_TAKE:
            length = self.m_used[idx]
            rest = length - self.m_len
            w = held + PyUnicode_Substring(chunk, 0, rest) if rest > 0 else held[:length]
            self._take(w, 0, self.m_cands[idx], length, self.m_ph[idx] == PH_SELF)
            self.m_len = 0
            if rest > 0:
                self.base = base
                self._run(chunk, rest, final)
            else:
                # The match ended inside the held text; scan what followed it.
                w = held + chunk
                self._run(w, length, final)
            return 0
        self.m_len = 0
        w = held + chunk
        self._release_char(w, 0)
        self._run(w, 1, final)
        return 0
