"""The whole model zoo at the scanner level (docs/behaviour.md#f1 to #f7): peer parser names,
terminators, answer wrappers, the start state from the prompt, channel formats and unclosed
blocks, in both scanner implementations, one-shot and cut at every point."""

from __future__ import annotations

from typing import Any, Optional

import pytest

import thinkparse
from thinkparse import (
    PRESET_ALIASES,
    PRESET_NAMES,
    Split,
    iter_think,
    prompt_opens_reasoning,
    split_think,
    split_think_many,
    strip_think,
)
from thinkparse._presets import PRESET_TABLE, PRESETS, PresetName
from thinkparse.scan._harmony import HarmonyScanner

# --- F1: every peer parser name ------------------------------------------------------------
# vLLM's registry (vllm/frontend/processing/reasoning/__init__.py@055e47c2) and the names the
# older vllm/reasoning/ tree registered; SGLang's DetectorMap and reasoning_parser_names.py.
VLLM_NAMES = [
    "deepseek_r1", "deepseek_v3", "deepseek_v4", "poolside_v1", "cohere_command3",
    "cohere_command4", "ernie45", "gemma4", "glm45", "glm47", "ling3", "openai_gptoss", "granite",
    "holo2", "hunyuan_a13b", "hy_v3", "hy_v4", "kimi_k2", "kimi_k3", "mimo", "minimax_m2",
    "minimax_m2_append_think", "minimax_m3", "mistral", "nemotron_v3", "olmo3", "muse_glimmer",
    "qwen3", "seed_oss", "step3", "step3p5", "inkling",
    # the older tree
    "solar_open2", "exaone4", "apertus", "gigachat35", "iquest", "iquest_coder_v2", "k2_horizon",
    "kimi_k25", "longcat", "nemotron", "openpangu_v2", "pangu", "plamo3", "rwkv", "telechat",
    "telechat4", "xingchen4", "xing4_0", "hyperclovax_seed_think", "hyperclovax_seed_think_14b",
    "intern-s1", "glm", "deepseek_v31", "minimax_m1", "minimax_m2_sanitized",
    "granite_thinking_parser", "kolibri1", "berrylm", "minicpmv", "qwen3_engine", "deepseek_v41",
]
SGLANG_NAMES = [
    "apertus2509", "cohere_command4", "deepseek-r1", "deepseek-v3", "deepseek-v4", "deepseek-v41",
    "dots", "gemma4", "gigachat35", "glm45", "gpt-oss", "granite_thinking_parser", "hunyuan",
    "inkling", "interns1", "iquest_q1", "k2_horizon", "kimi", "kimi_k2", "kimi_k3", "ling3",
    "mimo", "minimax", "minimax-append-think", "minimax-m3", "mistral", "muse", "nanbeige",
    "nemotron_3", "plamo3", "poolside_v1", "qwen3", "qwen3-thinking", "step3", "step3p5",
    "telechat4", "olmo3", "nano_v3",
]


@pytest.mark.parametrize("name", sorted(set(VLLM_NAMES + SGLANG_NAMES)))
def test_every_peer_parser_name_is_a_preset(scanner_cls: Any, name: str) -> None:
    # F1: every vLLM and SGLang reasoning-parser name is accepted as preset= verbatim
    target = PRESET_ALIASES.get(name, name)
    assert target in PRESETS
    assert split_think("<think>a</think>b", preset=name) == split_think(
        "<think>a</think>b", preset=target)
    scanner_cls(preset=name).close()


def test_aliases_and_table() -> None:
    # F1: one row per family, each with sources; aliases point at rows; names match PresetName
    assert tuple(row.name for row in PRESET_TABLE) == PRESET_NAMES
    assert set(PresetName.__args__) == set(PRESETS)  # type: ignore[attr-defined]
    assert len(PRESET_NAMES) == len(set(PRESET_NAMES))
    for row in PRESET_TABLE:
        assert row.sources, row.name
        assert row.families, row.name
        split_think("", preset=row.name)  # every row is a valid option set
    assert set(PRESET_ALIASES.values()) <= set(PRESETS)
    assert not set(PRESET_ALIASES) & set(PRESETS)
    assert thinkparse.PRESET_ALIASES is PRESET_ALIASES


@pytest.mark.parametrize("bad", ["qwen_3", "DeepSeek_R1", "", "glm-45"])
def test_unknown_alias(bad: str) -> None:
    # F1, A3: an unknown name raises ValueError naming the option
    with pytest.raises(ValueError, match="preset: unknown preset"):
        split_think("x", preset=bad)


# --- helpers: one-shot and every two-way cut, both implementations -------------------------


def _stream(cls: Any, chunks: list[str], options: dict[str, Any]) -> tuple[str, str, Any]:
    sc = cls(**options)
    v = r = ""
    for c in chunks:
        d = sc.feed(c)
        v += d.visible
        r += d.reasoning
    d = sc.close()
    return v + d.visible, r + d.reasoning, sc.reasoning_closed


def check(cls: Any, text: str, options: dict[str, Any], visible: str,
          reasoning: Optional[str], closed: Optional[bool]) -> None:
    """The one-shot result, and the same from every two-way cut and one character at a time
    (S1)."""
    split = split_think(text, **options)
    assert (split.visible, split.reasoning, split.closed) == (visible, reasoning, closed)
    want = (visible, reasoning or "", closed)
    assert _stream(cls, [text], options) == want
    assert _stream(cls, list(text), options) == want
    for i in range(len(text) + 1):
        assert _stream(cls, [text[:i], text[i:]], options) == want, i


# --- F2: terminators ---------------------------------------------------------------------------
TC = {"terminators": ("<tool_call>",)}
F2_CASES = [
    # (id, text, options, visible, reasoning, closed)
    ("implicit", "plan\n<tool_call>\n{}\n</tool_call>", {**TC, "start_in_reasoning": True},
     "<tool_call>\n{}\n</tool_call>", "plan", True),
    ("definite", "<think>plan<tool_call>x", TC, "<tool_call>x", "plan", True),
    ("outside", "a<tool_call>b", TC, "a<tool_call>b", None, None),
    ("tentative", "Hi <think>p<tool_call>x", TC, "Hi <tool_call>x", "p", True),
    ("later-block", "<think>a<tool_call>x</tool_call><think>b</think>c", TC,
     "<tool_call>x</tool_call>c", "a\n\nb", True),
    ("code-in-block", "<think>```\n<tool_call>\n```", TC, "<tool_call>\n```", "```", True),
    ("code-outside", "a `<tool_call>` b", TC, "a `<tool_call>` b", None, None),
    ("partial-at-end", "<think>plan<tool_", TC, "", "plan<tool_", False),
    ("closer-first", "<think>a</think><tool_call>b", TC, "<tool_call>b", "a", True),
    ("two", "plan[TC]x", {"terminators": ("<tool_call>", "[TC]"), "start_in_reasoning": True},
     "[TC]x", "plan", True),
    ("str-is-one", "plan<tool_call>x", {"terminators": "<tool_call>", "start_in_reasoning": True},
     "<tool_call>x", "plan", True),
    ("empty-block", "<tool_call>x", {**TC, "start_in_reasoning": True}, "<tool_call>x", "", True),
    ("rescanned-as-answer", "plan<|START_TEXT|> 4 <|END_TEXT|>", {"preset": "command-a"}, "4",
     "plan", True),
    ("qwen3.5", "reason\n\n<tool_call>\n<function=f>\n</function>\n</tool_call>",
     {"preset": "qwen3-thinking"}, "<tool_call>\n<function=f>\n</function>\n</tool_call>",
     "reason", True),
    ("kimi-k2.5", "p<|tool_calls_section_begin|>c", {"preset": "kimi_k25"},
     "<|tool_calls_section_begin|>c", "p", True),
    ("mistral", "[THINK]p[TOOL_CALLS]f[ARGS]{}", {"preset": "mistral"}, "[TOOL_CALLS]f[ARGS]{}",
     "p", True),
    ("gemma4", "<|channel>thought\np<|tool_call>call:f{}<tool_call|>", {"preset": "gemma4"},
     "<|tool_call>call:f{}<tool_call|>", "p", True),
    ("seed-oss", "p<seed:tool_call>x", {"preset": "seed_oss"}, "<seed:tool_call>x", "p", True),
    ("deepseek-v4", "p<\uff5cDSML\uff5ctool_calls>x", {"preset": "deepseek_v4"},
     "<\uff5cDSML\uff5ctool_calls>x", "p", True),
]


@pytest.mark.parametrize(("case_id", "text", "options", "visible", "reasoning", "closed"),
                         F2_CASES, ids=[c[0] for c in F2_CASES])
def test_terminators(scanner_cls: Any, case_id: str, text: str, options: dict[str, Any],
                     visible: str, reasoning: Optional[str], closed: Optional[bool]) -> None:
    # F2: a terminator ends reasoning and stays visible; held across chunks (S1)
    check(scanner_cls, text, options, visible, reasoning, closed)


def test_terminator_is_not_consumed(scanner_cls: Any) -> None:
    # F2: a terminator is never consumed (T8 and T10 see no tag)
    sc = scanner_cls(start_in_reasoning=True, terminators="<tool_call>")
    sc.feed("plan<tool_call>")
    assert sc.tag_consumed is False
    assert sc.in_reasoning is False


def test_terminator_flood_is_held_within_bounds(scanner_cls: Any) -> None:
    # F2, S2: a flood of partial terminators is held one marker at a time, and released
    sc = scanner_cls(start_in_reasoning=True, terminators="<tool_call>")
    out = "".join(sc.feed("<tool_call") .reasoning for _ in range(1000))
    assert len(out) == 999 * len("<tool_call")
    assert sc.close().reasoning == "<tool_call"


@pytest.mark.parametrize(("bad", "exc", "message"), [
    ("", ValueError, r"terminators\[0\]: a terminator may not be empty"),
    ((3,), ValueError, r"terminators\[0\] must be a str"),
    (("<a>", ""), ValueError, r"terminators\[1\]"),
    (b"x", TypeError, "terminators must be a str or a sequence of str"),
    (5, TypeError, "terminators must be"),
])
def test_terminators_invalid(scanner_cls: Any, bad: Any, exc: type, message: str) -> None:
    # F2, A3: invalid terminators name the option
    with pytest.raises(exc, match=message):
        scanner_cls(terminators=bad)
    with pytest.raises(exc, match=message):
        split_think("x", terminators=bad)


# --- F3: answer wrappers -------------------------------------------------------------------
ANS = {"answer": (("<answer>", "</answer>"),)}
F3_CASES = [
    ("trimmed", "<think>a</think>\n<answer>\n 4 \n</answer>", ANS, "4", "a", True),
    ("text-after", "<answer>\n 4 \n</answer>\n", ANS, "4\n", None, None),
    ("inside-prose", "x <answer> y </answer> z", ANS, "x y z", None, None),
    ("unclosed-opener", "<answer>\n4\n", ANS, "4\n", None, None),
    ("lone-closer", "4 \n</answer>", ANS, "4 \n", None, None),
    ("leading-ws", "  <answer>4</answer>", ANS, "4", None, None),
    ("in-span", "`<answer>` x", ANS, "`<answer>` x", None, None),
    ("in-fence", "```\n<answer>\n```", ANS, "```\n<answer>\n```", None, None),
    ("in-reasoning", "<think><answer>x</answer></think>y", ANS, "y", "<answer>x</answer>", True),
    ("kept-without", "<answer>4</answer>", {}, "<answer>4</answer>", None, None),
    ("two-pairs", "[A] 1 [/A]<final>2</final>",
     {"answer": (("[A]", "[/A]"), ("<final>", "</final>"))}, "12", None, None),
    ("generic-final", "<think>p</think><final>ok</final>", {"preset": "generic"}, "ok", "p", True),
    ("hunyuan", "<think>\nr\n</think>\n<answer>\nThe answer.\n</answer>", {"preset": "hunyuan"},
     "The answer.", "r", True),
    ("ernie", "r\n</think>\n\n<response>\nok\n</response>\n", {"preset": "ernie45"}, "ok\n", "r",
     True),
    ("apriel", "steps\n[BEGIN FINAL RESPONSE]\nDone.\n[END FINAL RESPONSE]\n",
     {"preset": "apriel"}, "Done.\n", "steps", True),
    ("kimi-k3", "<|open|>think<|sep|>deep thought<|close|>think<|sep|><|open|>response<|sep|>"
     "the answer<|close|>response<|sep|><|close|>message<|sep|>", {"preset": "kimi_k3"},
     "the answer", "deep thought", True),
    ("kimi-k3-opened", "thinking...<|close|>think<|sep|><|open|>response<|sep|>done"
     "<|close|>response<|sep|>", {"preset": "kimi_k3"}, "done", "thinking...", True),
    ("kimi-k3-tools", "thought<|close|>think<|sep|><|open|>response<|sep|>reply"
     "<|close|>response<|sep|><|open|>tools<|sep|>call<|close|>tools<|sep|>",
     {"preset": "kimi_k3"}, "reply<|open|>tools<|sep|>call<|close|>tools<|sep|>", "thought", True),
]


@pytest.mark.parametrize(("case_id", "text", "options", "visible", "reasoning", "closed"),
                         F3_CASES, ids=[c[0] for c in F3_CASES])
def test_answer_wrappers(scanner_cls: Any, case_id: str, text: str, options: dict[str, Any],
                         visible: str, reasoning: Optional[str], closed: Optional[bool]) -> None:
    # F3: markers removed, whitespace inside trimmed, code aware; S1
    check(scanner_cls, text, options, visible, reasoning, closed)


def test_answer_trailing_whitespace_is_held(scanner_cls: Any) -> None:
    # F3, S2: inside an answer wrapper, a trailing whitespace run waits for what follows
    sc = scanner_cls(**ANS)
    assert tuple(sc.feed("<answer> 4 ")) == ("4", "")
    assert tuple(sc.feed(" 5")) == ("  5", "")
    assert tuple(sc.feed(" ")) == ("", "")
    assert tuple(sc.close()) == (" ", "")
    sc = scanner_cls(**ANS)
    assert sc.feed("x") == ("x", "")
    chunk = "plain text "
    assert sc.feed(chunk).visible is chunk  # S7: outside a wrapper, the very chunk


@pytest.mark.parametrize(("bad", "message"), [
    ((("<a>",),), r"answer\[0\] must be an \(open, close\) pair"),
    ((("<a>", ""),), r"answer\[0\]: a marker may not be empty"),
    ((("x", "x"),), r"answer\[0\]: open and close must differ"),
    ((("`a", "b"),), r"answer\[0\]: '`a' starts with '`'"),
    (("<a>", "</a>"), r"answer\[0\] must be an \(open, close\) pair"),
])
def test_answer_invalid(scanner_cls: Any, bad: Any, message: str) -> None:
    # F3, A3: a wrapper that is not a pair of two different non-empty strings
    with pytest.raises(ValueError, match=message):
        scanner_cls(answer=bad)
    with pytest.raises(ValueError, match=message):
        split_think("x", answer=bad)
    with pytest.raises(TypeError, match="answer must be a sequence"):
        split_think("x", answer="<a>")


# --- F4: the start state from the prompt ---------------------------------------------------
PROMPTS = [
    ("<|im_start|>assistant\n<think>\n", {}, True),
    ("<|im_start|>assistant\n<think>\n\n</think>\n\n", {}, False),
    ("user: what is <think>?<|im_end|>assistant\n", {}, True),  # the text does not matter
    ("<think>x</think> ... <THINK mode='deep'>", {}, True),
    ("<think/>", {}, False),
    ("<think />\n", {}, False),
    ("no markup at all", {}, False),
    ("", {}, False),
    ("<thinking>", {}, False),  # another name
    ("<thinking>", {"tags": ("think", "thinking")}, True),
    ("<think></thinking>", {"tags": ("think", "thinking")}, True),  # its own pair's closer only
    ("[THINK]", {"preset": "magistral"}, True),
    ("[THINK]x[/THINK]", {"preset": "mistral"}, False),
    ("<|channel>thought\n", {"preset": "gemma4"}, True),
    ("<|open|>think<|sep|>", {"preset": "kimi_k3"}, True),
    ("<|channel|>analysis<|message|>", {"preset": "gpt-oss"}, False),
]


@pytest.mark.parametrize(("prompt", "options", "opens"), PROMPTS)
def test_prompt_opens_reasoning(prompt: str, options: dict[str, Any], opens: bool) -> None:
    # F4: in reasoning iff the prompt's last opener comes after its pair's last closer
    assert prompt_opens_reasoning(prompt, **options) is opens


def test_prompt_decides_the_start(scanner_cls: Any) -> None:
    # F4: prompt= replaces the preset's start mode, everywhere options go
    opened = "<|im_start|>assistant\n<think>\n"
    closed = "<|im_start|>assistant\n<think>\n\n</think>\n\n"
    check(scanner_cls, "plan</think>ans", {"prompt": opened}, "ans", "plan", True)
    check(scanner_cls, "plan</think>ans", {"prompt": closed}, "planans", None, None)
    check(scanner_cls, "just the answer", {"preset": "qwen3-thinking", "prompt": closed},
          "just the answer", None, None)
    check(scanner_cls, "plan", {"preset": "qwen3", "prompt": opened}, "", "plan", False)
    assert [tuple(d) for d in iter_think(["pl", "an</th", "ink>a"], prompt=opened)] == [
        ("", "pl"), ("", "an"), ("a", "")]
    assert strip_think("p</think>a", prompt=opened) == "a"


def test_prompt_errors(scanner_cls: Any) -> None:
    # F4, A3: prompt with an explicit start_in_reasoning is a ValueError; a non-str a TypeError
    for start in (True, False):
        with pytest.raises(ValueError, match="prompt and start_in_reasoning"):
            scanner_cls(prompt="<think>", start_in_reasoning=start)
    with pytest.raises(ValueError, match="prompt and start_in_reasoning"):
        split_think("x", prompt="<think>", start_in_reasoning="auto")
    with pytest.raises(TypeError, match="prompt must be a str"):
        scanner_cls(prompt=b"<think>")
    with pytest.raises(TypeError, match="takes a str prompt"):
        prompt_opens_reasoning(None)  # type: ignore[arg-type]
    # a channel preset reads its headers: a prompt does not change it, and is not an error
    assert split_think("x", preset="gpt-oss", prompt="<think>") == Split("x", None)


# --- F6: channel formats -------------------------------------------------------------------
HARMONY = ("<|channel|>analysis<|message|>Let me think.<|end|><|start|>assistant"
           "<|channel|>final<|message|>The answer is 4.<|return|>")


@pytest.mark.parametrize("name", ["gpt-oss", "openai_gptoss"])
def test_gpt_oss_routes_to_the_harmony_scanner(scanner_cls: Any, name: str) -> None:
    # F6: preset="gpt-oss" routes split_think and ThinkScanner to the harmony scanner
    h = HarmonyScanner()
    a, b = h.feed(HARMONY), h.close()
    want = (a.visible + b.visible, a.reasoning + b.reasoning)
    assert want == ("The answer is 4.", "Let me think.")
    assert (split_think(HARMONY, preset=name).visible,
            split_think(HARMONY, preset=name).reasoning) == want
    for i in range(len(HARMONY) + 1):
        v, r, closed = _stream(scanner_cls, [HARMONY[:i], HARMONY[i:]], {"preset": name})
        assert (v, r, closed) == (*want, True), i
    sc = scanner_cls(preset=name)
    sc.feed("<|channel|>analysis<|message|>a")
    assert (sc.in_reasoning, sc.had_block, sc.tag_consumed, sc.orphan_at) == (
        True, True, True, None)
    sc.close()
    assert sc.reasoning_closed is False
    assert split_think("plain", preset=name) == Split("plain", None)


def test_channel_preset_options(scanner_cls: Any) -> None:
    # F6: markup options cannot be combined with a channel preset; the others do not apply
    for option in ({"tags": "think"}, {"delimiters": (("a", "b"),)}, {"terminators": "x"},
                   {"answer": (("a", "b"),)}):
        with pytest.raises(ValueError, match="reads harmony channels"):
            scanner_cls(preset="gpt-oss", **option)
    sc = scanner_cls(preset="gpt-oss", start_in_reasoning=True, code_aware=False)
    assert tuple(sc.feed("x")) + tuple(sc.close()) == ("", "", "x", "")


def test_gemma4_channel(scanner_cls: Any) -> None:
    # F6: Gemma 4's thought channel splits like a delimiter, streaming included
    check(scanner_cls, "<|channel>thought\nplan<channel|>The answer.", {"preset": "gemma4"},
          "The answer.", "plan", True)
    check(scanner_cls, "The answer.", {"preset": "gemma4"}, "The answer.", None, None)


# --- F7: unclosed blocks -------------------------------------------------------------------
F7_CASES = [
    ("no-block", "answer", {}, "reasoning", "answer", None, None),
    ("closed", "<think>a</think>b", {}, "reasoning", "b", "a", True),
    ("cut", "<think>a", {}, "reasoning", "", "a", False),
    ("self-closing", "<think/>b", {}, "reasoning", "b", "", True),
    ("tentative-restored", "x <think>y", {}, "reasoning", "x <think>y", None, None),
    ("template-open-kept", "plan", {"preset": "deepseek-r1"}, "reasoning", "", "plan", False),
    ("template-open-answer", "The answer.", {"preset": "deepseek-r1"}, "answer", "The answer.",
     None, None),
    ("closed-later", "Hi <think>x</think> there", {"start_in_reasoning": True},
     "answer", "there", "Hi <think>x", True),
    ("echo-stays-reasoning", "<think>plan", {"preset": "deepseek-r1"}, "answer", "", "plan",
     False),
    ("closed-unaffected", "plan</think>ans", {"preset": "deepseek-r1"}, "answer", "ans", "plan",
     True),
    ("terminated-unaffected", "plan<tool_call>x", {"preset": "qwen3-thinking"}, "answer",
     "<tool_call>x", "plan", True),
    ("prompt-opened", "plan", {"prompt": "<think>\n"}, "answer", "plan", None, None),
    ("auto-start", "a</think>b", {"start_in_reasoning": "auto"}, "answer", "b", "a", True),
]


@pytest.mark.parametrize(("case_id", "text", "options", "unclosed", "visible", "reasoning",
                          "closed"), F7_CASES, ids=[c[0] for c in F7_CASES])
def test_unclosed(case_id: str, text: str, options: dict[str, Any], unclosed: str, visible: str,
                  reasoning: Optional[str], closed: Optional[bool]) -> None:
    # F7: Split.closed; unclosed="answer" reads a template-opened, never-closed block as answer
    s = split_think(text, unclosed=unclosed, **options)  # type: ignore[arg-type]
    assert (s.visible, s.reasoning, s.closed) == (visible, reasoning, closed)
    assert strip_think(text, unclosed=unclosed, **options) == visible  # type: ignore[arg-type]
    assert s.to_dict() == {"visible": visible, "reasoning": reasoning, "closed": closed}


def test_unclosed_in_columns() -> None:
    # F7, C4: the column function takes unclosed= too
    assert split_think_many(["plan", "a</think>b", None], preset="deepseek-r1",
                            unclosed="answer") == (["plan", "b", None], [None, "a", None])


@pytest.mark.parametrize("bad", ["auto", "Answer", "", None, 1])
def test_unclosed_invalid(bad: Any) -> None:
    # F7, A3: "auto" needs a finish reason (normalize only); anything else is not an option value
    with pytest.raises(ValueError, match="unclosed"):
        split_think("x", unclosed=bad)
    with pytest.raises(ValueError, match="unclosed"):
        split_think_many(["x"], unclosed=bad)


def test_closed_is_not_part_of_equality() -> None:
    # F7: two splits into the same parts are equal however the last block ended
    assert split_think("<think>a").closed is False
    assert split_think("<think>a") == Split("", "a")
    assert repr(split_think("<think>a")) == "Split(visible='', reasoning='a')"
