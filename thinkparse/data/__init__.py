"""Datasets and chat traces.

* ``_trace``   -- ``reasoning_from_trace``, ``split_trace``: a chat transcript's reasoning;
* ``_convert`` -- ``convert_trace``: a chat trace rewritten to another convention;
* ``_columns`` -- ``split_think_many``: a column of texts at once (used by the dataset adapters).

Imports the providers, the text markup and the core.  The public names are re-exported by
:mod:`thinkparse`.
"""
