"""The exception hierarchy (docs/behaviour.md#a1).

Every error the library raises on purpose derives from :class:`ThinkParseError`, and also from
the built-in class a caller would naturally catch (``ValueError`` for bad data or options,
``RuntimeError`` for misuse of a closed scanner).  Option and argument errors are plain
``ValueError`` / ``TypeError`` subclasses so ``except ValueError`` keeps working.
"""

from __future__ import annotations


class ThinkParseError(Exception):
    """Base class of the library's own errors."""


class UnknownProviderError(ThinkParseError, ValueError):
    """No provider family recognises the payload's shape (P8).

    The message names the keys that were seen.
    """


class ResponseShapeError(ThinkParseError, ValueError):
    """A recognised provider payload has a malformed field (P8).

    Attributes:
        path: the JSON path of the bad field, like ``"choices[0].message.content"``.
    """

    def __init__(self, path: str, message: str) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class ScannerClosedError(ThinkParseError, RuntimeError):
    """``feed()`` was called on a scanner or normaliser after ``close()``."""
