"""Secrets masking before anything reaches disk (docs/behaviour.md#d2).

``mask_secrets(text)`` replaces each secret with ``[REDACTED:<rule>]`` and reports the rule names.
The rules are written here from the formats their issuers document; the public rule catalogues
of secret scanners (gitleaks' ``cmd/generate/config/rules``, detect-secrets' plugins) served as
the list of formats, and their rule ids are cited as sources.

==================== ============================================================================
rule                 what is masked (sources)
==================== ============================================================================
pem_private_key      PEM and OpenSSH private-key blocks, SSH2 encrypted keys (RFC 7468;
                     gitleaks ``private-key``); an unterminated block to the end of the text
pgp_private_key      OpenPGP ``PRIVATE KEY BLOCK`` (RFC 4880; gitleaks ``private-key``)
putty_private_key    the private lines of a PuTTY ``.ppk`` file (PuTTY docs, appendix C)
anthropic … age,     prefixed tokens: one rule per issuer, the rows of ``_mask_catalogue.py``,
openshift            each with its prefixes, length, alphabet and source (LLM providers incl.
                     Anthropic admin and Claude OAuth ``sk-ant-oat01-``/``sk-ant-ort01-``;
                     OpenAI, OpenRouter, Google, Groq, xAI, Perplexity, Replicate, LangSmith,
                     Pinecone, Hugging Face, NVIDIA; AWS, Bedrock, Alibaba, DigitalOcean,
                     Heroku, Cloudflare, Vault, Databricks, Fly.io, Supabase, PlanetScale,
                     Pulumi, Doppler, Terraform, 1Password; GitHub, GitLab, Bitbucket,
                     Atlassian, Buildkite; npm, PyPI, RubyGems, Docker Hub, Artifactory,
                     Clojars, Postman; Stripe, Square, Shopify, Braintree, Razorpay; Slack,
                     Discord, Teams, Twilio, SendGrid, Mailgun, Mailchimp, Brevo; Sentry,
                     Grafana, New Relic, Dynatrace, Linear, Notion, Airtable, Figma, Dropbox,
                     Mapbox, Typeform, age, OpenShift)
azure                Entra ID client secrets ``…8Q~…`` (gitleaks ``azure-ad-client-secret``)
telegram             ``<bot id>:<35 characters>`` (gitleaks ``telegram-bot-api-token``)
jwt                  ``eyJ….eyJ…[.…]``, two or three base64url segments (RFC 7519)
aws_secret_access_key  the 40 characters after an ``aws_secret_access_key`` /
                     ``SecretAccessKey`` name, or after an access key id and ``,`` ``:`` ``|``
                     or a tab (the console's credentials CSV); a bare 40-character run is kept
bearer               the credential of an ``Authorization`` value (``Bearer``, ``Basic``,
                     ``Token``, ``Bot`` or no scheme; RFC 6750, RFC 7617) as a header, a JSON or
                     dict entry; ``Bearer <generated value>`` alone
url_password         the password of ``scheme://user:password@host`` (RFC 3986); ``@`` and ``/``
                     allowed in it
password, secret,    the value assigned to a name that holds that word (``DB_PASSWORD``,
token, api_key,      ``clientSecret``, ``accessToken``, ``openaiApiKey``, ``PGPASSWORD``,
credential           ``x-api-key``, ``creds``, ``auth``) in code, config, JSON, dict reprs, XML,
                     calls and comparisons, ``--password`` flags, ``curl -u user:password``
                     (detect-secrets ``KeywordDetector``, gitleaks ``generic-api-key``,
                     ``curl-auth-user``): ``_mask_assign.py``, ``_mask_values.py``
==================== ============================================================================

Decisions where the rules are silent:

* ``Masked.kinds`` has one entry per replacement, in text order, duplicates kept; ``count`` is
  ``len(kinds)``.
* Overlapping matches form one region, replaced once by ``[REDACTED:<rule>]`` naming the longest
  match (ties: the earlier start, then the earlier rule in ``RULE_NAMES``: a token's own rule
  before the name it is assigned to).  The region is the union of the overlapping matches, so
  no part of any match survives (fail closed).
* Assignments, ``bearer``, ``url_password`` and ``aws_secret_access_key`` replace only the value.
* A token refused for touching a secret (``-----END…-----sk-…``, two tokens glued) is found once
  that secret is a label: while a label touches a key character the text is scanned again, at
  most ``_PASSES`` times.
* Idempotent: no rule matches ``[REDACTED:…]`` or takes a label's rule name for a key name, so
  ``mask(mask(t)) == mask(t)``.
* Linear time: Python's ``re`` backtracks, so every pattern starts with a literal byte (the scan
  for it runs in C) and every repeat has a bound.  Token prefixes are found from their
  separator (``_``, ``-``, ``.``, ``~``, ``:``, ``$``) in the reversed text, one scan per
  separator byte with a trie of the prefixes spelled backwards, or from their first byte (one
  scan per byte: ``A``, ``E``, ``G``, ``L``, ``S``, ``d``); a candidate is matched in Python
  against its rows, at most ``_CAP`` candidates per run of key characters (a chain of prefixes,
  ``sk-sk-sk-…``, costs one scan of the chain).  Names are found from a literal keyword in the
  lowercased copy, a value is scanned once.  Matching runs on the UTF-8 bytes (lowercased copy
  of the same length), so offsets agree.  Timings: ``benchmarks/bench_masking.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ._mask_assign import ASSIGN_FINDERS
from ._mask_blocks import BLOCK_FINDERS
from ._mask_catalogue import TOKENS
from ._mask_commands import COMMAND_FINDERS
from ._mask_rules import TOKEN_FINDERS, Finder

__all__ = ["DEFAULT_MASKER", "RULE_NAMES", "Masked", "mask_secrets"]


@dataclass(frozen=True)
class Masked:
    """The result of :func:`mask_secrets` (docs/behaviour.md#d2)."""

    text: str
    """The text with every secret replaced by ``[REDACTED:<rule>]``."""
    count: int
    """The number of replacements (``len(kinds)``)."""
    kinds: tuple[str, ...]
    """The rule name of each replacement, in text order, duplicates kept."""


_Span = tuple[int, int, int, str]  # start, end, rule order, rule name

#: The rule names, in table order, each once (the order breaks ties between equal matches).
RULE_NAMES: tuple[str, ...] = tuple(
    dict.fromkeys(
        [
            "pem_private_key",
            "pgp_private_key",
            "putty_private_key",
            *(token.rule for token in TOKENS),
            "aws_secret_access_key",
            "bearer",
            "url_password",
            "password",
            "secret",
            "token",
            "api_key",
            "credential",
        ]
    )
)
_ORDER = {name: i for i, name in enumerate(RULE_NAMES)}
_FINDERS: tuple[Finder, ...] = tuple(
    finder for _, finder in (*BLOCK_FINDERS, *TOKEN_FINDERS, *ASSIGN_FINDERS, *COMMAND_FINDERS)
)


def _spans(raw: bytes) -> list[_Span]:
    low = raw.lower()
    spans: list[_Span] = []
    for finder in _FINDERS:
        for start, end, kind in finder(raw, low):
            # a byte class may stop inside a UTF-8 sequence: widen to whole characters
            while start > 0 and 0x80 <= raw[start] < 0xC0:
                start -= 1
            while end < len(raw) and 0x80 <= raw[end] < 0xC0:
                end += 1
            if end > start:
                spans.append((start, end, _ORDER[kind], kind))
    return spans


def _regions(spans: list[_Span]) -> list[tuple[int, int, str]]:
    """Merge overlapping spans; each region is named after its longest span (module docstring)."""
    spans.sort(key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
    regions: list[tuple[int, int, str]] = []
    best: Optional[_Span] = None
    r_start = r_end = -1
    for span in spans:
        start, end = span[0], span[1]
        if best is not None and start < r_end:
            r_end = max(r_end, end)
            if end - start > best[1] - best[0]:
                best = span
            continue
        if best is not None:
            regions.append((r_start, r_end, best[3]))
        best, r_start, r_end = span, start, end
    if best is not None:
        regions.append((r_start, r_end, best[3]))
    return regions


def _replace(raw: bytes, regions: list[tuple[int, int, str]]) -> tuple[bytes, list[_Label]]:
    """``raw`` with each region replaced by its label, and where the labels are in the result."""
    parts: list[bytes] = []
    labels: list[_Label] = []
    pos = size = 0
    for start, end, name in regions:
        label = b"[REDACTED:%s]" % name.encode("ascii")
        size += start - pos
        parts += (raw[pos:start], label)
        labels.append((size, size + len(label), name))
        size += len(label)
        pos = end
    parts.append(raw[pos:])
    return b"".join(parts), labels


def _glued(out: bytes, labels: list[_Label]) -> bool:
    """Whether a label touches a key character: a token there was refused for touching the
    secret before or after it, and is found once that secret is a label."""
    return any(
        out[end : end + 1] in _KEY_BYTES or out[start - 1 : start] in _KEY_BYTES
        for start, end, _ in labels
    )


#: At most this many passes over a text: a chain of secrets glued to each other (``-`` may join
#: two tokens) is unmasked one link per pass, so a longer chain keeps its last links.
_PASSES = 8


_Label = tuple[int, int, str]
_KEY_BYTES = frozenset(
    bytes([c]) for c in b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
)


def mask_secrets(text: str, /) -> Masked:
    """Replace every secret in ``text`` with ``[REDACTED:<rule>]`` (docs/behaviour.md#d2).

    Args:
        text: any text.

    Returns:
        A :class:`Masked` with the new text, the number of replacements and their rule names.

    Raises:
        TypeError: ``text`` is not a ``str``.

    >>> mask_secrets("key: gh" + "p_" + "a1B2c3D4e5F6g7H8i9J0" * 2 + "kLmN ok")
    Masked(text='key: [REDACTED:github] ok', count=1, kinds=('github',))
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, not {type(text).__name__}")
    raw = text.encode("utf-8", "surrogatepass")
    spans = _spans(raw)
    if not spans:
        return Masked(text, 0, ())
    regions = _regions(spans)
    out, labels = _replace(raw, regions)
    passes = 1
    while passes < _PASSES and _glued(out, labels):  # a secret glued to one just replaced
        again = _regions(_spans(out))
        if not again:
            break
        labels = sorted(_shift(labels, again) + _replace(out, again)[1])
        out = _replace(out, again)[0]
        passes += 1
    masked = out.decode("utf-8", "surrogatepass")
    return Masked(masked, len(labels), tuple(label[2] for label in labels))


def _shift(labels: list[_Label], regions: list[tuple[int, int, str]]) -> list[_Label]:
    """The first pass's labels in the second pass's text (a label a region covers is gone)."""
    out: list[_Label] = []
    delta = 0
    i = 0
    for start, end, name in labels:
        while i < len(regions) and regions[i][1] <= start:
            r_start, r_end, r_name = regions[i]
            delta += len(b"[REDACTED:%s]" % r_name.encode("ascii")) - (r_end - r_start)
            i += 1
        if i < len(regions) and regions[i][0] < end:
            continue
        out.append((start + delta, end + delta, name))
    return out


def DEFAULT_MASKER(text: str, /) -> str:
    """The default masker of a trace store: ``mask_secrets(text).text`` (docs/behaviour.md#d2).

    Args:
        text: any text.

    Returns:
        The masked text.

    Raises:
        TypeError: ``text`` is not a ``str``.
    """
    return mask_secrets(text).text
