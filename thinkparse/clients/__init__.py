"""Real clients: Server-Sent Events and SDK streams.

* ``_sse``     -- ``iter_sse``, ``aiter_sse``: events of an SSE body;
* ``_sdk``     -- ``stream_deltas``, ``astream_deltas``, ``DeltaStream``, ``AsyncDeltaStream``;
* ``_closing`` -- ``with`` and ``async with`` for the stream wrappers;
* ``_openai_stream`` -- the chunk streams of :func:`thinkparse.openai.wrap` and the helpers its
  plain results share (used by :mod:`thinkparse.openai`).

Imports the providers, the text markup and the core.  The public names are re-exported
(on first use) by :mod:`thinkparse`.
"""
