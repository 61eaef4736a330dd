"""Synthetic secrets of every masked format, and the four contexts of an agent trace (D2).

Each maker builds a fresh secret from the format its issuer documents (prefix, length, alphabet)
with the given ``random.Random``; the prefixes are assembled from pieces so that no complete
credential-shaped literal sits in the repository.  ``FORMATS`` rows: (rule, maker, key) -- the
rule expected in ``kinds``, and for secrets found by their name the key they are assigned to.
``CONTEXTS`` wrap a secret the ways it reaches a trace: prose, a JSON tool result with escapes
right around it, a Python dict / HTTP headers repr, an env or config assignment.
"""

from __future__ import annotations

import base64
import json
import random
import string
import uuid
from typing import Callable, Optional

LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase
DIGITS = string.digits
ALNUM = string.ascii_letters + string.digits
URLSAFE = ALNUM + "_-"
B64 = ALNUM + "+/"
HEX = "0123456789abcdef"

Maker = Callable[[random.Random], str]


def r(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    """``n`` characters of ``alphabet``, with a digit, a lowercase and an uppercase letter when
    the alphabet has them (a generated credential, not a placeholder)."""
    out = [rng.choice(alphabet) for _ in range(n)]
    for i, kind in enumerate((DIGITS, LOWER, UPPER)):
        pool = [c for c in alphabet if c in kind]
        if pool and n > 6:
            out[rng.randrange(i * n // 3, (i + 1) * n // 3)] = rng.choice(pool)
    return "".join(out)


def _jwt(rng: random.Random) -> str:
    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = b64(json.dumps({"sub": r(rng, 12), "iat": rng.randrange(10**9, 2 * 10**9)}).encode())
    return f"{head}.{body}.{b64(rng.randbytes(32))}"


def _pem(rng: random.Random, kind: str = "RSA ") -> str:
    lines = [r(rng, 64, B64) for _ in range(4)]
    return f"-----BEGIN {kind}PRIVATE KEY-----\n" + "\n".join(lines) + (
        f"\n-----END {kind}PRIVATE KEY-----"
    )


def _pgp(rng: random.Random) -> str:
    lines = [r(rng, 64, B64) for _ in range(3)]
    return (
        "-----BEGIN PGP PRIVATE " + "KEY BLOCK-----\n\n" + "\n".join(lines) + "\n=" + r(rng, 4, B64)
        + "\n-----END PGP PRIVATE KEY BLOCK-----"
    )  # fmt: skip


def _putty(rng: random.Random) -> str:
    private = "\n".join(r(rng, 64, B64) for _ in range(2))
    return f"Private-Lines: 2\n{private}\nPrivate-MAC: {r(rng, 64, HEX)}"


def _discord_bot(rng: random.Random) -> str:
    bot_id = base64.b64encode(str(rng.randrange(10**17, 10**18)).encode()).decode().rstrip("=")
    return f"{bot_id}.{r(rng, 6, URLSAFE)}.{r(rng, 27, URLSAFE)}"


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128)))


_SK = "s" + "k-"
_BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
_T = "T3Blbk" + "FJ"

#: (rule, maker, key) -- key: the name a value is assigned to (None: the token stands alone).
# fmt: off
FORMATS: list[tuple[str, Maker, Optional[str]]] = [
    ("anthropic", lambda g: _SK + "ant-api03-" + r(g, 93, URLSAFE) + "AA", None),
    ("anthropic", lambda g: _SK + "ant-admin01-" + r(g, 93, URLSAFE) + "AA", None),
    ("anthropic", lambda g: _SK + "ant-oat01-" + r(g, 95, URLSAFE), None),
    ("anthropic", lambda g: _SK + "ant-ort01-" + r(g, 95, URLSAFE), None),
    ("openai", lambda g: _SK + "proj-" + r(g, 74, URLSAFE) + _T + r(g, 74, URLSAFE), None),
    ("openai", lambda g: _SK + "svcacct-" + r(g, 58, URLSAFE) + _T + r(g, 58, URLSAFE), None),
    ("openai", lambda g: _SK + r(g, 20) + _T + r(g, 20), None),
    ("openai", lambda g: _SK + r(g, 32, HEX), None),  # OpenAI-compatible APIs (DeepSeek)
    ("openrouter", lambda g: _SK + "or-v1-" + r(g, 64, HEX), None),
    ("google_api_key", lambda g: "AI" + "za" + r(g, 35, URLSAFE), None),
    ("google_oauth", lambda g: "ya" + "29." + r(g, 150, URLSAFE), None),
    ("google_oauth", lambda g: "GOC" + "SPX-" + r(g, 28, URLSAFE), None),
    ("groq", lambda g: "gs" + "k_" + r(g, 52), None),
    ("xai", lambda g: "xa" + "i-" + r(g, 80), None),
    ("perplexity", lambda g: "pp" + "lx-" + r(g, 48), None),
    ("replicate", lambda g: "r8" + "_" + r(g, 37), None),
    ("langsmith", lambda g: "lsv2" + "_pt_" + r(g, 32, HEX) + "_" + r(g, 10, HEX), None),
    ("pinecone", lambda g: "pc" + "sk_" + r(g, 5) + "_" + r(g, 64), None),
    ("huggingface", lambda g: "h" + "f_" + r(g, 34), None),
    ("huggingface", lambda g: "api" + "_org_" + r(g, 34, string.ascii_letters), None),
    ("nvidia", lambda g: "nva" + "pi-" + r(g, 64, URLSAFE), None),
    ("aws_access_key_id", lambda g: "AK" + "IA" + r(g, 16, UPPER + "234567"), None),
    ("aws_access_key_id", lambda g: "AS" + "IA" + r(g, 16, UPPER + "234567"), None),
    ("aws_bedrock", lambda g: "AB" + "SK" + r(g, 132, B64), None),
    ("alibaba", lambda g: "LT" + "AI" + r(g, 20), None),
    ("digitalocean", lambda g: "do" + "p_v1_" + r(g, 64, HEX), None),
    ("heroku", lambda g: "HRKU" + "-AA" + r(g, 58, URLSAFE), None),
    ("cloudflare", lambda g: "v1" + ".0-" + r(g, 24, HEX) + "-" + r(g, 146, HEX), None),
    ("vault", lambda g: "hv" + "s." + r(g, 100, URLSAFE), None),
    ("databricks", lambda g: "da" + "pi" + r(g, 32, HEX), None),
    ("flyio", lambda g: "fo" + "1_" + r(g, 43, URLSAFE), None),
    ("supabase", lambda g: "sb" + "p_" + r(g, 40, HEX), None),
    ("planetscale", lambda g: "pscale" + "_tkn_" + r(g, 43), None),
    ("pulumi", lambda g: "pu" + "l-" + r(g, 40, HEX), None),
    ("doppler", lambda g: "dp" + ".pt." + r(g, 43), None),
    ("terraform", lambda g: r(g, 14) + ".atlas" + "v1." + r(g, 67, URLSAFE), None),
    ("onepassword", lambda g: "ops" + "_eyJ" + r(g, 300, B64), None),
    ("github", lambda g: "gh" + "p_" + r(g, 36), None),
    ("github", lambda g: "gh" + "s_" + r(g, 36), None),
    ("github", lambda g: "github" + "_pat_" + r(g, 22) + "_" + r(g, 59), None),
    ("gitlab", lambda g: "gl" + "pat-" + r(g, 20, URLSAFE), None),
    ("gitlab", lambda g: "gl" + "rt-" + r(g, 20, URLSAFE), None),
    ("bitbucket", lambda g: "AT" + "BB" + r(g, 32), None),
    ("atlassian", lambda g: "ATA" + "TT3" + r(g, 186, URLSAFE), None),
    ("buildkite", lambda g: "bk" + "ua_" + r(g, 40, HEX), None),
    ("npm", lambda g: "np" + "m_" + r(g, 36), None),
    ("pypi", lambda g: "py" + "pi-AgEIcHlwaS5vcmc" + r(g, 70, URLSAFE), None),
    ("rubygems", lambda g: "rubygems" + "_" + r(g, 48, HEX), None),
    ("docker", lambda g: "dckr" + "_pat_" + r(g, 27, URLSAFE), None),
    ("artifactory", lambda g: "AK" + "Cp" + r(g, 69), None),
    ("clojars", lambda g: "CLOJARS" + "_" + r(g, 60, LOWER + DIGITS), None),
    ("postman", lambda g: "PM" + "AK-" + r(g, 24, HEX) + "-" + r(g, 34, HEX), None),
    ("stripe", lambda g: "sk" + "_live_" + r(g, 24), None),
    ("stripe", lambda g: "rk" + "_test_" + r(g, 99), None),
    ("stripe", lambda g: "wh" + "sec_" + r(g, 32), None),
    ("square", lambda g: "sq0" + "atp-" + r(g, 22, URLSAFE), None),
    ("square", lambda g: "EA" + "AA" + r(g, 60, URLSAFE), None),
    ("shopify", lambda g: "sh" + "pat_" + r(g, 32, HEX), None),
    ("braintree", lambda g: "access_token" + "$production$" + r(g, 16, LOWER + DIGITS) + "$"
     + r(g, 32, HEX), None),
    ("razorpay", lambda g: "rzp" + "_live_" + r(g, 14), None),
    ("slack", lambda g: "xo" + "xb-" + r(g, 12, DIGITS) + "-" + r(g, 13, DIGITS) + "-" + r(g, 24),
     None),
    ("slack", lambda g: "xo" + "xp-" + "-".join(r(g, 12, DIGITS) for _ in range(3)) + "-"
     + r(g, 32, HEX), None),
    ("slack", lambda g: "xa" + "pp-1-" + r(g, 11, UPPER + DIGITS) + "-" + r(g, 13, DIGITS) + "-"
     + r(g, 64, HEX), None),
    ("slack", lambda g: "https://hooks.slack.com/services/T" + r(g, 8, UPPER + DIGITS) + "/B"
     + r(g, 8, UPPER + DIGITS) + "/" + r(g, 24), None),
    ("discord", _discord_bot, None),
    ("discord", lambda g: "https://discord.com/api/webhooks/" + r(g, 18, DIGITS) + "/"
     + r(g, 68, URLSAFE), None),
    ("teams", lambda g: "acme.webhook.office.com/webhook" + "b2/" + _uuid(g) + "@"
     + _uuid(g) + "/IncomingWebhook/" + r(g, 32, HEX) + "/" + _uuid(g), None),
    ("twilio", lambda g: "S" + "K" + r(g, 32, HEX), None),
    ("sendgrid", lambda g: "S" + "G." + r(g, 22, URLSAFE) + "." + r(g, 43, URLSAFE), None),
    ("mailgun", lambda g: "ke" + "y-" + r(g, 32, LOWER + DIGITS), None),
    ("mailchimp", lambda g: r(g, 32, HEX) + "-u" + "s" + r(g, 2, DIGITS), None),
    ("sendinblue", lambda g: "xkey" + "sib-" + r(g, 64, HEX) + "-" + r(g, 16), None),
    ("sentry", lambda g: "sntry" + "u_" + r(g, 64, HEX), None),
    ("grafana", lambda g: "gl" + "c_" + r(g, 60, B64), None),
    ("gitlab", lambda g: "gl" + "sa_" + r(g, 32) + "_" + r(g, 8, HEX), None),
    ("newrelic", lambda g: "NR" + "AK-" + r(g, 27, UPPER + DIGITS), None),
    ("dynatrace", lambda g: "dt0" + "c01." + r(g, 24) + "." + r(g, 64), None),
    ("linear", lambda g: "lin" + "_api_" + r(g, 40), None),
    ("notion", lambda g: "nt" + "n_" + r(g, 46), None),
    ("airtable", lambda g: "pat" + r(g, 14) + "." + r(g, 64, HEX), None),
    ("figma", lambda g: "fi" + "gd_" + r(g, 40, URLSAFE), None),
    ("dropbox", lambda g: "sl" + "." + r(g, 138, URLSAFE), None),
    ("mapbox", lambda g: "sk" + ".eyJ" + r(g, 60, URLSAFE) + "." + r(g, 22, URLSAFE), None),
    ("typeform", lambda g: "tf" + "p_" + r(g, 59), None),
    ("age", lambda g: "AGE-SECRET" + "-KEY-1" + r(g, 58, _BECH32), None),
    ("openshift", lambda g: "sha256" + "~" + r(g, 43, URLSAFE), None),
    ("azure", lambda g: r(g, 3) + r(g, 1, DIGITS) + "Q~" + r(g, 34, ALNUM + "_~.-"), None),
    ("telegram", lambda g: r(g, 10, DIGITS) + ":AA" + r(g, 33, URLSAFE), None),
    ("jwt", _jwt, None),
    ("pem_private_key", _pem, None),
    ("pem_private_key", lambda g: _pem(g, "OPENSSH "), None),
    ("pem_private_key", lambda g: _pem(g, ""), None),
    ("pgp_private_key", _pgp, None),
    ("putty_private_key", _putty, None),
    # secrets found by the name they are assigned to
    ("password", lambda g: r(g, 14, ALNUM + "!#%^*+?"), "DB_PASSWORD"),
    ("password", lambda g: r(g, 12), "adminPassword"),
    ("secret", lambda g: r(g, 40, URLSAFE), "client_secret"),
    ("secret", lambda g: r(g, 2) + r(g, 48, ALNUM + "!@#%^&*(-_=+)"), "SECRET_KEY"),
    ("token", lambda g: r(g, 32), "accessToken"),
    ("api_key", lambda g: r(g, 40), "cohere_api_key"),
    ("api_key", lambda g: _uuid(g), "HEROKU_API_KEY"),
    ("credential", lambda g: base64.b64encode(r(g, 24).encode()).decode(), "auth"),
    ("aws_secret_access_key", lambda g: r(g, 40, B64), "aws_secret_access_key"),
]
# fmt: on

_PROSE = "While checking the deployment I saw {} in the output, so it must be rotated."
_KEYED_PROSE = "While checking the deployment I saw {}: {} in the config, so it must be rotated."


def prose(secret: str, key: Optional[str] = None) -> str:
    return _PROSE.format(secret) if key is None else _KEYED_PROSE.format(key, secret)


def json_context(secret: str, key: Optional[str] = None) -> str:
    """A JSON tool result: escapes (``\\n``, ``\\u00e9``) right before and after the secret."""
    line = secret if key is None else f"{key}={secret}"
    content = f"R\u00e9sum\u00e9 of the environment:\n{line}\n\tdone"
    payload = {"type": "tool_result", "tool_use_id": "toolu_01", "content": content}
    return "The tool returned " + json.dumps(payload) + " and I continue."


def dict_context(secret: str, key: Optional[str] = None) -> str:
    """A Python dict repr (headers or keyword arguments)."""
    if key is None:
        return repr({"headers": {"X-Api-Key": secret}, "timeout": 30})
    return "kwargs were " + repr({"endpoint": "https://api.example.com/v1", key: secret})


def env_context(secret: str, key: Optional[str] = None) -> str:
    """An env file or a config assignment."""
    name = key or "SERVICE_CREDENTIAL"
    if "\n" in secret:
        return f'{name}="{secret}"\nLOG_LEVEL=info'
    return f"DEBUG=false\nexport {name}={secret}\nLOG_LEVEL=info"


CONTEXTS: dict[str, Callable[[str, Optional[str]], str]] = {
    "prose": prose,
    "json": json_context,
    "dict": dict_context,
    "env": env_context,
}


def variants(secret: str) -> list[str]:
    """The secret as it reads in each context: JSON and repr escape newlines and quotes."""
    out = [secret, json.dumps(secret)[1:-1], repr(secret)[1:-1]]
    return list(dict.fromkeys(out))


def survives(secret: str, text: str, width: int = 12) -> bool:
    """Whether a ``width``-character window of the secret (in any escaping) is left in ``text``
    (a shorter secret: the whole of it)."""
    for form in variants(secret):
        if len(form) <= width:
            if form in text:
                return True
            continue
        if any(form[i : i + width] in text for i in range(len(form) - width + 1)):
            return True
    return False


#: Text that must come back unchanged (look-alikes of secrets).
def look_alikes(rng: random.Random) -> list[str]:
    sha1 = r(rng, 40, HEX)
    blob = base64.b64encode(rng.randbytes(120)).decode()
    return [
        f"request id {_uuid(rng)} failed; retrying with id {_uuid(rng)}",
        f"git log shows {sha1} as HEAD and {r(rng, 7, HEX)}..{r(rng, 7, HEX)} as the range",
        f"sha256:{r(rng, 64, HEX)} is the digest of python:3.12-slim",
        f"integrity sha512-{base64.b64encode(rng.randbytes(64)).decode()} in package-lock.json",
        f"The screenshot arrives as data:image/png;base64,{blob} and I only need its size.",
        "api_key_name = 'OPENAI_API_KEY'  # the name of the variable, not its value",
        "client = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])",
        "token_count = len(tokenizer.encode(text)); max_tokens = 4096",
        "if not user.check_password(raw_password): raise PermissionDenied",
        "auth_token_ttl_seconds = 3600 and refresh_token_ttl_days = 30",
        "The field accessTokenExpiresAt is an ISO timestamp.",
        "OPENAI_API_KEY=sk-... goes in the .env file",
        "Replace `gh" + "p_" + "x" * 36 + "` with a token that has the repo scope.",
        "HF_TOKEN=h" + "f_" + "*" * 16,
        "AWS key AK" + "IA" + "X" * 16 + " from the docs",
        "password: ********",
        "password: \"<your-password-here>\"",
        "api_key: \"${OPENAI_API_KEY}\"",
        "export ANTHROPIC_API_KEY=<YOUR_API_KEY>",
        "Authorization: Bearer $TOKEN",
        "curl -H \"Authorization: Bearer <token>\" https://api.example.com/v1/me",
        "DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
        "mongodb+srv://<user>:<password>@cluster0.example.net",
        "The token budget is 8k and the secret to good retrieval is chunking.",
        "The user forgot the password and asked how to reset it.",
        "\"session_key\": \"sess-2024-06-01\", \"run_id\": \"run-42\"",
        "thinking block {\"type\": \"thinking\", \"signature\": \""
        + base64.b64encode(rng.randbytes(90)).decode() + "\"}",
        "pk_" + "test_" + r(rng, 24) + " is the publishable key for the browser",
        '{"logprobs": [{"token": " function", "logprob": -0.01}, {"token": " reasoning"}]}',
        '{"type": "redacted_thinking", "data": "' + base64.b64encode(rng.randbytes(60)).decode()
        + '"} and {"encrypted_content": "gAAAAAB' + r(rng, 80, URLSAFE) + '"}',
        '"usage": {"reasoning_tokens": 1024, "cached_tokens": 512, "total_tokens": 2048}',
        '{"query": "rotate the api key", "max_results": 5}',
        "sshd: passwd: pam_unix(sudo:auth): authentication failure",
        "git push -u origin feature/add-token-masking",
        "docker run -e POSTGRES_PASSWORD=example -p 5432:5432 postgres",
        "msg_" + r(rng, 24) + " and toolu_" + r(rng, 24) + " are message and tool ids",
        "chatcmpl-" + r(rng, 29) + " was the completion id",
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + r(rng, 43, B64) + " deploy@ci",
        "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8A\n-----END PUBLIC KEY-----",
        "https://example.com/path?q=1 and http://localhost:8080/ and host:5432",
        "risk-assessment-framework-overview-document and well-known-identifier",
        "naïve café résumé — 東京 🙂",
        "[REDACTED:openai] stays as it is",
    ]
