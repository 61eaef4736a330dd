"""Datasets and chat transcripts.

* ``_transcript`` -- the one reader of a chat-transcript message (P10, C1: the order of the
  sources), and ``reasoning_from_trace``, ``split_trace``;
* ``_convert``    -- ``convert_trace``: a chat transcript rewritten to another convention (C2);
* ``_columns``    -- ``split_think_many``: a column of texts at once (used by the dataset adapters).

In this package "transcript" means a list of chat messages; the public names keep the word
"trace" (docs/behaviour.md, "Words used throughout").  Imports the providers, the text markup
and the core.  The public names are re-exported by :mod:`thinkparse`.
"""
