"""Many texts at once: the column form of ``split_think`` (docs/behaviour.md#c4).

A ``None`` row gives ``None`` in both lists; every other row equals ``split_think`` on it.
The options are checked once, before the first row, so a bad option raises even for an empty
column (and the rows do not pay for the check again: see ``row_splitter``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Callable, Optional

from ..scan._think import split_think, text_splitter

Row = Callable[[str], tuple[str, Optional[str]]]


def row_splitter(options: dict[str, Any]) -> Row:
    """A function giving ``(visible, reasoning)`` of one text, equal to ``split_think``.

    ``split_think`` checks its options on every call; here they are checked once (with
    ``split_think``'s own messages) and every row gets a scanner of its own made from the
    checked options (:func:`thinkparse.scan._think.text_splitter`).

    Raises:
        TypeError, ValueError: an invalid option, named in the message.
    """
    split_think("", **options)  # the options are valid from here on, with split_think's errors
    return text_splitter(options)


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
