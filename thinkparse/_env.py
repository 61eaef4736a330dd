"""The ``THINKPARSE_*`` environment flags, read in one place.

A flag is *set* when its value, stripped and lowercased, is anything but ``""``, ``"0"``,
``"false"`` or ``"no"``.  The build script (``setup.py``) loads this file by path, so it imports
nothing from the package.

Flags:

* ``THINKPARSE_NO_EXTENSIONS`` -- at build time install pure Python; at import time select the
  pure-Python scanner (see docs/behaviour.md#s5).
* ``THINKPARSE_REQUIRE_EXTENSIONS`` -- a failed compile is a build error, and the test suite treats
  a missing compiled scanner as a failure.
* ``THINKPARSE_TRACEBACK`` -- the CLI prints the traceback of an internal error.
* ``THINKPARSE_REQUIRE_INTEGRATIONS`` -- the test suite treats a missing framework of the
  integrations (langchain-core, langchain-openai, litellm, pydantic-ai, openai-agents) as a
  failure instead of a skip.
"""

from __future__ import annotations

import os

NO_EXTENSIONS = "THINKPARSE_NO_EXTENSIONS"
REQUIRE_EXTENSIONS = "THINKPARSE_REQUIRE_EXTENSIONS"
TRACEBACK = "THINKPARSE_TRACEBACK"
REQUIRE_INTEGRATIONS = "THINKPARSE_REQUIRE_INTEGRATIONS"

_OFF = ("", "0", "false", "no")


def flag(name: str) -> bool:
    """Whether the environment flag ``name`` is set (see the module docstring).

    Args:
        name: the variable's name, e.g. ``"THINKPARSE_NO_EXTENSIONS"``.

    Returns:
        ``True`` unless the variable is absent or one of ``""``, ``"0"``, ``"false"``, ``"no"``.
    """
    return os.environ.get(name, "").strip().lower() not in _OFF
