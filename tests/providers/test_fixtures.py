"""Provider fixtures (P1-P12): every file under ``tests/data`` against the normalisers.

Each fixture is one JSON file ``tests/data/<group>/<case>.json`` holding:

* ``description`` -- one line naming the documented wire format or SDK type it follows;
* ``provider`` -- the family to pass to the normaliser, or ``null`` to exercise detection (P8);
* ``options`` -- optional keyword arguments for ``StreamNormalizer`` (e.g. ``start_in_reasoning``);
* ``response`` (one whole response) or ``events`` (a stream, in order);
* ``expected`` -- every field of the resulting ``Extraction``, derived by hand from P1-P12 and T10.

Response fixtures go through ``normalize``; stream fixtures are fed event by event to a
``StreamNormalizer`` and closed, and the concatenated deltas are checked against the result (P9).
Every fixture is run twice: with its own ``provider`` value and with the other mode (detection
when a family was given, the family when detection was asked for), since both must agree (P8).
"""

from __future__ import annotations

import copy
from typing import Any, Optional

import pytest
from _support import DATA, case_id, extraction_as_dict, load_json

import thinkparse
from thinkparse import Delta, Extraction, ScannerClosedError, StreamNormalizer, Usage, normalize

FAMILIES = {"openai_chat", "openai_responses", "anthropic", "gemini", "bedrock", "ollama",
            "cohere"}
FORMATS = {"field", "blocks", "tags", "harmony", "none"}
EXPECTED_KEYS = {
    "visible",
    "reasoning",
    "reasoning_tokens",
    "tokens_est",
    "redacted",
    "signatures",
    "provider",
    "format",
    "usage",
}
USAGE_KEYS = {"input_tokens", "output_tokens", "reasoning_tokens", "total_tokens"}


_load = load_json


_case_id = case_id


# ``replay/`` holds the lossless-turn fixtures (a response and its stream together), checked by
# test_providers_replay.py; files directly under ``tests/data`` (model names, the peers' test
# vectors) are not provider fixtures.
FILES = sorted(p for p in DATA.rglob("*.json") if p.parent.name != "replay" and p.parent != DATA)
CASES = {_case_id(p): _load(p) for p in FILES}
RESPONSE_IDS = [cid for cid, case in CASES.items() if "response" in case]
STREAM_IDS = [cid for cid, case in CASES.items() if "events" in case]



def assert_result_types(result: Extraction) -> None:
    """Field types of A1: str / Optional[str] / Optional[int] / bool / tuple / Usage."""
    assert isinstance(result, Extraction)
    assert isinstance(result.visible, str)
    assert result.reasoning is None or isinstance(result.reasoning, str)
    assert isinstance(result.signatures, tuple)
    assert all(isinstance(s, str) for s in result.signatures)
    assert isinstance(result.redacted, bool)
    assert isinstance(result.usage, Usage)


def run_stream(
    events: list[Any], provider: Optional[str], options: dict[str, Any]
) -> tuple[list[Delta], Extraction]:
    """Feed every event to a fresh ``StreamNormalizer``, close it, return (deltas, result)."""
    normalizer = StreamNormalizer(provider=provider, **options)
    with pytest.raises(RuntimeError):
        _ = normalizer.result  # behaviour.md#a1: .result before close() raises RuntimeError
    deltas = [normalizer.feed(event) for event in events]
    deltas.append(normalizer.close())
    for delta in deltas:
        assert isinstance(delta, Delta)
        assert isinstance(delta.visible, str)
        assert isinstance(delta.reasoning, str)
    return deltas, normalizer.result


def assert_same_up_to_ends(joined: str, final: Optional[str]) -> None:
    """P9: the result equals the concatenated deltas, up to P1/P3 stripping at the two ends."""
    if not final:
        assert joined.strip() == "", (joined, final)
        return
    assert final in joined, (joined, final)
    assert joined.strip() == final.strip(), (joined, final)


def assert_p9(deltas: list[Delta], result: Extraction) -> None:
    assert_same_up_to_ends("".join(d.visible for d in deltas), result.visible)
    assert_same_up_to_ends("".join(d.reasoning for d in deltas), result.reasoning)


def is_keepalive(event: dict[str, Any]) -> bool:
    """P9 keep-alives: Anthropic ``ping``; an OpenAI-style chunk with empty choices and no usage."""
    if event.get("type") == "ping":
        return True
    return event.get("choices") == [] and not event.get("usage") and "x_groq" not in event


def _other_mode(case: dict[str, Any]) -> Optional[str]:
    family: str = case["expected"]["provider"]
    return family if case["provider"] is None else None


# ---------------------------------------------------------------------------------------------
# The fixtures themselves are well formed.


@pytest.mark.parametrize("cid", list(CASES), ids=list(CASES))
def test_fixture_is_well_formed(cid: str) -> None:
    case = CASES[cid]
    assert isinstance(case["description"], str)
    assert case["description"].strip()
    assert "\n" not in case["description"]
    assert ("response" in case) != ("events" in case)
    if "events" in case:
        assert isinstance(case["events"], list)
        assert case["events"]
    else:
        assert isinstance(case["response"], dict)
    assert set(case) <= {"description", "provider", "options", "response", "events", "expected"}
    assert "options" not in case or "events" in case
    assert case["provider"] is None or case["provider"] in FAMILIES
    expected = case["expected"]
    assert set(expected) == EXPECTED_KEYS
    assert set(expected["usage"]) == USAGE_KEYS
    assert expected["provider"] in FAMILIES
    assert case["provider"] in (None, expected["provider"])
    assert expected["format"] in FORMATS
    reasoning = expected["reasoning"]
    # P2: no readable reasoning -> None; P11: "none" exactly when nothing readable.
    assert reasoning is None or reasoning.strip() != ""
    assert (expected["format"] == "none") == (reasoning is None)
    # behaviour.md#a1: tokens_est = ceil(len(reasoning) / 4), 0 when None.
    assert expected["tokens_est"] == (0 if reasoning is None else -(-len(reasoning) // 4))
    # P12: usage.reasoning_tokens is the P5 figure.
    assert expected["usage"]["reasoning_tokens"] == expected["reasoning_tokens"]
    # P1: whitespace-only visible becomes "".
    assert expected["visible"] == "" or expected["visible"].strip() != ""


def test_every_group_has_fixtures() -> None:
    groups = {cid.split("/")[0] for cid in CASES}
    assert groups == FAMILIES | {"mistral", "harmony"}
    streamed = {CASES[cid]["expected"]["provider"] for cid in STREAM_IDS}
    assert streamed == FAMILIES


# ---------------------------------------------------------------------------------------------
# Whole responses: normalize().


@pytest.mark.parametrize("cid", RESPONSE_IDS, ids=RESPONSE_IDS)
def test_normalize_fixture(cid: str) -> None:
    # P1-P8, P11, P12 as written in the fixture's expected block.
    case = CASES[cid]
    response = copy.deepcopy(case["response"])
    result = normalize(response, provider=case["provider"])
    assert_result_types(result)
    assert extraction_as_dict(result) == case["expected"]
    assert result.reasoning_tokens == result.usage.reasoning_tokens  # P5, P12
    assert response == case["response"]  # the input is not modified


@pytest.mark.parametrize("cid", RESPONSE_IDS, ids=RESPONSE_IDS)
def test_normalize_fixture_other_provider_mode(cid: str) -> None:
    # P8: detection and the explicit family decode the payload the same way.
    case = CASES[cid]
    result = normalize(copy.deepcopy(case["response"]), provider=_other_mode(case))
    assert extraction_as_dict(result) == case["expected"]


def test_normalize_is_exported_from_the_package() -> None:
    # behaviour.md#a1: the normalisers are importable from ``thinkparse``.
    assert thinkparse.normalize is normalize
    assert thinkparse.StreamNormalizer is StreamNormalizer


# ---------------------------------------------------------------------------------------------
# Streams: StreamNormalizer.


@pytest.mark.parametrize("cid", STREAM_IDS, ids=STREAM_IDS)
def test_stream_fixture(cid: str) -> None:
    # P9 (and P1-P8, P11, P12 for the result).
    case = CASES[cid]
    events = copy.deepcopy(case["events"])
    deltas, result = run_stream(events, case["provider"], case.get("options", {}))
    assert_result_types(result)
    assert extraction_as_dict(result) == case["expected"]
    assert_p9(deltas, result)
    assert events == case["events"]  # the events are not modified


@pytest.mark.parametrize("cid", STREAM_IDS, ids=STREAM_IDS)
def test_stream_fixture_other_provider_mode(cid: str) -> None:
    # P8, P9: the family decided by the first event equals the explicit one.
    case = CASES[cid]
    deltas, result = run_stream(
        copy.deepcopy(case["events"]), _other_mode(case), case.get("options", {})
    )
    assert extraction_as_dict(result) == case["expected"]
    assert_p9(deltas, result)


KEEPALIVE_IDS = [cid for cid in STREAM_IDS if any(is_keepalive(e) for e in CASES[cid]["events"])]


def test_keepalive_streams_exist() -> None:
    # Both kinds of P9 keep-alive occur in the fixtures.
    kinds = {
        "ping" if e.get("type") == "ping" else "empty choices"
        for cid in KEEPALIVE_IDS
        for e in CASES[cid]["events"]
        if is_keepalive(e)
    }
    assert kinds == {"ping", "empty choices"}


@pytest.mark.parametrize("cid", KEEPALIVE_IDS, ids=KEEPALIVE_IDS)
def test_stream_keepalives_give_empty_deltas(cid: str) -> None:
    # P9: ping events and chunks with empty choices and no usage release nothing.
    case = CASES[cid]
    normalizer = StreamNormalizer(provider=case["provider"], **case.get("options", {}))
    for event in copy.deepcopy(case["events"]):
        delta = normalizer.feed(event)
        if is_keepalive(event):
            assert delta == ("", "")
    normalizer.close()


@pytest.mark.parametrize("cid", STREAM_IDS, ids=STREAM_IDS)
def test_stream_feed_after_close_raises(cid: str) -> None:
    # behaviour.md#a1: feed() after close() raises ScannerClosedError (a RuntimeError).
    case = CASES[cid]
    normalizer = StreamNormalizer(provider=case["provider"], **case.get("options", {}))
    for event in copy.deepcopy(case["events"]):
        normalizer.feed(event)
    normalizer.close()
    with pytest.raises(ScannerClosedError):
        normalizer.feed(copy.deepcopy(case["events"][0]))
    assert extraction_as_dict(normalizer.result) == case["expected"]
