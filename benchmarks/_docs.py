"""Deterministic documents for the scanner benchmarks (docs/behaviour.md#performance, S6).

Every generator returns a ``str`` of exactly the requested length and depends only on its
arguments (a seeded :class:`random.Random`), so two runs -- and two processes -- measure the same
text.

* :func:`realistic_document` -- a model's reply: a ``<think>`` block at the start, an answer made of
  prose, inline code, fenced code (backtick and tilde fences), ``<`` comparisons and HTML-ish
  mentions, a second ``<think>`` block in the middle of the answer (closed properly, so it is a
  tentative block that resolves), and an LF about every 80 characters.  On average a backtick or a
  ``<`` occurs about once every 80 characters (see :func:`marker_spacing`).
* :func:`tag_free_prose` -- prose lines with no ``<``, no backtick and no ``~``.
* :data:`ADVERSARIAL` -- the inputs named in S6.
"""

from __future__ import annotations

import random
from typing import Callable

__all__ = [
    "ADVERSARIAL",
    "ZOO_ADVERSARIAL",
    "marker_spacing",
    "realistic_document",
    "split_chunks",
    "tag_free_prose",
]

DEFAULT_SEED = 7

_WORD_LIST = (
    "the a of to and in is that for it with as on this be by we can are from or an which "
    "value function result string parser token stream model answer reasoning input output "
    "buffer chunk state return error list index call check case first last next each other "
    "time memory line block text simple fast small large number order method class module "
    "test option default example because when then only also more than should would could "
    "must may need use used using make makes made keep kept read write move copy handle "
    "handled start end open close match matches found search scan loop step "
    "python code type types data file files path user users server client request response"
)
_WORDS = tuple(_WORD_LIST.split())

# Short spans that put exactly one ``<`` or a pair of backticks into a prose line.
_INLINE_CODE = (
    "`x = f(y)`",
    "`len(items)`",
    "`None`",
    "`dict.get()`",
    "`await fetch()`",
    "`i += 1`",
    "`--verbose`",
    "`git status`",
    "`a[0]`",
    "``a `b` c``",
    "`<think>`",
    "`x < y`",
)
_COMPARISONS = (
    "a < b",
    "i <= n",
    "x<y",
    "0 < k < n",
    "len(s) < 80",
    "cost <= budget",
    "n << 2",
)
_HTML = (
    "<div>",
    "<br/>",
    "</p>",
    '<span class="k">',
    "<T>",
    "List<int>",
    "</div>",
    "<thinking>",
    "<think-tank>",
    "<th>",
    "<em>",
    "</b>",
)
_CODE_LINES = (
    "for i in range(n):",
    "    if a < b:",
    "        total += values[i]",
    "    return total",
    'html = "<div class=\\"row\\">" + cell + "</div>"',
    "x = y if y < z else z",
    "def scan(text: str) -> int:",
    "    return text.find('<')",
    'tag = "<think>"  # literal, not a tag',
    "const ok = a < b && b < c;",
    "if (x<0) { x = -x; }",
    "print(f'{n:>8}')",
    "std::vector<int> v;",
    "echo '</think>' >> log.txt",
)


def _sentence_words(rng: random.Random, n: int) -> list[str]:
    words = [rng.choice(_WORDS) for _ in range(n)]
    words[0] = words[0].capitalize()
    words[-1] += rng.choice((".", ".", ".", ",", ";", ":", "?"))
    return words


def _prose_lines(rng: random.Random, n_lines: int, *, specials: bool) -> list[str]:
    """``n_lines`` wrapped prose lines of about 80 characters (no LF inside)."""
    lines: list[str] = []
    for _ in range(n_lines):
        width = rng.randint(70, 88)
        parts: list[str] = []
        length = 0
        while length < width:
            word = rng.choice(_WORDS)
            parts.append(word)
            length += len(word) + 1
        if rng.random() < 0.15:
            parts[-1] += "."
        if specials:
            roll = rng.random()
            pos = rng.randrange(len(parts))
            if roll < 0.14:
                parts.insert(pos, rng.choice(_INLINE_CODE))
            elif roll < 0.26:
                parts.insert(pos, rng.choice(_COMPARISONS))
            elif roll < 0.38:
                parts.insert(pos, rng.choice(_HTML))
        lines.append(" ".join(parts))
    return lines


def _fence(rng: random.Random) -> list[str]:
    char = rng.choice("``````~~")
    run = char * rng.choice((3, 3, 3, 4))
    indent = " " * rng.choice((0, 0, 0, 1, 2, 3))
    lang = rng.choice(("python", "js", "html", "cpp", "", "sh"))
    body = [rng.choice(_CODE_LINES) for _ in range(rng.randint(3, 9))]
    return [indent + run + lang, *body, indent + run]


def _answer_unit(rng: random.Random) -> list[str]:
    """One paragraph, list, heading or fenced block, followed by a blank line."""
    roll = rng.random()
    if roll < 0.55:
        lines = _prose_lines(rng, rng.randint(2, 6), specials=True)
    elif roll < 0.75:
        lines = _fence(rng)
    elif roll < 0.90:
        lines = ["- " + line for line in _prose_lines(rng, rng.randint(2, 4), specials=True)]
    else:
        lines = ["## " + " ".join(_sentence_words(rng, rng.randint(2, 6)))[:-1].title()]
    return [*lines, ""]


def _fill(rng: random.Random, n: int) -> str:
    """Plain prose (no markers) of exactly ``n`` characters, ending in LF when ``n`` > 0."""
    out: list[str] = []
    size = 0
    while size < n:
        line = _prose_lines(rng, 1, specials=False)[0] + "\n"
        out.append(line)
        size += len(line)
    text = "".join(out)[:n]
    if n:
        text = text[:-1] + "\n"
    return text


def _reasoning(rng: random.Random, n_chars: int) -> str:
    # Reasoning text may mention markers too: inside a block they are plain text (T3).
    lines: list[str] = []
    size = 0
    while size < n_chars:
        line = _prose_lines(rng, 1, specials=True)[0]
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def realistic_document(n_chars: int = 20_000, *, seed: int = DEFAULT_SEED) -> str:
    """A model reply of exactly ``n_chars`` characters with two ``<think>`` blocks.

    Args:
        n_chars: length of the result; at least 1 000.
        seed: seed of the generator.

    Returns:
        The document: ``<think>`` block, answer, a second ``<think>`` block at about half way
        (after visible text, so it is tentative and closes properly), more answer.

    Raises:
        ValueError: ``n_chars`` < 1 000.
    """
    if n_chars < 1000:
        raise ValueError(f"n_chars must be at least 1000, not {n_chars}")
    rng = random.Random(seed)
    head = "<think>\n" + _reasoning(rng, min(1500, n_chars // 10)) + "\n</think>\n\n"
    second = (
        "Let me double-check that before going on.\n<think>\n"
        + _reasoning(rng, min(600, n_chars // 25))
        + "\n</think>\n\n"
    )
    parts = [head]
    size = len(head)
    budget = n_chars - len(second) - 200
    inserted = False
    while True:
        unit = "\n".join(_answer_unit(rng)) + "\n"
        if size + len(unit) > budget:
            break
        parts.append(unit)
        size += len(unit)
        if not inserted and size >= n_chars // 2:
            parts.append(second)
            size += len(second)
            inserted = True
    if not inserted:
        parts.append(second)
        size += len(second)
    parts.append(_fill(rng, n_chars - size))
    text = "".join(parts)
    if len(text) != n_chars:  # pragma: no cover - arithmetic guard
        raise RuntimeError(f"generated {len(text)} characters instead of {n_chars}")
    return text


def tag_free_prose(n_chars: int, *, seed: int = DEFAULT_SEED) -> str:
    """Prose of exactly ``n_chars`` characters with no ``<``, backtick or ``~`` (LF ~ every 80).

    Args:
        n_chars: length of the result.
        seed: seed of the generator.

    Returns:
        Wrapped prose lines, blank lines between paragraphs.
    """
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < n_chars:
        para = "\n".join(_prose_lines(rng, rng.randint(2, 6), specials=False)) + "\n\n"
        out.append(para)
        size += len(para)
    return "".join(out)[:n_chars]


def _repeat(pattern: str, n: int, prefix: str = "") -> str:
    body = n - len(prefix)
    return prefix + (pattern * (body // len(pattern) + 1))[:body]


#: The adversarial inputs of S6, each ``name -> generator(n_chars)``.
ADVERSARIAL: dict[str, Callable[[int], str]] = {
    "'<' x n": lambda n: "<" * n,
    "'<think' repeated": lambda n: _repeat("<think", n),
    "one backtick run": lambda n: _repeat("`", n, prefix="x"),
    "backtick runs of 1000": lambda n: _repeat("`" * 1000 + "y", n, prefix="x"),
    "'</' repeated": lambda n: _repeat("</", n),
    "'<think aaa...' no '>'": lambda n: _repeat("<think " + "a" * 300, n),
    "tentative at the cap": lambda n: _repeat("<think>" + "y" * 9000, n, prefix="x"),
    # Whitespace held back: before the first visible character (T8) and a block's trailing run.
    "'\\n' x n, leading": lambda n: "\n" * n,
    "'\\n' x n, in a block": lambda n: ("<think>a" + "\n" * n)[:n],
}

#: Adversarial inputs of the zoo options (F2, F3, F4), each ``name -> (generator, options)``:
#: floods of partial terminators and answer markers, held whitespace before a possible closer.
ZOO_ADVERSARIAL: dict[str, tuple[Callable[[int], str], dict[str, object]]] = {
    "'<tool_call' x n in a block": (
        lambda n: _repeat("<tool_call", n, prefix="<think>"), {"terminators": ("<tool_call>",)}),
    "'<tool_call' x n, implicit block": (
        lambda n: _repeat("<tool_call", n),
        {"terminators": ("<tool_call>",), "start_in_reasoning": True}),
    "'<answer' x n": (lambda n: _repeat("<answer", n, prefix="x "),
                      {"answer": (("<answer>", "</answer>"),)}),
    "'<answer> a </answer>' x n": (lambda n: _repeat("<answer> a </answer>", n),
                                    {"answer": (("<answer>", "</answer>"),)}),
    "' \\n' x n after an answer": (lambda n: _repeat(" \n", n, prefix="x"),
                                   {"answer": (("<answer>", "</answer>"),)}),
    "'<' x n, every option": (
        lambda n: "<" * n,
        {"terminators": ("<tool_call>",), "answer": (("<answer>", "</answer>"),)}),
}


def split_chunks(text: str, size: int) -> list[str]:
    """``text`` cut into consecutive chunks of ``size`` characters (the last may be shorter).

    Args:
        text: the text to cut.
        size: chunk length, at least 1.

    Returns:
        The chunks; ``[]`` for an empty text.
    """
    return [text[i : i + size] for i in range(0, len(text), size)]


def marker_spacing(text: str) -> float:
    """Average number of characters per backtick or ``<`` in ``text`` (``inf`` when none)."""
    markers = text.count("`") + text.count("<")
    return len(text) / markers if markers else float("inf")
