"""Fuzz cases shared by the atheris driver and the hypothesis driver.

Theory of operation: every case is a function of a byte string.  A small :class:`Reader` turns the
bytes into choices (options, text fragments, chunk cuts, JSON shapes), so a coverage-guided fuzzer
(atheris) and a property-based one (hypothesis) explore the same input space, and any failing
input can be replayed from its bytes alone.

* :func:`scanner_case` -- differential: the compiled scanner against the pure-Python one, call
  by call (docs/behaviour.md#s5), and the streamed result against one-shot ``split_think`` (S1),
  with random options and every string kind (ASCII, latin-1, BMP, astral).  An invalid option
  set must raise the same exception type in both.
* :func:`normalize_case` -- ``normalize`` and ``StreamNormalizer`` on hostile JSON-like payloads
  built from provider field names: nothing escapes but the documented errors.
"""

from __future__ import annotations

import contextlib
from typing import Any, Optional

from thinkparse import StreamNormalizer, ThinkParseError, normalize, split_think
from thinkparse._scanner_py import ThinkScanner as PyScanner

try:
    from thinkparse._scanner_c import ThinkScanner as CScanner
except ImportError:  # pragma: no cover - pure-Python installs fuzz the pure scanner alone
    CScanner = None  # type: ignore[assignment, misc]


class Reader:
    """Consumes a byte string as a sequence of small choices; zeros once exhausted."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return 0
        b = self.data[self.pos]
        self.pos += 1
        return b

    def below(self, n: int) -> int:
        return self.byte() % n if n > 1 else 0

    def pick(self, items: Any) -> Any:
        return items[self.below(len(items))]

    def more(self) -> bool:
        return self.pos < len(self.data)


_FRAGMENTS = {
    "ascii": (
        "<think>", "</think>", "<", ">", "/", "`", "``", "```", "~~~", "\n", " ", "   ", "\t",
        "\r", "a", "b c", "<think x=1/>", "</think >", "<think\n", "<THINK>", "</Think>",
        "[THINK]", "[/THINK]", "<<", ">>", "<thinking>", "</thinking>", "<seed:think>",
        "</seed:think>", "<t>", "</t>", "x" * 40, "<think " + "a" * 300, "</" + " " * 260 + ">",
        "<tool_call>", "<tool_", "[TOOL_CALLS]", "<answer>", "</answer>", "<final>", "</final>",
        "[A]", "[/A]", "<|channel|>analysis<|message|>", "<|end|>", "<|channel|>final",
        "<|message|>", "<|START_THINKING|>", "<|END_THINKING|>", "<|START_TEXT|>",
    ),
    "latin-1": ("é", "\u00a0", "ÿ", "<é>", "\x85", "\x1c"),
    "bmp": ("思", "◁think▷", "◁/think▷", "\u2028", "\u3000", "\ufeff", "\u200b"),
    "astral": ("😀", "\U0001d531", "\U0001d532", "<😀>"),
}
_KINDS = (
    ("ascii",),
    ("ascii", "latin-1"),
    ("ascii", "latin-1", "bmp"),
    ("ascii", "latin-1", "bmp", "astral"),
)
_TAGS = (None, "think", ("think", "thinking"), "Think", "seed:think", ("t",), "思考", "", "a b")
_DELIMITERS = (
    (),
    (("[THINK]", "[/THINK]"),),
    (("◁think▷", "◁/think▷"),),
    (("<<", ">>"),),
    (("\U0001d531", "\U0001d532"), ("[THINK]", "[/THINK]")),
    (("`x", "y"),),
)
_CAPS = (8192, None, 1, 2, 7, 50, 2**63, 0)
_PRESETS = (
    None, None, None, "deepseek-r1", "qwen3", "magistral", "kimi", "granite", "nope",
    "qwen3-thinking", "hunyuan", "kimi-k3", "command-a", "apriel", "gemma-4", "gpt-oss", "glm47",
    "openai_gptoss", "cohere_command4",
)
_TERMINATORS = (
    (), "<tool_call>", ("<tool_call>", "[TOOL_CALLS]"), ("<",), ("`",), ("<think",), ("",), (3,),
)
_ANSWER = (
    (), (("<answer>", "</answer>"),), (("<final>", "</final>"), ("[A]", "[/A]")),
    (("<", ">"),), (("`a", "b"),), (("x", "x"),), (("<think>", "</answer>"),),
)
_PROMPTS = (None, "<think>\n", "a<think>b</think>", "<think/>", 3, "<THINK x>")


def _options(r: Reader) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if r.below(2):
        options["tags"] = r.pick(_TAGS)
    if r.below(3) == 0:
        options["delimiters"] = r.pick(_DELIMITERS)
    if r.below(3) == 0:
        options["start_in_reasoning"] = bool(r.below(2))
    if r.below(3) == 0:
        options["code_aware"] = bool(r.below(2))
    if r.below(3) == 0:
        options["max_tentative"] = r.pick(_CAPS)
    if r.below(4) == 0:
        options["preset"] = r.pick(_PRESETS)
    if r.below(3) == 0:
        options["terminators"] = r.pick(_TERMINATORS)
    if r.below(3) == 0:
        options["answer"] = r.pick(_ANSWER)
    if r.below(5) == 0:
        options["prompt"] = r.pick(_PROMPTS)
    return options


def _text(r: Reader) -> str:
    alphabet = [f for kind in r.pick(_KINDS) for f in _FRAGMENTS[kind]]
    return "".join(r.pick(alphabet) for _ in range(r.below(64)))


def _chunks(r: Reader, text: str) -> list[str]:
    cuts = sorted({r.below(len(text) + 1) for _ in range(r.below(16))} | {0, len(text)})
    chunks = [text[a:b] for a, b in zip(cuts, cuts[1:])]
    if r.below(4) == 0:
        chunks.insert(r.below(len(chunks) + 1), "")
    return chunks


def _run(cls: Any, options: dict[str, Any], chunks: list[str]) -> Any:
    try:
        scanner = cls(**options)
    except (TypeError, ValueError) as exc:
        return ("error", type(exc))
    out = [tuple(scanner.feed(c)) for c in chunks]
    out.append(tuple(scanner.close()))
    return out


def scanner_case(data: bytes) -> None:
    """One differential scanner case (see the module docstring); raises on any disagreement."""
    r = Reader(data)
    options = _options(r)
    text = _text(r)
    chunks = _chunks(r, text)
    expected = _run(PyScanner, options, chunks)
    if CScanner is not None:
        got = _run(CScanner, options, chunks)
        if got != expected:
            raise AssertionError(f"S5: {options!r} {chunks!r}: python {expected!r} != c {got!r}")
    if isinstance(expected, tuple):
        return
    visible = "".join(d[0] for d in expected)
    reasoning = "".join(d[1] for d in expected)
    split = split_think(text, **options)
    if split.visible != visible or (split.reasoning or "") != reasoning:
        raise AssertionError(f"S1: {options!r} {chunks!r}: {split!r} != {(visible, reasoning)!r}")


_KEYS = (
    "choices", "message", "delta", "content", "reasoning_content", "reasoning", "role", "type",
    "text", "thinking", "signature", "redacted_thinking", "data", "candidates", "parts",
    "thought", "thoughtSignature", "output", "summary", "usage", "usageMetadata",
    "prompt_tokens", "completion_tokens", "completion_tokens_details", "reasoning_tokens",
    "output_tokens", "input_tokens", "model", "id", "object", "event", "index",
    "content_block", "content_block_delta", "reasoningContent", "reasoningText", "output_text",
    "response", "done", "eval_count", "finish_reason", "stop_reason", "messages",
    "contentBlockDelta",
)
_TYPES = (
    "text", "thinking", "redacted_thinking", "reasoning", "message", "chat.completion",
    "chat.completion.chunk", "response.output_text.delta", "response.reasoning_text.delta",
    "message_start", "content_block_start", "content_block_delta", "thinking_delta",
    "text_delta", "signature_delta", "response.completed", "function_call", "tool_use",
)


def _value(r: Reader, depth: int) -> Any:
    kind = r.below(12 if depth < 5 else 7)
    if kind == 0:
        return None
    if kind == 1:
        return bool(r.below(2))
    if kind == 2:
        return r.pick((0, -1, 7, 2**70, 1.5, float("nan"), float("inf")))
    if kind in (3, 4):
        return _text(r)
    if kind == 5:
        return r.pick(_TYPES)
    if kind == 6:
        return r.pick(("<|channel|>analysis<|message|>x<|end|>", "<think>a</think>b", "", " "))
    if kind in (7, 8, 9):
        return {r.pick(_KEYS): _value(r, depth + 1) for _ in range(r.below(5))}
    return [_value(r, depth + 1) for _ in range(r.below(4))]


def _payload(r: Reader) -> Any:
    value = _value(r, 0)
    if r.below(2):
        value = {r.pick(_KEYS): value, r.pick(_KEYS): _value(r, 1)}
    return value


_PROVIDERS: tuple[Optional[str], ...] = (
    None, None, "openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama",
)


def normalize_case(data: bytes) -> None:
    """``normalize``/``StreamNormalizer`` on one hostile payload: only documented errors."""
    r = Reader(data)
    provider = r.pick(_PROVIDERS)
    payload = _payload(r)
    with contextlib.suppress(ThinkParseError, TypeError):
        normalize(payload, provider=provider)
    try:
        stream = StreamNormalizer(provider=provider)
    except ThinkParseError:
        return
    try:
        while r.more():
            stream.feed(_payload(r))
    except (ThinkParseError, TypeError):
        return
    stream.close()
    stream.result  # noqa: B018 - must not raise after close()
