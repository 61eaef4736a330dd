"""``thinkparse --html``: one standalone page of every input (see docs/behaviour.md#h2).

The command writes the page with :class:`thinkparse.PageStream`, loaded from here only when
``--html`` is given: the inputs are pushed to it as they are read, so memory stays bounded
however large the input.
"""

from __future__ import annotations

from ... import PageStream

__all__ = ["PageStream"]
