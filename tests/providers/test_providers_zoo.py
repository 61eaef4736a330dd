"""The model zoo's options in the normalisers (F2-F4, F7, F8) and the same rules one-shot and
streamed (P18)."""

from __future__ import annotations

from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import (
    StreamNormalizer,
    normalize,
    preset_for_model,
    split_think,
)


def chat(content: str, model: Optional[str] = None,
         finish: Optional[str] = None) -> dict[str, Any]:
    r: dict[str, Any] = {"choices": [{"index": 0, "message": {"role": "assistant",
                                                              "content": content},
                                      "finish_reason": finish}]}
    if model is not None:
        r["model"] = model
    return r


def stream(content: list[str], model: Optional[str] = None, **options: Any) -> StreamNormalizer:
    sn = StreamNormalizer(**options)
    for piece in content:
        ev: dict[str, Any] = {"choices": [{"index": 0, "delta": {"content": piece}}]}
        if model is not None:
            ev["model"] = model
        sn.feed(ev)
    sn.close()
    return sn


# --- F2-F4 options through normalize and StreamNormalizer ---------------------------------------
def test_terminators() -> None:
    """F2: a tool-call marker ends the reasoning and stays in the answer, one-shot and streamed."""
    text = "I should call it.<tool_call>{\"name\": \"f\"}</tool_call>"
    options = {"start_in_reasoning": True, "terminators": ["<tool_call>"]}
    r = normalize(chat(text), **options)
    assert (r.visible, r.reasoning, r.reasoning_closed) == (
        '<tool_call>{"name": "f"}</tool_call>', "I should call it.", True)
    s = stream(["I should call it.<tool", "_call>{\"name\": \"f\"}</tool_call>"], **options)
    assert (s.result.visible, s.result.reasoning, s.result.reasoning_closed) == (
        '<tool_call>{"name": "f"}</tool_call>', "I should call it.", True)


def test_answer_wrappers() -> None:
    """F3: an answer wrapper is removed from the visible text, one-shot and streamed."""
    options = {"answer": [("<final>", "</final>")]}
    r = normalize(chat("<think>plan</think><final> 42 </final>"), **options)
    assert (r.visible, r.reasoning) == ("42", "plan")
    s = stream(["<think>plan</think><fin", "al> 42 </final>"], **options)
    assert (s.result.visible, s.result.reasoning) == ("42", "plan")


def test_answer_wrapper_without_reasoning() -> None:
    """F3: a wrapped answer with no reasoning block loses its markers too."""
    r = normalize(chat("<final>only the answer</final>"), answer=[("<final>", "</final>")])
    assert (r.visible, r.reasoning, r.format) == ("only the answer", None, "none")


@pytest.mark.parametrize(("prompt", "visible", "reasoning"), [
    ("<|im_start|>assistant\n<think>\n", "v", "r"),
    ("<|im_start|>assistant\n<think>\n\n</think>\n\n", "rv", None),  # T4: a lone closer
])
def test_prompt_decides_the_start(prompt: str, visible: str, reasoning: Optional[str]) -> None:
    """F4: the rendered prompt decides the start state, one-shot and streamed."""
    r = normalize(chat("r</think>v"), prompt=prompt)
    assert (r.visible, r.reasoning) == (visible, reasoning)
    s = stream(["r</thi", "nk>v"], prompt=prompt)
    assert (s.result.visible, s.result.reasoning) == (visible, reasoning)


@pytest.mark.parametrize(("options", "error", "name"), [
    ({"terminators": [""]}, ValueError, "terminators"),
    ({"answer": [("<a>",)]}, ValueError, "answer"),
    ({"prompt": "<think>", "start_in_reasoning": True}, ValueError, "prompt"),
    ({"prompt": 5}, TypeError, "prompt"),
])
def test_bad_options_name_themselves(options: dict[str, Any], error: type, name: str) -> None:
    """F2-F4: bad values raise naming the option, in both normalisers."""
    with pytest.raises(error, match=name):
        normalize(chat("x"), **options)
    with pytest.raises(error, match=name):
        StreamNormalizer(**options)


def test_unclosed_is_checked_and_one_shot_only() -> None:
    """F7: unclosed takes "reasoning", "answer" or "auto" in normalize; streams do not take it."""
    with pytest.raises(ValueError, match="unclosed"):
        normalize(chat("x"), unclosed="sometimes")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="unclosed"):
        StreamNormalizer(unclosed="answer")  # type: ignore[call-arg]


# --- F7: unclosed blocks decided with the finish reason -----------------------------------------
@pytest.mark.parametrize(("finish", "visible", "reasoning"), [
    ("stop", "The answer is 4.", None),
    ("length", "", "The answer is 4."),
    (None, "", "The answer is 4."),
    ("content_filter", "", "The answer is 4."),
])
def test_unclosed_auto(finish: Optional[str], visible: str, reasoning: Optional[str]) -> None:
    """F7: a template-opened block that never closed is the answer when the model stopped by
    itself, reasoning when it was cut or the reason is not known."""
    r = normalize(chat("The answer is 4.", "deepseek-r1", finish), unclosed="auto")
    assert (r.visible, r.reasoning) == (visible, reasoning)
    assert r.reasoning_closed is (None if reasoning is None else False)


def test_unclosed_answer_and_reasoning() -> None:
    """F7: "answer" always makes an unclosed template-opened block the answer; "reasoning"
    (the default) keeps T6's reading; a closed block is not affected."""
    r = normalize(chat("Hi.", "deepseek-r1", "length"), unclosed="answer")
    assert (r.visible, r.reasoning) == ("Hi.", None)
    r = normalize(chat("Hi.", "deepseek-r1", "stop"))
    assert (r.visible, r.reasoning) == ("", "Hi.")
    r = normalize(chat("plan</think>Hi.", "deepseek-r1", "stop"), unclosed="answer")
    assert (r.visible, r.reasoning, r.reasoning_closed) == ("Hi.", "plan", True)


@pytest.mark.parametrize(("finish", "fmt"), [("STOP", "gemini"), ("end_turn", "anthropic")])
def test_unclosed_auto_other_families(finish: str, fmt: str) -> None:
    """F7: the finish reason of every family is read (Gemini finishReason, Anthropic
    stop_reason)."""
    if fmt == "gemini":
        payload: dict[str, Any] = {"candidates": [{"content": {"parts": [{"text": "Hi."}]},
                                                   "finishReason": finish}]}
    else:
        payload = {"type": "message", "role": "assistant", "stop_reason": finish,
                   "content": [{"type": "text", "text": "Hi."}]}
    r = normalize(payload, preset="deepseek-r1", unclosed="auto")
    assert (r.visible, r.reasoning) == ("Hi.", None)
    r = normalize(payload, preset="deepseek-r1")
    assert (r.visible, r.reasoning) == ("", "Hi.")


# --- F8: the preset that was used ---------------------------------------------------------------
def test_preset_reported() -> None:
    """F8: Extraction.preset names the preset inline markup was read with: given (an alias
    resolved), chosen by the model name; None when no preset applied or no text was scanned."""
    assert normalize(chat("a</think>b"), preset="deepseek_r1").preset == "deepseek-r1"
    assert normalize(chat("a</think>b", "deepseek-r1")).preset == preset_for_model("deepseek-r1")
    assert normalize(chat("<think>a</think>b")).preset is None
    dedicated = {"choices": [{"message": {"content": "b", "reasoning_content": "a"}}],
                 "model": "deepseek-r1"}
    assert normalize(dedicated).preset is None
    s = stream(["a</think>b"], "deepseek-r1")
    assert s.result.preset == preset_for_model("deepseek-r1")
    assert stream(["a</think>b"], preset="deepseek_r1").result.preset == "deepseek-r1"
    assert stream(["<think>a</think>b"]).result.preset is None


def test_reasoning_closed() -> None:
    """F7: reasoning_closed: True for a closed block and for dedicated reasoning, False for a
    block cut off, None without reasoning; streams report it too."""
    assert normalize(chat("<think>a</think>b")).reasoning_closed is True
    assert normalize(chat("<think>a")).reasoning_closed is False
    assert normalize(chat("b")).reasoning_closed is None
    dedicated = {"choices": [{"message": {"content": "b", "reasoning_content": "a"}}]}
    assert normalize(dedicated).reasoning_closed is True
    assert stream(["<think>a</thi", "nk>b"]).result.reasoning_closed is True
    assert stream(["<think>a"]).result.reasoning_closed is False
    assert stream(["b"]).result.reasoning_closed is None


# --- P18: one-shot equals streamed --------------------------------------------------------------
PIECES = ["<think>", "</think>", "a", " ", "\n", "b c", "<tool_call>", "<response>", "</response>",
          "<", "/", "```"]
TEXTS = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
#: Presets whose template opens the block, with a model name that selects each (F5).
OPENING = [("deepseek-r1", "deepseek-r1"), ("qwen3-thinking", "Qwen3-235B-A22B-Thinking-2507"),
           ("ernie-4.5", "baidu/ERNIE-4.5-21B-A3B-Thinking"), ("kimi-k2.5", "kimi-k2.5"),
           ("glm-4.7", "glm-4.7")]


def chunked(text: str, cuts: list[int]) -> list[str]:
    points = sorted({c % (len(text) + 1) for c in cuts})
    return [text[i:j] for i, j in zip([0, *points], [*points, len(text)]) if text[i:j]]


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.sampled_from(OPENING), st.lists(st.integers(0, 60), max_size=5),
       st.booleans())
def test_one_shot_equals_stream_for_opening_presets(text: str, row: tuple[str, str],
                                                    cuts: list[int], by_model: bool) -> None:
    """P18: for a preset whose template opens the block, given or chosen by the model name,
    normalize and StreamNormalizer (any chunking) give the same texts and reasoning_closed,
    and both are split_think's with the preset."""
    preset, name = row
    assert preset_for_model(name) == preset
    model = name if by_model else None
    options: dict[str, Any] = {} if by_model else {"preset": preset}
    r = normalize(chat(text, model), **options)
    s = stream(chunked(text, cuts), model, **options).result
    assert (r.visible, r.reasoning, r.reasoning_closed) == (
        s.visible, s.reasoning, s.reasoning_closed)
    split = split_think(text, preset=preset)
    want = split.reasoning.strip() if split.reasoning else None
    assert r.reasoning == (want or None)
