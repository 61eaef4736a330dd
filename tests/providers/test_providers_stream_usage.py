"""The Gemini stream's usage (P12): its decoder reads the REST usage object of a chunk in place
and keeps each figure's last reported value until the stream ends.  For generated streams of
every usage shape (REST and google-genai names, missing, null and malformed counts, objects
that are not dicts), the figures and the errors are those of reading every chunk with
``gemini.usage_figures`` and keeping each figure's last value, as the collector does.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Optional

from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import StreamNormalizer, ThinkParseError
from thinkparse.providers import gemini

COUNT = st.one_of(st.integers(0, 9), st.none(), st.just(4.0), st.just(True), st.just("7"))
NAMES = st.sampled_from([gemini._CAMEL, gemini._SNAKE])


@st.composite
def usage_objects(draw: Any) -> Any:
    names = draw(NAMES)
    u = {n: draw(COUNT) for n in names if draw(st.booleans())}
    return MappingProxyType(u) if draw(st.integers(0, 5)) == 0 else u


@st.composite
def chunks(draw: Any) -> dict[str, Any]:
    ev: dict[str, Any] = {"candidates": [{"content": {"parts": [{"text": "a"}]}, "index": 0}]}
    key = draw(st.sampled_from(["usageMetadata", "usage_metadata", None]))
    if key is not None:
        ev[key] = draw(st.one_of(usage_objects(), st.none()))
    return ev


def error_of(fn: Any) -> Optional[tuple[str, str]]:
    try:
        fn()
    except ThinkParseError as e:
        return type(e).__name__, str(e)
    return None


@settings(max_examples=400, deadline=None)
@given(st.lists(chunks(), min_size=1, max_size=8))
def test_stream_usage_is_the_last_value_of_each_figure(events: list[dict[str, Any]]) -> None:
    held: Optional[list[Optional[int]]] = None
    sn = StreamNormalizer(provider="gemini")
    for ev in events:
        expected = error_of(lambda e=ev: gemini.usage_figures(e))
        assert error_of(lambda e=ev: sn.feed(e)) == expected
        figures = gemini.usage_figures(ev) if expected is None else None
        if figures is not None:
            held = list(figures) if held is None else [
                old if new is None else new for new, old in zip(figures, held)]
    sn.close()
    u = sn.result.usage
    got = [u.input_tokens, u.output_tokens, u.total_tokens, u.reasoning_tokens]
    assert got == (held or [None] * 4)
