"""OpenAI Chat Completions, legacy Completions and OpenAI-compatible servers (``openai_chat``).

The family's readers (usage, message fields, whole responses, the turn) are in :mod:`._read`,
its stream decoder and accumulator in :mod:`._stream`; this module holds its record.

Wire facts and their sources:

* ``choices[0].message.{content, refusal, tool_calls}``; streamed ``choices[].delta`` with the
  same fields; with ``stream_options.include_usage`` the last chunk carries ``usage`` and
  ``choices: []`` (openai-python ``types/chat/chat_completion_message.py``,
  ``chat_completion_chunk.py``).  Legacy Completions: ``choices[].text``
  (``types/completion_choice.py``).
* ``usage.{prompt_tokens, completion_tokens, total_tokens}`` and
  ``usage.completion_tokens_details.reasoning_tokens`` (``types/completion_usage.py``).
* ``message.reasoning_content``: DeepSeek reasoning models, xAI grok-3-mini, SGLang, llama.cpp,
  Fireworks, Z.ai, vLLM before 0.11.  ``message.reasoning``: vLLM 0.11+, Groq
  (``reasoning_format="parsed"``), Cerebras, Together, Ollama's ``/v1`` endpoint, OpenRouter.
* OpenRouter ``reasoning_details[]``: ``{type: "reasoning.text", text, signature}``,
  ``{type: "reasoning.summary", summary}``, ``{type: "reasoning.encrypted", data}``, each with
  ``id``, ``format`` and ``index`` (OpenRouter "Reasoning Tokens" guide); streamed in
  ``delta.reasoning_details`` alongside ``delta.reasoning`` carrying the same text.
* Mistral (Magistral): ``content`` may be a list of ``{type: "thinking", thinking: [{type:
  "text", text}]}`` and ``{type: "text", text}`` chunks, in responses and in stream deltas
  (Mistral API ``ThinkChunk`` / ``TextChunk``).
* Gemini's OpenAI-compatible endpoint puts a thought signature on a tool call:
  ``tool_calls[i].extra_content.google.thought_signature`` (ai.google.dev
  ``gemini-api/docs/thought-signatures``, "Signatures for OpenAI compatibility"; with parallel
  calls only the first carries one), in responses and in stream deltas alike.
* Groq streams put the final usage in ``x_groq.usage`` (``usage`` may be null there).
* xAI reports ``completion_tokens`` without the reasoning tokens: its ``total_tokens`` is
  ``prompt + completion + reasoning`` (Vertex AI "Reasoning for Grok models" example: 663 + 50 +
  124 = 837), whereas OpenAI's ``completion_tokens`` include them (total = prompt + completion).

Decisions where docs/behaviour.md is silent:

* ``choice=k`` (W4) reads the choice whose ``index`` is ``k`` (a choice without ``index`` counts
  by its position); in a stream, chunks of other choices are skipped.  A response whose
  ``choices`` is non-empty but has no such choice raises ``ResponseShapeError`` at
  ``choices[k]``.
* A choice with ``delta`` instead of ``message`` (a stream chunk given to ``normalize``) is read
  like a message; legacy ``choices[0].text`` is the content (inline markup, P3, applies).
* ``reasoning_details``, ``reasoning_content`` and ``reasoning`` are treated as aliases of one
  reasoning (P4: the same text is taken once): ``reasoning_details`` when it has readable text
  (it knows the segment boundaries, P2), else the first readable of ``reasoning_content`` and
  ``reasoning``.  Details with the same ``index`` form one segment; one without an ``index`` is
  a segment of its own.  ``reasoning.encrypted`` with non-empty ``data`` is redacted (P6).
* ``refusal`` text (and ``{type: "refusal"}`` content parts) is the visible answer: it is what
  the model said instead of answering.  Other non-text parts (images, references) are ignored.
* In a content list each ``thinking`` chunk is a segment (P2); in a stream, thinking chunks
  continue one segment until a text chunk arrives.
* xAI's accounting is recognised by its arithmetic (``total == prompt + completion +
  reasoning`` with reasoning > 0), never by model name, and ``reasoning_tokens`` is then added to
  ``output_tokens`` (P12).  A ``reasoning_tokens`` key directly in ``usage`` is read when
  ``completion_tokens_details`` has none.
* Blocks (X1): a ``reasoning_content`` / ``reasoning`` key whose value is a string (``""``
  included) makes a block; a null value does not.  When ``reasoning_details`` has no readable
  entry but a field is readable, the field's block follows the detail blocks.
* A tool call's ``extra_content.google.thought_signature`` is a signature, after those of
  ``reasoning_details``, and an opaque block (its ``wire`` the tool call) after the other blocks
  (P15); the call goes back in ``tool_calls`` as received.
* Messages (X2): ``refusal``, ``tool_calls``, ``function_call`` and ``reasoning_details`` are
  copied when present and not null; ``content`` always (null stays null).
  ``reasoning_field="name"`` writes the first readable reasoning field, else ``""``.
* The stream's turn: text fields concatenated (a key seen in any delta is kept); Mistral chunks
  of the same type merge; ``tool_calls`` merged by ``index`` (``function.arguments``
  concatenated, first non-null wins for the other keys; the stream-only ``index`` key is left
  out); ``reasoning_details`` merged by ``index`` (``text``, ``summary`` and ``data``
  concatenated, last non-null wins for the other keys); other message keys: the first non-null
  value.  The first chunk's top-level keys are read on first use, later chunks' when their
  number of keys changes or they carry ``usage`` (first value wins; usage: the last).
"""

from __future__ import annotations

from .._access import top_model
from .._family import Family
from ._read import PROVIDER, Details, blocks, details, message, read, thinking_text, usage_figures
from ._stream import ChatAccumulator, Decoder

__all__ = ["FAMILY", "ChatAccumulator", "Decoder", "Details", "blocks", "details", "message",
           "read", "thinking_text", "usage_figures"]

FAMILY = Family(
    name=PROVIDER,
    keys=("choices",),
    is_response=None,
    is_event=lambda e: "choices" in e
    or e.get("object") == "chat.completion.chunk"
    or e.get("object") == "text_completion",
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=top_model,
    choices=True,
)
