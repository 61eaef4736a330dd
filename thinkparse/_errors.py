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


class ProviderError(ThinkParseError):
    """The provider reported an error inside a stream (P16): an Anthropic ``error`` event, a
    Responses ``error`` or ``response.failed`` event, an OpenAI-compatible ``{"error": ...}``
    chunk, a Gemini error payload.  What came before stays readable as the normaliser's
    ``result``, with ``finish_reason="error"``.

    Attributes:
        type: the provider's error type or code (``"overloaded_error"``, ``"server_error"``,
            ``"UNAVAILABLE"``...), ``None`` when the event names none.
        message: the provider's message, ``None`` when the event has none.
        event: the name of the event that carried it (its ``type``, or ``"error"``).
    """

    def __init__(self, type: object, message: object, event: str) -> None:
        self.type = type if isinstance(type, str) else (None if type is None else str(type))
        self.message = (
            message if isinstance(message, str) else (None if message is None else str(message))
        )
        self.event = event
        text = ": ".join(p for p in (self.type, self.message) if p) or "no message"
        super().__init__(f"the provider reported an error ({event}): {text}")
