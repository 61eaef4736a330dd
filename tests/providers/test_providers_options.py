"""W4 and P13 in the normalisers: think options, the model's preset, choice, finish_reason,
to_dict; and the hardening regressions of the provider layer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any, Optional

import pytest

from thinkparse import (
    Extraction,
    ResponseShapeError,
    StreamNormalizer,
    normalize,
    split_harmony,
    to_message,
)
from thinkparse.providers import FAMILIES, _options
from thinkparse.scan._harmony import HarmonyScanner


def chat(content: str, model: Optional[str] = None) -> dict[str, Any]:
    r: dict[str, Any] = {"choices": [{"index": 0, "message": {"role": "assistant",
                                                              "content": content}}]}
    if model is not None:
        r["model"] = model
    return r


@pytest.fixture
def model_table() -> Iterator[dict[str, str]]:
    table: dict[str, str] = {}
    _options.use_model_table(lambda name: table.get(name))
    yield table
    _options.use_model_table(None)


def test_families_tuple() -> None:
    assert FAMILIES == ("openai_chat", "openai_responses", "anthropic", "gemini", "bedrock",
                        "ollama", "cohere")


# --- think options (W4) -----------------------------------------------------------------------
def test_default_is_auto() -> None:
    # W4, T10: one-shot inline markup defaults to start_in_reasoning="auto"
    x = normalize(chat("plan</think>answer"))
    assert (x.visible, x.reasoning, x.format) == ("answer", "plan", "tags")


def test_explicit_options_apply() -> None:
    # W4: tags / delimiters / start_in_reasoning honoured in one-shot
    x = normalize(chat("<reason>r</reason>v"), tags="reason")
    assert (x.visible, x.reasoning) == ("v", "r")
    x = normalize(chat("[THINK]r[/THINK]v"), delimiters=[("[THINK]", "[/THINK]")])
    assert (x.visible, x.reasoning) == ("v", "r")
    x = normalize(chat("plan</think>answer"), start_in_reasoning=False)
    assert x.reasoning is None
    with pytest.raises(ValueError, match="preset"):
        normalize(chat("x"), preset="no-such-preset")
    with pytest.raises(TypeError):
        normalize(chat("x"), code_aware="yes")  # type: ignore[arg-type]


def test_model_preset_applies_when_no_option_given(model_table: dict[str, str]) -> None:
    # P13, W4: precedence explicit > preset_for_model(model) > default
    base = normalize(chat("<think>r</think>v", model="other"))
    assert base.reasoning == "r"
    model_table["tagged"] = "claude-text"
    x = normalize(chat("<thinking>r</thinking>v", model="tagged"))
    assert (x.visible, x.reasoning) == ("v", "r")
    assert normalize(chat("<thinking>r</thinking>v", model="other")).reasoning is None
    # explicit options win over the model's preset
    x = normalize(chat("<reason>r</reason>v", model="tagged"), tags="reason")
    assert (x.visible, x.reasoning) == ("v", "r")
    x = normalize(chat("<thinking>r</thinking>v", model="tagged"), tags="think")
    assert x.reasoning is None


def test_model_preset_hook_is_consulted(model_table: dict[str, str]) -> None:
    seen: list[str] = []

    def table(name: str) -> Optional[str]:
        seen.append(name)
        return None

    _options.use_model_table(table)
    normalize(chat("hi", model="deepseek-r1"))
    normalize(chat("hi", model="deepseek-r1"), tags="think")  # explicit: not consulted
    sn = StreamNormalizer()
    sn.feed({"model": "kimi-k2", "choices": [{"index": 0, "delta": {"content": "x"}}]})
    assert seen == ["deepseek-r1", "kimi-k2"]


def test_stream_model_preset(model_table: dict[str, str]) -> None:
    # P13: a stream's first event naming the model selects the preset before any content
    model_table["m-sir"] = "qwen3-thinking"
    sn = StreamNormalizer()
    sn.feed({"model": "m-sir", "choices": [{"index": 0, "delta": {"content": "plan"}}]})
    sn.feed({"model": "m-sir", "choices": [{"index": 0, "delta": {"content": "</think>ans"}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("ans", "plan")


def test_stream_model_preset_named_before_the_text(model_table: dict[str, str]) -> None:
    # P13: the model named by an event without text still decides the scanner of the text
    # that follows; a later event naming another model changes nothing
    model_table["m-sir"] = "qwen3-thinking"
    sn = StreamNormalizer()
    sn.feed({"model": "m-sir", "choices": [{"index": 0, "delta": {"role": "assistant"}}]})
    sn.feed({"model": "other", "choices": [{"index": 0, "delta": {"content": "plan"}}]})
    sn.feed({"model": "other", "choices": [{"index": 0, "delta": {"content": "</think>a"}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("a", "plan")
    # a model named only after the first visible text changes nothing: that text chose the
    # scanner (the default's split, exactly as a stream that names no model)
    chunks = [{"choices": [{"index": 0, "delta": {"content": "plan"}}]},
              {"model": "m-sir", "choices": [{"index": 0, "delta": {"content": "</think>a"}}]}]
    late, unnamed = StreamNormalizer(), StreamNormalizer()
    for chunk in chunks:
        late.feed(chunk)
        unnamed.feed({"choices": chunk["choices"]})
    late.close()
    unnamed.close()
    assert (late.result.visible, late.result.reasoning) == (
        unnamed.result.visible, unnamed.result.reasoning
    ) != ("a", "plan")
    # after dedicated reasoning the text is not scanned (P4), whatever the model's preset
    sn = StreamNormalizer()
    sn.feed({"model": "m-sir", "choices": [{"index": 0, "delta": {"reasoning_content": "r"}}]})
    sn.feed({"model": "m-sir", "choices": [{"index": 0, "delta": {"content": "x</think>y"}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("x</think>y", "r")


# --- choice (W4) ------------------------------------------------------------------------------
TWO = {"choices": [
    {"index": 0, "message": {"content": "zero", "reasoning_content": "r0"},
     "finish_reason": "stop"},
    {"index": 1, "message": {"content": "one", "reasoning_content": "r1"},
     "finish_reason": "length"},
]}


def test_choice_chat() -> None:
    x = normalize(TWO, choice=1)
    assert (x.visible, x.reasoning, x.finish_reason) == ("one", "r1", "length")
    assert normalize(TWO).visible == "zero"
    assert to_message(TWO, choice=1) == {"role": "assistant", "content": "one",
                                         "reasoning_content": "r1"}
    assert to_message(normalize(TWO, choice=1))["content"] == "one"  # type: ignore[index]


def test_choice_stream() -> None:
    sn = StreamNormalizer(choice=1)
    for i, text in ((0, "a"), (1, "b"), (1, "c"), (0, "d")):
        sn.feed({"choices": [{"index": i, "delta": {"content": text}}]})
    sn.close()
    assert sn.result.visible == "bc"
    assert sn.message == {"role": "assistant", "content": "bc"}


def test_choice_gemini() -> None:
    r = {"candidates": [
        {"index": 0, "content": {"parts": [{"text": "A"}]}, "finishReason": "STOP"},
        {"index": 1, "content": {"parts": [{"text": "t", "thought": True}, {"text": "B"}]},
         "finishReason": "MAX_TOKENS"},
    ]}
    x = normalize(r, choice=1)
    assert (x.visible, x.reasoning, x.finish_reason) == ("B", "t", "MAX_TOKENS")
    assert to_message(r, choice=1) == {"role": "model", "parts": [
        {"text": "t", "thought": True}, {"text": "B"}]}


def test_bad_choice() -> None:
    with pytest.raises(TypeError, match="choice"):
        normalize(TWO, choice="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="choice"):
        normalize(TWO, choice=True)
    with pytest.raises(ValueError, match="choice"):
        normalize(TWO, choice=-1)
    with pytest.raises(ValueError, match="choice"):
        StreamNormalizer(choice=-2)
    with pytest.raises(ResponseShapeError) as info:
        normalize(TWO, choice=5)
    assert info.value.path == "choices[5]"
    with pytest.raises(ValueError, match="choice"):
        normalize({"type": "message", "content": []}, choice=1)


# --- finish_reason and to_dict (W4) -----------------------------------------------------------
@pytest.mark.parametrize(("response", "reason"), [
    ({"choices": [{"message": {"content": "x"}, "finish_reason": "stop"}]}, "stop"),
    ({"type": "message", "content": [], "stop_reason": "end_turn"}, "end_turn"),
    ({"object": "response", "output": [], "status": "incomplete",
      "incomplete_details": {"reason": "max_output_tokens"}}, "max_output_tokens"),
    ({"object": "response", "output": [], "status": "completed"}, "completed"),
    ({"candidates": [{"content": {"parts": []}, "finishReason": "SAFETY"}]}, "SAFETY"),
    ({"output": {"message": {"content": []}}, "stopReason": "end_turn"}, "end_turn"),
    ({"message": {"content": "x"}, "done": True, "done_reason": "length"}, "length"),
    ({"choices": [{"message": {"content": "x"}}]}, None),
])
def test_finish_reason(response: dict[str, Any], reason: Optional[str]) -> None:
    assert normalize(response).finish_reason == reason


def test_to_dict_is_the_cli_record() -> None:
    x = normalize({"choices": [{"message": {"content": "4", "reasoning_content": "2+2"}}],
                   "usage": {"completion_tokens_details": {"reasoning_tokens": 3}}})
    assert x.to_dict() == {"visible": "4", "reasoning": "2+2", "tokens_est": 1,
                           "provider": "openai_chat", "format": "field",
                           "reasoning_tokens": 3, "redacted": False}
    assert isinstance(x, Extraction)


# --- hardening --------------------------------------------------------------------------------
# Timing ratios, marked slow (run once by .ci/run, in a step of their own); CPU time of this
# thread, so waiting for a shared processor does not count.  tests/scan/test_linear_costs.py checks
# the same streams by counting allocated bytes and Python steps.
def _elapsed(fn: Any) -> float:
    best = float("inf")
    for _ in range(3):
        t = time.thread_time()
        fn()
        best = min(best, time.thread_time() - t)
    return best


def _ratio(make: Any, n: int) -> float:
    small = _elapsed(lambda: make(n))
    big = _elapsed(lambda: make(4 * n))
    return big / small


W = "\n" * 64


@pytest.mark.slow
def test_stream_whitespace_reasoning_is_linear() -> None:
    # held whitespace of a reasoning segment grows linearly (was held = held + chunk:
    # ratio ~30 for 4x the chunks)
    def run(n: int) -> None:
        sn = StreamNormalizer()
        for _ in range(n):
            sn.feed({"choices": [{"delta": {"reasoning_content": W}}]})
        sn.feed({"choices": [{"delta": {"reasoning_content": "x"}}]})
        sn.close()
        assert sn.result.reasoning == W * n + "x"

    assert _ratio(run, 5000) < 12  # linear: ~4-7


@pytest.mark.slow
@pytest.mark.parametrize("chunked", [False, True])
def test_harmony_whitespace_is_linear(chunked: bool) -> None:
    def run(n: int) -> None:
        h = HarmonyScanner()
        h.feed("<|channel|>analysis<|message|>x")
        if chunked:
            for _ in range(n):
                h.feed(W)
        else:
            h.feed(W * n)
        h.feed("y")
        r = h.close()
        assert r.visible == ""

    assert _ratio(run, 5000) < 12


@pytest.mark.slow
@pytest.mark.parametrize("chunked", [False, True])
def test_harmony_non_token_brackets_are_linear(chunked: bool) -> None:
    # "<|" that is not a token no longer copies the rest of the buffer
    def run(n: int) -> None:
        body = "a <|x " * n
        text = "<|channel|>analysis<|message|>" + body
        if chunked:
            h = HarmonyScanner()
            for i in range(0, len(text), 4096):
                h.feed(text[i:i + 4096])
            h.close()
        else:
            assert split_harmony(text).reasoning == body.strip()

    assert _ratio(run, 20000) < 12  # was ~20


class _Broken:
    def model_dump(self, **kwargs: Any) -> dict[str, Any]:
        raise ValueError("cannot serialise field 'x'")


def test_model_dump_error_propagates() -> None:
    # the SDK object's own error reaches the caller instead of "takes a Mapping..."
    with pytest.raises(ValueError, match="cannot serialise field 'x'"):
        normalize(_Broken())
    with pytest.raises(ValueError, match="cannot serialise field 'x'"):
        StreamNormalizer().feed(_Broken())


def test_real_model_table() -> None:
    # P13 with the model table: a template-opened model's reasoning; P18: the preset's start
    # mode applies one-shot as in a stream (a reply that never closes the block is reasoning),
    # and F7's unclosed="auto" makes it the answer when the model stopped by itself
    from thinkparse import preset_for_model

    assert preset_for_model("MiniMax-M2") is not None
    x = normalize(chat("a plan</think>the answer", model="MiniMax-M2"))
    assert (x.visible, x.reasoning, x.reasoning_closed) == ("the answer", "a plan", True)
    assert x.preset == preset_for_model("MiniMax-M2")
    x = normalize(chat("Just 4.", model="deepseek-r1"))
    assert (x.visible, x.reasoning, x.reasoning_closed) == ("", "Just 4.", False)
    stopped = chat("Just 4.", model="deepseek-r1")
    stopped["choices"][0]["finish_reason"] = "stop"
    x = normalize(stopped, unclosed="auto")
    assert (x.visible, x.reasoning, x.reasoning_closed) == ("Just 4.", None, None)
    stopped["choices"][0]["finish_reason"] = "length"
    x = normalize(stopped, unclosed="auto")
    assert (x.visible, x.reasoning, x.reasoning_closed) == ("", "Just 4.", False)
    sn = StreamNormalizer()
    sn.feed({"model": "MiniMax-M2", "choices": [{"index": 0, "delta": {"content": "a plan"}}]})
    sn.feed({"model": "MiniMax-M2", "choices": [{"index": 0, "delta": {"content": "</think>x"}}]})
    sn.close()
    assert (sn.result.visible, sn.result.reasoning) == ("x", "a plan")
