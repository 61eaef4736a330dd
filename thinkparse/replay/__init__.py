"""Giving reasoning back: ``ReasoningContext`` and what it is made of.

* ``_context``    -- ``ReasoningContext``: the newest turns' reasoning, put back into requests;
* ``_segment``    -- ``Segment`` (one cached turn) and the snapshot version;
* ``_context_io`` -- ``ReasoningContext.from_dict``: a persisted context, validated;
* ``_attach``     -- putting segments back into a request, per family;
* ``_identity``   -- a turn's identity (tool-call ids, visible text), for matching.

Imports the providers, the text markup and the core.  The public names are re-exported
(on first use) by :mod:`thinkparse`.
"""
