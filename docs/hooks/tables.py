"""MkDocs hook: ``\\|`` inside a table cell reads ``|``, code spans included, as on GitHub.

The Markdown sources escape a pipe in a table cell as ``\\|`` (``--errors strict\\|replace``, the
model-name patterns of docs/presets.md), which GitHub renders as ``|`` everywhere in the cell.
Python-Markdown keeps the backslash inside code spans; this hook removes it there, in table
cells only, after the page is rendered.
"""

from __future__ import annotations

import re
from typing import Any

_CELL = re.compile(r"(<t[dh]\b[^>]*>)(.*?)(</t[dh]>)", re.S)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    return _CELL.sub(lambda m: m.group(1) + m.group(2).replace("\\|", "|") + m.group(3), html)
