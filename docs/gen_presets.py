"""Writes docs/presets.md from the preset table (``thinkparse._presets.PRESET_TABLE``).

    python docs/gen_presets.py > docs/presets.md

The page is generated so that it cannot drift from the table: a test compares the two.  The
differences from the peer parsers' own test vectors are read from ``tests/scan/peer_vectors.json``
(the suite's copy of those vectors, each with the reason where thinkparse reads it otherwise).
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from thinkparse._models import NO_INLINE_REASONING  # noqa: E402
from thinkparse._presets import PRESET_ALIASES, PRESET_TABLE, PRESETS, TAIL  # noqa: E402

VECTORS = ROOT / "tests" / "scan" / "peer_vectors.json"

INTRO = """\
# Presets: which one fits which model

A preset is a named set of scanner options for one reasoning format family: its tags or
delimiters, whether the output starts inside the block (`start_in_reasoning`), the markers that
end reasoning and stay visible (`terminators`, [F2](behaviour.md#f2)), the wrappers removed around
the answer (`answer`, [F3](behaviour.md#f3)), or a channel scanner ([F6](behaviour.md#f6)). Pass
it as `preset="..."` to `split_think`, `strip_think`, `iter_think`, `ThinkScanner`, `normalize`,
`StreamNormalizer`, `stream_deltas`, `split_think_many`, the column adapters,
`thinkparse.openai.wrap` or the CLI's `--preset`; or let `preset_for_model(name)` pick it from the
model name ([F5](behaviour.md#f5)). Options you pass explicitly override the preset's.

The name of a vLLM or SGLang reasoning parser works too, exactly as you pass it to
`--reasoning-parser` ([F1](behaviour.md#f1)): `preset="glm45"`, `preset="kimi_k2"`,
`preset="openai_gptoss"`. And when you have the rendered prompt, pass it: `prompt=` decides
whether the output starts inside the block, as the servers do ([F4](behaviour.md#f4)).

Presets matter only where the reasoning arrives **inline**, inside the answer text: a raw
completion, vLLM or SGLang without a reasoning parser, llama.cpp, older Ollama, a proxy that
flattens fields. Where the server already separates it (`reasoning_content`, `reasoning`,
thinking blocks, thought parts), the normalisers read the field and no preset is needed.

```python
>>> from thinkparse import preset_for_model, split_think, PRESET_ALIASES
>>> preset_for_model("Qwen/Qwen3.5-27B-FP8"), preset_for_model("qwen3.5:27b")
('qwen3-thinking', 'qwen3-thinking')
>>> split_think("plan\\n<tool_call>\\n{}\\n</tool_call>", preset="qwen3-thinking")
Split(visible='<tool_call>\\n{}\\n</tool_call>', reasoning='plan')
>>> PRESET_ALIASES["glm47"], PRESET_ALIASES["openai_gptoss"]
('glm-4.7', 'gpt-oss')
>>> split_think("a</think><answer>4</answer>", preset="glm45")
Split(visible='a<answer>4</answer>', reasoning=None)
>>> split_think("plan</think>ok", preset="qwen3", prompt="<|im_start|>assistant\\n<think>\\n")
Split(visible='ok', reasoning='plan')

```

Each preset describes its family's **default mode**: it starts in reasoning where the family's
chat template opens the block by default (an opener the model writes anyway is absorbed,
[T6](behaviour.md#t6)). For a reply where the template opened the block but the model skipped
thinking, use `prompt=`, or `unclosed="answer"` / `"auto"` ([F7](behaviour.md#f7)).
"""


def _code(value: Any) -> str:
    text = repr(value) if not isinstance(value, str) else value
    return "`" + text.replace("|", "\\|").replace("\n", "\\n") + "`"


def _options(options: dict[str, Any]) -> str:
    parts = []
    if "channel" in options:
        parts.append(f"{options['channel']} channels")
    if "tags" in options:
        parts.append("tags " + ", ".join(_code(t) for t in options["tags"]))
    if "delimiters" in options:
        parts.append("delimiters " + ", ".join(
            f"{_code(o)} / {_code(c)}" for o, c in options["delimiters"]))
    if options.get("start_in_reasoning"):
        parts.append("starts in reasoning")
    if "terminators" in options:
        parts.append("terminators " + ", ".join(_code(t) for t in options["terminators"]))
    if "answer" in options:
        parts.append("answer " + ", ".join(
            f"{_code(o)} / {_code(c)}" for o, c in options["answer"]))
    return "; ".join(parts)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _id(vector: dict[str, Any]) -> str:
    """A vector's peer and test id, as inline code."""
    peer = {"vllm": "vLLM", "sglang": "SGLang"}.get(vector["peer"], vector["peer"])
    text = vector["id"].replace("\n", " ")
    fence = "``" if "`" in text else "`"
    pad = " " if fence == "``" else ""
    return f"{peer} {fence}{pad}{text}{pad}{fence}"


def _vectors() -> dict[str, Any]:
    if not VECTORS.exists():
        return {"reasons": {}, "vectors": []}
    with VECTORS.open(encoding="utf-8") as f:
        data: dict[str, Any] = json.load(f)
    return data


def page() -> str:
    """The whole page."""
    out = [INTRO, "## The presets\n"]
    out.append("| preset | families | options | peer parser names | model names |")
    out.append("|---|---|---|---|---|")
    for row in PRESET_TABLE:
        models = "<br>".join(_code(p.replace(TAIL, "…")) for p in row.models) or "—"
        aliases = ", ".join(_code(a) for a in row.aliases) or "—"
        out.append(f"| `{row.name}` | {_cell(row.families)} | {_options(row.options)} | "
                   f"{aliases} | {models} |")
    out.append("")
    out.append("Model-name patterns are regular expressions that match the whole normalised name "
               "([F5](behaviour.md#f5)); `…` stands for an optional suffix (a size, a date, a "
               "quantisation or an Ollama tag after `-`, `.`, `:` or `_`). Rows are tried in the "
               "order above, after the names without inline reasoning below.\n")
    out.append("## Names without inline reasoning\n")
    out.append("These names map to no preset: their output carries no inline reasoning "
               "markup.\n")
    out.append("| pattern | why |")
    out.append("|---|---|")
    for pattern, why in NO_INLINE_REASONING:
        out.append(f"| {_code(pattern.replace(TAIL, '…'))} | {_cell(why)} |")
    out.append("")
    out.append("## Peer parser names\n")
    out.append("Every reasoning-parser name of vLLM's registry and SGLang's `DetectorMap`, and "
               "the preset it selects (a name that is also a preset's own is that preset).\n")
    out.append("| parser name | preset |")
    out.append("|---|---|")
    own = sorted(a for row in PRESET_TABLE for a in row.aliases if a in PRESETS)
    for alias in sorted(set(PRESET_ALIASES) | set(own)):
        out.append(f"| `{alias}` | `{PRESET_ALIASES.get(alias, alias)}` |")
    out.append("")
    out.append("## Evidence\n")
    for row in PRESET_TABLE:
        out.append(f"### `{row.name}`\n")
        for source in row.sources:
            out.append(f"* {source}")
        for diff in row.differences:
            out.append(f"* *Reads otherwise than a peer:* {diff}")
        out.append("")
    out += _differences()
    return "\n".join(out).rstrip("\n") + "\n"


def _differences() -> list[str]:
    data = _vectors()
    vectors = data.get("vectors", [])
    out = ["## The peers' test vectors\n"]
    agree = sum(1 for v in vectors if v.get("status") == "agrees")
    differ = [v for v in vectors if v.get("status") == "differs"]
    peers = {"vllm": "vLLM", "sglang": "SGLang"}
    per_peer = ", ".join(
        f"{sum(1 for v in vectors if v.get('peer') == key)} from {name}"
        for key, name in peers.items())
    skipped = data.get("skipped", [])
    out.append(
        f"The suite runs {len(vectors)} text-split cases taken from the reasoning-parser tests of "
        f"vLLM and SGLang ({per_peer}; `tests/scan/peer_vectors.json`, each with its source): "
        f"{agree} give the peer's split exactly; {len(differ)} are read otherwise, for the reasons "
        "below. Each case passes the peer's parser name as `preset=`, with the options that "
        "reproduce the test's request settings, and its stream gives the one-shot result in "
        "both scanner implementations ([S1](behaviour.md#s1)).\n"
    )
    if data.get("convention"):
        out.append(f"Compared as follows: {data['convention']}\n")
    if skipped:
        out.append(f"{len(skipped)} more test cases are not counted: they assert one streaming "
                   "step, only that streaming equals one-shot, or something other than a split "
                   "(each is listed with its reason in the file).\n")
    files: dict[tuple[str, str, str], int] = defaultdict(int)
    for v in vectors:
        src = v["source"]
        files[(peers.get(v["peer"], v["peer"]), src["path"], src["commit"])] += 1
    if files:
        out.append("| peer | test file | commit | cases |")
        out.append("|---|---|---|---|")
        for (peer, path, commit), n in sorted(files.items()):
            out.append(f"| {peer} | `{path}` | `{commit[:8]}` | {n} |")
        out.append("")
    by_reason: dict[str, dict[str, list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list))
    for v in differ:
        by_reason[v["reason"]][v.get("detail", "")].append(v)
    for reason, text in data.get("reasons", {}).items():
        groups = by_reason.get(reason, {})
        count = sum(len(ids) for ids in groups.values())
        if not count:
            continue
        out.append(f"### {reason} ({count})\n")
        out.append(text + "\n")
        for detail in sorted(groups):
            if detail:
                out.append(detail + "\n")
            out += [f"* {_id(v)}" for v in sorted(groups[detail], key=_id)]
            out.append("")
    return out


if __name__ == "__main__":
    sys.stdout.write(page())
