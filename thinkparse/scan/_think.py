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

``unclosed`` (F7) is one-shot only, like ``"auto"``: a block that the template opened (the start
mode, or ``prompt`` F4) and that the text never closed nor echoed an opener for becomes the
answer when ``unclosed="answer"``: the text is then split again from visible text, as a model
that skipped thinking wrote it.  ``Split.closed`` reports how the last block ended (the
scanner's ``reasoning_closed``).

Every option has a sentinel default that prints as the documented value, so an option passed
explicitly, even with the default's value, replaces the preset's (docs/behaviour.md#presets).
"""

from __future__ import annotations

from collections.abc import AsyncIterable, AsyncIterator, Callable, Iterable, Iterator, Mapping
from typing import Any, Optional

from .._config import options_config, prompt_opens, resolve_options, with_start
from .._presets import PresetName
from .._spec import (
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    SEPARATOR,
    AnswerOption,
    Config,
    DelimitersOption,
    StartAutoOption,
    TagsOption,
    TerminatorsOption,
    UnclosedOption,
    check_unclosed,
)
from .._types import Delta, Split
from ._scanner import ThinkScanner, scanner_for

#: What one scan of a text gives: visible, reasoning (``None``: no block, T9), where the first
#: consumed tag was an orphan closer (T10), how the last block ended (F7), and whether a block
#: the template opened was still open at the end with no tag consumed (F7).
_Scanned = tuple[str, Optional[str], Optional[int], Optional[bool], bool]


def _scan(text: str, cfg: Config) -> _Scanned:
    scanner = scanner_for(cfg)
    v1, r1 = scanner.feed(text)
    opened = scanner.in_reasoning and not scanner.tag_consumed
    v2, r2 = scanner.close()
    reasoning = r1 + r2 if scanner.had_block else None
    return v1 + v2, reasoning, scanner.orphan_at, scanner.reasoning_closed, opened


def _split_text(text: str, cfg: Config, unclosed: str) -> tuple[str, Optional[str], Optional[bool]]:
    """``(visible, reasoning, closed)`` of ``text`` under resolved options (T10, F7)."""
    if cfg.start_in_reasoning == "auto":
        return _split_auto(text, with_start(cfg, False))
    visible, reasoning, _, closed, opened = _scan(text, cfg)
    if opened and unclosed == "answer":
        visible, reasoning, _, closed, _ = _scan(text, with_start(cfg, False))
    return visible, reasoning, closed


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
    terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
    answer: AnswerOption = DEFAULT_ANSWER_OPT,
    prompt: Optional[str] = None,
    unclosed: UnclosedOption = "reasoning",
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
        preset: fill the options for a model family (F1), by its name or a peer parser's name
            (``PRESET_ALIASES``); explicit options win.
        terminators: literal markers that end a reasoning block and stay in the visible text,
            such as a tool-call section's opener (F2).
        answer: literal ``(open, close)`` pairs wrapping the final answer; removed from the
            visible text with the whitespace right inside them (F3).
        prompt: the rendered prompt, or its end: the text starts inside a block iff the prompt
            leaves one open (F4); not together with ``start_in_reasoning``.
        unclosed: what a block the template opened and the text never closed becomes:
            ``"reasoning"`` (T6) or ``"answer"`` (F7).

    Returns:
        :class:`Split` with ``visible``, ``reasoning`` (``None`` when no block, T9) and
        ``closed`` (F7).

    Raises:
        TypeError: ``text`` is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message.

    >>> split_think("<think>\\nplan\\n</think>\\n\\nAnswer.")
    Split(visible='Answer.', reasoning='plan')
    >>> split_think("plan<tool_call>{}", preset="qwen3-thinking")
    Split(visible='<tool_call>{}', reasoning='plan')
    """
    if not isinstance(text, str):
        raise TypeError(f"split_think() takes a str text, not {type(text).__name__}")
    if unclosed != "reasoning":
        check_unclosed(unclosed, allow_auto=False)
    cfg = resolve_options(
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, terminators,
        answer, prompt, allow_auto=True,
    )
    return _split(*_split_text(text, cfg, unclosed))


def text_splitter(options: Mapping[str, Any]) -> Callable[[str], tuple[str, Optional[str]]]:
    """A function giving ``(visible, reasoning)`` of ``split_think(text, **options)`` for many
    texts: the options are resolved once, here, and each text gets a scanner of its own made from
    them (the column functions, docs/behaviour.md#c4).  Check the option names first (an unknown
    one is ignored here): ``split_think("", **options)`` does, with its own messages.

    Raises:
        TypeError, ValueError: as :func:`split_think` for a bad option value.
    """
    unclosed = options.get("unclosed", "reasoning")
    check_unclosed(unclosed, allow_auto=False)
    split3 = closed_splitter(options)

    def split(text: str) -> tuple[str, Optional[str]]:
        visible, reasoning, _ = split3(text, unclosed)
        return visible, reasoning

    return split


def closed_splitter(
    options: Mapping[str, Any],
) -> Callable[[str, str], tuple[str, Optional[str], Optional[bool]]]:
    """A function giving ``(visible, reasoning, closed)`` of ``split_think(text, **options,
    unclosed=unclosed)`` for a text and an ``unclosed`` value already checked (F7): the options
    are resolved once, here (``normalize`` decides ``unclosed`` per response).

    Raises:
        TypeError, ValueError: as :func:`split_think` for a bad option value.
    """
    cfg = options_config(options, allow_auto=True)

    def split(text: str, unclosed: str) -> tuple[str, Optional[str], Optional[bool]]:
        return _split_text(text, cfg, unclosed)

    return split


def _split_auto(text: str, cfg: Config) -> tuple[str, Optional[str], Optional[bool]]:
    """``start_in_reasoning="auto"`` (T10): ``cfg`` holds the other options with
    ``start_in_reasoning=False``, the default mode the text is scanned in first."""
    visible, reasoning, orphan_at, closed, _ = _scan(text, cfg)
    if orphan_at is None:
        return visible, reasoning, closed
    first = text[:orphan_at].strip()
    rest_visible, rest_reasoning, _, rest_closed, _ = _scan(text[orphan_at:], cfg)
    joined = SEPARATOR.join(p for p in (first, rest_reasoning) if p)
    return rest_visible, joined, rest_closed if rest_closed is not None else True


def _split(visible: str, reasoning: Optional[str], closed: Optional[bool] = None) -> Split:
    """``Split(visible, reasoning, closed)`` filled in place: the frozen dataclass's
    ``__init__`` costs about twice as much, which shows on short texts."""
    split = object.__new__(Split)
    fields = split.__dict__
    fields["visible"] = visible
    fields["reasoning"] = reasoning
    fields["closed"] = closed
    return split


def prompt_opens_reasoning(
    prompt: str,
    /,
    *,
    tags: TagsOption = DEFAULT_TAGS_OPT,
    delimiters: DelimitersOption = DEFAULT_DELIMITERS_OPT,
    preset: Optional[PresetName] = None,
) -> bool:
    """Whether a rendered prompt leaves a reasoning block open, so the output starts inside it
    (F4): the last opener of the configured pairs in the prompt comes after that pair's last
    closer.  What servers decide from the prompt's token ids, here from its text.

    Args:
        prompt: the rendered prompt, or its end.
        tags: tag name(s), as in :func:`split_think`.
        delimiters: literal ``(open, close)`` pairs, as in :func:`split_think`.
        preset: a preset or a peer parser's name (F1) giving the pairs.  A channel format
            (``gpt-oss``) names its channel in each message: ``False``.

    Returns:
        ``True`` when the output starts in reasoning.

    Raises:
        TypeError: ``prompt`` is not a ``str``, or an option has the wrong type.
        ValueError: an invalid option, named in the message.

    >>> prompt_opens_reasoning("<|im_start|>assistant\\n<think>\\n")
    True
    >>> prompt_opens_reasoning("<|im_start|>assistant\\n<think>\\n\\n</think>\\n\\n")
    False
    """
    if not isinstance(prompt, str):
        raise TypeError(f"prompt_opens_reasoning() takes a str prompt, not {type(prompt).__name__}")
    cfg = resolve_options(
        tags, delimiters, DEFAULT_START_OPT, DEFAULT_CODE_AWARE_OPT, DEFAULT_MAX_TENTATIVE_OPT,
        preset, allow_auto=False,
    )
    return cfg.channel is None and prompt_opens(prompt, cfg)


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
    terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
    answer: AnswerOption = DEFAULT_ANSWER_OPT,
    prompt: Optional[str] = None,
    unclosed: UnclosedOption = "reasoning",
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
        terminators: as in :func:`split_think`.
        answer: as in :func:`split_think`.
        prompt: as in :func:`split_think`.
        unclosed: as in :func:`split_think`.

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
        terminators=terminators,
        answer=answer,
        prompt=prompt,
        unclosed=unclosed,
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
    terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
    answer: AnswerOption = DEFAULT_ANSWER_OPT,
    prompt: Optional[str] = None,
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
        terminators: as in :class:`ThinkScanner`.
        answer: as in :class:`ThinkScanner`.
        prompt: as in :class:`ThinkScanner`.

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
        terminators=terminators,
        answer=answer,
        prompt=prompt,
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
    terminators: TerminatorsOption = DEFAULT_TERMINATORS_OPT,
    answer: AnswerOption = DEFAULT_ANSWER_OPT,
    prompt: Optional[str] = None,
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
        terminators: as in :class:`ThinkScanner`.
        answer: as in :class:`ThinkScanner`.
        prompt: as in :class:`ThinkScanner`.

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
        terminators=terminators,
        answer=answer,
        prompt=prompt,
    )
    async for chunk in chunks:
        delta = scanner.feed(chunk)
        if delta:
            yield delta
    delta = scanner.close()
    if delta:
        yield delta
