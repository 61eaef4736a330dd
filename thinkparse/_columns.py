"""Many texts at once: the column form of ``split_think`` (docs/behaviour.md#c4).

A ``None`` row gives ``None`` in both lists; every other row equals ``split_think`` on it.
The options are checked once, before the first row, so a bad option raises even for an empty
column (and the rows do not pay for the check again: see ``row_splitter``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable, Optional

from ._scanner import ThinkScanner
from ._think import split_think

Row = Callable[[str], tuple[str, Optional[str]]]


def row_splitter(options: dict[str, Any]) -> Row:
    """A function giving ``(visible, reasoning)`` of one text, equal to ``split_think``.

    ``split_think`` checks its options on every call and then builds a scanner, which checks
    them again; here they are checked once, and with the default options (or only
    ``start_in_reasoning="auto"``) each row's scanner is built without any (about 2x faster
    per 1 KB row than calling ``split_think``).  Each row gets a scanner of its own (the one
    ``split_think`` builds) and reads the two scanner properties ``split_think`` reads
    (``had_block``, #t9, and ``orphan_at``, #t10).  The rare row whose first tag is an orphan
    closer under ``start_in_reasoning="auto"``, and any option set with a ``preset``, go
    through ``split_think`` itself.

    Raises:
        ValueError: an invalid option, named in the message.
    """
    split_think("", **options)  # the options are valid from here on

    def slow(text: str) -> tuple[str, Optional[str]]:
        s = split_think(text, **options)
        return s.visible, s.reasoning

    if options.get("preset") is not None:
        return slow
    auto = options.get("start_in_reasoning") == "auto"
    # "auto" scans in the default mode first (#t10); passing no option at all is the cheapest.
    scan_options = options
    if auto:
        scan_options = {k: v for k, v in options.items() if k != "start_in_reasoning"}

    def fast(text: str) -> tuple[str, Optional[str]]:
        scanner = ThinkScanner(**scan_options)
        v1, r1 = scanner.feed(text)
        v2, r2 = scanner.close()
        if auto and scanner.orphan_at is not None:
            return slow(text)
        return v1 + v2, (r1 + r2 if scanner.had_block else None)

    return fast


def split_think_many(
    texts: Iterable[Optional[str]], /, **options: Any
) -> tuple[list[Optional[str]], list[Optional[str]]]:
    """Split each text of a column into its visible answer and its reasoning (#c4).

    Args:
        texts: strings or ``None`` (a null row).
        **options: options of :func:`~thinkparse.split_think`, applied to every row.

    Returns:
        ``(visible, reasoning)``: two lists as long as ``texts``; a null row gives ``None`` in
        both, a row without a block gives ``None`` reasoning (#t9).

    Raises:
        TypeError: ``texts`` is not iterable, or a row is neither ``str`` nor ``None``
            (named as ``texts[3]``).
        ValueError: an invalid option, named in the message.

    >>> split_think_many(["<think>a</think>B", None, "C"])
    (['B', None, 'C'], ['a', None, None])
    """
    if isinstance(texts, (str, bytes)) or not isinstance(texts, Iterable):
        raise TypeError(f"texts must be an iterable of str or None, not {type(texts).__name__}")
    one = row_splitter(options)  # checks the options once, even for an empty column
    visible: list[Optional[str]] = []
    reasoning: list[Optional[str]] = []
    add_v, add_r = visible.append, reasoning.append
    for i, text in enumerate(texts):
        if text is None:
            add_v(None)
            add_r(None)
        elif type(text) is str or isinstance(text, str):
            v, r = one(text)
            add_v(v)
            add_r(r)
        else:
            raise TypeError(f"texts[{i}] must be a str or None, not {type(text).__name__}")
    return visible, reasoning
