"""Real SDK objects in, same result out (P7): every fixture rebuilt as the provider SDK's own types.

The objects are built the way each SDK builds them from the wire, without any client mock:

* ``openai``: the client constructs response models without validation (``Model.construct``), so
  wire shapes beyond the declared types (Mistral content lists, Groq service tiers, Azure
  keep-alive chunks) reach users exactly like this.  Chat fixtures are built that way.
* ``openai`` Responses, ``anthropic``, ``google-genai`` and ``ollama``: validated with
  ``model_validate`` / a pydantic ``TypeAdapter`` over the SDK's stream-event union, which also
  checks the fixtures against the SDKs' type definitions.  google-genai decodes ``thoughtSignature``
  to ``bytes``; the normaliser must give back the same base64 text as the wire dict.
* Anthropic ``ping`` events are dropped, as the SDK's stream does; the dict run drops them too so
  the two runs see the same events.
* ``cohere``: ``V2ChatResponse`` and the ``StreamedChatResponseV2`` union validated the same way
  (the SDK types token counts as ``float``: the normaliser gives them back as integers).
* google-genai's Interactions types (``Interaction``, the ``InteractionSSEEvent`` union, P15)
  for the Interactions fixtures; its dump adds the SDK-computed ``output_text`` and drops
  ``object``, which changes nothing.  The legacy ``outputs`` schema has no type left: skipped.
* Bedrock has no pydantic SDK: boto3 returns the plain dicts the fixtures already are.

Each object must normalise exactly like its dict (and like the fixture's ``expected``).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Optional

import pytest
from _support import DATA, extraction_as_dict, load_json

from thinkparse import StreamNormalizer, normalize

SDK_FAMILIES = {"openai_chat", "openai_responses", "anthropic", "gemini", "ollama", "cohere"}


_load = load_json


# ``replay/`` holds the lossless-turn fixtures, checked by test_providers_replay.py.
CASES = {
    p.relative_to(DATA).with_suffix("").as_posix(): _load(p)
    for p in sorted(DATA.rglob("*.json"))
    if p.parent.name != "replay"
}
SDK_IDS = [cid for cid, c in CASES.items() if c["expected"]["provider"] in SDK_FAMILIES]
RESPONSE_IDS = [cid for cid in SDK_IDS if "response" in CASES[cid]]
STREAM_IDS = [cid for cid in SDK_IDS if "events" in CASES[cid]]

Builder = Callable[[dict[str, Any]], Any]


def _openai_chat_builders() -> tuple[Builder, Builder]:
    pytest.importorskip("openai")
    from openai.types import Completion
    from openai.types.chat import ChatCompletion, ChatCompletionChunk

    def response(d: dict[str, Any]) -> Any:
        model = Completion if d.get("object") == "text_completion" else ChatCompletion
        return model.construct(**copy.deepcopy(d))

    def event(d: dict[str, Any]) -> Any:
        return ChatCompletionChunk.construct(**copy.deepcopy(d))

    return response, event


def _openai_responses_builders() -> tuple[Builder, Builder]:
    pytest.importorskip("openai")
    from openai.types.responses import Response, ResponseStreamEvent
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(ResponseStreamEvent)
    return Response.model_validate, adapter.validate_python


def _anthropic_builders() -> tuple[Builder, Builder]:
    pytest.importorskip("anthropic")
    from anthropic.types import Message, RawMessageStreamEvent
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(RawMessageStreamEvent)
    return Message.model_validate, adapter.validate_python


def _gemini_builders() -> tuple[Builder, Builder]:
    pytest.importorskip("google.genai")
    from google.genai import types
    from google.genai._gaos.types.interactions import interaction, interactionsseevent
    from pydantic import TypeAdapter

    content = types.GenerateContentResponse.model_validate
    sse: TypeAdapter[Any] = TypeAdapter(interactionsseevent.InteractionSSEEvent)

    def _legacy(d: dict[str, Any]) -> bool:
        return "outputs" in d or d.get("event_type") in (
            "interaction.start", "interaction.complete", "content.start", "content.delta",
            "content.stop")

    def response(d: dict[str, Any]) -> Any:  # P15: an interaction, or generateContent
        if _legacy(d):
            pytest.skip("the legacy Interactions schema has no type in google-genai")
        return interaction.Interaction.model_validate(d) if "steps" in d else content(d)

    def event(d: dict[str, Any]) -> Any:
        if _legacy(d):
            pytest.skip("the legacy Interactions schema has no type in google-genai")
        return sse.validate_python(d) if "event_type" in d else content(d)

    return response, event


def _ollama_builders() -> tuple[Builder, Builder]:
    ollama = pytest.importorskip("ollama")

    def build(d: dict[str, Any]) -> Any:
        model = ollama.ChatResponse if "message" in d else ollama.GenerateResponse
        return model.model_validate(d)

    return build, build


def _cohere_builders() -> tuple[Builder, Builder]:
    cohere = pytest.importorskip("cohere")
    from pydantic import TypeAdapter

    adapter: TypeAdapter[Any] = TypeAdapter(cohere.StreamedChatResponseV2)
    return cohere.V2ChatResponse.model_validate, adapter.validate_python


BUILDERS: dict[str, Callable[[], tuple[Builder, Builder]]] = {
    "openai_chat": _openai_chat_builders,
    "openai_responses": _openai_responses_builders,
    "anthropic": _anthropic_builders,
    "gemini": _gemini_builders,
    "ollama": _ollama_builders,
    "cohere": _cohere_builders,
}





def _stream(
    events: list[Any], provider: Optional[str], options: dict[str, Any]
) -> tuple[list[tuple[str, str]], dict[str, Any]]:
    normalizer = StreamNormalizer(provider=provider, **options)
    deltas = [(d.visible, d.reasoning) for d in map(normalizer.feed, events)]
    last = normalizer.close()
    deltas.append((last.visible, last.reasoning))
    return deltas, extraction_as_dict(normalizer.result)


@pytest.mark.parametrize("cid", RESPONSE_IDS, ids=RESPONSE_IDS)
def test_sdk_response_object_normalizes_like_its_dict(cid: str) -> None:
    # P7: an SDK object (model_dump / to_dict) gives the same Extraction as the wire dict.
    case = CASES[cid]
    build_response, _ = BUILDERS[case["expected"]["provider"]]()
    obj = build_response(case["response"])
    assert not isinstance(obj, dict)
    from_obj = extraction_as_dict(normalize(obj, provider=case["provider"]))
    response = copy.deepcopy(case["response"])
    from_dict = extraction_as_dict(normalize(response, provider=case["provider"]))
    assert from_obj == from_dict
    assert from_obj == case["expected"]


@pytest.mark.parametrize("cid", RESPONSE_IDS, ids=RESPONSE_IDS)
def test_sdk_response_object_detected(cid: str) -> None:
    # P7, P8: the family is detected from an SDK object's dumped shape as well.
    case = CASES[cid]
    build_response, _ = BUILDERS[case["expected"]["provider"]]()
    assert extraction_as_dict(normalize(build_response(case["response"]))) == case["expected"]


@pytest.mark.parametrize("cid", STREAM_IDS, ids=STREAM_IDS)
def test_sdk_stream_events_normalize_like_dicts(cid: str) -> None:
    # P7, P9: SDK event objects give the same deltas, call by call, and the same result.
    case = CASES[cid]
    _, build_event = BUILDERS[case["expected"]["provider"]]()
    events = [e for e in case["events"] if e.get("type") != "ping"]
    objects = [build_event(e) for e in events]
    assert not any(isinstance(o, dict) for o in objects)
    options = case.get("options", {})
    for provider in (case["provider"], None):
        obj_deltas, obj_result = _stream(objects, provider, options)
        dict_deltas, dict_result = _stream(copy.deepcopy(events), provider, options)
        assert obj_deltas == dict_deltas
        assert obj_result == dict_result == case["expected"]


def test_gemini_signature_bytes_round_trip() -> None:
    # P7: google-genai holds thought_signature as bytes; the signature comes back as the wire's
    # standard base64 text ('+' and '/', not the URL-safe alphabet).
    types = pytest.importorskip("google.genai.types")
    case = CASES["gemini/rest_thought_parts"]
    obj = types.GenerateContentResponse.model_validate(case["response"])
    wire_signature = case["response"]["candidates"][0]["content"]["parts"][1]["thoughtSignature"]
    assert isinstance(obj.candidates[0].content.parts[1].thought_signature, bytes)
    assert "+" in wire_signature
    assert normalize(obj).signatures == (wire_signature,)
