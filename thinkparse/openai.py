"""``wrap``: an ``openai`` client whose chat completions come back with the reasoning separated.

For servers that put raw ``<think>`` markup in ``content`` (vLLM without a reasoning parser,
llama.cpp, older Ollama, most OpenAI-compatible proxies in front of them), see
docs/behaviour.md#w3.  ``wrap(client)`` returns a client of the same class whose
``chat.completions.create`` results -- plain and ``stream=True``, with ``OpenAI`` and
``AsyncOpenAI`` -- carry the visible text in ``content`` and the reasoning in
``reasoning_content``, the field DeepSeek and vLLM's reasoning parsers use.  It is the Python
counterpart of the Vercel AI SDK's ``extractReasoningMiddleware``.

``openai`` is imported lazily, only to check the client's type: it is never a dependency of
thinkparse.

Decisions where the rules are silent:

* **The wrapped client is a copy** (``client.with_options()``, which shares the connection pool)
  whose ``chat.completions.create`` is replaced: ``isinstance(wrapped, OpenAI)`` holds, every
  other attribute is the client's own, and the client passed in is not changed.  Its
  ``with_options()`` / ``copy()`` give wrapped copies too.  Only
  ``chat.completions.create`` is rewritten (``with_raw_response``, ``.stream()``,
  ``.parse()`` and the Responses API are the client's own).  Each call has its own scanners, so
  concurrent calls are safe.
* **Options.**  ``think_options`` given to ``wrap`` apply to every call (``terminators``,
  ``answer`` and ``prompt`` included, F2-F4; ``unclosed`` is not taken: plain and streamed results
  use the same options).  Without them, each call uses the preset of its request's ``model``
  (``preset_for_model``, F5), else the defaults (``<think>`` tags, content starting outside a
  block).  A request that turns the template's thinking off
  (``extra_body={"chat_template_kwargs": {"enable_thinking": False}}``, or ``"thinking"``), as
  servers read it, makes the output start outside reasoning even where the model's preset opens
  the block: the template then wrote a closed block.  Plain and streamed results use the same
  options (no ``"auto"``), so the same server output gives the same split in both modes.
* **Plain results.**  Each choice's ``message.content`` goes through ``split_think``:
  ``content`` becomes the visible text and, when a block was found, ``reasoning_content`` the
  reasoning.  A message without markup is returned unchanged (no ``reasoning_content`` is
  added), and so is a message that already carries ``reasoning_content`` or ``reasoning`` (the
  server separated it).
* **Content as a list of parts** (Mistral-style ``[{"type": "text", "text": ...}, ...]``, plain
  or streamed) keeps its form.  The text parts' text is read in order by one scanner, as if
  joined; each text part comes back as a copy carrying the visible text it released (a part
  that released none is left out), and every other part (images, audio, Mistral thinking
  chunks, anything not a ``{"type": "text", "text": str}`` mapping) is kept as it is, in its
  place.  Visible text the scanner releases only at the end goes into the last text part, or
  a new ``{"type": "text"}`` part after the others.  A streamed list whose parts all went to
  reasoning becomes ``None``, as an empty string would; a plain one stays a (possibly empty)
  list.  Nothing of a list is ever dropped for not being a string.
* **Streamed results.**  Each choice index has its own scanner (``n > 1``).  A chunk's
  ``delta.content`` becomes the visible part of what the scanner released (``None`` when none)
  and ``delta.reasoning_content`` the reasoning part (``None`` when none).  Text the scanner
  holds (a partial tag) is released in the chunk that carries the choice's ``finish_reason``;
  if the stream ends, or a usage-only chunk (``choices: []``) arrives, while a choice is still
  open, a chunk built from that choice's last chunk (same id, model, created) carries it
  first.  A choice whose deltas carry ``reasoning_content`` or ``reasoning`` is passed through
  untouched from then on.
* The returned objects are the SDK's own (``ChatCompletion``, ``ChatCompletionChunk``) with
  fields set; ``reasoning_content`` is an extra field, so it is in ``model_dump()`` too.  The
  stream is a thin iterator over the SDK's stream (``close()``, ``with``, ``response`` pass
  through).
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable, Optional, TypeVar

from ._models import preset_for_model
from ._spec import OPTION_DEFAULTS
from .clients._openai_stream import (
    AsyncRewrittenStream,
    RewrittenStream,
    append_text,
    feed_parts,
    get_field,
    has_reasoning,
    part_text,
    set_field,
)
from .scan._scanner import ThinkScanner
from .scan._think import split_think

__all__ = ["wrap"]

ClientT = TypeVar("ClientT")

_OPTIONS = tuple(name for name, _ in OPTION_DEFAULTS)
#: ``chat_template_kwargs`` keys with which requests switch a template's thinking on or off.
_THINKING_SWITCHES = ("enable_thinking", "thinking")


def _options_for(fixed: Optional[dict[str, Any]], kwargs: dict[str, Any]) -> dict[str, Any]:
    if fixed is not None:
        return fixed
    model = kwargs.get("model")
    preset = preset_for_model(model) if isinstance(model, str) else None
    if preset is None:
        return {}
    if _thinking_off(kwargs):
        # The template wrote a closed block (or none): the output starts as the answer.
        return {"preset": preset, "start_in_reasoning": False}
    return {"preset": preset}


def _thinking_off(kwargs: dict[str, Any]) -> bool:
    """Whether the request turned the template's thinking off (``chat_template_kwargs``
    ``enable_thinking`` or ``thinking`` false, given in ``extra_body``)."""
    body = kwargs.get("extra_body")
    switches = body.get("chat_template_kwargs") if isinstance(body, dict) else None
    if not isinstance(switches, dict):
        return False
    return any(switches.get(name) is False for name in _THINKING_SWITCHES)


def _split_parts(message: Any, parts: list[Any], options: dict[str, Any]) -> None:
    """Separate the reasoning of a plain message whose content is a list of parts (in place)."""
    if not any(part_text(part) is not None for part in parts):
        return
    scanner = ThinkScanner(**options)
    kept, reasoning = feed_parts(scanner, parts)
    held = scanner.close()
    kept = append_text(kept, held.visible)
    if not scanner.had_block and kept == parts:
        return  # no markup: the message is returned unchanged
    set_field(message, "content", kept)
    if scanner.had_block:
        set_field(message, "reasoning_content", reasoning + held.reasoning)


def _split_message(response: Any, options: dict[str, Any]) -> Any:
    """Separate the reasoning of every choice of a plain ``ChatCompletion`` (in place)."""
    for choice in getattr(response, "choices", None) or ():
        message: Any = get_field(choice, "message")
        content = get_field(message, "content")
        if has_reasoning(message):
            continue
        if isinstance(content, list):
            _split_parts(message, content, options)
            continue
        if not isinstance(content, str):
            continue
        split = split_think(content, **options)
        if split.visible != content:
            set_field(message, "content", split.visible)
        if split.reasoning is not None:
            set_field(message, "reasoning_content", split.reasoning)
    return response


def _sync_create(create: Callable[..., Any], fixed: Optional[dict[str, Any]]) -> Any:
    @functools.wraps(create)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        options = _options_for(fixed, kwargs)
        result = create(*args, **kwargs)
        if kwargs.get("stream") is True:
            return RewrittenStream(result, options)
        return _split_message(result, options)

    return wrapped


def _async_create(create: Callable[..., Any], fixed: Optional[dict[str, Any]]) -> Any:
    @functools.wraps(create)
    async def wrapped(*args: Any, **kwargs: Any) -> Any:
        options = _options_for(fixed, kwargs)
        result = await create(*args, **kwargs)
        if kwargs.get("stream") is True:
            return AsyncRewrittenStream(result, options)
        return _split_message(result, options)

    return wrapped


def wrap(client: ClientT, /, **think_options: Any) -> ClientT:
    """A copy of an ``openai`` client whose chat completions separate inline reasoning (W3).

    See docs/behaviour.md#w3 and the module docstring for the details.

    Args:
        client: an ``openai.OpenAI`` or ``openai.AsyncOpenAI`` client (or a subclass, such as
            ``AzureOpenAI``).
        **think_options: ``tags``, ``delimiters``, ``start_in_reasoning``, ``code_aware``,
            ``max_tentative``, ``preset``, ``terminators``, ``answer``, ``prompt`` for every
            call; without them each call uses the preset of its ``model``
            (``preset_for_model``), starting outside reasoning when the request turns the
            template's thinking off, else the defaults.

    Returns:
        A client of the same class, sharing the connection pool, whose
        ``chat.completions.create`` returns ``content`` without the markup and the reasoning in
        ``reasoning_content``.

    Raises:
        TypeError: ``client`` is not an ``openai`` client (or ``openai`` is not installed), or
            an unknown option.
        ValueError: an invalid option value (``start_in_reasoning="auto"`` included: the same
            options serve plain and streamed results).
    """
    try:
        import openai
    except ImportError:  # pragma: no cover - the test extra installs openai
        raise TypeError(
            "wrap() takes an openai.OpenAI or openai.AsyncOpenAI client; the openai package "
            "is not installed"
        ) from None
    if not isinstance(client, (openai.OpenAI, openai.AsyncOpenAI)):
        raise TypeError(
            "wrap(): client must be an openai.OpenAI or openai.AsyncOpenAI client, "
            f"not {type(client).__name__}"
        )
    fixed: Optional[dict[str, Any]] = None
    if think_options:
        for name in think_options:
            if name not in _OPTIONS:
                raise TypeError(f"wrap() got an unexpected keyword argument {name!r}")
        ThinkScanner(**think_options)  # checks every value now, not at the first call
        fixed = dict(think_options)
    copy = client.with_options()
    completions = copy.chat.completions
    create = completions.create
    if isinstance(client, openai.AsyncOpenAI) or inspect.iscoroutinefunction(create):
        completions.create = _async_create(create, fixed)  # type: ignore[method-assign]
    else:
        completions.create = _sync_create(create, fixed)  # type: ignore[method-assign]
    # copies made from the wrapped client (with_options(timeout=...)) stay wrapped
    for name in ("with_options", "copy"):
        setattr(copy, name, _rewrapping(getattr(copy, name), think_options))
    return copy  # type: ignore[return-value]


def _rewrapping(method: Callable[..., Any], think_options: dict[str, Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        return wrap(method(*args, **kwargs), **think_options)

    return wrapped
