"""Provider normalisers (see docs/behaviour.md#p1 to #p12): one module per wire family.

* :mod:`.openai_chat`, :mod:`.openai_responses`, :mod:`.anthropic`, :mod:`.gemini`,
  :mod:`.bedrock`, :mod:`.ollama`: one ``Decoder`` per family that turns a whole response or a
  stream event into parts, citing the wire facts it relies on.
* :mod:`._registry`: the families (name, detection, decoder), :data:`FAMILIES` (P8).
* :mod:`._access`: input conversion (P7) and path-aware field accessors.
* :mod:`._collector` (with :mod:`._inline`, :mod:`._assemble`): the one collector that builds
  every :class:`~thinkparse.Extraction`.
* :mod:`._normalize`, :mod:`._stream`: :func:`normalize` and :class:`StreamNormalizer` (P9).
* :mod:`._turn`, :mod:`._wire`, :mod:`._accumulate`, :mod:`._message`: blocks and the assistant
  message (X1, X2).

Harmony markup (P3) is text markup: :mod:`thinkparse.scan._harmony`.  Chat traces (P10) are
data: :mod:`thinkparse.data._trace`.
"""

from ._message import to_message
from ._normalize import normalize
from ._registry import FAMILIES
from ._stream import StreamNormalizer

__all__ = [
    "FAMILIES",
    "StreamNormalizer",
    "normalize",
    "to_message",
]
