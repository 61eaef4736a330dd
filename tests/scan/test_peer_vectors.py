"""The reference parsers' own test vectors (docs/behaviour.md#f1): every text-split case of vLLM's
and SGLang's reasoning-parser tests, each with its source, run through the presets.

``tests/scan/peer_vectors.json`` holds, for every case, the model output, the chunks the peer's
test streams (if it gives them), the options that reproduce the test's request settings, the
split the peer's test asserts, thinkparse's split and, where the two differ, a named reason that
docs/presets.md explains.  The file is data: these tests check that thinkparse still gives the
recorded split, that every case recorded as agreeing does agree with the peer (under the
convention below), that every case recorded as differing does differ and has a documented
reason, and that any chunking gives the one-shot result in both implementations (S1).

Convention: ``visible`` is always a ``str``, so a peer's content ``None`` equals ``""``; a peer's
reasoning ``""`` and ``None`` both mean "no reasoning text" (T9 tells them apart, the peers do not
agree among themselves).  Everything else must be equal exactly.  A case whose test asserts only
some fields lists them in ``asserted``; ``contains`` marks a test that asserts only that its text
(stripped) occurs in the field.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest

from thinkparse import PRESET_ALIASES, split_think
from thinkparse._presets import PRESETS

ROOT = Path(__file__).resolve().parents[2]
DATA = json.loads((ROOT / "tests" / "scan" / "peer_vectors.json").read_text(encoding="utf-8"))
VECTORS: list[dict[str, Any]] = DATA["vectors"]
REASONS: dict[str, str] = DATA["reasons"]
IDS = [f"{i:04d}-{v['peer']}-{v['parser']}" for i, v in enumerate(VECTORS)]
REPOS = {"vllm": "vllm-project/vllm", "sglang": "sgl-project/sglang"}


def _agrees(vector: dict[str, Any], visible: str, reasoning: Optional[str]) -> bool:
    """The peer's expected split against thinkparse's, under the convention above."""
    ours = {"content": visible, "reasoning": reasoning}
    for field in vector.get("asserted", ["reasoning", "content"]):
        peer = vector["expected"][field]
        if (peer or "") == (ours[field] or ""):
            continue
        if vector.get("contains") and peer is not None and peer.strip() in (ours[field] or ""):
            continue
        return False
    return True


def _stream(cls: Any, chunks: list[str], options: dict[str, Any]) -> tuple[str, str]:
    scanner = cls(**options)
    visible = reasoning = ""
    for chunk in chunks:
        delta = scanner.feed(chunk)
        visible += delta.visible
        reasoning += delta.reasoning
    delta = scanner.close()
    return visible + delta.visible, reasoning + delta.reasoning


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_split_is_the_recorded_one(vector: dict[str, Any]) -> None:
    # F1: the peer's parser name is a preset; the options reproduce the test's request (F4)
    split = split_think(vector["output"], preset=vector["parser"], **vector["options"])
    recorded = vector["thinkparse"]
    assert (split.visible, split.reasoning) == (recorded["visible"], recorded["reasoning"]), \
        vector["id"]
    if vector["status"] == "agrees":
        assert _agrees(vector, split.visible, split.reasoning), vector["id"]
    else:
        # a case recorded as differing really differs, and says why
        assert vector["status"] == "differs", vector["id"]
        assert not _agrees(vector, split.visible, split.reasoning), vector["id"]
        assert vector["reason"] in REASONS, vector["id"]


@pytest.mark.parametrize("vector", VECTORS, ids=IDS)
def test_stream_equals_one_shot(scanner_cls: Any, vector: dict[str, Any]) -> None:
    # S1: the peer's chunks (or one character at a time) give the one-shot split, in both
    # implementations (S5)
    options = {"preset": vector["parser"], **vector["options"]}
    recorded = vector["thinkparse"]
    want = (recorded["visible"], recorded["reasoning"] or "")
    chunks = vector.get("chunks") or list(vector["output"])
    assert _stream(scanner_cls, chunks, options) == want, vector["id"]
    assert _stream(scanner_cls, [vector["output"]], options) == want, vector["id"]


def test_vectors_are_well_formed() -> None:
    # F1: every case names its source, a peer parser name (or a preset), and a status
    assert {v["peer"] for v in VECTORS} == {"vllm", "sglang"}
    assert len({v["id"] for v in VECTORS}) == len(VECTORS)
    for v in VECTORS:
        source = v["source"]
        assert source["repo"] == REPOS[v["peer"]], v["id"]
        assert re.fullmatch(r"[0-9a-f]{40}", source["commit"]), v["id"]
        assert v["id"].startswith(source["path"] + "::"), v["id"]
        assert v["parser"] in PRESET_ALIASES or v["parser"] in PRESETS, v["id"]
        assert v["status"] in ("agrees", "differs"), v["id"]
        assert ("reason" in v) == (v["status"] == "differs"), v["id"]
        assert set(v["options"]) <= {"start_in_reasoning", "prompt"}, v["id"]
        if v.get("chunks") is not None:
            assert "".join(v["chunks"]) == v["output"], v["id"]
        assert set(v.get("asserted", ["reasoning"])) <= {"reasoning", "content"}, v["id"]
    for skipped in DATA["skipped"]:
        assert skipped["peer"] in REPOS and skipped["why"], skipped


def test_every_reason_is_used_and_documented() -> None:
    # F1: each difference has exactly one named reason, explained on the presets page
    used = {v["reason"] for v in VECTORS if v["status"] == "differs"}
    assert used <= set(REASONS)
    assert set(REASONS) <= used  # no reason without a case
    page = (ROOT / "docs" / "presets.md").read_text(encoding="utf-8")
    for reason in used:
        count = sum(1 for v in VECTORS if v.get("reason") == reason)
        assert f"### {reason} ({count})\n" in page, reason
        assert REASONS[reason] in page, reason
    for v in VECTORS:
        if v["status"] == "differs":
            assert v["id"] in page, v["id"]
        if v.get("detail"):
            assert v["reason"] == "Contested upstream" and v["detail"] in page, v["id"]
