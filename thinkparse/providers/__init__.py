"""Provider normalisers (see docs/behaviour.md#p1 to #p15): one module per wire family.

* :mod:`.openai_chat`, :mod:`.openai_responses`, :mod:`.anthropic`, :mod:`.gemini`,
  :mod:`.bedrock`, :mod:`.ollama`, :mod:`.cohere`: all of one family -- detection, the
  whole-response reader, the stream decoder and its accumulator, the blocks, the message form,
  the model name -- listed in its :class:`~._family.Family` record (a family too large for one
  module is a package whose ``__init__`` holds the record: :mod:`.openai_chat`, and
  :mod:`.gemini`, whose record serves ``generateContent`` and the Interactions API, P15).
* :mod:`._registry`: the records, :data:`FAMILIES` and detection (P8).
* :mod:`._access`: input conversion (P7), checked field access, JSON copies.
* :mod:`._collector`: the one collector of a stream's parts; :mod:`._assemble`: the last step
  both roads share; :mod:`._inline`: inline markup (P3); :mod:`._options`: think options.
* :mod:`._normalize`, :mod:`._stream`: :func:`normalize` and :class:`StreamNormalizer` (P9);
  :mod:`._turn`: the decoded turn and :func:`to_message` (X1, X2).

Harmony markup (P3) is text markup: :mod:`thinkparse.scan._harmony`.  Chat traces (P10) are
data: :mod:`thinkparse.data._trace`.
"""

from ._normalize import normalize
from ._registry import FAMILIES
from ._stream import StreamNormalizer
from ._turn import to_message

__all__ = ["FAMILIES", "StreamNormalizer", "normalize", "to_message"]
