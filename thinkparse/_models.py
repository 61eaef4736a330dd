"""Model names to presets: which reasoning format a served model writes (docs/behaviour.md#f5).

``preset_for_model`` maps a model name as users meet it -- a Hugging Face id with or without
its organisation and with quantisation or format suffixes (``Qwen/Qwen3.5-27B-FP8``,
``unsloth/Qwen3-14B-GGUF:Q4_K_M``, ``mlx-community/Olmo-3-7B-Think-4bit``), an Ollama tag
(``qwen3.5:27b``, ``deepseek-r1:latest``), an OpenRouter or LiteLLM id
(``deepseek/deepseek-v4-flash``, ``openrouter/moonshotai/kimi-k2.5``), a Bedrock id
(``us.deepseek.r1-v1:0``), a dated snapshot (``magistral-medium-2509``) -- to the name of a
preset in ``thinkparse._presets.PRESET_TABLE``.

How a name is read: it is lowercased; only the part after the last ``/`` counts (an
organisation, a hub path or a router prefix says nothing about the template); a Bedrock region
and vendor prefix (``us.``, ``deepseek.``, ``qwen.`` ...) is dropped, and a version written
with ``p`` for the dot (``glm-4p5``, ``kimi-k2p5``) is read with the dot.  A name that no row
matches and holds ``_`` is tried once more without what precedes the first ``_``
(``mistralai_Ministral-3-14B-Reasoning-2512-GGUF``, as some quantisers name repositories).
Then the rows of
:data:`MODEL_PRESETS` are tried in order and the first pattern matching the whole name decides:
first the rows of :data:`NO_INLINE_REASONING` (names near a reasoning family whose output
carries no inline reasoning markup, so that a wider row does not claim them), then each
preset's patterns in table order.  docs/presets.md lists the same rows.

Decisions where the rules are silent:

* Hosted APIs that return reasoning in a field of their own (``deepseek-reasoner``,
  ``qwen3.5-plus``, ``o3``, ``claude-*``, ``gemini-*``) map to ``None``: their content carries
  no inline markup, and a template-opened preset would turn a plain answer into reasoning when
  streaming.
* A family with thinking and non-thinking modes maps to its thinking form only where thinking is
  the family's default (F5); where it is off by default (DeepSeek-V3.1/V3.2, Hy3, EXAONE 4,
  MiMo, Laguna), the name maps to a preset that reads the text as it comes (tags the model
  writes) or to ``None``.
* Distilled models use their teacher's template (``DeepSeek-R1-Distill-*`` -> ``deepseek-r1``).
"""

from __future__ import annotations

import re
from typing import NamedTuple, Optional

from ._presets import PRESET_TABLE, TAIL

__all__ = ["MODEL_PRESETS", "NO_INLINE_REASONING", "ModelRow", "match_model", "preset_for_model"]


class ModelRow(NamedTuple):
    """One row of the model-name table."""

    #: Matched (``re.fullmatch``) against the normalised name.
    pattern: re.Pattern[str]
    #: The preset, or ``None`` for a known name without inline reasoning markup.
    preset: Optional[str]
    #: Where the row's fact comes from.
    source: str


T = TAIL

#: Names near a reasoning family whose output has no inline reasoning markup (tried first).
NO_INLINE_REASONING: tuple[tuple[str, str], ...] = (
    (rf"deepseek-(?:v[0-3](?:\.[0-9]+)?|chat|reasoner|coder|prover|ocr|math|vl[0-9]*|llm){T}",
     "DeepSeek-V3 writes no reasoning; V3.1/V3.2 are hybrids whose thinking is off by default; "
     "the deepseek-reasoner API returns reasoning_content"),
    (r"qwq-32b-preview", "QwQ-32B-Preview model card: no think tags"),
    (r"qwen3-[0-9.]+b(?:-a[0-9.]+b)?-2507(?:-v[0-9]+(?::[0-9]+)?)?",
     "Qwen3-*-2507 without '-Thinking' (as Bedrock names Instruct-2507): a non-thinking release"),
    (rf"qwen3[a-z0-9.:_-]*-(?:instruct|coder|embedding|reranker|tts|vl-[0-9a-z-]*instruct){T}",
     "Qwen3-*-Instruct-2507 and Qwen3-Coder model cards: non-thinking releases"),
    (r"kimi-k2(?:-instruct[a-z0-9.:_-]*|-[0-9]{4}[a-z0-9.:_-]*)?",
     "Kimi-K2-Instruct model card: a non-thinking model"),
    (rf"glm-[0-9.]+v-turbo{T}", "GLM-5V-Turbo: a vision model without reasoning markup"),
    (rf"(?:hunyuan-a13b-pretrain|hunyuanocr){T}", "Hunyuan base and OCR models"),
    (rf"mimo-[a-z0-9.-]*-base{T}", "MiMo base models: no chat template"),
    (r"[a-z0-9.-]*-base", "base (pretrained) models: no chat template"),
)


def _rows() -> tuple[ModelRow, ...]:
    rows = [ModelRow(re.compile(p), None, src) for p, src in NO_INLINE_REASONING]
    for preset in PRESET_TABLE:
        source = "; ".join(preset.sources)
        rows += [ModelRow(re.compile(p), preset.name, source) for p in preset.models]
    return tuple(rows)


#: The model-name table, in the order rows are tried (the first match decides).
MODEL_PRESETS: tuple[ModelRow, ...] = _rows()

_REGION = re.compile(r"^(?:(?:us|eu|apac|us-gov|global|jp|au|ca)\.)?([a-z_]+)\.(?=[a-z])")
_P_DOT = re.compile(r"(?<=[0-9])p(?=[0-9])")


def normalise_model_name(name: str) -> str:
    """The form of ``name`` the table is matched against (module docstring)."""
    base = name.strip().lower().rsplit("/", 1)[-1]
    m = _REGION.match(base)
    if m is not None:
        base = ("deepseek-" if m.group(1) == "deepseek" else "") + base[m.end():]
    return _P_DOT.sub(".", base)


def match_model(name: str) -> Optional[ModelRow]:
    """The row of :data:`MODEL_PRESETS` that decides ``name``, or ``None`` when no row matches.

    Raises:
        TypeError: ``name`` is not a ``str``.
    """
    if not isinstance(name, str):
        raise TypeError(f"preset_for_model(): name must be a str, not {type(name).__name__}")
    base = normalise_model_name(name)
    tries = (base, base.split("_", 1)[1]) if "_" in base else (base,)
    for candidate in tries:  # "org_model" (as some quantisers name their repositories)
        for row in MODEL_PRESETS:
            if candidate and row.pattern.fullmatch(candidate):
                return row
    return None


def preset_for_model(name: str) -> Optional[str]:
    """The preset whose format a model writes, from its name (see docs/behaviour.md#f5).

    Args:
        name: the model name as a server, a hub, Ollama or a router reports it; case does not
            matter, and only the part after the last ``/`` is read.

    Returns:
        A preset name (a key of ``thinkparse._presets.PRESETS``), or ``None`` when the name is not
        known or names a model whose output carries no inline reasoning markup.

    Raises:
        TypeError: ``name`` is not a ``str``.

    >>> preset_for_model("deepseek-ai/DeepSeek-R1-0528")
    'deepseek-r1'
    >>> preset_for_model("qwen3.5:27b")
    'qwen3-thinking'
    >>> preset_for_model("Qwen3-235B-A22B-Instruct-2507") is None
    True
    """
    row = match_model(name)
    return row.preset if row is not None else None
