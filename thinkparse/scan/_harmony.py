"""gpt-oss "harmony" markup: :func:`split_harmony` and an incremental :class:`HarmonyScanner` (P3).

A harmony completion is a run of messages ``<|start|>{header}<|message|>{body}{end}`` where the
header names a role and a channel (``<|channel|>analysis``, ``<|channel|>final``,
``<|channel|>commentary to=functions.f <|constrain|>json``) and ``{end}`` is ``<|end|>``,
``<|return|>``, ``<|call|>``, the next ``<|start|>`` or the end of the text.  A completion usually
starts after the prompt's ``<|start|>assistant``, so its first message may lack ``<|start|>``.

Theory of operation.  One token-driven state machine, :class:`HarmonyScanner`; the one-shot
:func:`split_harmony` feeds it the whole text and closes it:

* ``INIT`` -- nothing but text seen yet.  If the first token is a header token (``<|channel|>``,
  ``<|constrain|>``, ``<|message|>``), the text before it was a header (a role name); if it is an
  end token or ``<|start|>``, that text was the body of a message without a header.  A text with
  no token at all is not harmony and comes back unchanged.
* ``HEAD`` -- inside a header; header text is collected only to read the channel name (the first
  word after ``<|channel|>``).
* ``BODY`` -- inside a message body, routed by channel: ``analysis`` is reasoning, ``final`` (or
  no channel at all) is visible, anything else (``commentary``: tool calls and preambles) is
  dropped.  ``<|message|>`` inside a body is dropped; a header token inside a body ends the
  message (a missing ``<|end|><|start|>``).

Each analysis message is stripped; readable ones are joined with ``"\\n\\n"`` (as T9 joins
``<think>`` blocks); ``reasoning`` is ``None`` when no analysis message exists.  Visible bodies
are concatenated, and when markup was found the visible text is stripped (P3).

The scanner holds back only a suffix that could still become a token (at most 12 characters),
leading whitespace of an analysis message, trailing whitespace inside one (it may turn out to be
the message's end), and the start of a header (at most 256 characters, to read the channel).
Every character is examined once: O(n) however the text is chunked (held whitespace and the
text before the first token are kept in lists, never re-copied).

With special tokens stripped the same completion reads ``analysis...assistantfinal...``: a text
that starts (after whitespace) with ``analysis`` and contains ``assistantfinal`` is split at
``assistant`` + channel name.  That form is recognised only by :func:`split_harmony` (one-shot):
a stream cannot know it is harmony until ``assistantfinal`` arrives.
"""

from __future__ import annotations

import re
from typing import Optional

from .._spec import CHANNEL_SCANNERS, SEPARATOR
from .._types import Delta, Split

START = "<|start|>"
CHANNEL = "<|channel|>"
MESSAGE = "<|message|>"
END = "<|end|>"
RETURN = "<|return|>"
CALL = "<|call|>"
CONSTRAIN = "<|constrain|>"
TOKENS = (START, CHANNEL, MESSAGE, END, RETURN, CALL, CONSTRAIN)
_MAX_TOKEN = max(len(t) for t in TOKENS)
#: Header text kept to read the channel name from (a header is a few words).
_MAX_HEADER = 256

_TOKEN_RE = re.compile(r"<\|(?:start|channel|message|end|return|call|constrain)\|>")
_STRIPPED_RE = re.compile(r"assistant(analysis|final|commentary)")

# States.
INIT, HEAD, BODY = 0, 1, 2
# Routes of a body.
DROP, VISIBLE, REASONING = 0, 1, 2


def looks_like_harmony(text: str) -> bool:
    """P3's test: harmony tokens, or the stripped ``analysis...assistantfinal...`` form."""
    # One-character searches first: they run at memchr speed, "<|" does not.
    if "|" in text and "<|" in text and (CHANNEL in text or MESSAGE in text):
        return True
    return text.lstrip().startswith("analysis") and "assistantfinal" in text


def _route(header: str, saw_channel: bool) -> int:
    # The channel is the first word after <|channel|>; the header text collected for it starts
    # right after that token.
    if not saw_channel:
        return VISIBLE
    words = header.split(None, 1)
    name = words[0] if words else ""
    if name == "analysis":
        return REASONING
    if name == "final":
        return VISIBLE
    return DROP


def _split_stripped(text: str) -> Split:
    visible, blocks = _stripped_parts(text)
    return Split(visible, SEPARATOR.join(blocks))


def _stripped_parts(text: str) -> tuple[str, list[str]]:
    body = text.lstrip()[len("analysis") :]
    channel = "analysis"
    visible: list[str] = []
    blocks: list[str] = []
    pos = 0
    for m in _STRIPPED_RE.finditer(body):
        seg = body[pos : m.start()]
        if channel == "analysis":
            if seg.strip():
                blocks.append(seg.strip())
        elif channel == "final":
            visible.append(seg)
        channel = m.group(1)
        pos = m.end()
    seg = body[pos:]
    if channel == "analysis":
        if seg.strip():
            blocks.append(seg.strip())
    elif channel == "final":
        visible.append(seg)
    return "".join(visible).strip(), blocks


def harmony_blocks(text: str) -> list[str]:
    """The analysis messages of harmony ``text``, each stripped, empty ones left out (X1).

    Their ``"\n\n"`` join is ``split_harmony(text).reasoning``.
    """
    if "<|" in text:
        h = HarmonyScanner()
        h.blocks = []
        h.feed(text)
        h.close()
        if h.found:
            return ["".join(b) for b in h.blocks if b]
    if text.lstrip().startswith("analysis") and "assistantfinal" in text:
        return _stripped_parts(text)[1]
    return []


def split_harmony(text: str, /) -> Split:
    """Split raw gpt-oss harmony output into its final answer and its analysis (P3).

    Args:
        text: the completion text, special tokens included (``<|channel|>analysis<|message|>...``)
            or stripped (``analysis...assistantfinal...``).

    Returns:
        :class:`~thinkparse.Split`: ``visible`` is the final-channel text (stripped when markup
        was found), ``reasoning`` the analysis messages, each stripped, joined with
        ``"\\n\\n"``; ``None`` when there is no analysis message.  Commentary is dropped.  A text
        without harmony markup comes back unchanged with ``reasoning=None``.

    Raises:
        TypeError: ``text`` is not a ``str``.

    >>> split_harmony("<|channel|>analysis<|message|>Think.<|end|>"
    ...               "<|start|>assistant<|channel|>final<|message|>Hi!<|return|>")
    Split(visible='Hi!', reasoning='Think.')
    """
    if not isinstance(text, str):
        raise TypeError(f"split_harmony() takes a str text, not {type(text).__name__}")
    if "<|" in text:
        h = HarmonyScanner()
        v1, r1 = h.feed(text)
        v2, r2 = h.close()
        if h.found:
            return Split((v1 + v2).strip(), r1 + r2 if h.had_block else None)
    if text.lstrip().startswith("analysis") and "assistantfinal" in text:
        return _split_stripped(text)
    return Split(text, None)


def _token_prefix_at(buf: str) -> int:
    """Index of the earliest suffix of ``buf`` that is a proper prefix of a token, else -1."""
    start = buf.rfind("<", max(0, len(buf) - _MAX_TOKEN))
    while start >= 0:
        tail = buf[start:]
        for tok in TOKENS:
            if tok.startswith(tail):
                return start
        start = buf.find("<", start + 1)
    return -1


class HarmonyScanner:
    """Incremental twin of :func:`split_harmony` for the special-token form (P3, P9).

    ``feed()`` returns the :class:`~thinkparse.Delta` a chunk released; ``close()`` the rest.
    The concatenated reasoning deltas equal ``split_harmony(text).reasoning`` (``""`` when that
    is ``None``); the concatenated visible deltas equal its ``visible`` up to stripping at the
    two ends.  ``separate`` makes the first analysis block start with ``"\\n\\n"`` (used when
    reasoning was already released from elsewhere, S3).
    """

    def __init__(self) -> None:
        self._buf = ""
        self._state = INIT
        self._header = ""
        self._before: list[str] = []  # text before the first token (INIT)
        self._saw_channel = False
        self._route = VISIBLE
        self._started = False  # current analysis message released a non-space character
        self._pending: list[str] = []  # held whitespace inside the current analysis message
        self.released = False  # any reasoning released
        self.found = False  # any token seen
        self.had_block = False  # any analysis message seen
        self.separate = False
        #: When set to a list: the released text of each analysis message, one list per message.
        self.blocks: Optional[list[list[str]]] = None

    def _text(self, seg: str, vis: list[str], rea: list[str]) -> None:
        state = self._state
        if not seg:
            return
        if state == BODY:
            route = self._route
            if route == VISIBLE:
                vis.append(seg)
            elif route == REASONING:
                stripped = seg.rstrip()
                if not stripped:
                    self._pending.append(seg)
                    return
                trailing = seg[len(stripped) :]
                blocks = self.blocks
                if not self._started:
                    self._started = True
                    stripped = stripped.lstrip()
                    if self.released or self.separate:
                        rea.append(SEPARATOR)
                    self.released = True
                    if blocks is not None:
                        blocks.append([])
                elif self._pending:
                    rea.extend(self._pending)
                    if blocks is not None:
                        blocks[-1].extend(self._pending)
                rea.append(stripped)
                if blocks is not None:
                    blocks[-1].append(stripped)
                self._pending = [trailing] if trailing else []
        elif state == HEAD:
            if self._saw_channel and len(self._header) < _MAX_HEADER:
                self._header += seg  # only its first word (the channel) matters
        else:  # INIT: held until the first token says what it was
            self._before.append(seg)

    def _token(self, tok: str, vis: list[str]) -> None:
        self.found = True
        state = self._state
        if state == INIT:
            pre = "".join(self._before)
            self._before = []
            self._state = HEAD
            if tok in (CHANNEL, CONSTRAIN, MESSAGE):
                if tok == CHANNEL:
                    self._saw_channel = True
                elif tok == MESSAGE:
                    self._open_body()
            else:
                if pre:
                    vis.append(pre)
            return
        if state == HEAD:
            if tok == CHANNEL:
                self._saw_channel, self._header = True, ""
            elif tok == MESSAGE:
                self._open_body()
            elif tok != CONSTRAIN:
                self._header, self._saw_channel = "", False
            return
        # BODY
        if tok == MESSAGE:
            return
        self._state = HEAD
        self._header, self._saw_channel = "", tok == CHANNEL
        self._pending = []

    def _open_body(self) -> None:
        self._route = _route(self._header, self._saw_channel)
        if self._route == REASONING:
            self.had_block = True
        self._state = BODY
        self._started = False
        self._pending = []

    def feed(self, chunk: str) -> Delta:
        """Scan ``chunk``; return what it released."""
        buf = self._buf + chunk if self._buf else chunk
        vis: list[str] = []
        rea: list[str] = []
        pos = 0
        n = len(buf)
        while True:
            i = buf.find("<|", pos)
            if i < 0:
                break
            m = _TOKEN_RE.match(buf, i)
            if m is None:
                if n - i < _MAX_TOKEN and any(t.startswith(buf[i:]) for t in TOKENS):
                    break  # a possible token cut by the chunk boundary
                self._text(buf[pos : i + 1], vis, rea)
                pos = i + 1
                continue
            self._text(buf[pos:i], vis, rea)
            self._token(m.group(), vis)
            pos = m.end()
        # Hold back a suffix that could still become a token.
        cut = _token_prefix_at(buf[pos:]) if "<" in buf[max(pos, n - _MAX_TOKEN) :] else -1
        if cut >= 0:
            self._text(buf[pos : pos + cut], vis, rea)
            self._buf = buf[pos + cut :]
        else:
            self._text(buf[pos:], vis, rea)
            self._buf = ""
        return Delta("".join(vis), "".join(rea))

    @property
    def in_reasoning(self) -> bool:
        """Whether the next character fed would be reasoning: inside an analysis message."""
        return self._state == BODY and self._route == REASONING

    @property
    def tag_consumed(self) -> bool:
        """Whether a harmony token has been read (and removed from the text)."""
        return self.found

    @property
    def orphan_at(self) -> None:
        """Harmony has no orphan closers (T10 does not apply): always ``None``."""
        return None

    @property
    def reasoning_closed(self) -> Optional[bool]:
        """Whether the last analysis message was ended by a token rather than by the end of
        the text (F7); ``None`` when there was none."""
        if not self.had_block:
            return None
        return not self.in_reasoning

    def close(self) -> Delta:
        """End of text: release everything held."""
        vis: list[str] = []
        rea: list[str] = []
        if self._buf:
            self._text(self._buf, vis, rea)
            self._buf = ""
        if self._state == INIT and self._before:
            vis.append("".join(self._before))
            self._before = []
        self._pending = []
        return Delta("".join(vis), "".join(rea))


# The channel scanner the ``gpt-oss`` preset names (F6): the scanner kernels hand texts of that
# preset to it.
CHANNEL_SCANNERS["harmony"] = HarmonyScanner
