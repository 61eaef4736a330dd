"""Recording: the trace store, the recorder, secret masking and the reasoning budget.

* ``_store``       -- ``TraceStore``, ``Trace``, ``TraceStoreError`` (SQLite);
* ``_queries``     -- the store's SQL: statements, the insert row, the filters, the paged read;
* ``_store_io``    -- the store's files: JSON Lines in and out, Parquet out;
* ``_trace_row``   -- the ``reasoning_traces`` row: schema, ``Trace`` value, argument checks;
* ``_recorder``    -- ``TraceRecorder``: a stream recorded as it is read;
* ``_masking``     -- ``mask_secrets``, ``Masked``, ``DEFAULT_MASKER``;
* ``_mask_rules``  -- the secret patterns;
* ``_budget``      -- ``BudgetTracker``, ``BudgetEvent``.

Imports the providers, the text markup and the core.  The public names are re-exported
(on first use) by :mod:`thinkparse`.
"""
