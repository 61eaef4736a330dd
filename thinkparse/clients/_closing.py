"""``with`` and ``async with`` for the stream wrappers: leaving the block closes the stream.

:class:`Closing` is shared by :class:`~thinkparse.DeltaStream` and the streams of
:func:`thinkparse.openai.wrap`; :class:`AsyncClosing` by their asynchronous twins.  Leaving the
block closes the stream whether or not an exception is leaving with it; the exception, if any,
is not suppressed.
"""

from __future__ import annotations

from types import TracebackType
from typing import Optional, TypeVar

_C = TypeVar("_C", bound="Closing")
_A = TypeVar("_A", bound="AsyncClosing")


class Closing:
    """``with x:`` gives ``x``; leaving the block calls ``x.close()``."""

    __slots__ = ()

    def close(self) -> None:
        """Close the stream (each class says what that does)."""
        raise NotImplementedError

    def __enter__(self: _C) -> _C:
        return self

    def __exit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()


class AsyncClosing:
    """``async with x:`` gives ``x``; leaving the block awaits ``x.aclose()``."""

    __slots__ = ()

    async def aclose(self) -> None:
        """Close the stream (each class says what that does)."""
        raise NotImplementedError

    async def __aenter__(self: _A) -> _A:
        return self

    async def __aexit__(
        self,
        exc_type: Optional[type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        await self.aclose()
