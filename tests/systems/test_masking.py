"""mask_secrets and the default rules (D2); the regressions of the secrets that reached disk.

Every format in every context: test_masking_formats.py.  Timings: benchmarks/bench_masking.py.
"""

from __future__ import annotations

import json
import random

import pytest
from _formats import ALNUM, B64, HEX, URLSAFE, r, survives
from _secrets import NEAR_MISSES, SECRETS
from hypothesis import given, settings
from hypothesis import strategies as st

from thinkparse import DEFAULT_MASKER, Masked, mask_secrets
from thinkparse.store._masking import RULE_NAMES

_rng = random.Random(22)

REQUIRED = {
    "openai", "anthropic", "google_api_key", "aws_access_key_id", "aws_secret_access_key",
    "github", "gitlab", "slack", "stripe", "huggingface", "npm", "pypi", "jwt",
    "pem_private_key", "bearer", "url_password", "password", "secret", "token", "api_key",
}  # fmt: skip


def test_rule_table_covers_the_required_kinds() -> None:  # D2
    assert set(RULE_NAMES) >= REQUIRED
    assert {rule for rule, _, _ in SECRETS} == REQUIRED
    assert RULE_NAMES.index("openai") < RULE_NAMES.index("api_key")  # tokens name a tie


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
    key = "gh" + "p_" + r(_rng, 36)
    assert mask_secrets(f'token = "{key}"') == Masked('token = "[REDACTED:github]"', 1, ("github",))
    assert mask_secrets("https://bob:hunter2@x.org/") == Masked(
        "https://bob:[REDACTED:url_password]@x.org/", 1, ("url_password",)
    )
    assert mask_secrets("password=hunter22!") == Masked(
        "password=[REDACTED:password]", 1, ("password",)
    )


def test_kinds_in_order_with_duplicates() -> None:  # D2
    a, b = "gh" + "p_" + r(_rng, 36), "np" + "m_" + r(_rng, 36)
    m = mask_secrets(f"{a} then {b} then {a}")
    assert m.text == "[REDACTED:github] then [REDACTED:npm] then [REDACTED:github]"
    assert m.kinds == ("github", "npm", "github") and m.count == 3


def test_overlap_replaced_once_by_the_longest() -> None:  # D2
    # the assignment value and the OpenAI key cover the same span: one replacement, the rule
    # earlier in the table names it
    key = "sk-" + r(_rng, 40)
    assert mask_secrets(f"api_key={key}") == Masked("api_key=[REDACTED:openai]", 1, ("openai",))
    # a URL password that contains a GitHub token and more: the longer URL match wins
    gh = "gh" + "p_" + r(_rng, 36)
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


# --- regressions: secrets that reached the disk (D2) -------------------------------------------
_SK = "s" + "k-"
_OPENAI = _SK + "proj-" + r(_rng, 40, URLSAFE) + "T3Blbk" + "FJ" + r(_rng, 40, URLSAFE)
_GITHUB = "gh" + "p_" + r(_rng, 36)
_AWS_ID = "AK" + "IA" + r(_rng, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
_AWS_SECRET = r(_rng, 40, B64)
_STRIPE = "sk" + "_live_" + r(_rng, 24)
_GOOGLE = "AI" + "za" + r(_rng, 35, URLSAFE)
_SLACK = "xo" + "xb-" + r(_rng, 12, "0123456789") + "-" + r(_rng, 13, "0123456789") + "-" + r(
    _rng, 24
)
_JWT_HEAD = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
_JWT = _JWT_HEAD + ".eyJzdWIiOiJ" + r(_rng, 30, URLSAFE) + "." + r(_rng, 43, URLSAFE)


@pytest.mark.parametrize("escape", ["\\n", "\\t", "\\r", "\\u00e9", "%20", "\\x41"])
@pytest.mark.parametrize(
    "secret", [_OPENAI, _GITHUB, _AWS_ID, _STRIPE, _GOOGLE, _SLACK, _JWT],
    ids=["openai", "github", "aws", "stripe", "google", "slack", "jwt"],
)  # fmt: skip
def test_key_right_after_an_escape_sequence(escape: str, secret: str) -> None:  # D2
    # tool-call arguments and JSON quoted in reasoning put a key right after \n, \u00e9, %20
    text = '{"cmd": "printf \'' + escape + secret + escape + '\'"}'
    masked = mask_secrets(text)
    assert not survives(secret, masked.text), masked
    assert masked.text.startswith('{"cmd": "printf \'' + escape + "[REDACTED:")


def test_escaped_json_in_reasoning() -> None:  # D2
    args = json.dumps({"content": "R\u00e9sum\u00e9:\n" + _OPENAI + "\n" + _GITHUB})
    masked = mask_secrets("The tool call was " + args)
    assert masked.kinds == ("openai", "github")


_BEARER = r(_rng, 20) + "~" + r(_rng, 10) + "." + r(_rng, 12)
_BASIC = "dXNlcjpzM2NyM3QtcGFzcw=="  # base64 of user:s3cr3t-pass


@pytest.mark.parametrize(
    "text, value",
    [
        (json.dumps({"Authorization": "Bearer " + _BEARER}), _BEARER),
        (repr({"Authorization": "Bearer " + _BEARER}), _BEARER),
        (repr({"headers": {"Authorization": "Basic " + _BASIC}}), _BASIC),
        (json.dumps({"headers": {"authorization": "Bearer " + _BEARER}}), _BEARER),
        ("-H 'Authorization: Bearer " + _BEARER + "'", _BEARER),
        ("headers={'Proxy-Authorization': 'Bearer " + _BEARER + "'}", _BEARER),
    ],
)  # fmt: skip
def test_authorization_as_a_dict_or_json_entry(text: str, value: str) -> None:  # D2
    masked = mask_secrets(text)
    assert value not in masked.text and "[REDACTED:bearer]" in masked.text, masked
    assert "Bearer" in masked.text or "Basic" in masked.text  # the scheme stays


@pytest.mark.parametrize(
    "key",
    ["clientSecret", "accessToken", "adminPassword", "openaiApiKey", "PGPASSWORD", "dbPwd",
     "ServiceAccountKey", "x-api-key", "githubToken"],
)  # fmt: skip
def test_camel_case_and_glued_key_names(key: str) -> None:  # D2
    value = r(_rng, 24)
    for text in (f"{key}={value}", f'{key}: "{value}"', json.dumps({key: value})):
        masked = mask_secrets(text)
        assert value not in masked.text and masked.count == 1, masked


def test_django_secret_key_with_punctuation() -> None:  # D2
    value = "django-insecure-" + r(_rng, 34, ALNUM + "!@#%^&*(-_=+)")
    masked = mask_secrets(f"SECRET_KEY = '{value}'\nDEBUG = True")
    assert masked.text == "SECRET_KEY = '[REDACTED:secret]'\nDEBUG = True"


@pytest.mark.parametrize(
    "text, value",
    [
        ('{"password": "correcthorsebatterystaple"}', "correcthorsebatterystaple"),
        ('{"password": "84736251"}', "84736251"),
        ("db_password: 'hunterhunter'", "hunterhunter"),
        ("{'client_secret': 'lowercaseonlysecret'}", "lowercaseonlysecret"),
    ],
)
def test_quoted_values_of_one_kind_of_character(text: str, value: str) -> None:  # D2
    masked = mask_secrets(text)
    assert value not in masked.text and masked.count == 1, masked


@pytest.mark.parametrize(
    "url, password",
    [
        ("mongodb://admin:P@ssw0rd-Secret99@db.example.com:27017/app", "P@ssw0rd-Secret99"),
        ("postgres://app:pa/ss@wo/rd9@10.0.0.5:5432/db", "pa/ss@wo/rd9"),
        ("redis://:s3cr3t@pass@cache:6379/0", "s3cr3t@pass"),
        ("https://bob:hunter2@x.org/?next=@home", "hunter2"),
    ],
)
def test_url_password_with_at_and_slash(url: str, password: str) -> None:  # D2
    masked = mask_secrets(f"connect with {url} now")
    head, _, _ = url.partition(password)
    tail = url[len(head) + len(password) :]
    assert masked.text == f"connect with {head}[REDACTED:url_password]{tail} now"


@pytest.mark.parametrize("kind", ["oat01", "ort01"])
def test_claude_oauth_tokens(kind: str) -> None:  # D2
    token = _SK + "ant-" + kind + "-" + r(_rng, 95, URLSAFE)
    assert mask_secrets(f"CLAUDE_CODE_OAUTH_TOKEN {token} ok") == Masked(
        "CLAUDE_CODE_OAUTH_TOKEN [REDACTED:anthropic] ok", 1, ("anthropic",)
    )


def test_pgp_private_key_block() -> None:  # D2
    block = (
        "-----BEGIN PGP PRIVATE " + "KEY BLOCK-----\n\n" + r(_rng, 64, B64) + "\n"
        + r(_rng, 64, B64) + "\n=" + r(_rng, 4, B64) + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )  # fmt: skip
    assert mask_secrets(f"key:\n{block}\ndone") == Masked(
        "key:\n[REDACTED:pgp_private_key]\ndone", 1, ("pgp_private_key",)
    )


@pytest.mark.parametrize("sep", [",", ",\"", "\t", ", ", ":"])
def test_bare_aws_secret_next_to_its_key_id(sep: str) -> None:  # D2
    # the console's credentials CSV: User name,Password,Access key ID,Secret access key,...
    quote = '"' if '"' in sep else ""
    row = f"{quote}{_AWS_ID}{sep}{_AWS_SECRET}{quote}"
    masked = mask_secrets("Access key ID,Secret access key\n" + row + "\n")
    assert _AWS_SECRET not in masked.text and _AWS_ID not in masked.text
    assert masked.kinds == ("aws_access_key_id", "aws_secret_access_key")


def test_aws_secret_alone_is_not_guessed() -> None:  # D2: a bare 40-char run is kept
    text = f"sha1 {r(_rng, 40, HEX)} and blob {_AWS_SECRET} alone"
    assert mask_secrets(text) == Masked(text, 0, ())
