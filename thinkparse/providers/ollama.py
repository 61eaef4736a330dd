"""Ollama native API (family ``ollama``): ``/api/chat`` and ``/api/generate``.

Wire facts (Ollama API docs, "Generate a chat completion" / "Generate a completion" and the
thinking capability page; ollama-python ``ollama/_types.py``: ``ChatResponse``,
``GenerateResponse``, ``Message``):

* ``/api/chat``: ``{message: {role, content, thinking, tool_calls}, done, done_reason,
  prompt_eval_count, eval_count, ...}``.  ``/api/generate``: ``{response, thinking, done, ...}``.
* Streams are NDJSON objects of the same shape with partial ``content`` / ``thinking`` /
  ``response``; the last one has ``done: true`` and the counts.
* Old servers (before thinking support) leave ``<think>`` tags in ``content``.
* ``prompt_eval_count`` is the prompt's tokens, ``eval_count`` the generated tokens (thinking
  included); no total and no reasoning count are reported.

Decisions where docs/behaviour.md is silent:

* Messages (X2): ``/api/generate`` responses (``response`` + ``thinking``) give a chat message
  with the ``response`` as ``content``.
* The stream's turn: ``content`` / ``response`` and ``thinking`` pieces concatenated,
  ``tool_calls`` appended; the message's other keys and the top-level keys take the last
  non-null value.  Those keys are read on first use (as other families' kept events, an object
  changed after it was fed changes the turn): at most eight objects wait (then they are
  read), and an object of the usual shape -- exactly ``model``, ``created_at``, ``message`` and
  ``done``, none null, its message only ``role``, ``content`` and ``thinking`` with a role --
  replaces the usual object before it (it replaces each value that one set); the first
  usual object waits in its place, so the keys keep the order they came in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Optional

from .._types import ReasoningBlock
from ._access import (
    SCALARS,
    Figures,
    as_list,
    as_map,
    jsonify,
    missing,
    opt_int,
    opt_str,
    req_map,
    top_model,
)
from ._assemble import FIELD, Parts
from ._collector import Collector, SegmentKey
from ._family import Accumulator, Family, Message, MessageOptions, block

PROVIDER = "ollama"
_SEGMENT = SegmentKey("field", 0)
#: Keys an object's and a message's other keys leave out (text pieces, tool calls).
_NOT_BASE = frozenset({"message", "response", "thinking", "tool_calls"})
_MESSAGE_TEXT = frozenset({"content", "thinking", "tool_calls"})
#: At most this many objects wait to be read.
_WAITING_MAX = 8


def _fields(d: Mapping[str, Any]) -> tuple[Optional[Mapping[str, Any]], Optional[str],
                                           Optional[str]]:
    """``(message, answer text, thinking)`` of a chat or generate object (texts as received,
    ``None`` when absent)."""
    msg = d.get("message")
    if msg is not None:
        msg = msg if type(msg) is dict else req_map(d, "message")
        return msg, opt_str(msg, "content", "message"), opt_str(msg, "thinking", "message")
    if "response" in d or "thinking" in d:
        return None, opt_str(d, "response", ""), opt_str(d, "thinking", "")
    if "done" in d or d.get("type") in ("ping", "error"):
        return None, None, None
    raise missing("", "message", "an object")


def _figures(d: Mapping[str, Any]) -> Optional[Figures]:
    if "prompt_eval_count" not in d and "eval_count" not in d:
        return None
    return Figures((opt_int(d, "prompt_eval_count", ""), opt_int(d, "eval_count", ""), None, None))


def read(d: Mapping[str, Any], choice: int = 0) -> Parts:
    """A whole response (the same shape as a stream object)."""
    _, visible, thinking = _fields(d)
    return Parts((visible or "", [thinking] if thinking else None, FIELD, False, None,
                 _figures(d), d.get("done_reason")))


class Decoder:
    """Decodes streamed (NDJSON) ``/api/chat`` and ``/api/generate`` objects."""

    __slots__ = ("acc", "out")

    def __init__(self, out: Collector, choice: int = 0) -> None:
        self.out = out
        self.acc = OllamaAccumulator()

    def event(self, ev: Mapping[str, Any]) -> None:
        """One stream object: its message (or ``response``), counts and finish reason."""
        msg = ev.get("message")
        if type(msg) is dict:
            text = msg.get("content")
            if text is not None and type(text) is not str:
                text = opt_str(msg, "content", "message")
            thinking = msg.get("thinking")
            if thinking is not None and type(thinking) is not str:
                thinking = opt_str(msg, "thinking", "message")
        else:
            if ev.get("error") is not None:  # Ollama's error object (P16): its text
                self.out.error_event(ev, "error")
            msg, text, thinking = _fields(ev)
        # the usual object: model, created_at, message and done, none null, the message only
        # role, content and thinking (no counts, no finish reason)
        usual = (
            len(ev) == 4 and msg is not None
            and len(msg) == 1 + (text is not None) + (thinking is not None)
            and msg.get("role") is not None and ev.get("done") is not None
            and ev.get("model") is not None and ev.get("created_at") is not None
        )
        self.acc.add(ev, msg, text, thinking, usual)
        out = self.out
        if thinking:
            out.reasoning(_SEGMENT, thinking, FIELD)
        if text:
            out.visible(text)
        if usual:
            return
        figures = _figures(ev)
        if figures is not None:
            out.usage(figures)
        if ev.get("done_reason") is not None:
            out.finish(ev.get("done_reason"))

    def close(self) -> None:
        """Nothing is held per message."""


class OllamaAccumulator(Accumulator):
    """NDJSON objects added up (rules in the module docstring)."""

    def __init__(self) -> None:
        self.base: dict[str, Any] = {}
        self.msg: Optional[dict[str, Any]] = None  # the message's other keys (chat objects)
        self.texts: Optional[list[str]] = None  # content (or response) pieces
        self.thoughts: Optional[list[str]] = None  # thinking pieces
        self.keys: list[str] = []  # the text keys in the order their first piece came
        self.tools: list[Any] = []
        self.waiting: list[Mapping[str, Any]] = []  # objects whose other keys are not read yet
        self.newest: Optional[Mapping[str, Any]] = None  # the newest usual object, after them
        self.usual = False  # a usual object is waiting or read (its keys have their places)

    def add(self, ev: Mapping[str, Any], msg: Optional[Mapping[str, Any]], text: Optional[str],
            thinking: Optional[str], usual: bool) -> None:
        """One object, with the message and the text pieces the decoder read from it, and
        whether it has the usual shape (see the module docstring)."""
        if text is not None:
            if self.texts is None:
                self.texts = []
                self.keys.append("content" if msg is not None else "response")
            self.texts.append(text)
        if thinking is not None:
            if self.thoughts is None:
                self.thoughts = []
                self.keys.append("thinking")
            self.thoughts.append(thinking)
        if usual:
            if self.usual:
                self.newest = ev  # it replaces each value the usual object before it set
                return
            self.usual = True  # the first one waits in its place
        waiting = self.waiting
        if self.newest is not None:
            waiting.append(self.newest)
            self.newest = None
        waiting.append(ev)
        if len(waiting) > _WAITING_MAX:
            self._settle()

    def _settle(self) -> None:
        """Read the waiting objects' other keys, in order (the last non-null value wins)."""
        if self.newest is not None:
            self.waiting.append(self.newest)
            self.newest = None
        waiting, self.waiting = self.waiting, []
        base = self.base
        for ev in waiting:
            holder = ev
            msg = as_map(ev.get("message"))
            if msg is not None:
                holder = msg
                if self.msg is None:
                    self.msg = {}
                _read(self.msg, msg, _MESSAGE_TEXT)
            if holder.get("tool_calls"):
                self.tools.extend(jsonify(x) for x in as_list(holder["tool_calls"]))
            _read(base, ev, _NOT_BASE)

    def build(self) -> dict[str, Any]:
        self._settle()
        joined = {k: "".join((self.thoughts if k == "thinking" else self.texts) or ())
                  for k in self.keys}
        if self.msg is not None:
            m = {**self.msg, **{k: v for k, v in joined.items() if k != "response"}}
            m.setdefault("content", "")
            if self.tools:
                m["tool_calls"] = self.tools
            return {**self.base, "message": m}
        out = {**self.base, "response": joined.get("response", "")}
        if "thinking" in joined:
            out["thinking"] = joined["thinking"]
        return out


def _read(into: dict[str, Any], d: Mapping[str, Any], left_out: frozenset[str]) -> None:
    for k, v in d.items():
        if v is not None and k not in left_out:
            into[k] = v if type(v) in SCALARS else jsonify(v)


# --- the turn (X1, X2) -------------------------------------------------------------------------
def _holder(r: Mapping[str, Any]) -> Mapping[str, Any]:
    msg = as_map(r.get("message"))
    return msg if msg is not None else r


def blocks(r: Mapping[str, Any], choice: int) -> list[ReasoningBlock]:
    """One block for ``thinking``."""
    th = _holder(r).get("thinking")
    return [block(PROVIDER, "text", th, {"thinking": th})] if isinstance(th, str) else []


def message(r: Mapping[str, Any], choice: int, options: MessageOptions) -> Message:
    """``{"role": "assistant", "content", "thinking", "tool_calls"?}``."""
    holder = _holder(r)
    content = holder.get("content") if holder is not r else r.get("response")
    out: dict[str, Any] = {"role": "assistant", "content": content if content is not None else ""}
    if isinstance(holder.get("thinking"), str):
        out["thinking"] = holder["thinking"]
    if holder.get("tool_calls") is not None:
        out["tool_calls"] = jsonify(holder["tool_calls"])
    return out


def _is_response(d: Mapping[str, Any]) -> bool:
    msg = d.get("message")
    if (type(msg) is dict or isinstance(msg, Mapping)) and ("thinking" in msg or "done" in d):
        return True
    return "response" in d and ("thinking" in d or "done" in d)


FAMILY = Family(
    name=PROVIDER,
    keys=("message", "response"),
    is_response=_is_response,
    is_event=lambda e: "done" in e and ("message" in e or "response" in e),
    read=read,
    decoder=Decoder,
    blocks=blocks,
    message=message,
    model=top_model,
)
