"""Every masked format in the four contexts of an agent trace, look-alikes, properties (D2)."""

from __future__ import annotations

import importlib
import random
import re
import sys
from typing import Any

import pytest
from _formats import CONTEXTS, FORMATS, look_alikes, survives
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import Masked, mask_secrets
from thinkparse.store._mask_catalogue import TOKENS
from thinkparse.store._mask_rules import PATTERNS
from thinkparse.store._masking import RULE_NAMES

# the regex parser: re._parser from Python 3.11 (sre_parse before, deprecated since)
_NEW = sys.version_info >= (3, 11)
sre_parse: Any = importlib.import_module("re._parser" if _NEW else "sre_parse")
sre_constants: Any = importlib.import_module("re._constants" if _NEW else "sre_constants")

_IDS = [f"{rule}-{i}" for i, (rule, _, _) in enumerate(FORMATS)]


@pytest.mark.parametrize("context", sorted(CONTEXTS))
@pytest.mark.parametrize("rule, make, key", FORMATS, ids=_IDS)
def test_format_is_masked_in_every_context(rule: str, make: Any, key: Any, context: str) -> None:
    # D2: no 12-character window of the secret survives, and the rule is named
    secret = make(random.Random(f"{rule}-{context}-{key}"))
    text = CONTEXTS[context](secret, key)
    masked = mask_secrets(text)
    assert not survives(secret, masked.text), (text, masked.text)
    if context == "prose":
        assert rule in masked.kinds, masked


def test_every_catalogue_rule_has_a_format() -> None:  # D2: the table is covered
    assert {t.rule for t in TOKENS} <= {rule for rule, _, _ in FORMATS}
    assert {rule for rule, _, _ in FORMATS} <= set(RULE_NAMES)


def test_every_row_cites_a_source() -> None:  # D2: each format names where it is documented
    for token in TOKENS:
        assert len(token.source) > 12, token


@pytest.mark.parametrize("seed", range(3))
def test_look_alikes_are_unchanged(seed: int) -> None:  # D2
    for text in look_alikes(random.Random(seed)):
        assert mask_secrets(text) == Masked(text, 0, ()), text


# --- properties ---------------------------------------------------------------------------------
_SEPARATORS = [" ", "\n", "\\n", "\\t", "\\u00e9", "%20", '"', "'", "=", ": ", "(", "`", "\t"]
_NOISE = st.text(alphabet="abcdefghij klmnop XYZ 0123 ,.;!?()[]{}<>#@\n\t", max_size=40)
_TOKEN_ROWS = [(rule, make) for rule, make, key in FORMATS if key is None]
_KEYED_ROWS = [(rule, make, key) for rule, make, key in FORMATS if key is not None]


@given(
    st.sampled_from(_TOKEN_ROWS),
    st.integers(0, 2**32).map(random.Random),
    _NOISE,
    st.sampled_from(_SEPARATORS),
    st.sampled_from(_SEPARATORS),
    _NOISE,
)
@settings(max_examples=400, deadline=None)
def test_no_token_survives_in_random_text(
    row: Any, rng: random.Random, before: str, left: str, right: str, after: str
) -> None:  # D2
    secret = row[1](rng)
    text = before + left + secret + right + after
    assert not survives(secret, mask_secrets(text).text)


@given(
    st.sampled_from(_KEYED_ROWS),
    st.integers(0, 2**32).map(random.Random),
    _NOISE,
    st.sampled_from(["=", ": ", " = ", '": "', "': '", " := ", " => "]),
    st.sampled_from(["\n", " ", ", ", "\\n"]),
)
@settings(max_examples=300, deadline=None)
def test_no_assigned_secret_survives(
    row: Any, rng: random.Random, before: str, op: str, end: str
) -> None:  # D2
    _, make, key = row
    secret = make(rng)
    quote = op[-1] if op[-1] in "\"'" else ""
    text = f"{before}\n{quote}{key}{op}{secret}{quote}{end}rest"
    assert not survives(secret, mask_secrets(text).text), text


_pieces = st.one_of(
    st.builds(
        lambda row, seed: row[1](random.Random(seed)), st.sampled_from(_TOKEN_ROWS), st.integers()
    ),
    st.sampled_from(look_alikes(random.Random(7))),
    st.sampled_from(_SEPARATORS),
    _NOISE,
)


@given(st.lists(_pieces, max_size=8).map("".join))
@settings(max_examples=300, deadline=None)
def test_idempotent(text: str) -> None:  # D2
    once = mask_secrets(text)
    assert mask_secrets(once.text) == Masked(once.text, 0, ())


@given(st.text(max_size=400))
@settings(max_examples=400, deadline=None)
def test_never_raises(text: str) -> None:  # D2: any text, surrogates included
    once = mask_secrets(text)
    assert once.count == len(once.kinds)
    assert mask_secrets(once.text).text == once.text


@given(st.binary(max_size=300).map(lambda b: b.decode("latin-1")))
@settings(max_examples=300, deadline=None)
def test_never_raises_on_any_byte_text(text: str) -> None:  # D2
    assert mask_secrets(text).count >= 0


# --- linear time, structurally ------------------------------------------------------------------
def _unbounded(tree: Any) -> list[Any]:
    bad = []
    for op, arg in tree:
        if op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
            if arg[1] == sre_constants.MAXREPEAT:
                bad.append((op, arg))
            bad += _unbounded(arg[2])
        elif op in (sre_constants.SUBPATTERN,):
            bad += _unbounded(arg[-1])
        elif op == sre_constants.BRANCH:
            for alt in arg[1]:
                bad += _unbounded(alt)
        elif op in (sre_constants.ASSERT, sre_constants.ASSERT_NOT):
            bad += _unbounded(arg[1])
    return bad


def test_every_pattern_is_bounded() -> None:  # D2: linear time needs bounded repeats
    patterns = PATTERNS
    assert len(patterns) > 20
    for rx in patterns:
        tree = sre_parse.parse(rx.pattern.decode("latin-1"), rx.flags & ~re.ASCII)
        assert not _unbounded(tree), rx.pattern


@pytest.mark.parametrize(
    "unit",
    ["sk-", "eyJaaaaaaaaaa.", "password=", "passwordpassword", "clientSecret: '", "://a:b@",
     "-----BEGIN PGP PRIVATE KEY BLOCK-----\n", "aB3_-", "AKIAABCDEFGHIJKLMNOP,", "\\n\\t",
     "'Authorization': 'Bearer ", "123456789:", "token>", '="'],
)  # fmt: skip
def test_adversarial_input_completes(unit: str) -> None:  # D2 (timings: benchmarks/)
    text = (unit * (200_000 // len(unit) + 1))[:200_000]
    assert mask_secrets(text).count >= 0
