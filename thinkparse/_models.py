"""Model names to presets: which chat template a served model uses (see docs/behaviour.md#p13).

``preset_for_model`` maps a model name as servers report it (``"deepseek-ai/DeepSeek-R1-0528"``,
``"qwen3-235b-a22b-thinking-2507"``, ``"MiniMax-M2"``, ``"deepseek-r1:14b"`` from Ollama,
``"magistral-medium-latest"`` ...) to the name of a preset in ``thinkparse._presets.PRESETS``.

How a name is read: it is lowercased, and only the part after the last ``/`` counts (an
organisation, a hub path or a router prefix says nothing about the template). The rows of
``MODEL_PRESETS`` are tried in order and the first pattern matching the whole segment decides;
a row may decide ``None``: a near name of a reasoning model whose template emits no inline
reasoning markup (an instruct-only release, a hybrid whose mode is chosen per request), so that
a later, wider row does not claim it. docs/presets.md lists the same rows with their evidence.

Decisions where the rules are silent:

* Hosted APIs that return reasoning in a field of their own (``deepseek-reasoner``, ``qwen-plus``,
  ``o3``, ``claude-*``, ``gemini-*``) map to ``None``: their content carries no inline markup,
  and a template-opened preset would turn a plain answer into reasoning when streaming.
* Hybrid models whose thinking mode is a request option and whose template writes the opener
  into the prompt only in that mode (DeepSeek-V3.1 and later) map to ``None``: the name alone
  cannot tell whether the output starts inside a block.
* Distilled models use their teacher's template (``DeepSeek-R1-Distill-*`` -> ``deepseek-r1``).
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

__all__ = ["MODEL_PRESETS", "ModelRow", "preset_for_model"]


class ModelRow(NamedTuple):
    """One row of the model-name table."""

    #: Matched (``re.fullmatch``) against the lowercased last path segment of the name.
    pattern: re.Pattern[str]
    #: The preset, or ``None`` for a known name without inline reasoning markup.
    preset: Optional[str]
    #: Where the template's format comes from.
    source: str


#: What may follow a family name: nothing, or a separator and a size, date, quantisation or
#: Ollama tag ("-0528", "-distill-qwen-32b", ":14b", "-gguf:q4_k_m", ".1").
_TAIL = r"(?:[-.:_][a-z0-9.:_-]*)?"


def _row(pattern: str, preset: Optional[str], source: str) -> ModelRow:
    return ModelRow(re.compile(pattern), preset, source)


#: The model-name table, most specific rows first (the first match decides).
MODEL_PRESETS: tuple[ModelRow, ...] = (
    # --- DeepSeek ------------------------------------------------------------------------------
    _row(r"deepseek-r1" + _TAIL, "deepseek-r1",
         "DeepSeek-R1 model card, Usage Recommendations: the template ends with '<think>\\n'; "
         "the R1-Distill tokenizer configs carry the same template"),
    _row(r"(?:r1-1776|mai-ds-r1)" + _TAIL, "deepseek-r1",
         "Perplexity R1-1776 and Microsoft MAI-DS-R1 model cards: DeepSeek-R1 post-trained, "
         "with its template"),
    _row(r"deepseek-(?:v[0-9][a-z0-9.]*|chat|reasoner|coder)" + _TAIL, None,
         "DeepSeek-V3 writes no reasoning; V3.1+ are hybrids (the mode is a request option); "
         "the deepseek-reasoner API returns reasoning_content"),
    # --- Qwen ----------------------------------------------------------------------------------
    _row(r"qwq-32b-preview", None, "QwQ-32B-Preview model card: no think tags"),
    _row(r"qwq" + _TAIL, "qwen3-thinking",
         "QwQ-32B model card: the template injects '<think>\\n', the output holds '</think>'"),
    _row(r"qwen3[a-z0-9.:_-]*-thinking" + _TAIL, "qwen3-thinking",
         "Qwen3-235B-A22B-Thinking-2507 model card: the template injects '<think>', "
         "the output holds only '</think>'"),
    _row(r"qwen3[a-z0-9.:_-]*-(?:instruct|coder)" + _TAIL, None,
         "Qwen3-*-Instruct-2507 and Qwen3-Coder model cards: non-thinking releases"),
    _row(r"qwen3(?:-[0-9.]+b(?:-a[0-9.]+b)?(?:[-:_][a-z0-9.:_-]*)?|:[a-z0-9.:_-]+)?", "qwen3",
         "Qwen3 model card, Switching Between Thinking and Non-Thinking Mode: the model writes "
         "'<think>' and '</think>'"),
    # --- Mistral -------------------------------------------------------------------------------
    _row(r"magistral-[a-z]+-2506" + _TAIL, "generic",
         "Magistral 2506 system prompt: thinking in '<think>' ... '</think>' written as text"),
    _row(r"magistral" + _TAIL, "magistral",
         "Mistral docs, Reasoning: '[THINK]' / '[/THINK]' control tokens (2507 and later)"),
    # --- Moonshot ------------------------------------------------------------------------------
    _row(r"kimi-k2[a-z0-9.:_-]*-thinking" + _TAIL, "kimi-k2",
         "Kimi-K2-Thinking model card; SGLang KimiK2Detector: '<think>' ... '</think>'"),
    _row(r"kimi-k2(?:\.[0-9]+)?" + _TAIL, None,
         "Kimi-K2-Instruct model card: a non-thinking model"),
    _row(r"kimi-vl[a-z0-9.:_-]*-thinking" + _TAIL, "kimi",
         "Kimi-VL-A3B-Thinking model card: '◁think▷' ... '◁/think▷'"),
    _row(r"kimi-k1\.5" + _TAIL, "kimi", "Kimi k1.5 (SGLang KimiDetector): '◁think▷'"),
    # --- MiniMax -------------------------------------------------------------------------------
    _row(r"minimax-m3" + _TAIL, "minimax-m3",
         "SGLang MiniMaxM3Detector: the template consumes '<mm:think>' in thinking mode"),
    _row(r"minimax-m[12]" + _TAIL, "minimax",
         "MiniMax-M1/M2 templates open '<think>'; SGLang 'minimax' forces reasoning"),
    # --- Zhipu ---------------------------------------------------------------------------------
    _row(r"glm-4\.[56]v?" + _TAIL, "glm-4.5",
         "GLM-4.5 model card; SGLang Glm45Detector: the model writes '<think>' ... '</think>'"),
    # --- others --------------------------------------------------------------------------------
    _row(r"seed-oss" + _TAIL, "seed-oss",
         "Seed-OSS-36B model card: '<seed:think>' ... '</seed:think>' (contested, see "
         "docs/presets.md)"),
    _row(r"granite-3\.2" + _TAIL, "granite",
         "Granite 3.2 model card: 'Here is my thought process:' / 'Here is my response:'"),
    _row(r"hunyuan-a13b" + _TAIL, "hunyuan",
         "vLLM tests/reasoning/test_hunyuan_reasoning_parser.py: '<think>' ... '</think>' then "
         "'<answer>'"),
    _row(r"command-a-reasoning" + _TAIL, "command-a",
         "SGLang CohereCommand4Detector: the template opens '<|START_THINKING|>'"),
)


def preset_for_model(name: str) -> Optional[str]:
    """The preset whose chat template a model uses, from its name (see docs/behaviour.md#p13).

    Args:
        name: the model name as a server reports it; case does not matter, and only the part
            after the last ``/`` is read.

    Returns:
        A preset name (a key of ``thinkparse._presets.PRESETS``), or ``None`` when the name is not
        known or names a model whose output carries no inline reasoning markup.

    Raises:
        TypeError: ``name`` is not a ``str``.

    >>> preset_for_model("deepseek-ai/DeepSeek-R1-0528")
    'deepseek-r1'
    >>> preset_for_model("qwen3-235b-a22b-thinking-2507")
    'qwen3-thinking'
    >>> preset_for_model("Qwen3-235B-A22B-Instruct-2507") is None
    True
    """
    if not isinstance(name, str):
        raise TypeError(f"preset_for_model(): name must be a str, not {type(name).__name__}")
    base = name.strip().lower().rsplit("/", 1)[-1]
    if not base:
        return None
    for row in MODEL_PRESETS:
        if row.pattern.fullmatch(base):
            return row.preset
    return None
