"""Secrets found by the name they are assigned to (docs/behaviour.md#d2).

``password = …``, ``"client_secret": "…"``, ``accessToken: …``, ``SECRET_KEY := '…'``,
``<jiraToken>…</jiraToken>``, ``setProperty("API_TOKEN", "…")``, ``if ("…" == password)``,
``'Authorization': 'Bearer …'``, ``X-Api-Key: …``.  Only the value is replaced (and a scheme such
as ``Bearer`` stays).  What the value must look like: ``_mask_values.py``.

A keyword (``pass``, ``pwd``, ``secret``, ``token``, ``key``, ``auth``, ``cred``) is looked for in
the lowercased text; the identifier around it is split into words (``_``, ``-``, ``.`` and
camelCase: ``openaiApiKey`` is ``openai api key``; ``PGPASSWORD`` is one word) and the last word
that names a secret decides the rule:

* ``password``: a word ending in ``password``, ``passwd``, ``passphrase`` or ``pwd``, or the word
  ``pass`` (``db_pass``); ``secret``: ending in ``secret``; ``token``: ending in ``token``;
  ``credential``: ``cred``, ``creds``, ``credential(s)``, ``auth``; ``bearer``: ending in
  ``authorization``;
* ``api_key`` (``secret`` after ``secret``, ``private``, ``signing``…): ``key`` after a qualifier
  (``api``, ``access``, ``client``, ``account``…; glued: ``apikey``).  After a service name
  (``HEROKU_KEY``) the name is *weak*: the value must look generated and have 20+ bytes;
* a plural (``tokens``, ``secrets``) names a collection, not a secret;
* a word after it that describes rather than holds the secret (``_name``, ``_id``, ``_url``,
  ``_file``, ``_length``, ``_ttl``, ``ExpiresAt``…) or before it (``max_``, ``is_``, ``get_``…):
  no secret.  Other words after it (``password_super_secure``) need an 8-byte quoted value.

The operators: ``=``, ``:``, ``:=``, ``::=``, ``?=``, ``=>``, ``.=``, ``+=``, ``==``, ``!=`` (a
quoted value), ``,`` (a quoted name and a quoted value: a call's arguments), a space before a
quoted value, ``{`` (C++ brace initialisation), ``>`` (an XML element).  Quotes may be escaped
(``\\"`` in JSON).  An unquoted value after ``=`` with nothing around it and a ``password`` name
(``?password=hunter2&``, ``Password=s3cret;``) needs only 6 bytes; in a URL query it ends at the
next ``&name=``.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from ._mask_rules import Finder, Span, compile_rx
from ._mask_values import accept, generated, is_call, placeholder, strip_closers

__all__ = ["ASSIGN_FINDERS"]

# --- the grammar -------------------------------------------------------------------------------
_Q = rb"\\{0,7}"  # escapes before a quote: \" in JSON, \\\" in JSON inside JSON
_SCHEME = rb"(?:(?:bearer|basic|token|bot|apikey|api-key|sso-key|key)[ \t]{1,4})?"
_DQ = _Q + rb'"' + _SCHEME + rb'(?P<dq>(?:[^"\\\n]|\\[^"\\\n]){6,8192})'
_SQ = _Q + rb"'" + _SCHEME + rb"(?P<sq>(?:[^'\\\n]|\\[^'\\\n]){6,8192})"
_BQ = rb"`(?P<bq>[^`\\\n]{6,8192})"
# not an attribute call or index (os.environ[...], getpass.getpass(...)): no judgement needed
_BARE = (
    _SCHEME
    + rb"(?![a-z_][a-z0-9_]{0,30}\.[a-z_][a-z0-9_.]{0,40}[(\[])"
    + rb"(?P<bare>[^\s\"'`,;<>\\]{8,8192})"
)
_OP = rb"(?P<op>:{1,3}=|\?=|=>|[!=]==?|[.+]=|=|:|,)"
# the rest of the identifier, then (to fail fast) a byte that may follow a name assigned to
_SUFFIX = rb"(?P<suf>[a-z0-9_.-]{0,40})(?=[ \t]{0,16}(?:[>\\\"'`\]:=?!.+,{]|string))"
_CLOSE = rb"(?P<close>" + _Q + rb"[\"'`])?\]?(?:[ \t]{1,4}string|:[ \t]{0,4}str(?:ing)?)?"
_SPACE = rb"(?:[ \t\r\n]|\\[nrt])"  # also the escapes \n \t of JSON text
_XML = rb">" + _SPACE + rb"{0,40}(?P<xml>[^<>\n]{6,512}?)" + _SPACE + rb"{0,40}</"
_QUOTED_ONLY = (
    rb"(?:[ \t]{1,16}|\{" + _SPACE + rb"{0,40})(?:"
    + _DQ.replace(b"<dq>", b"<dq2>") + rb"|" + _SQ.replace(b"<sq>", b"<sq2>") + rb")"
)  # fmt: skip
_VALUE = rb"[ \t]{0,16}" + _OP + rb"[ \t]{0,16}(?:" + b"|".join((_DQ, _SQ, _BQ, _BARE)) + rb")"


def _pattern(keyword: bytes) -> re.Pattern[bytes]:
    rest = rb"(?:" + _XML + rb"|" + _CLOSE + rb"(?:" + _VALUE + rb"|" + _QUOTED_ONLY + rb"))"
    return compile_rx(re.escape(keyword) + _SUFFIX + rest)


#: Keywords looked for in the lowercased text; each a literal-prefixed regex.
_KEYWORDS = (b"pass", b"pwd", b"secret", b"token", b"key", b"auth", b"cred")
_KINDS = {"dq": "quoted", "sq": "quoted", "bq": "quoted", "dq2": "quoted", "sq2": "quoted",
          "xml": "xml", "bare": "bare"}  # fmt: skip

# --- key names ---------------------------------------------------------------------------------
_WORDS = re.compile(rb"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_QUALIFIERS = frozenset(
    b"api access secret private priv client auth account master signing sign encryption "
    b"encrypt enc service app application admin license deploy ssh gpg pgp shared hmac webhook "
    b"subscription storage db database consumer jwt rsa ecdsa ed25519 root primary".split()
)
_SECRET_QUALIFIERS = frozenset(b"secret private signing sign encryption encrypt enc master".split())
_SERVICES = frozenset(
    b"openai anthropic claude gemini google cohere mistral groq deepseek xai grok perplexity "
    b"together fireworks replicate huggingface hf langsmith langchain pinecone stripe twilio "
    b"sendgrid mailgun mailchimp heroku cloudflare datadog sentry algolia mapbox firebase "
    b"supabase vercel netlify shopify github gitlab slack discord telegram aws azure gcp alibaba "
    b"jira atlassian confluence bitbucket notion airtable dropbox zendesk okta auth0 brave serp "
    b"serpapi tavily exa elevenlabs assemblyai deepgram openrouter voyage jina weaviate qdrant "
    b"braintree paypal square linear figma postman travis circleci buildkite npm pypi docker "
    b"digitalocean linode vultr hetzner".split()
)
_DENY_AFTER = frozenset(
    b"name names id ids url uri urls endpoint host file files filename path dir length len size "
    b"count counts num number type types kind ttl expiry expires expiration exp expire at time "
    b"timeout seconds secs ms minutes days limit limits max min prefix suffix header headers "
    b"field fields param params variable var env version hash hasher hashers hashed format mode "
    b"policy policies strength reset manager store vault provider source results result regex "
    b"pattern label hint help placeholder required enabled disabled valid validation validator "
    b"check checker usage input output rotation ref arn index idx group list map dict class "
    b"location method scheme template generator util utils helper handler callback schema spec "
    b"button text message error status state flag bucket table column encoding encoder decoder "
    b"parser budget estimate cost window context lifetime".split()
)
_DENY_BEFORE = frozenset(
    b"max min num total count is has use show hide validate check verify generate get set no "
    b"skip enable require forgot reset mask redact estimate estimated input output prompt "
    b"completion cached reasoning".split()
)
_CRED = (b"cred", b"creds", b"credential", b"credentials")
_PASS = (b"pass", b"dbpass", b"pgpass", b"keypass")
_PASSWORDS = (b"password", b"passwd", b"passphrase", b"pwd")
_IDENT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-$")
_IDENT_BACK = re.compile(rb"[A-Za-z0-9_.$\\-]{0,64}")  # on the reversed bytes before a keyword


def _secret_word(words: list[bytes]) -> Optional[tuple[int, str, bool]]:
    """The index of the last word naming a secret, its rule, and whether the name is weak."""
    for i in range(len(words) - 1, -1, -1):
        w = words[i]
        if w.endswith(_PASSWORDS) or w in _PASS:
            return i, "password", False
        if w.endswith(b"secret"):
            return i, "secret", False
        if w.endswith(b"token"):
            return i, "token", False
        if w in _CRED or w.endswith(b"credentials") or w == b"auth":
            return i, "credential", False
        if w.endswith(b"authorization"):
            return i, "bearer", False
        if w == b"key" or (w.endswith(b"key") and w[:-3] in _QUALIFIERS):
            qual = (words[i - 1] if i else b"") if w == b"key" else w[:-3]
            if qual in _QUALIFIERS:
                return i, "secret" if qual in _SECRET_QUALIFIERS else "api_key", False
            if qual in _SERVICES:
                return i, "api_key", True
    return None


def _name_start(raw: bytes, kw: int) -> int:
    """Where the identifier around ``raw[kw]`` starts (after an escape such as ``\\n``)."""
    start = kw - _IDENT_BACK.match(raw[max(kw - 64, 0) : kw][::-1]).end()  # type: ignore[union-attr]
    slash = raw.rfind(b"\\", start, kw)
    if slash >= 0:  # "\napi_key": the name starts after the escape sequence
        start = slash + (6 if raw[slash + 1 : slash + 2] in (b"u", b"U") else 2)
    return start


def _key_rule(raw: bytes, kw: int, suffix_end: int) -> Optional[tuple[str, bool, bool]]:
    """(rule, weak, suffixed) for the identifier around ``raw[kw]``, or None when it names no
    secret (module docstring)."""
    start = _name_start(raw, kw)
    if raw[max(start - 10, 0) : start] == b"[REDACTED:":
        return None  # a label's rule name (``[REDACTED:api_key]``) names no value after it
    words = [w.lower() for w in _WORDS.findall(raw[start:suffix_end])]
    if words == [b"key"] and start > 1 and raw[start - 1] == 0x20:  # "Using assemblyai Key=…"
        i = space = start - 1
        while i > 0 and space - i < 24 and raw[i - 1] in _IDENT:
            i -= 1
        if raw[i:space].lower() in _SERVICES:  # a service's name before it: a weak name
            words = [raw[i:space].lower(), b"key"]
    found = _secret_word(words)
    if found is None:
        return None
    i, rule, weak = found
    after, before = words[i + 1 :], words[:i]
    if any(w in _DENY_AFTER for w in after) or any(w in _DENY_BEFORE for w in before):
        return None
    if rule in ("secret", "api_key") and b"".join(words[: i + 1]).endswith(b"secretaccesskey"):
        rule = "aws_secret_access_key"  # aws_secret_access_key, SecretAccessKey
    return rule, weak, bool(after) and not all(w.isdigit() for w in after)


# --- judging a match ---------------------------------------------------------------------------
_NEXT_FIELD = re.compile(rb"&(?:amp;)?[A-Za-z0-9_.-]{1,64}=")


def _in_query(raw: bytes, kw: int) -> bool:
    """Whether the name around ``raw[kw]`` follows ``?``, ``&`` or ``;`` (a URL query, a form)."""
    start = _name_start(raw, kw)
    return raw[start - 1 : start] in (b"?", b"&", b";")


def _keyword_finder(keyword: bytes) -> Finder:
    rx = _pattern(keyword)

    def find(raw: bytes, low: bytes) -> Iterator[Span]:
        pos = 0
        inside_until = nested = 0
        while pos >= 0:
            restart, pos = pos, -1
            for m in rx.finditer(low, restart):
                group = m.lastgroup  # the value's group closes last
                assert group is not None
                kind, (start, end) = _KINDS[group], m.span(group)
                found = _judge(raw, low, m, kind, start, end)
                if found is not None:
                    yield start, found[0], found[1]
                    continue
                # a rejected value may hold a name and its value (JSON in a string, glued
                # assignments): look inside it, at most _NESTED times in a row
                nested = nested + 1 if m.start() < inside_until else 0
                if nested < _NESTED and low.find(keyword, start, end) >= 0:
                    inside_until = max(inside_until, end)
                    pos = start
                    break

    return find


#: Rejected values looked inside, in a row, before a scan moves past the last one.
_NESTED = 4


def _call_arguments(raw: bytes, m: re.Match[bytes], end: int) -> bool:
    """``f("NAME", "value")``: the name is a whole quoted string and no ``:`` follows the value
    (``"a key", "next": 1`` in a JSON object is not a call)."""
    if m.start("close") < 0:
        return False
    start = _name_start(raw, m.start())
    if raw[start - 1 : start] not in (b'"', b"'"):
        return False
    rest = raw[end : end + 16].lstrip(b"\\\"' \t")
    return not rest.startswith(b":")


def _judge(
    raw: bytes, low: bytes, m: re.Match[bytes], kind: str, start: int, end: int
) -> Optional[tuple[int, str]]:
    """(end, rule) of a value that is a secret, else None.  The checks that need no name come
    first: they reject most matches."""
    op = m.group("op")
    value = raw[start:end]
    tight = False
    if kind == "bare":
        if b"&" in value and _in_query(raw, m.start()):
            field = _NEXT_FIELD.search(value)  # ?password=x&user=y: up to the next field
            if field is not None:
                value = value[: field.start()]
        if op == b"," or value[:1] in (b"{", b"[") or is_call(value):
            return None  # {template}, [list], get_token(user), getenv("X"): not a value
        value = strip_closers(value)
        end = start + len(value)
        if raw[end : end + 1] in (b"(", b"[", b"."):
            return None  # a call, an index or an attribute: code, not a value
        if op is not None:
            if op[:1] in b"!=" and op not in (b"=", b"=>"):
                return None  # a comparison with a name, not a value
            after = low[m.end("op") : m.end("op") + 1]
            if op == b":" and m.start("close") < 0 and after not in b" \t":
                return None  # host:port, group:artifact, a time: not "key: value"
            before = low[m.start("op") - 1 : m.start("op")]
            tight = op == b"=" and before not in b" \t" and after != b" "
        if not generated(value) and not (tight and len(value) >= 6 and not placeholder(value)):
            return None
    elif op == b"," and not _call_arguments(raw, m, end):
        return None  # a list of names or a JSON object, not ("NAME", "value")
    elif kind == "quoted" and placeholder(value.strip()):
        return None
    found = _key_rule(raw, m.start(), m.end("suf"))
    if found is None:
        return None
    rule, weak, suffixed = found
    if tight and rule == "password" and not weak:
        return end, rule  # password=hunter2 in a URL or a connection string
    return (end, rule) if accept(kind, value, weak, suffixed, rule) else None


# --- "value" == name: the value before the name ------------------------------------------------
_REVERSE = compile_rx(  # the second byte of == or != first: a literal, so the scan is fast
    rb"=(?<=[!=]=)=?[ \t]{0,8}(?=[a-z0-9_.$-]{0,40}(?:pass|pwd|secret|token|key|auth|cred))"
    rb"(?P<id>[a-z0-9_.$-]{1,80})"
)


def _find_reverse(raw: bytes, low: bytes) -> Iterator[Span]:
    """``if ("…" == password)``: a quoted value compared with a secret's name."""
    for m in _REVERSE.finditer(low):
        end = m.start() - 1
        while end > 0 and raw[end - 1] in b" \t" and m.start() - end < 9:
            end -= 1
        quote = raw[end - 1 : end]
        if not quote or quote not in b"\"'`":
            continue
        start = raw.rfind(quote, max(end - 514, 0), end - 1) + 1
        if start == 0 or b"\n" in raw[start : end - 1]:
            continue
        found = _key_rule(raw, m.start("id"), m.end("id"))
        if found is not None and accept("quoted", raw[start : end - 1], *found[1:], found[0]):
            yield start, end - 1, found[0]


ASSIGN_FINDERS: list[tuple[str, Finder]] = [
    *((kw.decode("latin-1"), _keyword_finder(kw)) for kw in _KEYWORDS),
    ("reverse", _find_reverse),
]
