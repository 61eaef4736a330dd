"""mask_secrets and the default rules (D2)."""

from __future__ import annotations

import time

import pytest
from _secrets import NEAR_MISSES, SECRETS
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import DEFAULT_MASKER, Masked, mask_secrets
from thinkparse.store._masking import RULE_NAMES

REQUIRED = {
    "openai", "anthropic", "google_api_key", "aws_access_key_id", "aws_secret_access_key",
    "github", "gitlab", "slack", "stripe", "huggingface", "npm", "pypi", "jwt",
    "pem_private_key", "bearer", "url_password", "password", "secret", "token", "api_key",
}  # fmt: skip


def test_rule_table_covers_the_required_kinds() -> None:  # D2
    assert set(RULE_NAMES) == REQUIRED
    assert {rule for rule, _, _ in SECRETS} == REQUIRED


@pytest.mark.parametrize(
    "rule, text, secret", SECRETS, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(SECRETS)]
)
def test_secret_is_masked(rule: str, text: str, secret: str) -> None:  # D2
    m = mask_secrets(text)
    assert m.text == text.replace(secret, f"[REDACTED:{rule}]")
    assert m.kinds == (rule,) and m.count == 1
    assert DEFAULT_MASKER(text) == m.text


@pytest.mark.parametrize("text", NEAR_MISSES)
def test_near_miss_is_kept(text: str) -> None:  # D2
    assert mask_secrets(text) == Masked(text, 0, ())


def test_exact_outputs() -> None:  # D2: only the value of assignments and URLs is replaced
    key = "gh" + "p_" + "a1B2" * 9
    assert mask_secrets(f'token = "{key}"') == Masked('token = "[REDACTED:github]"', 1, ("github",))
    assert mask_secrets("https://bob:hunter2@x.org/") == Masked(
        "https://bob:[REDACTED:url_password]@x.org/", 1, ("url_password",)
    )
    assert mask_secrets("password=hunter22!") == Masked(
        "password=[REDACTED:password]", 1, ("password",)
    )


def test_kinds_in_order_with_duplicates() -> None:  # D2
    a, b = "gh" + "p_" + "x" * 36, "np" + "m_" + "y" * 36
    m = mask_secrets(f"{a} then {b} then {a}")
    assert m.text == "[REDACTED:github] then [REDACTED:npm] then [REDACTED:github]"
    assert m.kinds == ("github", "npm", "github") and m.count == 3


def test_overlap_replaced_once_by_the_longest() -> None:  # D2
    # the assignment value and the OpenAI key cover the same span: one replacement, the rule
    # earlier in the table names it
    key = "sk-" + "Z9y8" * 10
    assert mask_secrets(f"api_key={key}") == Masked("api_key=[REDACTED:openai]", 1, ("openai",))
    # a URL password that contains a GitHub token and more: the longer URL match wins
    gh = "gh" + "p_" + "q" * 36
    m = mask_secrets(f"https://u:{gh}xyz!@h/")
    assert m == Masked("https://u:[REDACTED:url_password]@h/", 1, ("url_password",))


def test_unterminated_pem_is_masked_to_the_end() -> None:  # D2: fail closed
    text = "before -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE\nno end"
    assert mask_secrets(text) == Masked(
        "before [REDACTED:pem_private_key]", 1, ("pem_private_key",)
    )


def test_non_str_is_type_error() -> None:
    with pytest.raises(TypeError, match="text"):
        mask_secrets(b"x")  # type: ignore[arg-type]


def test_masked_is_frozen() -> None:
    with pytest.raises(AttributeError):
        mask_secrets("x").text = "y"  # type: ignore[misc]


_pieces = st.sampled_from(
    [t for _, t, _ in SECRETS] + NEAR_MISSES + [" ", "\n", "=", ":", "'", '"']
)


@given(st.lists(_pieces, max_size=8).map("".join))
@settings(max_examples=300, deadline=None)
def test_idempotent(text: str) -> None:  # D2
    once = mask_secrets(text)
    assert mask_secrets(once.text) == Masked(once.text, 0, ())


@given(st.lists(_pieces, max_size=8).map("\n".join))
@settings(max_examples=200, deadline=None)
def test_no_secret_survives_in_a_mixed_text(text: str) -> None:  # D2
    out = mask_secrets(text).text
    for _, t, secret in SECRETS:
        if t in text:
            assert secret not in out


@given(st.text(max_size=300))
@settings(max_examples=300, deadline=None)
def test_any_text_is_safe(text: str) -> None:  # D2: never raises; idempotent on any text
    once = mask_secrets(text)
    assert once.count == len(once.kinds)
    assert mask_secrets(once.text).text == once.text
    if once.count == 0:
        assert once.text == text


def test_surrogates_survive() -> None:
    text = "lone \ud800 surrogate password=hunter22!"
    assert mask_secrets(text).text == "lone \ud800 surrogate password=[REDACTED:password]"


# --- linear time (D2) -----------------------------------------------------------------------------
# Cost per character within 2x from 1 MB to 10 MB: quadratic matching would grow 10x there.  From
# 100 KB (which fits in the CPU cache) the step is the cache, not the algorithm; the benchmark
# (benchmarks/bench_traces.py) reports 100 KB, 1 MB and 10 MB side by side.
ADVERSARIAL = {
    "sk-": "sk-",
    "eyJ": "eyJ",
    "jwt-dots": "eyJaaaaaaaaaa.",
    "password=": "password=",
    "pem-begin": "-----BEGIN RSA PRIVATE KEY-----\n",
    "url": "://a:",
    "key-chars": "aB3_-",
    "base64": "aB3+/",
    "AKIA": "AKIA",
    "token:": 'token: "',
    "authorization": "Authorization: Bearer ",
}


def _per_char(unit: str, size: int) -> float:
    text = (unit * (size // len(unit) + 1))[:size]
    best = float("inf")
    for _ in range(3 if size <= 1_000_000 else 2):
        start = time.perf_counter()
        mask_secrets(text)
        best = min(best, time.perf_counter() - start)
    return best / size


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_linear_time_on_adversarial_input(name: str) -> None:  # D2: no ReDoS
    unit = ADVERSARIAL[name]
    small = _per_char(unit, 1_000_000)
    large = _per_char(unit, 10_000_000)
    assert large <= 2 * small, (name, small, large)


@pytest.mark.parametrize(
    "rule, text, secret", SECRETS, ids=[f"{r}-{i}" for i, (r, _, _) in enumerate(SECRETS)]
)
def test_secret_in_long_prose_is_masked(rule: str, text: str, secret: str) -> None:  # D2
    # long text with few '_' and '-': the presence test looks only at windows around them
    prose = "The model weighs each option carefully before it answers. " * 800
    doc = prose + "\n" + text + "\n" + prose
    m = mask_secrets(doc)
    assert m.text == prose + "\n" + text.replace(secret, f"[REDACTED:{rule}]") + "\n" + prose
    assert m.kinds == (rule,)
