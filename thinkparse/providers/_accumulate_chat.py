"""The Chat Completions stream accumulator (with Mistral and OpenRouter chunks).

See :mod:`._accumulate` for the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from ._accumulate import AccumulatorBase
from ._wire import SCALARS, as_list, as_map, jsonify

# --- Chat --------------------------------------------------------------------------------------
_CONCAT_DETAIL = ("text", "summary", "data")
_DELTA_KEYS = frozenset({"delta", "message", "text"})
_STR_FIELDS = frozenset({"content", "refusal", "reasoning_content", "reasoning"})
_LAST = ("usage", "x_groq")


class _ChatRest:
    """What a Chat stream collects besides text pieces (each empty until used)."""

    __slots__ = ("args", "choice_base", "details", "other", "seen", "tools")

    def __init__(self) -> None:
        self.choice_base: dict[str, Any] = {}
        self.seen: set[str] = set()
        self.tools: dict[Any, dict[str, Any]] = {}
        self.args: dict[Any, list[str]] = {}
        self.details: dict[Any, dict[str, Any]] = {}
        self.other: dict[str, Any] = {}


class Chat(AccumulatorBase):
    """``chat.completion.chunk`` events added up (the chosen choice)."""

    def __init__(self, choice: int) -> None:
        self.choice = choice
        self.base: dict[str, Any] = {}
        self.fields: dict[str, list[str]] = {}  # content, refusal, reasoning_content, reasoning
        self.chunks: Optional[list[list[Any]]] = None  # [type, dict, pieces] for list content
        self.legacy: Optional[list[str]] = None
        self.nkeys = -1  # the number of top-level keys of the last event
        self.first: Optional[Mapping[str, Any]] = None  # the first chunk, its keys not read yet
        # Built when a chunk first needs it: a stream of text chunks never does (its first
        # event stays cheap, docs/behaviour.md#p9's cost goal).
        self.rest: Optional[_ChatRest] = None

    def _more(self) -> _ChatRest:
        rest = self.rest
        if rest is None:
            rest = self.rest = _ChatRest()
        return rest

    def top(self, ev: Mapping[str, Any]) -> None:
        """Read a chunk's top-level keys (the first value wins for id, model..., the last for
        usage); chunks of one shape repeat them, so callers skip this while ``len(ev)`` stays
        ``nkeys`` and the chunk has no ``usage``.

        The first chunk's keys are read on first use (the stream's first event stays cheap;
        docs/behaviour.md#x1 lets the turn be built lazily): that one event is kept until then,
        and any later chunk read here reads it first, so the order of the reads is kept.
        """
        self.nkeys = len(ev)
        first = self.first
        if first is None:
            if not self.base:
                self.first = ev
                return
        else:
            self.first = None
            self._top(first)
        self._top(ev)

    def _top(self, ev: Mapping[str, Any]) -> None:
        base = self.base
        for k, v in ev.items():
            if v is not None and k != "choices" and (k not in base or k in _LAST):
                base[k] = v if type(v) in SCALARS else jsonify(v)

    def event(self, ev: Mapping[str, Any]) -> None:
        if len(ev) != self.nkeys or "usage" in ev:
            self.top(ev)
        choices = ev.get("choices")
        if type(choices) is list and len(choices) == 1:  # the usual chunk
            c = choices[0]
            if type(c) is dict and c.get("index", 0) == self.choice:
                d = c.get("delta")
                if type(d) is dict:
                    if len(c) > 2:
                        self._choice_fields(c)
                    if len(d) == 1:
                        for k, v in d.items():
                            if type(v) is str and k in _STR_FIELDS and (
                                k != "content" or self.chunks is None
                            ):
                                p = self.fields.get(k)
                                if p is None:
                                    self.fields[k] = [v]
                                else:
                                    p.append(v)
                                return
                    self._delta(d)
                    return
        for i, c in enumerate(as_list(choices)):
            m = as_map(c)
            if m is None:
                continue
            idx = m.get("index")
            if (i if idx is None else idx) != self.choice:
                continue
            self._choice_fields(m)
            if isinstance(m.get("text"), str):
                if self.legacy is None:
                    self.legacy = []
                self.legacy.append(m["text"])
            d = as_map(m.get("delta")) or as_map(m.get("message"))
            if d is not None:
                self._delta(d)

    def _choice_fields(self, m: Mapping[str, Any]) -> None:
        cb = self._more().choice_base
        for k, v in m.items():
            if v is not None and k not in _DELTA_KEYS and (k not in cb or k == "finish_reason"):
                cb[k] = jsonify(v)

    def _delta(self, d: Mapping[str, Any]) -> None:
        fields = self.fields
        for k, v in d.items():
            if k in _STR_FIELDS:
                if type(v) is str or isinstance(v, str):
                    if k == "content" and self.chunks is not None:
                        self._chunk({"type": "text", "text": v})
                    else:
                        p = fields.get(k)
                        if p is None:
                            fields[k] = [v]
                        else:
                            p.append(v)
                    continue
                self._more().seen.add(k)
                if k == "content" and isinstance(v, (list, tuple)):
                    if self.chunks is None:
                        self.chunks = []
                        prev = "".join(self.fields.pop("content", []))
                        if prev:
                            self._chunk({"type": "text", "text": prev})
                    for ch in v:
                        chm = {"type": "text", "text": ch} if isinstance(ch, str) else as_map(ch)
                        if chm is not None:
                            self._chunk(chm)
            elif k == "tool_calls":
                for j, tc in enumerate(as_list(v)):
                    self._tool(j, tc)
            elif k == "reasoning_details":
                for j, e in enumerate(as_list(v)):
                    self._detail(j, e)
            elif v is not None:
                other = self._more().other
                if k not in other:
                    other[k] = jsonify(v)

    def _chunk(self, ch: Mapping[str, Any]) -> None:
        chunks = self.chunks
        if chunks is None:  # pragma: no cover - set by the caller
            return
        t = ch.get("type")
        if t == "thinking":
            th = ch.get("thinking")
            texts = [th] if isinstance(th, str) else [
                x.get("text") for x in (as_map(y) for y in as_list(th))
                if x is not None and isinstance(x.get("text"), str)
            ]
        elif t == "text":
            texts = [ch.get("text")] if isinstance(ch.get("text"), str) else []
        else:
            chunks.append([None, jsonify(ch), None])
            return
        if chunks and chunks[-1][0] == t:
            chunks[-1][2].extend(texts)
            for k, v in ch.items():
                if k not in ("thinking", "text") and v is not None:
                    chunks[-1][1].setdefault(k, jsonify(v))
            return
        body = {k: jsonify(v) for k, v in ch.items() if k not in ("thinking", "text")}
        chunks.append([t, body, list(texts)])

    def _tool(self, j: int, tc: Any) -> None:
        m = as_map(tc)
        if m is None:
            return
        idx = m.get("index", j)
        rest = self._more()
        cur = rest.tools.get(idx)
        if cur is None:
            cur = rest.tools[idx] = {}
        for k, v in m.items():
            if k == "function":
                fm = as_map(v)
                if fm is None:
                    continue
                f = cur.setdefault("function", {})
                for fk, fv in fm.items():
                    if fk == "arguments":
                        if isinstance(fv, str):
                            rest.args.setdefault(idx, []).append(fv)
                    elif fv is not None and f.get(fk) is None:
                        f[fk] = jsonify(fv)
            elif k != "index" and v is not None and cur.get(k) is None:
                cur[k] = jsonify(v)

    def _detail(self, j: int, e: Any) -> None:
        m = as_map(e)
        if m is None:
            return
        idx = m.get("index")
        details = self._more().details
        key = idx if isinstance(idx, int) else ("#", len(details), j)
        cur = details.get(key)
        if cur is None:
            details[key] = jsonify(m)
            return
        for k, v in m.items():
            if k in _CONCAT_DETAIL and isinstance(v, str):
                prev = cur.get(k)
                cur[k] = (prev if isinstance(prev, str) else "") + v
            elif v is not None:
                cur[k] = jsonify(v)

    def build(self) -> dict[str, Any]:
        first = self.first
        if first is not None:
            self.first = None
            self._top(first)
        choice: dict[str, Any] = {"index": self.choice}
        rest = self.rest if self.rest is not None else _ChatRest()
        if self.legacy is not None and not rest.seen and not rest.tools:
            choice["text"] = "".join(self.legacy)
        else:
            msg: dict[str, Any] = dict(rest.other)
            msg.setdefault("role", "assistant")
            for k in ("content", "refusal", "reasoning_content", "reasoning"):
                if k in rest.seen or k in self.fields or (
                    k == "content" and self.chunks is not None
                ):
                    p = self.fields.get(k)
                    msg[k] = "".join(p) if p is not None else None
            if self.chunks is not None:
                content = []
                for t, body, pieces in self.chunks:
                    if t == "thinking":
                        body = {**body, "thinking": [{"type": "text", "text": "".join(pieces)}]}
                    elif t == "text":
                        body = {**body, "text": "".join(pieces)}
                    content.append(body)
                msg["content"] = content
            if rest.tools:
                calls = []
                for idx, tc in rest.tools.items():
                    tc = dict(tc)
                    if idx in rest.args:
                        tc["function"] = {**tc.get("function", {}),
                                          "arguments": "".join(rest.args[idx])}
                    calls.append(tc)
                msg["tool_calls"] = calls
            if rest.details:
                msg["reasoning_details"] = list(rest.details.values())
            choice["message"] = msg
        choice.update(rest.choice_base)
        return {**self.base, "choices": [choice]}
