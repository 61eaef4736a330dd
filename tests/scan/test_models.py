"""``preset_for_model`` (P13, F5) and the presets it names (F1): every row of the model-name
table, its near misses, and the format each preset reads, checked against the outputs vLLM's and
SGLang's reasoning-parser tests use for the same family."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Optional

import pytest
from hypothesis import given
from hypothesis import strategies as st

import thinkparse
from thinkparse import Split, ThinkScanner, preset_for_model, split_think
from thinkparse._models import MODEL_PRESETS, normalise_model_name
from thinkparse._presets import PRESET_TABLE, PRESETS

# (name as users meet it, preset): Hugging Face ids with and without the organisation,
# quantised and converted repositories, Ollama tags, OpenRouter / LiteLLM / Bedrock ids, dated
# snapshots; and near misses (F5).
_DATA = json.loads((Path(__file__).resolve().parent / "model_names.json").read_text(
    encoding="utf-8"))
NAMES: list[tuple[str, Optional[str]]] = [(r["name"], r["preset"]) for r in _DATA["names"]]


def test_the_names_table_is_large_and_covers_every_family() -> None:
    # F5: at least 100 real names; every preset with model patterns is named by one
    assert len(NAMES) >= 100
    named = {p for _, p in NAMES}
    with_patterns = {row.name for row in PRESET_TABLE if row.models}
    assert with_patterns <= named


@pytest.mark.parametrize(("name", "preset"), NAMES)
def test_preset_for_model(name: str, preset: Optional[str]) -> None:
    # P13: model names as servers report them, case-insensitive, None when unknown
    assert preset_for_model(name) == preset
    assert preset_for_model(name.upper()) == preset


def test_every_row_is_exercised_and_names_a_preset() -> None:
    # P13: every row of the table is hit by a test name, and names an existing preset
    hit = set()
    for name, _ in NAMES:
        base = normalise_model_name(name)
        for candidate in (base, base.split("_", 1)[-1]):
            for i, row in enumerate(MODEL_PRESETS):
                if candidate and row.pattern.fullmatch(candidate):
                    hit.add(i)
                    break
            else:
                continue
            break
    assert hit == set(range(len(MODEL_PRESETS)))
    for row in MODEL_PRESETS:
        assert row.preset is None or row.preset in PRESETS
        assert row.source


@pytest.mark.parametrize("bad", [None, 3, b"qwen3", ["qwen3"]])
def test_preset_for_model_type_error(bad: Any) -> None:
    # P13: a non-str name is a TypeError naming the argument
    with pytest.raises(TypeError, match="name must be a str"):
        preset_for_model(bad)


def test_exported() -> None:
    assert thinkparse.preset_for_model is preset_for_model
    assert "preset_for_model" in thinkparse.__all__


@given(st.text())
def test_preset_for_model_total(name: str) -> None:
    # P13: any str gives a known preset or None, never an error
    result = preset_for_model(name)
    assert result is None or result in PRESETS


# --- presets against the peers' parser-test outputs (presets) ------------------------------
# (preset, model output, visible, reasoning); outputs from vLLM tests/reasoning/ and SGLang's
# detectors for the family.
FAMILY_CASES = [
    # MiniMax: the template opens the block (regression: the preset used to leak the reasoning)
    ("minimax", "This is a reasoning section</think>This is the rest",
     "This is the rest", "This is a reasoning section"),
    ("minimax", "<think>\nThis is a reasoning section\n</think>\nThis is the rest",
     "This is the rest", "This is a reasoning section"),
    ("minimax", "<think>\nThis is a reasoning\nsection\n</think>\nThis is the rest\nThat",
     "This is the rest\nThat", "This is a reasoning\nsection"),
    ("minimax", "<think>\nHTML换行可以用<br>。\n</think>\nHTML用<br>换行",
     "HTML用<br>换行", "HTML换行可以用<br>。"),
    ("minimax-m3", "plan</mm:think>answer", "answer", "plan"),
    ("minimax-m3", "</mm:think>answer", "answer", ""),
    # DeepSeek-R1
    ("deepseek-r1", "abc</think>def", "def", "abc"),
    ("deepseek-r1", "<think>abc</think>def", "def", "abc"),
    # Qwen3 hybrid / thinking
    ("qwen3", "<think>abc</think>def", "def", "abc"),
    ("qwen3", "abc", "abc", None),
    ("qwen3-thinking", "abc</think>def", "def", "abc"),
    # Seed-OSS: the template opens the block; the model-card form echoes the opener (T6)
    ("seed-oss", "<seed:think>This is a reasoning section</seed:think>This is the rest",
     "This is the rest", "This is a reasoning section"),
    ("seed-oss", "plan<seed:tool_call>x</seed:tool_call>", "<seed:tool_call>x</seed:tool_call>",
     "plan"),
    # Kimi-K2, GLM-4.5
    ("kimi-k2", "<think>plan</think>answer", "answer", "plan"),
    ("glm-4.5", "<think>plan</think>answer", "answer", "plan"),
    # Hunyuan-A13B: the <answer> wrapper is removed with the whitespace inside it (F3)
    ("hunyuan", "<think>\nThis is a reasoning section\n</think>\n<answer>\nThis is the rest\n"
     "</answer>", "This is the rest", "This is a reasoning section"),
    # Cohere Command A Reasoning: the opener is in the template prefix or echoed
    ("command-a", "<|START_THINKING|> i will call foo<|END_THINKING|><|START_ACTION|>[]"
     "<|END_ACTION|>", "<|START_ACTION|>[]<|END_ACTION|>", "i will call foo"),
    ("command-a", "thinking<|END_THINKING|><|START_RESPONSE|>foo<|END_RESPONSE|>",
     "foo", "thinking"),
    ("command-a", "thinking<|START_TEXT|>foo<|END_TEXT|>", "foo", "thinking"),  # F2 + F3
    # Magistral and Kimi k1.5
    ("magistral", "[THINK]plan[/THINK]answer", "answer", "plan"),
    ("kimi", "◁think▷plan◁/think▷answer", "answer", "plan"),
]


@pytest.mark.parametrize(("preset", "text", "visible", "reasoning"), FAMILY_CASES)
def test_family_outputs(preset: str, text: str, visible: str, reasoning: Optional[str]) -> None:
    # presets: each preset reads its family's output, one-shot and streamed character by
    # character (S1)
    assert split_think(text, preset=preset) == Split(visible, reasoning)
    scanner = ThinkScanner(preset=preset)
    deltas = [scanner.feed(c) for c in text] + [scanner.close()]
    assert "".join(d.visible for d in deltas) == visible
    assert "".join(d.reasoning for d in deltas) == (reasoning or "")


def test_minimax_regression_exact() -> None:
    # presets: MiniMax M1 and M2 templates open <think>; the model writes only </think>
    assert split_think(
        "This is a reasoning section</think>This is the rest", preset="minimax"
    ) == Split("This is the rest", "This is a reasoning section")


def test_template_opened_presets() -> None:
    # F1: exactly the families whose default template opens the block start inside it
    opened = {name for name, opts in PRESETS.items() if opts.get("start_in_reasoning")}
    assert opened == {
        "deepseek-r1", "deepseek-v4", "qwen3-thinking", "glm-4.7", "ling-3", "kimi-k2.5",
        "kimi-k3", "minimax", "minimax-m3", "seed-oss", "hy-v4", "ernie-4.5", "step-3.5",
        "step-3", "olmo-3", "granite-thinking", "nemotron-3", "command-a", "apriel", "longcat",
        "solar-open-2", "plamo-3", "k2-horizon", "holo2", "gigachat-3.5", "iquest", "telechat",
        "pangu",
    }


# vLLM tests/reasoning/test_deepseekr1_reasoning_parser.py, non-streaming cases (content None
# is "" here; whitespace around the answer is trimmed, T9).
VLLM_R1 = [
    ("This is a reasoning section</think>This is the rest",
     "This is the rest", "This is a reasoning section"),
    ("This is a reasoning section</think>", "", "This is a reasoning section"),
    ("This is content", "", "This is content"),
    ("This\nThat</think>This is the rest\nThat", "This is the rest\nThat", "This\nThat"),
    ("</think>This is the rest", "This is the rest", ""),
    ("<think>This is a reasoning section</think>This is the rest",
     "This is the rest", "This is a reasoning section"),
    ("<think>This is a reasoning section", "", "This is a reasoning section"),
    ("", "", ""),
    ("\n<think>This is a reasoning section</think>\nThis is the rest",
     "This is the rest", "This is a reasoning section"),
]


@pytest.mark.parametrize("preset", [
    "deepseek-r1", "qwen3-thinking", "minimax", "glm-4.7", "kimi-k2.5", "deepseek-v4", "step-3",
    "olmo-3", "iquest", "holo2", "nemotron-3", "telechat",
])
@pytest.mark.parametrize(("text", "visible", "reasoning"), VLLM_R1)
def test_template_opened_presets_match_vllm_r1(
    preset: str, text: str, visible: str, reasoning: str
) -> None:
    # behaviour.md#presets: template-opened <think> presets read the peer's R1 cases the same way
    assert split_think(text, preset=preset) == Split(visible, reasoning)
    # vLLM's seed_oss tests are these cases with <seed:think>
    seed = text.replace("think>", "seed:think>")
    assert split_think(seed, preset="seed-oss") == Split(visible, reasoning)


@given(st.text(alphabet=st.characters(blacklist_characters="/"), max_size=40))
def test_case_and_prefix_do_not_matter(name: str) -> None:
    # P13: case-insensitive; an organisation or router prefix says nothing about the template
    assert preset_for_model(name.upper()) == preset_for_model(name.lower())
    assert preset_for_model("some-org/" + name) == preset_for_model(name)


# A bare "qwen3" is Ollama's tag; Hugging Face names carry the size ("qwen3-max" is an API model
# without inline markup, so the hybrid row wants "qwen3-<size>").
@given(st.sampled_from([n for n, p in NAMES if p is not None and n.strip() and n != "qwen3"]),
       st.sampled_from(["", "-awq", "-gguf", ":q4_k_m", "-fp8"]))
def test_quantisation_suffixes_keep_the_preset(name: str, suffix: str) -> None:
    # P13: a quantised build uses its base model's template
    assert preset_for_model(name + suffix) == preset_for_model(name)
