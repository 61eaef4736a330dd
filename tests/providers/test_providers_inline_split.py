"""Inline markup in a whole response is split as ``split_think`` splits it (P3, T10, W4, P13).

``normalize`` hands the answer to the scan front end (``text_splitter``): these properties pin
the result to the public ``split_think`` with the same options -- the defaults with
``start_in_reasoning="auto"``, each preset with its own start mode (P18), and the preset of the
model the payload names.
"""

from __future__ import annotations

from typing import Any, Optional

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import normalize, preset_for_model, split_think
from thinkparse._presets import PRESETS

PIECES = ["<think>", "</think>", "<think", "think>", "a", " ", "\n", "```", "`", "b c", "<", "/",
          "[THINK]", "[/THINK]", "<tool_call>"]
texts = st.lists(st.sampled_from(PIECES), max_size=14).map("".join)


def chat(content: str, model: Optional[str] = None) -> dict[str, Any]:
    r: dict[str, Any] = {"choices": [{"message": {"content": content}}]}
    if model is not None:
        r["model"] = model
    return r


def expected(text: str, **options: Any) -> tuple[str, Optional[str]]:
    """P3: split like split_think(text), in reasoning for a preset whose template opens the
    block (P18), else "auto" (T10); both parts stripped when markup was found (a removed
    answer wrapper counts, F3); the content as it is (whitespace-only: "") when not (P1)."""
    preset = options.get("preset")
    opens = preset is not None and PRESETS[preset].get("start_in_reasoning") is True
    auto = {} if opens else {"start_in_reasoning": "auto"}
    s = split_think(text, **auto, **options)
    if s.reasoning is None:
        if s.visible == text:
            return ("" if text.isspace() else text), None
        return s.visible.strip(), None
    return s.visible.strip(), s.reasoning.strip() or None


@settings(max_examples=500, deadline=None)
@given(texts)
def test_default_split_is_split_think_auto(text: str) -> None:
    # P3, T10: no option given, no model named
    r = normalize(chat(text))
    assert (r.visible, r.reasoning) == expected(text)
    assert r.format == ("tags" if r.reasoning is not None else "none")


# Presets that scan with tags or delimiters (gpt-oss reads a channel format, P3's harmony).
TAG_PRESETS = sorted(p for p, options in PRESETS.items() if "channel" not in options)


@pytest.mark.parametrize("preset", TAG_PRESETS)
def test_preset_split_is_split_think_with_the_preset(preset: str) -> None:
    # W4: an explicit preset; in reasoning when its template opens the block (P18), else "auto"
    for text in ["<think>a</think>b", "a</think>b", "x <think>y", "```\n<think>\n```", "[THINK]",
                 "[THINK]r[/THINK]v", "plain", "a<tool_call>b"]:
        r = normalize(chat(text), preset=preset)
        assert (r.visible, r.reasoning) == expected(text, preset=preset), text


@pytest.mark.parametrize("model", ["qwen3", "deepseek-r1", "magistral-medium-latest",
                                   "kimi-k2-thinking"])
def test_model_preset_split_is_split_think_with_its_preset(model: str) -> None:
    # P13: the payload names its model and no option is given
    preset = preset_for_model(model)
    assert preset is not None
    for text in ["<think>a</think>b", "a</think>\n\nb", "[THINK]r[/THINK]v", "plain answer"]:
        r = normalize(chat(text, model))
        assert (r.visible, r.reasoning) == expected(text, preset=preset), (model, text)


def test_model_preset_split() -> None:
    # P13 + P3: a qwen3 payload is split with its preset
    r = normalize(chat("<think>a</think>b", "qwen3"))
    assert (r.visible, r.reasoning, r.format) == ("b", "a", "tags")
    r = normalize(chat("a</think>\n\nb", "qwen3"))
    assert (r.visible, r.reasoning, r.format) == ("b", "a", "tags")


def test_explicit_options_win_over_the_model() -> None:
    # W4: options passed explicitly, then the model's preset, then the defaults
    text = "[THINK]r[/THINK]v"
    assert normalize(chat(text, "magistral-medium-latest")).reasoning == "r"
    assert normalize(chat(text, "magistral-medium-latest"), tags="think").reasoning is None
