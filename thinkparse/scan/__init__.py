"""Text markup, built on the scanner kernel (``thinkparse._scanner_py``, and the compiled
``thinkparse._scanner_c``).

* ``_scanner``         -- which kernel is used: ``IMPLEMENTATION``, ``ThinkScanner``, the
  ``ScannerProtocol`` both follow, the warning when the compiled one is missing;
* ``_think``           -- ``split_think``, ``strip_think``, ``iter_think``, ``aiter_think``;
* ``_reasoning_block`` -- ``parse`` for ``<REASONING>`` blocks;
* ``_harmony``         -- gpt-oss harmony markup: ``split_harmony``, ``HarmonyScanner``.

Imports the core only.  The public names are re-exported by :mod:`thinkparse`.
"""
