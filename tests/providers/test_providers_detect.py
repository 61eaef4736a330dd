"""Detection (P8), input objects (P7) and the ``provider=`` argument of ``normalize``."""

from __future__ import annotations

import types
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from thinkparse import (
    ResponseShapeError,
    StreamNormalizer,
    ThinkParseError,
    UnknownProviderError,
    normalize,
)

RESPONSES: dict[str, dict[str, Any]] = {
    "openai_chat": {"choices": [{"message": {"content": "a"}}]},
    "openai_responses": {"object": "response", "output": []},
    "anthropic": {"type": "message", "role": "assistant", "content": [{"type": "text",
                                                                       "text": "a"}]},
    "gemini": {"candidates": [{"content": {"parts": [{"text": "a"}]}}]},
    "bedrock": {"output": {"message": {"content": [{"text": "a"}]}}},
    "ollama": {"message": {"role": "assistant", "content": "a"}, "done": True},
    "cohere": {"id": "r", "finish_reason": "COMPLETE",
               "message": {"role": "assistant", "content": [{"type": "text", "text": "a"}]}},
}


@pytest.mark.parametrize("family", sorted(RESPONSES))
def test_detects_each_family(family: str) -> None:
    # P8: provider=None detects the family from the shape alone
    assert normalize(RESPONSES[family]).provider == family


@pytest.mark.parametrize(
    ("payload", "family"),
    [
        ({"output": [], "status": "completed"}, "openai_responses"),  # output list alone
        ({"promptFeedback": {"blockReason": "SAFETY"}}, "gemini"),
        ({"prompt_feedback": {"block_reason": "SAFETY"}}, "gemini"),
        ({"object": "interaction", "status": "completed", "steps": []}, "gemini"),  # P15
        ({"steps": [{"type": "thought", "signature": "s"}], "status": "completed"}, "gemini"),
        ({"outputs": [], "status": "completed"}, "gemini"),  # P15: legacy outputs
        ({"message": {"content": "a", "thinking": "t"}}, "ollama"),  # message.thinking
        ({"response": "a", "thinking": "t"}, "ollama"),  # response + thinking
        ({"response": "a", "done": False}, "ollama"),
        ({"message": {"role": "assistant", "tool_plan": "p"}, "finish_reason": "TOOL_CALL"},
         "cohere"),  # a message without content
    ],
)
def test_detection_variants(payload: dict[str, Any], family: str) -> None:
    # P8: the other shapes each family is recognised by
    assert normalize(payload).provider == family


def test_object_response_without_output() -> None:
    # P8: object "response" is recognised; its missing output is then a shape error
    with pytest.raises(ResponseShapeError) as info:
        normalize({"object": "response", "output": None, "x": 1})
    assert info.value.path == "output"


def test_unknown_shape_names_keys() -> None:
    # P8: UnknownProviderError names the keys it saw
    with pytest.raises(UnknownProviderError) as info:
        normalize({"foo": 1, "bar": {"baz": 2}})
    assert "'foo'" in str(info.value) and "'bar'" in str(info.value)
    assert isinstance(info.value, ValueError) and isinstance(info.value, ThinkParseError)


def test_unknown_empty_mapping() -> None:
    # P8
    with pytest.raises(UnknownProviderError, match="no keys"):
        normalize({})


def test_anthropic_needs_content_list() -> None:
    # P8: type "message" alone is not enough
    with pytest.raises(UnknownProviderError):
        normalize({"type": "message", "content": "text"})


def test_stream_event_given_to_normalize() -> None:
    # P8 (decision): the message points to StreamNormalizer
    with pytest.raises(UnknownProviderError, match="StreamNormalizer"):
        normalize({"type": "content_block_delta", "index": 0,
                   "delta": {"type": "text_delta", "text": "a"}})


def test_explicit_provider() -> None:
    # P8: provider= skips detection; the family's required fields are then checked
    assert normalize(RESPONSES["ollama"], provider="ollama").provider == "ollama"
    with pytest.raises(ResponseShapeError) as info:
        normalize(RESPONSES["ollama"], provider="openai_chat")
    assert info.value.path == "choices"


def test_unknown_provider_name() -> None:
    # decision: an unknown family name is an UnknownProviderError listing the known ones
    with pytest.raises(UnknownProviderError, match="openai_chat"):
        normalize(RESPONSES["ollama"], provider="openai")
    with pytest.raises(UnknownProviderError):
        StreamNormalizer(provider="claude")


def test_provider_must_be_str() -> None:
    # docs/behaviour.md#a1: bad argument type
    with pytest.raises(TypeError, match="provider"):
        normalize(RESPONSES["ollama"], provider=3)  # type: ignore[arg-type]


def test_positional_only_and_keyword_only() -> None:
    # docs/behaviour.md#a1: the data argument is positional-only; options keyword-only
    with pytest.raises(TypeError):
        normalize(response=RESPONSES["ollama"])  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        normalize(RESPONSES["ollama"], "ollama")  # type: ignore[call-arg]


# --- P7 input objects ----------------------------------------------------------------------------
class Model:
    """A pydantic-like model: model_dump(by_alias=..., mode=..., warnings=...)."""

    def __init__(self, data: dict[str, Any], aliased: dict[str, Any]) -> None:
        self._data = data
        self._aliased = aliased
        self.calls: list[dict[str, Any]] = []

    def model_dump(self, *, by_alias: bool = False, mode: str = "python",
                   warnings: bool = True) -> dict[str, Any]:
        self.calls.append({"by_alias": by_alias, "mode": mode, "warnings": warnings})
        return self._aliased if by_alias else self._data


def test_model_dump_by_alias() -> None:
    # P7: model_dump() is called with by_alias=True (wire names, e.g. google-genai camelCase)
    snake = {"candidates": [{"content": {"parts": [{"text": "x"}]}}],
             "usage_metadata": {"prompt_token_count": 1}}
    camel = {"candidates": [{"content": {"parts": [{"text": "x"}]}}],
             "usageMetadata": {"promptTokenCount": 2}}
    m = Model(snake, camel)
    assert normalize(m).usage.input_tokens == 2
    assert m.calls[0]["by_alias"] is True


class OldModel:
    """model_dump() without keyword arguments."""

    def model_dump(self) -> dict[str, Any]:
        return {"choices": [{"message": {"content": "old"}}]}


def test_model_dump_falls_back_without_arguments() -> None:
    # P7: older model_dump signatures still work
    assert normalize(OldModel()).visible == "old"


class ToDict:
    def to_dict(self) -> dict[str, Any]:
        return {"type": "message", "content": [{"type": "text", "text": "td"}]}


def test_to_dict_objects() -> None:
    # P7: objects with to_dict()
    assert normalize(ToDict()).visible == "td"


class BadDump:
    def model_dump(self, **kwargs: Any) -> list[int]:
        return [1]


def test_model_dump_returning_non_mapping() -> None:
    # P7: anything else raises TypeError naming the type
    with pytest.raises(TypeError, match="BadDump"):
        normalize(BadDump())


class Ro(Mapping[str, Any]):
    def __init__(self, d: dict[str, Any]) -> None:
        self._d = d

    def __getitem__(self, k: str) -> Any:
        return self._d[k]

    def __iter__(self) -> Iterator[str]:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)


def test_any_mapping() -> None:
    # P7: any Mapping works, at the top and nested
    d = Ro({"choices": [Ro({"message": Ro({"content": "m", "reasoning": "r"})})]})
    r = normalize(d)
    assert (r.visible, r.reasoning) == ("m", "r")
    assert normalize(types.MappingProxyType(RESPONSES["ollama"])).visible == "a"


def test_nested_model_objects() -> None:
    # P7: SDK objects nested in a dict are converted too
    msg = Model({"content": "n", "reasoning_content": "rc"},
                {"content": "n", "reasoning_content": "rc"})
    r = normalize({"choices": [{"message": msg}]})
    assert (r.visible, r.reasoning) == ("n", "rc")


def test_unknown_extra_keys_ignored() -> None:
    # P7: extra keys anywhere are ignored
    r = normalize({"choices": [{"message": {"content": "a", "zzz": [1, {"y": None}]},
                                "weird": True}], "extra": {"k": 1}})
    assert r.visible == "a"


@pytest.mark.parametrize(
    ("value", "hint"),
    [("{\"choices\": []}", "json.loads"), ([{"choices": []}], "StreamNormalizer"), (42, "int")],
)
def test_type_errors_with_hints(value: Any, hint: str) -> None:
    # P7: TypeError naming the type, with a hint where one helps
    with pytest.raises(TypeError, match=hint):
        normalize(value)
