"""Model-family presets: one row per reasoning format family (docs/behaviour.md#f1).

:data:`PRESET_TABLE` is the table: each :class:`Preset` row holds the scanner options of one
format family (tags or delimiters, start mode, terminators F2, answer wrappers F3, or a channel
scanner F6), the peer parser names that select it (``PRESET_ALIASES``: vLLM's reasoning-parser
registry and SGLang's ``DetectorMap`` / ``reasoning_parser_names.py``, exactly as spelled there),
the model-name patterns that select it (F5, read by ``thinkparse._models``), and the source of
every fact.  docs/presets.md is generated from it (``docs/gen_presets.py``; a test keeps the two
equal).  Options are checked where they are used (``thinkparse._config.resolve_options``), so a
preset is written exactly as a caller would write the same options.

Sources are cited as ``vLLM <file>@<commit>`` (``vllm-project/vllm``, ``vllm/reasoning/`` and
``vllm/frontend/processing/reasoning/``; tests in ``tests/reasoning/`` and ``tests/parser/``),
``SGLang <file>@<commit>`` (``sgl-project/sglang``, ``python/sglang/srt/parser/``), or a model
card / chat template.

Decisions where the rules are silent:

* **A preset is a family's default mode.**  ``start_in_reasoning=True`` where the family's
  template opens the block in its default mode (the model writes only the closer; an opener it
  writes anyway is absorbed, T6); ``False`` where the model writes the opener, or where thinking
  is off by default.  Where vLLM and SGLang disagree on a parser name's start mode, the model
  card or chat template decides; ``prompt=`` (F4) settles it per request.
* **Families that share a format still get a row each** (their sources and models differ), and
  a peer name that reads another family's format is an alias of that family's row.
* **Alias names that equal a preset name are that preset** (``qwen3``, ``minimax``, ``kimi``,
  ``granite``, ``hunyuan``): the preset keeps its documented meaning.
"""

from __future__ import annotations

from typing import Any, Literal, NamedTuple

#: What may follow a family name in a model name: nothing, or a separator and a size, date,
#: quantisation or tag ("-0528", "-distill-qwen-32b", ":14b", "-gguf:q4_k_m", ".1").
TAIL = r"(?:[-.:_][a-z0-9.:_-]*)?"
T = TAIL

THINK = ("think",)
#: DeepSeek-V4's tool-call block opener (the bars are U+FF5C FULLWIDTH VERTICAL LINE).
DSML = "<\uff5cDSML\uff5ctool_calls>"
TOOL_CALL = ("<tool_call>",)
V = "vLLM"
S = "SGLang reasoning_parser.py@526f6905"


class Preset(NamedTuple):
    """One format family: its scanner options and the evidence for them."""

    #: The preset's name (``preset="..."``).
    name: str
    #: The scanner options it fills in.
    options: dict[str, Any]
    #: The model families that write this format.
    families: str
    #: Peer parser names that select it (``PRESET_ALIASES``).
    aliases: tuple[str, ...]
    #: Model-name patterns (``re.fullmatch`` on the normalised name, F5).
    models: tuple[str, ...]
    #: Where each fact comes from.
    sources: tuple[str, ...]
    #: Where the preset reads the text differently from the peer parsers, and why.
    differences: tuple[str, ...] = ()


def _p(name: str, options: dict[str, Any], families: str, aliases: tuple[str, ...],
       models: tuple[str, ...], sources: tuple[str, ...],
       differences: tuple[str, ...] = ()) -> Preset:
    return Preset(name, options, families, aliases, models, sources, differences)


#: The presets, in the order model names are tried (more specific rows first).
PRESET_TABLE: tuple[Preset, ...] = (
    _p("deepseek-r1", {"tags": THINK, "start_in_reasoning": True},
       "DeepSeek-R1, R1-0528, R1 distills, MAI-DS-R1, R1-1776", ("deepseek_r1", "deepseek-r1"),
       (rf"deepseek-r1{T}", rf"(?:r1-1776|mai-ds-r1){T}",
        rf"(?:nvidia-)?nemotron-nano-[0-9.]+b-v2{T}"),
       ("DeepSeek-R1 model card, Usage Recommendations: the template ends with '<think>\\n'",
        f"{S}: DeepSeekR1Detector, force_reasoning always True, opener optional (R1-0528)",
        f"{V} deepseek_r1_reasoning_parser.py@761f1975: text before '</think>' is reasoning",
        "NVIDIA-Nemotron-Nano-9B-v2 chat template: the generation prompt ends with '<think>\\n'")),
    _p("deepseek-v3", {"tags": THINK},
       "DeepSeek-V3.1, V3.2 (hybrid; thinking off by default)",
       ("deepseek_v3", "deepseek-v3", "deepseek_v31"), (),
       (f"{V} deepseek_v3_reasoning_parser.py@055e47c2: thinking/enable_thinking default off, "
        "the output is then all content; on, the template opens '<think>'",
        f"{S}: _DeepSeekV3Detector, reasoning only with thinking=True"),
       ("Thinking mode: pass prompt= (F4) or start_in_reasoning=True, as the peers do from "
        "the request's thinking flag.",)),
    _p("deepseek-v4", {"tags": THINK, "start_in_reasoning": True,
                       "terminators": (DSML,)},
       "DeepSeek-V4, V4.1", ("deepseek_v4", "deepseek-v4", "deepseek_v41", "deepseek-v41"),
       (rf"deepseek-v4(?:\.[0-9]+)?{T}",),
       (f"{V} deepseek_v4_engine_reasoning_parser.py@055e47c2: starts in reasoning unless "
        "thinking is off; '<\uff5cDSML\uff5ctool_calls>' ends reasoning and stays in the content",
        f"{S}: DeepSeekV4Detector, the DSV4 encoding appends '<think>' in thinking mode")),
    _p("qwen3-thinking", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "Qwen3 Thinking-2507, Qwen3-Next Thinking, QwQ-32B, Qwen3.5, Qwen3.6 and later",
       ("qwen3-thinking", "qwen3_engine", "kolibri1", "berrylm"),
       (rf"qwq{T}", rf"qwen3[a-z0-9.:_-]*-thinking{T}",
        r"qwen3\.[5-9](?:-[0-9.]+b(?:-a[0-9.]+b)?)?(?:[-:_](?!plus|max|flash|turbo)[a-z0-9.:_-]*)?"),
       ("Qwen3-235B-A22B-Thinking-2507 model card: the template opens '<think>'",
        "Qwen3.5 chat template: enable_thinking on by default, the prompt ends with '<think>\\n'",
        f"{V} qwen3_engine_reasoning_parser.py@055e47c2: initial state reasoning; '<tool_call>' "
        "ends reasoning and stays in the content",
        f"{S}: 'qwen3-thinking' forces reasoning; Qwen3Detector tool_start_token '<tool_call>'")),
    _p("qwen3", {"tags": THINK, "terminators": TOOL_CALL},
       "Qwen3 hybrid (2504), dots, Nanbeige", ("qwen3", "dots", "nanbeige"),
       (r"qwen3(?:-[0-9.]+b(?:-a[0-9.]+b)?(?:[-:_][a-z0-9.:_-]*)?|:[a-z0-9.:_-]+)?",),
       ("Qwen3 model card, Switching Between Thinking and Non-Thinking Mode: the model writes "
        "'<think>' and '</think>'",
        f"{S}: Qwen3Detector force_reasoning=False, '<tool_call>' ends reasoning"),
       ("vLLM's 'qwen3' engine starts in reasoning (thinking on by default); this preset "
        "follows the Qwen3 model card and SGLang. Use 'qwen3-thinking' or prompt= for "
        "template-opened output.",)),
    _p("glm-4.7", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "GLM-4.7, GLM-5 and later", ("glm47", "glm"),
       (rf"glm-(?:4\.7|5)(?:\.[0-9]+)?{T}",),
       (f"{V} glm47_moe_reasoning_parser.py@761f1975: thinking on by default, initial state "
        "reasoning; '<tool_call>' ends reasoning",
        "GLM-5 chat template: the generation prompt ends with '<think>' in thinking mode")),
    _p("glm-4.5", {"tags": THINK, "terminators": TOOL_CALL},
       "GLM-4.5, GLM-4.5-Air, GLM-4.5V, GLM-4.6", ("glm45",),
       (rf"glm-4\.[56]v?{T}",),
       ("GLM-4.5 model card: the model writes '<think>' ... '</think>'",
        f"{S}: Glm45Detector force_reasoning=False, tool_start_token '<tool_call>'"),
       ("vLLM maps 'glm45' to the GLM-4.7 engine, which starts in reasoning; GLM-4.5 and 4.6 "
        "write their opener, as SGLang reads them.",)),
    _p("ling-3", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "inclusionAI Ling-3", ("ling3",), (rf"ling-3(?:\.[0-9]+)?{T}",),
       (f"{V} ling3_reasoning_parser.py@761f1975: the GLM-4.7 engine, thinking on by default",
        f"{S}: Ling3Detector, the template defaults thinking on")),
    _p("magistral", {"delimiters": (("[THINK]", "[/THINK]"),), "terminators": ("[TOOL_CALLS]",)},
       "Magistral 2507+, Mistral Small 4, Mistral Medium 3.5, Ministral-3 Reasoning",
       ("mistral",),
       (rf"magistral(?!-[a-z]+-2506){T}", rf"mistral-small-(?:4|2603){T}",
        rf"mistral-medium-3[.-]5{T}",
        rf"ministral-3-[0-9]+b-reasoning{T}"),
       ("Mistral docs, Reasoning: '[THINK]' / '[/THINK]' control tokens written by the model",
        f"{V} mistral_reasoning_parser.py@055e47c2: initial state content, '[TOOL_CALLS]' ends "
        "reasoning", f"{S}: MistralDetector force_reasoning=False")),
    _p("kimi", {"delimiters": (("◁think▷", "◁/think▷"),)},
       "Kimi k1.5, Kimi-VL Thinking", ("kimi",),
       (rf"kimi-vl[a-z0-9.:_-]*-thinking{T}", rf"kimi-k1\.5{T}"),
       ("Kimi-VL-A3B-Thinking model card: '◁think▷' ... '◁/think▷'",
        f"{S}: KimiDetector force_reasoning always False")),
    _p("kimi-k2.5", {"tags": THINK, "start_in_reasoning": True,
                     "terminators": ("<|tool_calls_section_begin|>",)},
       "Kimi-K2.5, Kimi-K2.6", ("kimi_k25",), (rf"kimi-k2\.[5-9]{T}",),
       (f"{V} kimi_k25_reasoning_parser.py@229ad0da: thinking forced on, DeepSeek-R1 reading",
        f"{V} kimi_k2_reasoning_parser.py@055e47c2: '<|tool_calls_section_begin|>' ends "
        "reasoning")),
    _p("kimi-k2", {"tags": THINK, "terminators": ("<|tool_calls_section_begin|>",)},
       "Kimi-K2-Thinking", ("kimi_k2",), (rf"kimi-k2[a-z0-9.:_-]*-thinking{T}",),
       ("Kimi-K2-Thinking chat template: the model writes '<think>'",
        f"{S}: KimiK2Detector force_reasoning=False, tool_start_token "
        "'<|tool_calls_section_begin|>'"),
       ("vLLM's 'kimi_k2' engine starts in reasoning (for Kimi-K2.5, preset 'kimi-k2.5').",)),
    _p("kimi-k3", {"delimiters": (("<|open|>think<|sep|>", "<|close|>think<|sep|>"),),
                   "start_in_reasoning": True,
                   "terminators": ("<|open|>response<|sep|>", "<|open|>tools<|sep|>"),
                   "answer": (("<|open|>response<|sep|>", "<|close|>response<|sep|>"),
                              ("<|open|>message<|sep|>", "<|close|>message<|sep|>"))},
       "Kimi-K3 (XTML channels)", ("kimi_k3",), (rf"kimi-k3(?:\.[0-9]+)?{T}",),
       (f"{V} kimi_k3_reasoning_parser.py@055e47c2: think channel, response channel unwrapped, "
        "'<|close|>message<|sep|>' removed, thinking on by default",
        f"{S}: KimiK3Detector force_reasoning=True; the response and tools channels end "
        "reasoning; the tools channel stays raw"),
       ("The message channel's opener carries attributes in the prompt; only its closer can "
        "appear in output, and it is removed.",)),
    _p("minimax", {"tags": THINK, "start_in_reasoning": True,
                   "terminators": ("<minimax:tool_call>",)},
       "MiniMax-M1, MiniMax-M2, M2.1, M2.5",
       ("minimax", "minimax_m2", "minimax_m2_sanitized", "minimax_m1", "minimax-append-think",
        "minimax_m2_append_think"),
       (rf"minimax-m[12](?:\.[0-9]+)?{T}",),
       ("MiniMax-M2 chat template: the generation prompt ends with '<think>\\n'",
        f"{V} minimax_m2_reasoning_parser.py@055e47c2: always starts in reasoning; "
        "'<minimax:tool_call>' ends it", f"{S}: 'minimax' forces reasoning"),
       ("The append-think parsers return '<think>' + output as content; this preset splits "
        "that content.",)),
    _p("minimax-m3", {"tags": ("mm:think",), "start_in_reasoning": True},
       "MiniMax-M3 (thinking mode)", ("minimax_m3", "minimax-m3"),
       (rf"minimax-m3(?:\.[0-9]+)?{T}",),
       (f"{S}: MiniMaxM3Detector, the template consumes '<mm:think>' when thinking_mode is "
        "enabled", f"{V} minimax_m3_reasoning_parser.py@055e47c2: a leading stray "
        "'</mm:think>' is dropped")),
    _p("seed-oss", {"tags": ("seed:think",), "start_in_reasoning": True,
                    "terminators": ("<seed:tool_call>",)},
       "ByteDance Seed-OSS-36B", ("seed_oss",), (rf"seed-oss{T}",),
       (f"{V} seed_oss_engine_reasoning_parser.py@055e47c2: the template opens '<seed:think>' "
        "(initial state reasoning); '<seed:tool_call>' ends it",
        "Seed-OSS model card: outputs may also begin with '<seed:think>' (absorbed, T6)")),
    _p("hunyuan", {"tags": THINK, "terminators": ("<tool_calls>",),
                   "answer": (("<answer>", "</answer>"),)},
       "Tencent Hunyuan-A13B, Hunyuan dense models", ("hunyuan", "hunyuan_a13b"),
       (rf"hunyuan-(?:a13b|[0-9.]+b){T}",),
       (f"{V} hunyuan_a13b_reasoning_parser.py@055e47c2: '<think>\\n...\\n</think>\\n<answer>\\n"
        "...\\n</answer>' written by the model", f"{S}: HunyuanDetector tool_start_token "
        "'<tool_calls>'"),
       ("Checkpoint-suffixed markers ('<think:SUFFIX>') are not read; pass "
        "tags=('think:SUFFIX',).",)),
    _p("hy-v3", {"tags": THINK, "terminators": ("<tool_calls>",)},
       "Tencent Hy3 (thinking off by default)", ("hy_v3",), (rf"hy3{T}",),
       (f"{V} hy_v3_reasoning_parser.py@055e47c2: reasoning_effort defaults to 'no_think'",
        f"{S}: HunyuanDetector (Hy3 runs as 'hunyuan'), '<tool_calls>'")),
    _p("hy-v4", {"tags": THINK, "start_in_reasoning": True, "terminators": ("<tool_calls>",)},
       "Tencent HY v4", ("hy_v4",), (),
       (f"{V} hy_v4_reasoning_parser.py@055e47c2: reasoning_effort defaults to 'high'; the "
        "template injects '<think>'",)),
    _p("ernie-4.5", {"tags": THINK, "start_in_reasoning": True,
                     "answer": (("<response>", "</response>"),)},
       "Baidu ERNIE-4.5 Thinking", ("ernie45",),
       (rf"ernie-4\.5-[a-z0-9.-]*thinking{T}",),
       (f"{V} ernie45_reasoning_parser.py@b59bccae: template-opened '<think>', the answer "
        "wrapped in '<response>' ... '</response>'",)),
    _p("step-3.5", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "StepFun Step-3.5, Step-3.7", ("step3p5",),
       (rf"step-?(?:3\.[5-9]|[4-9](?:\.[0-9]+)?){T}",),
       (f"{V} step3p5_reasoning_parser.py@b59bccae: opener-less text is reasoning",
        "Step-3.5-Flash chat template: tool calls '<tool_call>' with '<function=...>'")),
    _p("step-3", {"tags": THINK, "start_in_reasoning": True}, "StepFun Step-3", ("step3",),
       (rf"step-?3{T}",),
       (f"{V} step3_reasoning_parser.py@055e47c2: everything before '</think>' is reasoning",
        f"{S}: 'step3' reads as DeepSeekR1Detector"),
       ("vLLM keeps a leading '<think>' inside the reasoning; it is absorbed here (T6).",)),
    _p("olmo-3", {"tags": THINK, "start_in_reasoning": True}, "AllenAI Olmo-3 Think",
       ("olmo3",), (rf"olmo-3(?:\.[0-9]+)?-[a-z0-9.-]*think{T}",),
       (f"{V} olmo3_reasoning_parser.py@055e47c2: streaming starts in reasoning, '<think>' "
        "optional at the start",),
       ("vLLM's one-shot reading needs '</think>' (no closer: all content); its streaming "
        "reading starts in reasoning, as this preset does (S1).",)),
    _p("granite", {"delimiters": (("Here is my thought process:", "Here is my response:"),
                                  ("Here's my thought process:", "Here's my response:"))},
       "IBM Granite 3.2", ("granite",), (rf"granite-?3\.2{T}",),
       ("Granite 3.2 model card: 'Here is my thought process:' / 'Here is my response:'",
        f"{V} granite_reasoning_parser.py@055e47c2: both spellings")),
    _p("granite-thinking", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "IBM Granite 4 thinking models", ("granite_thinking_parser",), (),
       (f"{V} granite_thinking_engine_reasoning_parser.py@efb02894: starts in reasoning",
        f"{S}: GraniteThinkingDetector tool_start_token '<tool_call>'")),
    _p("nemotron-3", {"tags": THINK, "start_in_reasoning": True, "terminators": TOOL_CALL},
       "NVIDIA Nemotron-3 Nano, Super, Ultra; Nemotron-3.5", ("nemotron_v3", "nemotron_3",
                                                            "nano_v3"),
       (rf"(?:nvidia-)?nemotron-3(?:\.[0-9]+)?{T}", rf"nemotron-(?:nano|super|ultra)-3{T}"),
       (f"{V} nemotron_v3_engine_reasoning_parser.py@761f1975: the Qwen3 engine, thinking on "
        "by default", f"{S}: Nemotron3Detector tool_start_token '<tool_call>'")),
    _p("command-a", {"delimiters": (("<|START_THINKING|>", "<|END_THINKING|>"),),
                     "start_in_reasoning": True,
                     "terminators": ("<|START_RESPONSE|>", "<|START_TEXT|>", "<|START_ACTION|>"),
                     "answer": (("<|START_RESPONSE|>", "<|END_RESPONSE|>"),
                                ("<|START_TEXT|>", "<|END_TEXT|>"))},
       "Cohere Command A Reasoning, Command A Plus",
       ("cohere_command3", "cohere_command4"),
       (rf"(?:cohere-)?command-a-(?:reasoning|plus){T}",),
       (f"{S}: CohereCommand4Detector force_reasoning=True; '<|START_TEXT|>' / "
        "'<|START_ACTION|>' end reasoning; the answer unwrapped from '<|START_TEXT|>'",
        f"{V} cohere_command_reasoning_parser.py@055e47c2: Command 3 wraps the answer in "
        "'<|START_RESPONSE|>' ... '<|END_RESPONSE|>'")),
    _p("gemma-4", {"delimiters": (("<|channel>thought", "<channel|>"),),
                   "terminators": ("<|tool_call>",)},
       "Google Gemma 4 (thinking opt-in)", ("gemma4",), (rf"gemma-4{T}",),
       (f"{S}: Gemma4Detector, opener '<|channel>' + 'thought\\n', closer '<channel|>'",
        f"{V} gemma4_engine_reasoning_parser.py@055e47c2: initial state content; '<|tool_call>' "
        "ends reasoning; a prompt ending inside an open channel starts in reasoning (F4)")),
    _p("gpt-oss", {"channel": "harmony"}, "OpenAI gpt-oss (harmony channels)",
       ("openai_gptoss", "gpt-oss"), (rf"gpt-oss{T}",),
       (f"{V} gptoss_reasoning_parser.py@055e47c2: analysis channel = reasoning, final = answer",
        f"{S}: GptOssDetector")),
    _p("mimo", {"tags": THINK, "terminators": TOOL_CALL}, "Xiaomi MiMo", ("mimo",),
       (r"mimo-(?:7b-rl|v[0-9])[a-z0-9.:_-]*",),
       (f"{S}: _MimoDetector, reasoning only with enable_thinking=True (off by default)",
        "MiMo-7B-RL model card: the model writes '<think>'")),
    _p("intern-s1", {"tags": THINK, "terminators": ("<|action_start|>",)}, "Intern-S1",
       ("interns1", "intern-s1"), (rf"intern-?s1{T}",),
       (f"{S}: 'interns1' reads as Qwen3Detector", f"{V} intern_s1_reasoning_parser.py@0b871025:"
        " '<|action_start|>' blocks move from reasoning to content")),
    _p("poolside", {"tags": THINK, "terminators": TOOL_CALL}, "poolside Laguna",
       ("poolside_v1",), (r"laguna-[a-z0-9.:_-]+",),
       (f"{S}: _PoolsideV1Detector, thinking opt-in (enable_thinking defaults off)",
        f"{V} poolside_v1_reasoning_parser.py@055e47c2: the DeepSeek-V3 reading")),
    _p("apriel", {"delimiters": (("Here are my reasoning steps:", "[BEGIN FINAL RESPONSE]"),),
                  "start_in_reasoning": True, "terminators": ("[BEGIN FINAL RESPONSE]",),
                  "answer": (("[BEGIN FINAL RESPONSE]", "[END FINAL RESPONSE]"),)},
       "ServiceNow Apriel Thinker", (), (rf"apriel-[a-z0-9.-]*thinker{T}",),
       ("Apriel-1.6-15b-Thinker chat template: the prompt ends with 'Here are my reasoning "
        "steps:\\n'; the answer follows '[BEGIN FINAL RESPONSE]'",)),
    _p("longcat", {"tags": ("longcat_think",), "start_in_reasoning": True},
       "Meituan LongCat Thinking", ("longcat",), (rf"longcat-[a-z0-9.-]*thinking{T}",),
       (f"{V} longcat_reasoning_parser.py@86c6857c: '<longcat_think>' in the prompt",)),
    _p("solar-open-2", {"delimiters": (("<|think:start|>", "<|think:end|>"),),
                        "start_in_reasoning": True, "terminators": ("<|tool_call:start|>",)},
       "Upstage Solar Open 2", ("solar_open2",), (rf"solar-open2?{T}",),
       (f"{V} solar_open2_reasoning_parser.py@c6cdf911: the template prefills "
        "'<|think:start|>'; '<|tool_call:start|>' ends reasoning when streaming",)),
    _p("plamo-3", {"delimiters": (("<|plamo:begin_think:plamo|>", "<|plamo:end_think:plamo|>"),),
                   "start_in_reasoning": True},
       "PFN PLaMo-3", ("plamo3",), (),
       (f"{V} plamo3_reasoning_parser.py@3febd520: enable_thinking on by default, opener-less "
        "output is reasoning",),
       ("vLLM drops text after '<|plamo:tag|>'; it stays visible here.",)),
    _p("apertus", {"delimiters": (("<|inner_prefix|>", "<|inner_suffix|>"),),
                   "terminators": ("<|tools_prefix|>",)},
       "Swiss AI Apertus", ("apertus", "apertus2509"), (rf"apertus{T}",),
       (f"{S}: Apertus2509Detector force_reasoning=False; '<|tools_prefix|>' calls inside "
        "reasoning belong to the content", f"{V} apertus_reasoning_parser.py@23232cfa")),
    _p("k2-horizon", {"delimiters": (("<ifm|think>", "</ifm|think>"),
                                     ("<ifm|think_fast>", "</ifm|think_fast>"),
                                     ("<ifm|think_faster>", "</ifm|think_faster>")),
                      "start_in_reasoning": True, "terminators": ("<ifm|tool_call",)},
       "LLM360 K2 Horizon", ("k2_horizon",), (),
       (f"{S}: K2V3Detector, always starts in reasoning; '<ifm|tool_call' ends it",
        f"{V} k2_horizon_reasoning_parser.py@90fb4adc: three effort-specific marker pairs")),
    _p("muse", {"delimiters": (("to=self<|message|>", "<|eom|>"),),
                "terminators": ("<atem:function_calls>", "<atem:invoke"),
                "answer": (("<|start|>assistant", "<|eot|>"), ("<|start|>", "<|end|>"),
                           ("to=user<|message|>", "<|eot|>"))},
       "Muse Glimmer (channels by recipient)", ("muse", "muse_glimmer"), (),
       (f"{S}: MuseGlimmerDetector, 'to=self' bodies are reasoning, 'to=user' the answer",
        f"{V} muse_glimmer_reasoning_parser.py@055e47c2: '<atem:function_calls>' ends "
        "reasoning"),
       ("Blocks are joined with a blank line (T9), not one newline; other recipients keep "
        "their body but lose '<|start|>' and '<|eom|>'.",)),
    _p("inkling", {"delimiters": (("<|content_thinking|>", "<|end_message|>"),),
                   "terminators": ("<|content_invoke_tool_json|>",
                                   "<|content_model_end_sampling|>"),
                   "answer": (("<|content_text|>", "<|end_message|>"),
                              ("<|message_model|>", "<|content_model_end_sampling|>"))},
       "Thinking Machines Inkling", ("inkling",), (rf"inkling{T}",),
       (f"{V} inkling_reasoning_parser.py@761f1975: typed blocks, '<|content_thinking|>' is "
        "reasoning, '<|content_text|>' the answer", f"{S}: InklingDetector"),
       ("Tool blocks stay in the visible text for a tool parser.",)),
    _p("holo2", {"tags": THINK, "start_in_reasoning": True}, "H company Holo2",
       ("holo2", "openpangu_v2"), (rf"holo2{T}",),
       (f"{V} deepseek_v3_reasoning_parser.py@055e47c2: holo2 defaults thinking on",)),
    _p("gigachat-3.5", {"tags": THINK, "start_in_reasoning": True},
       "Sber GigaChat 3.5 Reasoning", ("gigachat35",),
       (rf"gigachat-?3\.5-[a-z0-9.-]*-reasoning{T}",),
       (f"{V} gigachat35_reasoning_parser.py@57c95ee2: the template opens '<think>' in "
        "reasoning mode (always on for the -Reasoning releases)",)),
    _p("iquest", {"tags": THINK, "start_in_reasoning": True}, "IQuest Coder Thinking, IQuest Q1",
       ("iquest", "iquest_q1", "iquest_coder_v2"), (rf"iquest-coder-[a-z0-9.-]*thinking{T}",),
       (f"{V} iquest_reasoning_parser.py@265a729e: the template places '<think>' in the prompt",
        "SGLang test_iquest_q1_reasoning_parser.py@0adff0bc: unopened text is reasoning"),
       ("vLLM's one-shot reading gives an output without '</think>' as content.",)),
    _p("exaone-4", {"tags": THINK}, "LG EXAONE 4.0 (thinking off by default)", ("exaone4",),
       (rf"exaone-4(?:\.[0-9]+)*{T}",),
       (f"{V} exaone4_reasoning_parser.py@456b8d1d: enable_thinking off by default",)),
    _p("telechat", {"tags": THINK, "start_in_reasoning": True}, "TeleChat 3/4, XingChen 4",
       ("telechat", "telechat4", "xingchen4", "xing4_0"),
       (rf"telechat[0-9]*-[a-z0-9.-]*thinking{T}",),
       (f"{V} telechat4_reasoning_parser.py@04aefed4: the template injects '<think>'; unclosed "
        "output is reasoning unless thinking is off", "SGLang reasoning_parser.py@002e9bfc: "
        "TeleChat4Detector")),
    _p("pangu", {"tags": THINK, "delimiters": (("[unused16]", "[unused17]"),),
                 "start_in_reasoning": True}, "Huawei openPangu", ("pangu",),
       (r"openpangu-[a-z0-9.:_-]+",),
       (f"{V} pangu_reasoning_parser.py@4ade7b8d: DeepSeek-R1 reading; '[unused16]' / "
        "'[unused17]' where the vocabulary has no '<think>'",)),
    _p("think-tags", {"tags": THINK},
       "Models that write '<think>' themselves when asked to think: HyperCLOVA X SEED Think, "
       "MiniCPM-V, RWKV", ("hyperclovax_seed_think", "hyperclovax_seed_think_14b", "minicpmv",
                           "rwkv", "nemotron"), (),
       (f"{V} hyperclovax_seed_think_reasoning_parser.py@256c7019: thinking off by default",
        f"{V} minicpmv_reasoning_parser.py@030dd7a6", f"{V} rwkv_reasoning_parser.py@38a442be",
        f"{V} nemotron_reasoning_parser.py@286e5890: '<think>' ... '</think>' both required")),
    _p("claude-text", {"tags": ("thinking",)}, "Claude asked to think in text", (), (),
       ("Anthropic prompt-engineering guide, Let Claude think: '<thinking>' tags",)),
    _p("generic", {"tags": ("think", "thinking", "thought", "reasoning"),
                   "answer": (("<final>", "</final>"),)},
       "Anything that writes common tag names; agents prompted for '<final>' answers; "
       "Phi-4-reasoning, SmolLM3, Hermes 4, Cogito, Llama-Nemotron, Magistral 2506", (),
       (rf"magistral-[a-z]+-2506{T}", rf"phi-?4-[a-z0-9.-]*reasoning{T}", rf"smollm3{T}",
        r"(?:hermes-4|deephermes-3)[a-z0-9.:_-]*", rf"cogito{T}",
        rf"llama-3[._][0-9]-nemotron-[a-z]+-[0-9]+b-v1(?:[._]5)?{T}"),
       ("Phi-4-reasoning, SmolLM3, Hermes 4, Cogito and Llama-Nemotron model cards: the model "
        "writes '<think>' ... '</think>'", "Magistral 2506 system prompt: '<think>' as text",
        "Agent prompts that ask for '<think>' ... '</think><final>' ... '</final>'")),
)

#: The names of :data:`PRESETS`, for type checkers; a test keeps the two equal.
PresetName = Literal[
    "deepseek-r1", "deepseek-v3", "deepseek-v4", "qwen3-thinking", "qwen3", "glm-4.7",
    "glm-4.5", "ling-3", "magistral", "kimi", "kimi-k2.5", "kimi-k2", "kimi-k3", "minimax",
    "minimax-m3", "seed-oss", "hunyuan", "hy-v3", "hy-v4", "ernie-4.5", "step-3.5", "step-3",
    "olmo-3", "granite", "granite-thinking", "nemotron-3", "command-a", "gemma-4", "gpt-oss",
    "mimo", "intern-s1", "poolside", "apriel", "longcat", "solar-open-2", "plamo-3", "apertus",
    "k2-horizon", "muse", "inkling", "holo2", "gigachat-3.5", "iquest", "exaone-4", "telechat",
    "pangu", "think-tags", "claude-text", "generic",
]

#: Preset name -> the scanner options it fills in.
PRESETS: dict[str, dict[str, Any]] = {row.name: row.options for row in PRESET_TABLE}

PRESET_ALIASES: dict[str, str] = {
    alias: row.name for row in PRESET_TABLE for alias in row.aliases if alias not in PRESETS
}
"""Peer parser names -> preset names (docs/behaviour.md#f1): every reasoning-parser name of
vLLM's registry and SGLang's ``DetectorMap``, as spelled there, maps to the preset of its format.
A name that is also a preset's own name (``qwen3``, ``minimax``) is that preset, and is not
listed here."""

#: The preset names, in table order.
PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)
