"""Many texts at once: the column form of ``split_think`` (docs/behaviour.md#c4).

A ``None`` row gives ``None`` in both lists; every other row equals ``split_think`` on it.
The options are checked once, before the first row, so a bad option raises even for an empty
column.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Optional

from ._think import split_think


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
    split_think("", **options)  # checks the options once, even for an empty column
    visible: list[Optional[str]] = []
    reasoning: list[Optional[str]] = []
    add_v, add_r = visible.append, reasoning.append
    for i, text in enumerate(texts):
        if text is None:
            add_v(None)
            add_r(None)
        elif type(text) is str or isinstance(text, str):
            s = split_think(text, **options)
            add_v(s.visible)
            add_r(s.reasoning)
        else:
            raise TypeError(f"texts[{i}] must be a str or None, not {type(text).__name__}")
    return visible, reasoning
