"""Public API of the ``<think>`` scanner (A1, S1 and presets), on both implementations.

Option validation, argument types, the closed-scanner contract, ``Delta`` / ``Split`` behaviour,
the presets, ``iter_think`` / ``aiter_think``, ``IMPLEMENTATION`` and the parity of the two
``ThinkScanner`` classes (public names, signatures, docstrings).
"""

from __future__ import annotations

import asyncio
import dataclasses
import importlib
import inspect
import os
import platform
import re
import subprocess
import sys
from collections.abc import AsyncIterator, Iterable, Iterator
from typing import Any, Optional

import pytest
from think_cases import ALL_CASES, KIMI_CLOSE, KIMI_OPEN, one_shot

import thinkparse
import thinkparse._scanner_py as scanner_py
import thinkparse._spec
from thinkparse import (
    Delta,
    ScannerClosedError,
    Split,
    ThinkParseError,
    aiter_think,
    iter_think,
    split_think,
    strip_think,
)

PyScanner = scanner_py.ThinkScanner

# --- option validation (A1) -----------------------------------------------------------
# Each row: options, the option the message must name.  ValueError is what behaviour.md#a1 requires.
VALUE_ERRORS = [
    ({"tags": ""}, "tags"),
    ({"tags": ("think", "")}, "tags"),
    ({"tags": "a<b"}, "tags"),
    ({"tags": "a>b"}, "tags"),
    ({"tags": "a/b"}, "tags"),
    ({"tags": "a b"}, "tags"),
    ({"tags": "a\tb"}, "tags"),
    ({"tags": "a\u00a0b"}, "tags"),  # whitespace means str.isspace() (behaviour.md#t1)
    ({"tags": ["think", "x\ny"]}, "tags"),
    ({"tags": ()}, "tags|delimiters"),
    ({"tags": [], "delimiters": []}, "tags|delimiters"),
    ({"delimiters": [("", "x")]}, "delimiters"),
    ({"delimiters": [("x", "")]}, "delimiters"),
    ({"delimiters": [("a",)]}, "delimiters"),
    ({"delimiters": [("a", "b", "c")]}, "delimiters"),
    ({"delimiters": [("a", 1)]}, "delimiters"),
    ({"delimiters": [(None, "b")]}, "delimiters"),
    ({"delimiters": ["abc"]}, "delimiters"),
    ({"delimiters": [("[T]", "[/T]"), ("x",)]}, "delimiters"),
    ({"delimiters": [("`x", "y")]}, "delimiters"),
    ({"delimiters": [("x", "`y")]}, "delimiters"),
    ({"delimiters": [("~~", "y")]}, "delimiters"),
    ({"delimiters": [("x", "~y")], "code_aware": True}, "delimiters"),
    ({"preset": "no-such-model"}, "preset"),
    ({"max_tentative": 0}, "max_tentative"),
    ({"max_tentative": -1}, "max_tentative"),
]

# Wrong types: behaviour.md#a1 names only ValueError for invalid options; either built-in error is
# accepted as long as the message names the option.
TYPE_OR_VALUE_ERRORS = [
    ({"tags": 5}, "tags"),
    ({"tags": ["think", 5]}, "tags"),
    ({"delimiters": "ab"}, "delimiters"),
    ({"delimiters": 5}, "delimiters"),
    ({"max_tentative": 1.5}, "max_tentative"),
    ({"max_tentative": "5"}, "max_tentative"),
    ({"start_in_reasoning": "yes"}, "start_in_reasoning"),
    ({"code_aware": "yes"}, "code_aware"),
    ({"preset": 5}, "preset"),
]


@pytest.mark.parametrize(("options", "name"), VALUE_ERRORS)
def test_invalid_option_value_error(scanner_cls: Any, options: dict[str, Any], name: str) -> None:
    # behaviour.md#a1: ValueError naming the option, from the constructor and from split_think
    with pytest.raises(ValueError, match=name):
        scanner_cls(**options)
    with pytest.raises(ValueError, match=name):
        split_think("x", **options)
    with pytest.raises(ValueError, match=name):
        strip_think("x", **options)


@pytest.mark.parametrize(("options", "name"), TYPE_OR_VALUE_ERRORS)
def test_invalid_option_type(scanner_cls: Any, options: dict[str, Any], name: str) -> None:
    # behaviour.md#a1 / bad input: a TypeError or ValueError whose message names the option
    with pytest.raises((TypeError, ValueError), match=name):
        scanner_cls(**options)
    with pytest.raises((TypeError, ValueError), match=name):
        split_think("x", **options)


def test_auto_refused_by_scanner(scanner_cls: Any) -> None:
    # behaviour.md#a1, T10: "auto" only in split_think / strip_think
    with pytest.raises(ValueError, match="start_in_reasoning"):
        scanner_cls(start_in_reasoning="auto")
    with pytest.raises(ValueError, match="start_in_reasoning"):
        scanner_cls(preset="deepseek-r1", start_in_reasoning="auto")
    assert split_think("a</think>b", start_in_reasoning="auto") == Split("b", "a")
    assert strip_think("a</think>b", start_in_reasoning="auto") == "b"


@pytest.mark.parametrize(
    ("options", "text", "expected"),
    [
        # behaviour.md#a1: code markers as delimiters are fine once code awareness is off
        ({"delimiters": [("`x", "y")], "code_aware": False}, "`xaya", ("a", "a")),
        ({"delimiters": [("~~", "~/")], "code_aware": False}, "~~a~/b", ("b", "a")),
        # a list pair is a 2-sequence of strings
        ({"delimiters": [["[T]", "[/T]"]]}, "[T]a[/T]b", ("b", "a")),
        ({"tags": ["think"]}, "<think>a</think>b", ("b", "a")),
        ({"max_tentative": 1}, "x<think>a</think>", ("x", "a")),
        ({"max_tentative": None}, "x<think>a</think>", ("x", "a")),
        ({"code_aware": False}, "`<think>a</think>", ("`", "a")),
    ],
)
def test_valid_options(
    scanner_cls: Any, options: dict[str, Any], text: str, expected: tuple[str, str]
) -> None:
    # behaviour.md#a1: accepted option forms work
    assert one_shot(scanner_cls, text, options) == expected


def test_options_keyword_only(scanner_cls: Any) -> None:
    # behaviour.md#a1: every option is keyword-only; the data argument is positional-only
    with pytest.raises(TypeError):
        scanner_cls("think")
    with pytest.raises(TypeError):
        split_think("x", "think")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        split_think(text="x")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        scanner_cls().feed(chunk="x")


# --- argument types (A1) --------------------------------------------------------------
@pytest.mark.parametrize("bad", [None, b"x", 1, ["a"], bytearray(b"x")], ids=repr)
def test_feed_non_str(scanner_cls: Any, bad: Any) -> None:
    # behaviour.md#a1: a non-str chunk raises TypeError
    with pytest.raises(TypeError):
        scanner_cls().feed(bad)


@pytest.mark.parametrize("bad", [None, b"x", 1, ["a"]], ids=repr)
def test_split_think_non_str(bad: Any) -> None:
    # behaviour.md#a1: a non-str message raises TypeError
    with pytest.raises(TypeError):
        split_think(bad)
    with pytest.raises(TypeError):
        strip_think(bad)


class _Str(str):
    pass


def test_str_subclass_accepted(scanner_cls: Any) -> None:
    # behaviour.md#a1: a str subclass is a str
    scanner = scanner_cls()
    v1, r1 = scanner.feed(_Str("<think>a</think>b"))
    v2, r2 = scanner.close()
    assert (v1 + v2, r1 + r2) == ("b", "a")
    assert split_think(_Str("x<think>a</think>")) == Split("x", "a")


# --- closing ---------------------------------------------------------------------------------
def test_feed_after_close(scanner_cls: Any) -> None:
    # A1: feed() after close() raises ScannerClosedError (a ThinkParseError, RuntimeError)
    scanner = scanner_cls()
    scanner.feed("abc")
    scanner.close()
    with pytest.raises(ScannerClosedError) as info:
        scanner.feed("x")
    assert isinstance(info.value, RuntimeError)
    assert isinstance(info.value, ThinkParseError)
    with pytest.raises(ScannerClosedError):
        scanner.feed("")


def test_second_close_empty(scanner_cls: Any) -> None:
    # behaviour.md#a1: a 2nd close() returns an empty Delta
    scanner = scanner_cls()
    scanner.feed("Hi <thi")
    assert scanner.close() == ("<thi", "")
    for _ in range(2):
        again = scanner.close()
        assert isinstance(again, Delta)
        assert again == ("", "")
        assert not again


def test_close_without_feed(scanner_cls: Any) -> None:
    # behaviour.md#a1, T9: closing an unused scanner releases nothing (with T6: an empty block)
    scanner = scanner_cls()
    assert scanner.close() == ("", "")
    assert not scanner.had_block
    scanner = scanner_cls(start_in_reasoning=True)
    assert scanner.close() == ("", "")
    assert scanner.had_block


# --- Delta -----------------------------------------------------------------------------------
def test_delta_is_a_tuple(scanner_cls: Any) -> None:
    # behaviour.md#a1: Delta behaves as the 2-tuple (visible, reasoning)
    scanner = scanner_cls()
    delta = scanner.feed("<think>a</think>b")
    assert isinstance(delta, Delta)
    assert isinstance(delta, tuple)
    assert delta.visible == "b"
    assert delta.reasoning == "a"
    visible, reasoning = delta
    assert (visible, reasoning) == ("b", "a")
    assert delta[0] == "b"
    assert delta[1] == "a"
    assert delta[-1] == "a"
    assert len(delta) == 2
    assert delta == ("b", "a")
    assert ("b", "a") == delta  # noqa: SIM300 (the reflected comparison)
    assert delta != ("a", "b")
    assert hash(delta) == hash(("b", "a"))
    assert list(delta) == ["b", "a"]
    assert bool(delta)


def test_delta_falsy_only_when_empty(scanner_cls: Any) -> None:
    # behaviour.md#a1: falsy when both parts are ""
    scanner = scanner_cls()
    empty = scanner.feed("<think>")
    assert empty == ("", "")
    assert isinstance(empty, Delta)
    assert not empty
    assert scanner.feed("a")  # reasoning only
    assert scanner.feed("</think>x")  # visible only
    assert bool(Delta("", "")) is False
    assert bool(Delta("x", "")) is True
    assert bool(Delta("", "x")) is True


def test_delta_immutable_and_repr(scanner_cls: Any) -> None:
    # behaviour.md#a1: result types are immutable and have a readable repr
    delta = scanner_cls().feed("<think>why</think>ans")
    with pytest.raises(AttributeError):
        delta.visible = "x"
    with pytest.raises(TypeError):
        delta[0] = "x"
    text = repr(delta)
    assert "Delta" in text
    assert "visible" in text
    assert "reasoning" in text
    assert "'ans'" in text
    assert "'why'" in text


def test_split_type() -> None:
    # behaviour.md#a1: Split is immutable, typed, with a readable repr
    split = split_think("<think>why</think>ans")
    assert isinstance(split, Split)
    assert (split.visible, split.reasoning) == ("ans", "why")
    assert split == Split("ans", "why")
    with pytest.raises(dataclasses.FrozenInstanceError):
        split.visible = "x"  # type: ignore[misc]
    text = repr(split)
    assert "visible" in text
    assert "'ans'" in text
    assert "'why'" in text
    assert split_think("plain").reasoning is None


# --- presets (presets) ---------------------------------------------------------------------
GENERIC_TEXT = (
    "<think>a</think><thinking>b</thinking><thought>c</thought><reasoning>d</reasoning>e"
)
PRESET_CASES = [
    ("deepseek-r1", {}, "plan</think>\n\nans", "ans", "plan"),
    ("deepseek-r1", {}, "<think>\nplan</think>ans", "ans", "plan"),  # T6 echo
    ("deepseek-r1", {}, "", "", ""),  # T9: the implicit block always exists
    ("qwen3", {}, "<think>a</think>b", "b", "a"),
    ("qwen3", {}, "plan</think>ans", "planans", None),
    ("qwen3-thinking", {}, "plan</think>ans", "ans", "plan"),
    ("magistral", {}, "[THINK]a[/THINK]b", "b", "a"),
    ("magistral", {}, "<think>a</think>b", "<think>a</think>b", None),
    ("kimi", {}, KIMI_OPEN + "a" + KIMI_CLOSE + "b", "b", "a"),
    ("kimi", {}, "<think>a</think>b", "<think>a</think>b", None),
    ("minimax", {}, "<think>a</think>b", "b", "a"),
    ("claude-text", {}, "<thinking>a</thinking>b", "b", "a"),
    ("claude-text", {}, "<think>a</think>b", "<think>a</think>b", None),
    ("generic", {}, GENERIC_TEXT, "e", "a\n\nb\n\nc\n\nd"),
    ("generic", {}, "<REASONING>a</REASONING>b", "b", "a"),
    # behaviour.md#presets "add other presets you can source": the extra presets of thinkparse._spec
    ("granite", {}, "Here is my thought process:\nplan\nHere is my response:\nanswer",
     "answer", "plan"),
    ("granite", {}, "Here's my thought process: a Here's my response: b", "b", "a"),
    ("granite", {}, "Hello. Here is my response: x", "Hello.  x", None),
    ("granite", {}, "Here is my answer", "Here is my answer", None),
    ("seed-oss", {}, "<seed:think>a</seed:think>b", "b", "a"),
    ("seed-oss", {}, "<think>a</think>b", "", "<think>a</think>b"),  # F1: template-opened
    ("glm-4.5", {}, "<think>a</think>b", "b", "a"),
    # behaviour.md#a1: an option passed explicitly replaces the preset's value for that option
    ("deepseek-r1", {"start_in_reasoning": False}, "plan</think>ans", "planans", None),
    ("qwen3", {"start_in_reasoning": True}, "plan</think>ans", "ans", "plan"),
    ("magistral", {"tags": "think"}, "<think>a</think>[THINK]b[/THINK]c", "c", "a\n\nb"),
    ("claude-text", {"tags": "think"}, "<thinking>a</thinking>b", "<thinking>a</thinking>b",
     None),
    ("claude-text", {"tags": "think"}, "<think>a</think>b", "b", "a"),
    ("magistral", {"delimiters": [("<<", ">>")]}, "[THINK]a[/THINK]b<<c>>d",
     "[THINK]a[/THINK]bd", "c"),
    ("qwen3", {"max_tentative": 3}, "Hi <think>abcd</think>", "Hi <think>abcd", None),
    ("qwen3", {"code_aware": False}, "`<think>a</think>`", "``", "a"),
]


@pytest.mark.parametrize(
    ("preset", "extra", "text", "visible", "reasoning"),
    PRESET_CASES,
    ids=[f"{p[0]}-{i}" for i, p in enumerate(PRESET_CASES)],
)
def test_presets(
    scanner_cls: Any,
    preset: str,
    extra: dict[str, Any],
    text: str,
    visible: str,
    reasoning: Optional[str],
) -> None:
    # behaviour.md#presets presets; behaviour.md#a1 explicit options win
    options = {"preset": preset, **extra}
    assert one_shot(scanner_cls, text, options) == (visible, reasoning)
    assert split_think(text, **options) == Split(visible, reasoning)


def test_every_preset_usable(scanner_cls: Any) -> None:
    # presets: every preset builds a scanner (none sets "auto", which the scanner refuses)
    from thinkparse._presets import PRESETS

    for name in ("deepseek-r1", "qwen3", "qwen3-thinking", "magistral", "kimi", "minimax",
                 "claude-text", "generic"):
        assert name in PRESETS
    for name in PRESETS:
        scanner = scanner_cls(preset=name)
        assert isinstance(scanner.feed(""), Delta)
        assert isinstance(scanner.close(), Delta)
        assert isinstance(split_think("x", preset=name), Split)


# --- iter_think / aiter_think ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("chunks", "options", "expected"),
    [
        (["<th", "ink>a</think>", "b"], {}, [("", "a"), ("b", "")]),
        (["", "a", ""], {}, [("a", "")]),
        (["Hi <"], {}, [("Hi ", ""), ("<", "")]),
        (["Hi <think>x"], {}, [("Hi ", ""), ("<think>x", "")]),
        (["[THINK]a[/THINK]b"], {"preset": "magistral"}, [("b", "a")]),
        (["plan</think>ans"], {"start_in_reasoning": True}, [("ans", "plan")]),
        (["<think>a</think>", "<think>", "b", "</think>"], {}, [("", "a"), ("", "\n\nb")]),
        # ambiguous: "non-empty deltas of feed()s, then close()" -- close()'s delta is yielded
        # only when non-empty, like the feed() deltas.
        ([], {}, []),
        (["abc"], {}, [("abc", "")]),
    ],
)
def test_iter_think(chunks: list[str], options: dict[str, Any],
                    expected: list[tuple[str, str]]) -> None:
    # behaviour.md#a1: non-empty deltas of feed()s, then close()
    deltas = list(iter_think(chunks, **options))
    assert deltas == expected
    assert all(isinstance(d, Delta) and d for d in deltas)
    assert asyncio.run(_collect(aiter_think(_agen(chunks), **options))) == expected


def test_iter_think_streams() -> None:
    # behaviour.md#a1: deltas come out while the input is still being produced
    def source() -> Iterator[str]:
        yield "a"
        raise RuntimeError("source broke")

    it = iter_think(source())
    assert next(it) == ("a", "")
    with pytest.raises(RuntimeError, match="source broke"):
        next(it)


def test_iter_think_generator_input() -> None:
    # behaviour.md#a1: any iterable of str
    assert list(iter_think(c for c in "x<think>a</think>")) == [("x", ""), ("", "a")]


def test_iter_think_errors() -> None:
    # behaviour.md#a1: "auto" is refused when streaming; non-str chunks raise TypeError
    with pytest.raises(ValueError, match="start_in_reasoning"):
        list(iter_think(["x"], start_in_reasoning="auto"))
    with pytest.raises(TypeError):
        list(iter_think([b"x"]))  # type: ignore[list-item]
    with pytest.raises(ValueError, match="start_in_reasoning"):
        asyncio.run(_collect(aiter_think(_agen(["x"]), start_in_reasoning="auto")))
    with pytest.raises(TypeError):
        asyncio.run(_collect(aiter_think(_agen([1]))))


def test_iter_think_matches_split_think() -> None:
    # S1 through iter_think: the concatenated deltas equal the rule tables' results
    for c in ALL_CASES:
        chunks = [c.text[i : i + 3] for i in range(0, len(c.text), 3)]
        deltas = list(iter_think(chunks, **c.options))
        visible = "".join(d.visible for d in deltas)
        reasoning = "".join(d.reasoning for d in deltas)
        assert (visible, reasoning) == (c.visible, c.reasoning or ""), c.id


async def _agen(chunks: Iterable[Any]) -> AsyncIterator[Any]:
    for chunk in chunks:
        await asyncio.sleep(0)
        yield chunk


async def _collect(it: AsyncIterator[Any]) -> list[Any]:
    return [d async for d in it]


# --- IMPLEMENTATION (S5, build rules) ----------------------------------------------------------
def _compiled_module() -> Any:
    try:
        return importlib.import_module("thinkparse._scanner_c")
    except ImportError:
        return None


def test_implementation_value() -> None:
    # S5: IMPLEMENTATION says which ThinkScanner is active
    assert thinkparse.IMPLEMENTATION in ("cython", "python")
    if thinkparse.IMPLEMENTATION == "python":
        assert thinkparse.ThinkScanner is PyScanner
    else:
        assert thinkparse.ThinkScanner is _compiled_module().ThinkScanner
    forced = os.environ.get("THINKPARSE_NO_EXTENSIONS", "").strip().lower()
    if forced not in ("", "0", "false", "no"):
        assert thinkparse.IMPLEMENTATION == "python"
    elif _compiled_module() is not None and platform.python_implementation() == "CPython":
        assert thinkparse.IMPLEMENTATION == "cython"


def _implementation_in_subprocess(value: str) -> str:
    env = dict(os.environ)
    env["THINKPARSE_NO_EXTENSIONS"] = value
    root = os.path.dirname(os.path.dirname(os.path.abspath(thinkparse.__file__)))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH", "")) if p)
    code = (
        "import thinkparse; "
        "print(thinkparse.IMPLEMENTATION, thinkparse.ThinkScanner.__module__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return out.stdout.strip()


def test_no_extensions_env_selects_python() -> None:
    # S5: THINKPARSE_NO_EXTENSIONS=1 (read at import) makes the pure-Python scanner active
    assert _implementation_in_subprocess("1") == "python thinkparse._scanner_py"


def test_extensions_env_off_value() -> None:
    # S5, build rules: "0" does not force pure Python; the compiled scanner is used when built
    got = _implementation_in_subprocess("0")
    if _compiled_module() is not None and platform.python_implementation() == "CPython":
        assert got == "cython thinkparse._scanner_c"
    else:
        assert got == "python thinkparse._scanner_py"


# --- parity of the two classes (S5, A1) -----------------------------------------------
_SIG_LINE = re.compile(r"^[\w.]+(\(.*\))(\s*->.*)?$")


def _params_from_text(text: str) -> list[tuple[str, str, str]]:
    # Defaults in a text signature may be written as names; they resolve in the module that
    # holds the shared defaults (thinkparse._spec).
    source = "from __future__ import annotations\ndef _f" + text.replace("$", "") + ": pass\n"
    namespace: dict[str, Any] = dict(vars(thinkparse._spec))
    exec(source, namespace)
    return _params(inspect.signature(namespace["_f"]))


def _params(sig: inspect.Signature) -> list[tuple[str, str, str]]:
    return [
        (p.name, p.kind.name, "" if p.default is p.empty else repr(p.default))
        for p in sig.parameters.values()
        if p.name != "self"
    ]


def _signature(obj: Any) -> list[tuple[str, str, str]]:
    """Parameters (name, kind, default repr) from inspect, the text signature or the doc."""
    try:
        return _params(inspect.signature(obj))
    except (ValueError, TypeError):
        pass
    text = getattr(obj, "__text_signature__", None)
    if text:
        return _params_from_text(text)
    first = (obj.__doc__ or "").lstrip().splitlines()[:1]
    match = _SIG_LINE.match(first[0]) if first else None
    assert match, f"no signature available for {obj!r}"
    return _params_from_text(match.group(1))


def _doc(obj: Any) -> str:
    lines = (inspect.getdoc(obj) or "").splitlines()
    if lines and _SIG_LINE.match(lines[0]):
        lines = lines[1:]
        if lines and lines[0].strip() == "--":
            lines = lines[1:]
    return "\n".join(lines).strip()


def _public(cls: Any) -> list[str]:
    return sorted(name for name in dir(cls) if not name.startswith("_"))


def test_parity_public_names(compiled_cls: Any) -> None:
    # S5, behaviour.md#a1: same public names
    assert _public(compiled_cls) == _public(PyScanner)
    assert {"feed", "close"} <= set(_public(PyScanner))


def test_parity_signatures(compiled_cls: Any) -> None:
    # behaviour.md#a1: same constructor, feed and close signatures
    assert _signature(compiled_cls) == _signature(PyScanner)
    assert _signature(compiled_cls.feed) == _signature(PyScanner.feed)
    assert _signature(compiled_cls.close) == _signature(PyScanner.close)


def test_python_signatures_as_documented() -> None:
    # behaviour.md#a1: ThinkScanner(*, tags=None, delimiters=(), start_in_reasoning=False,
    # code_aware=True, max_tentative=8192, preset=None, terminators=(), answer=(),
    # prompt=None); feed(chunk, /); close()
    assert _signature(PyScanner) == [
        ("tags", "KEYWORD_ONLY", "None"),
        ("delimiters", "KEYWORD_ONLY", "()"),
        ("start_in_reasoning", "KEYWORD_ONLY", "False"),
        ("code_aware", "KEYWORD_ONLY", "True"),
        ("max_tentative", "KEYWORD_ONLY", "8192"),
        ("preset", "KEYWORD_ONLY", "None"),
        # F2, F3, F4
        ("terminators", "KEYWORD_ONLY", "()"),
        ("answer", "KEYWORD_ONLY", "()"),
        ("prompt", "KEYWORD_ONLY", "None"),
    ]
    assert _signature(PyScanner.feed) == [("chunk", "POSITIONAL_ONLY", "")]
    assert _signature(PyScanner.close) == []


def test_parity_docstrings(compiled_cls: Any) -> None:
    # behaviour.md#a1 / STYLE: the compiled class carries the reference docstrings
    for name in (None, "feed", "close"):
        py_obj = PyScanner if name is None else getattr(PyScanner, name)
        c_obj = compiled_cls if name is None else getattr(compiled_cls, name)
        assert _doc(py_obj), name
        assert _doc(c_obj) == _doc(py_obj), name


@pytest.mark.parametrize(
    "options",
    [{}, {"preset": "deepseek-r1"}, {"tags": ["think", "reason"], "code_aware": False},
     {"delimiters": [("[THINK]", "[/THINK]")], "max_tentative": 5}],
)
def test_scanner_for_equals_the_constructor(scanner_cls: Any, options: dict[str, Any]) -> None:
    # S5: the scanner the one-shot functions make from resolved options is the one the
    # constructor makes from the same options, in both implementations.
    import sys

    from thinkparse._config import options_config

    scanner_for = sys.modules[scanner_cls.__module__].scanner_for
    cfg = options_config(options, allow_auto=False)
    text = "plan</think>a <reason>b</reason> `<think>c</think>` [THINK]d[/THINK] <think>e"
    made, built = scanner_for(cfg), scanner_cls(**options)
    assert type(made) is type(built)
    for piece in (text[:9], text[9:40], text[40:]):
        assert made.feed(piece) == built.feed(piece)
        assert (made.in_reasoning, made.had_block, made.orphan_at) == (
            built.in_reasoning, built.had_block, built.orphan_at,
        )
    assert made.close() == built.close()
