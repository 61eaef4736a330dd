"""The blocks of inline reasoning: one per extracted ``<think>`` block or analysis message (X1).

Inline markup gives one :class:`~thinkparse.ReasoningBlock` per extracted block, with
``wire == {}`` (docs/behaviour.md#x1).  The splitters report the blocks joined, so the blocks are
found again, on first use of the turn, from the text the reasoning was split from:

* ``<think>`` tags: the text is fed to a :class:`~thinkparse.ThinkScanner` with the same options,
  cut before every character that can begin a tag or delimiter, so that each piece holds at most
  one of them.  Reasoning a piece releases continues the current block while the scanner stayed
  inside it; once a piece ends outside reasoning (``in_reasoning`` false), the next reasoning
  released belongs to a new block.  Only the scanner's public state is read
  (``in_reasoning``, ``orphan_at``), and a block's own blank lines stay in it.
  ``start_in_reasoning="auto"`` is done as :func:`~thinkparse.split_think` does it: reasoning
  before an orphan closer (``orphan_at``) is the first block, the rest is scanned again.
* Harmony: one block per analysis message (:func:`~thinkparse.scan._harmony.harmony_blocks`).

Each block's text is stripped like the joined reasoning (P3); blocks left empty are dropped.
A stream's blocks are found the same way from the content its events add up to, with the
stream's own options, so a stream and its non-streamed twin give equal blocks.

Decision where docs/behaviour.md is silent: the joined text of the blocks need not equal
``Extraction.reasoning`` character for character (the scanner keeps whitespace at a block's
end that per-block stripping removes); every block's text appears in it, in order.
"""

from __future__ import annotations

from typing import Any, Optional

from .._spec import options_config
from ..scan._harmony import harmony_blocks
from ..scan._scanner import scanner_for

#: P11 formats of inline reasoning.
TAGS = "tags"
HARMONY = "harmony"


def inline_blocks(fmt: str, text: str, think: Optional[dict[str, Any]]) -> list[str]:
    """The texts of the inline reasoning blocks of ``text``, in order (X1).

    Args:
        fmt: ``"tags"`` or ``"harmony"`` (the format the reasoning was found in).
        text: the text the reasoning was split from.
        think: the checked ``split_think`` options; ``None`` is the one-shot default
            (``start_in_reasoning="auto"``).
    """
    if fmt == HARMONY:
        return harmony_blocks(text)
    options = dict(think) if think else {}
    if think is None:
        options["start_in_reasoning"] = "auto"
    if options.get("start_in_reasoning") != "auto":
        return _stripped(_scan(text, options)[0])
    options["start_in_reasoning"] = False
    blocks, orphan_at = _scan(text, options)
    if orphan_at is None:
        return _stripped(blocks)
    first = text[:orphan_at].strip()
    rest, _ = _scan(text[orphan_at:], options)
    return ([first] if first else []) + _stripped(rest)


def _stripped(blocks: list[list[str]]) -> list[str]:
    out = []
    for pieces in blocks:
        b = "".join(pieces).strip()
        if b:
            out.append(b)
    return out


def _scan(text: str, options: dict[str, Any]) -> tuple[list[list[str]], Optional[int]]:
    cfg = options_config(options, allow_auto=False)
    sc = scanner_for(cfg)
    blocks: list[list[str]] = []
    closed = True  # the next reasoning released starts a new block
    n = len(text)
    # The next position of each character that can begin a candidate (each searched once per
    # occurrence: linear in the text).
    nxt = {ch: text.find(ch, 1) for ch in cfg.first_chars}
    start = 0
    while start < n:
        end = n
        for ch, i in nxt.items():
            if 0 <= i <= start:
                i = nxt[ch] = text.find(ch, start + 1)
            if 0 <= i < end:
                end = i
        closed = _take(sc.feed(text[start:end]).reasoning, sc, blocks, closed)
        start = end
    _take(sc.close().reasoning, sc, blocks, closed)
    return blocks, sc.orphan_at


def _take(r: str, sc: Any, blocks: list[list[str]], closed: bool) -> bool:
    if r:
        if closed or not blocks:
            blocks.append([r])
        else:
            blocks[-1].append(r)
        return not sc.in_reasoning
    return closed or not sc.in_reasoning
