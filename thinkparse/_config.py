"""Scanner options checked and resolved into the :class:`~thinkparse._spec.Config` both scanners
consume (docs/behaviour.md#a3, #presets; F1-F4): the presets and their peer parser names, the
caches, and the start state a rendered prompt leaves (F4); single values are checked by
:mod:`thinkparse._spec`.

Decisions where the rules are silent:

* Options passed explicitly replace a preset's value even when they equal the documented default
  (``preset="deepseek-r1", start_in_reasoning=False`` turns the implicit block off).
* ``max_tentative`` of ``sys.maxsize`` (2**63 - 1 on 64-bit builds) or more is accepted and
  means no limit, exactly like ``None``: no text can be that long, and both scanners keep the
  cap in a machine-sized integer.  (It is not an error: such a value is a valid "unlimited".)
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

from ._presets import PRESET_ALIASES, PRESETS
from ._spec import (
    ANS_CLOSE,
    ANS_OPEN,
    DEFAULT_ANSWER_OPT,
    DEFAULT_CODE_AWARE_OPT,
    DEFAULT_DELIMITERS_OPT,
    DEFAULT_MAX_TENTATIVE_OPT,
    DEFAULT_START_OPT,
    DEFAULT_TAG,
    DEFAULT_TAGS_OPT,
    DEFAULT_TERMINATORS_OPT,
    LIT_CLOSE,
    LIT_OPEN,
    LIT_TERM,
    MAX_ATTR_CHARS,
    MAX_CLOSER_SPACE,
    OPTION_DEFAULTS,
    TAG_CLOSE,
    TAG_OPEN,
    Config,
    _Default,
    check_pairs,
    check_tags,
    check_terminators,
)


def _ascii_lower(s: str) -> str:
    return "".join(chr(ord(c) + 32) if "A" <= c <= "Z" else c for c in s)


_CACHE: dict[Any, Config] = {}
_CACHE_SIZE = 256


_ATOMS = (type(None), bool, int, str, _Default)
_ATOM_SET = frozenset(_ATOMS)


def _frozen(value: Any) -> bool:
    """Whether ``value`` is built only of exact immutable types (a safe cache key)."""
    kind = type(value)
    if kind in _ATOMS:
        return True
    if kind is tuple:
        return all(_frozen(item) for item in value)
    return False


def resolve_options(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    terminators: Any = DEFAULT_TERMINATORS_OPT,
    answer: Any = DEFAULT_ANSWER_OPT,
    prompt: Any = None,
    *,
    allow_auto: bool,
) -> Config:
    """Validate options and fill them from ``preset`` (docs/behaviour.md#a3, #presets).

    ``preset`` may be a preset name or a peer parser's name (``PRESET_ALIASES``, F1).
    ``prompt`` (F4), when given, decides the start mode: in reasoning iff the prompt leaves a
    block open (:func:`prompt_opens`); it may not be combined with an explicit
    ``start_in_reasoning``.

    Valid results are remembered when every option is built only of exact ``None``, ``bool``,
    ``int``, ``str`` and ``tuple`` values (keyed with each value's type, so ``True`` and ``1``
    never share an entry): scanners are cheap to create repeatedly, and an option object whose
    contents can change (a list, a custom iterable) is read afresh at every call.  A prompt is
    read at every call and is never part of a key.

    Raises:
        ValueError: naming the option, for any invalid value (docs/behaviour.md#a3).
        TypeError: for an option of the wrong type.
    """
    cfg = _resolve_cached(
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, terminators,
        answer, allow_auto,
    )
    if prompt is None or cfg.channel is not None:
        return cfg
    if not isinstance(prompt, str):
        raise TypeError(f"prompt must be a str, not {type(prompt).__name__}")
    if not isinstance(start_in_reasoning, _Default):
        raise ValueError(
            "prompt and start_in_reasoning both decide where the text starts: pass one of them"
        )
    return with_start(cfg, prompt_opens(prompt, cfg))


_STARTS: dict[tuple[Config, bool], Config] = {}


def with_start(cfg: Config, start: bool) -> Config:
    """``cfg`` with another start mode (F4's prompt, T10's and F7's second scans); the variants
    are remembered (bounded), so scanners made from them share their tables."""
    if cfg.start_in_reasoning is start:
        return cfg
    key = (cfg, start)
    made = _STARTS.get(key)
    if made is None:
        made = Config(cfg.candidates, cfg.pairs, start, *cfg[3:])
        if len(_STARTS) >= _CACHE_SIZE:
            _STARTS.clear()
        _STARTS[key] = made
    return made


def _resolve_cached(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    terminators: Any,
    answer: Any,
    allow_auto: bool,
) -> Config:
    if (
        tags is DEFAULT_TAGS_OPT
        and delimiters is DEFAULT_DELIMITERS_OPT
        and code_aware is DEFAULT_CODE_AWARE_OPT
        and max_tentative is DEFAULT_MAX_TENTATIVE_OPT
        and terminators is DEFAULT_TERMINATORS_OPT
        and answer is DEFAULT_ANSWER_OPT
    ):
        # The usual calls: defaults, a preset, a start mode.  A short key (the start mode's
        # type included, so ``True`` and ``1`` stay apart) saves most of the lookup.
        if start_in_reasoning is DEFAULT_START_OPT and preset is None:
            return _DEFAULT_CONFIG
        short = (preset, type(preset), start_in_reasoning, type(start_in_reasoning), allow_auto)
        cfg = _CACHE.get(short)
        if cfg is not None:
            return cfg
        if type(preset) in _ATOM_SET and type(start_in_reasoning) in _ATOM_SET:
            cfg = _resolve(
                tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset,
                terminators, answer, allow_auto,
            )
            _remember(short, cfg)
            return cfg
    args = (
        tags, delimiters, start_in_reasoning, code_aware, max_tentative, preset, terminators,
        answer, allow_auto,
    )
    kinds = tuple(map(type, args))
    if not _ATOM_SET.issuperset(kinds) and not all(_frozen(a) for a in args):
        # A list, a set, a generator or any other object whose contents may change between
        # calls (or be used up): never remembered, so a result never depends on its history.
        return _resolve(*args)
    key = (args, kinds)
    cfg = _CACHE.get(key)
    if cfg is not None:
        return cfg
    cfg = _resolve(*args)
    _remember(key, cfg)
    return cfg




def options_config(options: Mapping[str, Any], *, allow_auto: bool) -> Config:
    """:func:`resolve_options` of a mapping of scanner options (absent ones are the defaults).

    Raises:
        ValueError, TypeError: as :func:`resolve_options`.
    """
    return resolve_options(
        *[options.get(name, default) for name, default in OPTION_DEFAULTS],
        allow_auto=allow_auto,
    )


def _remember(key: Any, cfg: Config) -> None:
    if len(_CACHE) >= _CACHE_SIZE:
        _CACHE.clear()
    _CACHE[key] = cfg


def preset_options(preset: Any) -> dict[str, Any]:
    """The options a preset (or a peer parser's name for one, F1) fills in.

    Raises:
        TypeError: ``preset`` is not a ``str``.
        ValueError: an unknown name, listing the known ones.
    """
    if not isinstance(preset, str):
        raise TypeError(f"preset must be a str, not {type(preset).__name__}")
    name = PRESET_ALIASES.get(preset, preset)
    row = PRESETS.get(name)
    if row is None:
        raise ValueError(
            f"preset: unknown preset {preset!r}; known: {', '.join(sorted(PRESETS))} "
            "(and the parser names of PRESET_ALIASES)"
        )
    return row


def _resolve(
    tags: Any,
    delimiters: Any,
    start_in_reasoning: Any,
    code_aware: Any,
    max_tentative: Any,
    preset: Any,
    terminators: Any,
    answer: Any,
    allow_auto: bool,
) -> Config:
    chosen: dict[str, Any] = preset_options(preset) if preset is not None else {}
    channel = chosen.get("channel")
    if channel is not None:
        # A channel format reads its own markup (F6): options that name other markup are an
        # error; the start mode, code awareness and the tentative cap do not apply to it.
        given = [
            name for name, value in (
                ("tags", tags), ("delimiters", delimiters), ("terminators", terminators),
                ("answer", answer),
            ) if not isinstance(value, _Default)
        ]
        if given:
            raise ValueError(
                f"preset {preset!r} reads {channel} channels; {', '.join(given)} cannot be "
                "combined with it"
            )
        return Config(*_DEFAULT_CONFIG[:-1], channel)

    def pick(name: str, value: Any) -> Any:
        if isinstance(value, _Default):
            return chosen.get(name, value.value)
        return value

    tags = pick("tags", tags)
    delimiters = pick("delimiters", delimiters)
    start = pick("start_in_reasoning", start_in_reasoning)
    code = pick("code_aware", code_aware)
    cap = pick("max_tentative", max_tentative)

    if not isinstance(code, bool):
        raise TypeError(f"code_aware must be a bool, not {type(code).__name__}")
    if start == "auto":
        if not allow_auto:
            raise ValueError(
                'start_in_reasoning="auto" needs the whole text: it is available in '
                "split_think and strip_think only, not when streaming"
            )
    elif not isinstance(start, bool):
        raise ValueError(
            f'start_in_reasoning must be True, False or "auto", not {start!r}'
        )
    if cap is None:
        cap = -1
    elif isinstance(cap, bool) or not isinstance(cap, int):
        raise TypeError(f"max_tentative must be an int or None, not {type(cap).__name__}")
    elif cap < 1:
        raise ValueError(f"max_tentative must be at least 1 (or None), not {cap}")
    elif cap >= sys.maxsize:
        cap = -1  # no text can be that long: "effectively unlimited", exactly like None

    delims = check_pairs(delimiters, code, "delimiters")
    names = check_tags(tags) if tags is not None else (() if delims else (DEFAULT_TAG,))
    if not names and not delims:
        raise ValueError("tags: no tag names and no delimiters: nothing could ever match")
    terms = check_terminators(pick("terminators", terminators))
    wrappers = check_pairs(pick("answer", answer), code, "answer")

    candidates: list[tuple[int, str, int]] = []
    pairs: list[tuple[int, int]] = []
    for open_, close in delims:
        p = len(pairs)
        candidates += [(LIT_OPEN, open_, p), (LIT_CLOSE, close, p)]
        pairs.append((len(candidates) - 2, len(candidates) - 1))
    for name in names:
        p = len(pairs)
        low = _ascii_lower(name)
        candidates += [(TAG_OPEN, low, p), (TAG_CLOSE, low, p)]
        pairs.append((len(candidates) - 2, len(candidates) - 1))
    visible = list(range(len(candidates)))
    term_ids = []
    for marker in terms:
        term_ids.append(len(candidates))
        candidates.append((LIT_TERM, marker, -1))
    for w, (open_, close) in enumerate(wrappers):
        visible += [len(candidates), len(candidates) + 1]
        candidates += [(ANS_OPEN, open_, w), (ANS_CLOSE, close, w)]
    term_of = {candidates[i][1]: i for i in reversed(term_ids)}
    closers = tuple(
        term_of.get(candidates[c][1], c) if candidates[c][0] == LIT_CLOSE else c
        for _, c in pairs
    )
    # A closer that is a terminator is ordinary text outside reasoning, as terminators are.
    visible = [i for i in visible if candidates[i][0] != LIT_CLOSE or i in closers]
    first = "".join(sorted({
        candidates[i][1][0] if candidates[i][0] < TAG_OPEN else "<" for i in visible
    }))
    return Config(
        tuple(candidates), tuple(pairs), start, code, cap, first, tuple(visible),
        tuple(term_ids), closers, None,
    )


#: All options at their defaults (the same with or without "auto" allowed).
_DEFAULT_CONFIG = _resolve(
    DEFAULT_TAGS_OPT, DEFAULT_DELIMITERS_OPT, DEFAULT_START_OPT, DEFAULT_CODE_AWARE_OPT,
    DEFAULT_MAX_TENTATIVE_OPT, None, DEFAULT_TERMINATORS_OPT, DEFAULT_ANSWER_OPT, False,
)


# --- the start state from the prompt (F4) ------------------------------------------------------
_PROMPT_PATTERNS: dict[tuple[tuple[int, str, int], ...], re.Pattern[str]] = {}


def _prompt_pattern(cfg: Config) -> re.Pattern[str]:
    """One pattern finding every pair's opener (group ``o<p>``), self-closing opener and closer
    (group ``c<p>``) in T1's syntax; cached per candidate set."""
    pattern = _PROMPT_PATTERNS.get(cfg.candidates)
    if pattern is not None:
        return pattern
    parts = []
    for p, (oi, ci) in enumerate(cfg.pairs):
        kind, text, _ = cfg.candidates[oi]
        close = cfg.candidates[ci][1]
        if kind == LIT_OPEN:
            parts.append(f"(?P<o{p}>{re.escape(text)})|(?P<c{p}>{re.escape(close)})")
        else:
            name = re.escape(text)
            parts.append(
                f"(?P<o{p}><{name}(?:>|[ \t\n\r][^<>]{{0,{MAX_ATTR_CHARS}}}(?<!/)>))"
                f"|(?P<c{p}></{name}[ \t\n\r]{{0,{MAX_CLOSER_SPACE}}}>"
                f"|<{name}(?:[ \t\n\r][^<>]{{0,{MAX_ATTR_CHARS - 1}}})?/>)"
            )
    pattern = re.compile("|".join(parts), re.ASCII | re.IGNORECASE)
    if len(_PROMPT_PATTERNS) >= _CACHE_SIZE:
        _PROMPT_PATTERNS.clear()
    _PROMPT_PATTERNS[cfg.candidates] = pattern
    return pattern


def prompt_opens(prompt: str, cfg: Config) -> bool:
    """Whether ``prompt`` leaves a block of ``cfg``'s pairs open (F4): its last opener comes
    after the last closer of that opener's pair.  Markup is read as T1 writes it (tag names
    without case, attributes, a self-closing opener counts as a closed block); code and text
    after the opener do not matter, and nothing is case-folded beyond ASCII."""
    last_open = -1
    last_pair = -1
    last_close: dict[int, int] = {}
    for m in _prompt_pattern(cfg).finditer(prompt):
        group = m.lastgroup
        if group is None:  # pragma: no cover - every alternative is a named group
            continue
        p = int(group[1:])
        if group[0] == "o":
            last_open, last_pair = m.start(), p
        else:
            last_close[p] = m.start()
    return last_open >= 0 and last_close.get(last_pair, -1) < last_open
