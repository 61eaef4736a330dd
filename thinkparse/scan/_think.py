"""One-shot and iterator front ends over the active ``ThinkScanner`` (docs/behaviour.md#t1 to #s7).

Theory of operation: ``split_think`` feeds the whole text to one scanner and closes it, so
one-shot and streaming results agree by construction (S1).  It reads the scanner only through
its public properties (:class:`thinkparse.scan._scanner.ScannerProtocol`): ``had_block`` decides
between ``""`` and ``None`` reasoning (T9), ``orphan_at`` drives ``"auto"``.

``start_in_reasoning="auto"`` (T10) needs the whole text and lives only here: the text is
parsed in the default mode; if the first tag consumed was an orphan closer, the text before it
becomes a definite block and the rest (from that closer on) is parsed again in the default mode,
where the closer is consumed first, exactly "as if a tag had just been consumed before any
visible character".

Every option has a sentinel default that prints as the documented value, so an option passed
explicitly, even with the default's value, replaces the preset's (docs/behaviour.md#presets).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, Optional

from .._presets import PresetName
from .._spec import (
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    SEPARATOR,
    Config,
    DelimitersOption,
    StartAutoOption,
    TagsOption,
    options_config,
    resolve_options,
)
from .._types import Delta, Split
from ._scanner import ThinkScanner, scanner_for


def _scan(text: str, cfg: Config) -> tuple[str, Optional[str], Optional[int]]:
    scanner = scanner_for(cfg)
    v1, r1 = scanner.feed(text)
    v2, r2 = scanner.close()
    reasoning = r1 + r2 if scanner.had_block else None
    return v1 + v2, reasoning, scanner.orphan_at


def split_think(
    text: str,
    /,
    *,
    tags: TagsOption = DEFAULT_TAGS_OPT,
    delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
    start_in_reasoning: StartAutoOption = DEFAULT_START_OPT,
    code_aware: bool = DEFAULT_CODE_AWARE_OPT,
    max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
    preset: Optional[PresetName] = None,
) -> Split:
    """Split a whole text into its visible answer and its ``<think>``-style reasoning.

    Args:
        text: the model's output.
        tags: tag name(s) to recognise (T1); a ``str`` is one name. Default ``("think",)``
            unless ``delimiters`` or ``preset`` say otherwise.
        delimiters: literal ``(open, close)`` pairs, e.g. ``[("[THINK]", "[/THINK]")]``.
        start_in_reasoning: ``True`` when the prompt already opened the block (T6); ``"auto"``
            to detect a leading ``reasoning…</think>`` (T10).
        code_aware: leave tags inside Markdown code alone (T5).
        max_tentative: how far a tag opened mid-answer may run before it is taken as prose
            (T2); ``None`` (or any value of ``sys.maxsize`` or more) for no limit.
        preset: fill the options for a model family (presets); explicit options win.

    Returns:
        :class:`Split` with ``visible`` and ``reasoning`` (``None`` when no block, T9).

    Raises:
        TypeError: ``text`` is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message.

    >>> split_think("<think>\\nplan\\n</think>\\n\\nAnswer.")
    Split(visible='Answer.', reasoning='plan')
    """
    if not isinstance(text, str):
        raise TypeError(f"split_think() takes a str text, not {type(text).__name__}")
    cfg = resolve_options(
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, allow_auto=True
    )
    if cfg.start_in_reasoning != "auto":
        visible, reasoning, _ = _scan(text, cfg)
        return _split(visible, reasoning)
    cfg = resolve_options(
        tags, delimiters, False, code_aware, max_tentative, preset, allow_auto=False
    )
    return _split(*_split_auto(text, cfg))


def text_splitter(options: Mapping[str, Any]) -> Callable[[str], tuple[str, Optional[str]]]:
    """A function giving ``(visible, reasoning)`` of ``split_think(text, **options)`` for many
    texts: the options are resolved once, here, and each text gets a scanner of its own made from
    them (the column functions, docs/behaviour.md#c4).  Check the option names first (an unknown
    one is ignored here): ``split_think("", **options)`` does, with its own messages.

    Raises:
        TypeError, ValueError: as :func:`split_think` for a bad option value.
    """
    cfg = options_config(options, allow_auto=True)
    if cfg.start_in_reasoning != "auto":

        def split(text: str) -> tuple[str, Optional[str]]:
            visible, reasoning, _ = _scan(text, cfg)
            return visible, reasoning

        return split
    cfg = options_config({**options, "start_in_reasoning": False}, allow_auto=False)
    return lambda text: _split_auto(text, cfg)


def _split_auto(text: str, cfg: Config) -> tuple[str, Optional[str]]:
    """``start_in_reasoning="auto"`` (T10): ``cfg`` holds the other options with
    ``start_in_reasoning=False``, the default mode the text is scanned in first."""
    visible, reasoning, orphan_at = _scan(text, cfg)
    if orphan_at is None:
        return visible, reasoning
    first = text[:orphan_at].strip()
    rest_visible, rest_reasoning, _ = _scan(text[orphan_at:], cfg)
    return rest_visible, SEPARATOR.join(p for p in (first, rest_reasoning) if p)


def _split(visible: str, reasoning: Optional[str]) -> Split:
    """``Split(visible, reasoning)`` filled in place: the frozen dataclass's ``__init__`` costs
    about twice as much, which shows on short texts."""
    split = object.__new__(Split)
    fields = split.__dict__
    fields["visible"] = visible
    fields["reasoning"] = reasoning
    return split


def strip_think(
    text: str,
    /,
    *,
    tags: TagsOption = DEFAULT_TAGS_OPT,
    delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
    start_in_reasoning: StartAutoOption = DEFAULT_START_OPT,
    code_aware: bool = DEFAULT_CODE_AWARE_OPT,
    max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
    preset: Optional[PresetName] = None,
) -> str:
    """``split_think(text, **options).visible``: the answer without its reasoning.

    Args:
        text: the model's output.
        tags: as in :func:`split_think`.
        delimiters: as in :func:`split_think`.
        start_in_reasoning: as in :func:`split_think` (``"auto"`` included).
        code_aware: as in :func:`split_think`.
        max_tentative: as in :func:`split_think`.
        preset: as in :func:`split_think`.

    Returns:
        The visible text.

    Raises:
        TypeError: ``text`` is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message.

    >>> strip_think("<think>hmm</think>Hello!")
    'Hello!'
    """
    return split_think(
        text,
        tags=tags,
        delimiters=delimiters,
        start_in_reasoning=start_in_reasoning,
        code_aware=code_aware,
        max_tentative=max_tentative,
        preset=preset,
    ).visible


def iter_think(
    chunks: Iterable[str],
    /,
    *,
    tags: TagsOption = DEFAULT_TAGS_OPT,
    delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
    start_in_reasoning: bool = DEFAULT_START_OPT,
    code_aware: bool = DEFAULT_CODE_AWARE_OPT,
    max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
    preset: Optional[PresetName] = None,
) -> Iterator[Delta]:
    """Run a ``ThinkScanner`` over ``chunks``; yield the non-empty deltas, then ``close()``'s.

    The final delta is yielded only when it is non-empty.

    Args:
        chunks: the text in pieces of any size.
        tags: as in :class:`ThinkScanner`.
        delimiters: as in :class:`ThinkScanner`.
        start_in_reasoning: as in :class:`ThinkScanner` (``"auto"`` needs the whole text and
            is refused).
        code_aware: as in :class:`ThinkScanner`.
        max_tentative: as in :class:`ThinkScanner`.
        preset: as in :class:`ThinkScanner`.

    Yields:
        :class:`Delta` ``(visible, reasoning)`` pairs, never an empty one.

    Raises:
        TypeError: a chunk is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message (raised at the first ``next()``).

    Examples:
        >>> [tuple(d) for d in iter_think(["<th", "ink>a</think>", "b"])]
        [('', 'a'), ('b', '')]
    """
    scanner = ThinkScanner(
        tags=tags,
        delimiters=delimiters,
        start_in_reasoning=start_in_reasoning,
        code_aware=code_aware,
        max_tentative=max_tentative,
        preset=preset,
    )
    for chunk in chunks:
        delta = scanner.feed(chunk)
        if delta:
            yield delta
    delta = scanner.close()
    if delta:
        yield delta


async def aiter_think(
    chunks: AsyncIterable[str],
    /,
    *,
    tags: TagsOption = DEFAULT_TAGS_OPT,
    delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
    start_in_reasoning: bool = DEFAULT_START_OPT,
    code_aware: bool = DEFAULT_CODE_AWARE_OPT,
    max_tentative: Optional[int] = DEFAULT_MAX_TENTATIVE_OPT,
    preset: Optional[PresetName] = None,
) -> AsyncIterator[Delta]:
    """The asynchronous twin of :func:`iter_think`.

    Args:
        chunks: the text in pieces of any size, from an asynchronous source.
        tags: as in :class:`ThinkScanner`.
        delimiters: as in :class:`ThinkScanner`.
        start_in_reasoning: as in :class:`ThinkScanner`.
        code_aware: as in :class:`ThinkScanner`.
        max_tentative: as in :class:`ThinkScanner`.
        preset: as in :class:`ThinkScanner`.

    Yields:
        :class:`Delta` ``(visible, reasoning)`` pairs, never an empty one.

    Raises:
        TypeError: a chunk is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message.
    """
    scanner = ThinkScanner(
        tags=tags,
        delimiters=delimiters,
        start_in_reasoning=start_in_reasoning,
        code_aware=code_aware,
        max_tentative=max_tentative,
        preset=preset,
    )
    async for chunk in chunks:
        delta = scanner.feed(chunk)
        if delta:
            yield delta
    delta = scanner.close()
    if delta:
        yield delta
