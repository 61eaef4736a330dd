"""Secrets found by the name they are assigned to (docs/behaviour.md#d2).

``password = …``, ``"client_secret": "…"``, ``accessToken: …``, ``<jiraToken>…</jiraToken>``,
``setProperty("API_TOKEN", "…")``, ``if ("…" == password)``, ``Authorization: Bearer …``,
``--token …`` and ``curl -u user:password``.  Only the value is replaced.

How a key name is read: the identifier around a keyword found in the lowercased text is split
into words (``_``, ``-``, ``.`` and camelCase boundaries: ``openaiApiKey`` is ``openai api key``,
``PGPASSWORD`` one word).  The last word that names a secret decides the rule:

* ``password`` -- a word ending in ``password``, ``passwd``, ``passphrase`` or ``pwd``, or the
  word ``pass`` (``db_pass``); ``secret`` -- ending in ``secret``; ``token`` -- ending in
  ``token``; ``credential`` -- ``cred``, ``creds``, ``credential(s)``, ``auth``;
* ``api_key`` / ``secret`` -- ``key`` after a qualifier (``api``, ``access``, ``private``,
  ``client``, ``account``…; glued too: ``apikey``); after a service name (``HEROKU_KEY``) the
  value must look generated (20+ characters, letters and digits);
* a plural (``tokens``, ``secrets``) names a collection, not a secret;
* a word after it that describes the secret rather than holding it (``_name``, ``_id``,
  ``_url``, ``_file``, ``_length``, ``_ttl``, ``Expires``…) or before it (``max_``, ``is_``,
  ``get_``…) means the value is not the secret.

Values: a quoted value needs 6+ characters (lowercase-only and digit-only included); an
unquoted one 8+ characters with a digit and a letter, or both cases, or a symbol, and not a
code reference (``os.environ[…]``, ``settings.SECRET``), path or call.  Placeholders are kept:
``$VAR``, ``${…}``, ``{{…}}``, ``<…>``, ``%s``, runs of ``x``/``*``/``.``, ``YOUR_API_KEY``,
``your-token``, ``REPLACE_ME``.
"""

from __future__ import annotations

import re
from typing import Iterator, Optional

from ._mask_rules import Finder, Span, compile_rx

__all__ = ["ASSIGN_FINDERS", "value_placeholder"]

# --- the grammar -------------------------------------------------------------------------------
_Q = rb"\\{0,7}"  # escapes before a quote: \" in JSON, \\\" in JSON inside JSON
_SCHEME = rb"(?:(?:bearer|basic|token|bot|apikey|api-key|sso-key|key)[ \t]{1,4})?"
_DQ = _Q + rb'"' + _SCHEME + rb'(?P<dq>(?:[^"\\\n]|\\[^"\\\n]){6,8192})'
_SQ = _Q + rb"'" + _SCHEME + rb"(?P<sq>(?:[^'\\\n]|\\[^'\\\n]){6,8192})"
_BQ = rb"`(?P<bq>[^`\\\n]{6,8192})"
# not an attribute call or index (``os.environ[...]``, ``getpass.getpass(...)``): no judge call
_BARE = _SCHEME + rb"(?![a-z_][a-z0-9_]{0,30}\.[a-z_][a-z0-9_.]{0,40}[(\[])(?P<bare>[^\s\"'`,;<>\\]{8,8192})"
_OP = rb"(?P<op>:{1,3}=|\?=|=>|[!=]==?|[.+]=|=|:|,)"
# the rest of the identifier, then (fail fast) a byte that can follow a name being assigned to
_SUFFIX = rb"(?P<suf>[a-z0-9_.-]{0,40})(?=[ \t]{0,16}[>\\\"'`\]:=?!.+,{])"
_CLOSE = rb"(?P<close>" + _Q + rb"[\"'`])?\]?(?:[ \t]{1,4}string|:[ \t]{0,4}str(?:ing)?)?"
_SPACE = rb"(?:[ \t\r\n]|\\[nrt])"  # also the escapes \n \t of JSON text


def _pattern(keyword: bytes) -> re.Pattern[bytes]:
    return compile_rx(
        re.escape(keyword)
        + _SUFFIX
        + rb"(?:>"
        + _SPACE
        + rb"{0,40}(?P<xml>[^<>\n]{6,512}?)"
        + _SPACE
        + rb"{0,40}</"
        + rb"|"
        + _CLOSE
        + rb"(?:[ \t]{0,16}"
        + _OP
        + rb"[ \t]{0,16}(?:"
        + _DQ
        + rb"|"
        + _SQ
        + rb"|"
        + _BQ
        + rb"|"
        + _BARE
        + rb")|(?:[ \t]{1,16}|\{"
        + _SPACE
        + rb"{0,40})(?:"
        + _DQ.replace(b"<dq>", b"<dq2>")
        + rb"|"
        + _SQ.replace(b"<sq>", b"<sq2>")
        + rb")))"
    )


#: Keywords looked for in the lowercased text; each a literal-prefixed regex.
_KEYWORDS = (b"pass", b"pwd", b"secret", b"token", b"key", b"auth", b"cred")

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
    b"parser budget estimate cost window context lifetime id_token".split()
)
_DENY_BEFORE = frozenset(
    b"max min num total count is has use show hide validate check verify generate get set no "
    b"skip enable require forgot reset mask redact estimate estimated input output prompt "
    b"completion cached reasoning".split()
)
_CRED = (b"cred", b"creds", b"credential", b"credentials")
_PASS = (b"pass", b"dbpass", b"pgpass", b"keypass")


def _secret_word(words: list[bytes]) -> Optional[tuple[int, str, bool]]:
    """The index of the last word naming a secret, its rule, whether the name is only weakly
    a secret's (a service name before ``key``)."""
    for i in range(len(words) - 1, -1, -1):
        w = words[i]
        prev = words[i - 1] if i else b""
        if w.endswith((b"password", b"passwd", b"passphrase", b"pwd")) or w in _PASS:
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
            qual = prev if w == b"key" else w[:-3]
            if qual in _QUALIFIERS:
                return i, "secret" if qual in _SECRET_QUALIFIERS else "api_key", False
            if qual in _SERVICES:
                return i, "api_key", True
    return None


def _key_rule(raw: bytes, kw: int, suffix_end: int) -> Optional[tuple[str, bool, bool]]:
    """(rule, weak, suffixed) for the identifier around ``raw[kw]``, or None when it names no
    secret (module docstring)."""
    start = kw - _IDENT_BACK.match(raw[max(kw - 64, 0) : kw][::-1]).end()  # type: ignore[union-attr]
    slash = raw.rfind(b"\\", start, kw)
    if slash >= 0:  # "\napi_key": the name starts after the escape sequence
        start = slash + (6 if raw[slash + 1 : slash + 2] in (b"u", b"U") else 2)
    if raw[max(start - 10, 0) : start] == b"[REDACTED:":
        return None  # a label's rule name (``[REDACTED:api_key]``) names no value after it
    words = [w.lower() for w in _WORDS.findall(raw[start:suffix_end])]
    if words == [b"key"] and start > 1 and raw[start - 1] == 0x20:  # "Using assemblyai Key=…"
        i = space = start - 1
        while i > 0 and space - i < 24 and raw[i - 1] in _IDENT:
            i -= 1
        words = [raw[i:space].lower(), b"key"]
    found = _secret_word(words)
    if found is None:
        return None
    i, rule, weak = found
    after, before = words[i + 1 :], words[:i]
    if any(w in _DENY_AFTER for w in after) or any(w in _DENY_BEFORE for w in before):
        return None
    if (rule == "secret" and b"access" in words and words[i] in (b"key", b"secretkey")) or (rule == "api_key" and b"secret" in before and b"access" in before):
        rule = "aws_secret_access_key"
    return rule, weak, bool(after) and not all(w.isdigit() for w in after)


_IDENT = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-$")
_IDENT_BACK = re.compile(rb"[A-Za-z0-9_.$\\-]{0,64}")  # on the reversed bytes before a keyword

# --- values ------------------------------------------------------------------------------------
_FILL = re.compile(rb"[xX]{4}|\*{3}|\.{3}|#{4}|\xe2\x80\xa6|\xe2\x80\xa2")
#: {name}, {{ x }}, {"json": …}, [NAME], %s, %(name)s, %NAME%: templates and formats, not values.
_TEMPLATE = re.compile(
    rb"\{\{.*|\{[\"'].*|\{.*\}|\[[A-Za-z_ -]+\]"
    rb"|%(?:\([A-Za-z_]+\))?[sdrif]|%[A-Za-z_]+%",
    re.DOTALL,
)
_ENV_NAME = re.compile(rb"[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*")
_DOLLAR = re.compile(rb"\$(?:[A-Z_][A-Z0-9_]*|[a-z_][a-z0-9_]*|\{.*|\(.*)")
_WORDS_ONLY = frozenset(
    b"changeme password passwd secret token none null nil undefined true false redacted example "
    b"dummy placeholder test foo bar baz required optional string".split()
)
_CODE_REF = re.compile(rb"[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)+")
_SYMBOL = re.compile(rb"[!@#$%^*+=?~|:/]")


def value_placeholder(value: bytes) -> bool:
    """A value written to be replaced: ``$VAR``, ``${…}``, ``{{…}}``, ``<…>``, ``%s``, fillers
    (``xxxx``, ``***``, ``...``), an environment-variable name, ``your-…``, a word like ``none``."""
    if not value or value.startswith(b"[REDACTED:"):
        return True
    if value[:1] == b"$":
        return bool(_DOLLAR.fullmatch(value))
    if value[:1] == b"<" or _FILL.search(value):
        return True
    if value[:1] in b"{[%" and _TEMPLATE.fullmatch(value):
        return True
    if len(value) >= 16 and len(set(value)) < 6:
        return True
    if _ENV_NAME.fullmatch(value) and (b"_" in value or value.isalpha()):
        return True
    low = value.lower()
    if low.startswith((b"your", b"<your", b"my-", b"my_", b"enter", b"insert", b"replace")):
        return True
    return low in _WORDS_ONLY


def _strong(value: bytes) -> bool:
    """An unquoted value that looks generated: not a word, a number, a path or a reference."""
    if len(value) < 8 or value_placeholder(value) or _PATH.fullmatch(value):
        return False
    if _CODE_REF.fullmatch(value):
        return False
    if value.isdigit():
        return len(value) >= 16  # a long number is an id or a key, not a count
    letters = sum(c in _ALPHA for c in value)
    digits = sum(48 <= c <= 57 for c in value)
    if any(65 <= c <= 90 for c in value[1:]) and any(97 <= c <= 122 for c in value):
        return True  # mixed case past the first letter: not a capitalised word
    if letters and _SYMBOL.search(value):
        return True
    # letters and digits: the digits scattered, not one number glued to a word (``base64``)
    return bool(letters and digits) and (len(_DIGIT_RUNS.findall(value)) >= 2 or digits >= 4)


#: A file path: segments of words (a capital only first), not base64 that starts with a slash.
_PATH = re.compile(rb"(?:~|\.{1,2})?(?:/[A-Za-z]?[a-z0-9._-]*)+/?")
_DIGIT_RUNS = re.compile(rb"[0-9]+")
_ALPHA = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")


_KINDS = {"dq": "quoted", "sq": "quoted", "bq": "quoted", "dq2": "quoted", "sq2": "quoted",
          "xml": "xml", "bare": "bare"}  # fmt: skip


def _value(m: re.Match[bytes]) -> tuple[str, int, int]:
    """The kind and span of the value: its group closes last, so it is ``lastgroup``."""
    group = m.lastgroup
    assert group is not None
    start, end = m.span(group)
    return _KINDS[group], start, end


def _accept(kind: str, value: bytes, weak: bool, suffixed: bool) -> bool:
    if kind == "quoted":
        value = value.strip()
    elif kind == "xml":  # element text: judge its longest word, braces aside
        value = max(value.strip().strip(b"{}").split(), key=len, default=b"")
    if value_placeholder(value):
        return False
    if weak:
        return len(value) >= 20 and _strong(value)
    if kind == "quoted":
        return len(value) >= (8 if suffixed else 6)
    return _strong(value)


def _keyword_finder(keyword: bytes) -> Finder:
    rx = _pattern(keyword)

    def find(raw: bytes, low: bytes) -> Iterator[Span]:
        pos = 0
        while pos >= 0:
            restart, pos = pos, -1
            for m in rx.finditer(low, restart):
                kind, start, end = _value(m)
                found = _judge(raw, low, m, kind, start, end)
                if found is not None:
                    yield start, found[0], found[1]
                elif kind == "quoted" and raw[start : start + 1] in (b"{", b"["):
                    pos = start  # a rejected string holding JSON: look for names inside it
                    break

    return find


#: A call or an index: a name of words (snake_case, camelCase, PascalCase; digits only at the
#: end of a word), dotted, then a bracket.  A generated value mixes digits and capitals in.
_NAME = rb"(?:[a-z_]+[0-9]*(?:_[a-z]+[0-9]*)*|[a-z]+(?:[A-Z][a-z]+)*[0-9]*|(?:[A-Z][a-z]{2,})+[0-9]*)"
_CODE_CALL = re.compile(_NAME + rb"(?:\." + _NAME + rb")*[(\[]")


def _is_call(value: bytes) -> bool:
    """A call or an index that the value ends with (``get_token(user)``) or stops at (``getenv(``
    before a quote); a generated value may hold a bracket too, but goes on after it."""
    m = _CODE_CALL.match(value)
    return m is not None and (m.end() == len(value) or value[-1:] in (b")", b"]"))


def _unbalanced(value: bytes) -> bool:
    """Whether the last byte closes a bracket that the value did not open."""
    close = value[-1:]
    opener = {b")": b"(", b"]": b"[", b"}": b"{"}[close]
    return value.count(close) > value.count(opener)


def _in_query(raw: bytes, kw: int) -> bool:
    """Whether the name around ``raw[kw]`` follows ``?``, ``&`` or ``;`` (a URL query, a form)."""
    start = kw - _IDENT_BACK.match(raw[max(kw - 64, 0) : kw][::-1]).end()  # type: ignore[union-attr]
    return raw[start - 1 : start] in (b"?", b"&", b";")


_NEXT_FIELD = re.compile(rb"&(?:amp;)?[A-Za-z0-9_.-]{1,64}=")


def _judge(raw: bytes, low: bytes, m: re.Match[bytes], kind: str, start: int, end: int) -> Optional[tuple[int, str]]:
    """The rule of a keyword match whose value is a secret, else None (module docstring).
    The checks that do not need the key's name come first: they reject most matches."""
    op = m.group("op")
    value = raw[start:end]
    tight = False
    if kind == "bare":
        if b"&" in value and _in_query(raw, m.start()):  # ?password=x&user=y: up to the next field
            amp = _NEXT_FIELD.search(value)
            if amp is not None:
                end = start + amp.start()
                value = value[: amp.start()]
        if value[:1] in (b"{", b"[") or _is_call(value):
            return None  # {template}, [list], get_token(user), getenv("X"): not a value
        while value[-1:] in (b")", b"]", b"}") and _unbalanced(value):
            end -= 1  # f(token=abc123) or {"k": v}: the closing bracket ends the value
            value = value[:-1]
    if kind == "bare":
        if op == b"," or raw[end : end + 1] in (b"(", b"[", b"."):
            return None  # a call, an index or an attribute: code, not a value
        if op is not None:
            if op[:1] in b"!=" and op not in (b"=", b"=>"):
                return None  # a comparison with a name, not a value
            after = low[m.end("op") : m.end("op") + 1]
            if op == b":" and m.start("close") < 0 and after not in b" \t":
                return None  # host:port, group:artifact, a time: not "key: value"
            tight = op == b"=" and low[m.start("op") - 1 : m.start("op")] not in b" \t" and after != b" "
        if not _strong(value) and not (tight and len(value) >= 6 and not value_placeholder(value)):
            return None
    elif op == b"," and (m.start("close") < 0 or kind != "quoted"):
        return None  # a list or a call with names, not ("NAME", "value")
    elif kind == "quoted" and value_placeholder(value.strip()):
        return None
    found = _key_rule(raw, m.start(), m.end("suf"))
    if found is None:
        return None
    rule, weak, suffixed = found
    if tight and rule == "password" and not weak:
        return end, rule  # password=hunter2 in a URL or a connection string
    return (end, rule) if _accept(kind, value, weak, suffixed) else None


# --- "value" == name: the value before the name ------------------------------------------------
_REVERSE = compile_rx(  # the second byte of == or != first: a literal, so the scan is fast
    rb"=(?<=[!=]=)=?[ \t]{0,8}(?=[a-z0-9_.$-]{0,40}(?:pass|pwd|secret|token|key|auth|cred))"
    rb"(?P<id>[a-z0-9_.$-]{1,80})"
)


def _find_reverse(raw: bytes, low: bytes) -> Iterator[Span]:
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
        if found is not None and _accept("quoted", raw[start : end - 1], *found[1:]):
            yield start, end - 1, found[0]


# --- Bearer <token> without a header name ------------------------------------------------------
_BEARER = compile_rx(rb"bearer(?<![a-z0-9_]bearer)[ \t]{1,4}(?P<v>[a-z0-9._~+/=-]{16,8192})")


def _find_bearer(raw: bytes, low: bytes) -> Iterator[Span]:
    for m in _BEARER.finditer(low):
        value = raw[m.start("v") : m.end("v")]
        if _strong(value) and any(48 <= c <= 57 for c in value):
            yield m.start("v"), m.end("v"), "bearer"


# --- command-line flags: --password x, --api-key=x ---------------------------------------------
_FLAG = compile_rx(
    rb"--(?:[a-z0-9]{1,20}-){0,3}(?P<k>password|passwd|pass|token|secret|api-key|apikey|"
    rb"access-key|secret-key|client-secret|auth-token|key)(?:=|[ \t]{1,4})"
    rb"(?:(?P<q>[\"'])(?P<qv>[^\"'\n]{6,1024})(?P=q)|(?P<v>[^\s\"'`;&|)]{8,1024}))"
)


def _find_flags(raw: bytes, low: bytes) -> Iterator[Span]:
    for m in _FLAG.finditer(low):
        group = "qv" if m.start("qv") >= 0 else "v"
        value = raw[m.start(group) : m.end(group)]
        if m.group("k") == b"key" and group == "v" and not _strong(value):
            continue
        if (group == "qv" and not value_placeholder(value)) or _strong(value):
            rule = {b"password": "password", b"passwd": "password", b"pass": "password"}.get(
                m.group("k"), "token"
            )
            yield m.start(group), m.end(group), rule


# --- curl -u user:password ---------------------------------------------------------------------
_CURL_USER = compile_rx(
    rb"(?:^|[ \t])(?:-u|--user)(?:=|[ \t]{1,5})"
    rb"(?:\\{0,3}(?P<q>[\"'])(?P<qv>[^\"'\\\n]{1,512})\\{0,3}(?P=q)"
    rb"(?::\\{0,3}(?P<q2>[\"'])(?P<qp>[^\"'\\\n]{1,512})\\{0,3}(?P=q2))?"
    rb"|(?P<u>[^\s\"':\\]{1,256}):(?:\\{0,3}(?P<q3>[\"'])(?P<pq>[^\"'\\\n]{1,512})\\{0,3}(?P=q3)"
    rb"|(?P<p>[^\s\"'\\]{1,512})))",
    re.MULTILINE,
)
_CURL = compile_rx(rb"curl(?![a-z0-9_])")
_CURL_REACH = 2000


def _find_curl_user(raw: bytes, low: bytes) -> Iterator[Span]:
    pos = 0
    for c in _CURL.finditer(low):
        if c.start() < pos:
            continue
        stop = min(len(raw), c.end() + _CURL_REACH)
        nxt = low.find(b"curl", c.end(), stop)
        stop = stop if nxt < 0 else nxt
        for m in _CURL_USER.finditer(raw, c.end(), stop):
            yield from _curl_credential(raw, m)
        pos = stop


def _curl_credential(raw: bytes, m: re.Match[bytes]) -> Iterator[Span]:
    """The password of ``user:password`` (or the user when the password is empty: an API key)."""
    if m.start("qv") >= 0 and m.start("qp") < 0:  # "user:password" in one pair of quotes
        user, colon, pw = m.group("qv").partition(b":")
        if not colon:
            return
        base = m.start("qv")
        span = (base + len(user) + 1, m.end("qv")) if pw else (base, base + len(user))
    elif m.start("qp") >= 0:
        span = m.span("qp")
    else:
        span = m.span("pq") if m.start("pq") >= 0 else m.span("p")
        if span[1] == span[0]:
            return
    value = raw[span[0] : span[1]]
    if value[:1] == b"{" and value[-1:] == b"}" and value[1:2] not in b"{$":
        value = value[1:-1]  # --user "{id}":"{secret}"
    if len(value) >= 6 and not value_placeholder(value) and _strong_enough(value):
        yield span[0], span[1], "password"


def _strong_enough(value: bytes) -> bool:
    digit, alpha = any(48 <= c <= 57 for c in value), any(c in _ALPHA for c in value)
    upper, lower = any(65 <= c <= 90 for c in value), any(97 <= c <= 122 for c in value)
    return (digit and alpha) or (upper and lower) or bool(_SYMBOL.search(value))


ASSIGN_FINDERS: list[tuple[str, Finder]] = [
    *((kw.decode("latin-1"), _keyword_finder(kw)) for kw in _KEYWORDS),
    ("reverse", _find_reverse),
    ("bearer", _find_bearer),
    ("flags", _find_flags),
    ("curl", _find_curl_user),
]
