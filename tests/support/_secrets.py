"""A corpus of real-looking (fake) secrets and of near misses, built at import time.

The secrets are assembled from pieces so that no complete credential-shaped literal sits in the
repository.  Each entry: (rule, text containing the secret, the secret itself).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import string
import uuid

_rng = random.Random(20261124)
ALNUM = string.ascii_letters + string.digits


def rand(n: int, alphabet: str = ALNUM) -> str:
    return "".join(_rng.choice(alphabet) for _ in range(n))


def _jwt() -> str:
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"sub": "1234567890", "name": "Ada", "iat": 1516239022}).encode())
    return f"{head}.{body}.{b64(hashlib.sha256(b'sig').digest())}"


def _pem() -> str:
    lines = [rand(64, ALNUM + "+/") for _ in range(5)]
    return (
        "-----BEGIN "
        + "RSA PRIVATE KEY-----\n"
        + "\n".join(lines)
        + "\n-----END RSA PRIVATE KEY-----"
    )


_URLSAFE = ALNUM + "_-"
AWS_ID = "AK" + "IA" + rand(16, string.ascii_uppercase + "234567")
AWS_SECRET = rand(40, ALNUM + "/+")
OPENAI = "sk-" + "proj-" + rand(74, _URLSAFE) + "T3Blbk" + "FJ" + rand(74, _URLSAFE)
OPENAI_LEGACY = "sk-" + rand(20) + "T3Blbk" + "FJ" + rand(20)
ANTHROPIC = "sk-" + "ant-api03-" + rand(93, _URLSAFE) + "AA"
GOOGLE = "AI" + "za" + "Sy" + rand(33, _URLSAFE)
GITHUB = "gh" + "p_" + rand(36)
GITHUB_FINE = "github" + "_pat_" + rand(22) + "_" + rand(59)
GITLAB = "gl" + "pat-" + rand(20, _URLSAFE)
SLACK = "xo" + "xb-" + rand(12, string.digits) + "-" + rand(12, string.digits) + "-" + rand(24)
SLACK_HOOK = "https://hooks.slack.com/services/T" + rand(8) + "/B" + rand(8) + "/" + rand(24)
STRIPE = "sk" + "_live_" + rand(24)
STRIPE_HOOK = "wh" + "sec_" + rand(32)
HF = "h" + "f_" + rand(34, string.ascii_letters)
NPM = "np" + "m_" + rand(36)
PYPI = "py" + "pi-AgEIcHlwaS5vcmc" + rand(70, _URLSAFE)
JWT = _jwt()
PEM = _pem()
BEARER = rand(40, ALNUM + "._-")
URL_PW = rand(12, ALNUM + "!$")
PASSWORD = "Tr0ub4dor&3x"
SECRET = rand(32, "0123456789abcdef")
TOKEN = rand(24, ALNUM)
API_KEY = rand(32, ALNUM)

#: (rule, text, secret) — every secret must disappear and the rule must be reported.
SECRETS: list[tuple[str, str, str]] = [
    ("aws_access_key_id", f"the key id is {AWS_ID}.", AWS_ID),
    ("aws_secret_access_key", f"aws_secret_access_key = {AWS_SECRET}\n", AWS_SECRET),
    ("aws_secret_access_key", f'"SecretAccessKey": "{AWS_SECRET}"', AWS_SECRET),
    ("openai", f"export OPENAI_API_KEY={OPENAI}", OPENAI),
    ("openai", f"legacy key {OPENAI_LEGACY} here", OPENAI_LEGACY),
    ("anthropic", f"client = Anthropic(api_key='{ANTHROPIC}')", ANTHROPIC),
    ("google_api_key", f"https://maps.googleapis.com/x?key={GOOGLE}&q=1", GOOGLE),
    ("github", f"git clone https://{GITHUB}@github.com/o/r", GITHUB),
    ("github", f"GH token {GITHUB_FINE}", GITHUB_FINE),
    ("gitlab", f"use {GITLAB} for the API", GITLAB),
    ("slack", f"bot token: {SLACK}", SLACK),
    ("slack", f"curl -X POST {SLACK_HOOK}", SLACK_HOOK),
    ("stripe", f"stripe.api_key = '{STRIPE}'", STRIPE),
    ("stripe", f"signing secret {STRIPE_HOOK}", STRIPE_HOOK),
    ("huggingface", f"huggingface-cli login --token {HF}", HF),
    ("npm", f"//registry.npmjs.org/:_authToken={NPM}", NPM),
    ("pypi", f"password = {PYPI}", PYPI),
    ("jwt", f"the cookie holds {JWT} which", JWT),
    ("pem_private_key", f"key file:\n{PEM}\nend", PEM),
    ("bearer", f"-H 'Authorization: Bearer {BEARER}'", BEARER),
    ("url_password", f"postgres://admin:{URL_PW}@db.internal:5432/app", URL_PW),
    ("password", f'DB_PASSWORD="{PASSWORD}"', PASSWORD),
    ("password", f"password: {PASSWORD}", PASSWORD),
    ("secret", f"client_secret={SECRET}", SECRET),
    ("token", f'{{"access_token": "{TOKEN}"}}', TOKEN),
    ("api_key", f"X-Api-Key: {API_KEY}", API_KEY),
    ("api_key", f"api_key := '{API_KEY}'", API_KEY),
]

_SHA1 = hashlib.sha1(b"commit").hexdigest()
_SHA256 = hashlib.sha256(b"file").hexdigest()
_B64 = base64.b64encode(b"The quick brown fox jumps over the lazy dog, twice over." * 2).decode()

#: Text that must come back unchanged.
NEAR_MISSES: list[str] = [
    f"request id {uuid.UUID(int=_rng.getrandbits(128))} failed",
    f"commit {_SHA1}\nAuthor: Ada <ada@example.com>",
    f"sha256:{_SHA256}  dist/pkg.whl",
    f"the base64 blob {_B64} decodes to prose",
    "The user forgot the password and asked how to reset it.",
    "so token = 15 and the next token: generation continues",
    "max_tokens = 4096; tokens_est = 12; token_count: 3",
    "if password == expected_password: return True",
    'api_key = os.environ["OPENAI_API_KEY"]',
    "password = ${DB_PASSWORD}",
    "secret: <your-secret-here>",
    "token = get_token(user)",
    "password: ********",
    "the secret is that there is no secret",
    "https://example.com/path?q=1 and http://localhost:8080/",
    "risk-assessment-framework-overview-document",
    "sk-learn and pk_live_ keys are public",
    "the model said AKIA is a prefix",
    "mask-sk-" + "a" * 30,
    "ghp_short",
    "eyJ alone, eyJhbGciOiJIUzI1NiJ9 without the rest",
    "-----BEGIN PUBLIC KEY-----\nMIIB\n-----END PUBLIC KEY-----",
    "Authorization: Bearer $TOKEN",
    "[REDACTED:openai] stays as it is",
    "naïve café résumé — 東京 🙂",
]
