"""Model-family presets: scanner options for what each family's chat template and model emit.

:data:`PRESETS` is the table (docs/behaviour.md#presets; docs/presets.md has the same evidence
as a table, with the model names of each preset), :data:`PresetName` its names for type checkers
and :data:`PRESET_NAMES` its names at run time.  Options are checked where they are used
(:func:`thinkparse._spec.resolve_options`), so a preset is written exactly as a caller would
write the same options.
"""

from __future__ import annotations

from typing import Any, Literal

#: The names of :data:`PRESETS`, for type checkers; a test keeps the two equal.
PresetName = Literal[
    "deepseek-r1",
    "qwen3",
    "qwen3-thinking",
    "magistral",
    "kimi",
    "kimi-k2",
    "minimax",
    "minimax-m3",
    "claude-text",
    "generic",
    "seed-oss",
    "granite",
    "glm-4.5",
    "hunyuan",
    "command-a",
]

# --- presets (behaviour.md#presets) -----------------------------------------------------
# Each entry cites what the model family's chat template and the model emit, and how vLLM's and
# SGLang's reasoning parsers for that family read it (vllm-project/vllm ``vllm/reasoning/`` and
# ``tests/reasoning/``; sgl-project/sglang ``python/sglang/srt/parser/reasoning_parser.py``).
# docs/presets.md holds the same evidence as a table, with the model names of each preset.
# "Template-opened" families get start_in_reasoning=True: the prompt ends with the opener, the
# model writes only the closer; an opener the model echoes anyway is absorbed (T6).
PRESETS: dict[str, dict[str, Any]] = {
    # DeepSeek-R1 (and its distills): the chat template ends the prompt with "<think>\n"; the
    # model writes the reasoning and "</think>" (DeepSeek-R1 model card, "Usage
    # Recommendations"). SGLang DeepSeekR1Detector: force_reasoning=True; vLLM
    # tests/reasoning/test_deepseekr1_reasoning_parser.py: "abc</think>def" splits.
    "deepseek-r1": {"tags": ("think",), "start_in_reasoning": True},
    # Qwen3 hybrid models emit "<think>" and "</think>" themselves (Qwen3 model card,
    # "Switching Between Thinking and Non-Thinking Mode"). SGLang Qwen3Detector:
    # force_reasoning=False.
    "qwen3": {"tags": ("think",)},
    # Qwen3 thinking-only releases (Qwen3-*-Thinking-2507, QwQ-32B): the template injects
    # "<think>", the output holds only "</think>" (Qwen3-235B-A22B-Thinking-2507 model card:
    # "output ... only </think>"). SGLang maps "qwen3-thinking" to force_reasoning=True.
    "qwen3-thinking": {"tags": ("think",), "start_in_reasoning": True},
    # Magistral (2507 and later), Mistral Small 4 reasoning: "[THINK]" / "[/THINK]" control
    # tokens written by the model (Mistral docs, "Reasoning"; SGLang MistralDetector,
    # force_reasoning=False; vLLM tests/reasoning/test_mistral_reasoning_parser.py).
    "magistral": {"delimiters": (("[THINK]", "[/THINK]"),)},
    # Kimi k1.5 / Kimi-VL-Thinking: "◁think▷ ... ◁/think▷" written by the model
    # (Kimi-VL-A3B-Thinking model card; SGLang KimiDetector, force_reasoning=False).
    "kimi": {"delimiters": (("◁think▷", "◁/think▷"),)},
    # Kimi-K2-Thinking: "<think> ... </think>" written by the model (SGLang KimiK2Detector,
    # force_reasoning=False; vLLM vllm/reasoning/kimi_k2_reasoning_parser.py).
    "kimi-k2": {"tags": ("think",)},
    # MiniMax-M1 / M2: the templates open the block, the model writes the reasoning and only
    # "</think>". SGLang maps "minimax" to force_reasoning=True (and ships
    # "minimax-append-think", which prepends the missing "<think>"); vLLM's minimax_m2 parser
    # likewise treats text before "</think>" as reasoning. vLLM's minimax_m1 tests also show
    # outputs that echo "<think>", which T6 absorbs.
    "minimax": {"tags": ("think",), "start_in_reasoning": True},
    # MiniMax-M3 thinking mode: "<mm:think> ... </mm:think>"; the template consumes the opener,
    # the output holds only "</mm:think>" (SGLang MiniMaxM3Detector: force_reasoning when
    # thinking_mode is enabled; a stray leading "</mm:think>" in non-thinking replies becomes an
    # empty block).
    "minimax-m3": {"tags": ("mm:think",), "start_in_reasoning": True},
    # Claude asked to think in text: "<thinking>" tags (Anthropic prompt-engineering guide,
    # "Let Claude think").
    "claude-text": {"tags": ("thinking",)},
    # A catch-all for the common names.
    "generic": {"tags": ("think", "thinking", "thought", "reasoning")},
    # ByteDance Seed-OSS: "<seed:think> ... </seed:think>". Contested: the Seed-OSS-36B model
    # card shows outputs that begin with "<seed:think>" written by the model, while vLLM's
    # seed_oss parser tests treat "reasoning</seed:think>answer" (no opener) as the typical
    # output and text without tags as reasoning. The preset follows the model card; pass
    # start_in_reasoning=True for servers whose template injects the opener.
    "seed-oss": {"tags": ("seed:think",)},
    # IBM Granite 3.2: plain-text markers (Granite 3.2 model card; vLLM "granite" reasoning
    # parser and tests/reasoning/test_granite_reasoning_parser.py accept both spellings).
    "granite": {
        "delimiters": (
            ("Here is my thought process:", "Here is my response:"),
            ("Here's my thought process:", "Here's my response:"),
        )
    },
    # GLM-4.5 / GLM-4.6: "<think> ... </think>" emitted by the model (SGLang Glm45Detector,
    # force_reasoning=False; vLLM tests/reasoning/test_glm4_moe_reasoning_parser.py).
    "glm-4.5": {"tags": ("think",)},
    # Tencent Hunyuan-A13B: "<think>\n...\n</think>\n<answer>\n...\n</answer>" written by the
    # model (vLLM tests/reasoning/test_hunyuan_reasoning_parser.py; SGLang HunyuanDetector,
    # force_reasoning=False). The "<answer>" wrapper is not reasoning and stays visible.
    "hunyuan": {"tags": ("think",)},
    # Cohere Command A Reasoning: "<|START_THINKING|> ... <|END_THINKING|>" then
    # "<|START_TEXT|>" / "<|START_RESPONSE|>" answer markers, which stay visible. SGLang
    # CohereCommand4Detector: the template's assistant prefix already holds the opener
    # (force_reasoning=True); vLLM's cohere_command tests show outputs that echo it (T6).
    "command-a": {
        "delimiters": (("<|START_THINKING|>", "<|END_THINKING|>"),),
        "start_in_reasoning": True,
    },
}


#: Peer parser names (vLLM's and SGLang's reasoning parsers) -> preset names (F1).
PRESET_ALIASES: dict[str, str] = {}

#: The preset names, in table order.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
