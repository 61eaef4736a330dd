"""JSON Lines speed paths: records decoded with msgspec (when installed) and lines built by
hand give byte-identical output to the standard library path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from thinkparse import normalize
from thinkparse.cli import main
from thinkparse.cli.commands import _jsonl


def cli_output(path: Path, out: Path, *args: str) -> bytes:
    assert main([*args, "-o", str(out), str(path)]) in (0, 1)
    return out.read_bytes()


def reference(records: list[Any]) -> bytes:
    """What the standard library writes for each record (docs/behaviour.md#cli field order)."""
    lines = []
    for record in records:
        ex = normalize(record)
        obj: dict[str, Any] = {}
        if "id" in record:
            obj["id"] = record["id"]
        obj.update(
            visible=ex.visible,
            reasoning=ex.reasoning,
            tokens_est=ex.tokens_est,
            provider=ex.provider,
            format=ex.format,
            reasoning_tokens=ex.reasoning_tokens,
            redacted=ex.redacted,
        )
        lines.append(json.dumps(obj, ensure_ascii=False) + "\n")
    return "".join(lines).encode("utf-8", "surrogatepass")


def chat(content: str, reasoning: Any, rid: Any, tokens: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if reasoning is not None:
        message["reasoning_content"] = reasoning
    record: dict[str, Any] = {"choices": [{"index": 0, "message": message}]}
    if rid is not None:
        record["id"] = rid
    if tokens is not None:
        record["usage"] = {"completion_tokens_details": {"reasoning_tokens": tokens}}
    return record


TEXT = st.text(
    st.characters(blacklist_categories=("Cs",)) | st.sampled_from('"\\/\n\t\x00\x7f\u2028é✓😀'),
    max_size=20,
)
IDS = st.one_of(
    st.none(),
    TEXT,
    st.integers(-(2**80), 2**80),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(TEXT, st.none() | TEXT, IDS, st.none() | st.integers(0, 10**6))))
def test_fast_and_stdlib_paths_are_byte_identical(
    tmp_path_factory: pytest.TempPathFactory, rows: list[tuple[Any, Any, Any, Any]]
) -> None:
    tmp = tmp_path_factory.mktemp("fast")
    records = [chat(*row) for row in rows]
    src = tmp / "in.jsonl"
    src.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), "utf-8")
    fast = cli_output(src, tmp / "fast.jsonl")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_jsonl, "_FAST_LOADS", None)
        mp.setattr(_jsonl, "_QUOTE", _jsonl._quote_std)
        slow = cli_output(src, tmp / "slow.jsonl")
    assert fast == slow == reference(records)


def test_values_the_fast_decoder_rejects_fall_back_to_the_standard_decoder(tmp_path: Path) -> None:
    # NaN, infinities, lone-surrogate escapes and deep nesting are read as the stdlib reads them;
    # integers beyond 64 bits stay exact.
    deep = "[" * 900 + "]" * 900
    too_deep = "[" * 1000 + "]" * 1000
    src = tmp_path / "in.jsonl"
    src.write_text(
        '{"id": NaN, "choices": [{"message": {"content": "a"}}]}\n'
        '{"id": 123456789012345678901234567890, "choices": [{"message": {"content": "b"}}]}\n'
        '{"id": -9223372036854775809, "choices": [{"message": {"content": "b"}}]}\n'
        '{"id": 1e400, "choices": [{"message": {"content": "b"}}]}\n'
        '{"id": "\\ud800", "choices": [{"message": {"content": "\\udfff c"}}]}\n'
        '{"id": 1, "id": 2.50, "choices": [{"message": {"content": "d"}}]}\n'
        f'{{"id": 3, "x": {deep}, "choices": [{{"message": {{"content": "e"}}}}]}}\n'
        f'{{"id": 4, "x": {too_deep}, "choices": [{{"message": {{"content": "f"}}}}]}}\n',
        encoding="utf-8",
    )
    out = cli_output(src, tmp_path / "o.jsonl", "-r")
    assert out == (
        b'{"id": NaN, "reasoning": null}\n'
        b'{"id": 123456789012345678901234567890, "reasoning": null}\n'
        b'{"id": -9223372036854775809, "reasoning": null}\n'
        b'{"id": Infinity, "reasoning": null}\n'
        b'{"id": "\xef\xbf\xbd", "reasoning": null}\n'
        b'{"id": 2.5, "reasoning": null}\n'
        b'{"id": 3, "reasoning": null}\n'
        b'{"error": "invalid JSON: nested too deeply"}\n'
    )


JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**100), 2**100)
    | st.floats(allow_nan=False, allow_infinity=False)
    | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


@pytest.mark.skipif(
    _jsonl._FAST_LOADS is None, reason="msgspec is not installed (pip install thinkparse[fast])"
)
@settings(max_examples=300)
@given(JSON_VALUES, st.sampled_from([None, 0, 2]))
def test_fast_decoder_values_equal_the_standard_decoders(value: Any, indent: Any) -> None:
    # What the fast decoder accepts, it reads exactly as json.loads does (types included).
    assert _jsonl._FAST_LOADS is not None
    raw = json.dumps(value, ensure_ascii=bool(indent), indent=indent).encode("utf-8")
    fast = _jsonl._FAST_LOADS(raw)
    assert repr(fast) == repr(json.loads(raw))


@pytest.mark.skipif(
    _jsonl._FAST_LOADS is None and not os.environ.get("THINKPARSE_REQUIRE_ENGINES"),
    reason="msgspec is not installed (pip install thinkparse[fast])",
)
def test_msgspec_is_used_when_installed() -> None:
    import msgspec

    assert _jsonl._FAST_LOADS is msgspec.json.decode


@pytest.mark.skipif(
    _jsonl._FAST_LOADS is None, reason="msgspec is not installed (pip install thinkparse[fast])"
)
def test_fast_quoting_equals_the_standard_encoder_for_every_code_point() -> None:
    # Every code point but the surrogates, one per string and all in one string.
    quote = _jsonl._QUOTE
    chars = [chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF]
    for ch in chars:
        assert quote(ch) == json.dumps(ch, ensure_ascii=False).encode("utf-8"), hex(ord(ch))
    text = "".join(chars)
    assert quote(text) == json.dumps(text, ensure_ascii=False).encode("utf-8")


def test_lone_surrogates_are_written_as_replacement_characters() -> None:
    # The output is UTF-8: a lone surrogate from a JSON escape becomes U+FFFD, on both paths.
    for quote in (_jsonl._QUOTE, _jsonl._quote_std):
        assert quote("a\ud800b\udfff") == '"a\ufffdb\ufffd"'.encode()
