"""``thinkparse --html``: one standalone page of every input (see docs/behaviour.md#h2).

:func:`write_page` renders pairs ``(msg_id, result)`` from any iterable; :class:`PageStream` is
the same page for a caller that produces results one by one (the command's inputs are pushed,
not pulled): ``append`` writes each card as it comes, ``close`` writes the summary and the end.
Either way memory stays bounded however large the input: the summary is written after the cards
and shown first by the page's CSS (see ``thinkparse._html_page``).
"""

from __future__ import annotations

from typing import BinaryIO, Optional

from .._html import Result, check_msg_id, check_result
from .._html_page import PageWriter, Utf8Sink, write_page

__all__ = ["PageStream", "write_page"]


class PageStream:
    """A page written while results arrive; ``append((msg_id, result))`` like a list."""

    def __init__(self, out: BinaryIO, *, title: str = "thinkparse", limit: int = 1000) -> None:
        """Start the page on ``out`` (its head is written at once).

        Args:
            out: a binary stream, such as ``sys.stdout.buffer`` or a file opened ``"wb"``.
            title: the page title.
            limit: how many cards to show; the statistics cover every record.

        Raises:
            TypeError: ``title`` is not a ``str`` or ``limit`` not an ``int``.
            ValueError: ``limit`` is negative.
        """
        self._sink = Utf8Sink(out)
        self._writer = PageWriter(self._sink.write, title=title, limit=limit, nonce=None)
        self._count = 0
        self._closed = False

    def append(self, item: tuple[Optional[str], Result]) -> None:
        """Add one record: its card is written now (if within ``limit``), its numbers counted.

        Raises:
            TypeError: ``item`` is not a ``(str | None, result)`` pair.
            ValueError: the page is closed.
        """
        if self._closed:
            raise ValueError("the page is closed")
        where = f"record {self._count}"
        if not isinstance(item, tuple) or len(item) != 2:
            raise TypeError(f"{where} must be a (msg_id, result) pair")
        msg_id = check_msg_id(item[0], f"{where} msg_id")
        result = check_result(item[1], f"{where} result")
        self._count += 1
        self._writer.add(msg_id, result)

    def close(self) -> None:
        """Write the left-out line, the summary, the script and the end (once)."""
        if not self._closed:
            self._closed = True
            self._writer.finish()
            self._sink.flush()
