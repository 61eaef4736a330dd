"""Throughput and linear time of secrets masking (docs/behaviour.md#d2).

Run: ``python benchmarks/bench_masking.py`` (from the repository root).  ``--quick`` uses small
sizes (a smoke run); ``--clock wall`` times elapsed time instead of the process's CPU time (the
default, which leaves out the time spent descheduled on a shared machine).  Prints:

1. ``mask_secrets`` throughput in MB/s on realistic reasoning text (target >= 40 MB/s): English
   reasoning paragraphs with inline code, code blocks, JSON tool results with escapes, identifiers,
   UUIDs, git hashes, digests, base64 blobs, URLs, and a few secrets; the same text without the
   secrets; and two baselines measured in the same rounds (one regex literal pass, one ``memchr``
   scan) for a machine-independent reading;
2. per-character cost of ``mask_secrets`` on adversarial inputs (runs of rule prefixes, operators,
   key characters) at 40 KB and 4 MB, and the growth ratio (target: within 2x; a quadratic
   pattern would grow 100x).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import sys
import time
import uuid
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from thinkparse import mask_secrets

__all__ = ["ADVERSARIAL", "adversarial", "bench_linear", "bench_throughput", "realistic_reasoning"]

_WORDS = (  # noqa: SIM905
    "the a of to and in is that for it with as on this be by we can are from or an which "
    "value function result string parser token tokens stream model answer reasoning input "
    "output request response user key keys secret password config environment variable file "
    "header headers client server session run call tool check first next each other because "
    "when then only also more should would could must may need use using read write error "
    "retry timeout cache index table column query store record field schema credential "
    "access rotate vault deploy build test failing passes returns expected actual missing"
).split()

_CODE = (
    "api_key_name = 'OPENAI_API_KEY'  # the variable name, not the value",
    "token_count = len(tokenizer.encode(text))",
    "client = OpenAI(api_key=os.environ[\"OPENAI_API_KEY\"])",
    "if not user.check_password(raw_password):\n    raise PermissionDenied",
    "max_tokens = 4096; temperature = 0.2",
    "def get_secret(name: str) -> str:\n    return vault.read(f\"secret/{name}\")['value']",
    "for i, row in enumerate(rows):\n    total += row['amount']",
    "headers = {'Content-Type': 'application/json', 'Accept': 'text/event-stream'}",
    "resp = requests.post(url, json=payload, timeout=30)",
    "password_reset_url = f\"{BASE_URL}/account/password/reset\"",
    "export DATABASE_URL=postgres://USER:PASSWORD@HOST:5432/DBNAME",
    "access_token_ttl_seconds = 3600",
    "const cfg = { retries: 3, backoffMs: 250, region: 'eu-west-1' };",
    "SELECT id, created_at FROM reasoning_traces WHERE session_key = ? ORDER BY created_at;",
)

_SECRET_MAKERS: tuple[Callable[[random.Random], str], ...] = (
    lambda r: "OPENAI_API_KEY=sk-proj-" + _rand(r, 48) + "T3BlbkFJ" + _rand(r, 48),
    lambda r: "Authorization: Bearer " + _rand(r, 40),
    lambda r: "postgres://app:" + _rand(r, 14) + "@db.internal:5432/app",
    lambda r: "{\"token\": \"gh" + "p_" + _rand(r, 36) + "\"}",
    lambda r: "aws_secret_access_key = " + _rand(r, 40, _ALNUM + "/+"),
    lambda r: "'x-api-key': 'sk-ant-api03-" + _rand(r, 93) + "AA'",
)
_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


def _rand(rng: random.Random, n: int, alphabet: str = _ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _sentence(rng: random.Random) -> str:
    words = [rng.choice(_WORDS) for _ in range(rng.randint(8, 22))]
    roll = rng.random()
    if roll < 0.08:
        words.insert(rng.randrange(len(words)), f"`{rng.choice(_CODE).splitlines()[0]}`")
    elif roll < 0.12:
        words.insert(rng.randrange(len(words)), str(uuid.UUID(int=rng.getrandbits(128))))
    elif roll < 0.16:
        words.insert(rng.randrange(len(words)), hashlib.sha1(rng.randbytes(8)).hexdigest())
    elif roll < 0.18:
        digest = hashlib.sha256(rng.randbytes(8)).hexdigest()
        words.insert(rng.randrange(len(words)), f"sha256:{digest}")
    elif roll < 0.20:
        url = f"https://docs.example.com/v{rng.randint(1, 3)}/guide#{rng.choice(_WORDS)}"
        words.insert(rng.randrange(len(words)), url)
    elif roll < 0.22:
        path = f"src/{rng.choice(_WORDS)}_{rng.choice(_WORDS)}.py:{rng.randint(1, 900)}"
        words.insert(rng.randrange(len(words)), path)
    words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words) + rng.choice(".....?:;")


def _json_result(rng: random.Random) -> str:
    content = "R\u00e9sum\u00e9 of the run:\n" + "\n".join(
        f"{rng.choice(_WORDS)}_{rng.choice(_WORDS)}={rng.randint(0, 10**6)}" for _ in range(4)
    )
    payload = {
        "type": "tool_result",
        "tool_use_id": "toolu_" + _rand(rng, 24),
        "content": content,
        "request_id": str(uuid.UUID(int=rng.getrandbits(128))),
    }
    return "The tool returned " + json.dumps(payload) + " so I continue."


def _blob(rng: random.Random) -> str:
    data = base64.b64encode(rng.randbytes(rng.randint(30, 120))).decode()
    return f"The image arrives as data:image/png;base64,{data} and I only need its size."


def realistic_reasoning(size: int, *, seed: int = 11, secrets: bool = True) -> str:
    """A deterministic reasoning text of exactly ``size`` characters (secrets about every 20 KB)."""
    rng = random.Random(seed)
    parts: list[str] = []
    length = 0
    next_secret = 20_000
    while length < size:
        roll = rng.random()
        if roll < 0.70:
            piece = " ".join(_sentence(rng) for _ in range(rng.randint(2, 6)))
        elif roll < 0.82:
            piece = "```python\n" + "\n".join(rng.sample(_CODE, 4)) + "\n```"
        elif roll < 0.94:
            piece = _json_result(rng)
        else:
            piece = _blob(rng)
        if secrets and length >= next_secret:
            piece += " " + rng.choice(_SECRET_MAKERS)(rng)
            next_secret += 20_000
        parts.append(piece)
        length += len(piece) + 2
    return "\n\n".join(parts)[:size]


#: The clock: CPU time of the process, or elapsed time with ``--clock wall``.
CLOCK: Callable[[], float] = time.process_time


def _best(fn: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        start = CLOCK()
        fn()
        times.append(CLOCK() - start)
    return min(times)


def bench_throughput(size: int, rounds: int) -> list[tuple[str, float]]:
    """MB/s of each contender on ``size`` characters, interleaved rounds, best of ``rounds``."""
    texts = {
        "realistic reasoning": realistic_reasoning(size),
        "same, no secrets": realistic_reasoning(size, secrets=False),
    }
    raw = texts["realistic reasoning"].encode()
    literal = re.compile(re.escape(b"~absent~"))  # a full pass: found nowhere
    contenders: dict[str, Callable[[], object]] = {
        name: (lambda t=text: mask_secrets(t)) for name, text in texts.items()
    }
    contenders["baseline: one regex literal pass"] = lambda: literal.search(raw)
    contenders["baseline: memchr scan"] = lambda: raw.find(b"\x00")
    best_time = dict.fromkeys(contenders, float("inf"))
    for _ in range(rounds):
        for name, fn in contenders.items():
            best_time[name] = min(best_time[name], _best(fn, 1))
    return [(name, len(raw) / best_time[name] / 1e6) for name in contenders]


#: Inputs that make a backtracking pattern slow: runs of rule prefixes, operators, key characters.
ADVERSARIAL = {
    "sk-": "sk-",
    "sk-ant-": "sk-ant-",
    "eyJ.": "eyJaaaaaaaaaa.",
    "password=": "password=",
    "passwordpassword": "password",
    "clientSecret: '": "clientSecret: '",
    "BEGIN PRIVATE KEY": "-----BEGIN RSA PRIVATE KEY-----\n",
    "BEGIN PGP": "-----BEGIN PGP PRIVATE KEY BLOCK-----\n",
    "://a:": "://a:",
    "://a:b@": "://a:b@",
    "key chars": "aB3_-",
    "base64 run": "aB3+/",
    "AKIA": "AKIA",
    "AKIA...,": "AKIAABCDEFGHIJKLMNOP,",
    "\\n escapes": "\\n\\t\\u00e9",
    "Authorization": "'Authorization': 'Bearer ",
    "digits:": "123456789:",
    "xoxb-": "xoxb-1-",
    "=\"": '="',
}


def adversarial(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def bench_linear(sizes: list[int]) -> list[tuple[str, list[float]]]:
    """ns per character of ``mask_secrets`` on each adversarial input at each size."""
    rows = []
    for name, unit in ADVERSARIAL.items():
        costs = []
        for size in sizes:
            text = adversarial(unit, size)
            costs.append(_best(lambda t=text: mask_secrets(t), 2) / size * 1e9)  # type: ignore[misc]
        rows.append((name, costs))
    return rows


def main() -> None:
    global CLOCK
    quick = "--quick" in sys.argv
    if "--clock" in sys.argv and sys.argv[sys.argv.index("--clock") + 1 :][:1] == ["wall"]:
        CLOCK = time.perf_counter
    size = 200_000 if quick else 10_000_000
    print(f"mask_secrets on {size / 1e6:g} MB of realistic reasoning (best of 3)")
    for name, mbps in bench_throughput(size, 3):
        print(f"  {name:<34} {mbps:9.1f} MB/s")
    sizes = [4_000, 40_000] if quick else [40_000, 4_000_000]
    print("\nmask_secrets on adversarial input, ns per character")
    head = "  ".join(f"{s / 1e6:>8g}MB" for s in sizes)
    print(f"  {'input':<20} {head}   growth")
    worst = 0.0
    for name, costs in bench_linear(sizes):
        cells = "  ".join(f"{c:10.1f}" for c in costs)
        growth = costs[-1] / costs[0]
        worst = max(worst, growth)
        print(f"  {name:<20} {cells}   {growth:.2f}x")
    print(f"  worst growth {worst:.2f}x (linear: about 1x; quadratic: {sizes[-1] // sizes[0]}x)")


if __name__ == "__main__":
    main()
