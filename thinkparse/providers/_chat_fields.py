"""Field readers of Chat Completions messages and chunks (``openai_chat``): usage figures (P5,
P12), Mistral content chunks, OpenRouter ``reasoning_details``, the reasoning fields (P4) and
the chosen choice (W4).

The wire facts and decisions are listed in :mod:`.openai_chat`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Optional

from .._errors import ResponseShapeError
from ._access import (
    COUNT_TYPES,
    Figures,
    Where,
    count_figures,
    item_map,
    join_path,
    opt_int,
    opt_map,
    opt_str,
    shape_error,
    signature_text,
)

_NO_FIGURES: Figures = (None, None, None, None)


# --- usage (P5, P12) ---------------------------------------------------------------------------
def _figures(u: Mapping[str, Any], where: Where) -> Figures:
    """(input, output, total, reasoning) of one usage object."""
    p = u.get("prompt_tokens")
    c = u.get("completion_tokens")
    t = u.get("total_tokens")
    det = u.get("completion_tokens_details")
    r = det.get("reasoning_tokens") if type(det) is dict else None
    ok = COUNT_TYPES
    if not (
        type(p) in ok and type(c) in ok and type(t) in ok and type(r) in ok
        and (det is None or type(det) is dict)
    ):  # anything but plain ints and dicts: the checked read (the usual case costs no call)
        p, c, t, r = count_figures(
            u, where, ("prompt_tokens", "completion_tokens", "total_tokens"),
            ("completion_tokens_details", "reasoning_tokens"),
        )
    if r is None and "reasoning_tokens" in u:
        r = opt_int(u, "reasoning_tokens", where)
    if r and p is not None and c is not None and t is not None and t == p + c + r:
        c += r  # xAI: completion_tokens exclude the reasoning tokens
    return p, c, t, r


def usage_figures(d: Mapping[str, Any]) -> Figures:
    """Usage figures of a response or chunk: ``usage``, completed from Groq's ``x_groq.usage``."""
    u = d.get("usage")
    figs = _NO_FIGURES
    if u is not None:
        if type(u) is not dict:
            u = opt_map(d, "usage", "")
        if u is not None:
            figs = _figures(u, "usage")
    xg = d.get("x_groq")
    if xg is not None and None in figs:
        if type(xg) is not dict:
            xg = opt_map(d, "x_groq", "")
        xu = opt_map(xg, "usage", "x_groq") if xg is not None else None
        if xu is not None:
            g = _figures(xu, "x_groq.usage")
            figs = (
                figs[0] if figs[0] is not None else g[0],
                figs[1] if figs[1] is not None else g[1],
                figs[2] if figs[2] is not None else g[2],
                figs[3] if figs[3] is not None else g[3],
            )
    return figs


# --- message parts -----------------------------------------------------------------------------
def thinking_text(v: Any, where: Where) -> str:
    """The text of a Mistral ``thinking`` value: a string or a list of text chunks."""
    if isinstance(v, str):
        return v
    if v is None:
        return ""
    if not isinstance(v, (list, tuple)):
        raise shape_error(where, "thinking", "an array or a string", v)
    inner = (where, "thinking")
    texts = []
    for j, ch in enumerate(v):
        if isinstance(ch, str):
            texts.append(ch)
            continue
        ch = item_map(ch, inner, j)
        t = ch.get("type")
        if t is None or t == "text":
            text = opt_str(ch, "text", (inner, j))
            if text:
                texts.append(text)
    return "".join(texts)


def content_parts(items: Sequence[Any], where: Where) -> tuple[str, list[str]]:
    """Visible text and thinking segments of a content list (Mistral chunks, text parts)."""
    visible: list[str] = []
    thinking: list[str] = []
    for i, part in enumerate(items):
        if isinstance(part, str):
            visible.append(part)
            continue
        part = item_map(part, where, i)
        t = part.get("type")
        if t == "thinking":
            thinking.append(thinking_text(part.get("thinking"), (where, i)))
        elif t == "text" or t == "output_text" or (t is None and "text" in part):
            text = opt_str(part, "text", (where, i))
            if text:
                visible.append(text)
        elif t == "refusal":
            text = opt_str(part, "refusal", (where, i))
            if text:
                visible.append(text)
    return "".join(visible), thinking


def details(
    items: Sequence[Any], where: Where
) -> tuple[list[str], list[str], bool]:
    """OpenRouter ``reasoning_details``: (segments, signatures, redacted)."""
    groups: dict[Any, list[str]] = {}
    sigs: list[str] = []
    redacted = False
    for i, e in enumerate(items):
        e = item_map(e, where, i)
        t = e.get("type")
        key = e.get("index")
        if type(key) is not int:
            key = ("#", i)
        if t == "reasoning.text":
            text = opt_str(e, "text", (where, i))
            sig = signature_text(e.get("signature"), (where, i), "signature")
            if sig:
                sigs.append(sig)
        elif t == "reasoning.summary":
            text = opt_str(e, "summary", (where, i))
        elif t == "reasoning.encrypted":
            if e.get("data"):
                redacted = True
            continue
        else:
            continue
        if text:
            g = groups.get(key)
            if g is None:
                groups[key] = [text]
            else:
                g.append(text)
    return ["".join(g) for g in groups.values()], sigs, redacted


def first_readable(msg: Mapping[str, Any], where: Where) -> Optional[str]:
    rc = msg.get("reasoning_content")
    if rc is not None and type(rc) is not str:
        rc = opt_str(msg, "reasoning_content", where)
    if rc and not rc.isspace():
        return rc
    r = msg.get("reasoning")
    if r is not None and type(r) is not str:
        r = opt_str(msg, "reasoning", where)
    if r and not r.isspace():
        return r
    return None


def pick(choices: Sequence[Any], choice: int) -> tuple[int, Mapping[str, Any]]:
    """``(position, choice)`` of the choice whose ``index`` is ``choice`` (W4).

    Raises:
        ResponseShapeError: no such choice (``path`` is ``choices[choice]``).
    """
    if choice < len(choices):
        c = choices[choice]
        if type(c) is not dict:
            c = item_map(c, "choices", choice)
        idx = c.get("index")
        if idx is None or idx == choice:
            return choice, c
    for i, c in enumerate(choices):
        if type(c) is not dict:
            c = item_map(c, "choices", i)
        if c.get("index") == choice:
            return i, c
    if choice == 0:
        c = choices[0]
        return 0, c if type(c) is dict else item_map(c, "choices", 0)
    raise ResponseShapeError(
        join_path("choices", choice), f"missing (choice={choice}; {len(choices)} choices)"
    )
