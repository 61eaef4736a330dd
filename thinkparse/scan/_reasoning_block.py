"""``parse()``: the ``<REASONING>`` convention (see docs/behaviour.md#r1 to #r8).

Single block (R1-R6): the block runs from the first ``<REASONING>`` to the last
``</REASONING>`` after it (R2); both tags are exact and case-sensitive (R1).  Without a complete
block the message comes back untouched (R3).  The inside is stripped (R4); the outside is the
text before the opener joined to the text after the closer, stripped at the two ends only (R5).

Redaction (R7) runs first, on the whole message, unless ``redact=False``:

* ``<REDACTED>`` and ``</REDACTED>`` are exact and case-sensitive, like the R1 tags.
* Each outermost section becomes ``[REDACTED]``; nested sections are counted, so the section
  ends at the closer that brings the depth back to zero.  ``redactions`` counts outermost
  sections (a nested one is part of its parent).
* An unclosed ``<REDACTED>`` hides everything after it (fail closed) and counts as one section.
* A stray ``</REDACTED>`` (depth zero) stays as text.
* The replacement never forms a new tag (``[`` and ``]`` are in no tag), so one pass is final.
  A message without ``<REDACTED>`` is returned as the same object, so R1-R6 are unchanged
  for it, down to R3's "exactly as given".

Several blocks (R8, ``multi_block=True``): tags are read left to right with a depth counter; a
block closes at its matching ``</REASONING>``; inner pairs are text.  A stray closer at depth
zero is visible text; an opener never closed leaves itself and everything after it visible.
``blocks`` holds every complete block's stripped text, empty ones included; ``reasoning`` joins
the non-empty ones with ``"\\n\\n"`` (``""`` if all are empty); ``tokens_est`` counts the
separators.  Without a complete block, R3 applies: the (redacted) message is returned as is.
R2 and R8 differ on purpose when there are nested or extra closers:
``<REASONING>a</REASONING>b</REASONING>`` gives reasoning ``a</REASONING>b`` under R2 but
reasoning ``a`` and visible ``b</REASONING>`` under R8.

Every step is one left-to-right pass over the tags (``re.finditer``), so time is linear in the
message length on any input, nesting depth included (``benchmarks/bench_html.py``).
"""

from __future__ import annotations

import re

from .._spec import REASONING_CLOSE, REASONING_OPEN
from .._types import Parsed, tokens_estimate

REDACTED_OPEN = "<REDACTED>"
REDACTED_CLOSE = "</REDACTED>"
#: What an outermost ``<REDACTED>`` section becomes (R7).
REDACTED_MARK = "[REDACTED]"

_REDACTED_TAG = re.compile(r"</?REDACTED>")
_REASONING_TAG = re.compile(r"</?REASONING>")


def _sections(
    message: str, tag: re.Pattern[str], opener: str
) -> tuple[list[tuple[int, int, int, int]], int]:
    """The outermost sections of one tag pair, read left to right with a depth counter.

    Returns:
        ``(start, inner start, inner end, end)`` of each closed outermost section, and where the
        section still open at the end begins (``-1``: none).  A closer at depth zero is text.
    """
    spans: list[tuple[int, int, int, int]] = []
    depth = 0
    start = 0  # where the current outermost section began
    for m in tag.finditer(message):
        if m.group() == opener:
            if depth == 0:
                start = m.start()
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                spans.append((start, start + len(opener), m.start(), m.end()))
    return spans, (start if depth else -1)


def redact_text(message: str) -> tuple[str, int]:
    """Replace each outermost ``<REDACTED>`` section by ``[REDACTED]`` (R7).

    Returns:
        The redacted text and the number of sections replaced; ``message`` itself when it
        has no ``<REDACTED>``.
    """
    if REDACTED_OPEN not in message:
        return message, 0
    spans, unclosed = _sections(message, _REDACTED_TAG, REDACTED_OPEN)
    parts: list[str] = []
    kept = 0  # start of the text not yet copied
    for start, _, _, end in spans:
        parts.append(message[kept:start])
        parts.append(REDACTED_MARK)
        kept = end
    if unclosed >= 0:  # unclosed: fail closed, hide the rest
        parts.append(message[kept:unclosed])
        parts.append(REDACTED_MARK)
    else:
        parts.append(message[kept:])
    return "".join(parts), len(spans) + (unclosed >= 0)


def _single(message: str, redactions: int) -> Parsed:
    start = message.find(REASONING_OPEN)
    if start < 0:
        return Parsed(message, None, 0, (), redactions)
    inner_start = start + len(REASONING_OPEN)
    end = message.rfind(REASONING_CLOSE, inner_start)
    if end < 0:
        return Parsed(message, None, 0, (), redactions)
    reasoning = message[inner_start:end].strip()
    visible = (message[:start] + message[end + len(REASONING_CLOSE):]).strip()
    return Parsed(visible, reasoning, tokens_estimate(reasoning), (reasoning,), redactions)


def _multi(message: str, redactions: int) -> Parsed:
    spans, _ = _sections(message, _REASONING_TAG, REASONING_OPEN)
    if not spans:
        return Parsed(message, None, 0, (), redactions)
    outside: list[str] = []
    kept = 0  # start of the visible text not yet copied
    for start, _, _, end in spans:
        outside.append(message[kept:start])
        kept = end
    outside.append(message[kept:])  # an unclosed opener stays here with the rest
    visible = "".join(outside).strip()
    blocks = tuple(message[i:j].strip() for _, i, j, _ in spans)
    reasoning = "\n\n".join(b for b in blocks if b)
    return Parsed(visible, reasoning, tokens_estimate(reasoning), blocks, redactions, True)


def parse(message: str, /, *, multi_block: bool = False, redact: bool = True) -> Parsed:
    """Split a message that wraps its reasoning in ``<REASONING>`` blocks.

    Args:
        message: the model's whole reply.
        multi_block: read several blocks left to right (see docs/behaviour.md#r8) instead of
            one block from the first opener to the last closer (#r2).
        redact: replace ``<REDACTED>`` sections by ``[REDACTED]`` first (#r7); ``False``
            leaves those tags as text.

    Returns:
        :class:`Parsed` with ``visible``, ``reasoning`` (``None`` when there is no complete
        block), ``tokens_est``, ``blocks`` and ``redactions``.

    Raises:
        TypeError: ``message`` is not a ``str``, or an option is not a ``bool``.

    >>> parse("<REASONING>\\nadd 2 and 2\\n</REASONING>\\nIt is 4.")
    Parsed(visible='It is 4.', reasoning='add 2 and 2', tokens_est=3)
    >>> parse("<REASONING>ask <REDACTED>Ann, 555-0100</REDACTED></REASONING>Done.")
    Parsed(visible='Done.', reasoning='ask [REDACTED]', tokens_est=4, redactions=1)
    >>> parse("<REASONING>a</REASONING>b<REASONING>c</REASONING>", multi_block=True).blocks
    ('a', 'c')
    """
    if not isinstance(message, str):
        raise TypeError(f"parse() takes a str message, not {type(message).__name__}")
    for name, value in (("multi_block", multi_block), ("redact", redact)):
        if not isinstance(value, bool):
            raise TypeError(f"parse() option {name} must be a bool, not {type(value).__name__}")
    count = 0
    if redact:
        message, count = redact_text(message)
    return _multi(message, count) if multi_block else _single(message, count)

