"""``thinkparse.langchain.TraceStoreCallback``: each chat model turn's reasoning in a trace store.

Imported by :mod:`thinkparse.langchain` (which checks that langchain-core is installed); the
decisions are in the class docstring.  Rules: docs/behaviour.md#w5, #d5, #b1.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Optional

from langchain_core.callbacks import BaseCallbackHandler

from thinkparse import Extraction, Usage, split_think

from ._options import check_options, model_of, options_for

if TYPE_CHECKING:
    from thinkparse import BudgetEvent, BudgetTracker, TraceStore

__all__ = ["TraceStoreCallback"]


class TraceStoreCallback(BaseCallbackHandler):  # type: ignore[misc]
    """Record each chat model turn's reasoning in a :class:`~thinkparse.TraceStore` (W5, D5).

    Pass it as a callback (``llm.invoke(..., config={"callbacks": [cb]})`` or
    ``ChatOpenAI(callbacks=[cb])``): at the end of each model run the turn's reasoning is stored,
    masked as the store masks it, and counted in the budget.

    Decisions: the turn is the run's first generation, read where the model put it --
    ``additional_kwargs["reasoning_content"]``, else the ``reasoning`` blocks of
    ``message.content_blocks`` (thinking blocks and the like), else ``split_think`` of its
    text with the given options or its model's preset; a plain LLM's text is split the same
    way.  ``reasoning_tokens`` comes from
    ``usage_metadata["output_token_details"]["reasoning"]`` when reported (B1, P5).  The model
    is the response's ``model_name`` / ``model``, else the request's, else ``"unknown"``;
    ``provider`` is the message's ``model_provider``, else ``"langchain"``; ``duration_ms`` runs
    from the model's start to its end; ``metadata`` holds the LangChain run id.  A failed run
    stores nothing.  Exceptions from the store or a budget callback propagate (``raise_error``),
    so a budget can stop an agent.

    Args:
        store: the :class:`~thinkparse.TraceStore`.
        session_key: the session (also the budget key).
        run_id: the run, as the store names it.
        budget: a :class:`~thinkparse.BudgetTracker` that counts each turn.
        **think_options: as :class:`ThinkSplitter`'s.

    Raises:
        TypeError: a wrong argument type or an unknown option.
        ValueError: an invalid option value or an empty key.
    """

    raise_error = True
    run_inline = True

    def __init__(
        self,
        store: TraceStore,
        /,
        *,
        session_key: str,
        run_id: str,
        budget: Optional[BudgetTracker] = None,
        **think_options: Any,
    ) -> None:
        from thinkparse import BudgetTracker, TraceStore

        if not isinstance(store, TraceStore):
            raise TypeError(f"store must be a TraceStore, not {type(store).__name__}")
        if budget is not None and not isinstance(budget, BudgetTracker):
            raise TypeError(f"budget must be a BudgetTracker, not {type(budget).__name__}")
        for name, value in (("session_key", session_key), ("run_id", run_id)):
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a str, not {type(value).__name__}")
            if not value:
                raise ValueError(f"{name} must not be empty")
        super().__init__()
        self.store = store
        self.session_key = session_key
        self.run_id = run_id
        self.budget = budget
        self._fixed = check_options("TraceStoreCallback", think_options)
        self._starts: dict[Any, tuple[float, Any]] = {}
        self.trace_ids: list[str] = []
        """The ids of the traces stored, in order."""
        self.events: list[BudgetEvent] = []
        """The budget events of the turns recorded."""

    def _start(self, run_id: Any, kwargs: dict[str, Any]) -> None:
        params = kwargs.get("invocation_params") or {}
        model = model_of(params) or (kwargs.get("metadata") or {}).get("ls_model_name")
        self._starts[run_id] = (time.monotonic(), model)

    def on_chat_model_start(self, serialized: Any, messages: Any, *, run_id: Any,
                            **kwargs: Any) -> None:
        """Note the start time and the requested model of a chat model run."""
        self._start(run_id, kwargs)

    def on_llm_start(self, serialized: Any, prompts: Any, *, run_id: Any, **kwargs: Any) -> None:
        """Note the start time and the requested model of an LLM run."""
        self._start(run_id, kwargs)

    def on_llm_error(self, error: BaseException, *, run_id: Any, **kwargs: Any) -> None:
        """A failed run stores nothing."""
        self._starts.pop(run_id, None)

    def on_llm_end(self, response: Any, *, run_id: Any, **kwargs: Any) -> None:
        """Store the turn's masked reasoning and count it in the budget.

        Raises:
            TraceStoreError: the store failed.
            Exception: what a budget callback raised, after the trace was stored.
        """
        started, requested = self._starts.pop(run_id, (None, None))
        generations = response.generations[0] if response.generations else []
        if not generations:
            return
        generation = generations[0]
        message = getattr(generation, "message", None)
        llm_output = response.llm_output if isinstance(response.llm_output, dict) else {}
        metadata = message.response_metadata if message is not None else {}
        model = model_of(metadata) or model_of(llm_output) or requested
        model = model if isinstance(model, str) and model else "unknown"
        extraction = self._extraction(message, generation.text, options_for(self._fixed, model))
        elapsed = 0.0 if started is None else time.monotonic() - started
        trace_id = self.store.record(
            extraction,
            session_key=self.session_key,
            run_id=self.run_id,
            model=model,
            duration_ms=int(elapsed * 1000),
            metadata={"langchain_run_id": str(run_id)},
        )
        self.trace_ids.append(trace_id)
        if self.budget is not None:
            self.events.extend(self.budget.record(self.session_key, extraction))

    @staticmethod
    def _extraction(message: Any, text: str, options: dict[str, Any]) -> Extraction:
        reasoning: Optional[str] = None
        fmt = "field"
        if message is not None:
            field = message.additional_kwargs.get("reasoning_content")
            if isinstance(field, str) and field.strip():
                reasoning = field
            else:
                found = [b.get("reasoning") for b in message.content_blocks
                         if b.get("type") == "reasoning"]
                found = [r for r in found if isinstance(r, str) and r.strip()]
                reasoning, fmt = ("\n\n".join(found), "blocks") if found else (None, fmt)
            text = message.text
        if reasoning is None:
            split = split_think(text, **options)
            text, reasoning = split.visible, split.reasoning
            fmt = "none" if reasoning is None else "tags"
        usage = getattr(message, "usage_metadata", None) or {}
        details = usage.get("output_token_details") or {}
        provider = message.response_metadata.get("model_provider") if message else None
        return Extraction(
            text,
            reasoning,
            details.get("reasoning"),
            0 if reasoning is None else -(-len(reasoning) // 4),
            False,
            (),
            provider if isinstance(provider, str) and provider else "langchain",
            fmt,
            Usage(usage.get("input_tokens"), usage.get("output_tokens"),
                  details.get("reasoning"), usage.get("total_tokens")),
        )
