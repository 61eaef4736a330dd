"""R7 redaction of a text that arrives in pieces (``--stream``, ``traces record --stream``).

A stream cannot be redacted after the fact: what was written is gone.  :class:`StreamRedactor`
replaces each outermost ``<REDACTED>…</REDACTED>`` section by ``[REDACTED]`` as the pieces come,
giving for any cut of the text what ``parse()`` gives when it redacts the whole text
(docs/behaviour.md#r7):

* ``<REDACTED>`` and ``</REDACTED>`` are exact and case-sensitive; sections nest (the depth is
  counted), so a section ends at the closer that brings the depth back to zero;
* the mark is released when the outermost opener arrives, and nothing from inside a section is
  ever released; an opener that is never closed hides everything after it (fail closed);
* a closer without an opener stays as text.

Only a tail that could still become a tag is held back (from its last ``<``, at most 10
characters); the work is linear in the text.  The rule lives in ``parse()``; this module applies
it piece by piece, and the suite checks the two agree on every cut.
"""

from __future__ import annotations

import re

__all__ = ["StreamRedactor"]

OPEN = "<REDACTED>"
CLOSE = "</REDACTED>"
#: What an outermost section becomes (R7).
MARK = "[REDACTED]"
_TAG = re.compile(r"</?REDACTED>")


class StreamRedactor:
    """Redacts text fed piece by piece: ``feed(piece)`` returns what may be released now,
    ``close()`` the rest."""

    def __init__(self) -> None:
        self.depth = 0
        self.held = ""

    def feed(self, text: str) -> str:
        """The redacted text that ``text`` releases."""
        buf = self.held + text if self.held else text
        out: list[str] = []
        pos = 0
        for m in _TAG.finditer(buf):
            if self.depth == 0:
                out.append(buf[pos : m.start()])
            if m.group() == OPEN:
                if self.depth == 0:
                    out.append(MARK)
                self.depth += 1
            elif self.depth:
                self.depth -= 1
            else:
                out.append(m.group())  # a closer without an opener is text
            pos = m.end()
        rest = buf[pos:]
        cut = rest.rfind("<")
        if cut >= 0 and (OPEN.startswith(rest[cut:]) or CLOSE.startswith(rest[cut:])):
            self.held = rest[cut:]
            rest = rest[:cut]
        else:
            self.held = ""
        if self.depth == 0:
            out.append(rest)
        return "".join(out)

    def close(self) -> str:
        """The end of the text: what was held back, unless a section is still open."""
        held, self.held = self.held, ""
        return held if self.depth == 0 else ""
